"""The fairness monitors at a live table: one per dice set in play, one per wheel.

Every decided roll or spin is observed as it is folded into its table (so replaying the event
log on a restart, or after a void, rebuilds exactly the same monitors). A roll is observed by
the monitor of the dice set in play, keyed by the selected dice's serials: when the dice
change, the new dice get their own, fresh monitor. A spin is observed by the table's wheel
monitor; a ball at rest in a void pocket (00 on a double-zero wheel played as single zero) is
"no spin" for the wagers but still an outcome of the wheel (see docs/integrity.md), while an
irregular spin (no number) is not observed.

:func:`ledger_outcomes` reads the same outcomes back from a ledger for ``croupier integrity
--ledger``.

>>> monitors = TableMonitors("t1", None)
>>> from croupier.craps.events import Rolled
>>> monitors.observe(Rolled((3, 4), 7, None, None, False, False), ("NJ-2", "NJ-1"))
[]
>>> [(m["id"], m["n"]) for m in monitors.summary(("NJ-1", "NJ-2"))]
[('NJ-1+NJ-2', 1)]
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.craps.events import Rolled
from croupier.events import Event
from croupier.games import GAMES
from croupier.integrity import Alert, DiceMonitor, WheelMonitor
from croupier.integrity.base import BaseMonitor
from croupier.roulette.events import Crowned, NoSpin
from croupier.roulette.wheel import Wheel
from croupier.rules import load_profile
from croupier.service import codec, store
from croupier.service import events as sv

MONITOR_ACTOR = "integrity-monitor"
"""Who calls the change of dice an alert asks for."""


def dice_set_id(serials: Sequence[str]) -> str:
    """A dice set's id: its serials, sorted, joined with ``+`` (``"-"`` if none were recorded)."""
    return "+".join(sorted(serials)) or "-"


def outcome_of(event: Event) -> tuple[str, Any] | None:
    """What a monitor observes in an event: ``("dice", (d1, d2))``, ``("wheel", pocket)``, or
    None (not a decided roll or a ball at rest in a pocket)."""
    if isinstance(event, Rolled):
        return "dice", event.dice
    if isinstance(event, Crowned):
        return "wheel", event.number
    if isinstance(event, NoSpin) and event.number is not None:
        return "wheel", event.number
    return None


def alert_event(alert: Alert) -> sv.IntegrityAlert:
    return sv.IntegrityAlert(alert.kind, alert.set_id, alert.monitor, alert.at,
                             Decimal(f"{alert.statistic:.4f}"), Decimal(f"{alert.threshold:.4f}"),
                             alert.message)


def _summary(monitor: BaseMonitor, **extra: Any) -> dict[str, Any]:
    ratios = monitor.state.ratios()
    return {"kind": monitor.kind, "id": monitor.set_id, "n": monitor.n,
            "alarmed": monitor.alarmed, "peak": round(max(ratios, default=0.0), 6),
            "alarms": [a.to_json() for a in monitor.alarms], **extra}


class TableMonitors:
    """The monitors of one table: a dice monitor per dice set, or the wheel's monitor."""

    def __init__(self, table_id: str, wheel: Wheel | None) -> None:
        self.dice: dict[str, DiceMonitor] = {}
        self._table_id, self._wheel_def = table_id, wheel
        self._wheel: WheelMonitor | None = None

    @property
    def wheel(self) -> WheelMonitor | None:
        """The wheel's monitor, made when first needed: calibrating its thresholds takes
        longer than loading a table, and most processes that load one never spin it."""
        if self._wheel is None and self._wheel_def is not None:
            self._wheel = WheelMonitor(self._wheel_def, self._table_id)
        return self._wheel

    def observe(self, event: Event, in_play: Sequence[str]) -> list[Alert]:
        """Observe a folded event (rolled with ``in_play``); the alerts it raises."""
        seen = outcome_of(event)
        if seen is None:
            return []
        kind, value = seen
        if kind == "dice":
            key = dice_set_id(in_play)
            monitor = self.dice.get(key)
            if monitor is None:
                monitor = self.dice[key] = DiceMonitor(key)
            return monitor.observe(*value)
        if self.wheel is not None and value in self.wheel.position:
            return self.wheel.observe(value)
        return []

    def summary(self, in_play: Sequence[str] = ()) -> list[dict[str, Any]]:
        """Each monitor's state: observations, alarms, and its statistic nearest its
        threshold (``peak``, 1.0 is an alarm)."""
        current = dice_set_id(in_play) if in_play else None
        out = [_summary(m, in_play=key == current) for key, m in self.dice.items()]
        if self.wheel is not None:
            out.append(_summary(self.wheel, wheel=self.wheel.wheel.id))
        return out


@dataclass(frozen=True)
class Outcome:
    """One decided roll or spin in a ledger, for the monitors."""

    kind: str
    set_id: str
    value: Any
    wheel: Wheel | None = None


def ledger_outcomes(conn: Connection) -> Iterator[Outcome]:
    """Every decided roll and spin in the ledger (voided rounds left out), table by table in
    the order they happened: rolls by dice set, spins by wheel (its table)."""
    for table in conn.execute(sa.select(store.tables).order_by(store.tables.c.created_at)):
        engine = GAMES[table.game].open(load_profile(table.profile),
                                        json.loads(table.options, parse_float=Decimal), {})
        wheel: Wheel | None = getattr(engine, "wheel", None)
        rows = conn.execute(sa.select(store.events.c.seq, store.events.c.payload).where(
            store.events.c.table_id == table.id).order_by(store.events.c.seq)).all()
        decoded = [(r.seq, codec.decode(table.game, r.payload)) for r in rows]
        voided = {s for _, e in decoded if isinstance(e, sv.Voided) for s in e.seqs}
        in_play: tuple[str, ...] = ()
        for seq, event in decoded:
            if seq in voided:
                continue
            if isinstance(event, sv.DiceSelected):
                in_play = event.serials
            elif isinstance(event, sv.DiceChanged):
                in_play = ()
            seen = outcome_of(event)
            if seen is None:
                continue
            if seen[0] == "dice":
                yield Outcome("dice", dice_set_id(in_play), seen[1])
            elif wheel is not None:
                yield Outcome("wheel", table.id, seen[1], wheel)
