"""Every wager of N.J.A.C. 13:47-20.32(e) wins and loses, at the minimum payouts of 20.32(f),
on each wheel and under each zero rule. Each expected bankroll is worked out by hand: a
player starts with 1000 and stakes 10, so a win at "N to 1" ends at 1000 + 10N, a loss at 990,
and a half loss under 20.32(g) at 995.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier.transcript import replay_text

DZ, SZ, DZS = "double-zero", "single-zero", "double-zero-as-single"


def play(
    actions: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
    players: dict[str, Any] | None = None,
) -> dict[str, Any]:
    doc = {
        "game": "roulette",
        "rules": "nj-casino-night",
        "options": options or {},
        "players": players or {"p": "1000"},
        "actions": actions,
    }
    return replay_text(json.dumps(doc))


def bet(wager: str, amount: Any = 10, **qualifier: Any) -> dict[str, Any]:
    return {"player": "p", "bet": wager, "amount": amount, **qualifier}


# (id, wheel, bet, spin, expected bankroll after the spin)
CASES: list[tuple[str, str, dict[str, Any], Any, str]] = [
    # (e)1 straight, 35 to 1: 1000 - 10 + 10 + 350
    ("straight-17-wins", DZ, bet("straight", numbers=[17]), 17, "1350.00"),
    ("straight-17-loses", DZ, bet("straight", numbers=[17]), 18, "990.00"),
    ("straight-00-wins", DZ, bet("straight", numbers=["00"]), "00", "1350.00"),
    ("straight-0-loses-on-00", DZ, bet("straight", numbers=[0]), "00", "990.00"),
    ("straight-0-wins-sz", SZ, bet("straight", numbers=[0]), 0, "1350.00"),
    ("straight-36-wins-dzs", DZS, bet("straight", numbers=[36]), 36, "1350.00"),
    # (e)2 split, 17 to 1: 1000 + 170
    ("split-0-00-wins", DZ, bet("split", numbers=["00", 0]), "00", "1170.00"),
    ("split-17-20-wins", DZ, bet("split", numbers=[20, 17]), 17, "1170.00"),
    ("split-17-20-loses", DZ, bet("split", numbers=[17, 20]), 18, "990.00"),
    ("split-00-3-wins", DZ, bet("split", numbers=["00", 3]), 3, "1170.00"),
    ("split-0-3-wins-sz", SZ, bet("split", numbers=[0, 3]), 0, "1170.00"),
    ("split-0-1-wins-dzs", DZS, bet("split", numbers=[0, 1]), 1, "1170.00"),
    ("split-0-1-loses-dzs", DZS, bet("split", numbers=[0, 1]), 2, "990.00"),
    # (e)3 three numbers, 11 to 1: 1000 + 110
    ("street-34-wins", DZ, bet("three_numbers", numbers=[34, 35, 36]), 35, "1110.00"),
    ("street-34-loses", DZ, bet("three_numbers", numbers=[34, 35, 36]), 33, "990.00"),
    ("three-00-2-3-wins", DZ, bet("three_numbers", numbers=["00", 2, 3]), "00", "1110.00"),
    ("three-0-2-00-wins", DZ, bet("three_numbers", numbers=[2, "00", 0]), 0, "1110.00"),
    ("three-0-1-2-loses", DZ, bet("three_numbers", numbers=[0, 1, 2]), 3, "990.00"),
    ("three-0-2-3-wins-sz", SZ, bet("three_numbers", numbers=[0, 2, 3]), 3, "1110.00"),
    ("three-0-1-2-wins-dzs", DZS, bet("three_numbers", numbers=[0, 1, 2]), 0, "1110.00"),
    # (e)4 four numbers, 8 to 1: 1000 + 80
    ("corner-1-5-wins", DZ, bet("four_numbers", numbers=[1, 2, 4, 5]), 5, "1080.00"),
    ("corner-1-5-loses", DZ, bet("four_numbers", numbers=[1, 2, 4, 5]), 3, "990.00"),
    ("corner-32-36-wins-sz", SZ, bet("four_numbers", numbers=[32, 33, 35, 36]), 36, "1080.00"),
    ("four-0-1-2-3-wins-sz", SZ, bet("four_numbers", numbers=[3, 2, 1, 0]), 0, "1080.00"),
    ("corner-2-6-wins-dzs", DZS, bet("four_numbers", numbers=[2, 3, 5, 6]), 6, "1080.00"),
    # (e)5 first five, 6 to 1: 1000 + 60
    ("first-five-wins-00", DZ, bet("first_five"), "00", "1060.00"),
    ("first-five-wins-3", DZ, bet("first_five"), 3, "1060.00"),
    ("first-five-loses", DZ, bet("first_five"), 4, "990.00"),
    # (e)6 six numbers, 5 to 1: 1000 + 50
    ("line-31-36-wins", DZ, bet("six_numbers", numbers=[31, 32, 33, 34, 35, 36]), 31, "1050.00"),
    ("line-31-36-loses", DZ, bet("six_numbers", numbers=[31, 32, 33, 34, 35, 36]), 30, "990.00"),
    ("line-1-6-wins-sz", SZ, bet("six_numbers", numbers=[1, 2, 3, 4, 5, 6]), 4, "1050.00"),
    ("line-1-6-loses-on-0-dzs", DZS, bet("six_numbers", numbers=[1, 2, 3, 4, 5, 6]), 0, "990.00"),
    # (e)15 seven numbers, 4 to 1: 1000 + 40
    ("seven-wins-33", DZ, bet("seven_numbers"), 33, "1040.00"),
    ("seven-wins-10-sz", SZ, bet("seven_numbers"), 10, "1040.00"),
    ("seven-loses-16", DZS, bet("seven_numbers"), 16, "990.00"),
    # (e)7 column, 2 to 1: 1000 + 20; column 1 is 1, 4, ..., 34
    ("column-1-wins-34", DZ, bet("column", column=1), 34, "1020.00"),
    ("column-1-loses-36", DZ, bet("column", column=1), 36, "990.00"),
    ("column-3-loses-0-sz", SZ, bet("column", column=3), 0, "990.00"),
    ("column-2-wins-dzs", DZS, bet("column", column=2), 35, "1020.00"),
    # (e)8 dozen, 2 to 1
    ("dozen-3-wins-25", DZ, bet("dozen", dozen=3), 25, "1020.00"),
    ("dozen-3-loses-24", DZ, bet("dozen", dozen=3), 24, "990.00"),
    ("dozen-1-wins-12-sz", SZ, bet("dozen", dozen=1), 12, "1020.00"),
    ("dozen-2-loses-00", DZ, bet("dozen", dozen=2), "00", "990.00"),
    # (e)9-14 the even-money wagers, 1 to 1: 1000 + 10
    ("red-wins-1", DZ, bet("red"), 1, "1010.00"),
    ("red-loses-2", DZ, bet("red"), 2, "990.00"),
    ("black-wins-2", SZ, bet("black"), 2, "1010.00"),
    ("black-loses-1", SZ, bet("black"), 1, "990.00"),
    ("odd-wins-35", DZ, bet("odd"), 35, "1010.00"),
    ("odd-loses-36", DZS, bet("odd"), 36, "990.00"),
    ("even-wins-36", DZS, bet("even"), 36, "1010.00"),
    ("even-loses-35", DZ, bet("even"), 35, "990.00"),
    ("low-wins-18", DZ, bet("low"), 18, "1010.00"),
    ("low-loses-19", SZ, bet("low"), 19, "990.00"),
    ("high-wins-19", SZ, bet("high"), 19, "1010.00"),
    ("high-loses-18", DZ, bet("high"), 18, "990.00"),
    # (e)1i-iii five adjacent: five straights of 2; a win pays the one straight 2 x 35 = 70
    # and returns its 2, the other four 2s are lost: 1000 - 10 + 2 + 70 = 1062.
    ("five-adjacent-1-wins-00", DZ, bet("five_adjacent", center=1), "00", "1062.00"),
    ("five-adjacent-1-wins-27", DZ, bet("five_adjacent", center=1), 27, "1062.00"),
    ("five-adjacent-1-loses-2", DZ, bet("five_adjacent", center=1), 2, "990.00"),
    ("five-adjacent-0-wins-26-sz", SZ, bet("five_adjacent", center=0), 26, "1062.00"),
    ("five-adjacent-0-loses-27-sz", SZ, bet("five_adjacent", center=0), 27, "990.00"),
    ("five-adjacent-0-wins-9-dzs", DZS, bet("five_adjacent", center=0), 9, "1062.00"),
]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(f)")
@pytest.mark.parametrize(("wheel", "action", "spin", "bankroll"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_wager_settles_at_the_minimum_payout(
    wheel: str, action: dict[str, Any], spin: Any, bankroll: str
) -> None:
    """20.32(e), (f): the wager is taken, the spin decides it, and it comes down paid or lost."""
    result = play([action, {"spin": spin}], {"wheel": wheel})
    assert result["rejected"] == []
    assert result["players"]["p"] == {"bankroll": bankroll, "on_table": "0.00"}
    assert result["state"]["last_number"] == spin


EVEN_MONEY = ["red", "black", "odd", "even", "low", "high"]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(g)")
@pytest.mark.parametrize("wager", EVEN_MONEY)
@pytest.mark.parametrize("zero", [0, "00"])
def test_zero_rule_half_on_double_zero(wager: str, zero: Any) -> None:
    """20.32(g), half: on 0 or 00 half of 10 (5) is lost and 5 returned: 995."""
    result = play([bet(wager), {"spin": zero}], {"zero_rule": "half"})
    assert result["players"]["p"] == {"bankroll": "995.00", "on_table": "0.00"}
    settle = [e for e in result["events"] if e["type"] == "settle"]
    assert len(settle) == 1
    assert (settle[0]["taken"], settle[0]["returned"]) == ("5.00", "5.00")
    assert settle[0]["clause"] == "N.J.A.C. 13:47-20.32(g)"


@pytest.mark.clause("N.J.A.C. 13:47-20.32(g)")
@pytest.mark.parametrize("wager", EVEN_MONEY)
@pytest.mark.parametrize("zero", [0, "00"])
def test_zero_rule_full_on_double_zero(wager: str, zero: Any) -> None:
    """20.32(g), the entire wager (the default): 990."""
    result = play([bet(wager), {"spin": zero}])
    assert result["players"]["p"] == {"bankroll": "990.00", "on_table": "0.00"}


@pytest.mark.clause("N.J.A.C. 13:47-20.32(h)")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(i)3")
@pytest.mark.parametrize("wager", EVEN_MONEY)
@pytest.mark.parametrize("wheel", [SZ, DZS])
def test_even_money_lost_on_zero_single(wager: str, wheel: str) -> None:
    """20.32(h) and (i)3: on a single-zero game even-money wagers are lost on 0: 990."""
    result = play([bet(wager), {"spin": 0}], {"wheel": wheel})
    assert result["players"]["p"] == {"bankroll": "990.00", "on_table": "0.00"}


@pytest.mark.parametrize("wager", EVEN_MONEY)
@pytest.mark.clause("N.J.A.C. 13:47-20.32(g)")
def test_zero_rule_half_does_not_touch_a_win_or_other_numbers(wager: str) -> None:
    """20.32(g) applies only when the ball is in 0 or 00: 36 and 1 between them decide every
    even-money wager, one way or the other, whole."""
    result = play([bet(wager), {"spin": 36}, bet(wager), {"spin": 1}], {"zero_rule": "half"})
    # Each even-money wager wins on exactly one of 36 (red, even, high) and 1 (red, odd, low)
    # except red (both) and black (neither): red 1020, black 980, the others 1000.
    expected = {"red": "1020.00", "black": "980.00"}.get(wager, "1000.00")
    assert result["players"]["p"]["bankroll"] == expected


@pytest.mark.clause("N.J.A.C. 13:47-20.32(g)")
def test_zero_rule_half_does_not_apply_to_other_wagers() -> None:
    """20.32(g) names only red, black, odd, even, 1 to 18 and 19 to 36: a dozen is lost whole."""
    result = play([bet("dozen", dozen=1), bet("column", column=1), {"spin": 0}],
                  {"zero_rule": "half"})
    assert result["players"]["p"]["bankroll"] == "980.00"


@pytest.mark.clause("N.J.A.C. 13:47-20.32(f)")
def test_higher_payout_from_options() -> None:
    """pays: a payout above the minimum of (f) is paid: 10 on a straight at 40 to 1 wins 400."""
    result = play([bet("straight", numbers=[5]), {"spin": 5}], {"pays": {"straight": "40 to 1"}})
    assert result["players"]["p"]["bankroll"] == "1400.00"


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1iii", "N.J.A.C. 13:47-20.32(f)")
def test_five_adjacent_higher_straight_payout() -> None:
    """Five adjacent is paid as straights (e)1iii: at 40 to 1 the winning 2 wins 80:
    1000 - 10 + 2 + 80 = 1072."""
    result = play([bet("five_adjacent", center=17), {"spin": 17}],
                  {"pays": {"straight": "40 to 1"}})
    assert result["players"]["p"]["bankroll"] == "1072.00"


@pytest.mark.clause("N.J.A.C. 13:47-20.32(l)")
def test_every_wager_at_once_on_one_spin() -> None:
    """One spin decides every wager on the layout; on 5 (red, odd, low, column 2, dozen 1):
    straight 5 +350, split 5-8 +170, street 4-5-6 +110, corner 4-5-7-8 +80, six line 1-6 +50,
    column 2 +20, dozen 1 +20, red/odd/low +10 each; lost: first five, seven numbers, black,
    even, high (-10 each). Net +350+170+110+80+50+20+20+30-50 = +780."""
    actions = [
        bet("straight", numbers=[5]),
        bet("split", numbers=[5, 8]),
        bet("three_numbers", numbers=[4, 5, 6]),
        bet("four_numbers", numbers=[4, 5, 7, 8]),
        bet("six_numbers", numbers=[1, 2, 3, 4, 5, 6]),
        bet("column", column=2),
        bet("dozen", dozen=1),
        *(bet(w) for w in EVEN_MONEY),
        bet("first_five"),
        bet("seven_numbers"),
        {"spin": 5},
    ]
    result = play(actions, players={"p": "1000"})
    assert result["rejected"] == []
    assert result["players"]["p"] == {"bankroll": "1780.00", "on_table": "0.00"}
    settles = [e for e in result["events"] if e["type"] == "settle"]
    assert len(settles) == 15
    results = [e["result"] for e in settles]
    # 20.32(l): all losers collected before any winner is paid.
    assert results == ["lose"] * 5 + ["win"] * 10
