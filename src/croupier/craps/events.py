"""The events of a craps table. Folding them in order rebuilds the table (``CrapsTable.apply``)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

from croupier.events import Event, Opened, Settled

__all__ = [
    "BetMade", "BetTakenDown", "CalledOn", "Moved", "Rolled", "Seated", "Settled",
    "ShooterChanged", "TableOpened",
]


@dataclass(frozen=True)
class TableOpened(Opened):
    """The craps table opened: the players' starting chips and the first shooter."""

    kind: ClassVar[str] = "open"
    players: tuple[tuple[str, Decimal], ...]
    shooter: str


@dataclass(frozen=True)
class BetMade(Event):
    """A wager put down, or ``amount`` added to the same wager (with any commission due now)."""

    kind: ClassVar[str] = "bet"
    player: str
    wager: str
    wager_id: str
    qualifier: Any
    state: Any
    amount: Decimal
    commission: Decimal = Decimal(0)


@dataclass(frozen=True)
class BetTakenDown(Event):
    """``amount`` of a wager back to the bankroll; ``whole`` when the wager comes off."""

    kind: ClassVar[str] = "take_down"
    player: str
    wager: str
    amount: Decimal
    whole: bool


@dataclass(frozen=True)
class CalledOn(Event):
    """A wager called working ("on") or not working ("off") on come-out rolls."""

    kind: ClassVar[str] = "call"
    player: str
    wager: str
    on: bool


@dataclass(frozen=True)
class Seated(Event):
    kind: ClassVar[str] = "seat"
    player: str
    seated: bool


@dataclass(frozen=True)
class Rolled(Event):
    kind: ClassVar[str] = "roll"
    dice: tuple[int, int]
    total: int
    point_before: int | None
    point_after: int | None
    hardway: bool
    come_out: bool


@dataclass(frozen=True)
class Moved(Event):
    """A wager not decided by the roll moves to a new state (a come bet travels to its number)."""

    kind: ClassVar[str] = "move"
    player: str
    wager: str
    to: str
    state: Any


@dataclass(frozen=True)
class ShooterChanged(Event):
    kind: ClassVar[str] = "shooter"
    shooter: str
    reason: str
