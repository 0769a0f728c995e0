"""Records that decide money or fairness cannot be edited in the database to change a decision:
each attack of the independent review, over real HTTP, on SQLite and PostgreSQL. A redeemed
coupon set back to "issued", a failed inspection edited to a pass, an RNG table's entry mode
deleted, a round's outcome and balances rewritten: the server still refuses, and
``GET /audit/verify`` names the edit. And the equipment follows play: no die reaches a cup
uninspected, a failed inspection takes it out of play at once. The app runs in process over
a ledger of its own for each test (what is attacked is the database, not the process)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.service.equipment import passing_record
from serverkit import PASSWORD, fresh_schema, postgres_url

from .appkit import App, demo_app
from .conftest import BACKENDS

COUPON_CLAUSE = "N.J.A.C. 13:69F-1.3(b)"
SPEC_CLAUSE = "N.J.A.C. 13:47-20.25(b)2"


@pytest.fixture(params=BACKENDS)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[App]:
    """A fresh demo ledger on SQLite or PostgreSQL (an empty schema), the app over it."""
    database = fresh_schema(postgres_url("")) if request.param == "postgresql" else None
    with demo_app(tmp_path, database=database) as app:
        yield app


def _sql(s: App, statement: str, **params: Any) -> int:
    """Run ``statement`` against the server's database behind its back (an attacker with
    write access to the database); the rows it touched. A table that no longer exists
    touches nothing."""
    url = s.database or f"sqlite:///{s.data_dir / 'croupier.db'}"
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            name = statement.split()[2] if statement.startswith(("DELETE", "UPDATE")) \
                else ""
            name = statement.split()[1] if statement.startswith("UPDATE") else name
            if name and not sa.inspect(conn).has_table(name):
                return 0
            return int(conn.execute(sa.text(statement), params).rowcount)
    finally:
        engine.dispose()


@pytest.mark.clause(COUPON_CLAUSE)
def test_a_redeemed_coupon_set_back_to_issued_is_not_redeemed_again(server: App) -> None:
    s = server
    s.ok("admin", "/users", {"username": "cash", "password": PASSWORD, "role": "cashier"},
         key=None)
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    serial = s.ok("cash", "/coupons", {"player": "alice", "face_value": "10",
                                       "wagers": ["pass"]})["serial"]
    s.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10", "coupon": serial})
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})  # a natural: the pass wins
    assert s.audit()["ok"]
    assert _sql(s, "UPDATE coupons SET status = 'issued', table_id = NULL, round = NULL, "
                "closed_by = NULL, closed_at = NULL WHERE serial = :serial", serial=serial) == 1
    r = s.post("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10",
                                                 "coupon": serial})
    assert r.status_code == 409, r.text
    assert r.json()["error"]["clause"] == COUPON_CLAUSE
    assert "redeemed" in r.json()["error"]["reason"]
    report = s.audit()
    assert not report["ok"]
    named = [f for f in report["findings"] if f["where"] == f"coupon {serial}"]
    assert named and "status: the row holds 'issued', the chain gives 'redeemed'" in \
        named[0]["what"], report["findings"]


@pytest.mark.clause(SPEC_CLAUSE)
def test_a_failed_inspection_edited_to_a_pass_is_not_offered(server: App) -> None:
    s = server
    failing = {**passing_record(), "sides_inch": ["0.740", "0.765", "0.765"]}
    s.ok("admin", "/equipment/dice/NJ-0003/inspections", failing, key=None)
    # Behind the server's back: the failure rewritten as a pass, the die put back in the cup.
    assert _sql(s, "UPDATE inspections SET passed = :t, failures = '[]' WHERE serial = "
                "'NJ-0003'", t=True) >= 1
    _sql(s, "UPDATE dice SET table_id = 'craps-1' WHERE serial = 'NJ-0003'")
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
    r = s.post("dealer", "/tables/craps-1/dice/offer",
               {"serials": [f"NJ-{i:04d}" for i in range(1, 6)]})
    assert r.status_code == 409, r.text
    assert "NJ-0003" in r.json()["error"]["reason"]
    listed = {d["serial"]: d for d in s.get("auditor", "/equipment/dice").json()}
    assert listed["NJ-0003"]["in_spec"] is False
    report = s.audit()
    assert not report["ok"]
    wheres = {f["where"] for f in report["findings"]}
    assert "die NJ-0003" in wheres, report["findings"]


def test_an_inspections_measurements_edited_are_named_by_the_audit(server: App) -> None:
    s = server
    s.ok("admin", "/equipment/dice/NJ-0003/inspections", passing_record(), key=None)
    assert s.audit()["ok"]
    # Behind the server's back: the measurements of the passed inspection rewritten.
    rows = _sql(s, "UPDATE inspections SET record = replace(record, '0.765', '0.500') "
                "WHERE serial = 'NJ-0003'")
    assert rows >= 1
    report = s.audit()
    assert not report["ok"]
    found = [f for f in report["findings"] if f["where"] == "die NJ-0003"]
    assert found and "measurements" in found[0]["what"], report["findings"]


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(a)")
def test_an_rng_table_stays_rng_when_its_controls_row_is_deleted(server: App) -> None:
    s = server
    s.ok("admin", "/tables", {"id": "rng-1", "game": "craps", "profile": "nj-13-69f",
                              "entry": "rng"}, key=None)
    s.dice_in_play("rng-1")
    # The attack of the review: the row that made the table an RNG table, deleted.
    _sql(s, "DELETE FROM table_controls WHERE table_id = 'rng-1'")
    assert s.get("auditor", "/tables/rng-1").json()["entry"] == "rng"
    r = s.post("dealer", "/tables/rng-1/roll", {"dice": [6, 6]})
    assert r.status_code == 409 and "RNG table" in r.json()["error"]["reason"], r.text
    assert "draw" in [e["type"] for e in s.ok("dealer", "/tables/rng-1/roll", {})["events"]]
    assert s.audit()["ok"]


def test_a_rewritten_round_is_named_by_the_audit(server: App) -> None:
    s = server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    s.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10"})
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})
    recall = s.get("auditor", "/tables/craps-1/rounds/1").json()
    assert recall["outcome"]["dice"] == [3, 4]
    # 13:69F-1.3 pays a pass wager even money: 100 - 10 staked + 20 back.
    assert recall["balances"]["after"]["alice"] == {"chips": "110.00", "on_table": "0.00"}
    assert s.audit()["ok"]
    # Recall made to show dice that never rolled and a balance that never was.
    outcome = {**recall["outcome"], "dice": [6, 6], "total": 12}
    assert _sql(s, "UPDATE rounds SET outcome = :o, after = :a WHERE table_id = 'craps-1' "
                "AND round = 1", o=json.dumps(outcome),
                a=json.dumps({"alice": {"chips": "510.00", "on_table": "0.00"}})) == 1
    report = s.audit()
    assert not report["ok"]
    what = _found_at(report, "table craps-1")
    assert "round 1: recall shows the outcome" in what, report["findings"]
    assert "round 1: recall shows the balances after it" in what
    # The draw is compared too.
    assert _sql(s, "UPDATE rounds SET outcome = :o, after = :a, draw = '{}' WHERE table_id = "
                "'craps-1' AND round = 1", o=json.dumps(recall["outcome"]),
                a=json.dumps(recall["balances"]["after"])) == 1
    report = s.audit()
    what = _found_at(report, "table craps-1")
    assert "round 1: recall shows the draw {}" in what, report["findings"]
    assert "recall shows the outcome" not in what


def test_a_rounds_wagers_and_balances_before_rewritten_are_named_by_the_audit(
        server: App) -> None:
    s = server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    s.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10"})
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})
    recall = s.get("auditor", "/tables/craps-1/rounds/1").json()
    # The roll found alice's $10 pass wager in action and $90 in chips.
    assert recall["balances"]["before"]["alice"] == {"chips": "90.00", "on_table": "10.00"}
    layout = recall["wagers_in_action"]
    assert [(w["player"], w["wager"]) for w in layout] == [("alice", "pass")]
    assert s.audit()["ok"]
    # Recall made to show a $500 wager in action that was never made, and a richer alice.
    forged = [{**layout[0], "stake": "500.00"}]
    assert _sql(s, "UPDATE rounds SET layout = :l, before = :b WHERE table_id = 'craps-1' "
                "AND round = 1", l=json.dumps(forged),
                b=json.dumps({"alice": {"chips": "990.00", "on_table": "10.00"}})) == 1
    report = s.audit()
    assert not report["ok"]
    what = _found_at(report, "table craps-1")
    assert "round 1: recall shows the wagers in action" in what, report["findings"]
    assert "round 1: recall shows the balances before it" in what
    assert "recall shows the outcome" not in what


@pytest.mark.clause(SPEC_CLAUSE)
def test_a_die_is_issued_only_after_a_passed_inspection(server: App) -> None:
    s = server
    s.ok("admin", "/equipment/dice", {"serial": "N-1", "set_name": "n", "table_id": "craps-1"},
         key=None)
    steps = [r["payload"]["step"] for r in s.get("auditor", "/equipment/dice/N-1/custody").json()]
    assert steps == ["received"]  # not in the cup: it has not been inspected
    failing = {**passing_record(), "spot_depths_inch": ["0.0200", "0.0210"]}
    s.ok("admin", "/equipment/dice/N-1/inspections", failing, key=None)
    steps = [r["payload"]["step"] for r in s.get("auditor", "/equipment/dice/N-1/custody").json()]
    assert steps == ["received"]
    s.ok("admin", "/equipment/dice/N-1/inspections", passing_record(), key=None)
    custody = s.get("auditor", "/equipment/dice/N-1/custody").json()
    assert [(r["payload"]["step"], r["payload"]["table"]) for r in custody] == [
        ("received", None), ("issued", "craps-1")]
    assert s.audit()["ok"]


@pytest.mark.clause(SPEC_CLAUSE)
def test_a_failed_inspection_takes_a_die_out_of_play_at_once(server: App) -> None:
    s = server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    assert s.get("auditor", "/tables/craps-1").json()["dice_in_play"] == ["NJ-0001", "NJ-0002"]
    failing = {**passing_record(), "weight_balanced": False}
    done = s.ok("admin", "/equipment/dice/NJ-0001/inspections", failing, key=None)
    assert done["passed"] is False
    state = s.get("auditor", "/tables/craps-1").json()
    assert "NJ-0001" not in state["dice_in_play"]
    r = s.post("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})
    assert r.status_code == 409, r.text
    steps = [x["payload"]["step"] for x in s.get("auditor", "/equipment/dice/NJ-0001/custody").json()]
    assert steps[-1] == "returned"
    # New dice without it are offered and play goes on.
    r = s.post("dealer", "/tables/craps-1/dice/offer",
               {"serials": [f"NJ-{i:04d}" for i in range(1, 6)]})
    assert r.status_code == 409 and "NJ-0001" in r.json()["error"]["reason"]
    s.ok("dealer", "/tables/craps-1/dice/offer",
         {"serials": [f"NJ-{i:04d}" for i in range(2, 7)]})
    s.ok("dealer", "/tables/craps-1/dice/select", {"serials": ["NJ-0002", "NJ-0003"]})
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})
    assert s.audit()["ok"]


def _found_at(report: dict[str, Any], where: str) -> str:
    """What the audit found at ``where``, its findings joined."""
    return " | ".join(f["what"] for f in report["findings"] if f["where"] == where)
