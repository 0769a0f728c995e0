"""``/tables/{id}/alert-records``: the fairness alerts as records, for the supervisor, the
dealer and the organiser (and the auditor, who reads), each acknowledged once with a reason."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request
from fastapi.responses import Response

from croupier.service import alert_acks, store
from croupier.service.api.act import act
from croupier.service.api.deps import MOST, WHOLE, AlertAcknowledger, AlertRecordReader, Key, Svc, TableId
from croupier.service.api.models import VoidBody
from croupier.service.api.night import alerts
from croupier.service.api.replies import TableReply
from croupier.service.api.report_replies import AlertRecords

router = APIRouter(prefix="/tables/{table_id}", tags=["supervisor"])

AlertSeq = Annotated[int, Path(ge=1, le=MOST), WHOLE]


@router.get("/alert-records", response_model=AlertRecords)
def alert_records(table_id: TableId, user: AlertRecordReader, svc: Svc) -> dict[str, Any]:
    """Every fairness alert raised at the table, oldest first, each with its acknowledgement
    (``acknowledged``: who, why, when; None while it has none)."""
    svc.tables.find(table_id)
    with store.reading(svc.engine) as conn:
        return {"table": table_id, "alerts": alerts(svc, conn, [table_id])}


@dataclass(frozen=True)
class AlertAt:
    """The alert a request names: the table and the alert event's place in its chain."""

    table_id: str
    seq: int


def alert_at(table_id: TableId, seq: AlertSeq) -> AlertAt:
    return AlertAt(table_id, seq)


@router.post("/alert-records/{seq}/acknowledge", response_model=TableReply)
async def acknowledge(request: Request, at: Annotated[AlertAt, Depends(alert_at)],
                      body: VoidBody, user: AlertAcknowledger, key: Key, svc: Svc) -> Response:
    """Acknowledge the alert at ``seq`` with a reason (recorded in the table's chain)."""
    return await act(request, body, user, at.table_id, key,
                     lambda live: alert_acks.acknowledge(user, live, at.seq, body.reason),
                     changes=False)
