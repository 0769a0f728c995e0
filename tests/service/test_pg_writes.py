"""The PostgreSQL write path, in process on a real PostgreSQL: the group commit's writer
connections (kept, lost and made again), a batch's failure answered action by action, stored
replies read with the batch's BEGIN, and the bearer-token look-ups that share one query.

These run in their own schema, so they never disturb the process tests' database.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections.abc import Callable, Iterator
from typing import NamedTuple

import pytest
import sqlalchemy as sa

import serverkit
from croupier.service import events as sv
from croupier.service import store, tokens
from croupier.service.auth import _USER_BY_TOKEN, User
from croupier.service.controls import EntryMode
from croupier.service.errors import ApiError
from croupier.service.live import LiveTable
from croupier.service.plans import Job, Plan, Reply
from croupier.service.runner import Runner
from croupier.service.tables import Opening, Tables


def open_table(tables: Tables, conn: sa.Connection, table_id: str) -> LiveTable:
    """A roulette table opened as the API opens one: its row with the house chain's record
    that opens it (``table_entry``), without which no node serves it."""
    return tables.create(conn, Opening(table_id, "roulette", "nj-casino-night", {}, "admin",
                                       EntryMode.RNG))


SCHEMA = "croupier_pg_writes"
ADMIN = User(1, "admin", "admin")


@pytest.fixture(scope="module")
def engine() -> Iterator[sa.Engine]:
    url = serverkit.postgres_url(": the writer connections are PostgreSQL's")
    with serverkit.own_schema(url, SCHEMA) as in_schema:
        eng = store.make_engine(in_schema)
        store.upgrade(eng)
        try:
            yield eng
        finally:
            eng.dispose()


class At(NamedTuple):
    """A runner over the schema and the fresh table a test writes to (the runner also loads
    the tables earlier tests made, so a test counts only its own table's events)."""
    runner: Runner
    live: LiveTable


@pytest.fixture
def at(engine: sa.Engine) -> Iterator[At]:
    made = Runner.over(engine)
    with engine.begin() as conn:
        live = open_table(made.tables, conn, f"t-{uuid.uuid4().hex[:8]}")
    made.tables.add(live)
    yield At(made, live)
    assert made.ledger._writers is not None
    made.ledger._writers.close()


def adjust(n: int) -> Callable[[sa.Connection], Plan]:
    """An action writing one event (which event does not matter here; ``n`` tells them apart)."""
    def plan(_conn: sa.Connection) -> Plan:
        return Plan([sv.BettingClosed("admin", f"test {n}")])
    return plan


def job(live: LiveTable, key: str | None, plan: Callable[[sa.Connection], Plan],
        fp: str = "fp") -> Job:
    return Job(ADMIN, live, key, fp, plan)


def events_of(engine: sa.Engine, table_id: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(store.events).where(
            store.events.c.table_id == table_id)).scalar_one())


def test_batches_share_one_kept_connection_and_replay_stored_replies(
        at: At, engine: sa.Engine) -> None:
    runner, live = at
    first = runner.run_batch([job(live, "k1", adjust(100)), job(live, "k2", adjust(200))])
    assert all(isinstance(r, Reply) and r.status == 200 for r in first), first
    # k1 again (stored by the batch before: replayed), k3 new, k3 again within the same
    # batch (replayed from the transaction's own writes), k2 for another request (refused).
    second = runner.run_batch([job(live, "k1", adjust(100)), job(live, "k3", adjust(300)),
                               job(live, "k3", adjust(300)), job(live, "k2", adjust(1), "other")])
    assert isinstance(second[0], Reply) and second[0].replayed
    assert second[0].body == first[0].body  # type: ignore[union-attr]
    assert isinstance(second[1], Reply) and not second[1].replayed
    assert isinstance(second[2], Reply) and second[2].replayed and second[2].body == second[1].body
    assert isinstance(second[3], ApiError) and second[3].status == 422
    assert events_of(engine, live.id) == 3 and live.seq == 3
    assert runner.ledger._writers is not None and runner.ledger._writers.made == 1  # kept, not made again


def test_a_lost_writer_connection_is_made_again_and_the_batch_commits(
        at: At, engine: sa.Engine) -> None:
    runner, live = at
    assert isinstance(runner.run_batch([job(live, "a", adjust(100))])[0], Reply)
    writers = runner.ledger._writers
    assert writers is not None and writers.made == 1
    pid = writers._idle[0][1].info.backend_pid
    with engine.begin() as conn:  # the database ends the writer's session (as a restart does)
        conn.execute(sa.text("SELECT pg_terminate_backend(:p)"), {"p": pid})
    replies = runner.run_batch([job(live, "b", adjust(200)), job(live, "c", adjust(300))])
    assert all(isinstance(r, Reply) and r.status == 200 for r in replies), replies
    assert writers.made >= 2
    assert events_of(engine, live.id) == 3 and live.seq == 3
    assert isinstance(runner.run_batch([job(live, "d", adjust(400))])[0], Reply)


def test_a_failed_batch_answers_each_action_on_its_own(
        at: At, engine: sa.Engine) -> None:
    runner, live = at

    def broken(conn: sa.Connection) -> Plan:
        conn.execute(sa.text("SELECT 1 / 0"))  # fails the whole transaction
        return Plan([])

    replies = runner.run_batch([job(live, "ok1", adjust(100)), job(live, "bad", broken),
                                job(live, "ok2", adjust(200))])
    assert isinstance(replies[0], Reply) and isinstance(replies[2], Reply)
    assert isinstance(replies[1], sa.exc.DBAPIError)
    assert events_of(engine, live.id) == 2 and live.seq == 2
    with engine.connect() as conn:
        keys = set(conn.execute(sa.select(store.idempotency.c.key)).scalars())
    assert {"ok1", "ok2"} <= keys and "bad" not in keys


def test_token_lookups_waiting_together_share_one_query(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        user_id = conn.execute(store.users.insert().values(
            username=f"u{uuid.uuid4().hex[:8]}", role="player", password_hash="x",
            failed_logins=0, locked=False, created_at=store.now())).inserted_primary_key[0]
        digests = [hashlib.sha256(uuid.uuid4().bytes).hexdigest() for _ in range(3)]
        for digest in digests:
            conn.execute(store.tokens.insert().values(token_hash=digest, user_id=user_id,
                                                      expires_at=store.now() + 60))
    lookup = tokens.AsyncTokenLookup(engine, _USER_BY_TOKEN)
    unknown = "0" * 64

    async def run() -> list[tokens.Found]:
        asked = [*digests * 10, unknown]
        return await asyncio.gather(*(lookup.row(d, store.now()) for d in asked))

    found = serverkit.run_coroutine(run())
    assert all(f and f[0] == user_id for f in found[:-1]) and found[-1] is False
    assert lookup.queries < 31 / 2  # shared: far fewer queries than look-ups
    with engine.begin() as conn:  # revoked: the next look-up (a new query) no longer finds it
        conn.execute(store.tokens.delete().where(store.tokens.c.token_hash == digests[0]))

    async def again() -> tokens.Found:
        return await lookup.row(digests[0], store.now())

    assert serverkit.run_coroutine(again()) is False
