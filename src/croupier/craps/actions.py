"""What can be done at a craps table, as typed values (read by :mod:`croupier.craps.reading`).

:meth:`CrapsTable.check` turns one into its events (or a refusal) without changing anything;
:meth:`CrapsTable.act` then folds them in.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from croupier.craps.wagers import Qualifier


@dataclass(frozen=True)
class Bet:
    """``amount`` put on a wager (``wager`` is its id, as ``place_win``), or added to it;
    ``covered`` of it stands for a match play coupon (not chips in the player's hand)."""

    player: str
    wager: str
    qualifier: Qualifier
    amount: Decimal
    covered: Decimal = Decimal(0)


@dataclass(frozen=True)
class TakeDown:
    """A wager removed (``amount`` None) or reduced by ``amount``."""

    player: str
    wager: str
    qualifier: Qualifier
    amount: Decimal | None = None


@dataclass(frozen=True)
class Call:
    """A wager called working (``on``) or not working on come-out rolls."""

    player: str
    wager: str
    qualifier: Qualifier
    on: bool


@dataclass(frozen=True)
class DownOnWin:
    """A place, buy or lay wager called "down on the win": when it next wins it comes down
    with its win instead of staying up (at a table with the option ``down_on_win``)."""

    player: str
    wager: str
    qualifier: Qualifier


@dataclass(frozen=True)
class OffDuringPoint:
    """A wager called "off" while a point is established: it does not work until it is called
    on again or the point is decided (at a table with the option ``off_during_point``)."""

    player: str
    wager: str
    qualifier: Qualifier


@dataclass(frozen=True)
class Roll:
    """The dice come to rest showing ``d1`` and ``d2``."""

    d1: int
    d2: int


@dataclass(frozen=True)
class PassDice:
    """The dice pass to ``to`` (on completion of a decision)."""

    to: str


@dataclass(frozen=True)
class Sit:
    """A player takes (``seated``) or leaves a seat (mini-craps)."""

    player: str
    seated: bool


CrapsAction = Bet | TakeDown | Call | DownOnWin | OffDuringPoint | Roll | PassDice | Sit
