"""Hand-worked cases of rules the three profiles share, played under each profile, so the
traceability matrix sees each profile's own clause exercised (the acceptance battery plays
many of them under nj-13-69f only). Bankrolls start at 100; stakes are 10."""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier.rules import PROFILE_IDS
from croupier.transcript import replay_text


def play(rules: str, actions: list[dict[str, Any]], game: str = "craps",
         **options: Any) -> dict[str, Any]:
    doc = {"game": game, "rules": rules, "players": {"a": "100"}, "actions": actions,
           "options": options}
    result: dict[str, Any] = replay_text(json.dumps(doc))
    return result


def bet(wager: str, amount: str = "10", **qualifier: Any) -> dict[str, Any]:
    return {"player": "a", "bet": wager, "amount": amount, **qualifier}


def roll(d1: int, d2: int) -> dict[str, Any]:
    return {"roll": [d1, d2]}


def money(result: dict[str, Any]) -> tuple[str, str]:
    a = result["players"]["a"]
    return str(a["bankroll"]), str(a["on_table"])


POINT_4 = roll(2, 2)

COME_CASES = [
    # (name, actions, bankroll, on_table)
    ("come wins on a natural", [POINT_4, bet("come"), roll(3, 4)], "110.00", "0.00"),
    ("come wins on 11", [POINT_4, bet("come"), roll(5, 6)], "110.00", "0.00"),
    ("come loses on craps", [POINT_4, bet("come"), roll(1, 1)], "90.00", "0.00"),
    ("come travels to 6", [POINT_4, bet("come"), roll(3, 3)], "90.00", "10.00"),
    ("come point made", [POINT_4, bet("come"), roll(3, 3), roll(4, 2)], "110.00", "0.00"),
    ("come point sevens out", [POINT_4, bet("come"), roll(3, 3), roll(3, 4)], "90.00", "0.00"),
]
DONT_COME_CASES = [
    ("don't come wins on 3", [POINT_4, bet("dont_come"), roll(1, 2)], "110.00", "0.00"),
    ("don't come loses on 11", [POINT_4, bet("dont_come"), roll(5, 6)], "90.00", "0.00"),
    ("don't come wins on the seven", [POINT_4, bet("dont_come"), roll(3, 3), roll(3, 4)],
     "110.00", "0.00"),
    ("don't come loses on its number", [POINT_4, bet("dont_come"), roll(3, 3), roll(5, 1)],
     "90.00", "0.00"),
]
DONT_PASS_CASES = [
    ("don't pass loses on 7", [bet("dont_pass"), roll(3, 4)], "90.00", "0.00"),
    ("don't pass loses on 11", [bet("dont_pass"), roll(5, 6)], "90.00", "0.00"),
    ("don't pass loses when the point is made", [bet("dont_pass"), roll(3, 3), roll(5, 1)],
     "90.00", "0.00"),
]


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1iii", "N.J.A.C. 19:47-1.2(a)3i", "N.J.A.C. 19:47-1.2(a)3ii",
                    "N.J.A.C. 13:69F-1.2(a)3", "N.J.A.C. 13:47-20.25(g)3")
@pytest.mark.parametrize("rules", PROFILE_IDS)
@pytest.mark.parametrize(("name", "actions", "bank", "down"), COME_CASES)
def test_come_bets_under_every_profile(rules: str, name: str, actions: list[dict[str, Any]],
                                       bank: str, down: str) -> None:
    result = play(rules, actions)
    assert result["rejected"] == [], name
    assert money(result) == (bank, down), name


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1iv", "N.J.A.C. 19:47-1.2(a)4i", "N.J.A.C. 19:47-1.2(a)4ii",
                    "N.J.A.C. 13:69F-1.2(a)4")
@pytest.mark.parametrize("rules", PROFILE_IDS)
@pytest.mark.parametrize(("name", "actions", "bank", "down"), DONT_COME_CASES)
def test_dont_come_bets_under_every_profile(rules: str, name: str,
                                            actions: list[dict[str, Any]], bank: str,
                                            down: str) -> None:
    result = play(rules, actions)
    assert result["rejected"] == [], name
    assert money(result) == (bank, down), name


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1ii", "N.J.A.C. 19:47-1.2(a)2ii", "N.J.A.C. 13:69F-1.2(a)2",
                    "N.J.A.C. 13:47-20.25(g)4")
@pytest.mark.parametrize("rules", PROFILE_IDS)
@pytest.mark.parametrize(("name", "actions", "bank", "down"), DONT_PASS_CASES)
def test_dont_pass_loses_under_every_profile(rules: str, name: str,
                                             actions: list[dict[str, Any]], bank: str,
                                             down: str) -> None:
    result = play(rules, actions)
    assert money(result) == (bank, down), name


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1i", "N.J.A.C. 13:47-20.25(h)1ii", "N.J.A.C. 19:47-1.2(a)1",
                    "N.J.A.C. 19:47-1.2(a)2", "N.J.A.C. 13:69F-1.2(a)1", "N.J.A.C. 13:69F-1.2(a)2")
@pytest.mark.parametrize("rules", PROFILE_IDS)
@pytest.mark.parametrize("wager", ["pass", "dont_pass"])
def test_line_bets_only_before_a_come_out_roll(rules: str, wager: str) -> None:
    """Pass and don't pass are made "immediately prior to the come out roll": with point 4
    on, the bet is refused and nothing changes."""
    result = play(rules, [POINT_4, bet(wager)])
    assert [r["index"] for r in result["rejected"]] == [1]
    assert money(result) == ("100.00", "0.00")


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1iii", "N.J.A.C. 13:47-20.25(h)1iv", "N.J.A.C. 19:47-1.2(a)3",
                    "N.J.A.C. 19:47-1.2(a)4", "N.J.A.C. 13:69F-1.2(a)3", "N.J.A.C. 13:69F-1.2(a)4")
@pytest.mark.parametrize("rules", PROFILE_IDS)
@pytest.mark.parametrize("wager", ["come", "dont_come"])
def test_come_bets_only_after_the_come_out_roll(rules: str, wager: str) -> None:
    """Come and don't come are made "at any time after the come out roll": on a come-out
    they are refused; with a point on they are taken."""
    refused = play(rules, [bet(wager)])
    assert [r["index"] for r in refused["rejected"]] == [0]
    assert money(refused) == ("100.00", "0.00")
    assert money(play(rules, [POINT_4, bet(wager)])) == ("90.00", "10.00")


@pytest.mark.clause("N.J.A.C. 13:47-20.25(a)", "N.J.A.C. 13:69F-1.1", "N.J.A.C. 13:47-20.25(g)5")
@pytest.mark.parametrize("rules", PROFILE_IDS)
def test_come_out_point_and_come_out_roll(rules: str) -> None:
    """A come-out 4 is the point; the roll after the pass-line decision is a come-out again."""
    assert play(rules, [roll(1, 3)])["state"]["point"] == 4
    assert play(rules, [roll(1, 3), roll(2, 2)])["state"]["point"] is None
    assert play(rules, [roll(1, 1)])["state"]["point"] is None  # a crap: no point


@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2", "N.J.A.C. 19:47-1.4(e)", "N.J.A.C. 13:69F-1.4(f)")
@pytest.mark.parametrize(("rules", "clause"), [
    ("nj-casino-night", "N.J.A.C. 13:47-20.25(i)2"),
    ("nj-19-47", "N.J.A.C. 19:47-1.4(e)"),
    ("nj-13-69f", "N.J.A.C. 13:69F-1.4(f)"),
])
def test_a_wager_that_cannot_be_paid_in_the_unit_is_refused(rules: str, clause: str) -> None:
    """Place 6 to win $5 at 7 to 6 would win 5.83: refused, citing the profile's clause."""
    result = play(rules, [bet("place_win", "5", number=6)])
    assert [r["clause"] for r in result["rejected"]] == [clause]
    assert money(result) == ("100.00", "0.00")


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)11-14", "N.J.A.C. 13:47-20.32(c)3")
@pytest.mark.parametrize(("spin", "bank"), [(7, "100.00"), (20, "100.00"), (0, "60.00")])
def test_odd_even_low_high(spin: int, bank: str) -> None:
    """$10 each on odd, even, 1 to 18 and 19 to 36: a 7 wins odd and low (100 - 40 + 40),
    a 20 even and high; a 0 loses all four (the entire wager, the default zero rule)."""
    actions = [bet(w) for w in ("odd", "even", "low", "high")] + [{"spin": spin}]
    result = play("nj-casino-night", actions, "roulette")
    assert result["rejected"] == []
    assert money(result) == (bank, "0.00")


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)3", "N.J.A.C. 13:47-20.32(e)3i", "N.J.A.C. 13:47-20.32(e)3ii")
@pytest.mark.parametrize(("numbers", "spin", "bank"), [
    ([1, 2, 3], 2, "210.00"), ([0, 1, 2], 0, "210.00"), (["00", 2, 3], "00", "210.00"),
    ([0, 2, "00"], 1, "90.00"),
])
def test_three_numbers_with_and_without_the_zeros(numbers: list[Any], spin: Any,
                                                  bank: str) -> None:
    """A three-number wager pays 11 to 1: $10 wins 110 (100 - 10 + 120)."""
    result = play("nj-casino-night", [bet("three_numbers", numbers=numbers), {"spin": spin}],
                  "roulette")
    assert result["rejected"] == []
    assert money(result) == (bank, "0.00")


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)15", "N.J.A.C. 13:47-20.32(e)15ii")
@pytest.mark.parametrize(("spin", "bank"), [(33, "140.00"), (10, "140.00"), (16, "90.00")])
def test_seven_numbers(spin: int, bank: str) -> None:
    """Seven numbers (10 to 15 and 33) pays 4 to 1: $10 wins 40."""
    result = play("nj-casino-night", [bet("seven_numbers"), {"spin": spin}], "roulette")
    assert result["rejected"] == []
    assert money(result) == (bank, "0.00")


@pytest.mark.clause("N.J.A.C. 13:47-20.25(l)", "N.J.A.C. 13:47-20.25(j)")
def test_casino_night_charges_a_commission_on_buy_bets_only() -> None:
    """A place 6 to win of $12 costs $12; a buy 4 of $20 costs $20 and 5% ($1) when made."""
    assert money(play("nj-casino-night", [POINT_4, bet("place_win", "12", number=6)])) == (
        "88.00", "12.00")
    assert money(play("nj-casino-night", [POINT_4, bet("buy", "20", number=4)])) == (
        "79.00", "20.00")
    assert money(play("nj-casino-night", [POINT_4, bet("field", "10")])) == ("90.00", "10.00")
