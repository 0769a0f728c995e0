"""The end-of-night report, in process: who may read it, and its figures against a small
night worked by hand (JSON, CSV and the printable HTML)."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest

from .appkit import App

# Exact house edges at nj-13-69f's minimum pays: the pass line 7/495; the field (2 and 12 pay
# 2 to 1: (2 + 2 + 14 - 20) / 36 lost per unit) 1/18; any seven (4 to 1, 1 in 6) 1/6.
PASS, FIELD, ANY_SEVEN = Fraction(7, 495), Fraction(1, 18), Fraction(1, 6)


def _night(s: App) -> None:
    """Round 1: alice's pass 10 wins on a 7, bob's field 5 loses. Round 2: alice's any seven 10
    loses on a 2, bob's field 5 is paid 2 to 1 on the 2."""
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "200"})
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    s.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10"})
    s.ok("bob", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})
    s.ok("alice", "/tables/craps-1/bets", {"wager": "any_seven", "amount": "10"})
    s.ok("bob", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [1, 1]})


def test_report_of_a_hand_worked_night(app_ledger: App) -> None:
    s = app_ledger
    _night(s)
    # Players, dealers and cashiers do not read the house's figures.
    for who in ("alice", "dealer"):
        r = s.get(who, "/reports/tables/craps-1")
        assert r.status_code == 403, r.text
    assert s.get("auditor", "/reports/tables/nowhere").status_code == 404
    assert s.get("admin", "/reports/tables/craps-1?format=pdf").status_code == 422
    assert s.get("admin", "/reports/tables/craps-1?big_win=lots").status_code == 422
    doc = s.get("supervisor", "/reports/tables/craps-1").json()
    table = doc["tables"][0]
    # drop 300; win: -10 (pass) + 5 (field) + 10 (any seven) - 10 (field paid 2 to 1) = -5.
    assert table["drop"] == "300.00" and table["win"] == "-5.00"
    assert Fraction(table["hold"]) == Fraction(-5, 300)
    assert table["handle"] == "30.00"
    theoretical = 10 * PASS + 5 * FIELD + 10 * ANY_SEVEN + 5 * FIELD
    assert theoretical == Fraction(26, 11)
    assert Fraction(table["theoretical"]) == theoretical
    assert table["big_wins"] == [] and table["voids"] == [] and table["adjustments"] == []
    # A big win at a low threshold: bob's field paid 10.
    low = s.get("admin", "/reports/tables/craps-1?big_win=10").json()["tables"][0]
    assert [(b["player"], b["wager"], b["paid"]) for b in low["big_wins"]] == [
        ("alice", "pass", "10.00"), ("bob", "field", "10.00")]

    lines = list(csv.reader(io.StringIO(s.get("auditor", "/reports/tables/craps-1?format=csv")
                                        .text)))
    assert lines[0][:3] == ["table", "drop", "win"]
    # theoretical 26/11 = 2.36; win less theoretical -5 - 2.36 = -7.36
    assert lines[1] == ["craps-1", "300.00", "-5.00", "-1.67%", "30.00", "2.36", "-7.36", "0",
                        "0", "0"]
    page = s.get("admin", "/reports/tables/craps-1?format=html")
    assert page.headers["content-type"].startswith("text/html")
    assert "<td>craps-1</td><td>300.00</td><td>-5.00</td><td>-1.67%</td>" in page.text


def test_event_report_adds_every_table(sqlite_app: App) -> None:
    s = sqlite_app
    _night(s)
    s.ok("alice", "/tables/roulette-1/buy-in", {"amount": "50"})
    s.ok("alice", "/tables/roulette-1/bets", {"wager": "red", "amount": "19"})
    s.ok("dealer", "/tables/roulette-1/no-more-bets")
    s.ok("dealer", "/tables/roulette-1/spin", {"number": 2})  # 2 is black: red loses
    r = s.get("alice", "/reports/event")
    assert r.status_code == 403
    doc = s.get("auditor", "/reports/event").json()
    assert [t["table"] for t in doc["tables"]] == ["craps-1", "roulette-1"]
    roulette = doc["tables"][1]
    # red on a double-zero wheel: 18 in 38 to win 1 to 1, edge 2/38 = 1/19; 19 x 1/19 = 1.
    assert roulette["win"] == "19.00" and Fraction(roulette["theoretical"]) == 1
    assert doc["event"]["drop"] == "350.00" and doc["event"]["win"] == "14.00"
    assert Fraction(doc["event"]["theoretical"]) == Fraction(26, 11) + 1
    lines = list(csv.reader(io.StringIO(s.get("admin", "/reports/event?format=csv").text)))
    assert [line[0] for line in lines] == ["table", "craps-1", "roulette-1", "all tables"]


@pytest.mark.parametrize("path", ["/reports/event", "/reports/tables/craps-1"])
def test_report_needs_a_login(sqlite_app: App, path: str) -> None:
    assert sqlite_app.client.get(path).status_code == 401
