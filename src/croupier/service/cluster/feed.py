"""Table events for the WebSocket watchers of every node, in order, from the ledger itself.

After each commit that wrote events, the owner announces the table on a PostgreSQL channel
(:class:`Announcer`: one NOTIFY transaction for every table committed meanwhile, off the write
path). Each node LISTENs on one connection; for every table announced that has watchers on this
node, a fetcher thread reads the events after the last one it delivered (``seq > cursor``, the
primary key's order) and hands them to the node's :class:`~croupier.service.streaming.Hub`.
The owner's own watchers are fed the same way, so every watcher sees the same sequence wherever
it is connected.

Reading from the ledger rather than carrying events in the notification means a notification
may be lost (the owner dies between its commit and its NOTIFY), merged or late without losing
an event: the next one, or the once-a-second poll of watched tables, delivers everything after
the cursor, and a fail-over changes nothing (the new owner's events simply follow in the same
table's sequence).

Why not NOTIFY inside the writing transaction (delivered exactly on commit): PostgreSQL holds a
database-wide lock from a notifying transaction's pre-commit until its commit is flushed, so
every table's commits queued one behind the other; measured, two nodes fell from ~400 to ~120
bets/s. One NOTIFY transaction per batch of commits keeps that lock off the write path.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any

import psycopg
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from croupier.service import codec, store
from croupier.service.cluster.leases import CHANNEL
from croupier.service.streaming import Hub, Queue
from croupier.service.tables import Tables

log = logging.getLogger("croupier.cluster")

POLL = 1.0
"""Seconds between catch-up reads of the watched tables when no notification came."""
PAGE = 1000

_AFTER = sa.select(store.events.c.seq, store.events.c.round, store.events.c.payload).where(
    store.events.c.table_id == sa.bindparam("t"), store.events.c.seq > sa.bindparam("c"),
).order_by(store.events.c.seq).limit(PAGE)
_LAST = sa.select(sa.func.max(store.events.c.seq)).where(
    store.events.c.table_id == sa.bindparam("t"))


def conninfo(engine: Engine) -> str:
    """The engine's database as a libpq URL (for psycopg's own connections)."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


class ClusterHub(Hub):
    """The node's watchers, fed from the ledger (:class:`Feed`) rather than by the writer."""

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self._engine = engine
        self.cursors: dict[str, int] = {}

    def subscribe(self, table_id: str, username: str) -> Queue:
        watcher = super().subscribe(table_id, username)
        with self._lock:
            known = table_id in self.cursors
        if not known:
            # After the watcher is registered: whatever commits later is past this cursor.
            with self._engine.connect() as conn:
                last = conn.execute(_LAST, {"t": table_id}).scalar()
            with self._lock:
                self.cursors.setdefault(table_id, int(last or 0))
        return watcher

    def unsubscribe(self, table_id: str, queue: Queue) -> None:
        super().unsubscribe(table_id, queue)
        with self._lock:
            if not self._watchers.get(table_id):
                self._watchers.pop(table_id, None)
                self.cursors.pop(table_id, None)

    def watched(self) -> list[str]:
        with self._lock:
            return [t for t, w in self._watchers.items() if w]

    def cursor(self, table_id: str) -> int | None:
        """The last seq delivered to the table's watchers (None: nobody watches it)."""
        with self._lock:
            return self.cursors.get(table_id)

    def advance(self, table_id: str, seq: int) -> None:
        with self._lock:
            if table_id in self.cursors:
                self.cursors[table_id] = seq


class Announcer:
    """NOTIFY the tables this node committed events to, many per transaction (a thread)."""

    def __init__(self, conninfo: str) -> None:
        self._conninfo = conninfo
        self._pending: set[str] = set()
        self._lock = threading.Lock()
        self._wake = threading.Event()

    def committed(self, table_id: str, events: list[dict[str, Any]]) -> None:
        """A ledger listener: called after each commit (from any thread)."""
        if events:
            with self._lock:
                self._pending.add(table_id)
            self._wake.set()

    def start(self) -> None:
        threading.Thread(target=self._run, name="feed-announce", daemon=True).start()

    def _run(self) -> None:
        while True:
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as conn:
                    while True:
                        self._wake.wait()
                        self._wake.clear()
                        with self._lock:
                            tables, self._pending = sorted(self._pending), set()
                        with conn.transaction():
                            for table_id in tables:
                                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, table_id))
            except Exception as exc:  # watchers catch up by polling meanwhile
                log.warning("NOTIFY connection lost (%s); reconnecting", str(exc).splitlines()[0])
                time.sleep(0.5)


class Feed:
    """LISTEN for announced tables; deliver their new events to this node's watchers."""

    def __init__(self, engine: Engine, tables: Tables, hub: ClusterHub) -> None:
        self._engine = engine
        self._tables = tables
        self._hub = hub
        self._conninfo = conninfo(engine)
        self._announced: queue.Queue[str] = queue.Queue()
        self._stop = threading.Event()

    def start(self) -> None:
        threading.Thread(target=self._listen, name="feed-listen", daemon=True).start()
        threading.Thread(target=self._fetch_loop, name="feed-fetch", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._announced.put("")  # (re)connected: catch every watched table up
                    for note in conn.notifies():
                        self._announced.put(note.payload)
                        if self._stop.is_set():
                            return
            except Exception:
                log.exception("LISTEN connection lost; reconnecting")
                self._stop.wait(0.5)

    def _fetch_loop(self) -> None:
        while not self._stop.is_set():
            try:
                first = self._announced.get(timeout=POLL)
            except queue.Empty:
                first = ""
            names = {first}
            while True:  # merge everything announced meanwhile: one read per table
                try:
                    names.add(self._announced.get_nowait())
                except queue.Empty:
                    break
            watched = self._hub.watched()
            tables = watched if "" in names else [t for t in watched if t in names]
            for table_id in tables:
                try:
                    self.deliver(table_id)
                except Exception:
                    log.exception("could not read the events of %s", table_id)

    def deliver(self, table_id: str) -> None:
        """Hand the table's events after the cursor to its watchers, in order."""
        live = self._tables.all.get(table_id)
        if live is None:
            return
        while True:
            cursor = self._hub.cursor(table_id)
            if cursor is None:
                return
            with self._engine.connect() as conn:
                rows = conn.execute(_AFTER, {"t": table_id, "c": cursor}).all()
            if not rows:
                return
            batch = [{"seq": r.seq, "round": r.round,
                      **codec.decode(live.game.name, r.payload).to_json()} for r in rows]
            self._hub.advance(table_id, rows[-1].seq)
            self._hub.publish(table_id, batch)
            if len(rows) < PAGE:
                return
