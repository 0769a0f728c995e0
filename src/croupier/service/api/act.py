"""Running a table action through the ledger's group commit, as an HTTP answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypedDict, Unpack

from fastapi import Request
from fastapi.responses import Response
from pydantic import BaseModel

from croupier.service import acting
from croupier.service.acting import Asked, Steps
from croupier.service.api.deps import Services
from croupier.service.api.errors import reply
from croupier.service.auth import User
from croupier.service.plans import PlanFn


class How(TypedDict, total=False):
    """How an action runs, beyond its plan (:class:`~croupier.service.acting.Steps`)."""

    settle: Callable[[Any], PlanFn] | None
    phase: str
    changes: bool


async def act(request: Request, body: BaseModel | None, user: User, table_id: str,
              key: str | None, make: Callable[[Any], PlanFn], **how: Unpack[How]) -> Response:
    """Run an action (:func:`croupier.service.acting.run`) and answer with its reply: the
    request read once (its body as JSON), its plan made at the table by ``make``."""
    svc: Services = request.app.state.services
    asked = Asked(user, table_id, key, (request.method, fingerprint_path(request)),
                  body.model_dump(mode="json") if body is not None else None)
    return await act_at(svc, asked, make, **how)


async def act_at(svc: Services, asked: Asked, make: Callable[[Any], PlanFn],
                 **how: Unpack[How]) -> Response:
    """:func:`act` for a request already read."""
    return reply(await acting.run(svc, asked, Steps(make, **how)))


def fingerprint_path(request: Request) -> str:
    """The path an idempotency key's request is known by."""
    path: str = request.scope["path"]
    if not plain_path(path):
        path = request.url.path  # escaped as the URL shows it (building it costs more)
    return path


def plain_path(path: str) -> bool:
    """Whether ``path`` reads the same escaped as the URL shows it (nearly every path)."""
    return not path.startswith("//") and not any(c in path for c in "?#\\")
