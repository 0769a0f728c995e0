"""A node stopped (SIGSTOP, a long pause) while it holds a lock of the cluster's own: a lease's
row in the middle of a take-over or a renewal, the checkpoint writers' turn, the start-up lock.
A stopped node's connections stay open, and so do its transactions and its sessions' locks.

The leases' cases run in process: a node's connection (the server's engine, with its bounds)
takes the row with the leases' own code and then sits idle in its transaction, which is what
PostgreSQL sees of a node stopped right there. Before, the table's owner waited on that row in
its every write, forever (holding its table's lock meanwhile), and no other node could take the
table over. The session-level locks need a process that PostgreSQL sees stop: one process
takes them and is stopped with SIGSTOP.

"Within N s" here only tells a hang from an answer: N is far above any bound.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from croupier.service import cluster, store
from croupier.service.audit import chain
from croupier.service.audit.keys import Signer
from croupier.service.auth import User
from croupier.service.cluster import leases
from croupier.service.cluster.node import Node
from croupier.service.plans import Job, Plan, Reply
from croupier.service.runner import Runner
from serverkit import ended_by_the_database, fresh_schema

from .conftest import postgres_url
from .test_leases import open_table

HANG = 40.0
"""Seconds after which something still waiting is taken to hang."""


@pytest.fixture(scope="module")
def url() -> str:
    return fresh_schema(postgres_url())


@pytest.fixture(scope="module")
def engine(url: str) -> Iterator[sa.Engine]:
    """A node's engine, as ``croupier serve --node-id`` makes it."""
    eng = cluster.make_engine(url)
    store.upgrade(eng)
    with eng.begin() as conn:
        leases.create(conn)
    try:
        yield eng
    finally:
        eng.dispose()


def _close_betting(_conn: sa.Connection) -> Plan:
    from croupier.service import events as sv

    return Plan([sv.BettingClosed("admin", "N.J.A.C. 13:47-20.32")])


def test_a_taker_stopped_mid_claim_never_keeps_the_owner_from_writing(
        engine: sa.Engine) -> None:
    """Node b, asking for a table node a holds, locks its lease row FOR UPDATE (the one lock
    that conflicts with the owner's FOR KEY SHARE fence), finds the lease held, and stops
    before its transaction ends. Node a's next write waits on the row until PostgreSQL ends
    b's transaction, then is written; before, it waited as long as b stayed stopped."""
    runner = Runner.over(engine)
    with engine.begin() as conn:
        live = open_table(runner.tables, conn, "t-stopped-taker")
    runner.tables.add(live)
    owner = Node(engine, runner.tables, "a", "http://a", ttl=30)
    runner.ledger.fence = owner.fence
    try:
        assert owner.claim("t-stopped-taker") is None
        taker = engine.connect()
        try:
            taker.begin()
            assert leases.acquire(taker, "t-stopped-taker", "b", "http://b",
                                  30) is None  # held: b takes nothing, and stops here
            done: list[object] = []

            def write() -> None:
                try:
                    done.append(runner.run(Job(User(1, "admin", "admin"), live, None, "fp",
                                               _close_betting)))
                except Exception as exc:
                    done.append(exc)

            writing = threading.Thread(target=write, daemon=True)
            writing.start()
            writing.join(HANG)
            assert done, "the owner's write waited on the stopped taker's row"
            assert isinstance(done[0], Reply) and done[0].status == 200, done
            ended_by_the_database(taker)
        finally:
            taker.close()
        assert live.seq == 1
    finally:
        owner.close()


def test_a_node_stopped_mid_renewal_never_keeps_its_tables_from_being_taken_over(
        engine: sa.Engine) -> None:
    """Node a renews its lease (the row updated, not yet committed) and stops there; its
    lease, last committed with a 1 s term, runs out. Node b takes the table once PostgreSQL
    has ended a's renewal; before, every take-over gave up on the row's lock (1 s) for as long
    as a stayed stopped, and the table answered 503 through every node."""
    tables = Runner.over(engine).tables
    with engine.begin() as conn:
        live = open_table(tables, conn, "t-stopped-renewal")
    tables.add(live)
    with engine.begin() as conn:
        assert leases.acquire(conn, "t-stopped-renewal", "a", "http://a", 1) == 1
    renewing = engine.connect()
    taker = Node(engine, tables, "b", "http://b", ttl=30)
    try:
        renewing.begin()
        assert leases.renew(renewing, "a", ["t-stopped-renewal"], 1) == {"t-stopped-renewal": 1}
        taken = threading.Event()  # a stops here

        def take() -> None:
            deadline = time.monotonic() + HANG
            while time.monotonic() < deadline:
                taker.forget_holder("t-stopped-renewal")
                if taker.claim("t-stopped-renewal") is None:
                    taken.set()
                    return
                time.sleep(0.2)

        threading.Thread(target=take, daemon=True).start()
        assert taken.wait(HANG), "the stopped renewal kept the table from every taker"
        assert taker.held() == {"t-stopped-renewal": 2}
        ended_by_the_database(renewing)
    finally:
        renewing.invalidate()
        renewing.close()
        taker.close()


def test_a_group_whose_lock_was_waited_for_in_vain_is_answered_busy_at_once(
        engine: sa.Engine, url: str) -> None:
    """A lease row held by a transaction with no bound of the server's (psql, a node of an
    earlier release): a group of three actions waits LOCK_WAIT_MS in its fence, once, and each
    is answered with the lock not had (503 busy, nothing written). Before, the group's failure
    ran each action again on its own, each waiting as long again, in turn, under the table's
    lock."""
    runner = Runner.over(engine)
    with engine.begin() as conn:
        live = open_table(runner.tables, conn, "t-group-busy")
    runner.tables.add(live)
    owner = Node(engine, runner.tables, "a", "http://a", ttl=30)
    runner.ledger.fence = owner.fence
    transactions = 0
    original = runner.ledger.transaction

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal transactions
        transactions += 1
        return original(*args, **kwargs)

    runner.ledger.transaction = counted  # type: ignore[method-assign]
    foreign = sa.create_engine(url)
    try:
        assert owner.claim("t-group-busy") is None
        with foreign.connect() as holder:
            holder.execute(sa.text("SELECT * FROM table_leases WHERE table_id = :t FOR UPDATE"),
                           {"t": "t-group-busy"}).all()
            user = User(1, "admin", "admin")
            answers: list[Reply | Exception] = []
            group = threading.Thread(target=lambda: answers.extend(runner.run_batch(
                [Job(user, live, None, f"fp{i}", _close_betting) for i in range(3)])),
                daemon=True)
            group.start()
            group.join(HANG)
            assert answers, "the group waited on the lease row as long as it was held"
        assert len(answers) == 3 and all(
            isinstance(a, sa.exc.OperationalError)
            and store.sqlstate(a) == store.LOCK_NOT_AVAILABLE for a in answers), answers
        assert transactions == 1
        assert live.seq == 0
    finally:
        owner.close()
        foreign.dispose()


# The process that holds the cluster's session-level locks and is stopped: the checkpoint
# writers' turn (inside it, as a checkpoint is numbered and pinned) and the start-up lock (as
# a node migrates). It frees what it holds 2 s after it stops, here, rather than 10.
_HOLDER = """
import sys, time
from croupier.service import cluster, store
from croupier.service.audit import chain
store.HELD_IDLE_MS = 2000
engine = cluster.make_engine(sys.argv[1])
with cluster.startup(engine), chain.Checkpointer(engine, None, None).one_writer():
    print("held", flush=True)
    time.sleep(3600)
"""


def test_a_node_stopped_holding_the_clusters_session_locks_frees_them(
        url: str, engine: sa.Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A node stopped (SIGSTOP) while it writes a checkpoint and while it starts holds the
    checkpoint writers' turn and the start-up lock. Another node signs its checkpoint, and
    another starts, once PostgreSQL has ended the stopped node's hold. Before, both were
    session locks, held as long as the stopped process's connection: no other node signed a
    checkpoint (each gave up after WRITER_WAIT_SECONDS) nor started for as long as it stayed
    stopped."""
    monkeypatch.setattr(chain, "WRITER_WAIT_SECONDS", 1)
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, url], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, env=dict(os.environ))
    try:
        assert holder.stdout is not None
        line = holder.stdout.readline().decode()
        assert line.strip() == "held", line + holder.stdout.read().decode()
        holder.send_signal(signal.SIGSTOP)
        signer = Signer(Ed25519PrivateKey.generate())
        writer = chain.Checkpointer(engine, signer, tmp_path / "ledger.key.pin")
        deadline = time.monotonic() + HANG
        while True:
            try:
                row = writer.write("every")
                break
            except chain.WriterBusy:
                assert time.monotonic() < deadline, "no checkpoint: the stopped node's turn"
        assert (tmp_path / "ledger.key.pin").exists() and row["key_id"] == signer.key_id
        started = threading.Event()

        def start() -> None:
            with cluster.startup(engine):
                started.set()

        starting = threading.Thread(target=start, daemon=True)
        starting.start()
        assert started.wait(HANG), "no node started: the stopped node's start-up lock"
        starting.join(HANG)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
