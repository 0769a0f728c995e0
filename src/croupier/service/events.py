"""Events the service adds to a table's log: procedures, equipment, voids, alerts.

The engines' own events say what happened at the layout and to the players' chips; these say
what the service did around it (the dealer calling "no more bets", late bets, dice offered and
selected, a supervisor's void). They fold into :class:`croupier.service.live.LiveTable`.

>>> from decimal import Decimal
>>> ChipsIn("ann", Decimal(50)).to_json()
{'type': 'chips_in', 'player': 'ann', 'amount': '50.00'}
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

# The shared events (chips, coupons, adjustments) are the engines' own (croupier.events); they
# are named here too so the service reads ``sv.ChipsIn`` as before.
from croupier.events import Adjusted as Adjusted
from croupier.events import ChipsIn as ChipsIn
from croupier.events import ChipsOut as ChipsOut
from croupier.events import CouponIn as CouponIn
from croupier.events import CouponOut as CouponOut
from croupier.events import Event
from croupier.events import Left as Left


@dataclass(frozen=True)
class BettingClosed(Event):
    """The dealer called "no more bets" (roulette) or the dice are in the air (craps)."""

    kind: ClassVar[str] = "no_more_bets"
    by: str
    clause: str


@dataclass(frozen=True)
class LateBetAsked(Event):
    """A wager offered while the dice are in the air: held until dealer and boxperson confirm."""

    kind: ClassVar[str] = "late_bet"
    late_id: int
    player: str
    wager: str
    qualifier: Any
    amount: Decimal
    clause: str


@dataclass(frozen=True)
class LateBetConfirmed(Event):
    kind: ClassVar[str] = "late_bet_confirmed"
    late_id: int
    by: str
    role: str


@dataclass(frozen=True)
class LateBetLapsed(Event):
    """A late wager not confirmed, or refused by the rules when confirmed: nothing moved."""

    kind: ClassVar[str] = "late_bet_lapsed"
    late_id: int
    reason: str


@dataclass(frozen=True)
class Drawn(Event):
    """The random draw behind a roll or spin: raw bytes drawn (rejected ones too), the outcome."""

    kind: ClassVar[str] = "draw"
    source: str
    """The generator's name as recorded (a :class:`~croupier.service.rng.DrawSource` value
    now; an older release's ledger may hold another, ``seeded:11``)."""
    raw: tuple[int, ...]
    outcome: tuple[Any, ...]


@dataclass(frozen=True)
class Entered(Event):
    """A physical result entered by the dealer instead of a draw."""

    kind: ClassVar[str] = "entered"
    by: str
    outcome: tuple[Any, ...]


@dataclass(frozen=True)
class DiceOffered(Event):
    """The stickperson offered these dice (at least five) to ``to``."""

    kind: ClassVar[str] = "dice_offered"
    serials: tuple[str, ...]
    to: str
    clause: str


@dataclass(frozen=True)
class DiceSelected(Event):
    kind: ClassVar[str] = "dice_selected"
    player: str
    serials: tuple[str, ...]


@dataclass(frozen=True)
class ShootRefused(Event):
    """A player refused to shoot in their turn (13:47-20.25(g)7)."""

    kind: ClassVar[str] = "shoot_refused"
    player: str
    clause: str


@dataclass(frozen=True)
class DiceChangeCalled(Event):
    kind: ClassVar[str] = "dice_change_called"
    by: str
    clause: str


@dataclass(frozen=True)
class DiceChanged(Event):
    """The dice in play went back to the cup after a decision; new dice must be offered."""

    kind: ClassVar[str] = "dice_changed"
    serials: tuple[str, ...]
    clause: str


@dataclass(frozen=True)
class Voided(Event):
    """A supervisor voided a decision: its events no longer count (history is not edited)."""

    kind: ClassVar[str] = "void"
    decision: int
    """The round whose decision is voided (named so that the event's own round, where it is
    recorded, stays the round it is recorded in)."""
    seqs: tuple[int, ...]
    reason: str
    by: str
    approved_by: str | None = None
    """The second supervisor, where the voided outcome was the RNG's (its stakes returned)."""


@dataclass(frozen=True)
class IntegrityAlert(Event):
    """A fairness monitor (:mod:`croupier.integrity`) alarmed on the dice set or wheel in play:
    the supervisor is alerted and, at craps, a change of dice is called with it."""

    kind: ClassVar[str] = "integrity_alert"
    equipment: str
    """``dice`` or ``wheel``."""
    set_id: str
    """The dice set (its serials) or the wheel (its table)."""
    monitor: str
    observation: int
    """The roll or spin of this dice set or wheel at which the monitor alarmed (1-based)."""
    statistic: Decimal
    threshold: Decimal
    message: str


@dataclass(frozen=True)
class Procedure(Event):
    """A procedure the server runs at the table, recorded in its chain: the stickperson's call
    of a roll (13:47-20.25(e)4), the ball spun against the wheel's rotation with its
    revolutions counted (13:47-20.32(j)1) (``service/table_procedures.py``)."""

    kind: ClassVar[str] = "procedure"
    name: str
    by: str
    detail: str
    clause: str


@dataclass(frozen=True)
class SpinDeclared(Event):
    """What the dealer declared of a spin with its outcome (13:47-20.32(m)): the revolutions
    counted, a ball spun in the wheel's direction, a foreign object. Recorded with the outcome,
    before it is settled, so the settlement reads the spin as it was declared."""

    kind: ClassVar[str] = "spin_declared"
    revolutions: int | None
    same_direction: bool
    foreign_object: bool


@dataclass(frozen=True)
class TableHalted(Event):
    """The outcome at ``outcome_seq`` stands, but the table could not settle it: play stops
    until a supervisor resolves it (``service/halts.py``). ``wager`` names the player's wager
    that could not be settled ("" when the settlement failed otherwise)."""

    kind: ClassVar[str] = "table_halted"
    outcome_seq: int
    player: str
    wager: str
    reason: str
    clause: str


@dataclass(frozen=True)
class HaltResolved(Event):
    """A supervisor resolved a halt by the recorded procedure: the named wager's stake went
    back to its player (the events before this one) and the outcome is settled next."""

    kind: ClassVar[str] = "halt_resolved"
    outcome_seq: int
    by: str
    reason: str
    clause: str


@dataclass(frozen=True)
class VoidAsked(Event):
    """A supervisor asked to void round ``decision``'s outcome, drawn by the RNG: it is voided
    only when a second supervisor approves, before anything else happens at the table."""

    kind: ClassVar[str] = "void_asked"
    decision: int
    """The round whose decision the void is asked of."""
    reason: str
    by: str


@dataclass(frozen=True)
class AdjustmentAsked(Event):
    """A supervisor asked for an adjustment that needs a second person (over the limit, or
    past what one supervisor may move for one player in the period alone): nothing moves
    until another supervisor approves. ``pending`` is its number (``service/controls.py``)."""

    kind: ClassVar[str] = "adjustment_asked"
    pending: int
    player: str
    amount: Decimal
    reason: str
    by: str


@dataclass(frozen=True)
class AdjustmentApproved(Event):
    """A second supervisor approved pending adjustment ``pending``: the ``adjust`` event that
    follows moves the chips."""

    kind: ClassVar[str] = "adjustment_approved"
    pending: int
    player: str
    amount: Decimal
    by: str


@dataclass(frozen=True)
class AdjustmentWithdrawn(Event):
    """The supervisor who asked pending adjustment ``pending`` withdrew it: no chips move."""

    kind: ClassVar[str] = "adjustment_withdrawn"
    pending: int
    player: str
    amount: Decimal
    by: str
    reason: str


@dataclass(frozen=True)
class AdjustmentDeclined(Event):
    """A supervisor other than the one who asked declined pending adjustment ``pending``, with
    a reason: no chips move."""

    kind: ClassVar[str] = "adjustment_declined"
    pending: int
    player: str
    amount: Decimal
    by: str
    reason: str


ADJUSTMENT_DECIDED = (AdjustmentApproved, AdjustmentWithdrawn, AdjustmentDeclined)
"""The events that end a pending adjustment: approved, withdrawn by its asker, declined."""


SERVICE_EVENTS: tuple[type[Event], ...] = (
    BettingClosed, LateBetAsked, LateBetConfirmed, LateBetLapsed, Drawn, Entered, DiceOffered,
    DiceSelected, ShootRefused, DiceChangeCalled, DiceChanged, Voided, IntegrityAlert,
    Procedure, SpinDeclared, TableHalted, HaltResolved, VoidAsked, AdjustmentAsked,
    AdjustmentApproved, AdjustmentWithdrawn, AdjustmentDeclined,
)
