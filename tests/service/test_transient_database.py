"""A transaction the database ends so that another can go on (PostgreSQL's deadlock or
serialization failure, SQLite's lock held past the busy timeout) is answered 503 "busy" with
``Retry-After``: it was rolled back, nothing changed, and asking again is safe. Any other
database error stays a 500 that says nothing changed. The errors here are real ones, made by
two connections waiting on each other."""
from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.service import cage
from croupier.service.api import errors
from serverkit import own_schema, postgres_url

from .appkit import App, demo_app


def _deadlock(url: str) -> sa.exc.DBAPIError:
    """Two transactions that each hold one row and ask for the other's: PostgreSQL ends one."""
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE pair (id int PRIMARY KEY)")
        conn.exec_driver_sql("INSERT INTO pair VALUES (1), (2)")
    both = threading.Barrier(2)
    caught: list[sa.exc.DBAPIError] = []

    def take(first: int, second: int) -> None:
        try:
            with engine.begin() as conn:
                conn.exec_driver_sql(f"SELECT * FROM pair WHERE id = {first} FOR UPDATE")
                both.wait(timeout=10)
                conn.exec_driver_sql(f"SELECT * FROM pair WHERE id = {second} FOR UPDATE")
        except sa.exc.DBAPIError as exc:
            caught.append(exc)

    threads = [threading.Thread(target=take, args=pair) for pair in ((1, 2), (2, 1))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    engine.dispose()
    assert len(caught) == 1, caught  # one was ended, the other went on
    return caught[0]


def _sqlite_locked(path: Path) -> sa.exc.DBAPIError:
    """A write asked while another connection holds SQLite's only writer lock, past a zero
    busy timeout."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("CREATE TABLE t (x int)")
    holder.execute("BEGIN IMMEDIATE")
    engine = sa.create_engine(f"sqlite:///{path}", connect_args={"timeout": 0})
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO t VALUES (1)")
    except sa.exc.DBAPIError as exc:
        return exc
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        engine.dispose()
    raise AssertionError("the write went through under another's lock")


@pytest.fixture(scope="module")
def deadlock() -> Iterator[sa.exc.DBAPIError]:
    url = postgres_url(": a real deadlock")
    with own_schema(url, f"croupier_deadlock_{uuid.uuid4().hex[:8]}") as inside:
        yield _deadlock(inside)


def _busy(response: Any) -> None:
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"


def test_a_deadlock_is_busy_not_an_internal_error(deadlock: sa.exc.DBAPIError) -> None:
    assert getattr(deadlock.orig, "sqlstate", None) == "40P01"
    found = errors.answer(deadlock)
    assert found is not None
    _busy(found)
    assert b'"code":"busy"' in found.body and b"nothing was changed" in found.body


def test_sqlites_lock_past_its_timeout_is_busy(tmp_path: Path) -> None:
    found = errors.answer(_sqlite_locked(tmp_path / "locked.db"))
    assert found is not None
    _busy(found)


def test_other_database_errors_stay_internal(tmp_path: Path) -> None:
    """A unique key broken is no passing state: the 500 handler answers it (and logs it)."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'unique.db'}")
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE u (x int PRIMARY KEY)")
        conn.exec_driver_sql("INSERT INTO u VALUES (1)")
    with pytest.raises(sa.exc.IntegrityError) as raised, engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO u VALUES (1)")
    engine.dispose()
    assert errors.answer(raised.value) is None


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("busy")) as made:
        yield made


def test_a_cash_out_ended_by_the_database_changes_nothing(
        app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cage's transaction ended by the database after the wallet's row was locked and
    read: 503, the wallet as it was, no cash-out pending; asked again, it is taken."""
    locked = _sqlite_locked(tmp_path / "locked.db")
    before = app.client.get("/wallets/alice", headers=app.headers("alice")).json()
    real = cage.held

    def ended(conn: Any, player: str) -> int:
        raise locked

    monkeypatch.setattr(cage, "held", ended)
    first = app.post("alice", "/wallets/alice/cash-outs", {"amount": "5"}, key="busy-once")
    _busy(first)
    assert app.client.get("/wallets/alice", headers=app.headers("alice")).json() == before
    assert app.client.get("/wallets/alice/cash-outs", headers=app.headers("alice")).json() == []
    monkeypatch.setattr(cage, "held", real)
    again = app.post("alice", "/wallets/alice/cash-outs", {"amount": "5"}, key="busy-once")
    assert again.status_code == 202, again.text
    assert "Idempotent-Replay" not in again.headers  # the first answer was not kept


def test_a_bet_ended_by_the_database_changes_nothing(
        app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same through the bets' express lane, the database ending the transaction as the
    bet's rows are written: 503, the chips and the table's events as they were; asked again,
    the bet is taken."""
    from croupier.service.ledger import Ledger

    locked = _sqlite_locked(tmp_path / "locked.db")
    app.post("bob", "/tables/craps-1/buy-in", {"amount": "50"})
    seat = app.client.get("/tables/craps-1", headers=app.headers("bob")).json()

    def ended(*args: Any, **kwargs: Any) -> None:
        raise locked

    with monkeypatch.context() as patched:
        patched.setattr(Ledger, "flush", ended)
        bet = {"wager": "field", "amount": "5"}
        _busy(app.post("bob", "/tables/craps-1/bets", bet, key="busy-bet"))
    assert app.client.get("/tables/craps-1", headers=app.headers("bob")).json() == seat
    again = app.post("bob", "/tables/craps-1/bets", bet, key="busy-bet")
    assert again.status_code == 200, again.text
    assert "Idempotent-Replay" not in again.headers


def _field_bet_before_a_roll(app: App) -> None:
    """alice buys in 50.00 and puts 5.00 on the field; the dice are ready to roll."""
    app.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
    app.ready_dice()
    app.ok("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})


def test_a_roll_whose_settlement_the_database_ended_answers_the_outcome_recorded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A roll's outcome is committed before it is settled: a settlement the database ends is
    not answered "busy: nothing was changed" (the dice are recorded, the table halted by the
    runner); it is answered the 202 its key keeps, naming the outcome that waits, as a retry
    is. Once the halt is resolved, a retry answers the same and draws nothing again."""
    from croupier.service import outcomes

    locked = _sqlite_locked(tmp_path / "locked.db")
    real = outcomes.settle

    def ended(user: Any, live: Any) -> Any:
        def plan(conn: Any) -> Any:
            raise locked
        return plan

    with demo_app(tmp_path / "roll") as app:
        _field_bet_before_a_roll(app)
        monkeypatch.setattr(outcomes, "settle", ended)
        first = app.post("dealer", "/tables/craps-1/roll", {"dice": [3, 4]}, key="roll-once")
        monkeypatch.setattr(outcomes, "settle", real)
        assert first.status_code == 202, first.text
        assert "Idempotent-Replay" not in first.headers
        waits = first.json()["settling"]
        assert [e["type"] for e in first.json()["events"]][-1] == "entered"
        assert app.get("dealer", "/tables/craps-1").json()["halted"]["outcome_seq"] == waits
        app.ok("supervisor", "/tables/craps-1/halt/resolve", {"reason": "settled again"})
        again = app.post("dealer", "/tables/craps-1/roll", {"dice": [3, 4]}, key="roll-once")
        assert (again.status_code, again.json()) == (202, first.json())


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)11")
def test_a_settlement_the_database_ended_once_is_settled_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deadlock ends one of two transactions for the other's sake: a settlement ended so
    once is tried again and settles (the field bet of 5.00 loses on a 7: a field bet wins on
    2, 3, 4, 9, 10, 11 and 12, 13:69F-1.2(a)11), the table is not halted, and the roll's
    answer is the whole settlement."""
    from croupier.service import outcomes

    locked = _sqlite_locked(tmp_path / "locked.db")
    real = outcomes.settle
    ended: list[bool] = []

    def once(user: Any, live: Any) -> Any:
        settle = real(user, live)

        def plan(conn: Any) -> Any:
            if not ended:
                ended.append(True)
                raise locked
            return settle(conn)
        return plan

    with demo_app(tmp_path / "roll") as app:
        _field_bet_before_a_roll(app)
        monkeypatch.setattr(outcomes, "settle", once)
        rolled = app.post("dealer", "/tables/craps-1/roll", {"dice": [3, 4]}, key="roll-twice")
        assert ended == [True]
        assert rolled.status_code == 200, rolled.text
        assert "settling" not in rolled.json()
        table = app.get("auditor", "/tables/craps-1").json()
        assert table["halted"] is None
        assert table["players"]["alice"]["chips"] == "45.00", table["players"]
        assert table["players"]["alice"]["on_table"] == "0.00", table["players"]


def test_a_cash_out_ended_once_by_the_database_is_taken_at_once(
        app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cage's transaction ended once (a deadlock ends one of two): it is tried again and
    the cash-out is asked, once; the client never sees the busy answer."""
    locked = _sqlite_locked(tmp_path / "locked.db")
    real = cage.held
    ended: list[bool] = []

    def once(conn: Any, player: str) -> int:
        if not ended:
            ended.append(True)
            raise locked
        return real(conn, player)

    monkeypatch.setattr(cage, "held", once)
    asked = app.post("bob", "/wallets/bob/cash-outs", {"amount": "3"}, key="busy-twice")
    assert ended == [True]
    assert asked.status_code == 202, asked.text
    pending = app.client.get("/wallets/bob/cash-outs", headers=app.headers("bob")).json()
    assert [c["amount"] for c in pending if c["status"] == "pending"] == ["3.00"], pending


def _rng_table_ready(app: App) -> None:
    """An RNG craps table, rng-1, with five inspected dice offered and two selected, and
    alice's 5.00 on the pass line."""
    app.ok("admin", "/tables", {"id": "rng-1", "game": "craps", "profile": "nj-13-69f"},
           key=None)
    app.dice_in_play("rng-1")
    app.ok("alice", "/tables/rng-1/bets", {"wager": "pass", "amount": "5"})


def test_a_draw_whose_record_the_database_ended_is_never_drawn_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The RNG's draw is recorded before anything can fail, and never drawn again: when the
    database ends the transaction that records it (503, nothing written, nobody shown it), the
    next roll at the table records that same draw (its raw bytes and dice) without asking the
    RNG again; the roll after it draws afresh."""
    from croupier.service.ledger import Ledger
    from croupier.service.rng import Draw, Rng

    locked = _sqlite_locked(tmp_path / "locked.db")
    real_draw = Rng.draw
    draws: list[Draw] = []

    def counted(self: Rng, ranges: Any) -> Draw:
        draws.append(real_draw(self, ranges))
        return draws[-1]

    def ended(*args: Any, **kwargs: Any) -> None:
        raise locked

    with demo_app(tmp_path / "rng") as app:
        _rng_table_ready(app)
        monkeypatch.setattr(Rng, "draw", counted)
        with monkeypatch.context() as patched:
            patched.setattr(Ledger, "flush", ended)
            _busy(app.post("dealer", "/tables/rng-1/roll", {}, key="ended"))
        assert len(draws) == 1
        assert [e for e in app.events("rng-1") if e["type"] == "draw"] == []
        rolled = app.ok("dealer", "/tables/rng-1/roll", {}, key="next")
        assert len(draws) == 1  # the RNG was not asked again
        recorded = [e for e in rolled["events"] if e["type"] == "draw"]
        assert len(recorded) == 1 and recorded[0]["raw"] == list(draws[0].raw), recorded
        roll = next(e for e in rolled["events"] if e["type"] == "roll")
        assert tuple(roll["dice"]) == tuple(i + 1 for i in draws[0].outcome), roll
        app.ok("dealer", "/tables/rng-1/roll", {}, key="after")
        assert len(draws) == 2  # recorded: the next roll draws afresh
        assert app.audit()["ok"]
