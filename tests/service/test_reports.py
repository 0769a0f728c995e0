"""The end-of-night report computed from ledger events, in process (no server, no database)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from croupier.service.reports import event_report, report_csv, report_html, table_report

EDGES = {"pass": Fraction(7, 495), "place_win:6": Fraction(1, 66), "field": Fraction(1, 36)}


def _night() -> list[dict[str, Any]]:
    return [
        {"seq": 1, "type": "chips_in", "player": "alice", "amount": "200.00"},
        {"seq": 2, "type": "chips_in", "player": "bob", "amount": "100.00"},
        {"seq": 3, "type": "bet", "player": "alice", "wager": "buy:4", "amount": "20.00",
         "commission": "1.00"},
        {"seq": 4, "type": "settle", "player": "alice", "wager": "pass", "stake": "10.00",
         "result": "win", "paid": "10.00", "taken": "0.00", "returned": "10.00",
         "commission": "0.00"},
        {"seq": 5, "type": "settle", "player": "bob", "wager": "place_win:6", "stake": "12.00",
         "result": "lose", "paid": "0.00", "taken": "12.00", "returned": "0.00",
         "commission": "0.00"},
        {"seq": 6, "type": "settle", "player": "bob", "wager": "field", "stake": "300.00",
         "result": "win", "paid": "600.00", "taken": "0.00", "returned": "300.00",
         "commission": "0.00"},
        {"seq": 7, "type": "void", "decision": 3, "seqs": [6], "reason": "a die left the table",
         "by": "supervisor"},
        {"seq": 8, "type": "adjust", "player": "bob", "amount": "5.00",
         "reason": "short pay on round 2", "by": "supervisor"},
        {"seq": 9, "type": "settle", "player": "alice", "wager": "field", "stake": "500.00",
         "result": "win", "paid": "1000.00", "taken": "0.00", "returned": "500.00",
         "commission": "0.00"},
    ]


def test_figures_of_one_table() -> None:
    r = table_report("craps-1", _night(), EDGES)
    assert r.drop == Decimal("300.00")
    # commission 1 + pass -10 + place +12 (field of seq 6 voided) - adjustment 5 - field 1000
    assert r.win == Decimal("-1002.00")
    assert r.hold == Fraction(-1002, 300)
    assert r.handle == Decimal("522.00")
    assert r.theoretical == 10 * Fraction(7, 495) + 12 * Fraction(1, 66) + 500 * Fraction(1, 36)
    assert [(b.seq, b.paid) for b in r.big_wins] == [(9, Decimal("1000.00"))]  # 6 was voided
    assert r.voids == [{"seq": 7, "round": 3, "reason": "a die left the table",
                        "by": "supervisor", "approved_by": None, "kind": "result corrected",
                        "events": 1}]
    assert [a["amount"] for a in r.adjustments] == [Decimal("5.00")]


def test_event_adds_the_tables_and_renders_csv_and_html() -> None:
    craps = table_report("craps-1", _night(), EDGES)
    roulette = table_report("roulette-1", [
        {"seq": 1, "type": "chips_in", "player": "carol", "amount": "50.00"},
        {"seq": 2, "type": "settle", "player": "carol", "wager": "red", "stake": "5.00",
         "result": "lose", "paid": "0.00", "taken": "5.00", "commission": "0.00"}],
        {"red": Fraction(1, 19)})
    total = event_report([craps, roulette])
    assert total.drop == Decimal("350.00") and total.win == Decimal("-997.00")
    assert total.theoretical == craps.theoretical + 5 * Fraction(1, 19)
    lines = list(csv.reader(io.StringIO(report_csv([craps, roulette]))))
    assert lines[0][:4] == ["table", "drop", "win", "hold"]
    assert lines[2] == ["roulette-1", "50.00", "5.00", "10.00%", "5.00", "0.26", "4.74", "0",
                        "0", "0"]
    assert lines[3][0] == "all tables" and lines[3][1] == "350.00"
    page = report_html([craps, roulette])
    assert "<td>all tables</td>" in page and "a die left the table" in page
    assert "short pay on round 2" in page and "paid 1000.00" in page


def test_no_drop_has_no_hold() -> None:
    assert table_report("t", [], EDGES).hold is None


amounts = st.integers(min_value=1, max_value=100_000).map(lambda c: Decimal(c) / 100)


@given(st.lists(st.tuples(amounts, st.booleans(), st.booleans()), max_size=20))
def test_voided_settlements_count_for_nothing(settles: list[tuple[Decimal, bool, bool]]) -> None:
    """A void removes its events from every figure: the report equals one without them."""
    rows: list[dict[str, Any]] = []
    kept: list[dict[str, Any]] = []
    voided: list[int] = []
    for seq, (stake, won, void) in enumerate(settles, start=1):
        row = {"seq": seq, "type": "settle", "player": "p", "wager": "field",
               "stake": f"{stake:.2f}", "result": "win" if won else "lose",
               "paid": f"{stake:.2f}" if won else "0.00", "taken": "0.00" if won else f"{stake:.2f}",
               "commission": "0.00"}
        rows.append(row)
        if void:
            voided.append(seq)
        else:
            kept.append(row)
    rows.append({"seq": len(settles) + 1, "type": "void", "decision": 1, "seqs": voided,
                 "reason": "test", "by": "s"})
    with_void = table_report("t", rows, EDGES, big_win=Decimal("1000000"))
    without = table_report("t", kept, EDGES, big_win=Decimal("1000000"))
    assert (with_void.win, with_void.handle, with_void.theoretical) == (
        without.win, without.handle, without.theoretical)
