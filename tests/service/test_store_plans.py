"""PostgreSQL plans each prepared statement of the hot path for the table as it is when it
runs: a plan kept from a ledger's first bets, made while its events were a few rows, read the
whole events table on every later bet (croupier.service.store.PLAN_EACH_TIME)."""

from __future__ import annotations

import uuid

import sqlalchemy as sa

from croupier.service import store
from croupier.service.statements import Statements
from serverkit import own_schema, postgres_url

FIRST, ROWS = 100, 20_000


def _add_events(conn: sa.Connection, first: int, last: int) -> None:
    conn.exec_driver_sql(
        "INSERT INTO events (table_id, seq, round, kind, payload, actor, at, request)"
        f" SELECT 't', i, 1, 'bet', '{{}}', 'x', 0, md5(i::text)"
        f" FROM generate_series({first}, {last}) AS i")
    conn.commit()


def _seq_scans(cursor: object, table: str) -> int:
    """The sequential scans of ``table`` this transaction has made so far."""
    cursor.execute(  # type: ignore[attr-defined]
        "SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = %s", (table,))
    return int(cursor.fetchone()[0])  # type: ignore[attr-defined]


def test_the_produced_events_read_uses_the_index_once_the_table_has_grown() -> None:
    url = postgres_url(": the plans PostgreSQL keeps are PostgreSQL's")
    with own_schema(url, f"croupier_plans_{uuid.uuid4().hex[:8]}") as schema_url:
        engine = store.make_engine(schema_url)
        try:
            store.metadata.create_all(engine)
            sql, _ = Statements(engine).known_reads([(1, "k")], ["d"])[1]
            with engine.connect() as conn:
                cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
                _add_events(conn, 1, FIRST)  # a new ledger's first bets, analysed as
                conn.exec_driver_sql("ANALYZE events")  # the autovacuum soon does
                conn.commit()
                # The driver prepares it after 5 runs, and PostgreSQL plans it 5 times more
                # before it may keep one plan for it.
                for _ in range(20):
                    cursor.execute(sql, {"r": ["a", "b"]})
                    cursor.fetchall()
                conn.commit()
                _add_events(conn, FIRST + 1, ROWS)
                before = _seq_scans(cursor, "events")
                cursor.execute(sql, {"r": ["a", "b"]})
                assert cursor.fetchall() == []
                assert _seq_scans(cursor, "events") == before, (
                    "the events table was read whole to look up two requests' events")
                conn.rollback()
        finally:
            engine.dispose()


def test_each_session_plans_at_each_run() -> None:
    url = postgres_url(": the setting is PostgreSQL's")
    engine = store.make_engine(url)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SHOW plan_cache_mode").scalar() == "force_custom_plan"
    finally:
        engine.dispose()
