"""Found by an attack on the live server (attack36; in process: the app over a demo ledger).

* A late bet (13:69F-1.3(a)) was confirmed by a dealer or a boxperson who is one person with
  the player who made it (accounts of one admin's line): the two confirmations then came from
  one independent person, the other being the player's own hand;
* a roulette table opened by one admin paid what its opener wrote (a straight at 3500 to 1),
  and a craps table the other fire bet pay table (B) than the house's other tables (A);
* after the void of an entered result betting was open again with the dice at rest: a player
  took down (or made) wagers knowing what the dice showed before it was entered. (The late
  bets of a table rebuilt by a void read the discarded copy's state, too.)
* log-ins held the threadpool every sync route shares while their password checks queued on
  the one argon2 thread: 300 log-ins under unknown names, sent by anyone, stalled a buy-in
  21 s; so did audits and reports, each replaying the ledger in a thread of that pool (45
  audits at once by one auditor: a buy-in waited 53 s)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from croupier.service import auth
from croupier.service.api import audit as audit_routes
from croupier.service.api import auth as auth_routes
from croupier.service.api import lanes
from croupier.service.api import reports as report_routes
from serverkit import PASSWORD

from .appkit import App, demo_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("attack36")) as made:
        yield made


def _make(app: App, *accounts: tuple[str, str]) -> None:
    """Accounts made through the API by admin: one person with admin and with each other."""
    for name, role in accounts:
        app.ok("admin", "/users", {"username": name, "password": PASSWORD, "role": role},
               key=None)


def _chips(app: App, table: str = "craps-1") -> dict[str, Any]:
    return dict(app.get("auditor", f"/tables/{table}").json()["players"])


def test_a_late_bet_is_not_confirmed_by_one_person_with_its_player(app: App) -> None:
    """late-dealer, late-box and late-player were made by admin (one line): neither the dealer
    nor the boxperson of that line confirms late-player's late bet; the independent demo dealer
    and supervisor do."""
    _make(app, ("late-dealer", "dealer"), ("late-box", "supervisor"), ("late-player", "player"))
    app.ok("admin", "/wallets/late-player/deposits", {"amount": "50"})
    app.ok("late-player", "/tables/craps-1/buy-in", {"amount": "50"})
    app.ready_dice()
    app.ok("dealer", "/tables/craps-1/no-more-bets")
    late = app.post("late-player", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    assert late.status_code == 202, late.text
    late_id = late.json()["late_bet"]
    path = f"/tables/craps-1/late-bets/{late_id}/confirm"
    for staff in ("late-dealer", "late-box"):
        before, events = _chips(app), len(app.events())
        error = app.refused(staff, path)
        assert "late-player" in error["reason"] and "one person" in error["reason"], error
        assert error["clause"] == "N.J.A.C. 13:69F-1.3(a)1", error
        assert _chips(app) == before and len(app.events()) == events
    app.ok("dealer", path)
    # The boxperson of the player's line is refused after an independent dealer confirmed too.
    assert app.refused("late-box", path)["clause"] == "N.J.A.C. 13:69F-1.3(a)1"
    app.ok("supervisor", path)
    assert _chips(app)["late-player"] == {"chips": "45.00", "on_table": "5.00"}
    app.ok("dealer", "/tables/craps-1/roll", {"dice": [1, 2]})
    assert app.audit()["ok"]


def test_no_roulette_table_pays_above_the_profile_on_one_admins_word(app: App) -> None:
    """admin alone opened a roulette table paying a straight at 3500 to 1, and bob's 1.00 on
    17 won 3500.00: a pay table no second person approved (craps needs a change two people
    approve; roulette has no change at all)."""
    opening = {"id": "r-3500", "game": "roulette", "profile": "nj-casino-night",
               "options": {"pays": {"straight": "3500 to 1"}}, "entry": "physical"}
    r = app.post("admin", "/tables", opening, key=None)
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error["clause"] == "N.J.A.C. 13:47-20.32(f)", error
    assert "3500 to 1" in error["reason"] and "35 to 1" in error["reason"], error
    assert "r-3500" not in [t["id"] for t in app.get("admin", "/tables").json()]
    assert app.audit()["ok"]
    # The profile's own odds, written out, are no change: that table opens.
    opening.update(id="r-35", options={"pays": {"straight": "35 to 1"}})
    made = app.post("admin", "/tables", opening, key=None)
    assert made.status_code == 201, made.text


def _ready(app: App) -> None:
    """craps-1 with its dice in play (selected once; they stay in play)."""
    if not app.get("auditor", "/tables/craps-1").json()["dice_in_play"]:
        app.ready_dice()


def test_no_wager_is_made_or_taken_down_between_a_correction_and_what_showed(app: App) -> None:
    """The dealer entered 1-1 without calling "no more bets" first, and the supervisor voided
    it as misread: betting was open again with the dice at rest, so bob took down the Pass
    line and Any Craps the dice had decided, or could have put a wager on what the dice showed
    before the dealer entered it (past-posting). After the void the wagers stand as they were
    when the dice were thrown until the result that showed is entered."""
    _ready(app)
    app.ok("bob", "/tables/craps-1/buy-in", {"amount": "30"})
    app.ok("bob", "/tables/craps-1/bets", {"wager": "pass", "amount": "10"})
    app.ok("bob", "/tables/craps-1/bets", {"wager": "any_craps", "amount": "10"})
    app.ok("dealer", "/tables/craps-1/roll", {"dice": [1, 1]})
    app.ok("supervisor", "/tables/craps-1/void", {"reason": "the dice were misread"})
    state = app.get("auditor", "/tables/craps-1").json()
    assert state["betting_open"] is False, state
    before, events = _chips(app), len(app.events())
    for path, body in (("/bets/take-down", {"wager": "pass"}),
                       ("/bets/take-down", {"wager": "any_craps"}),
                       ("/bets", {"wager": "any_craps", "amount": "5"}),
                       ("/bets", {"wager": "field", "amount": "5"})):
        r = app.post("bob", "/tables/craps-1" + path, body)
        assert r.status_code == 409, f"{path} {body}: {r.status_code} {r.text}"
        assert r.json()["error"]["clause"], r.text
        assert _chips(app) == before and len(app.events()) == events
    # What showed is entered by a dealer independent of the supervisor: the wagers decided.
    app.ok("dealer", "/tables/craps-1/roll", {"dice": [1, 1]})
    assert _chips(app)["bob"] == {"chips": "90.00", "on_table": "0.00"}  # 10 + 10 + 70
    assert app.get("auditor", "/tables/craps-1").json()["betting_open"] is True
    assert app.audit()["ok"]


def test_log_ins_waiting_for_their_password_check_hold_no_other_route(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every password check is held until the end: the log-ins take at most the lane's
    threads, the rest wait without one (past its ``waiting``, made 8 here, they are answered
    503 at once), and the table's state, a sync route, is answered meanwhile."""
    app.token("auditor")  # logged in before every check is held
    gate = threading.Event()

    def held(password_hash: str, password: str) -> bool:
        gate.wait(30)
        return False

    monkeypatch.setattr(auth, "verify_password", held)
    lane = dataclasses.replace(lanes.PASSWORD_CHECKS, waiting=8)
    monkeypatch.setattr(auth_routes, "PASSWORD_CHECKS", lane)
    crowd = 45  # more than the 40 threads of the pool every sync route shares
    answers: list[int] = []

    def log_in(n: int) -> None:
        r = app.client.post("/auth/login", json={"username": f"nobody{n}", "password": "x" * 12})
        answers.append(r.status_code)

    threads = [threading.Thread(target=log_in, args=(n,)) for n in range(crowd)]
    try:
        for t in threads:
            t.start()
        # More log-ins than the shared threadpool has threads (40) now wait for their check.
        for _ in range(100):
            if len(answers) >= crowd - lane.threads - lane.waiting:
                break
            threading.Event().wait(0.05)
        seen: list[httpx.Response] = []
        reader = threading.Thread(target=lambda: seen.append(
            app.get("auditor", "/tables/craps-1")))
        reader.start()
        reader.join(5)
        assert seen and seen[0].status_code == 200, "the table's state waited for the log-ins"
    finally:
        gate.set()
        for t in threads:
            t.join(30)
    assert sorted(set(answers)) == [401, 503], answers
    assert answers.count(503) >= crowd - lane.threads - lane.waiting


def _crowd(app: App, path: str, crowd: int) -> tuple[list[int], list[httpx.Response]]:
    """``crowd`` GETs of ``path`` by the auditor from threads of their own (started, not
    joined), and a read of the table's state (a sync route) made while they are held."""
    answers: list[int] = []
    threads = [threading.Thread(target=lambda: answers.append(
        app.get("auditor", path).status_code)) for _ in range(crowd)]
    for t in threads:
        t.start()
    threading.Event().wait(1.0)
    seen: list[httpx.Response] = []
    reader = threading.Thread(target=lambda: seen.append(app.get("auditor", "/tables/craps-1")))
    reader.start()
    reader.join(5)
    return answers, seen


@pytest.mark.parametrize(("path", "module", "name", "lane"), [
    ("/audit/verify", audit_routes, "verify_ledger", lanes.AUDITS),
    ("/reports/event", report_routes, "_report", lanes.REPORTS),
    ("/reports/tables/craps-1", report_routes, "_report", lanes.REPORTS)])
def test_reads_of_the_whole_ledger_hold_no_other_route(
        app: App, monkeypatch: pytest.MonkeyPatch, path: str, module: Any, name: str,
        lane: lanes.Lane) -> None:
    """45 audits (or reports) at once, each held until the end: the table's state is answered
    meanwhile, and those past the lane's threads and waiting places are answered 503."""
    app.token("auditor")
    gate = threading.Event()
    original = getattr(module, name)

    def held(*args: Any, **kwargs: Any) -> Any:
        gate.wait(30)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, held)
    crowd = 45  # more than the 40 threads of the pool every sync route shares
    try:
        answers, seen = _crowd(app, path, crowd)
        assert seen and seen[0].status_code == 200, "the table's state waited for them"
    finally:
        gate.set()
    for _ in range(200):
        if len(answers) == crowd:
            break
        threading.Event().wait(0.1)
    assert sorted(set(answers)) == [200, 503], answers
    assert answers.count(200) == lane.threads + lane.waiting, answers


def test_a_change_of_ones_own_password_holds_no_write_lock_while_checking(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the current password is checked, another connection can begin writing."""
    import sqlite3

    services: Any = app.client.app.state.services  # type: ignore[attr-defined]
    database = str(services.engine.url.database)
    _make(app, ("pw-player", "player"))
    app.token("pw-player")
    original = auth.verify_password
    locked: list[bool] = []

    def checking(password_hash: str, password: str) -> bool:
        other = sqlite3.connect(database, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            locked.append(False)
        except sqlite3.OperationalError:
            locked.append(True)
        finally:
            other.close()
        return original(password_hash, password)

    monkeypatch.setattr(auth, "verify_password", checking)
    r = app.post("pw-player", "/auth/me/password",
                 {"current": "not the password", "new": "a-new-password-1"}, key=None)
    assert r.status_code == 403, r.text
    assert locked == [False], "the write lock was held while the password was checked"


def test_a_craps_table_takes_the_houses_fire_pay_table(app: App) -> None:
    """craps-1 pays the fire bet by table A (13:69F-1.4(e)); admin alone opened craps-fireb
    choosing table B, and the house's craps tables paid a fire bet of four points 24 to 1 at
    one and 39 to 1 at the other (uniform pays, 13:69F-1.4(b))."""
    r = app.post("admin", "/tables", {"id": "craps-fireb", "game": "craps",
                                      "profile": "nj-13-69f",
                                      "options": {"fire_pay_table": "B"}}, key=None)
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error["clause"] == "N.J.A.C. 13:69F-1.4(b)", error
    assert "fire:4" in error["reason"] and "39 to 1" in error["reason"], error
    made = app.post("admin", "/tables", {"id": "craps-firea", "game": "craps",
                                         "profile": "nj-13-69f",
                                         "options": {"fire_pay_table": "A"}}, key=None)
    assert made.status_code == 201, made.text
