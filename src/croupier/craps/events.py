"""The events of a craps table. Folding them in order rebuilds the table (``CrapsTable.apply``).

A wager made, taken down or settled is one of the events every game shares
(:mod:`croupier.events`), re-exported here; the rest are craps's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

from croupier.events import BetMade, BetTakenDown, Event, Opened, PayTableApplied, Settled

__all__ = [
    "BetMade", "BetTakenDown", "CalledDownOnWin", "CalledOffDuringPoint", "CalledOn", "Moved",
    "PayTableApplied", "Rolled", "Seated", "Settled", "ShooterChanged", "TableOpened",
]


@dataclass(frozen=True)
class TableOpened(Opened):
    """The craps table opened: the players' starting chips and the first shooter (earlier
    releases stored it as kind ``open``; the replay result still names it so)."""

    players: tuple[tuple[str, Decimal], ...]
    shooter: str


@dataclass(frozen=True)
class CalledOn(Event):
    """A wager called working ("on") or not working ("off") on come-out rolls."""

    kind: ClassVar[str] = "call"
    player: str
    wager: str
    on: bool


@dataclass(frozen=True)
class CalledDownOnWin(Event):
    """A wager called "down on the win": its next win takes it down, stake and win paid."""

    kind: ClassVar[str] = "down_on_win"
    player: str
    wager: str


@dataclass(frozen=True)
class CalledOffDuringPoint(Event):
    """A wager called "off" for the rest of the point (``off``), or back "on" (not ``off``)."""

    kind: ClassVar[str] = "off_during_point"
    player: str
    wager: str
    off: bool


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
