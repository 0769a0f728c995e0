"""Every outcome recorded once and first; a wager keeps the pay it was accepted at; voids of the
RNG's outcomes return stakes and need two people. Over real HTTP against ``croupier serve`` in
a subprocess, on SQLite and PostgreSQL.

The pay tables are those of N.J.A.C. 13:69F-1.4(b): place 6 "7 to 6", lay 4 "1 to 2", the
field "1 to 1" on 3, 4, 9, 10, 11 (13:69F-1.2(a)11). The house's changes pay more than these
minimums, as 13:69F-1.4(b) permits: place 6 "10 to 7", lay 4 "7 to 13".
"""

from __future__ import annotations

import os
import textwrap
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from .conftest import BACKENDS, Server, make_server

NOTICE = 2.0
"""Seconds between a change's proposal and its effective time: room for its approval on a
loaded machine."""


@pytest.fixture(scope="module", params=BACKENDS)
def srv(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
        ) -> Iterator[Server]:
    server = make_server(request.param, tmp_path_factory.mktemp("outcomes"), seed=11)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def change_pays(s: Server, game: str, pays: dict[str, str]) -> None:
    """A change proposed by a supervisor and approved by the admin before its time (an
    approval at or after it is refused), in effect when this returns."""
    for notice in (NOTICE, 4 * NOTICE, 16 * NOTICE):  # a busy machine may take longer
        effective_at = time.time() + notice
        made = s.ok("supervisor", "/paytables/changes", {
            "game": game, "profile": "nj-13-69f", "pays": pays,
            "effective": datetime.fromtimestamp(effective_at, UTC).isoformat(),
            "reason": "the house pays more on this bet"})
        r = s.post("admin", f"/paytables/changes/{made['id']}/approve")
        if r.status_code == 200:
            break
        # The only refusal allowed here: the time came before the approval did.
        assert r.status_code == 409 and "which has come" in r.json()["error"]["reason"], r.text
    else:
        raise AssertionError("no change was approved before its time")
    # The approval emptied the server's cache of changes and no action has read it since:
    # the first action after the effective time finds the change due.
    time.sleep(max(0.0, effective_at - time.time()) + 0.05)


def events(s: Server, table: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while True:
        page = s.get("auditor", f"/tables/{table}/events?since={out[-1]['seq'] if out else 0}"
                                f"&limit=1000").json()
        if not page:
            return out
        out.extend(page)


def settled(reply: dict[str, Any], player: str, wager: str) -> dict[str, Any]:
    found = [e for e in reply["events"]
             if e["type"] == "settle" and e["player"] == player and e["wager"] == wager]
    assert len(found) == 1, reply["events"]
    return found[0]


def open_rng_table(s: Server, table: str) -> None:
    s.ok("admin", "/tables", {"id": table, "game": "automated-craps", "profile": "nj-13-69f",
                              "entry": "rng"})


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "replay contract: Outcomes")
def test_a_repriced_place_6_entered_at_a_physical_table_is_paid_at_7_to_6(srv: Server) -> None:
    s = srv
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "200"})
    s.ready_dice()
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [2, 2]})  # the point is 4
    s.ok("alice", "/tables/craps-1/bets", {"wager": "place_win", "number": 6, "amount": "12"})
    change_pays(s, "craps", {"place_win:6": "10 to 7"})
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [2, 3]})  # the round ends; the change waits
    six = s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 3]})
    assert any(e["type"] == "pay_table_applied" for e in events(s, "craps-1"))
    assert s.get("alice", "/tables/craps-1").json()["options"]["pays"] == {
        "place_win:6": "10 to 7"}
    win = settled(six, "alice", "place_win:6")
    assert (win["paid"], win["odds"], win["stays_up"]) == ("14.00", "7 to 6", True)
    # Nothing is added to it at the new odds: down, and up again.
    more = s.post("alice", "/tables/craps-1/bets",
                  {"wager": "place_win", "number": 6, "amount": "14"})
    assert more.status_code == 409, more.text
    error = more.json()["error"]
    assert "take it down and make it again" in error["reason"]
    assert error["clause"] == "N.J.A.C. 13:69F-1.4(b)"
    s.ok("alice", "/tables/craps-1/bets/take-down", {"wager": "place_win", "number": 6})
    s.ok("alice", "/tables/craps-1/bets", {"wager": "place_win", "number": 6, "amount": "14"})
    again = s.ok("dealer", "/tables/craps-1/roll", {"dice": [4, 2]})
    assert settled(again, "alice", "place_win:6")["paid"] == "20.00"  # 14 x 10 / 7


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "replay contract: Outcomes")
def test_every_rng_roll_is_recorded_once_and_sevens_come(srv: Server) -> None:
    s = srv
    open_rng_table(s, "auto-lay")
    for who in ("alice", "bob"):
        s.ok(who, "/tables/auto-lay/buy-in", {"amount": "300"})
    s.ok("bob", "/tables/auto-lay/bets", {"wager": "pass", "amount": "10"})
    s.ok("alice", "/tables/auto-lay/bets", {"wager": "lay", "number": 4, "amount": "40"})
    change_pays(s, "automated-craps", {"lay:4": "7 to 13"})
    rolls: list[tuple[int, int]] = []
    for _ in range(26):
        reply = s.ok("dealer", "/tables/auto-lay/roll", {})
        draws = [e for e in reply["events"] if e["type"] == "draw"]
        rolled = [e for e in reply["events"] if e["type"] == "roll"]
        assert len(draws) == len(rolled) == 1
        assert rolled[0]["dice"] == draws[0]["outcome"]
        rolls.append(tuple(rolled[0]["dice"]))
        if rolled[0]["total"] == 7:
            lay = settled(reply, "alice", "lay:4")
            assert (lay["paid"], lay["odds"]) == ("20.00", "1 to 2")  # 40 at 1 to 2
    assert sum(1 for d in rolls if sum(d) == 7) >= 1
    stored = events(s, "auto-lay")
    assert [tuple(e["outcome"]) for e in stored if e["type"] == "draw"] == rolls
    assert [tuple(e["dice"]) for e in stored if e["type"] == "roll"] == rolls


@pytest.mark.clause("replay contract: Outcomes")
def test_void_of_an_rng_outcome_returns_its_stakes_needs_two_people_and_draws_nothing(
        srv: Server) -> None:
    s = srv
    open_rng_table(s, "auto-void")
    s.ok("alice", "/tables/auto-void/buy-in", {"amount": "100"})
    alerts: list[dict[str, Any]] = []
    for _ in range(2):
        s.ok("alice", "/tables/auto-void/bets", {"wager": "field", "amount": "10"})
        rolled = s.ok("dealer", "/tables/auto-void/roll", {})
        assert settled(rolled, "alice", "field")["result"] in ("win", "lose")
        asked = s.post("supervisor", "/tables/auto-void/void", {"reason": "device jammed"})
        assert asked.status_code == 202, asked.text
        alone = s.post("supervisor", "/tables/auto-void/void/approve")
        assert alone.status_code == 409 and "second supervisor" in alone.json()["error"]["reason"]
        done = s.ok("floor", "/tables/auto-void/void/approve")
        back = settled(done, "alice", "field")
        assert (back["result"], back["returned"]) == ("returned", "10.00")
        assert s.get("alice", "/tables/auto-void").json()["players"]["alice"] == {
            "chips": "100.00", "on_table": "0.00"}
        alerts += [e for e in done["events"] if e["type"] == "integrity_alert"]
    stored = events(s, "auto-void")
    assert [e["type"] for e in stored].count("draw") == 2  # nothing drawn again
    assert [e["type"] for e in stored].count("roll") == 2  # the outcomes stand
    voids = [e for e in stored if e["type"] == "void"]
    assert [(v["by"], v["approved_by"]) for v in voids] == [("supervisor", "floor")] * 2
    # Two voids by the same people among the last hundred decisions: watched.
    assert sorted(a["set_id"] for a in alerts) == ["auto-void:floor", "auto-void:supervisor"]
    assert {a["monitor"] for a in alerts} == {"void_rate"}
    report = s.get("auditor", "/reports/tables/auto-void")
    assert report.status_code == 200, report.text
    listed = report.json()["event"]["voids"]
    assert [(v["by"], v["approved_by"], v["kind"]) for v in listed] == [
        ("supervisor", "floor", "stakes returned")] * 2


@pytest.mark.clause("replay contract: Outcomes")
def test_while_a_void_waits_no_chips_leave_and_nothing_lapses_it(srv: Server) -> None:
    """A void asked of an RNG outcome used to lapse at the table's next act of anyone: the
    player whose win it would take back cashed out, or another player bought in for 1.00, and
    the second supervisor found no void to approve. Now the table takes nothing but the
    approval or a withdrawal; a refusal changes nothing."""
    s = srv
    open_rng_table(s, "void-wait")
    s.ok("alice", "/tables/void-wait/buy-in", {"amount": "50"})
    s.ok("alice", "/tables/void-wait/bets", {"wager": "field", "amount": "10"})
    s.ok("dealer", "/tables/void-wait/roll", {})
    chips = s.get("alice", "/tables/void-wait").json()["players"]["alice"]
    assert s.post("supervisor", "/tables/void-wait/void",
                  {"reason": "device jammed"}).status_code == 202
    for who, path, body in (("alice", "cash-out", {}), ("bob", "buy-in", {"amount": "1"}),
                            ("alice", "bets", {"wager": "field", "amount": "5"}),
                            ("dealer", "roll", {}),
                            ("supervisor", "void", {"reason": "asked again"})):
        r = s.post(who, f"/tables/void-wait/{path}", body)
        assert r.status_code == 409, (path, r.text)
        error = r.json()["error"]
        assert "asked to void round" in error["reason"], error
        assert error["clause"] == "replay contract: Outcomes"
    assert s.get("alice", "/tables/void-wait").json()["players"]["alice"] == chips
    assert s.post("alice", "/tables/void-wait/void/withdraw").status_code == 403
    withdrawn = s.ok("floor", "/tables/void-wait/void/withdraw")
    assert [e["name"] for e in withdrawn["events"] if e["type"] == "procedure"] == [
        "void_withdrawn"]
    late = s.post("floor", "/tables/void-wait/void/approve")
    assert late.status_code == 409 and "no void waits" in late.json()["error"]["reason"]
    assert s.post("floor", "/tables/void-wait/void/withdraw").status_code == 409
    # The outcome and its settlement stand; play goes on.
    assert s.get("alice", "/tables/void-wait").json()["players"]["alice"] == chips
    s.ok("alice", "/tables/void-wait/cash-out", {})


# --- a settlement that cannot be made -----------------------------------------------------

FAULT = textwrap.dedent('''
    # Loaded by the server process the test starts (PYTHONPATH): a $7 field bet or an $18
    # place 6 "cannot be settled exactly", standing for any settlement the money cannot make.
    from decimal import Decimal
    from croupier import money

    _pays = money.Odds.pays

    def pays(self, stake):
        if (self.win, self.stake, stake) in ((1, 1, Decimal(7)), (7, 6, Decimal(18))):
            raise ArithmeticError(f"{stake} at {self}: not an exact amount (test fault)")
        return _pays(self, stake)

    money.Odds.pays = pays
''')


@pytest.fixture(params=BACKENDS)
def faulty(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(FAULT)
    server = make_server(request.param, tmp_path, seed=5)
    old = os.environ.get("PYTHONPATH")
    server.env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hook), *([old] if old else [])])}
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.clause("replay contract: Outcomes")
def test_a_settlement_that_cannot_be_made_halts_the_table_with_the_outcome_recorded(
        faulty: Server) -> None:
    s = faulty
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "200"})
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "200"})
    s.ready_dice()
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [2, 2]})  # the point is 4
    s.ok("alice", "/tables/craps-1/bets", {"wager": "place_win", "number": 6, "amount": "18"})
    s.ok("bob", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    halted = s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 3]})
    assert [e["type"] for e in halted["events"]] == ["entered", "table_halted"]
    halt = halted["halted"]
    assert (halt["player"], halt["wager"], halt["clause"]) == (
        "alice", "place_win:6", "replay contract: Outcomes")
    stored = events(s, "craps-1")
    assert stored[-2]["type"] == "entered" and stored[-2]["outcome"] == [3, 3]
    # Nothing is done at a halted table but the supervisor's resolution.
    for who, path, body in (("bob", "/tables/craps-1/bets", {"wager": "field", "amount": "5"}),
                            ("dealer", "/tables/craps-1/roll", {"dice": [1, 2]}),
                            ("alice", "/tables/craps-1/bets/take-down",
                             {"wager": "place_win", "number": 6})):
        refused = s.post(who, path, body)
        assert refused.status_code == 409 and "halted" in refused.json()["error"]["reason"]
    assert s.post("dealer", "/tables/craps-1/halt/resolve", {"reason": "x" * 5}
                  ).status_code == 403
    done = s.ok("supervisor", "/tables/craps-1/halt/resolve",
                {"reason": "settled by the procedure: stake back"})
    assert [e["type"] for e in done["events"]][:3] == ["settle", "halt_resolved", "roll"]
    back = settled(done, "alice", "place_win:6")
    assert (back["result"], back["returned"]) == ("returned", "18.00")
    assert settled(done, "bob", "field")["result"] == "lose"  # 6 is no field number
    players = s.get("supervisor", "/tables/craps-1").json()["players"]
    assert players["alice"] == {"chips": "200.00", "on_table": "0.00"}
    assert players["bob"] == {"chips": "195.00", "on_table": "0.00"}
    assert [e["type"] for e in events(s, "craps-1")].count("entered") == 2
    verified = s.get("auditor", "/audit/verify")
    assert verified.status_code == 200 and verified.json()["ok"], verified.text


@pytest.mark.clause("replay contract: Outcomes")
def test_an_rng_outcome_that_cannot_be_settled_halts_and_is_never_drawn_again(
        faulty: Server) -> None:
    s = faulty
    open_rng_table(s, "auto-halt")
    s.ok("alice", "/tables/auto-halt/buy-in", {"amount": "200"})
    replies = []
    for _ in range(30):
        s.ok("alice", "/tables/auto-halt/bets", {"wager": "field", "amount": "7"})
        reply = s.ok("dealer", "/tables/auto-halt/roll", {})
        replies.append(reply)
        if "halted" in reply:
            break
    halted = replies[-1]
    assert "halted" in halted, "no field number in 30 rolls"
    drawn = [e for e in halted["events"] if e["type"] == "draw"]
    assert len(drawn) == 1 and sum(drawn[0]["outcome"]) in (2, 3, 4, 9, 10, 11, 12)
    again = s.post("dealer", "/tables/auto-halt/roll", {})
    assert again.status_code == 409  # halted: nothing is drawn
    done = s.ok("supervisor", "/tables/auto-halt/halt/resolve", {"reason": "stake back"})
    rolled = [e for e in done["events"] if e["type"] == "roll"]
    assert len(rolled) == 1 and rolled[0]["dice"] == drawn[0]["outcome"]
    assert not [e for e in done["events"] if e["type"] == "draw"]
    stored = events(s, "auto-halt")
    draws = [e["outcome"] for e in stored if e["type"] == "draw"]
    rolls = [e["dice"] for e in stored if e["type"] == "roll"]
    assert draws == rolls and len(draws) == len(replies)


@pytest.mark.clause("replay contract: Outcomes")
def test_one_key_on_rolls_at_two_tables_at_once_rolls_once(srv: Server) -> None:
    """The dealer's client reuses a key for rolls at two tables at the same moment: one roll
    is made and the other is refused as a reused key, never a server error, and every draw
    is in a ledger."""
    from concurrent.futures import ThreadPoolExecutor

    s = srv
    for table in ("auto-k1", "auto-k2"):
        open_rng_table(s, table)
    for n in range(3):
        key = f"same-key-{n}"
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda t, k=key: s.post("dealer", f"/tables/{t}/roll", {}, k),
                                    ("auto-k1", "auto-k2")))
        codes = sorted(a.status_code for a in answers)
        assert codes == [200, 422], [a.text for a in answers]
        refused = next(a for a in answers if a.status_code == 422)
        assert refused.json()["error"]["code"] == "idempotency_key_reused"
    draws = sum(1 for t in ("auto-k1", "auto-k2") for e in events(s, t) if e["type"] == "draw")
    rolls = sum(1 for t in ("auto-k1", "auto-k2") for e in events(s, t) if e["type"] == "roll")
    assert draws == rolls == 3
