"""Roulette events: what happens at the table, in the dealer's order.

Settlements use the shared :class:`croupier.events.Settled`; the events here are the rest:
the table opening (so the log alone rebuilds the table), chips placed and taken back, the
crown on the winning number, the five adjacent fifth moved, and "no spin".

>>> from decimal import Decimal
>>> BetPlaced("ann", "split:0-00", "split", (0, "00"), Decimal(5), Decimal(5)).to_json()["numbers"]
[0, '00']
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar

from croupier.events import Event, Opened
from croupier.roulette.wheel import Pocket


@dataclass(frozen=True)
class TableOpened(Opened):
    """The table as opened: rules, options, the effective pay table and the bankrolls."""

    kind: ClassVar[str] = "table_opened"
    profile: str
    wheel: str
    zero_rule: str
    five_adjacent: bool
    seven_numbers: bool
    unit: Decimal
    min_bet: Decimal
    max_bet: Decimal | None
    pays: tuple[tuple[str, str], ...]
    players: tuple[tuple[str, Decimal], ...]
    approved_layout: tuple[str, ...] | None = None
    """The wagers the table's approved layout provides for; None: not stated (the replay
    contract's default, every optional wager's area is on the layout)."""

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        if self.approved_layout is None:  # openings made before the option read as before
            del out["approved_layout"]
        return out


@dataclass(frozen=True)
class BetPlaced(Event):
    """``amount`` in chips from the bankroll onto ``wager``, whose stake is now ``stake``."""

    kind: ClassVar[str] = "bet"
    player: str
    wager: str
    wager_id: str
    numbers: tuple[Pocket, ...]
    amount: Decimal
    stake: Decimal


@dataclass(frozen=True)
class BetRemoved(Event):
    """The whole wager taken back to the bankroll before the spin."""

    kind: ClassVar[str] = "remove"
    player: str
    wager: str
    returned: Decimal


@dataclass(frozen=True)
class NoSpin(Event):
    """A void spin: nothing is settled and every wager stays on the layout."""

    kind: ClassVar[str] = "no_spin"
    reason: str
    clause: str
    number: Pocket | None = None


@dataclass(frozen=True)
class Crowned(Event):
    """A valid spin: the number announced and the crown (dolly) placed on it."""

    kind: ClassVar[str] = "crown"
    number: Pocket
    colour: str
    clause: str


@dataclass(frozen=True)
class FifthMoved(Event):
    """One fifth of a winning five adjacent wager moved from the wheel replica to the number."""

    kind: ClassVar[str] = "five_adjacent_moved"
    player: str
    wager: str
    amount: Decimal
    to: str
    clause: str
