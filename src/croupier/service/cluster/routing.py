"""Requests for a table go to the node that holds its lease (forwarded over loopback HTTP).

Any node answers any request (as behind a load balancer). A request under ``/tables/{id}`` is
served here when this node holds the table's lease. Otherwise its bearer token is checked
first: a caller nobody knows is answered 401 by the routes here, and the table is neither
looked up nor claimed for them. A known caller's request is served here when this node takes
the lease because nobody holds it or it expired; otherwise it is forwarded once, as it came
(method, path, query, body, bearer token, Idempotency-Key), to the holder, and the holder's
answer is returned as it is. The request guard has already refused a request the two nodes
could read differently (a single-valued header twice, a path not in normal form). A forwarded
request is never forwarded again: if it reaches a node that no longer holds the table, or the
holder does not answer, the client is told to retry (503, ``Retry-After``) with the same
Idempotency-Key, which the shared ledger makes safe. Why forwarding rather than moving the
lease to where the request landed: see docs/cluster.md.

WebSocket streams are not forwarded: every node feeds its own watchers from the ledger
(:mod:`.feed`). Requests elsewhere (log-in, wallets, users, audit) need no table and are served
by whichever node they reach, from the shared database.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import httpx
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from croupier.service.api.access import request_id
from croupier.service.api.guard import DEADLINES, ClientGone, Guard, TooSlow
from croupier.service.auth import Auth
from croupier.service.cluster.node import Node
from croupier.service.tables import Tables

log = logging.getLogger("croupier.cluster")

FORWARDED = "x-croupier-forwarded-by"
_TABLE_PATH = re.compile(r"^/tables/([^/]{1,64})(?:/|$)")
_PASS_HEADERS = {b"authorization", b"idempotency-key", b"content-type", b"accept"}
_KEEP_HEADERS = {"content-type", "idempotent-replay", "retry-after"}


def table_of(path: str) -> str | None:
    """The table a path is about (``/tables/craps-1/bets`` -> ``craps-1``), else None."""
    match = _TABLE_PATH.match(path)
    return match.group(1) if match else None


class Router:
    """ASGI middleware in front of the app: serve here, take the lease, or forward."""

    def __init__(self, app: ASGIApp, node: Node, tables: Tables, auth: Auth) -> None:
        self.app = app
        self.node = node
        self.tables = tables
        self.auth = auth
        self._client: httpx.AsyncClient | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        table_id = table_of(scope["path"]) if scope["type"] in ("http", "websocket") else None
        if table_id is None or (scope["type"] == "http" and self.node.holds(table_id)):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http" and not await self._authenticated(scope):
            # Nothing is looked up, claimed or forwarded for a caller nobody knows: the route
            # answers 401 here as on any node.
            await self.app(scope, receive, send)
            return
        if table_id not in self.tables:
            # A table opened by another node since this one started: loaded from the ledger.
            await run_in_threadpool(self.tables.known, table_id)
        if scope["type"] == "websocket" or table_id not in self.tables:
            await self.app(scope, receive, send)  # streams are local; an unknown table is a 404
            return
        holder = await run_in_threadpool(self.node.claim, table_id)
        if holder is None and self.node.holds(table_id):
            await self.app(scope, receive, send)
            return
        forwarded = any(name == FORWARDED.encode() for name, _ in scope["headers"])
        if holder is None or holder.owner == self.node.node_id or forwarded:
            await _retry_later(send, table_id, "is changing hands")
            return
        if not self.node.vouched(holder):
            # The bearer token goes with a forwarded request: never to an address the key
            # does not vouch for (a lease row rewritten in the database).
            log.error("table %s: its lease names the address %r for node %s, which the "
                      "ledger's key does not vouch for: nothing is forwarded there (run "
                      "croupier audit verify; check who writes the database)",
                      table_id, holder.url, holder.owner)
            await _retry_later(send, table_id, "has a holder whose address is not vouched for")
            return
        await self._forward(scope, receive, send, holder.url, table_id)

    async def _authenticated(self, scope: Scope) -> bool:
        """Whether the request carries the bearer token of a user (as the routes read it)."""
        value = next((v for n, v in scope["headers"] if n == b"authorization"), b"")
        scheme, _, token = value.decode("latin-1").partition(" ")
        if scheme.lower() != "bearer" or not token:
            return False
        return await self.auth.user_for_async(token) is not None

    async def _forward(self, scope: Scope, receive: Receive, send: Send, url: str,
                       table_id: str) -> None:
        # Read as the guard reads it: within the size limit and its deadline, and only if it
        # arrives whole.
        try:
            body = await DEADLINES.read(receive)
        except ClientGone:
            return  # the client went away mid-body: the holder is sent nothing
        except TooSlow:
            await Guard.refuse_too_slow(send)
            return
        if body is None:
            await Guard.refuse_too_large(send)
            return
        # The guard let no single-valued header through twice: each is passed on as it came.
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"]
                   if k in _PASS_HEADERS]
        headers.append((FORWARDED, self.node.node_id))
        if request_id(scope):  # the holder logs and answers under the same id
            headers.append(("X-Request-ID", request_id(scope)))
        query = scope.get("query_string", b"").decode("latin-1")
        target = httpx.URL(url + scope["raw_path"].decode("latin-1")
                           + (f"?{query}" if query else ""))
        if target.path != scope["path"]:  # the client would send another path than it came on
            await _send_json(send, 400, {"error": {
                "code": "malformed", "clause": "",
                "reason": "path: not in normal form (it would reach the table's holder as "
                          "another path)"}})
            return
        if self._client is None:
            self._client = httpx.AsyncClient(limits=httpx.Limits(
                max_connections=256, max_keepalive_connections=64))
        try:
            wait = self.node.forward_within(table_id)
            answer = await self._client.request(scope["method"], target, headers=headers,
                                                content=body,
                                                timeout=httpx.Timeout(wait, connect=1.0))
        except httpx.HTTPError:
            self.node.forget_holder(table_id)
            await _retry_later(send, table_id, "did not answer at its holder")
            return
        out = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer.headers.items()
               if k.lower() in _KEEP_HEADERS]
        await send({"type": "http.response.start", "status": answer.status_code,
                    "headers": [*out, (b"content-length", str(len(answer.content)).encode())]})
        await send({"type": "http.response.body", "body": answer.content})


async def _send_json(send: Send, status: int, body: Any,
                     extra: list[tuple[bytes, bytes]] | None = None) -> None:
    data = json.dumps(body).encode()
    message: Message = {"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
        *(extra or [])]}
    await send(message)
    await send({"type": "http.response.body", "body": data})


async def _retry_later(send: Send, table_id: str, why: str) -> None:
    await _send_json(send, 503, {"error": {
        "code": "unavailable",
        "reason": f"table {table_id} {why}; nothing was changed by this node: retry with the "
                  "same Idempotency-Key", "clause": ""}}, [(b"retry-after", b"1")])
