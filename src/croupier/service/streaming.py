"""Table events over WebSocket: each committed action's events go to every watcher of its table.

Actions run in worker threads; :meth:`Hub.publish` hands their events to the event loop
thread-safely, one queue per connected watcher. A queue carries lists of events, or a close
code: :data:`TOO_SLOW` for a watcher that cannot keep up (dropped, not waited for), and
:data:`REVOKED` when the watcher's user is locked, deleted or logged out everywhere, or the
token it logged in with is logged out.

Every watcher is handed every event of its table; what each may see of them is the stream's
to decide (:mod:`croupier.service.visibility`), as it is the event list's and recall's.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from typing import Any

QUEUE_LIMIT = 1000
REPLAYS_AT_ONCE = 2
"""Replays read and encoded at once: the rest wait their turn, so a crowd of streams asking
for a thousand events each cannot hold the event loop (each replay is read and encoded in a
worker thread, and sent in slices that let other requests run between them)."""
TOO_SLOW = 4408
REVOKED = 4401

Item = list[dict[str, Any]] | int
Queue = asyncio.Queue[Item]


class Hub:
    """The watchers of each table, and whose each one is."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self._watchers: dict[str, dict[Queue, str]] = {}
        self._tokens: dict[Queue, str] = {}  # each watcher's token, as its digest
        self._lock = threading.Lock()
        self.replays = asyncio.Semaphore(REPLAYS_AT_ONCE)

    def subscribe(self, table_id: str, username: str) -> Queue:
        self.loop = asyncio.get_running_loop()
        queue: Queue = asyncio.Queue(QUEUE_LIMIT)
        with self._lock:
            self._watchers.setdefault(table_id, {})[queue] = username
        return queue

    def unsubscribe(self, table_id: str, queue: Queue) -> None:
        with self._lock:
            self._watchers.get(table_id, {}).pop(queue, None)
            self._tokens.pop(queue, None)

    def watching(self, username: str) -> int:
        """How many streams ``username`` has open, at every table."""
        with self._lock:
            return sum(1 for watchers in self._watchers.values()
                       for name in watchers.values() if name == username)

    def logged_in_with(self, queue: Queue, token: str) -> None:
        """Note the token the watcher of ``queue`` logged in with (:meth:`end_token`)."""
        with self._lock:
            self._tokens[queue] = _digest(token)

    def publish(self, table_id: str, events: list[dict[str, Any]]) -> None:
        """Called from any thread after a commit."""
        loop = self.loop
        if loop is None or not events:
            return
        with self._lock:
            queues = list(self._watchers.get(table_id, ()))
        for queue in queues:
            loop.call_soon_threadsafe(_offer, queue, events)

    def end_user(self, username: str) -> None:
        """Close every stream ``username`` watches (called from any thread)."""
        loop = self.loop
        if loop is None:
            return
        with self._lock:
            queues = [q for watchers in self._watchers.values()
                      for q, name in watchers.items() if name == username]
        for queue in queues:
            loop.call_soon_threadsafe(close, queue, REVOKED)

    def end_token(self, token: str) -> None:
        """Close every stream logged in with ``token`` (at log-out; from any thread)."""
        loop = self.loop
        if loop is None:
            return
        digest = _digest(token)
        with self._lock:
            queues = [q for q, d in self._tokens.items() if d == digest]
        for queue in queues:
            loop.call_soon_threadsafe(close, queue, REVOKED)


def _digest(token: str) -> str:
    """Tokens are held only as their digest, as the database holds them."""
    return hashlib.sha256(token.encode()).hexdigest()


def _offer(queue: Queue, events: list[dict[str, Any]]) -> None:
    try:
        queue.put_nowait(events)
    except asyncio.QueueFull:
        close(queue, TOO_SLOW)  # a watcher that cannot keep up is told so and disconnected


def close(queue: Queue, code: int) -> None:
    """Tell the stream reading ``queue`` to close with ``code`` (whatever it has queued)."""
    while not queue.empty():
        queue.get_nowait()
    queue.put_nowait(code)
