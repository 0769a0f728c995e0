"""SQLite's write-ahead-log checkpoints on a thread of their own, never inside a bet.

In WAL mode SQLite appends each commit to the log and, by default, the connection whose commit
takes the log past 1,000 pages copies the log back into the database file and syncs it (a
checkpoint). On a server that commits in its event loop, that commit then holds every request
for the length of the copy and the sync: on this machine, a stall of 100 to 150 ms every few
seconds at 1,000 bets/s, which set the p99 latency on its own.

``croupier serve`` on SQLite therefore turns the automatic checkpoint off on its connections
and runs them here, every :data:`EVERY` seconds, in ``PASSIVE`` mode: a passive checkpoint
never waits for or blocks a writer, and the sqlite3 module lets other threads run while it
works, so the event loop goes on committing. Nothing about durability changes: a commit is in
the log, on disk, before it is answered, as before; the checkpoint only moves it into the main
file. When the server stops, a last ``TRUNCATE`` checkpoint empties the log.

>>> import tempfile, sqlalchemy as sa
>>> from croupier.service import store
>>> engine = store.make_engine(f"sqlite:///{tempfile.mkdtemp()}/x.db")
>>> cp = WalCheckpoints(engine)
>>> with engine.begin() as conn:
...     _ = conn.exec_driver_sql("CREATE TABLE t (x)")
>>> cp.checkpoint()[0]  # not busy
0
>>> cp.close()
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from typing import Any

import sqlalchemy as sa

EVERY = 0.5
LOG_LIMIT = 64 * 1024 * 1024  # bytes the log file is cut back to after a checkpoint resets it


class WalCheckpoints:
    """Checkpoints of one SQLite database on a background thread (see the module's text).

    Made before the engine's first connection is opened for the server: every connection
    made afterwards has the automatic checkpoint off."""

    def __init__(self, engine: sa.Engine, every: float = EVERY) -> None:
        path = engine.url.database
        if engine.dialect.name != "sqlite" or not path or path == ":memory:":
            raise ValueError("background checkpoints are for a SQLite database file")
        sa.event.listen(engine, "connect", _no_automatic_checkpoint)
        engine.dispose()  # connections opened before this point keep the default
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA busy_timeout=5000")
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._every = every
        self._thread: threading.Thread | None = None

    def start(self) -> WalCheckpoints:
        """Start checkpointing every ``every`` seconds; returns itself."""
        self._thread = threading.Thread(target=self._run, name="wal-checkpoints", daemon=True)
        self._thread.start()
        return self

    def checkpoint(self, mode: str = "PASSIVE") -> tuple[int, int, int]:
        """One checkpoint now: (busy, frames in the log, frames copied), as SQLite reports."""
        if mode not in ("PASSIVE", "TRUNCATE"):
            raise ValueError(mode)
        with self._lock:
            row = self._conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        return int(row[0]), int(row[1]), int(row[2])

    def close(self) -> None:
        """Stop the thread, empty the log, close the connection."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        # A writer still busy: the log is kept and checkpointed by the next opener.
        with contextlib.suppress(sqlite3.Error):
            self.checkpoint("TRUNCATE")
        self._conn.close()

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            try:
                self.checkpoint()
            except sqlite3.Error:
                continue  # busy or locked this time: the next tick tries again


def _no_automatic_checkpoint(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA wal_autocheckpoint=0")
    cur.execute(f"PRAGMA journal_size_limit={LOG_LIMIT}")
    cur.close()
