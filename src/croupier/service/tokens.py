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
import sqlalchemy as sa
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.sql import Select, visitors

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
    """The query on a few asynchronous PostgreSQL connections, made in the event loop.

    The look-ups waiting meanwhile share one query (every digest in one array, each row with
    the digest it answers): with dozens of requests in flight a query per request cost more of
    the event loop's time (psycopg's asynchronous Python around each round trip) than the rest
    of the request's checks. Each request is still answered from a query sent after it arrived,
    so a revocation takes effect at once."""

    def __init__(self, engine: Engine, query: Select[Any]) -> None:
        self._conninfo = engine.url.set(drivername="postgresql").render_as_string(
            hide_password=False)
        self._sql = _batched(engine, query)
        self._idle: asyncio.Queue[psycopg.AsyncConnection[Any] | None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: list[tuple[str, asyncio.Future[Found]]] = []
        self._running = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self.queries = 0  # queries sent so far (tests)

    async def row(self, digest: str, now: float) -> Found:
        """As :meth:`TokenLookup.row`; None when a connection failed (made again next time)."""
        loop = asyncio.get_running_loop()
        if self._idle is None or self._loop is not loop:
            # Connections belong to the loop they were made in (a server has one loop; an
            # app driven by several, as in tests, starts afresh in each).
            self._loop = loop
            self._idle = asyncio.Queue()
            self._waiting, self._running = [], 0
            for _ in range(ASYNC_CONNECTIONS):
                self._idle.put_nowait(None)  # a free place; its connection is made on first use
        future: asyncio.Future[Found] = loop.create_future()
        self._waiting.append((digest, future))
        if self._running < ASYNC_CONNECTIONS:
            self._running += 1
            task = loop.create_task(self._drain(self._idle))
            self._tasks.add(task)  # held until done (the loop keeps only a weak reference)
            task.add_done_callback(self._tasks.discard)
        return await future

    async def _drain(self, idle: asyncio.Queue[psycopg.AsyncConnection[Any] | None]) -> None:
        """Answer the waiting look-ups, all those waiting at once, until none is left."""
        try:
            while self._waiting:
                conn = await idle.get()
                batch, self._waiting = self._waiting[:MAX_BATCH], self._waiting[MAX_BATCH:]
                if not batch:  # another drainer took them meanwhile
                    idle.put_nowait(conn)
                    continue
                conn, found = await self._query(conn, [d for d, _ in batch])
                idle.put_nowait(conn)
                for digest, future in batch:
                    if not future.done():
                        future.set_result(None if found is None else found.get(digest, False))
        finally:
            self._running -= 1

    async def _query(self, conn: psycopg.AsyncConnection[Any] | None, digests: list[str],
                     ) -> tuple[psycopg.AsyncConnection[Any] | None,
                                dict[str, tuple[Any, ...]] | None]:
        """The rows found by digest (None: the connection failed, and is closed)."""
        try:
            if conn is None:
                conn = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
            self.queries += 1
            cursor = await conn.execute(self._sql, {"hs": digests, "now": store.now()})
            return conn, {str(r[0]): tuple(r[1:]) for r in await cursor.fetchall()}
        except Exception:
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()
            return None, None


MAX_BATCH = 256
"""Look-ups answered by one query at most."""


def _batched(engine: Engine, query: Select[Any]) -> str:
    """``query`` for every digest of an array ``hs`` at once: each row led by its digest (the
    query's ``h`` is each element in turn, through a lateral join)."""

    def digest(element: Any) -> Any:
        if isinstance(element, sa.sql.elements.BindParameter) and element.key == "h":
            return sa.literal_column("q.h")
        return None

    each: Select[Any] = visitors.replacement_traverse(query, {}, digest)  # type: ignore[call-overload]
    return (f"SELECT q.h, f.* FROM unnest(CAST(%(hs)s AS varchar[])) AS q(h) "
            f"CROSS JOIN LATERAL ({_compiled(engine, each)}) AS f")
