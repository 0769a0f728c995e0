"""The bearer-token look-up every request makes, on connections of its own.

Through a pooled SQLAlchemy connection the look-up cost a checkout, a liveness ping, the query
and a rollback: on SQLite a fifth of a bet's CPU, on PostgreSQL three round trips during which
the event loop (where the look-up runs) served nobody. Here it is one statement in the driver's
own SQL (compiled once by SQLAlchemy for the dialect) on a connection in autocommit: on SQLite
in the event loop (microseconds), on PostgreSQL through asynchronous connections that let the
loop serve other requests meanwhile. The token is still read from the database on every
request, so a revocation anywhere (another node, ``croupier users ...``) takes effect at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any, Literal

import psycopg
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.sql import Select

from croupier.service import store

Found = tuple[Any, ...] | Literal[False] | None
"""A look-up's row, False for no row, None when this path could not answer (ask the pool)."""

ASYNC_CONNECTIONS = 4


def _compiled(engine: Engine, query: Select[Any]) -> str:
    dialect = sqlite.dialect(paramstyle="named") if store.is_sqlite(engine) else engine.dialect
    return str(query.compile(dialect=dialect))


class TokenLookup:
    """The query on one connection of its own (for one thread at a time)."""

    def __init__(self, engine: Engine, query: Select[Any]) -> None:
        self._engine = engine
        self._sql = _compiled(engine, query)
        self._conn: Any = None
        self._lock = threading.Lock()

    def row(self, digest: str, now: float) -> Found:
        """The query's first row for ``digest`` at ``now``; None while another thread uses this
        connection, or when it failed (it is made again next time)."""
        if not self._lock.acquire(blocking=False):
            return None
        try:
            if self._conn is None:
                raw = self._engine.raw_connection()
                raw.detach()  # ours for good: never returned to the pool
                self._conn = raw.dbapi_connection
                if not store.is_sqlite(self._engine):
                    self._conn.autocommit = True
            cursor = self._conn.cursor()
            try:
                cursor.execute(self._sql, {"h": digest, "now": now})
                found: tuple[Any, ...] | None = cursor.fetchone()
            finally:
                cursor.close()
            return found or False
        except Exception:  # a lost connection; the caller asks through the pool
            conn, self._conn = self._conn, None
            with contextlib.suppress(Exception):
                if conn is not None:
                    conn.close()
            return None
        finally:
            self._lock.release()


class AsyncTokenLookup:
    """The query on a few asynchronous PostgreSQL connections, made in the event loop."""

    def __init__(self, engine: Engine, query: Select[Any]) -> None:
        self._conninfo = engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False)
        self._sql = _compiled(engine, query)
        self._idle: asyncio.Queue[psycopg.AsyncConnection[Any] | None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def row(self, digest: str, now: float) -> Found:
        """As :meth:`TokenLookup.row`; None when a connection failed (made again next time)."""
        if self._idle is None or self._loop is not asyncio.get_running_loop():
            # Connections belong to the loop they were made in (a server has one loop; an
            # app driven by several, as in tests, starts afresh in each).
            self._loop = asyncio.get_running_loop()
            self._idle = asyncio.Queue()
            for _ in range(ASYNC_CONNECTIONS):
                self._idle.put_nowait(None)  # a free place; its connection is made on first use
        idle = self._idle
        conn = await idle.get()
        try:
            if conn is None:
                conn = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
            cursor = await conn.execute(self._sql, {"h": digest, "now": now})
            found = await cursor.fetchone()
            return found or False
        except Exception:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
            conn = None
            return None
        finally:
            idle.put_nowait(conn)
