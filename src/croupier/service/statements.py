"""The hot path's statements in the driver's own SQL, run on the transaction's DBAPI cursor.

A bet runs five statements (its stored reply looked up, and on a miss the events its request
already produced, its event, its seat, its reply stored).
Through SQLAlchemy each costs tens of microseconds of Python before the driver sees it (cache
key, parameter processing, result object), more than SQLite spends running it: measured, the
SQLAlchemy layer was a third of a bet's CPU. These statements are compiled once, by
SQLAlchemy, for the engine's dialect (so quoting and placeholders are the dialect's), and run
on the cursor of the very connection, hence the very transaction, SQLAlchemy opened. Only plain
values (int, str, float, None) go through them, which every driver takes as they are.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql.expression import ClauseElement

from croupier.service import store

_SQLITE_STORED_MANY = (
    "SELECT i.user_id, i.key, i.fingerprint, i.status, i.body FROM json_each(:q) AS q"
    " CROSS JOIN idempotency AS i"
    " WHERE i.user_id = json_extract(q.value, '$[0]') AND i.key = json_extract(q.value, '$[1]')")
"""SQLite's reading of a batch's stored replies: the pairs (user id, key) as one JSON array,
each found by the table's primary key (``CROSS JOIN`` keeps the array the outer loop)."""
_SQLITE_PRODUCED_MANY = (
    "SELECT e.request, e.table_id, MIN(e.seq) FROM events AS e"
    " WHERE e.request IN (SELECT value FROM json_each(:r)) GROUP BY e.request")
"""SQLite's reading of the events a batch's requests already produced (the first of each)."""


class Statements:
    """The ledger's hot statements, compiled for one engine (see the module's docstring)."""

    def __init__(self, engine: Engine) -> None:
        # SQLite with named placeholders (:name) so every driver takes a mapping of values.
        self.sqlite = store.is_sqlite(engine)
        dialect = sqlite.dialect(paramstyle="named") if self.sqlite else engine.dialect
        c = store.idempotency.c
        self.select_stored = _sql(dialect, sa.select(c.fingerprint, c.status, c.body).where(
            c.user_id == sa.bindparam("u"), c.key == sa.bindparam("k")))
        self.insert_stored = _sql(dialect, store.idempotency.insert())
        i = store.idempotency.c
        self.update_stored = _sql(dialect, store.idempotency.update().where(
            i.user_id == sa.bindparam("u"), i.key == sa.bindparam("k")).values(
            status=sa.bindparam("status"), body=sa.bindparam("body")))
        # PostgreSQL: the stored replies of a whole batch's keys, read with its BEGIN
        # (``writers``): one query for the pairs (user id, key) given as two arrays.
        self.select_stored_many = _SQLITE_STORED_MANY if store.is_sqlite(engine) else _sql(
            dialect, sa.text(
            "SELECT i.user_id, i.key, i.fingerprint, i.status, i.body FROM idempotency AS i"
            " JOIN unnest(CAST(:u AS integer[]), CAST(:k AS varchar[])) AS q(u, k)"
            " ON i.user_id = q.u AND i.key = q.k"))
        # The events a request already produced (by its digest, ``codec.request_digest``):
        # a retry whose stored reply is missing is known from the chain.
        self.select_produced = _sql(dialect, sa.text(
            "SELECT e.table_id, e.seq FROM events AS e WHERE e.request = :r LIMIT 1"))
        self.select_produced_many = _SQLITE_PRODUCED_MANY if store.is_sqlite(engine) else _sql(
            dialect, sa.text(
            "SELECT DISTINCT ON (e.request) e.request, e.table_id, e.seq FROM events AS e"
            " WHERE e.request = ANY(CAST(:r AS varchar[])) AND e.request IS NOT NULL"
            " ORDER BY e.request, e.table_id, e.seq"))
        self.insert_events = _sql(dialect, store.events.insert())
        s = store.seats.c
        self.insert_seats = _sql(dialect, store.seats.insert())
        self.update_seats = _sql(dialect, store.seats.update().where(
            s.table_id == sa.bindparam("t"), s.player == sa.bindparam("p")).values(
            chips_cents=sa.bindparam("c"), on_table_cents=sa.bindparam("o")))
        self.update_house = _sql(dialect, store.tables.update().where(
            store.tables.c.id == sa.bindparam("t")).values(house_cents=sa.bindparam("h")))

    def writing(self, conn: Connection, writes: Writes,
                ) -> list[tuple[str, Sequence[Mapping[str, Any]]]]:
        """The statements that write ``writes``, each with its rows of values (none empty)."""
        out: list[tuple[str, Sequence[Mapping[str, Any]]]] = [
            (self.insert_events, writes.events),
            (self.insert_stored, list(writes.stored.values())),
            (self.update_stored, writes.replaced)]
        for seats in writes.seats.values():
            out.extend(self._seat_writes(conn, seats))
        return [(sql, rows) for sql, rows in out if rows]

    def _seat_writes(self, conn: Connection, seats: Seats,
                     ) -> list[tuple[str, Sequence[Mapping[str, Any]]]]:
        """The rows of a table's seats and of its house result, as ``seats`` gives them: a
        seat the ledger holds is updated, a new one inserted; the house only if it moved."""
        live = seats.live
        if live.seat_rows is None:
            live.seat_rows = set(seat_players(conn, live.id))
        rows: list[dict[str, Any]] = []
        changed: list[dict[str, Any]] = []
        for player in sorted(seats.values):
            chips, on_table = (store.cents(v) for v in seats.values[player])
            if player in live.seat_rows:
                changed.append({"t": live.id, "p": player, "c": chips, "o": on_table})
            else:
                rows.append({"table_id": live.id, "player": player, "chips_cents": chips,
                             "on_table_cents": on_table})
        out: list[tuple[str, Sequence[Mapping[str, Any]]]] = [
            (self.insert_seats, rows), (self.update_seats, changed)]
        live.seat_rows.update(r["player"] for r in rows)  # a failed transaction rebuilds these
        house = store.cents(seats.house)
        if house != live.house_written:
            out.append((self.update_house, [{"t": live.id, "h": house}]))
            live.house_written = house
        return out

    @staticmethod
    def one(conn: Connection, sql: str, values: Mapping[str, Any]) -> tuple[Any, ...] | None:
        """The first row of a query, in ``conn``'s transaction."""
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(sql, values)
            row: tuple[Any, ...] | None = cursor.fetchone()
            return row
        finally:
            cursor.close()

    @staticmethod
    def all(conn: Connection, sql: str, values: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """Every row of a query, in ``conn``'s transaction."""
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(sql, values)
            return list(cursor.fetchall())
        finally:
            cursor.close()

    def known_reads(self, keys: list[tuple[int, str]], digests: list[str],
                    ) -> list[tuple[str, Mapping[str, Any]]]:
        """The two reads of a batch's stored replies and of the events its requests produced,
        with their values (lists: arrays on PostgreSQL, JSON text on SQLite)."""
        if self.sqlite:
            return [(self.select_stored_many, {"q": json.dumps(keys)}),
                    (self.select_produced_many, {"r": json.dumps(digests)})]
        return [(self.select_stored_many, {"u": [u for u, _ in keys], "k": [k for _, k in keys]}),
                (self.select_produced_many, {"r": digests})]

    @staticmethod
    def many(conn: Connection, sql: str, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run a statement once per row of values, in ``conn``'s transaction."""
        if not rows:
            return
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            if len(rows) == 1:
                cursor.execute(sql, rows[0])
            else:
                cursor.executemany(sql, rows)
        finally:
            cursor.close()


@dataclass
class Seats:
    """A table's seats as an action leaves them (chips, on the table, by player) and its house
    result: what the ledger writes of them. ``live``: the table, for what it knows the ledger
    holds already (``seat_rows``, ``house_written``), so a write touches only what changed."""

    live: Any
    values: dict[str, tuple[Decimal, Decimal]]
    house: Decimal


class Writes:
    """The rows a transaction writes at its end, one statement per kind: the events in order,
    the stored replies by (user id, key), the seats touched per table."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.stored: dict[tuple[int, str], dict[str, Any]] = {}
        self.replaced: list[dict[str, Any]] = []
        """Stored replies answered at last (an outcome's, once it is settled)."""
        self.seats: dict[str, Seats] = {}

    def seat(self, seats: Seats) -> None:
        """A table's seats to write: a later action's values of a player replace an earlier
        one's (every action that changes a player's chips names the player), so each is
        written as the transaction leaves it."""
        known = self.seats.get(seats.live.id)
        if known is None:
            self.seats[seats.live.id] = Seats(seats.live, dict(seats.values), seats.house)
            return
        known.values.update(seats.values)
        known.house = seats.house

    def stored_row(self, user_id: int, key: str) -> tuple[Any, ...] | None:
        """A reply stored earlier in this transaction, as the stored-reply query gives it."""
        row = self.stored.get((user_id, key))
        return None if row is None else (row["fingerprint"], row["status"], row["body"])


def seat_players(conn: Connection, table_id: str) -> list[str]:
    """The players the ledger holds a seat of at ``table_id``."""
    return [r.player for r in conn.execute(sa.select(store.seats.c.player).where(
        store.seats.c.table_id == table_id))]


def _sql(dialect: sa.Dialect, statement: ClauseElement) -> str:
    return str(statement.compile(dialect=dialect))
