"""Found by an attack on the live server (attack45; a server process on PostgreSQL through a
proxy that cuts the line, or the app in process where the database's failure is simulated).

* An RNG draw whose record the database committed, though the commit was never answered (a
  connection ending as COMMIT is answered), stayed kept in memory as not recorded: the roll
  after its settlement recorded the same raw bytes and dice again.
* A write that failed while the database was away, followed by a rebuild of the table that
  failed too (still away), left the table in memory ahead of the ledger: the next action
  wrote the lost buy-in's chips with its own seats (a player cashed out 100.00 their wallet
  never paid), chained its events after ones the ledger never got, and an RNG roll lost so
  stayed the outcome waiting, every bet refused naming its dice before they were recorded.
* A custody step caught such a table up by folding the events past its seq, which was past
  the ledger's: a die still in play by the ledger was recorded returned to the cage.
* A group at two tables whose write failed, the first table's rebuild failing too, left the
  second neither rebuilt nor marked ahead: its action, run again on its own, wrote the lost
  buy-in's chips with its own (found in review).
* A draw committed unanswered, its table's rebuild failing, then settled by another runner
  (a node that took the table over) stayed kept as not recorded: no longer waiting, it was
  not recognised, and the next roll recorded the same raw bytes and dice (found in review).
* Such a table, marked ahead of the ledger, was rebuilt before its next action only: the
  routes that show it (its state, the list of tables, its monitors) showed the lost buy-in's
  chips from memory meanwhile (found in review)."""

from __future__ import annotations

import contextlib
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from serverkit import fresh_schema, postgres_url

from .appkit import App, demo_app
from .conftest import Server


@pytest.fixture
def rng_app(tmp_path: Path) -> Iterator[App]:
    """The app over a demo ledger with an RNG craps table (rng-1) whose dice are in play."""
    with demo_app(tmp_path / "rng") as app:
        app.ok("admin", "/tables", {"id": "rng-1", "game": "craps", "profile": "nj-13-69f"},
               key=None)
        app.dice_in_play("rng-1")
        yield app


def test_a_draw_recorded_though_its_commit_was_not_answered_is_not_drawn_again(
        rng_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database committed the roll's draw but its answer was lost (a connection that
    ends as COMMIT is answered): the table rebuilt from the ledger holds that draw, and the
    draw kept in memory as not recorded is that same one. The next roll draws afresh: the
    one after a recorded roll is never the one everyone just saw."""
    from croupier.service.ledger import Ledger
    from croupier.service.rng import Draw, Rng

    app = rng_app
    real_draw, real_committed = Rng.draw, Ledger.committed
    draws: list[Draw] = []

    def counted(self: Rng, ranges: Any) -> Draw:
        draws.append(real_draw(self, ranges))
        return draws[-1]

    def lost(self: Ledger, count: int) -> None:
        real_committed(self, count)
        raise sa.exc.OperationalError("COMMIT", {}, sqlite3.OperationalError(
            "the connection ended as the commit was answered"))

    monkeypatch.setattr(Rng, "draw", counted)
    app.ok("alice", "/tables/rng-1/bets", {"wager": "pass", "amount": "5"})
    with monkeypatch.context() as patched:
        patched.setattr(Ledger, "committed", lost)
        # Answered as the outcome it recorded, waiting: the key kept it with the draw.
        assert app.post("dealer", "/tables/rng-1/roll", {}, key="lost").status_code == 202
    first = [e for e in app.events("rng-1") if e["type"] == "draw"]
    assert [d["raw"] for d in first] == [list(draws[0].raw)]  # it was recorded
    app.ok("dealer", "/tables/rng-1/roll", {}, key="lost")  # its retry settles it
    rolled = app.ok("dealer", "/tables/rng-1/roll", {}, key="next")
    assert len(draws) == 2, "the recorded draw was recorded again"
    again = [e for e in rolled["events"] if e["type"] == "draw"]
    assert again[0]["raw"] == list(draws[1].raw)
    assert app.audit()["ok"]


class Proxy:
    """A TCP proxy between a server and PostgreSQL that can cut the line: once armed with
    ``cut_on``, the first message from the server holding those bytes is not passed on; every
    connection is closed then, and new ones are closed as they come, until :meth:`mend`. As a
    database restarted (or a network that fails) mid-transaction leaves a server."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.down = False
        self.trigger: bytes | None = None
        self.cut = threading.Event()
        self.open: list[socket.socket] = []
        self.guard = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, url: str) -> str:
        """``url`` (a PostgreSQL URL on 127.0.0.1:5432) through this proxy."""
        host = f"@{self.upstream[0]}:{self.upstream[1]}/"
        assert host in url, url
        return url.replace(host, f"@127.0.0.1:{self.port}/")

    def cut_on(self, trigger: bytes) -> None:
        self.cut.clear()
        self.trigger = trigger

    def mend(self) -> None:
        self.down = False

    def _accept(self) -> None:
        while True:
            client, _ = self.listener.accept()
            if self.down:
                client.close()
                continue
            server = socket.create_connection(self.upstream)
            with self.guard:
                self.open += [client, server]
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False),
                             daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, outgoing: bool) -> None:
        try:
            while data := source.recv(65536):
                if outgoing and self.trigger is not None and self.trigger in data:
                    self.trigger, self.down = None, True
                    self._close_all()
                    self.cut.set()
                    return
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.close()

    def _close_all(self) -> None:
        with self.guard:
            for s in self.open:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                with contextlib.suppress(OSError):
                    s.close()
            self.open = []


@pytest.fixture
def cut_server(tmp_path: Path) -> Iterator[tuple[Server, Proxy]]:
    """A server process on PostgreSQL through a :class:`Proxy`."""
    url = postgres_url(": a database that goes away under a server")
    parsed = sa.engine.make_url(url)
    proxy = Proxy((parsed.host or "127.0.0.1", parsed.port or 5432))
    srv = Server(tmp_path, fresh_schema(proxy.url(url)))
    srv.start()
    try:
        yield srv, proxy
    finally:
        proxy.mend()
        srv.stop()


def test_a_buy_in_the_database_lost_leaves_no_chips_when_the_rebuild_fails_too(
        cut_server: tuple[Server, Proxy]) -> None:
    """The database goes away as a buy-in is written (its transaction never commits) and is
    still away when the table is rebuilt from it: the chips the buy-in folded into the table
    in memory must not outlive the failure. They did: the next action wrote the seat with
    them (chained after events the ledger never got), and the player cashed out 100.00 of
    chips their wallet never paid for."""
    srv, proxy = cut_server
    srv.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})
    srv.token("alice")
    proxy.cut_on(b"\x00\x00\x00\x06buy_in")  # the wallet entry's kind, a parameter
    failed = srv.post("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    assert proxy.cut.is_set()
    assert failed.status_code in (500, 503), failed.text  # "nothing was changed"
    proxy.mend()
    srv.tokens.clear()
    deadline = time.monotonic() + 30
    while True:  # the server's connections come back as it asks for new ones
        try:
            wallet = srv.get("alice", "/wallets/alice")
            if wallet.status_code == 200:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the server did not come back to the database"
        srv.tokens.clear()
        time.sleep(0.5)
    assert wallet.json()["balance"] == "990.00"
    out = srv.ok("alice", "/tables/craps-1/cash-out", {})
    assert [e["amount"] for e in out["events"] if e["type"] == "chips_out"] == ["10.00"]
    assert srv.get("alice", "/wallets/alice").json()["balance"] == "1000.00"
    report = srv.audit()
    assert report["ok"], report["findings"]


def test_a_roll_the_database_lost_is_not_shown_before_it_is_recorded(
        cut_server: tuple[Server, Proxy]) -> None:
    """The database goes away as an RNG roll is recorded and is still away for the rebuild:
    the draw is kept, unrecorded, for the next roll. It must not be shown before then. It was:
    the table in memory still held it as the outcome waiting, and a player's bet was refused
    naming its dice ("the outcome [a, b] recorded at event N is being settled"), the dice the
    next roll then recorded."""
    srv, proxy = cut_server
    srv.ok("admin", "/tables", {"id": "rng-1", "game": "craps", "profile": "nj-13-69f"},
           key=None)
    srv.dice_in_play("rng-1")
    srv.ok("alice", "/tables/rng-1/bets", {"wager": "pass", "amount": "5"})
    srv.token("dealer")
    srv.token("alice")
    proxy.cut_on(b"\x00\x00\x00\x04draw")  # the draw's kind, a parameter of its row
    failed = srv.post("dealer", "/tables/rng-1/roll", {})
    assert proxy.cut.is_set()
    assert failed.status_code in (500, 503), failed.text
    proxy.mend()
    deadline = time.monotonic() + 30
    while True:
        try:
            bet = srv.post("alice", "/tables/rng-1/bets", {"wager": "field", "amount": "1"})
            if bet.status_code < 500:
                break
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the server did not come back to the database"
        time.sleep(0.5)
    # Nothing was recorded: betting is open, the bet is taken, no outcome is named.
    assert bet.status_code == 200, bet.text
    assert [e for e in srv.events("rng-1") if e["type"] in ("draw", "roll")] == []
    rolled = srv.ok("dealer", "/tables/rng-1/roll", {})
    assert [e["type"] for e in rolled["events"]].count("draw") == 1
    report = srv.audit()
    assert report["ok"], report["findings"]


def test_a_die_is_not_returned_from_play_on_a_change_of_dice_the_database_lost(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A change of dice taking effect with a roll's settlement whose write failed, and whose
    table's rebuild failed after it, left the dice out of play in memory only: a custody step
    read the table from there and returned to the cage a die the ledger still has in play
    at the table (13:69F-1.3: dice in play go back to the cup only after the decision)."""
    from croupier.rules.citations import cite
    from croupier.service import ledger
    from croupier.service.tables import Tables

    real_flush = ledger.Ledger.flush

    def away(*args: Any, **kwargs: Any) -> Any:
        raise sa.exc.OperationalError("SELECT", {}, sqlite3.OperationalError(
            "the database is away"))

    def flush(self: ledger.Ledger, conn: Any, end: bool = False) -> None:
        staged = conn.info.get(ledger._WRITES)
        if staged is not None and any(r["kind"] == "dice_changed" for r in staged.events):
            away()
        real_flush(self, conn, end)

    with demo_app(tmp_path / "dice") as app:
        app.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})
        app.ready_dice("craps-1")
        app.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "5"})
        app.ok("dealer", "/tables/craps-1/dice/change")
        with monkeypatch.context() as patched:
            patched.setattr(ledger.Ledger, "flush", flush)
            patched.setattr(Tables, "rebuilt", away)
            rolled = app.post("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})
            assert rolled.status_code == 202, rolled.text  # recorded, not settled
        r = app.post("admin", "/equipment/dice/NJ-0001/custody", {"step": "returned"},
                     key=None)
        assert r.status_code == 409, r.text
        assert r.json()["error"]["clause"] == cite("nj-13-69f", "dice_change")
        state = app.get("auditor", "/tables/craps-1").json()
        assert state["dice_in_play"] == ["NJ-0001", "NJ-0002"], state


def test_every_table_of_a_failed_group_is_rebuilt_when_the_first_rebuild_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A group of buy-ins at two tables whose write failed, the database away for the first
    table's rebuild and back for the second's: the second table must not keep the lost
    buy-in's chips. It did: the first rebuild's error ended the loop before the second
    table was rebuilt or marked ahead, the group's actions then ran again on their own, and
    the second table's buy-in wrote a seat of 200.00 chips for the 100.00 its wallet paid
    (no credit: chips at a table are chips bought with the wallet, 13:69F-1.3(b))."""
    import uuid
    from decimal import Decimal

    from croupier.service import cashier, store
    from croupier.service.audit.verify import verify_ledger
    from croupier.service.ledger import Ledger
    from croupier.service.plans import Job, Reply
    from croupier.service.tables import Tables

    from .ledgerkit import Kit

    kit = Kit(tmp_path / "group")
    alice = kit.users["alice"]
    craps, wheel = kit.tables.all["craps-1"], kit.tables.all["roulette-1"]
    real_flush, real_rebuilt = Ledger.flush, Tables.rebuilt
    failures = {"flush": 1, "rebuilt": 1}

    def away(what: str) -> None:
        if failures[what]:
            failures[what] -= 1
            raise sa.exc.OperationalError("COMMIT", {}, sqlite3.OperationalError(
                "the database is away"))

    def flush(self: Ledger, conn: Any, end: bool = False) -> None:
        if end:
            away("flush")
        real_flush(self, conn, end)

    def rebuilt(conn: Any, row: Any) -> Any:
        away("rebuilt")
        return real_rebuilt(conn, row)

    jobs = [Job(alice, live, uuid.uuid4().hex, uuid.uuid4().hex,
                cashier.buy_in(kit.ledger, alice, live, Decimal(100)))
            for live in (craps, wheel)]
    with monkeypatch.context() as patched:
        patched.setattr(Ledger, "flush", flush)
        patched.setattr(Tables, "rebuilt", staticmethod(rebuilt))
        results = kit.runner.run_batch(jobs)
    assert failures == {"flush": 0, "rebuilt": 0}
    assert all(isinstance(r, Reply) and r.status == 200 for r in results), results
    assert [str(live.table.chips("alice")) for live in (craps, wheel)] == ["100", "100"]
    with kit.engine.connect() as conn:
        seats = {r.table_id: r.chips_cents for r in conn.execute(
            sa.select(store.seats).where(store.seats.c.player == "alice"))}
    assert seats == {"craps-1": 10000, "roulette-1": 10000}
    report = verify_ledger(kit.tables, checkpoint=False)
    assert report["ok"], report["findings"]


def test_a_draw_another_runner_settled_is_not_drawn_again_after_the_table_caught_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database committed a roll's draw without answering, and the table's rebuild
    failed (the table ahead, the draw kept as not recorded). Another runner over the same
    ledger (a node that took the table over) settled the draw on the request's retry. Back
    at the first runner, the table rebuilt holds no outcome waiting, since the draw is settled:
    the draw kept as not recorded must still be dropped, since the ledger holds it. It was
    kept, as only a draw still waiting was compared, and the next roll recorded the same
    raw bytes and dice again."""
    import uuid
    from decimal import Decimal

    from croupier.service import cashier, outcomes, wagers
    from croupier.service.audit.verify import verify_ledger
    from croupier.service.ledger import Ledger
    from croupier.service.plans import Job
    from croupier.service.runner import Runner
    from croupier.service.tables import Tables

    from .ledgerkit import Kit

    kit = Kit(tmp_path / "takeover")
    craps, alice, dealer = kit.tables.all["craps-1"], kit.users["alice"], kit.users["dealer"]
    kit.act("alice", "craps-1", cashier.buy_in(kit.ledger, alice, craps, Decimal(100)))
    dice = craps.procedures.dice
    assert dice is not None
    kit.act("dealer", "craps-1", dice.offer([f"NJ-{i:04d}" for i in range(1, 6)]))
    kit.act("dealer", "craps-1", dice.select(dealer, ["NJ-0001", "NJ-0002"], by_shooter=False))
    kit.act("alice", "craps-1", wagers.bet(alice, craps, {"wager": "field", "amount": "1"},
                                           kit.ledger.limits))

    def roll(runner: Runner, key: str) -> Any:
        live = runner.tables.all["craps-1"]
        return runner.run_outcome(Job(dealer, live, key, "fp-roll", outcomes.record(
            dealer, live, kit.rng, None), "outcome", outcomes.settle(dealer, live)))

    real_committed = Ledger.committed

    def lost(self: Ledger, count: int) -> None:
        real_committed(self, count)
        raise sa.exc.OperationalError("COMMIT", {}, sqlite3.OperationalError(
            "the connection ended as the commit was answered"))

    def away(*args: Any, **kwargs: Any) -> Any:
        raise sa.exc.OperationalError("SELECT", {}, sqlite3.OperationalError(
            "the database is away"))

    key = uuid.uuid4().hex
    with monkeypatch.context() as patched:
        patched.setattr(Ledger, "committed", lost)
        patched.setattr(Tables, "rebuilt", away)
        with pytest.raises(sa.exc.OperationalError):
            roll(kit.runner, key)
    assert craps.ahead and craps.unrecorded is not None
    first = craps.unrecorded[1]
    other = Runner.over(kit.engine)  # the node that takes the table over
    settled = roll(other, key)
    assert settled.status == 200 and "settling" not in settled.body
    again = roll(kit.runner, uuid.uuid4().hex)
    draws = [e for e in again.body["events"] if e["type"] == "draw"]
    assert len(draws) == 1 and draws[0]["raw"] != list(first.raw), \
        "the draw the ledger holds, settled, was recorded again"
    report = verify_ledger(kit.tables, checkpoint=False)
    assert report["ok"], report["findings"]


def test_a_table_ahead_of_the_ledger_is_rebuilt_before_it_is_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A buy-in whose write failed, the table's rebuild failing too: the table in memory holds
    chips the ledger does not (no credit: chips at a table are chips bought with the wallet,
    13:69F-1.3(b)). Shown before the next action, they were taken for the player's. The
    routes that show the table rebuild it first, or answer 503 busy while that fails."""
    from croupier.service.ledger import Ledger
    from croupier.service.tables import Tables

    real_flush = Ledger.flush

    def away(*args: Any, **kwargs: Any) -> Any:
        raise sa.exc.OperationalError("SELECT", {}, sqlite3.OperationalError(
            "the database is away"))

    def flush(self: Ledger, conn: Any, end: bool = False) -> None:
        if end:
            away()
        real_flush(self, conn, end)

    with demo_app(tmp_path / "shown") as app:
        app.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})
        before = app.get("auditor", "/tables/craps-1").json()
        listed = app.get("auditor", "/tables").json()
        with monkeypatch.context() as patched:
            patched.setattr(Ledger, "flush", flush)
            patched.setattr(Tables, "rebuilt", away)
            app.client.raise_server_exceptions = False
            failed = app.post("alice", "/tables/craps-1/buy-in", {"amount": "100"})
            assert failed.status_code in (500, 503), failed.text
            live = app.client.app.state.services.tables.all["craps-1"]  # type: ignore[attr-defined]
            assert live.ahead and live.chips("alice") == 110  # the lost buy-in's, in memory
            for who, path in (("auditor", "/tables/craps-1"), ("auditor", "/tables"),
                              ("supervisor", "/tables/craps-1/alerts")):
                busy = app.get(who, path)
                assert (busy.status_code, busy.json()["error"]["code"]) == (503, "busy"), path
                assert busy.headers["Retry-After"] == "1", path
        app.client.raise_server_exceptions = True
        shown = app.get("auditor", "/tables/craps-1").json()
        assert shown["players"] == before["players"]  # 10.00 of chips, not 110.00
        assert app.get("auditor", "/tables").json() == listed
        assert not live.ahead
        report = app.audit()
        assert report["ok"], report["findings"]
