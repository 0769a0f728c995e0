"""Rounds as recall shows them: one row per decision, written with it, and marked when voided.

A round is everything from the first event after a decision to the next decision. When an
action decides one (a roll, a spin), its row is written in the same transaction: the outcome
as the family's procedures describe it, the draw (the RNG's raw bytes, or who entered it), the
layout and the players' balances before and after, and who took part. A void marks its round.

The rows are a projection, for recall and the reports: nothing that moves money is decided from
them (a void reads its round from the table's chained events, ``service/voids.py``; a table
rebuilt takes its round under way from its events, ``tables.next_round``), and the audit
rebuilds each from the events and compares (``audit.replay.RoundCheck``, and
``audit.replay.PlayersCheck`` for who may look each round up).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection

from croupier.events import Event
from croupier.service import events as sv
from croupier.service import store
from croupier.service.live import LiveTable, PendingOutcome
from croupier.service.rng import DrawSource


@dataclass(frozen=True)
class Before:
    """The table as a decision finds it: where its round began, the outcome it settles,
    the balances and the layout."""

    round_no: int
    first_seq: int
    pending: PendingOutcome | None
    balances: dict[str, Any]
    layout: list[dict[str, Any]]

    @classmethod
    def of(cls, live: LiveTable) -> Before:
        pending = live.pending
        return cls(live.round, pending.seq if pending is not None else live.seq + 1, pending,
                   live.balances(), live.layout())


def record(conn: Connection, live: LiveTable, before: Before, decided: Sequence[Event],
           at: float) -> None:
    """The row of the round ``decided`` (the decision's events) ends, and its players."""
    outcome: dict[str, Any] = {"from_seq": before.first_seq,
                               **live.procedures.describe(decided)}
    conn.execute(store.rounds.insert().values(
        table_id=live.id, round=before.round_no, first_seq=live.round_first_seq,
        last_seq=live.seq, outcome=json.dumps(outcome), draw=json.dumps(draw_of(before.pending)),
        layout=json.dumps(before.layout), before=json.dumps(before.balances),
        after=json.dumps(live.balances()), decided_at=at, voided=None))
    players = live.participants | {w["player"] for w in before.layout}
    if players:
        conn.execute(store.round_players.insert(), [
            {"table_id": live.id, "round": before.round_no, "player": p, "decided_at": at}
            for p in sorted(players)])
    live.end_round(live.seq + 1)


def draw_of(pending: PendingOutcome | None) -> dict[str, Any]:
    """The draw a round's row shows: the RNG's raw bytes, or who entered the outcome."""
    event = pending.event if pending is not None else None
    if isinstance(event, sv.Drawn):
        return {"source": event.source, "raw": list(event.raw), "outcome": list(event.outcome)}
    if isinstance(event, sv.Entered):
        return {"source": DrawSource.ENTERED, "by": event.by, "outcome": list(event.outcome)}
    return {}


def void_mark(voided: sv.Voided) -> dict[str, Any]:
    """What a round's row shows of the void of its decision (the audit rebuilds it from the
    chained event and compares)."""
    mark: dict[str, Any] = {"reason": voided.reason, "by": voided.by}
    if voided.approved_by:
        mark["approved_by"] = voided.approved_by
    return mark


def mark_voided(conn: Connection, table_id: str, round_no: int, voided: sv.Voided) -> None:
    """Mark round ``round_no``'s row voided, by whom and why."""
    conn.execute(store.rounds.update().where(
        store.rounds.c.table_id == table_id, store.rounds.c.round == round_no).values(
        voided=json.dumps(void_mark(voided))))
