"""``/audit``: the whole ledger checked against itself."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from croupier.service.api.deps import Svc, Verifier
from croupier.service.api.record_replies import Verdict
from croupier.service.api.replies import answers
from croupier.service.audit.verify import verify_ledger

router = APIRouter(prefix="/audit", tags=["recall"])


@router.get("/verify", response_model=None, responses=answers(Verdict))
def verify(user: Verifier, svc: Svc) -> dict[str, Any]:
    """Rebuild every table from its events and check every balance against them."""
    return verify_ledger(svc.tables)
