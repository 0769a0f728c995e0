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
    round: int
    seqs: tuple[int, ...]
    reason: str
    by: str


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
class PayTableApplied(Event):
    """The house's pay table for the table's game and profile, taken at a round boundary:
    ``pays`` is the whole override table from now on (``service/paytable_changes.py``)."""

    kind: ClassVar[str] = "pay_table_applied"
    change: int
    """The house record of the change (its ``seq`` in the house's chain)."""
    pays: tuple[tuple[str, str], ...]
    clause: str


SERVICE_EVENTS: tuple[type[Event], ...] = (
    BettingClosed, LateBetAsked, LateBetConfirmed, LateBetLapsed, Drawn, Entered, DiceOffered,
    DiceSelected, ShootRefused, DiceChangeCalled, DiceChanged, Voided, IntegrityAlert,
    Procedure, PayTableApplied,
)
