"""Over real HTTP: scheduled pay table changes, the equipment register,
the dice's chain of custody and the table procedures recorded as events; and the attack
leftovers (unknown query parameters, a stream of an unknown table, the coupon's table).

One server per backend for the whole module (each test works on tables of its own)."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from croupier.service.api.record_replies import PayTableChange
from croupier.service.equipment import passing_record

from .conftest import BACKENDS, Server, make_server
from .test_replies import read_back

FIELD_12 = "field:12"


@pytest.fixture(scope="module", params=BACKENDS)
def srv(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
        ) -> Iterator[Server]:
    server = make_server(request.param, tmp_path_factory.mktemp(request.param))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(time.time() + seconds, UTC).isoformat()


def _events(s: Server, table: str) -> list[dict[str, Any]]:
    r = s.get("auditor", f"/tables/{table}/events?limit=1000")
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()
    return out


def _new_table(s: Server, table: str, game: str = "craps", profile: str = "nj-13-69f",
               **options: Any) -> httpx.Response:
    return s.post("admin", "/tables", {"id": table, "game": game, "profile": profile,
                                       "options": options}, key=None)


def _verify(s: Server) -> dict[str, Any]:
    report = s.audit()
    assert report["ok"], report["problems"]
    return report


# --- item 9: scheduled pay table changes ------------------------------------------------------

@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_a_change_is_checked_approved_and_applied_between_rounds(srv: Server) -> None:
    s = srv
    profile = "nj-13-69f"
    # Checked as croupier check checks a proposal: below the minimum, or "for", is refused.
    low = s.post("admin", "/paytables/changes", {
        "game": "craps", "profile": profile, "pays": {FIELD_12: "1 to 1"},
        "effective": _when(1), "reason": "too mean"}, key=None)
    assert low.status_code == 409 and low.json()["error"]["clause"] == "N.J.A.C. 13:69F-1.4(b)"
    word = s.post("admin", "/paytables/changes", {
        "game": "craps", "profile": profile, "pays": {FIELD_12: "4 for 1"},
        "effective": _when(1), "reason": "for"}, key=None)
    assert word.status_code == 409 and word.json()["error"]["clause"] == "N.J.A.C. 13:69F-1.4(a)"
    naive = s.post("admin", "/paytables/changes", {
        "game": "craps", "profile": profile, "pays": {FIELD_12: "3 to 1"},
        "effective": "2026-12-01T18:00:00", "reason": "no offset"}, key=None)
    assert naive.status_code == 422 and "body.effective" in naive.json()["error"]["reason"]
    for when, says in ((_when(-3600), "in the past"), (_when(400 * 86400), "a year ahead")):
        r = s.post("admin", "/paytables/changes", {
            "game": "craps", "profile": profile, "pays": {FIELD_12: "3 to 1"},
            "effective": when, "reason": "out of range"}, key=None)
        assert r.status_code == 422 and r.json()["error"]["reason"].startswith("body.effective")
        assert says in r.json()["error"]["reason"]
    nothing = s.post("admin", "/paytables/changes", {
        "game": "craps", "profile": profile, "pays": {FIELD_12: "0 to 1"},
        "effective": _when(60), "reason": "pays nothing"}, key=None)
    assert nothing.status_code == 409 and nothing.json()["error"]["clause"] == \
        "N.J.A.C. 13:69F-1.4(b)"
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
    s.ready_dice()
    effective_at = time.time() + 8  # each check takes about a second on a loaded machine
    change = s.ok("admin", "/paytables/changes", {
        "game": "craps", "profile": profile, "pays": {FIELD_12: "3 to 1"},
        "effective": datetime.fromtimestamp(effective_at, UTC).isoformat(),
        "reason": "the field pays triple on 12 from tonight"}, key=None)
    assert change["status"] == "proposed"
    cid = change["id"]
    # A second person whose role may approve: not the proposer, not a dealer.
    assert s.post("admin", f"/paytables/changes/{cid}/approve", key=None).status_code == 409
    assert s.post("dealer", f"/paytables/changes/{cid}/approve", key=None).status_code == 403
    approved = s.ok("supervisor", f"/paytables/changes/{cid}/approve", key=None)
    assert approved["approved_by"] == "supervisor" and approved["status"] == "approved"
    read_back(PayTableChange, approved)  # the answer as /docs documents it
    # Mid-round when it takes effect: a field bet made, the dice not yet rolled.
    s.ok("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    time.sleep(max(0.0, effective_at - time.time()) + 1.2)  # in effect, and the cache read
    s.ok("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    kinds = [e["type"] for e in _events(s, "craps-1")]
    assert "pay_table_applied" not in kinds  # never mid-round
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [6, 6]})
    before = s.get("auditor", "/tables/craps-1").json()["players"]["alice"]
    # The field on 12 paid the old 2 to 1 (10 + 20 back); the change applies before the next
    # round's first action.
    assert before == {"chips": "70.00", "on_table": "0.00"}
    s.ok("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    events = _events(s, "craps-1")
    applied = [e for e in events if e["type"] == "pay_table_applied"]
    assert len(applied) == 1 and applied[0]["change"] == cid
    bet = next(e for e in events if e["seq"] == applied[0]["seq"] + 1)
    assert bet["round"] == applied[0]["round"]  # the first event of its round
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [6, 6]})
    after = s.get("auditor", "/tables/craps-1").json()
    assert after["players"]["alice"] == {"chips": "85.00", "on_table": "0.00"}  # 3 to 1
    assert after["options"]["pays"] == {FIELD_12: "3 to 1"}
    # A new table takes the house's pay table; one that would pay otherwise is refused.
    assert _new_table(s, "sched-new").status_code == 201
    assert s.get("auditor", "/tables/sched-new").json()["options"]["pays"] == {FIELD_12: "3 to 1"}
    other = _new_table(s, "sched-bad", pays={FIELD_12: "2 to 1"})
    assert other.status_code == 409 and other.json()["error"]["clause"] == "N.J.A.C. 13:69F-1.4(b)"
    listed = s.get("auditor", "/paytables/changes").json()
    assert next(c for c in listed if c["id"] == cid)["status"] == "in effect"
    # In the chains: the audit replays the table and checks the house's records.
    report = _verify(s)
    assert report["ok"]
    records = s.get("auditor", "/house/records").json()
    assert [r["kind"] for r in records if r["subject"] == "paytable:craps:nj-13-69f"][:2] == [
        "paytable_proposed", "paytable_approved"]


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_tables_created_at_once_get_one_pay_table(srv: Server) -> None:
    """Eight tables of a new game and profile created at once, half asking another pay table
    than the profile's: every table created pays the same, the others are refused (the first
    table sets no pay table above the profile's alone: a change two people approve does)."""
    s = srv
    s.token("admin")

    def create(i: int) -> httpx.Response:
        pays = {FIELD_12: "3 to 1" if i % 2 else "2 to 1"}
        return _new_table(s, f"race-{i}", game="mini-craps", profile="nj-13-69f", pays=pays)

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(create, range(8)))
    codes = Counter(r.status_code for r in answers)
    assert set(codes) <= {201, 409} and codes[201] >= 1, codes
    made = [r.json()["options"]["pays"][FIELD_12] for r in answers if r.status_code == 201]
    assert len(set(made)) == 1, made
    assert made and set(made) == {"2 to 1"}, made
    refused = [r.json()["error"] for r in answers if r.status_code == 409]
    assert len(refused) == 4 and all(
        "uniform" in e["reason"] or "second person" in e["reason"] for e in refused), refused


@pytest.mark.clause("N.J.A.C. 19:47-1.4(b)")
def test_a_table_created_while_a_change_applies_gets_exactly_one(srv: Server) -> None:
    s = srv
    profile = "nj-19-47"
    assert _new_table(s, "apply-0", profile=profile).status_code == 201
    cid = s.ok("admin", "/paytables/changes", {
        "game": "craps", "profile": profile, "pays": {FIELD_12: "3 to 1"},
        "effective": _when(2.5), "reason": "uniform upgrade"}, key=None)["id"]
    s.ok("supervisor", f"/paytables/changes/{cid}/approve", key=None)  # before its time
    s.token("alice")

    def create(i: int) -> int:
        time.sleep(i * 0.4)  # some before the effective time, some after
        return _new_table(s, f"apply-{i}", profile=profile).status_code

    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(create, range(1, 11)))
    assert codes == [201] * 10
    time.sleep(max(0.0, 1.6))
    for i in range(11):
        table = f"apply-{i}"
        s.ok("alice", f"/tables/{table}/buy-in", {"amount": "5"})
        shown = s.get("auditor", f"/tables/{table}").json()["options"].get("pays")
        assert shown == {FIELD_12: "3 to 1"}, table
        applied = [e for e in _events(s, table) if e["type"] == "pay_table_applied"]
        assert len(applied) <= 1, table
    _verify(s)


# --- item 11: the equipment register, custody, layouts, procedures -------------------------

def _bet_refused(s: Server, table: str, body: dict[str, Any]) -> str:
    s.ok("bob", f"/tables/{table}/buy-in", {"amount": "10"})
    r = s.post("bob", f"/tables/{table}/bets", {**body, "amount": "5"})
    assert r.status_code == 409, r.text
    clause: str = r.json()["error"]["clause"]
    return clause


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1ii")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)15i")
def test_layout_wagers_only_where_an_approved_layout_is_recorded(srv: Server) -> None:
    s = srv
    # Without a layout recorded: asking for the wager is refused; the table opened states an
    # approved layout showing neither, and the engine refuses both wagers there.
    for option in ({"five_adjacent": True}, {"approved_layout": ["seven_numbers"]}):
        r = _new_table(s, "wheel-a", game="roulette", profile="nj-casino-night", **option)
        assert r.status_code == 409, r.text
        assert r.json()["error"]["clause"] in ("N.J.A.C. 13:47-20.32(e)1ii",
                                               "N.J.A.C. 13:47-20.32(e)15i")
    made = _new_table(s, "wheel-a", game="roulette", profile="nj-casino-night").json()
    assert made["options"]["approved_layout"] == []
    assert _bet_refused(s, "wheel-a", {"wager": "five_adjacent", "center": 17}) == \
        "N.J.A.C. 13:47-20.32(e)1ii"
    assert _bet_refused(s, "wheel-a", {"wager": "seven_numbers"}) == \
        "N.J.A.C. 13:47-20.32(e)15i"
    # Registered but not approved: still not offered. Approved and placed: offered.
    item = {"id": "layout-b", "type": "layout", "description": "layout with a wheel replica",
            "table": "wheel-b", "wagers": ["five_adjacent"]}
    assert s.post("dealer", "/equipment/items", item, key=None).status_code == 403
    twice = s.post("admin", "/equipment/items",
                   {**item, "wagers": ["five_adjacent", "five_adjacent"]}, key=None)
    assert twice.status_code == 422, twice.text
    assert twice.json()["error"]["reason"].startswith("body.wagers[1]: five_adjacent is named")
    assert s.ok("admin", "/equipment/items", item, key=None)["approved"] is False
    assert s.post("admin", "/equipment/items", item, key=None).status_code == 409
    s.ok("supervisor", "/equipment/items/layout-b/approvals",
         {"authority": "Casino Control Commission", "reference": "L-2026-17"}, key=None)
    shown = s.ok("admin", "/equipment/items/layout-b/inspections",
                 {"passed": True, "findings": "replica and grid as approved"}, key=None)
    assert shown["in_service"] is True and shown["approvals"][0]["by"] == "supervisor"
    opened = _new_table(s, "wheel-b", game="roulette", profile="nj-casino-night").json()
    assert opened["options"]["approved_layout"] == ["five_adjacent"]
    s.ok("bob", "/tables/wheel-b/buy-in", {"amount": "10"})
    s.ok("bob", "/tables/wheel-b/bets", {"wager": "five_adjacent", "center": 17, "amount": "5"})
    assert _bet_refused(s, "wheel-b", {"wager": "seven_numbers"}) == "N.J.A.C. 13:47-20.32(e)15i"
    # Failed at its latest inspection: out of service, the next table there offers neither.
    s.ok("admin", "/equipment/items/layout-b/placing", {"table": "wheel-c"}, key=None)
    s.ok("admin", "/equipment/items/layout-b/inspections",
         {"passed": False, "findings": "replica worn"}, key=None)
    later = _new_table(s, "wheel-c", game="roulette", profile="nj-casino-night").json()
    assert later["options"]["approved_layout"] == []
    assert s.get("auditor", "/equipment/items/layout-b").json()["in_service"] is False
    assert s.get("alice", "/equipment/items").status_code == 403
    _layouts_out_of_service_take_their_wagers_off(s)


def _five_adjacent_refused(s: Server, table: str) -> str:
    r = s.post("bob", f"/tables/{table}/bets",
               {"wager": "five_adjacent", "center": 17, "amount": "5"})
    assert r.status_code == 409, r.text
    assert r.json()["error"]["clause"] == "N.J.A.C. 13:47-20.32(e)1ii", r.text
    reason: str = r.json()["error"]["reason"]
    return reason


def _layouts_out_of_service_take_their_wagers_off(s: Server) -> None:
    """A layout moved away (wheel-b, above), failed at an inspection or retired while its
    table is open: the table's chain gets a ``layout_withdrawn`` event, from which on its
    wagers are refused citing 13:47-20.32(e)1ii; the wager already down stays and is settled
    as made, and the audit's replay of the chain agrees. (On the server of the test above.)"""
    assert "layout-b" in _five_adjacent_refused(s, "wheel-b")
    withdrawn = [e for e in _events(s, "wheel-b") if e["type"] == "layout_withdrawn"]
    assert [e["wagers"] for e in withdrawn] == [["five_adjacent"]], withdrawn
    assert "moved it to table wheel-c" in withdrawn[0]["reason"]
    assert s.get("bob", "/tables/wheel-b").json()["players"]["bob"]["on_table"] == "5.00"
    for table, out in (("wheel-d", {"passed": False, "findings": "replica worn through"}),
                       ("wheel-e", {"reason": "replaced by a new layout"})):
        layout = f"layout-{table[-1]}"
        s.ok("admin", "/equipment/items", {"id": layout, "type": "layout", "table": table,
                                           "description": "layout with a wheel replica",
                                           "wagers": ["five_adjacent"]}, key=None)
        s.ok("supervisor", f"/equipment/items/{layout}/approvals",
             {"authority": "Casino Control Commission", "reference": "L-2026-18"}, key=None)
        s.ok("admin", f"/equipment/items/{layout}/inspections",
             {"passed": True, "findings": "as approved"}, key=None)
        _new_table(s, table, game="roulette", profile="nj-casino-night")
        s.ok("bob", f"/tables/{table}/buy-in", {"amount": "10"})
        s.ok("bob", f"/tables/{table}/bets", {"wager": "five_adjacent", "center": 17,
                                              "amount": "5"})
        what = "inspections" if "passed" in out else "retirement"
        s.ok("admin", f"/equipment/items/{layout}/{what}", out, key=None)
        said = out.get("findings") or out["reason"]
        assert layout in (reason := _five_adjacent_refused(s, table)) and said in reason, reason
    _verify(s)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(e)2")
@pytest.mark.clause("N.J.A.C. 13:47-20.25(e)5")
def test_the_dice_chain_of_custody(srv: Server) -> None:
    s = srv
    for i in range(1, 7):
        s.ok("admin", "/equipment/dice", {"serial": f"CU-{i}", "set_name": "custody"},
             key=None)
    # Registering a die records its receipt: it is not received twice.
    r = s.post("supervisor", "/equipment/dice/CU-1/custody", {"step": "received"}, key=None)
    assert r.status_code == 409 and "is received" in r.json()["error"]["reason"]
    # Only a die whose latest inspection passed goes into a cup; an issue names its table.
    r = s.post("admin", "/equipment/dice/CU-1/custody", {"step": "issued", "table": "craps-1"},
               key=None)
    assert r.status_code == 409 and "no inspection record" in r.json()["error"]["reason"]
    assert r.json()["error"]["clause"] == "replay contract: Table procedures"  # nj-13-69f's
    s.ok("admin", "/equipment/dice/CU-1/inspections", passing_record(), key=None)
    r = s.post("admin", "/equipment/dice/CU-1/custody", {"step": "issued"}, key=None)
    assert r.status_code == 422 and "body.table" in r.json()["error"]["reason"]
    r = s.post("admin", "/equipment/dice/CU-1/custody", {"step": "issued",
                                                         "table": "roulette-1"}, key=None)
    assert r.status_code == 409 and "keeps no dice" in r.json()["error"]["reason"]
    issued = s.ok("admin", "/equipment/dice/CU-1/custody", {"step": "issued",
                                                            "table": "craps-1"}, key=None)
    assert issued["payload"]["clause"] == "N.J.A.C. 13:47-20.25(e)2" and len(issued["hash"]) == 64
    s.ok("admin", "/equipment/dice/CU-1/custody", {"step": "returned"}, key=None)
    s.ok("admin", "/equipment/dice/CU-1/custody", {"step": "cancelled",
                                                   "note": "edges chipped"}, key=None)
    r = s.post("admin", "/equipment/dice/CU-1/custody", {"step": "issued", "table": "craps-1"},
               key=None)
    assert r.status_code == 409 and "cancelled" in r.json()["error"]["reason"]
    steps = [c["payload"]["step"] for c in s.get("dealer", "/equipment/dice/CU-1/custody").json()]
    assert steps == ["received", "issued", "returned", "cancelled"]
    # A cancelled die is in no cup: the stickperson cannot offer it.
    dice = {d["serial"]: d for d in s.get("auditor", "/equipment/dice").json()}
    assert dice["CU-1"]["retired"] is True and dice["CU-1"]["table_id"] is None
    _verify(s)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(e)2")
def test_a_die_in_a_cup_is_not_received_again_and_an_unknown_die_has_no_custody(
        srv: Server) -> None:
    s = srv
    r = s.get("dealer", "/equipment/dice/NO-SUCH-DIE/custody")
    assert r.status_code == 404 and "NO-SUCH-DIE" in r.json()["error"]["reason"]
    # Registered for craps-1's cup: received, and issued there once an inspection passes.
    s.ok("admin", "/equipment/dice", {"serial": "CUP-1", "set_name": "cup",
                                      "table_id": "craps-1"}, key=None)
    steps = [(c["payload"]["step"], c["payload"]["table"])
             for c in s.get("dealer", "/equipment/dice/CUP-1/custody").json()]
    assert steps == [("received", None)]
    s.ok("admin", "/equipment/dice/CUP-1/inspections", passing_record(), key=None)
    steps = [(c["payload"]["step"], c["payload"]["table"])
             for c in s.get("dealer", "/equipment/dice/CUP-1/custody").json()]
    assert steps == [("received", None), ("issued", "craps-1")]
    r = s.post("admin", "/equipment/dice", {"serial": "CUP-2", "set_name": "cup",
                                            "table_id": "roulette-1"}, key=None)
    assert r.status_code == 409 and "keeps no dice" in r.json()["error"]["reason"]
    r = s.post("supervisor", "/equipment/dice/CUP-1/custody", {"step": "received"}, key=None)
    error = r.json()["error"]
    assert r.status_code == 409 and "craps-1's dice cup" in error["reason"]
    assert error["clause"] == "replay contract: Table procedures"  # craps-1 is nj-13-69f
    # The refused step changed nothing: the die is still in the cup, its chain as it was.
    dice = {d["serial"]: d for d in s.get("auditor", "/equipment/dice").json()}
    assert dice["CUP-1"]["table_id"] == "craps-1"
    assert len(s.get("dealer", "/equipment/dice/CUP-1/custody").json()) == 2
    s.ok("admin", "/equipment/dice/CUP-1/custody", {"step": "returned"}, key=None)
    dice = {d["serial"]: d for d in s.get("auditor", "/equipment/dice").json()}
    assert dice["CUP-1"]["table_id"] is None
    _verify(s)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(e)4")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(j)1")
def test_the_procedures_are_events_in_the_tables_chain(srv: Server) -> None:
    s = srv
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "10"})
    if not s.get("auditor", "/tables/craps-1").json()["dice_in_play"]:
        s.ready_dice()
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [2, 2]})
    calls = [e for e in _events(s, "craps-1") if e["type"] == "procedure"]
    assert calls[-1]["name"] == "stick_call" and calls[-1]["detail"].startswith("four, the hard")
    assert calls[-1]["clause"] == "N.J.A.C. 13:47-20.25(e)4"
    r = s.post("admin", "/tables", {"id": "wheel-p", "game": "roulette",
                                    "profile": "nj-casino-night", "entry": "physical"}, key=None)
    assert r.status_code == 201, r.text
    s.ok("dealer", "/tables/wheel-p/no-more-bets")
    s.ok("dealer", "/tables/wheel-p/spin", {"number": 17, "revolutions": 6})
    events = _events(s, "wheel-p")
    kinds = [e["type"] if e["type"] != "procedure" else e["name"] for e in events]
    assert kinds.index("dealer_on_duty") < kinds.index("no_more_bets")
    assert kinds.index("no_more_bets") < kinds.index("ball_spun") < kinds.index("crown")
    spun = next(e for e in events if e["type"] == "procedure" and e["name"] == "ball_spun")
    assert spun["name"] == "ball_spun" and "opposite" in spun["detail"]
    assert "6 revolutions" in spun["detail"]
    _verify(s)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(b)1")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(b)2")
def test_a_wheel_out_of_service_takes_no_spin(srv: Server) -> None:
    """The wheel at a table failed its inspection, and the dealer still entered a spin there,
    settled as any other. A wheel (or ball) out of service is out of play at once: an entered
    spin is refused citing the equipment 13:47-20.32(b) requires, nothing is recorded, and a
    wheel in service placed there takes spins again."""
    s = srv
    r = s.post("admin", "/tables", {"id": "wheel-w", "game": "roulette",
                                    "profile": "nj-casino-night", "entry": "physical"}, key=None)
    assert r.status_code == 201, r.text
    for item, kind in (("wheel-w1", "wheel"), ("ball-w1", "ball")):
        _in_service_at(s, "wheel-w", item, kind)
    s.ok("dealer", "/tables/wheel-w/no-more-bets")
    s.ok("dealer", "/tables/wheel-w/spin", {"number": 17, "revolutions": 6})
    for item, kind, out, clause in (
            ("wheel-w1", "wheel", ("inspections", {"passed": False, "findings": "frets loose"}),
             "N.J.A.C. 13:47-20.32(b)1"),
            ("ball-w1", "ball", ("retirement", {"reason": "chipped"}),
             "N.J.A.C. 13:47-20.32(b)2")):
        s.ok("admin", f"/equipment/items/{item}/{out[0]}", out[1], key=None)
        s.ok("dealer", "/tables/wheel-w/no-more-bets")
        events = len(_events(s, "wheel-w"))
        r = s.post("dealer", "/tables/wheel-w/spin", {"number": 5, "revolutions": 6})
        assert r.status_code == 409, r.text
        error = r.json()["error"]
        assert error["clause"] == clause and f"the {kind} {item}" in error["reason"], error
        assert len(_events(s, "wheel-w")) == events
        if out[0] == "inspections":  # a failed one moved away leaves the table without one
            s.ok("admin", f"/equipment/items/{item}/placing", {"table": None}, key=None)
            r = s.post("dealer", "/tables/wheel-w/spin", {"number": 5, "revolutions": 6})
            assert r.status_code == 409 and "moved away" in r.json()["error"]["reason"], r.text
        # Another of its kind, in service, placed at the table: spins are entered again.
        _in_service_at(s, "wheel-w", f"{kind}-w2", kind)
        s.ok("dealer", "/tables/wheel-w/spin", {"number": 5, "revolutions": 6})
    _verify(s)


def _in_service_at(s: Server, table: str, item: str, kind: str) -> None:
    """``item`` (a ``kind``) registered at ``table``, approved by a second person (not by
    whoever registered it) and passed at inspection."""
    s.ok("admin", "/equipment/items", {"id": item, "type": kind, "table": table,
                                       "description": f"a {kind}"}, key=None)
    alone = s.post("admin", f"/equipment/items/{item}/approvals",
                   {"authority": "Casino Control Commission", "reference": "self"}, key=None)
    assert alone.status_code == 409 and "second person" in alone.json()["error"]["reason"]
    s.ok("supervisor", f"/equipment/items/{item}/approvals",
         {"authority": "Casino Control Commission", "reference": f"W-{item}"}, key=None)
    s.ok("admin", f"/equipment/items/{item}/inspections",
         {"passed": True, "findings": "true and balanced"}, key=None)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1ii")
def test_a_layout_failed_while_a_void_waits_still_takes_its_wagers_off(srv: Server) -> None:
    """A void of an RNG spin waited at the table; the layout failed its inspection meanwhile;
    the withdrawal of its wagers was refused as "anything else" and never came, so after the
    void was withdrawn the table still took five-adjacent bets. It is written whatever waits,
    and the void still waits for its decision."""
    s = srv
    s.ok("admin", "/equipment/items", {"id": "layout-v", "type": "layout", "table": "wheel-v",
                                       "description": "layout with a wheel replica",
                                       "wagers": ["five_adjacent"]}, key=None)
    s.ok("supervisor", "/equipment/items/layout-v/approvals",
         {"authority": "Casino Control Commission", "reference": "L-2026-V"}, key=None)
    s.ok("admin", "/equipment/items/layout-v/inspections",
         {"passed": True, "findings": "as approved"}, key=None)
    r = s.post("admin", "/tables", {"id": "wheel-v", "game": "roulette",
                                    "profile": "nj-casino-night", "entry": "rng"}, key=None)
    assert r.status_code == 201, r.text
    s.ok("bob", "/tables/wheel-v/buy-in", {"amount": "20"})
    s.ok("bob", "/tables/wheel-v/bets", {"wager": "red", "amount": "1"})
    s.ok("dealer", "/tables/wheel-v/no-more-bets")
    s.ok("dealer", "/tables/wheel-v/spin", {})
    assert s.post("supervisor", "/tables/wheel-v/void",
                  {"reason": "ball left the wheel"}).status_code == 202
    s.ok("admin", "/equipment/items/layout-v/inspections",
         {"passed": False, "findings": "replica worn through"}, key=None)
    kinds = [e["type"] for e in _events(s, "wheel-v")]
    assert kinds[-2:] == ["void_asked", "layout_withdrawn"], kinds[-4:]
    s.ok("floor", "/tables/wheel-v/void/approve")  # the void still waited for its decision
    assert "layout-v" in _five_adjacent_refused(s, "wheel-v")
    _verify(s)


# --- the attack leftovers -------------------------------------------------------------------

def test_unknown_query_parameters_are_named(srv: Server) -> None:
    s = srv
    for path, name in (("/tables/craps-1/events?after=abc", "after"),
                       ("/tables/craps-1/events?since=0&after=5", "after"),
                       ("/reports/event?from=abc", "from"),
                       ("/reports/tables/craps-1?from=abc", "from")):
        r = s.get("auditor", path)
        assert r.status_code == 422, path
        assert r.json()["error"]["reason"].startswith(f"query.{name}:"), r.text
    assert s.get("auditor", "/tables/craps-1/events?since=abc").status_code == 422
    assert s.get("auditor", "/tables/craps-1/events?since=1&limit=2").status_code == 200


def test_a_stream_of_an_unknown_table_closes_with_a_reason(srv: Server) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    url = srv.base.replace("http", "ws") + "/tables/no-such-table/stream"
    with connect(url, open_timeout=10) as ws:
        started = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)  # no first message sent: the server does not wait for it
        assert time.monotonic() - started < 5
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    assert "no table" in closed.value.rcvd.reason


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(b)")
def test_a_coupon_issued_for_a_table_names_it(srv: Server) -> None:
    s = srv
    made = s.ok("supervisor", "/coupons", {"player": "alice", "face_value": "5",
                                           "table": "craps-1"})
    assert made["table"] == "craps-1"
    assert s.get("supervisor", f"/coupons/{made['serial']}").json()["table"] == "craps-1"
    assert _new_table(s, "coupon-2").status_code == 201
    s.ok("alice", "/tables/coupon-2/buy-in", {"amount": "10"})
    r = s.post("alice", "/tables/coupon-2/bets", {"wager": "pass", "amount": "5",
                                                  "coupon": made["serial"]})
    assert r.status_code == 409 and "issued for table craps-1" in r.json()["error"]["reason"]
    assert s.get("alice", "/tables/coupon-2").json()["players"]["alice"]["chips"] == "10.00"


def test_records_in_the_house_chain_are_tamper_evident(srv: Server, tmp_path: Path) -> None:
    """The last test of the module: it edits the ledger behind the server's back."""
    s = srv
    records = s.get("auditor", "/house/records").json()
    assert records and all(len(r["hash"]) == 64 for r in records)
    import sqlalchemy as sa

    url = s.database or f"sqlite:///{s.data_dir / 'croupier.db'}"
    engine = sa.create_engine(url)
    target = records[len(records) // 2]
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE house_records SET payload = :p WHERE seq = :s"),
                     {"p": json.dumps({**target["payload"], "forged": True}), "s": target["seq"]})
    engine.dispose()
    report = s.get("auditor", "/audit/verify").json()
    assert not report["ok"]
    assert report["first"]["where"] == "house records" and report["first"]["seq"] == target["seq"]
