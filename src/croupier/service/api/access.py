"""The access log and the request id: one line per request, and an id an error can be traced by.

Every HTTP request gets a request id (the client's ``X-Request-ID`` when it is a short token of
letters, digits, ``.``, ``_`` and ``-``; otherwise a new random one). Every response carries it
in ``X-Request-ID``; every JSON error body carries it too, as ``error.request_id``, so a person
reading a refusal on the screen and an operator reading the log speak of the same request.
When the request is done, one line goes to the ``croupier.access`` logger, stamped with the
time the request came in::

    2026-11-30T14:05:09.123Z 5f0c2a9e4b1d4e7a POST /tables/craps-1/bets 409 3.1ms

The line holds the path, never the query's secrets: a query parameter whose name suggests a
credential is logged as ``name=***``. A request a route did not answer (an unexpected
exception) is answered here with a 500 that says nothing changed, carrying the id.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, quote

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from croupier.service.api.guard import SECURITY_HEADERS

HEADER = b"x-request-id"
_CLIENT_ID = re.compile(rb"[A-Za-z0-9._-]{8,64}")
_SECRET_NAME = re.compile(r"token|pass|secret|key|auth|sig|session|code|otp|cookie", re.I)
# An error body is held back whole to add the id; a larger one (none is) passes unchanged.
_MAX_ERROR_BODY = 256 * 1024

log = logging.getLogger("croupier.access")
errors_log = logging.getLogger("croupier.service")


def request_id(scope: Scope) -> str:
    """The request id of ``scope`` (set by :class:`AccessLog`), or "" outside it."""
    return str(scope.get("state", {}).get("request_id", ""))


def _id_for(scope: Scope) -> str:
    for name, value in scope.get("headers", []):
        if name == HEADER and _CLIENT_ID.fullmatch(value):
            return bytes(value).decode("ascii")
    return secrets.token_hex(8)


def safe_target(scope: Scope) -> str:
    """The path and query as logged: a credential-like parameter's value is replaced."""
    path: str = quote(str(scope.get("path", "")), safe="/-._~:@!$&'()*+,;=%")
    raw = scope.get("query_string", b"").decode("latin-1")
    if not raw:
        return path
    pairs = [f"{quote(k)}=***" if _SECRET_NAME.search(k) else f"{quote(k)}={quote(v)}"
             for k, v in parse_qsl(raw, keep_blank_values=True)]
    return f"{path}?{'&'.join(pairs)}" if pairs else path


_second: tuple[int, str] = (-1, "")
"""The last whole second a line was stamped in, and its text: a line costs one clock reading
and the milliseconds' three digits, not a date formatted for every request."""


def _stamp(now: int) -> str:
    """``now`` (nanoseconds since the epoch, :func:`time.time_ns`) as the line's UTC time, to
    the millisecond (cut, not rounded, as a clock's reading is shown).

    >>> _stamp(1764504000_123999999), _stamp(1764504009_000000000)
    ('2025-11-30T12:00:00.123Z', '2025-11-30T12:00:09.000Z')
    """
    global _second
    second, part = divmod(now // 1_000_000, 1000)
    known = _second  # read once: a server with loops in several threads shares it
    if second != known[0]:
        known = _second = (second, datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S"))
    return f"{known[1]}.{part:03d}Z"


def with_request_id(body: bytes, rid: str) -> bytes | None:
    """A JSON error body with ``error.request_id`` added; None when it is not one."""
    try:
        data = json.loads(body)
    except ValueError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("error"), dict):
        return None
    data["error"]["request_id"] = rid
    return json.dumps(data).encode()


class _Exchange:
    """One request's answer as it passes: its status, and an error body held to add the id."""

    def __init__(self, send: Send, rid: str) -> None:
        self.send, self.rid = send, rid
        self.status = 0
        self.held: Message | None = None
        self.chunks: list[bytes] = []
        self.started = False  # whether any of the answer has gone to the client

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.status = int(message["status"])
            headers = [(n, v) for n, v in message.get("headers", []) if n.lower() != HEADER]
            message = {**message, "headers": [*headers, (HEADER, self.rid.encode())]}
            if self.status >= 400 and _is_json(headers):
                self.held = message  # sent with the body, once the id is in it
                return
        elif message["type"] == "http.response.body" and self.held is not None:
            self.chunks.append(message.get("body", b""))
            if message.get("more_body", False) and sum(map(len, self.chunks)) < _MAX_ERROR_BODY:
                return
            await self._release(more=bool(message.get("more_body", False)))
            return
        await self.send(message)

    async def _release(self, more: bool) -> None:
        assert self.held is not None
        body = b"".join(self.chunks)
        changed = None if more else with_request_id(body, self.rid)
        start = self.held
        if changed is not None:
            body = changed
            start = {**start, "headers": [
                *[(n, v) for n, v in start["headers"] if n.lower() != b"content-length"],
                (b"content-length", str(len(body)).encode())]}
        self.held, self.started = None, True
        await self.send(start)
        await self.send({"type": "http.response.body", "body": body, "more_body": more})


def _is_json(headers: list[tuple[bytes, bytes]]) -> bool:
    return any(n.lower() == b"content-type" and v.startswith(b"application/json")
               for n, v in headers)


def _internal(rid: str) -> bytes:
    return json.dumps({"error": {"code": "internal", "clause": "", "request_id": rid,
                                 "reason": "internal error; nothing was changed by this "
                                           "request"}}).encode()


class AccessLog:
    """ASGI middleware: the request id on every answer and error body, one log line each."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = _id_for(scope)
        scope.setdefault("state", {})["request_id"] = rid
        came, began = time.time_ns(), time.perf_counter()  # the line says when the request came
        if scope["type"] == "websocket":
            status = await self._websocket(scope, receive, send)
        else:
            status = await self._http(scope, receive, send, rid)
        took = (time.perf_counter() - began) * 1000
        method = "WS" if scope["type"] == "websocket" else scope["method"]
        if log.isEnabledFor(logging.INFO):  # off (``--access-log off``), nothing to format
            log.info("%s %s %s %s %d %.1fms", _stamp(came), rid, method, safe_target(scope),
                     status, took)

    async def _http(self, scope: Scope, receive: Receive, send: Send, rid: str) -> int:
        exchange = _Exchange(send, rid)
        try:
            await self.app(scope, receive, exchange)
        except Exception:
            errors_log.exception("internal error on %s %s (request %s)", scope["method"],
                                 scope.get("path", ""), rid)
            if exchange.started:
                raise  # the answer is half sent: the server can only drop the connection
            body = _internal(rid)
            await send({"type": "http.response.start", "status": 500, "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()), (HEADER, rid.encode()),
                *SECURITY_HEADERS]})
            await send({"type": "http.response.body", "body": body})
            return 500
        return exchange.status

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> int:
        accepted = False

        async def watch(message: Message) -> None:
            nonlocal accepted
            accepted = accepted or message["type"] == "websocket.accept"
            await send(message)

        await self.app(scope, receive, watch)
        return 101 if accepted else 403


def install(app: Any) -> None:
    """Put the access log outside every other middleware of ``app`` added so far."""
    app.add_middleware(AccessLog)
