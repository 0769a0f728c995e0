"""Recall: a table's events, alerts and rounds, one round in full, a player's last rounds."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from croupier.service import codec, recall, store, visibility
from croupier.service import events as sv
from croupier.service.api import queries
from croupier.service.api.deps import (
    MOST,
    WHOLE,
    AlertReader,
    PlayerOrOverseer,
    RecallReader,
    RoundNo,
    RoundReading,
    Svc,
    TableId,
    UserName,
    known_query,
)
from croupier.service.api.record_replies import PlayerRound, Recorded, RoundListed, RoundRecord, TableAlerts
from croupier.service.api.replies import answers
from croupier.service.errors import ApiError

router = APIRouter(tags=["recall"])


@router.get("/tables/{table_id}/events", dependencies=[Depends(known_query("since", "limit"))],
            response_model=None, responses=answers(list[Recorded]))
def table_events(table_id: TableId, user: RecallReader, svc: Svc,
                 since: Annotated[int, Query(ge=0, le=MOST), WHOLE] = 0,
                 limit: Annotated[int, Query(ge=1, le=1000), WHOLE] = 200) -> list[dict[str, Any]]:
    """The table's events after ``since``, oldest first, as the caller's role may see them
    (:mod:`croupier.service.visibility`, as the stream and recall show them)."""
    live = svc.tables.find(table_id)
    with store.reading(svc.engine) as conn:
        rows = queries.events_after(conn, table_id, since, limit)
    return visibility.views(user.role, user.username, (
        {"seq": r.seq, "round": r.round, "actor": r.actor, "at": r.at,
         **codec.decode(live.game.name, r.payload).to_json()} for r in rows))


@router.get("/tables/{table_id}/alerts", response_model=None, responses=answers(TableAlerts))
def table_alerts(table_id: TableId, user: AlertReader, svc: Svc) -> dict[str, Any]:
    """The fairness monitors' alerts at the table (newest last; ``voided`` when the roll or
    spin that raised one was voided) and each monitor's state (supervisors, auditors)."""
    live = svc.tables.find(table_id)
    with store.reading(svc.engine) as conn:
        rows = queries.events_of_kinds(conn, table_id, (sv.IntegrityAlert.kind, sv.Voided.kind))
    decoded = [(r, codec.decode(live.game.name, r.payload)) for r in rows]
    voided = {s for _, e in decoded if isinstance(e, sv.Voided) for s in e.seqs}
    with svc.tables.read(live):
        monitors = live.monitors.summary(live.procedures.dice_set())
    return {"table": table_id,
            "alerts": [{"seq": r.seq, "round": r.round, "at": r.at, "voided": r.seq in voided,
                        **e.to_json()} for r, e in decoded if isinstance(e, sv.IntegrityAlert)],
            "monitors": monitors}


@router.get("/tables/{table_id}/rounds", dependencies=[Depends(known_query("limit"))],
            response_model=None, responses=answers(list[RoundListed]))
def table_rounds(table_id: TableId, user: RecallReader, svc: Svc,
                 limit: Annotated[int, Query(ge=1, le=500), WHOLE] = 20) -> list[dict[str, Any]]:
    svc.tables.find(table_id)
    with store.reading(svc.engine) as conn:
        return recall.rounds_list(conn, table_id, limit)


@router.get("/tables/{table_id}/rounds/{round_no}", response_model=None,
            responses=answers(RoundRecord))
def round_detail(table_id: TableId, round_no: RoundNo, reading: RoundReading,
                 svc: Svc) -> dict[str, Any]:
    """A round's wagers, outcome (with the RNG's raw draw), settlements, balances before and
    after. Players may recall the rounds they took part in, and see only their own part."""
    user = reading.user
    with store.reading(svc.engine) as conn:
        if reading.own_only and not queries.took_part(conn, table_id, round_no,
                                                      user.username):
            raise ApiError(403, "forbidden", "players recall only their own rounds")
        record = recall.round_record(conn, table_id, round_no)
    if record is None:
        raise ApiError(404, "not_found", f"no round {round_no} at table {table_id!r}")
    if reading.whole:
        return record
    return recall.for_player(record, user.username, user.role)


@router.get("/players/{player}/rounds", dependencies=[Depends(known_query("limit"))],
            response_model=None, responses=answers(list[PlayerRound]))
def player_rounds(player: UserName, user: PlayerOrOverseer, svc: Svc,
                  limit: Annotated[int, Query(ge=1, le=10), WHOLE] = 10) -> list[dict[str, Any]]:
    """A player's last ten rounds, newest first."""
    with store.reading(svc.engine) as conn:
        return recall.player_rounds(conn, player, limit)
