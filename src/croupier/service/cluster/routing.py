"""Requests for a table go to the node that holds its lease (forwarded over loopback HTTP).

Any node answers any request (as behind a load balancer). A request under ``/tables/{id}`` is
served here when this node holds the table's lease, or takes it because nobody holds it or it
expired; otherwise it is forwarded once, as it came (method, path, query, body, bearer token,
Idempotency-Key), to the holder, and the holder's answer is returned as it is. A forwarded
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
import re
from typing import Any

import httpx
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from croupier.service.api.access import request_id
from croupier.service.api.guard import ClientGone, Guard, read_limited
from croupier.service.cluster.node import Node
from croupier.service.store import tables as tables_table
from croupier.service.tables import Tables

FORWARDED = "x-croupier-forwarded-by"
FORWARD_TIMEOUT = httpx.Timeout(5.0, connect=1.0)
_TABLE_PATH = re.compile(r"^/tables/([^/]{1,64})(?:/|$)")
_PASS_HEADERS = {"authorization", "idempotency-key", "content-type", "accept"}
_KEEP_HEADERS = {"content-type", "idempotent-replay", "retry-after"}


def table_of(path: str) -> str | None:
    """The table a path is about (``/tables/craps-1/bets`` -> ``craps-1``), else None."""
    match = _TABLE_PATH.match(path)
    return match.group(1) if match else None


class Router:
    """ASGI middleware in front of the app: serve here, take the lease, or forward."""

    def __init__(self, app: ASGIApp, node: Node, tables: Tables) -> None:
        self.app = app
        self.node = node
        self.tables = tables
        self._client: httpx.AsyncClient | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == "/cluster":
            await _send_json(send, 200, {"node": self.node.node_id, "url": self.node.url,
                                         "holds": self.node.held()})
            return
        table_id = table_of(scope["path"]) if scope["type"] in ("http", "websocket") else None
        if table_id is None or (scope["type"] == "http" and self.node.holds(table_id)):
            await self.app(scope, receive, send)
            return
        if table_id not in self.tables:
            await run_in_threadpool(self._learn, table_id)
        if scope["type"] == "websocket" or table_id not in self.tables:
            await self.app(scope, receive, send)  # streams are local; an unknown table is a 404
            return
        holder = await run_in_threadpool(self.node.claim, table_id)
        if holder is None and self.node.holds(table_id):
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        if holder is None or holder.owner == self.node.node_id or FORWARDED.encode() in headers:
            await _retry_later(send, table_id, "is changing hands")
            return
        await self._forward(scope, receive, send, holder.url, table_id)

    def _learn(self, table_id: str) -> None:
        """A table opened by another node since this one started: load it from the ledger."""
        import sqlalchemy as sa

        ledger = self.tables.ledger
        with ledger.db.connect() as conn:
            row = conn.execute(sa.select(tables_table).where(tables_table.c.id == table_id)).first()
            if row is not None and table_id not in self.tables:
                self.tables.add(self.tables.rebuilt(conn, row))
                ledger.heads[table_id] = ledger.head_of(conn, row)  # its chain's head

    async def _forward(self, scope: Scope, receive: Receive, send: Send, url: str,
                       table_id: str) -> None:
        # Read as the guard reads it: within the size limit, and only if it arrives whole.
        try:
            body = await read_limited(receive)
        except ClientGone:
            return  # the client went away mid-body: the holder is sent nothing
        if body is None:
            await Guard.refuse_too_large(send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]
                   if k.decode("latin-1").lower() in _PASS_HEADERS}
        headers[FORWARDED] = self.node.node_id
        if request_id(scope):  # the holder logs and answers under the same id
            headers["X-Request-ID"] = request_id(scope)
        query = scope.get("query_string", b"").decode("latin-1")
        target = url + scope["raw_path"].decode("latin-1") + (f"?{query}" if query else "")
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=FORWARD_TIMEOUT, limits=httpx.Limits(
                max_connections=256, max_keepalive_connections=64))
        try:
            answer = await self._client.request(scope["method"], target, headers=headers,
                                                content=body)
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
