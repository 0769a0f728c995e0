"""A node stopped (SIGSTOP, a long pause) while it holds a database lock, as another node's
requests see it, on PostgreSQL: the nodes of a cluster share one database, and a stopped
node's connections keep every lock their open transactions hold.

What PostgreSQL sees of a node stopped inside a transaction is a session that sits idle in it.
So each test here makes one: a connection that takes the lock with the server's own code and
then says nothing more. Through the server's engine (:func:`stopped_node`) it is bounded as
every server's transaction is (``store.HOLDING_IDLE_MS``): PostgreSQL ends it, and the request
waiting on its lock is answered as if nothing had been held. Through a plain connection
(:func:`foreign_holder`: an operator's psql, a node of an earlier release) it is not, and the
waiting request is answered 503 "busy" once it has waited ``store.LOCK_WAIT_MS``, with nothing
changed, and its retry with the same Idempotency-Key is done once the lock is free. Before,
every such request waited as long as the holder did, holding what it held itself (its table's
lock, the node's one cage lock, a thread of the pool, a password-check slot).

"Within N s" here only tells a hang from an answer: N is far above any bound.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.service import auth, people, register, store
from croupier.service.ledger import Ledger, WalletMove, move_wallet
from serverkit import ended_by_the_database

from .appkit import App, backend_app

HANG = 30.0
"""Seconds after which a request still unanswered is taken to hang."""

WHY = ": cluster nodes share one PostgreSQL and its locks"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    with backend_app("postgresql", tmp_path, WHY) as a:
        for who in ("admin", "alice", "bob", "dealer", "auditor"):
            a.token(who)  # logged in before any lock is held
        yield a


def answer_within(seconds: float, ask: Callable[[], httpx.Response]) -> httpx.Response:
    """``ask()``'s answer, asked on a thread of its own; fails if it hangs past ``seconds``."""
    got: list[httpx.Response] = []
    thread = threading.Thread(target=lambda: got.append(ask()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert got, f"no answer within {seconds} s: the request waits on the stopped holder's lock"
    return got[0]


@contextmanager
def _holding(engine: sa.Engine, take: Callable[[Connection], Any]) -> Iterator[Connection]:
    conn = engine.connect()
    try:
        take(conn)
        yield conn
    finally:
        conn.close()
        engine.dispose()


def stopped_node(url: str, take: Callable[[Connection], Any],
                 ) -> contextlib.AbstractContextManager[Connection]:
    """A node's connection (the server's engine, with its bounds) that takes a lock with the
    server's code and then sits idle in its transaction: a node stopped right there."""
    return _holding(store.make_engine(url), take)


def foreign_holder(url: str, take: Callable[[Connection], Any],
                   ) -> contextlib.AbstractContextManager[Connection]:
    """The same, on a connection with none of the server's bounds (psql, an older node)."""
    return _holding(sa.create_engine(url), take)


def balance(app: App, player: str) -> Decimal:
    r = app.get("admin", f"/wallets/{player}")
    assert r.status_code == 200, r.text
    return Decimal(r.json()["balance"])


def house_records(app: App) -> int:
    engine = sa.create_engine(str(app.database))
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(
                store.house_records)).scalar_one())
    finally:
        engine.dispose()


def user_id(app: App, name: str) -> int:
    engine = sa.create_engine(str(app.database))
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.select(store.users.c.id).where(
                store.users.c.username == name)).scalar_one())
    finally:
        engine.dispose()


def _mid_deposit(conn: Connection) -> None:
    """A node stopped in the middle of a deposit into alice's wallet: her row locked and
    updated, the entry written, nothing committed."""
    move_wallet(conn, WalletMove("alice", 100_00, "deposit", "admin"))


def _cage(app: App) -> httpx.Response:
    return app.post("admin", "/wallets/alice/deposits", {"amount": "5"})


def _ask(app: App) -> httpx.Response:
    return app.post("alice", "/wallets/alice/cash-outs", {"amount": "1"})


def _new_user(app: App) -> httpx.Response:
    return app.post("admin", "/users", {"username": f"u{uuid.uuid4().hex[:8]}",
                                        "password": "a long enough password 1", "role": "player"})


def _log_in(app: App) -> httpx.Response:
    return app.post_login({"username": "bob", "password": "demo-pass-123"})


def _roll(app: App) -> httpx.Response:
    return app.post("dealer", "/tables/craps-1/roll", {})


@dataclass(frozen=True)
class Held:
    """A lock a stopped node holds, how the server's code took it, and the request that needs
    it with its usual answer."""

    what: str
    take: Callable[[App], Callable[[Connection], Any]]
    ask: Callable[[App], httpx.Response]
    status: int


HELD = [
    Held("alice's wallet row (a deposit)", lambda app: _mid_deposit, _cage, 200),
    Held("the house chain's lock (a cash-out asked)", lambda app: register.lock, _ask, 202),
    Held("the users' chain lock (an account made)", lambda app: people.take_lock, _new_user,
         201),
    Held("bob's sessions lock (a log-in)",
         lambda app: (lambda conn: auth._make_room(conn, user_id(app, "bob"))), _log_in, 200),
    Held("the house chain's lock, which a roll at a craps table reads its dice under",
         lambda app: register.lock, _roll, 200),
]


@pytest.mark.parametrize("held", HELD, ids=[h.what for h in HELD])
def test_a_request_waits_out_a_stopped_node_holding_its_lock(app: App, held: Held) -> None:
    """The node's transaction is ended by PostgreSQL once it has sat idle holding a lock for
    HOLDING_IDLE_MS; the request waiting on it then goes on and is answered as usual. Before,
    it waited for as long as the node stayed stopped (a roll held its table's lock meanwhile,
    so the table answered nothing at all)."""
    if held.ask is _roll:
        app.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
        app.ready_dice()
    before = balance(app, "alice")
    assert app.database is not None
    with stopped_node(app.database, held.take(app)) as node:
        r = answer_within(HANG, lambda: held.ask(app))
        assert r.status_code == held.status, r.text
        ended_by_the_database(node)
    if held.ask is _cage:  # the stopped node's deposit of 100.00 left nothing; this one stands
        assert balance(app, "alice") == before + 5
    if held.ask is _roll:  # the table serves on
        assert app.get("alice", "/tables/craps-1").status_code == 200


def test_a_lock_held_past_the_wait_is_answered_busy_and_changes_nothing(app: App) -> None:
    """A holder with no bound of the server's (psql, an older node) keeps the house chain's
    lock: a cash-out asked waits LOCK_WAIT_MS, is answered 503 busy with Retry-After (never a
    500, never hanging), records nothing, and its retry with the same key, once the lock is
    free, is done once."""
    assert app.database is not None
    records = house_records(app)
    key = uuid.uuid4().hex
    with foreign_holder(app.database, register.lock):
        r = answer_within(HANG, lambda: app.post("alice", "/wallets/alice/cash-outs",
                                                 {"amount": "1"}, key))
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "busy"
        assert "same Idempotency-Key" in r.json()["error"]["reason"]
        assert r.headers["Retry-After"] == "1"
        assert house_records(app) == records
        listed = app.get("alice", "/wallets/alice/cash-outs")
        assert listed.status_code == 200 and listed.json() == [], listed.text
    again = app.post("alice", "/wallets/alice/cash-outs", {"amount": "1"}, key)
    assert again.status_code == 202, again.text
    twice = app.post("alice", "/wallets/alice/cash-outs", {"amount": "1"}, key)
    assert twice.json() == again.json() and twice.headers.get("Idempotent-Replay") == "true"
    assert house_records(app) == records + 1


def test_a_roll_waiting_past_the_wait_is_busy_and_the_table_serves_on(app: App) -> None:
    """The same at a craps table: the roll reads its dice under the house chain's lock, inside
    the table's writing transaction. Answered 503 busy, the table's events and alice's chips
    are as they were, the table answers its next request, and the retried roll is done."""
    app.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
    app.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "5"})
    app.ready_dice()
    events = app.events()
    state = app.get("alice", "/tables/craps-1").json()
    key = uuid.uuid4().hex
    assert app.database is not None
    with foreign_holder(app.database, register.lock):
        r = answer_within(HANG, lambda: app.post("dealer", "/tables/craps-1/roll", {}, key))
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "busy"
        assert app.events() == events
        assert app.get("alice", "/tables/craps-1").json() == state
    done = app.post("dealer", "/tables/craps-1/roll", {}, key)
    assert done.status_code == 200, done.text
    assert len(app.events()) > len(events)
    assert app.audit()["ok"]


def test_one_cage_request_waiting_holds_no_other_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deposit into alice's wallet waits on her row (held by another node); a deposit into
    bob's through the same node is answered meanwhile. Before, every cage request of a node
    queued on one lock of the process behind the one waiting on the database: a stopped node
    holding one wallet stopped the cage of every node that touched it. (The wait is made long
    here so that alice's deposit is surely still waiting when bob's is answered.)"""
    monkeypatch.setattr(store, "LOCK_WAIT_MS", 120_000)
    with backend_app("postgresql", tmp_path, WHY) as app:
        app.token("admin")
        assert app.database is not None
        with foreign_holder(app.database, _mid_deposit):
            waiting: list[httpx.Response] = []
            alice = threading.Thread(target=lambda: waiting.append(_cage(app)), daemon=True)
            alice.start()
            _until_a_request_waits_on_a_lock(app.database)
            r = answer_within(HANG, lambda: app.post("admin", "/wallets/bob/deposits",
                                                     {"amount": "5"}))
            assert r.status_code == 200, r.text
            assert alice.is_alive() and not waiting, "alice's deposit did not wait on her row"
        alice.join(HANG)
        assert waiting and waiting[0].status_code == 200, waiting


def _until_a_request_waits_on_a_lock(url: str) -> None:
    engine = sa.create_engine(url)
    try:
        deadline = time.monotonic() + HANG
        while True:
            with engine.connect() as conn:
                if conn.execute(sa.text(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                        "AND query ILIKE '%wallets%'")).scalar_one():
                    return
            assert time.monotonic() < deadline, "alice's deposit never waited on her row"
            time.sleep(0.05)
    finally:
        engine.dispose()


def test_the_stopped_nodes_own_request_is_answered_busy_and_left_nothing(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """The other side: a deposit stops (its thread blocked) holding alice's row; PostgreSQL
    ends its transaction, and a second deposit goes on. Woken, the first is answered 503 busy
    (not 500): nothing of it stands, and its retry with the same key is made once."""
    original = Ledger.move_wallet
    inside, wake = threading.Event(), threading.Event()

    def stopping(self: Ledger, conn: Connection, move: WalletMove) -> int:
        if move.player == "alice" and not inside.is_set():
            inside.set()
            wake.wait(HANG)
        return original(self, conn, move)

    monkeypatch.setattr(Ledger, "move_wallet", stopping)
    before = balance(app, "alice")
    key = uuid.uuid4().hex
    first: list[httpx.Response] = []
    stopped = threading.Thread(target=lambda: first.append(app.post(
        "admin", "/wallets/alice/deposits", {"amount": "5"}, key)), daemon=True)
    stopped.start()
    try:
        assert inside.wait(HANG)
        r = answer_within(HANG, lambda: app.post("admin", "/wallets/alice/deposits",
                                                 {"amount": "7"}))
        assert r.status_code == 200, r.text
        assert balance(app, "alice") == before + 7
    finally:
        wake.set()
        stopped.join(HANG)
    assert first and first[0].status_code == 503, first
    assert first[0].json()["error"]["code"] == "busy"
    assert balance(app, "alice") == before + 7
    again = app.post("admin", "/wallets/alice/deposits", {"amount": "5"}, key)
    assert again.status_code == 200, again.text
    assert balance(app, "alice") == before + 12
    assert app.audit()["ok"]
