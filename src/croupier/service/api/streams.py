"""``/tables/{id}/stream``: each committed event of a table over a WebSocket."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from croupier.service import codec
from croupier.service.api import queries
from croupier.service.api.deps import Services

router = APIRouter()

REPLAY_LIMIT = 1000


@router.websocket("/tables/{table_id}/stream")
async def stream(websocket: WebSocket, table_id: str, token: str = "", since: int = -1) -> None:
    """Each committed event of the table as JSON (``?token=`` logs in; ``since`` replays)."""
    svc: Services = websocket.app.state.services
    user = svc.auth.user_for(token) if token else None
    if user is None or table_id not in svc.ledger.tables:
        await websocket.close(code=4401 if user is None else 4404)
        return
    await websocket.accept()
    queue = svc.hub.subscribe(table_id)
    gone = asyncio.Event()

    async def watch_close() -> None:
        # Notice the client leaving while waiting for events, so shutdown never waits on it.
        try:
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass
        except Exception:
            pass
        gone.set()
        svc.hub.unsubscribe(table_id, queue)
        queue.put_nowait(None) if not queue.full() else None

    watcher = asyncio.create_task(watch_close())
    try:
        if since >= 0:
            await _replay(websocket, svc, table_id, since)
        while True:
            batch = await queue.get()
            if batch is None:
                if not gone.is_set():
                    await websocket.close(code=4408)  # too slow to keep up
                return
            for item in batch:
                await websocket.send_json(item)
    except WebSocketDisconnect:
        pass
    finally:
        watcher.cancel()
        svc.hub.unsubscribe(table_id, queue)


async def _replay(websocket: WebSocket, svc: Services, table_id: str, since: int) -> None:
    """The table's events after ``since`` (at most :data:`REPLAY_LIMIT`), oldest first."""
    live = svc.ledger.tables[table_id]
    with svc.engine.connect() as conn:
        rows = queries.events_after(conn, table_id, since, REPLAY_LIMIT)
    for r in rows:
        item: dict[str, Any] = {"seq": r.seq, "round": r.round,
                                **codec.decode(live.game, r.payload).to_json()}
        await websocket.send_json(item)
