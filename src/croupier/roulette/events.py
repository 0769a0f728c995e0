"""Roulette events: what happens at the table, in the dealer's order.

Chips placed, taken back and settled are the events every game shares
(:class:`croupier.events.BetMade`, :class:`~croupier.events.BetTakenDown`,
:class:`~croupier.events.Settled`); the events here are the rest: the table opening (so the
log alone rebuilds the table), the crown on the winning number, the five adjacent fifth
moved, and "no spin".

>>> from decimal import Decimal
>>> Crowned(17, "black", "N.J.A.C. 13:47-20.32(l)").to_json()["number"]
17
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
class LayoutWithdrawn(Event):
    """The approved layout that offered ``wagers`` at this table was taken out of service (it
    failed an inspection, was retired or was taken from the table): from now on those wagers
    are refused, citing ``clause``; wagers already on the layout are settled as they were
    made. ``item``: the layout's id in the equipment register; ``reason``: what happened."""

    kind: ClassVar[str] = "layout_withdrawn"
    wagers: tuple[str, ...]
    item: str
    reason: str
    clause: str


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
