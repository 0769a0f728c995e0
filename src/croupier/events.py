"""Typed, serialisable events: what happened at a table, the single source of truth for its state.

Every change to a table is an event; a table folds its events into state, so the events alone
rebuild it (``Table.from_events``). Events serialise to plain JSON with money as decimal strings.

>>> from decimal import Decimal
>>> Settled("alice", "place_win:6", Decimal("12"), "win", paid=Decimal("14")).to_json()["paid"]
'14.00'
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from decimal import Decimal
from typing import Any, ClassVar

from croupier.money import fmt

_OMIT_WHEN_NONE = frozenset({"part_of", "clause", "odds", "qualifier", "state"})


def _json_value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return fmt(value)
    if isinstance(value, tuple):
        return [_json_value(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(_json_value(v) for v in value)
    return value


@dataclass(frozen=True)
class Event:
    """Base of every event; ``kind`` names it in JSON."""

    kind: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None and f.name in _OMIT_WHEN_NONE:
                continue
            out[f.name] = _json_value(value)
        return out


@dataclass(frozen=True)
class Settled(Event):
    """A wager (or one part of a split wager) decided: ``result`` is win, lose, push or returned.

    ``paid`` is the winnings at ``odds``; ``commission`` what the house keeps out of them;
    ``taken`` the stake the house collects on a loss; ``returned`` the stake that goes back to
    the bankroll. The player receives ``returned + paid - commission``; ``stays_up`` when the
    stake stays on the layout after a win.
    """

    kind: ClassVar[str] = "settle"
    player: str
    wager: str
    stake: Decimal
    result: str
    paid: Decimal = Decimal(0)
    taken: Decimal = Decimal(0)
    returned: Decimal = Decimal(0)
    commission: Decimal = Decimal(0)
    odds: str | None = None
    stays_up: bool = False
    part_of: str | None = None
    clause: str | None = field(default=None)
