"""A fairness alert acknowledged: who saw it and why play goes on, kept as a record.

An alert (an ``integrity_alert`` event) stays in the table's chain; its acknowledgement is a
``procedure`` event in the same chain (name ``alert_acknowledged``), naming the alert by its
sequence number, the person, and the reason they gave. A supervisor, the dealer or the
organiser acknowledges each alert once; the end-of-night report lists every alert with its
acknowledgement, or says it has none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Row

from croupier.errors import Refusal
from croupier.service import codec, store
from croupier.service import events as sv
from croupier.service.auth import User
from croupier.service.live import LiveTable
from croupier.service.plans import Plan

NAME = "alert_acknowledged"
# The house's own control over its equipment: a monitor's alarm is looked into and answered
# before play goes on with the same dice or wheel.
CLAUSE = "the house's fairness monitoring (internal controls)"

PlanFn = Callable[[Connection], Plan]


def events_of(conn: Connection, table_id: str, kind: str) -> list[Row[Any]]:
    """The table's events of ``kind``, in order."""
    return list(conn.execute(sa.select(store.events).where(
        store.events.c.table_id == table_id, store.events.c.kind == kind)
        .order_by(store.events.c.seq)).all())


def _acks(game: str, conn: Connection, table_id: str) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for r in events_of(conn, table_id, sv.Procedure.kind):
        e = codec.decode(game, r.payload)
        if isinstance(e, sv.Procedure) and e.name == NAME:
            seq, _, reason = e.detail.partition(": ")
            out.setdefault(int(seq), {"by": e.by, "reason": reason, "at": r.at, "seq": r.seq})
    return out


def acknowledgements(svc: Any, conn: Connection, table_ids: list[str],
                     ) -> dict[tuple[str, int], dict[str, Any]]:
    """Each acknowledged alert, by (table, the alert's sequence number)."""
    return {(t, seq): ack for t in table_ids
            for seq, ack in _acks(svc.tables.find(t).game.name, conn, t).items()}


def acknowledge(user: User, live: LiveTable, seq: int, reason: str) -> PlanFn:
    """The acknowledgement of the alert at ``seq`` of ``live`` (refused if there is no such
    alert or it is already acknowledged)."""
    def plan(conn: Connection) -> Plan:
        alerts = {r.seq for r in events_of(conn, live.id, sv.IntegrityAlert.kind)}
        if seq not in alerts:
            raise Refusal(f"table {live.id} has no fairness alert #{seq}", CLAUSE)
        done = _acks(live.game.name, conn, live.id).get(seq)
        if done is not None:
            raise Refusal(f"alert #{seq} was acknowledged by {done['by']}: {done['reason']}",
                          CLAUSE)
        return Plan([sv.Procedure(NAME, user.username, f"{seq}: {reason}", CLAUSE)])
    return plan
