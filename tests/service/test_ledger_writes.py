"""The ledger only writes: the runner hands it the events, the seats' and the house's values
and the reply, and it asks neither the tables nor the service anything back.

In-process, on a demo ledger (``ledgerkit``): a bet and a decision run through the runner as
the routes run them, with the interpreter's profiler watching which functions the ledger's own
modules call. What the ledger writes is then read back: the seats and the house as the tables
stand, and the audit (chains, wallets, seats, houses against the events) passes.
"""

from __future__ import annotations

import contextlib
import sqlite3
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from types import FrameType
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.errors import Malformed, Refusal
from croupier.service import cashier, controls, outcomes, reading, runner, store, wagers
from croupier.service.audit.verify import verify_ledger
from croupier.service.errors import ApiError
from croupier.service.plans import Job, Reply

from .ledgerkit import Kit

LEDGER = ("croupier.service.ledger", "croupier.service.statements")
"""The ledger's own modules: the transaction, idempotency, rows and chains."""
BELOW = ("croupier.service.ledger", "croupier.service.statements", "croupier.service.store",
         "croupier.service.codec", "croupier.service.writers", "croupier.service.audit.canonical",
         "croupier.service.errors", "croupier.service.limits", "croupier.events",
         "croupier.money")
"""What the ledger may call: itself, how rows are stored, encoded and chained, its errors, and
the core's events and money it encodes."""


def _module(frame: FrameType) -> str:
    return str(frame.f_globals.get("__name__", ""))


@contextmanager
def _calls_out_of_the_ledger() -> Iterator[list[str]]:
    """Every call from a function of the ledger's modules to a function of croupier outside
    what the ledger may call, as ``caller -> callee``."""
    found: list[str] = []

    def watch(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or frame.f_back is None:
            return
        callee, caller = _module(frame), _module(frame.f_back)
        if (caller.startswith(LEDGER) and callee.startswith("croupier")
                and not callee.startswith(BELOW)):
            found.append(f"{caller}.{frame.f_back.f_code.co_name} -> "
                         f"{callee}.{frame.f_code.co_qualname}")

    sys.setprofile(watch)
    try:
        yield found
    finally:
        sys.setprofile(None)


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Kit:
    kit = Kit(tmp_path_factory.mktemp("ledger-writes"))
    craps = kit.tables.all["craps-1"]
    for name in ("alice", "bob"):
        kit.act(name, "craps-1", cashier.buy_in(kit.ledger, kit.users[name], craps,
                                                Decimal(100)))
    dice = craps.procedures.dice
    assert dice is not None
    kit.act("dealer", "craps-1", dice.offer([f"NJ-{i:04d}" for i in range(1, 6)]))
    kit.act("dealer", "craps-1", dice.select(kit.users["dealer"], ["NJ-0001", "NJ-0002"],
                                             by_shooter=False))
    return kit


def _bet(kit: Kit, who: str, wager: str, amount: str) -> Job:
    live = kit.tables.all["craps-1"]
    plan = wagers.bet(kit.users[who], live, {"wager": wager, "amount": amount}, kit.ledger.limits)
    return Job(kit.users[who], live, uuid.uuid4().hex, uuid.uuid4().hex, plan)


def _seats(kit: Kit) -> dict[str, tuple[int, int]]:
    with kit.engine.connect() as conn:
        rows = conn.execute(sa.select(store.seats).where(store.seats.c.table_id == "craps-1"))
        return {r.player: (r.chips_cents, r.on_table_cents) for r in rows}


def _house(kit: Kit) -> int:
    with kit.engine.connect() as conn:
        return int(conn.execute(sa.select(store.tables.c.house_cents).where(
            store.tables.c.id == "craps-1")).scalar_one())


def _as_written(kit: Kit, players: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    table = kit.tables.all["craps-1"].table
    return {p: (store.cents(table.chips(p)), store.cents(table.on_table(p))) for p in players}


def _run(action: Callable[[], Any]) -> tuple[Any, list[str]]:
    with _calls_out_of_the_ledger() as found:
        result = action()
    return result, found


def test_a_group_of_bets_is_written_without_the_ledger_asking_the_service(kit: Kit) -> None:
    """Two players' bets in one transaction (the group commit): the ledger calls nothing of
    the service or the tables, and both seats are written as the bets left them."""
    jobs = [_bet(kit, "alice", "pass", "5"), _bet(kit, "bob", "field", "3")]
    results, found = _run(lambda: kit.runner.run_batch(jobs))
    assert found == []
    assert [r.status for r in results] == [200, 200], results
    assert results[0].body["you"] == {"chips": "95.00", "on_table": "5.00"}
    assert results[1].body["you"] == {"chips": "97.00", "on_table": "3.00"}
    assert _seats(kit) == _as_written(kit, ("alice", "bob")) == {
        "alice": (9500, 500), "bob": (9700, 300)}


def test_a_decision_is_written_without_the_ledger_asking_the_service(kit: Kit) -> None:
    """A roll settles every wager: the ledger is handed every seat it touched and the house's
    result, and asks nothing back; the audit then passes over what it wrote."""
    _, found = _run(lambda: kit.roll("craps-1", (3, 4)))
    assert found == []
    assert _seats(kit) == _as_written(kit, ("alice", "bob"))
    assert _house(kit) == store.cents(kit.tables.all["craps-1"].table.house)
    report = verify_ledger(kit.tables, checkpoint=False)
    assert report["ok"], report


def test_the_watch_sees_a_call_out_of_the_ledger(kit: Kit) -> None:
    """The watch itself: a service function the ledger calls is named (here the runner's
    ``held_up``, handed to ``Ledger.once`` where an act is due, which fails inside it)."""
    _, found = _run(lambda: _call_quietly(kit, runner.held_up))
    assert "croupier.service.ledger._once -> croupier.service.runner.held_up" in found


def _call_quietly(kit: Kit, act: Any) -> None:
    with contextlib.suppress(AttributeError):  # a connection is no table: the call is the point
        kit.ledger.once(kit.users["admin"], None, "x", act)


def test_a_roll_in_a_group_commit_runs_alone_in_its_place(
        kit: Kit, monkeypatch: pytest.MonkeyPatch) -> None:
    """A roll queued among bets: the bets before it share one transaction, the roll's outcome
    and its settlement take one each, the bets after it share one; the roll settles the bets
    queued before it and not those after it."""
    opened: list[int] = []
    transaction = kit.ledger.transaction

    def counted(lives: Any, jobs: list[Job]) -> Any:
        opened.append(len(jobs))
        return transaction(lives, jobs)

    monkeypatch.setattr(kit.ledger, "transaction", counted)
    live, dealer = kit.tables.all["craps-1"], kit.users["dealer"]
    action = reading.outcome_action(live, {"roll": [1, 1]})
    roll = Job(dealer, live, uuid.uuid4().hex, uuid.uuid4().hex,
               outcomes.record(dealer, live, kit.rng, action), "outcome",
               outcomes.settle(dealer, live))
    jobs = [_bet(kit, "alice", "field", "1"), _bet(kit, "bob", "field", "1"), roll,
            _bet(kit, "alice", "field", "2"), _bet(kit, "bob", "field", "2")]
    results = kit.runner.run_batch(jobs)
    assert [getattr(r, "status", r) for r in results] == [200] * 5, results
    assert opened == [2, 1, 1, 2]
    rolled = results[2]
    assert isinstance(rolled, Reply)
    settled = [e for e in rolled.body["events"] if e["type"] == "settle"]
    assert sorted((e["player"], e["wager"]) for e in settled) == [
        ("alice", "field"), ("bob", "field")]
    table = live.table
    assert (table.on_table("alice"), table.on_table("bob")) == (Decimal(2), Decimal(2))


def test_a_group_reads_its_keys_stored_replies_once(
        kit: Kit, monkeypatch: pytest.MonkeyPatch) -> None:
    """A group commit reads the stored replies of all its keys, and the events their requests
    produced, with two queries at its start (not two per action); a retry in the group still
    gets the reply kept for it, and a new key does its action."""
    first = _bet(kit, "alice", "field", "1")
    assert isinstance(kit.runner.run_batch([first])[0], Reply)
    looked_up: list[str] = []
    one = kit.ledger.sql.one

    def counted(conn: Any, sql: str, values: Any) -> Any:
        looked_up.append(sql)
        return one(conn, sql, values)

    monkeypatch.setattr(kit.ledger.sql, "one", counted)
    jobs = [_bet(kit, "bob", "field", "1"), first, _bet(kit, "alice", "field", "1")]
    results = kit.runner.run_batch(jobs)
    assert [(getattr(r, "status", r), getattr(r, "replayed", r)) for r in results] == [
        (200, False), (200, True), (200, False)]
    assert looked_up == []


def _writes_then_refuses(conn: Any) -> Any:
    """A plan that marks a row and then refuses (as an approval refused after its pending
    adjustment was marked would)."""
    conn.execute(controls.pending_adjustments.insert().values(
        table_id="craps-1", player="alice", amount_cents=100, reason="written, then refused",
        requested_by="dealer", requested_at=store.now(), status="pending"))
    raise Refusal("refused after writing", "a clause")


def test_a_refusal_after_the_plan_wrote_leaves_nothing_behind(kit: Kit) -> None:
    """A refused action changes nothing, even when its plan wrote before refusing: the row it
    wrote is rolled back with the group, the group's other actions are still done, and the
    refusal is the answer, with its reason and clause."""
    def count() -> int:
        with kit.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(
                controls.pending_adjustments)).scalar_one())

    before, live = count(), kit.tables.all["craps-1"]
    bad = Job(kit.users["dealer"], live, uuid.uuid4().hex, uuid.uuid4().hex,
              _writes_then_refuses)
    results = kit.runner.run_batch([_bet(kit, "alice", "field", "1"), bad,
                                    _bet(kit, "bob", "field", "1")])
    assert [type(r).__name__ for r in results] == ["Reply", "RefusedAfterWriting", "Reply"]
    refused = results[1]
    assert isinstance(refused, Refusal)
    assert (refused.reason, refused.clause) == ("refused after writing", "a clause")
    assert count() == before
    assert _seats(kit) == _as_written(kit, ("alice", "bob"))
    assert verify_ledger(kit.tables, checkpoint=False)["ok"]


def _writes_then_fails(error: Exception) -> Callable[[Any], Any]:
    """A plan that marks a row and then raises ``error`` (a 404 or a malformed field found
    only once the plan has written)."""
    def plan(conn: Any) -> Any:
        conn.execute(controls.pending_adjustments.insert().values(
            table_id="craps-1", player="alice", amount_cents=100, reason="written, then failed",
            requested_by="dealer", requested_at=store.now(), status="pending"))
        raise error
    return plan


@pytest.mark.parametrize("error", [ApiError(404, "not_found", "no such thing"),
                                   Malformed("body.amount", "not an amount")])
def test_an_error_after_the_plan_wrote_leaves_nothing_behind(kit: Kit, error: Exception
                                                             ) -> None:
    """As a refusal: an error a plan raises after it wrote is the answer, and what it wrote
    is rolled back, alone or in a group (whose other actions are still done); before, the
    group committed the row of an action answered with an error."""
    def count() -> int:
        with kit.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(
                controls.pending_adjustments)).scalar_one())

    before, live = count(), kit.tables.all["craps-1"]

    def bad() -> Job:
        return Job(kit.users["dealer"], live, uuid.uuid4().hex, uuid.uuid4().hex,
                   _writes_then_fails(error))

    results = kit.runner.run_batch([_bet(kit, "alice", "field", "1"), bad(),
                                    _bet(kit, "bob", "field", "1")])
    assert [type(r) for r in results] == [Reply, type(error), Reply]
    assert results[1] is error
    assert kit.runner.run_batch([bad()]) == [error]
    assert count() == before
    assert _seats(kit) == _as_written(kit, ("alice", "bob"))
    assert verify_ledger(kit.tables, checkpoint=False)["ok"]


def test_sqlite_transactions_share_one_kept_connection(kit: Kit) -> None:
    """On SQLite the runner's transactions run on one connection kept between them (no pool
    checkout per batch); one that fails rolls back, and the next works on."""
    live = kit.tables.all["craps-1"]
    with kit.runner._locks([live]):
        with kit.ledger.transaction([live], []) as first:
            used = first.conn.connection.dbapi_connection
        with pytest.raises(RuntimeError), kit.ledger.transaction([live], []) as began:
            began.conn.execute(store.seats.delete())
            raise RuntimeError("fails inside")
        outside = kit.engine.pool.checkedout()  # type: ignore[attr-defined]
        with kit.ledger.transaction([live], []) as again:
            assert again.conn.connection.dbapi_connection is used
            assert kit.engine.pool.checkedout() == outside  # type: ignore[attr-defined]
    assert _seats(kit) == _as_written(kit, ("alice", "bob"))


def test_a_failed_commit_leaves_no_transaction_open_on_the_kept_connection(
        kit: Kit, monkeypatch: pytest.MonkeyPatch) -> None:
    """A COMMIT that fails (a disk error) leaves SQLite's transaction open on the writer
    connection: it is closed (rolled back), not kept holding the database's write lock, so the
    next writer (a log-in, the table's reload, the next batch) is not locked out."""
    dialect: Any = kit.engine.dialect
    real = dialect.do_commit
    failed: list[bool] = []

    def failing_once(dbapi: Any) -> None:
        if not failed:
            failed.append(True)
            raise sqlite3.OperationalError("disk I/O error")
        real(dbapi)

    monkeypatch.setattr(dialect, "do_commit", failing_once)
    live = kit.tables.all["craps-1"]
    with (kit.runner._locks([live]), pytest.raises(sa.exc.OperationalError),
          kit.ledger.transaction([live], []) as began):
        began.conn.execute(store.seats.update().where(sa.false()).values(chips_cents=0))
    other = sqlite3.connect(str(kit.engine.url.database), timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # 'database is locked' while the transaction is open
        other.execute("ROLLBACK")
    finally:
        other.close()
    results = kit.runner.run_batch([_bet(kit, "alice", "field", "1")])
    assert isinstance(results[0], Reply), results


def _keyed(kit: Kit, who: str, key: str, fp: str, amount: str) -> Job:
    live = kit.tables.all["craps-1"]
    plan = wagers.bet(kit.users[who], live, {"wager": "field", "amount": amount},
                      kit.ledger.limits)
    return Job(kit.users[who], live, key, fp, plan)


def test_a_group_answers_each_key_as_its_first_reads_found_it_and_as_the_group_left_it(
        kit: Kit) -> None:
    """The transaction's first reads answer each job's key (a reply kept before: sent again;
    kept for another request: 422); a key an earlier job of the same group used is looked up
    as that job left it (its reply, just kept), never read from before the group began."""
    kept, other, fresh = (uuid.uuid4().hex for _ in range(3))
    first = kit.runner.run_batch([_keyed(kit, "alice", kept, "fp-kept", "1")])[0]
    assert isinstance(first, Reply) and not first.replayed
    results = kit.runner.run_batch([
        _keyed(kit, "alice", kept, "fp-kept", "1"),  # kept before the group: sent again
        _keyed(kit, "alice", other, "fp-other", "1"),
        _keyed(kit, "bob", fresh, "fp-fresh", "1"),
        _keyed(kit, "bob", fresh, "fp-fresh", "1"),  # the job before kept it: sent again
        _keyed(kit, "alice", kept, "fp-changed", "1"),  # another request under a kept key
        _keyed(kit, "bob", fresh, "fp-changed", "1"),  # ... under the group's own key
    ])
    again, made, bob, bob_again, changed, bob_changed = results
    assert isinstance(again, Reply) and again.replayed and again.body == first.body
    assert isinstance(made, Reply) and not made.replayed
    assert isinstance(bob, Reply) and not bob.replayed
    assert isinstance(bob_again, Reply) and bob_again.replayed and bob_again.body == bob.body
    for refused in (changed, bob_changed):
        assert isinstance(refused, ApiError) and refused.code == "idempotency_key_reused"
    assert verify_ledger(kit.tables, checkpoint=False)["ok"]


def test_a_group_hands_its_rows_to_the_ledger_which_stages_them_once_at_its_end(
        kit: Kit) -> None:
    """The runner hands each action's rows to the transaction as a value: every bet of the
    group is planned before the ledger stages any row, each reply sent is byte for byte the
    one kept under its key, and the events are chained in the order the bets were folded."""
    order: list[str] = []

    def watch(frame: FrameType, event: str, arg: Any) -> None:
        name = frame.f_code.co_qualname
        if event == "call" and name in ("bet.<locals>.plan", "Ledger._stage"):
            order.append("plan" if name.endswith("plan") else "stage")

    jobs = [_keyed(kit, p, uuid.uuid4().hex, f"fp-{p}", "1") for p in ("alice", "bob", "alice")]
    sys.setprofile(watch)
    try:
        results = kit.runner.run_batch(jobs)
    finally:
        sys.setprofile(None)
    assert order == ["plan"] * 3 + ["stage"] * 3
    for job, reply in zip(jobs, results, strict=True):
        assert isinstance(reply, Reply) and reply.text is not None
        kept = kit.ledger.peek(job.user, job.key, job.fp)
        assert kept is not None and kept.text == reply.text
    seqs = [r.body["events"][0]["seq"] for r in results if isinstance(r, Reply)]
    assert seqs == sorted(seqs) and len(set(seqs)) == 3
    assert verify_ledger(kit.tables, checkpoint=False)["ok"]


def test_rows_that_cannot_be_staged_fail_the_whole_group_not_the_job_that_found_them(
        kit: Kit, monkeypatch: pytest.MonkeyPatch) -> None:
    """Handed rows are staged when a later action of the group reads the transaction (a key
    used twice): an error raised then, even one shaped as an answer (a 4xx), is no answer of
    that later action. The group fails, every action is run again on its own, and each is
    written: nothing an earlier action handed over is lost."""
    from croupier.service.ledger import Ledger
    real, failed = Ledger._stage, []

    def once_4xx(self: Ledger, conn: Any, writes: Any, handed: Any) -> Any:
        if not failed:
            failed.append(handed)
            raise ApiError(404, "not_found", "a staging fault shaped as an answer")
        return real(self, conn, writes, handed)

    monkeypatch.setattr(Ledger, "_stage", once_4xx)
    key = uuid.uuid4().hex
    results = kit.runner.run_batch([_keyed(kit, "alice", key, "fp-twice", "1"),
                                    _keyed(kit, "alice", key, "fp-twice", "1")])
    assert failed, "the staging fault was never reached"
    first, second = results
    assert isinstance(first, Reply) and not first.replayed, first
    assert isinstance(second, Reply) and second.replayed and second.text == first.text
    assert verify_ledger(kit.tables, checkpoint=False)["ok"]
