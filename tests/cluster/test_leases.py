"""Leases and fencing on a real PostgreSQL, in process: acquire, renew, expire, take over, and
a stale owner's write refused inside its own transaction (nothing reaches the ledger).

These run in their own schema, so they never disturb the process tests' database.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from decimal import Decimal

import pytest
import sqlalchemy as sa

from croupier.service import store
from croupier.service.auth import User
from croupier.service.cluster import leases, node
from croupier.service.cluster.node import Node
from croupier.service.controls import EntryMode
from croupier.service.live import LiveTable
from croupier.service.plans import Job, Plan
from croupier.service.runner import Runner
from croupier.service.tables import Opening, Tables
from serverkit import own_schema

from .conftest import postgres_url


def open_table(tables: Tables, conn: sa.Connection, table_id: str) -> LiveTable:
    """A roulette table opened as the API opens one: its row with the house chain's record
    that opens it (``table_entry``), without which no node serves it."""
    return tables.create(conn, Opening(table_id, "roulette", "nj-casino-night", {}, "admin",
                                       EntryMode.RNG))


SCHEMA = "croupier_cluster_leases"


@pytest.fixture(scope="module")
def engine() -> Iterator[sa.Engine]:
    with own_schema(postgres_url(), SCHEMA) as in_schema:
        eng = sa.create_engine(in_schema)
        store.upgrade(eng)
        with eng.begin() as conn:
            leases.create(conn)
        try:
            yield eng
        finally:
            eng.dispose()


def expire(engine: sa.Engine, table_id: str) -> None:
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE table_leases SET expires_at = clock_timestamp() - "
                             "interval '1 second' WHERE table_id = :t"), {"t": table_id})


def test_acquire_renew_expire_take_over(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        assert leases.acquire(conn, "t-life", "a", "http://a", 30) == 1
    with engine.begin() as conn:  # held and unexpired: nobody else gets it, not even a again
        assert leases.acquire(conn, "t-life", "b", "http://b", 30) is None
        assert leases.acquire(conn, "t-life", "a", "http://a", 30) is None
        assert leases.renew(conn, "a", ["t-life"], 30) == {"t-life": 1}
        assert leases.renew(conn, "b", ["t-life"], 30) == {}
    expire(engine, "t-life")
    with engine.begin() as conn:  # expired: taken over, and the epoch moves on
        assert leases.acquire(conn, "t-life", "b", "http://b", 30) == 2
        holder = leases.lookup(conn, "t-life")
        assert holder is not None and (holder.owner, holder.url, holder.epoch) == ("b", "http://b", 2)
        assert leases.renew(conn, "a", ["t-life"], 30) == {}
        leases.release(conn, "t-life", "b", 2)
    with engine.begin() as conn:  # released: the next node takes it at once
        assert leases.acquire(conn, "t-life", "a", "http://a", 30) == 3


def test_stale_epoch_is_fenced_in_the_writing_transaction(engine: sa.Engine) -> None:
    with engine.begin() as conn:
        assert leases.acquire(conn, "t-fence", "a", "http://a", 30) == 1
    expire(engine, "t-fence")
    with engine.begin() as conn:
        assert leases.acquire(conn, "t-fence", "b", "http://b", 30) == 2
    with pytest.raises(leases.Fenced), engine.begin() as conn:
        leases.fence(conn, "t-fence", "a", 1)
    with pytest.raises(leases.Fenced), engine.begin() as conn:
        leases.fence(conn, "t-fence", "b", 1)  # the right node with an old epoch
    with engine.begin() as conn:
        leases.fence(conn, "t-fence", "b", 2)


def test_take_over_waits_for_the_owners_write_in_flight(engine: sa.Engine) -> None:
    """The old owner's transaction holds the lease row FOR KEY SHARE: a take-over commits only
    after it, so the new owner rebuilds from a ledger that already holds that write."""
    with engine.begin() as conn:
        assert leases.acquire(conn, "t-wait", "a", "http://a", 30) == 1
    expire(engine, "t-wait")
    in_fence = threading.Event()
    release = threading.Event()

    def owner_write() -> None:
        with engine.begin() as conn:
            leases.fence(conn, "t-wait", "a", 1)
            in_fence.set()
            while not release.wait(0.2):  # busy, not idle: the stall timeout does not apply
                conn.exec_driver_sql("SELECT 1")

    writer = threading.Thread(target=owner_write)
    writer.start()
    try:
        assert in_fence.wait(5)
        with engine.begin() as conn:  # waits up to its 1 s lock timeout, then gives up
            started = time.monotonic()
            assert leases.acquire(conn, "t-wait", "b", "http://b", 30) is None
            assert time.monotonic() - started >= 0.9
    finally:
        release.set()
        writer.join(5)
    with engine.begin() as conn:
        assert leases.acquire(conn, "t-wait", "b", "http://b", 30) == 2


def test_ledger_refuses_a_fenced_nodes_write(engine: sa.Engine) -> None:
    """The hook in the ledger's write path: a node whose epoch is stale writes nothing, not
    even the stored reply of its idempotency key."""
    runner = Runner.over(engine)
    ledger = runner.ledger
    with engine.begin() as conn:
        live = open_table(runner.tables, conn, "t-ledger")
    runner.tables.add(live)
    stale = Node(engine, runner.tables, "a", "http://a", ttl=30)
    ledger.fence = stale.fence
    assert stale.claim("t-ledger") is None and stale.held() == {"t-ledger": 1}
    expire(engine, "t-ledger")
    with engine.begin() as conn:
        assert leases.acquire(conn, "t-ledger", "b", "http://b", 30) == 2
    user = User(1, "admin", "admin")

    def plan(_conn: sa.Connection) -> Plan:
        from croupier.service import events as sv

        return Plan([sv.Adjusted("alice", Decimal("5.00"), "test", "admin")])

    with pytest.raises(leases.Fenced):
        runner.run(Job(user, live, "fenced-key", "fp", plan))
    assert stale.held() == {}
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(store.events).where(
            store.events.c.table_id == "t-ledger")).scalar() == 0
        assert conn.execute(sa.select(sa.func.count()).select_from(store.idempotency).where(
            store.idempotency.c.key == "fenced-key")).scalar() == 0
    assert isinstance(live, LiveTable) and live.seq == 0


def test_renewal_never_waits_for_the_owners_writes(engine: sa.Engine) -> None:
    """A busy table always has a write in flight: renewing must not queue behind it."""
    with engine.begin() as conn:
        assert leases.acquire(conn, "t-renew", "a", "http://a", 30) == 1
    with engine.begin() as writing:
        leases.fence(writing, "t-renew", "a", 1)
        with engine.begin() as conn:
            started = time.monotonic()
            assert leases.renew(conn, "a", ["t-renew"], 30) == {"t-renew": 1}
            assert time.monotonic() - started < 0.9  # not the 1 s lock timeout


def test_a_node_stopping_hands_its_tables_over_at_once(engine: sa.Engine) -> None:
    """SIGTERM (a rolling restart): the node releases its leases as it exits, so another node
    takes its tables at once rather than after the lease would have expired (30 s here)."""
    tables = Runner.over(engine).tables
    with engine.begin() as conn:
        live = open_table(tables, conn, "t-handover")
    tables.add(live)
    first = Node(engine, tables, "a", "http://a", ttl=30)
    assert first.claim("t-handover") is None and first.held() == {"t-handover": 1}
    second = Node(engine, tables, "b", "http://b", ttl=30)
    holder = second.claim("t-handover")
    assert holder is not None and holder.owner == "a"
    first.close()
    second.forget_holder("t-handover")
    assert second.claim("t-handover") is None and second.held() == {"t-handover": 2}


def test_a_table_taken_over_keeps_one_hash_chain(engine: sa.Engine) -> None:
    """Two nodes write one table in turn (a fail-over and back): each takes the table over
    with its chain head reloaded from the database, so every event links to the other
    node's last one and the recomputed chain has no break."""
    from croupier.service import events as sv
    from croupier.service.audit import chain, snapshot

    first_runner = Runner.over(engine)
    with engine.begin() as conn:
        live = open_table(first_runner.tables, conn, "t-chain")
    first_runner.tables.add(live)
    second_runner = Runner.over(engine)
    first = Node(engine, first_runner.tables, "a", "http://a", ttl=30)
    second = Node(engine, second_runner.tables, "b", "http://b", ttl=30)
    first_runner.ledger.fence, second_runner.ledger.fence = first.fence, second.fence
    user = User(1, "admin", "admin")

    def plan(_conn: sa.Connection) -> Plan:
        return Plan([sv.BettingClosed("admin", "N.J.A.C. 13:47-20.32")])

    def write(node: Node, runner: Runner) -> None:
        assert node.claim("t-chain") is None
        runner.run(Job(user, runner.tables.all["t-chain"], None, "fp", plan))

    write(first, first_runner)
    first.close()  # hands the table over
    second.forget_holder("t-chain")
    write(second, second_runner)
    write(second, second_runner)
    second.close()
    first = Node(engine, first_runner.tables, "a", "http://a", ttl=30)
    first_runner.ledger.fence = first.fence
    write(first, first_runner)  # its memory and head were one event behind: reloaded
    first.close()
    with engine.connect() as conn:
        snap = snapshot.read(conn)
    snap.tables = [t for t in snap.tables if t["id"] == "t-chain"]
    assert [e["seq"] for e in snap.events["t-chain"]] == [1, 2, 3, 4]
    assert chain.recompute(snap).findings == []
    assert first_runner.ledger.heads["t-chain"] == snap.events["t-chain"][-1]["hash"]


def test_a_gone_owners_table_is_taken_at_once_and_its_writes_fenced(engine: sa.Engine) -> None:
    """kill -9 closes every connection of the owner's process, its liveness lock's among
    them: another node takes the table at once (not after the 30 s lease), and should the
    owner still be running, its next write is refused and its renewal drops the lease."""
    runner = Runner.over(engine)
    with engine.begin() as conn:
        live = open_table(runner.tables, conn, "t-gone")
    runner.tables.add(live)
    first = Node(engine, runner.tables, "a", "http://a", ttl=30)
    second = Node(engine, Runner.over(engine).tables, "b", "http://b", ttl=30)
    runner.ledger.fence = first.fence
    assert first.claim("t-gone") is None and first.held() == {"t-gone": 1}
    holder = second.claim("t-gone")  # alive: its lock is held, so the lease stands
    assert holder is not None and holder.owner == "a" and not holder.expired
    assert first._live is not None
    first._live.invalidate()  # the connection closes as a killed process's would
    started = time.monotonic()
    # PostgreSQL frees the lock once the closed session's backend has ended, a moment after
    # the socket closes (longer on a busy machine): the node asks again, as its loop does.
    while True:
        second.forget_holder("t-gone")
        if second.claim("t-gone") is None or time.monotonic() - started > 5:
            break
        time.sleep(0.05)
    assert second.held() == {"t-gone": 2}
    assert time.monotonic() - started < 5  # not the lease's 30 s
    user = User(1, "admin", "admin")

    def plan(_conn: sa.Connection) -> Plan:
        from croupier.service import events as sv

        return Plan([sv.Adjusted("alice", Decimal("5.00"), "test", "admin")])

    with pytest.raises(leases.Fenced):
        runner.run(Job(user, live, "gone-key", "fp", plan))
    assert first.held() == {}
    with engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(store.events).where(
            store.events.c.table_id == "t-gone")).scalar() == 0
    second.close()


def test_an_owner_whose_liveness_connection_fails_drops_its_leases(engine: sa.Engine) -> None:
    """Its lock may already read as free to a taker: the owner stops counting its leases at
    its next renewal rather than serving from memory until they would have expired."""
    tables = Runner.over(engine).tables
    with engine.begin() as conn:
        tables.add(open_table(tables, conn, "t-lost"))
    node = Node(engine, tables, "a", "http://a", ttl=30)
    assert node.claim("t-lost") is None and node.held() == {"t-lost": 1}
    node.renew_once()
    assert node.held() == {"t-lost": 1}
    assert node._live is not None
    node._live.invalidate()
    node.renew_once()
    assert node.held() == {}
    node.close()


def test_a_forward_waits_until_just_past_the_holders_lease(engine: sa.Engine) -> None:
    """A request forwarded to the holder waits for its answer until half a second past the
    end of the holder's lease as last read, within 1 to 5 s: a stalled holder's table is then
    taken over by the client's retry once the lease lapses (a fixed 5 s kept it past a 3 s
    lease)."""
    tables = Runner.over(engine).tables
    with engine.begin() as conn:
        live = open_table(tables, conn, "t-forward")
    tables.add(live)
    second = Node(engine, tables, "b", "http://b", ttl=30)
    assert second.forward_within("t-forward") == node.FORWARD_MAX  # no lease read yet
    for ttl, low, high in ((4, 3.0, 4.5), (30, node.FORWARD_MAX, node.FORWARD_MAX)):
        first = Node(engine, tables, "a", "http://a", ttl=ttl)
        assert first.claim("t-forward") is None
        second.forget_holder("t-forward")
        holder = second.claim("t-forward")
        assert holder is not None and holder.owner == "a"
        assert low <= second.forward_within("t-forward") <= high, ttl
        if ttl == 4:  # near the lease's end as read (a holder that stopped renewing)
            time.sleep(3.8)
            assert second.forward_within("t-forward") == node.FORWARD_MIN
        first.close()
        second.forget_holder("t-forward")
