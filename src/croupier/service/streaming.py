"""Table events over WebSocket: each committed action's events go to every watcher of its table.

Actions run in worker threads; :meth:`Hub.publish` hands their events to the event loop
thread-safely, one queue per connected watcher (a slow watcher is dropped, not waited for).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

QUEUE_LIMIT = 1000


class Hub:
    """The watchers of each table."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._watchers: dict[str, set[asyncio.Queue[list[dict[str, Any]] | None]]] = {}
        self._lock = threading.Lock()

    def subscribe(self, table_id: str) -> asyncio.Queue[list[dict[str, Any]] | None]:
        self.loop = asyncio.get_running_loop()
        queue: asyncio.Queue[list[dict[str, Any]] | None] = asyncio.Queue(QUEUE_LIMIT)
        with self._lock:
            self._watchers.setdefault(table_id, set()).add(queue)
        return queue

    def unsubscribe(self, table_id: str, queue: asyncio.Queue[list[dict[str, Any]] | None],
                    ) -> None:
        with self._lock:
            self._watchers.get(table_id, set()).discard(queue)

    def publish(self, table_id: str, events: list[dict[str, Any]]) -> None:
        """Called from any thread after a commit."""
        loop = self.loop
        if loop is None or not events:
            return
        with self._lock:
            queues = list(self._watchers.get(table_id, ()))
        for queue in queues:
            loop.call_soon_threadsafe(_offer, queue, events)


def _offer(queue: asyncio.Queue[list[dict[str, Any]] | None], events: list[dict[str, Any]],
           ) -> None:
    try:
        queue.put_nowait(events)
    except asyncio.QueueFull:
        # A watcher that cannot keep up is told so and disconnected.
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(None)
