"""Events the service adds to a table's log: chips in and out, procedures, equipment, voids.

The engines' own events say what happened at the layout; these say what the service did around
it (a cashier's buy-in, the dealer calling "no more bets", dice offered and selected, a
supervisor's void). They fold into :class:`croupier.service.live.LiveTable`.

>>> from decimal import Decimal
>>> ChipsIn("ann", Decimal(50)).to_json()
{'type': 'chips_in', 'player': 'ann', 'amount': '50.00'}
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

from croupier.events import Event


@dataclass(frozen=True)
class ChipsIn(Event):
    """The cashier moved ``amount`` from the player's wallet to their place at the table."""

    kind: ClassVar[str] = "chips_in"
    player: str
    amount: Decimal


@dataclass(frozen=True)
class ChipsOut(Event):
    """The cashier moved ``amount`` of the player's chips back to their wallet."""

    kind: ClassVar[str] = "chips_out"
    player: str
    amount: Decimal


@dataclass(frozen=True)
class Left(Event):
    """The player left the table (no chips and no wagers remain)."""

    kind: ClassVar[str] = "left"
    player: str


@dataclass(frozen=True)
class Adjusted(Event):
    """A supervisor's compensating entry: ``amount`` (signed) between the house and a player."""

    kind: ClassVar[str] = "adjust"
    player: str
    amount: Decimal
    reason: str
    by: str


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
class CouponIn(Event):
    """A match play coupon of ``amount`` put with as much in chips on a Pass or Don't Pass wager:
    the coupon's value is staked (from the house) beside the player's chips."""

    kind: ClassVar[str] = "coupon_in"
    player: str
    wager: str
    amount: Decimal
    clause: str


@dataclass(frozen=True)
class CouponOut(Event):
    """The coupon's wager decided or taken down: unless it lost, the coupon's value goes back
    to the house (the player keeps the winnings on both and their own stake)."""

    kind: ClassVar[str] = "coupon_out"
    player: str
    wager: str
    amount: Decimal
    result: str


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


SERVICE_EVENTS: tuple[type[Event], ...] = (
    CouponIn, CouponOut, ChipsIn, ChipsOut, Left, Adjusted, BettingClosed, LateBetAsked, LateBetConfirmed,
    LateBetLapsed, Drawn, Entered, DiceOffered, DiceSelected, ShootRefused, DiceChangeCalled,
    DiceChanged, Voided, IntegrityAlert,
)
