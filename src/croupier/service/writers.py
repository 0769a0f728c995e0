"""The connections the ledger writes through on PostgreSQL, kept for writing and nothing else.

Through the engine's pool every group-commit batch paid a checkout with a liveness ping, a
``BEGIN`` of its own, one query per action for its stored reply, a round trip per kind of row
written, a ``COMMIT`` and a reset on return: some N + 6 round trips for a batch of N actions,
each with psycopg's Python around it and a lane thread waiting on the GIL to read the answer.
Here a batch takes an idle connection of its own (no ping, no reset), and speaks to PostgreSQL
twice: ``BEGIN`` with the batch's reads (every stored reply in one query), then every write and
the ``COMMIT`` in one pipeline (:meth:`Writers.commit`).

The connections are in autocommit at the driver, so the transaction is the ``BEGIN`` and
``COMMIT`` sent here, not one psycopg opens by itself (which would cost a round trip of its
own). A connection that failed is closed with every idle one (a restarted database leaves them
all dead), so the actions of the failed batch, run again one by one, get fresh connections.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import psycopg
import sqlalchemy as sa
from psycopg.pq import TransactionStatus
from sqlalchemy.engine import Connection, Engine

log = logging.getLogger("croupier.service")

KEEP = 16
"""Idle writer connections kept at most (one per table committing at the same time)."""

WRITER = "croupier.writer"
"""Set in ``Connection.info`` of a writer connection: its transaction ends in :meth:`commit`."""


class Writers:
    """Idle writer connections of one engine, taken by one batch at a time."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._idle: list[tuple[Connection, Any]] = []  # with its psycopg connection
        self._lock = threading.Lock()
        self.made = 0  # connections opened so far (tests; the logs)
        sa.event.listen(engine, "engine_disposed", lambda _engine: self.close())

    @contextlib.contextmanager
    def transaction(self, reads: Sequence[tuple[str, Mapping[str, Any]]] = (),
                    ) -> Iterator[tuple[Connection, list[list[tuple[Any, ...]]]]]:
        """A connection in a transaction, with the rows of ``reads`` (SQL, values) run first,
        all in one round trip with the ``BEGIN``. The caller ends it with :meth:`commit`;
        a transaction left open (an error) is rolled back."""
        conn, dbapi = self._take()
        try:
            with conn.begin() as trans:
                cursors = []
                with dbapi.pipeline():
                    dbapi.execute("BEGIN")
                    for sql, values in reads:
                        cursors.append(dbapi.cursor())
                        cursors[-1].execute(sql, values)
                rows = [c.fetchall() for c in cursors]
                yield conn, rows
                if dbapi.info.transaction_status != TransactionStatus.IDLE:
                    raise RuntimeError("a writer's transaction was left open: not committed")
                trans.commit()
        except BaseException:
            self._failed(conn, dbapi)
            raise
        self._give_back(conn, dbapi)

    @staticmethod
    def commit(conn: Connection, writes: Sequence[tuple[str, Sequence[Mapping[str, Any]]]],
               ) -> None:
        """Run ``writes`` (SQL, rows of values; each statement once per row) and ``COMMIT``,
        in one round trip; raises the first error (nothing is then committed)."""
        dbapi: Any = conn.connection.dbapi_connection
        sql = "COMMIT"
        try:
            with dbapi.pipeline():
                cursor = dbapi.cursor()
                for sql, rows in writes:
                    if len(rows) == 1:
                        cursor.execute(sql, rows[0])
                    elif rows:
                        cursor.executemany(sql, rows)
                sql = "COMMIT"
                cursor.execute(sql)
        except psycopg.IntegrityError as exc:
            # The driver's own error, raised past SQLAlchemy: wrapped as SQLAlchemy wraps it,
            # so a key kept meanwhile by another node is told apart as it is everywhere else.
            raise sa.exc.IntegrityError(sql, None, exc) from exc

    def close(self) -> None:
        """Close every idle connection (the engine is disposed of)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for conn, _ in idle:
            with contextlib.suppress(Exception):
                conn.close()

    def _take(self) -> tuple[Connection, Any]:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        conn = self._engine.connect()
        conn.detach()  # ours for good: never pinged, reset or handed to anyone else
        dbapi: Any = conn.connection.dbapi_connection
        dbapi.autocommit = True
        conn.info[WRITER] = True
        self.made += 1
        return conn, dbapi

    def _give_back(self, conn: Connection, dbapi: Any) -> None:
        with self._lock:
            if len(self._idle) < KEEP:
                self._idle.append((conn, dbapi))
                return
        conn.close()

    def _failed(self, conn: Connection, dbapi: Any) -> None:
        """After an error: keep the connection if its transaction is cleanly rolled back,
        otherwise close it and every idle one. (An invalidated SQLAlchemy connection is never
        touched again: it would quietly open a new, ordinary one from the pool.)"""
        try:
            if not conn.invalidated and not dbapi.closed:
                if dbapi.info.transaction_status != TransactionStatus.IDLE:
                    dbapi.rollback()
                if dbapi.info.transaction_status == TransactionStatus.IDLE:
                    self._give_back(conn, dbapi)
                    return
        except Exception:
            pass
        log.info("a writer connection failed: it and the idle ones are made again")
        with contextlib.suppress(Exception):
            conn.close()
        self.close()


class SqliteWriter:
    """SQLite's writer connection, kept between the runner's transactions: the ledger's writer
    lock lets one transaction run at a time, and taking a pooled connection for each (a
    checkout, a reset and a return) cost about as much as writing a lone bet's rows. A
    connection whose transaction could not be ended cleanly is closed, and the next
    transaction opens a fresh one."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._conn: Connection | None = None
        sa.event.listen(engine, "engine_disposed", lambda _engine: self.close())

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A transaction (``BEGIN IMMEDIATE``) on the kept connection; the caller holds the
        writer lock."""
        conn = self._conn
        if conn is None or conn.closed or conn.invalidated:
            conn = self._conn = self._engine.connect()
        try:
            with conn.begin():
                yield conn
        except BaseException:
            # A failed COMMIT leaves SQLite's transaction open (and its write lock held) while
            # SQLAlchemy counts it ended: the connection is closed, which rolls it back.
            if conn.invalidated or conn.in_transaction() or _open(conn):
                self.close()
            raise

    def close(self) -> None:
        """Close the kept connection (the engine is disposed of, or it failed)."""
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()


def _open(conn: Connection) -> bool:
    """Whether SQLite still holds a transaction open on ``conn``'s connection."""
    try:
        return bool(getattr(conn.connection.dbapi_connection, "in_transaction", True))
    except Exception:  # closed or unusable: not to be kept either
        return True
