"""``/tables/{id}/stream``: each committed event of a table over a WebSocket.

The token never travels in the URL (where logs and proxies keep it): the client's first
message is ``{"token": "...", "since": N, "mark": true}`` (``since`` optional: replay the events
after N; ``mark`` optional: after the replay, send ``{"type": "replayed", "through": N}``).
``since`` may be given in the URL instead (``?since=N``, as a client resuming on another node
does); given in both, the two must agree. No other query parameter is taken (a token in the
URL is refused, not read).

Each watcher sees the events its role may see (:mod:`croupier.service.visibility`, the rule
the event list and recall follow): the staff every event, a player the table's public events
and their own part.

The stream closes with 4401 when the user is locked, deleted or the token ends (checked at
once for changes made by this server, a log-out of the token included, and every
:data:`RECHECK_SECONDS` for any other), 4404 for an unknown table (at once, before the first
message), 4408 for a client too slow to keep up, 4422 for a malformed first message or query
(a key other than ``token``, ``since`` and ``mark``, or one given twice, included), 4429 for a
user with :data:`PER_USER` streams open already; each close says why in its reason.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from croupier.service import codec, streaming, visibility
from croupier.service.api import queries
from croupier.service.api.deps import MOST, Services
from croupier.service.auth import User

router = APIRouter()

REPLAY_LIMIT = 1000
PER_USER = 16
"""Streams one user may have open at once (a page watches one table; a console a few)."""
_SLICE = 100
TOO_MANY = 4429
HELLO_SECONDS = 10.0
RECHECK_SECONDS = 5.0
MAX_HELLO = 1024
MAX_SINCE = MOST


@router.websocket("/tables/{table_id}/stream")
async def stream(websocket: WebSocket, table_id: str) -> None:
    """Each committed event of the table as JSON, after a first message that logs in."""
    svc: Services = websocket.app.state.services
    await websocket.accept()
    if len(table_id) > 64 or table_id not in svc.tables:
        # Said at once, before the log-in message: there is nothing to wait for.
        await websocket.close(code=4404, reason=f"there is no table {table_id[:64]!r}")
        return
    in_url = _query_since(websocket.query_params.multi_items())
    if isinstance(in_url, str):
        await websocket.close(code=4422, reason=in_url)
        return
    hello = await _hello(websocket)
    if hello is None:
        await websocket.close(code=4422, reason="the first message is {\"token\": ..., "
                              "\"since\": N} (since optional), sent within 10 s")
        return
    token, in_hello, mark = hello
    if in_url is not None and in_hello is not None and in_url != in_hello:
        await websocket.close(code=4422, reason=f"since is {in_hello} in the first message "
                              f"and {in_url} in the URL: give one, or the same in both")
        return
    since = next((s for s in (in_hello, in_url) if s is not None), -1)
    user = await run_in_threadpool(svc.auth.user_for, token)
    if user is None:
        await websocket.close(code=4401, reason="the token is unknown, expired or locked")
        return
    await _serve(websocket, svc, table_id, user, token, (since, mark))


def _query_since(query: list[tuple[str, str]]) -> int | str | None:
    """``since`` from the URL's query (None if absent), or why the query is refused.

    >>> _query_since([]), _query_since([("since", "12")]), _query_since([("since", "-1")])
    (None, 12, -1)
    >>> _query_since([("since", "--5")])
    "query.since: a whole number from -1 to 2147483647, not '--5'"
    >>> _query_since([("since", "1"), ("since", "2")])
    'query.since: given twice'
    >>> _query_since([("token", "t")])
    'query.token: unknown query parameter; expected since (the token goes in the first message)'
    """
    names = [name for name, _ in query]
    for name in names:
        if name != "since":
            return (f"query.{name[:32]}: unknown query parameter; expected since (the token "
                    "goes in the first message)")
    if not query:
        return None
    if len(query) > 1:
        return "query.since: given twice"
    text = query[0][1]
    if not _SINCE.fullmatch(text) or not -1 <= int(text) <= MAX_SINCE:
        return f"query.since: a whole number from -1 to {MAX_SINCE}, not {text[:32]!r}"
    return int(text)


_SINCE = re.compile(r"-?[0-9]{1,10}")  # fullmatch: a "$" would let a trailing newline in


_HELLO_KEYS = frozenset({"token", "since", "mark"})


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys each come once (a key twice could be read two ways)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        raise ValueError("a key given twice")
    return out


async def _hello(websocket: WebSocket) -> tuple[str, int | None, bool] | None:
    """The first message's token, ``since`` (None if it gives none) and ``mark`` (true: say
    when the replay is done); None if the message is missing or malformed: not one JSON
    object, a key twice, a key other than these three, a value of the wrong type."""
    try:
        text = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
        if len(text) > MAX_HELLO:
            return None
        hello = json.loads(text, object_pairs_hook=_once)
    except (TimeoutError, ValueError, KeyError, RuntimeError, RecursionError,
            WebSocketDisconnect):
        return None
    if not isinstance(hello, dict) or not isinstance(hello.get("token"), str):
        return None
    if not hello["token"].isascii():  # a token is ASCII; a lone surrogate failed its hashing
        return None
    if not set(hello) <= _HELLO_KEYS:
        return None
    since = hello.get("since")
    if since is not None and (type(since) is not int or not -1 <= since <= MAX_SINCE):
        return None
    mark = hello.get("mark", False)
    if type(mark) is not bool:
        return None
    return hello["token"], since, mark


async def _serve(websocket: WebSocket, svc: Services, table_id: str, user: User, token: str,
                 replay: tuple[int, bool]) -> None:
    if svc.hub.watching(user.username) >= PER_USER:
        await websocket.close(code=TOO_MANY, reason=f"{user.username} has {PER_USER} streams "
                              "open already: close one first")
        return
    queue = svc.hub.subscribe(table_id, user.username)
    svc.hub.logged_in_with(queue, token)
    if await run_in_threadpool(svc.auth.user_for, token) is None:
        # Logged out between the look-up and the line above: that log-out found no stream.
        svc.hub.unsubscribe(table_id, queue)
        await websocket.close(code=streaming.REVOKED)
        return
    gone = asyncio.Event()
    watcher = asyncio.create_task(_watch_close(websocket, svc, table_id, queue, gone))
    try:
        # Subscribed before the replay, so nothing committed meanwhile is missed; what the
        # replay already sent is not sent twice.
        since, mark = replay
        sent = await _replay(websocket, svc, table_id, user, since) if since >= 0 else -1
        if mark:
            # The watcher's own events may end before the table's (another player's are not
            # shown to a player): say where the replay ended, as no event of theirs may.
            await websocket.send_json({"type": "replayed", "through": sent})
        while True:
            batch = await _next_batch(svc, queue, token)
            if isinstance(batch, int):
                if not gone.is_set():
                    await websocket.close(code=batch)
                return
            await _send_batch(websocket, user, batch, sent)
    except WebSocketDisconnect:
        pass
    finally:
        watcher.cancel()
        svc.hub.unsubscribe(table_id, queue)


async def _watch_close(websocket: WebSocket, svc: Services, table_id: str,
                       queue: streaming.Queue, gone: asyncio.Event) -> None:
    """Notice the client leaving while waiting for events, so shutdown never waits on it."""
    try:
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass
    except Exception:
        pass
    gone.set()
    svc.hub.unsubscribe(table_id, queue)
    streaming.close(queue, streaming.TOO_SLOW)


async def _next_batch(svc: Services, queue: streaming.Queue, token: str,
                      ) -> list[dict[str, Any]] | int:
    """The next events committed at the table, or the code to close with (the token
    revoked, checked every :data:`RECHECK_SECONDS` while nothing comes; a slow reader)."""
    while True:
        try:
            batch: list[dict[str, Any]] | int = await asyncio.wait_for(queue.get(),
                                                                       RECHECK_SECONDS)
            return batch
        except TimeoutError:
            if await run_in_threadpool(svc.auth.user_for, token) is None:
                return streaming.REVOKED


async def _send_batch(websocket: WebSocket, user: User, batch: list[dict[str, Any]],
                      sent: int) -> None:
    """Send the events of ``batch`` that ``user`` may see and the replay has not sent."""
    for item in batch:
        if item.get("seq", sent + 1) > sent:
            seen = visibility.view(user.role, user.username, item)
            if seen is not None:
                await websocket.send_json(seen)


async def _replay(websocket: WebSocket, svc: Services, table_id: str, user: User,
                  since: int) -> int:
    """Send the table's events after ``since`` (at most :data:`REPLAY_LIMIT` read), oldest
    first, those ``user`` may see; the last sequence number read (``since`` if none)."""
    async with svc.hub.replays:
        texts, last = await run_in_threadpool(_replayed, svc, table_id, user, since)
    for i in range(0, len(texts), _SLICE):
        for text in texts[i:i + _SLICE]:
            await websocket.send_text(text)
        await asyncio.sleep(0)  # let other requests run between slices
    return last


def _replayed(svc: Services, table_id: str, user: User, since: int) -> tuple[list[str], int]:
    """The replay's messages, as text, and the last sequence number read (in a worker thread:
    the read, the decoding and the encoding are the replay's cost)."""
    live = svc.tables.all[table_id]
    with svc.engine.connect() as conn:
        rows = queries.events_after(conn, table_id, since, REPLAY_LIMIT)
    texts: list[str] = []
    for r in rows:
        item: dict[str, Any] = {"seq": r.seq, "round": r.round,
                                **codec.decode(live.game.name, r.payload).to_json()}
        seen = visibility.view(user.role, user.username, item)
        if seen is not None:
            texts.append(json.dumps(seen, separators=(",", ":"), ensure_ascii=False))
        since = r.seq
    return texts, since
