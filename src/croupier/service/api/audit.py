"""``/audit``: the whole ledger checked against itself."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from croupier.service.api import lanes
from croupier.service.api.deps import Svc, Verifier
from croupier.service.api.record_replies import Verdict
from croupier.service.api.replies import answers
from croupier.service.audit.verify import verify_ledger

router = APIRouter(prefix="/audit", tags=["recall"])


@router.get("/verify", response_model=None, responses=answers(Verdict))
async def verify(request: Request, user: Verifier, svc: Svc) -> dict[str, Any]:
    """Rebuild every table from its events and check every balance against them (one audit
    at a time, on a thread of its own: :mod:`.lanes`; 503 when several wait already)."""
    with lanes.AUDITS.of(request).turn() as lane:
        return await lane.run(verify_ledger, svc.tables)
