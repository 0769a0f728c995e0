"""Running a table action through the ledger's group commit, as an HTTP answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from pydantic import BaseModel

from croupier.service import paytables
from croupier.service.api.deps import Services
from croupier.service.api.errors import reply
from croupier.service.auth import User
from croupier.service.plans import Job, Plan, fingerprint

PlanFn = Callable[[Any], Plan]


async def act(request: Request, svc: Services, body: BaseModel | None, user: User,
              table_id: str, key: str | None, make: Callable[[Any], PlanFn],
              settle: Callable[[Any], PlanFn] | None = None, phase: str = "act",
              changes: bool = True) -> Response:
    """Run an action with the others queued meanwhile, in one transaction (group commit):
    on SQLite in the event loop (one writer; its transactions take well under a
    millisecond), on PostgreSQL in a worker thread per table (tables run in parallel).
    ``settle``: the action records an outcome, committed on its own, then settled by this
    plan in the next transaction (``Runner.run_outcome``). ``changes``: a change of the
    house's pay table that has come due applies before the action (not before a supervisor's
    correction of the last decision, which it would leave behind)."""
    return await act_at(svc, (request.method, fingerprint_path(request)), body, user, table_id,
                        key, make, settle, phase, changes)


def fingerprint_path(request: Request) -> str:
    """The path an idempotency key's request is known by."""
    path: str = request.scope["path"]
    if not plain_path(path):
        path = request.url.path  # escaped as the URL shows it (building it costs more)
    return path


def plain_path(path: str) -> bool:
    """Whether ``path`` reads the same escaped as the URL shows it (nearly every path)."""
    return not path.startswith("//") and not any(c in path for c in "?#\\")


async def act_at(svc: Services, where: tuple[str, str], body: BaseModel | None, user: User,
                 table_id: str, key: str | None, make: Callable[[Any], PlanFn],
                 settle: Callable[[Any], PlanFn] | None = None, phase: str = "act",
                 changes: bool = True) -> Response:
    """:func:`act` for a request known by its method and path (``where``)."""
    live = svc.tables.find(table_id)
    if changes:
        await paytables.take_due_change(svc.engine, svc.committer, live)
    fp = fingerprint(*where, body.model_dump(mode="json") if body is not None else None)
    job = Job(user, live, key, fp, make(live), phase,
              settle(live) if settle is not None else None)
    return reply(await svc.committer.run(job))
