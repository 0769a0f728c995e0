"""``/health``: liveness, the database in use and the RNG's source."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from croupier.service.api.account_replies import Health
from croupier.service.api.deps import Svc
from croupier.service.api.replies import answers

router = APIRouter(tags=["service"])


@router.get("/health", response_model=None, responses=answers(Health))
def health(svc: Svc) -> dict[str, Any]:
    """Liveness, the database in use and the RNG's source (``os`` unless in test mode)."""
    # The kind of generator only: a test seed is never disclosed.
    return {"status": "ok", "database": svc.engine.dialect.name,
            "rng": svc.rng.source.split(":")[0],
            "tables": len(svc.tables.all)}
