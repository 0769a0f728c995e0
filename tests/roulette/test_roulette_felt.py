"""The roulette felt as the table offers it (roulette/felt.py): every spot drawn is a wager the
table takes, covering the numbers the table says it covers; the layout's boxes and colours are
the wheel's; a wager with no line in the felt table is drawn among the "more bets"."""

from __future__ import annotations

from decimal import Decimal

import pytest

from croupier.roulette import felt
from croupier.roulette.reading import read_action
from croupier.roulette.table import PlaceBet, RouletteTable, TableConfig
from croupier.roulette.wagers import WAGERS, RouletteWager
from croupier.roulette.wheel import BLACK, DOUBLE_ZERO, RED
from croupier.rules import load_profile

WHEELS = ("double-zero", "single-zero", "double-zero-as-single")


def _table(wheel: str) -> RouletteTable:
    return RouletteTable.open("nj-casino-night", TableConfig(wheel=wheel), {"ann": Decimal(1000)})


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)")
@pytest.mark.parametrize("wheel", WHEELS)
def test_each_spot_drawn_is_a_wager_the_table_takes_on_what_it_covers(wheel: str) -> None:
    table = _table(wheel)
    offer = table.offer()
    assert offer["spots"]
    for key, spot in offer["spots"].items():
        fields = {k: v for k, v in spot["spec"].items() if k != "wager"}
        bet = read_action({"bet": spot["spec"]["wager"], "player": "ann", "amount": "5",
                           **fields}, "a", ["ann"], wheel)
        assert isinstance(bet, PlaceBet) and WAGERS[bet.wager].key(bet.qualifier) == key
        if set(spot["covers"]) - table.wheel.in_play:
            continue  # drawn on the physical layout, refused while 00 is out of play ((i)1)
        made = table.check_bet(bet)[0]
        assert sorted(map(str, made.numbers)) == sorted(map(str, spot["covers"])), key


def test_the_layout_and_its_outside_wagers() -> None:
    offer = _table("double-zero").offer()
    colours = {str(b["pocket"]): b["colour"] for b in offer["boxes"]}
    assert {int(p) for p, c in colours.items() if c == "red"} == set(RED)
    assert {int(p) for p, c in colours.items() if c == "black"} == set(BLACK)
    assert {p for p, c in colours.items() if c == "green"} == {"0", "00"}
    spots = offer["spots"]
    assert [spots[f"dozen:{i}"]["covers"][0] for i in (1, 2, 3)] == [1, 13, 25]
    assert (spots["dozen:2"]["name"], spots["dozen:2"]["label"]) == ("Second dozen", "2nd 12")
    assert spots["column:1"]["covers"][:3] == [1, 4, 7] and spots["column:1"]["label"] == "2 to 1"
    assert spots["five_adjacent:17"]["covers"] == [20, 32, 17, 5, 22]  # in the wheel's order
    assert [offer["defs"][w]["felt"]["slot"] for w in ("low", "even", "red", "black", "odd", "high")] \
        == [0, 1, 2, 3, 4, 5]
    # Wagers taken only on a layout approved for them name the clause that says so.
    rules = load_profile("nj-casino-night").roulette
    assert rules is not None and rules.approved_layout_clauses
    assert {w: d["approved_layout"] for w, d in offer["defs"].items() if d["approved_layout"]} \
        == dict(rules.approved_layout_clauses)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)2")
def test_the_wagers_covering_a_number_read_smallest_first() -> None:
    offer = _table("double-zero").offer()
    grid = {w for w, d in offer["defs"].items() if d["felt"]["area"] == "grid"}
    on_17 = [k for k, s in offer["spots"].items() if s["wager"] in grid and 17 in s["covers"]]
    sizes = [len(offer["spots"][k]["covers"]) for k in on_17]
    assert sizes == sorted(sizes) and on_17[0] == "straight:17"
    # Two splits, a street, four corners and two lines of six besides the straight: (e)2-6.
    assert sizes == [1, 2, 2, 2, 2, 3, 4, 4, 4, 4, 6, 6]


def test_a_wager_with_no_line_is_among_the_more_bets(monkeypatch: pytest.MonkeyPatch) -> None:
    zeros = RouletteWager("zeros", "Both zeros", None, lambda _q, _w: frozenset({0, "00"}), "split")
    monkeypatch.setitem(WAGERS, "zeros", zeros)
    described = felt.described(DOUBLE_ZERO, ["red", "zeros"], {"zeros": "test"},
                               {"split": "17 to 1"})
    assert described["defs"]["zeros"]["felt"]["area"] == "more"
    assert described["spots"]["zeros"] == {
        "key": "zeros", "wager": "zeros", "spec": {"wager": "zeros"}, "name": "Both zeros",
        "covers": [0, "00"], "pay": "17 to 1"}
