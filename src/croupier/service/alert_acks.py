"""A fairness alert acknowledged: who saw it and why play goes on, kept as a record.

An alert (an ``integrity_alert`` event) stays in the table's chain; its acknowledgement is a
``procedure`` event in the same chain (name ``alert_acknowledged``), naming the alert by its
sequence number, the person, and the reason they gave. A supervisor, the dealer or the
organiser acknowledges each alert once; the end-of-night report lists every alert with its
acknowledgement, or says it has none.

Nobody acknowledges an alert about their own acts: a dice set's or a wheel's alert is about
the results entered from that equipment at the table until the alert (by whichever dealer
entered them, a voided entry included), a void-rate alert about the voids it counts (who
asked for and approved each: a supervisor's alert counts the voids they took part in, so it is
about whoever took part in them too). The person acknowledging must be independent of every one of
them, counted as people, not accounts (:func:`croupier.service.people.not_independent`):
a dealer, or an account of the dealer's own line, does not answer for the dealer's entries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Row

from croupier.errors import Refusal
from croupier.service import codec, people, store
from croupier.service import events as sv
from croupier.service.auth import User
from croupier.service.live import LiveTable
from croupier.service.monitoring import dice_set_id
from croupier.service.plans import Plan
from croupier.service.void_watch import MONITOR as VOID_MONITOR

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
    alert, it is already acknowledged, or ``user`` is not independent of a person whose acts
    it is about)."""
    def plan(conn: Connection) -> Plan:
        alerts = {r.seq for r in events_of(conn, live.id, sv.IntegrityAlert.kind)}
        if seq not in alerts:
            raise Refusal(f"table {live.id} has no fairness alert #{seq}", CLAUSE)
        done = _acks(live.game.name, conn, live.id).get(seq)
        if done is not None:
            raise Refusal(f"alert #{seq} was acknowledged by {done['by']}: {done['reason']}",
                          CLAUSE)
        for person in sorted(about(conn, live, seq)):
            why = people.not_independent(conn, person, user.username)
            if why is not None:
                raise Refusal(f"alert #{seq} is about acts of {person}: it is acknowledged by "
                              f"a person independent of them ({why})", CLAUSE)
        return Plan([sv.Procedure(NAME, user.username, f"{seq}: {reason}", CLAUSE)])
    return plan


def about(conn: Connection, live: LiveTable, seq: int) -> set[str]:
    """The people whose acts the alert at ``seq`` of ``live`` is about: who entered the
    results of its dice set or wheel at the table before it (a voided entry too: the monitor
    saw it), or who took part in the voids a void-rate alert counts."""
    rows = conn.execute(sa.select(store.events.c.seq, store.events.c.payload).where(
        store.events.c.table_id == live.id, store.events.c.seq <= seq)
        .order_by(store.events.c.seq)).all()
    decoded = [(r.seq, codec.decode(live.game.name, r.payload)) for r in rows]
    alert = decoded[-1][1] if decoded and decoded[-1][0] == seq else None
    if not isinstance(alert, sv.IntegrityAlert):
        return set()
    if alert.monitor == VOID_MONITOR:
        voiders = [{e.by, e.approved_by or e.by} for _, e in decoded if isinstance(e, sv.Voided)]
        named = alert.set_id.removeprefix(f"{live.id}:")
        if named != alert.set_id:
            # A person's alert counts the voids they took part in (with every account that
            # is one person with them): it is about them and whoever asked for or approved
            # those voids with them (else the two supervisors of the same voids would each
            # answer for the other's alert).
            line = people.one_person(conn, named)
            voiders = [v for v in voiders if v & line]
            return set().union({named}, *voiders)
        # The table's is about everyone who took part.
        return set().union(*voiders) if voiders else set()
    entrants: set[str] = set()
    in_play: tuple[str, ...] = ()
    for _, event in decoded:
        if isinstance(event, sv.DiceSelected):
            in_play = event.serials
        elif isinstance(event, sv.DiceChanged):
            in_play = ()
        elif isinstance(event, sv.Entered):
            where = dice_set_id(in_play) if alert.equipment == "dice" else alert.set_id
            if where == alert.set_id:
                entrants.add(event.by)
    return entrants
