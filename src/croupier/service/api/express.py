"""The express lane: a player's bet, straight from the request guard to the ledger.

A bet is nearly every request a live table gets, and most of its time went to the framework
around it rather than to the bet: routing through every router, resolving its dependencies
(services, bearer token, role, key) one by one, three layers of exception and exit-stack
middleware. This lane answers ``POST /tables/{id}/bets`` itself when the request is an
ordinary one: a JSON body that is a valid :class:`BetBody`, a bearer token of a player, an
``Idempotency-Key`` of 1 to 128 characters, a table id of at most 64. It then makes the very
same checks with the same functions (:func:`~croupier.service.auth.Auth.user_for_async`,
:func:`~croupier.service.api.deps.forbid_unless`, the body model) and runs the very same
bet (:func:`~croupier.service.api.bets.place`), answering refusals with the same function as
the app's error handlers (:func:`~croupier.service.api.errors.answer`).

Anything else (no token or a wrong one, another role, a missing key, a body the model refuses,
another content type) goes the long way, through the app's own route, which gives the answer
with its usual wording. Nothing has been changed by then: the lane only reads before it
decides. Installed inside the request guard and the access log, so the size limit, the
duplicate-key check, the security headers, the request id and the log line are the same on
both ways.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from pydantic import ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send

from croupier.service.acting import Asked
from croupier.service.api import bets, errors
from croupier.service.api.act import plain_path
from croupier.service.api.deps import PLAYERS, Services, allowed
from croupier.service.api.guard import PARSED, ClientGone, read_limited, replay_body
from croupier.service.api.models import BetBody

PREFIX = "/tables/"
SUFFIX = "/bets"
MAX_TABLE_ID = 64
MAX_KEY = 128


def bet_table(scope: Scope) -> str | None:
    """The table of a ``POST /tables/{id}/bets`` request, or None for any other request.

    >>> bet_table({"type": "http", "method": "POST", "path": "/tables/craps-1/bets"})
    'craps-1'
    >>> bet_table({"type": "http", "method": "POST", "path": "/tables/a/b/bets"}) is None
    True
    """
    if scope["type"] != "http" or scope["method"] != "POST":
        return None
    path: str = scope["path"]
    if not (path.startswith(PREFIX) and path.endswith(SUFFIX)):
        return None
    table_id = path[len(PREFIX):-len(SUFFIX)]
    if not table_id or "/" in table_id or len(table_id) > MAX_TABLE_ID or not plain_path(path):
        return None
    return table_id


def _headers(scope: Scope) -> dict[bytes, str]:
    """The first value of each header, as the framework reads a single-valued one."""
    found: dict[bytes, str] = {}
    for name, value in scope["headers"]:
        found.setdefault(name, value.decode("latin-1"))
    return found


def _bearer(headers: dict[bytes, str]) -> str | None:
    scheme, _, token = headers.get(b"authorization", "").partition(" ")
    return token if scheme.lower() == "bearer" and token else None


def _body(scope: Scope, headers: dict[bytes, str], raw: bytes) -> BetBody | None:
    if headers.get(b"content-type", "").split(";")[0].strip().lower() != "application/json":
        return None
    parsed = scope.get(PARSED)  # the guard in front has read it (the same bytes) already
    try:
        value = parsed[1] if parsed is not None and parsed[0] == raw else json.loads(raw)
        return BetBody.model_validate(value)
    except (ValueError, ValidationError, RecursionError):
        return None


async def ordinary(svc: Services, scope: Scope, table_id: str, raw: bytes) -> Asked | None:
    """The bet, read as the route reads it, if every check the route makes before the bet
    passes; None if any fails."""
    headers = _headers(scope)
    token = _bearer(headers)
    key = headers.get(b"idempotency-key")
    if token is None or key is None or not 1 <= len(key) <= MAX_KEY:
        return None
    body = _body(scope, headers, raw)
    if body is None:
        return None
    user = await svc.auth.user_for_async(token)
    if user is None or not allowed(user, PLAYERS):
        return None
    return Asked(user, table_id, key, (scope["method"], scope["path"]),
                 body.model_dump(mode="json"))


class ExpressBets:
    """ASGI middleware: ordinary bets answered here, every other request passed on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        table_id = bet_table(scope)
        if table_id is None:
            await self.app(scope, receive, send)
            return
        try:
            raw = await read_limited(receive)
        except ClientGone:
            return  # the guard in front drops these; answered by nobody either way
        if raw is None:  # the guard in front has already refused a body over the limit
            raw = b""
        svc: Services = scope["app"].state.services
        call = await ordinary(svc, scope, table_id, raw)
        if call is None:
            await self.app(scope, replay_body(raw), send)
            return
        response = await _answer(svc, call)
        await response(scope, receive, send)


async def _answer(svc: Services, asked: Asked) -> Any:
    try:
        return await bets.place(svc, asked)
    except errors.DOMAIN_ERRORS as exc:
        return errors.answer(exc)
    except sa.exc.DBAPIError as exc:
        found = errors.answer(exc)
        if found is None:
            raise
        return found


def install(app: Any) -> None:
    """Put the lane in front of ``app``'s routes (call before the guard is installed)."""
    app.add_middleware(ExpressBets)
