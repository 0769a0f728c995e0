"""Running a table action through the ledger's group commit, as an HTTP answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from pydantic import BaseModel

from croupier.service import actions, paytables
from croupier.service.api.deps import Services
from croupier.service.api.errors import reply
from croupier.service.auth import User
from croupier.service.ledger import Job, fingerprint


async def act(request: Request, svc: Services, body: BaseModel | None, user: User,
              table_id: str, key: str | None, make: Callable[[Any], actions.PlanFn],
              ) -> Response:
    """Run an action with the others queued meanwhile, in one transaction (group commit):
    on SQLite in the event loop (one writer; its transactions take well under a
    millisecond), on PostgreSQL in a worker thread per table (tables run in parallel)."""
    live = svc.ledger.table(table_id)
    await paytables.take_due_change(svc.engine, svc.committer, live)
    path: str = request.scope["path"]
    if path.startswith("//") or any(c in path for c in "?#\\"):
        path = request.url.path  # escaped as the URL shows it (building it costs more)
    fp = fingerprint(request.method, path,
                     body.model_dump(mode="json") if body is not None else None)
    return reply(await svc.committer.run(Job(user, live, key, fp, make(live))))
