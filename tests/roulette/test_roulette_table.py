"""Placing, removing and spinning: refusals with the regulation's clause, irregular spins,
and the dealer's order of settlement (20.32(j)3, (k), (l))."""

from __future__ import annotations

import json
from typing import Any

import pytest

from croupier.transcript import replay_text

DZ, SZ, DZS = "double-zero", "single-zero", "double-zero-as-single"
CLAUSE = "N.J.A.C. 13:47-20.32"


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


def bet(wager: str, amount: Any = 10, player: str = "p", **qualifier: Any) -> dict[str, Any]:
    return {"player": player, "bet": wager, "amount": amount, **qualifier}


def refused(result: dict[str, Any]) -> list[tuple[int, str]]:
    return [(r["index"], r["clause"]) for r in result["rejected"]]


# -- refusals ------------------------------------------------------------------------------

REFUSALS: list[tuple[str, str, dict[str, Any], dict[str, Any], str]] = [
    ("split-not-adjacent", DZ, {}, bet("split", numbers=[17, 21]), "(e)2"),
    ("split-3-4-across-rows", DZ, {}, bet("split", numbers=[3, 4]), "(e)2"),
    ("split-0-3-double-zero", DZ, {}, bet("split", numbers=[0, 3]), "(e)2"),
    ("split-00-1", DZ, {}, bet("split", numbers=["00", 1]), "(e)2"),
    ("split-three-numbers-given", DZ, {}, bet("split", numbers=[1, 2, 3]), "(e)2"),
    ("split-empty", DZ, {}, bet("split", numbers=[]), "(e)2"),
    ("three-0-00-1", DZ, {}, bet("three_numbers", numbers=[0, "00", 1]), "(e)3"),
    ("three-2-3-4", DZ, {}, bet("three_numbers", numbers=[2, 3, 4]), "(e)3"),
    ("three-0-1-3-sz", SZ, {}, bet("three_numbers", numbers=[0, 1, 3]), "(e)3"),
    ("four-not-a-square", DZ, {}, bet("four_numbers", numbers=[1, 2, 3, 4]), "(e)4"),
    ("four-0-1-2-3-double-zero", DZ, {}, bet("four_numbers", numbers=[0, 1, 2, 3]), "(e)4"),
    ("four-3-4-6-7", DZ, {}, bet("four_numbers", numbers=[3, 4, 6, 7]), "(e)4"),
    ("six-rows-apart", DZ, {}, bet("six_numbers", numbers=[1, 2, 3, 7, 8, 9]), "(e)6"),
    ("straight-two-numbers", DZ, {}, bet("straight", numbers=[1, 2]), "(e)1"),
    # 00 on a single-zero wheel ((h)) and covering 00 on a double zero as single ((i)2)
    ("straight-00-sz", SZ, {}, bet("straight", numbers=["00"]), "(h)"),
    ("split-0-00-sz", SZ, {}, bet("split", numbers=[0, "00"]), "(h)"),
    ("five-adjacent-00-sz", SZ, {}, bet("five_adjacent", center="00"), "(h)"),
    ("first-five-sz", SZ, {}, bet("first_five"), "(e)5"),
    ("straight-00-dzs", DZS, {}, bet("straight", numbers=["00"]), "(i)2"),
    ("split-00-3-dzs", DZS, {}, bet("split", numbers=["00", 3]), "(i)2"),
    ("three-0-2-00-dzs", DZS, {}, bet("three_numbers", numbers=[0, 2, "00"]), "(i)2"),
    ("first-five-dzs", DZS, {}, bet("first_five"), "(i)2"),
    # 1's neighbours on the double-zero wheel are 36 13 [1] 00 27: they cover 00
    ("five-adjacent-1-dzs", DZS, {}, bet("five_adjacent", center=1), "(i)2"),
    ("five-adjacent-10-dzs", DZS, {}, bet("five_adjacent", center=10), "(i)2"),
    # optional wagers not offered
    ("five-adjacent-off", DZ, {"five_adjacent": False}, bet("five_adjacent", center=5),
     "(e)1i-iii"),
    ("seven-numbers-off", DZ, {"seven_numbers": False}, bet("seven_numbers"), "(e)15"),
    # (e)1iii: five chips or a multiple thereof
    ("five-adjacent-7", DZ, {}, bet("five_adjacent", center=5, amount=7), "(e)1i-iii"),
    ("five-adjacent-unit-5", DZ, {"unit": 5}, bet("five_adjacent", center=5, amount=15),
     "(e)1i-iii"),
    # stakes in the table unit, payouts payable in it ((f))
    ("stake-not-in-unit", DZ, {"unit": "5"}, bet("red", amount=7), "(f)"),
    ("stake-cents-unit-1", DZ, {}, bet("red", amount="2.50"), "(f)"),
    ("payout-not-payable", DZ, {"pays": {"straight": "71 to 2"}},
     bet("straight", numbers=[9], amount=1), "(f)"),
    # (g): with the half rule, half of 5 is 2.50, not a multiple of the unit of 1
    ("half-rule-odd-stake", DZ, {"zero_rule": "half"}, bet("red", amount=5), "(g)"),
    ("half-rule-unit-0.50", DZ, {"zero_rule": "half", "unit": "0.50"},
     bet("low", amount="1.50"), "(g)"),
    # limits and chips in hand ((d)1)
    ("below-minimum", DZ, {"min_bet": 5}, bet("red", amount=4), "(d)1"),
    ("above-maximum", DZ, {"max_bet": 100}, bet("red", amount=101), "(d)1"),
    ("credit", DZ, {}, bet("red", amount=1001), "(d)1"),
]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(g)")
@pytest.mark.parametrize(("wheel", "options", "action", "clause"),
                         [c[1:] for c in REFUSALS], ids=[c[0] for c in REFUSALS])
def test_refused_bet_changes_nothing(
    wheel: str, options: dict[str, Any], action: dict[str, Any], clause: str
) -> None:
    """A refused bet is listed with its clause and leaves the table exactly as it was."""
    result = play([action], {"wheel": wheel, **options})
    assert refused(result) == [(0, f"{CLAUSE}{clause}")]
    assert result["rejected"][0]["reason"]
    assert result["players"]["p"] == {"bankroll": "1000.00", "on_table": "0.00"}
    assert [e["type"] for e in result["events"]] == ["table_opened"]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(g)")
def test_half_rule_accepts_an_even_stake_and_unit_half_stakes() -> None:
    """(g) half: 6 halves to 3 (accepted); with a unit of 0.50, 1.00 halves to 0.50."""
    result = play([bet("red", amount=6)], {"zero_rule": "half"})
    assert result["rejected"] == []
    result = play([bet("red", amount="1.00")], {"zero_rule": "half", "unit": "0.50"})
    assert result["rejected"] == []


@pytest.mark.clause("N.J.A.C. 13:47-20.32(g)")
def test_half_rule_checks_the_total_after_an_addition() -> None:
    """An addition that makes the total odd is refused: 4 + 1 = 5 halves to 2.50."""
    result = play([bet("red", amount=4), bet("red", amount=1)], {"zero_rule": "half"})
    assert refused(result) == [(1, f"{CLAUSE}(g)")]
    assert result["players"]["p"] == {"bankroll": "996.00", "on_table": "4.00"}


@pytest.mark.clause("replay contract: Limits")
def test_limits_apply_to_the_total_after_an_addition() -> None:
    result = play([bet("red", amount=60), bet("red", amount=50), bet("red", amount=40)],
                  {"max_bet": 100})
    assert refused(result) == [(1, f"{CLAUSE}(d)1")]
    assert result["players"]["p"] == {"bankroll": "900.00", "on_table": "100.00"}


@pytest.mark.clause("N.J.A.C. 13:47-20.32(d)1")
def test_additions_make_one_wager() -> None:
    """Adding to the same wager, numbers in any order: one wager of 15, paid 15 x 17 = 255."""
    result = play([bet("split", numbers=[0, "00"], amount=10),
                   bet("split", numbers=["00", 0], amount=5), {"spin": 0}])
    assert result["players"]["p"]["bankroll"] == "1255.00"
    assert len([e for e in result["events"] if e["type"] == "settle"]) == 1


@pytest.mark.clause("N.J.A.C. 13:47-20.32(d)1")
def test_no_credit_counts_chips_already_down() -> None:
    """The bankroll after earlier wagers is what can be wagered: 60 down, 40 in hand."""
    result = play([bet("red", amount=60), bet("black", amount=41), bet("black", amount=40)],
                  players={"p": "100"})
    assert refused(result) == [(1, f"{CLAUSE}(d)1")]
    assert result["players"]["p"] == {"bankroll": "0.00", "on_table": "100.00"}


def test_remove() -> None:
    result = play([bet("column", column=2), {"player": "p", "remove": "column", "column": 2},
                   {"player": "p", "remove": "column", "column": 2}])
    assert refused(result) == [(2, f"{CLAUSE}(d)1")]
    assert result["players"]["p"] == {"bankroll": "1000.00", "on_table": "0.00"}


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1iii")
def test_remove_five_adjacent_by_centre_and_split_in_any_order() -> None:
    result = play([bet("five_adjacent", center=17), bet("split", numbers=[1, 2]),
                   {"player": "p", "remove": "five_adjacent", "center": 17},
                   {"player": "p", "remove": "split", "numbers": [2, 1]}])
    assert result["rejected"] == []
    assert result["players"]["p"] == {"bankroll": "1000.00", "on_table": "0.00"}


# -- spins -----------------------------------------------------------------------------------

IRREGULAR = [
    ({"revolutions": 3}, "(m)2"),
    ({"revolutions": 0}, "(m)2"),
    ({"same_direction": True}, "(m)1"),
    ({"foreign_object": True}, "(m)3"),
]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(m)1")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(m)2")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(m)3")
@pytest.mark.parametrize(("flags", "clause"), IRREGULAR)
@pytest.mark.parametrize("wheel", [DZ, SZ, DZS])
def test_irregular_spin_leaves_every_wager(wheel: str, flags: dict[str, Any], clause: str) -> None:
    """20.32(m): "no spin": nothing is settled, the wagers stay (980 in hand, 20 down) and the
    next valid spin decides them: 17 (black) pays the straight 350 and takes the red 10:
    980 + 10 + 350 = 1340."""
    actions = [bet("straight", numbers=[17]), bet("red"), {"spin": 17, **flags}]
    result = play(actions, {"wheel": wheel})
    assert result["players"]["p"] == {"bankroll": "980.00", "on_table": "20.00"}
    assert result["state"]["last_number"] is None
    kinds = [e["type"] for e in result["events"] if e.get("action") == 2]
    assert kinds == ["no_spin"]
    assert result["events"][-1]["clause"] == f"{CLAUSE}{clause}"
    result = play([*actions, {"spin": 17}], {"wheel": wheel})
    assert result["players"]["p"] == {"bankroll": "1340.00", "on_table": "0.00"}
    assert result["state"]["last_number"] == 17


@pytest.mark.clause("N.J.A.C. 13:47-20.32(j)1", "N.J.A.C. 13:47-20.32(m)2")
def test_four_revolutions_is_a_valid_spin() -> None:
    """20.32(j)1: at least four revolutions; four count."""
    result = play([bet("red"), {"spin": 1, "revolutions": 4, "same_direction": False,
                                "foreign_object": False}])
    assert result["players"]["p"]["bankroll"] == "1010.00"


@pytest.mark.clause("N.J.A.C. 13:47-20.32(i)2")
def test_double_zero_as_single_ball_in_00_is_no_spin() -> None:
    """20.32(i)2: a ball in 00 is "no spin"; the even-money wager stays and 0 then loses it."""
    result = play([bet("red"), {"spin": "00"}], {"wheel": DZS})
    assert result["players"]["p"] == {"bankroll": "990.00", "on_table": "10.00"}
    assert result["events"][-1]["type"] == "no_spin"
    assert result["events"][-1]["clause"] == f"{CLAUSE}(i)2"
    assert result["state"]["last_number"] is None
    result = play([bet("red"), {"spin": "00"}, {"spin": 0}], {"wheel": DZS})
    assert result["players"]["p"] == {"bankroll": "990.00", "on_table": "0.00"}
    assert result["state"]["last_number"] == 0


@pytest.mark.clause("N.J.A.C. 13:47-20.32(j)3")
def test_last_number_is_the_last_that_counted() -> None:
    result = play([{"spin": "00"}, {"spin": 5, "revolutions": 2}])
    assert result["state"]["last_number"] == "00"


@pytest.mark.clause("N.J.A.C. 13:47-20.32(j)3")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(k)")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(l)")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(a)", "N.J.A.C. 13:47-20.32(c)3")
def test_dealer_order_crown_move_losers_winners() -> None:
    """20.32(j)3 crown, (k) one fifth of the winning five adjacent moved to the number, (l)
    losers collected first, then winners paid. Two players: ann five adjacent on 0 (14 2 0 28 9)
    for 5, and 0-00 split for 1; bob red for 10 and straight 2 for 1. Ball in 2 (black):
    ann's straight 2 wins 35 (returns 1), her other four lose 1 each, her split loses 1;
    bob's red loses 10, his straight 2 wins 35."""
    actions = [
        bet("five_adjacent", 5, "ann", center=0),
        bet("red", 10, "bob"),
        bet("split", 1, "ann", numbers=[0, "00"]),
        bet("straight", 1, "bob", numbers=[2]),
        {"spin": 2},
    ]
    result = play(actions, players={"ann": 100, "bob": 100})
    assert result["players"] == {
        "ann": {"bankroll": "130.00", "on_table": "0.00"},  # 100 - 6 + 1 + 35
        "bob": {"bankroll": "125.00", "on_table": "0.00"},  # 100 - 11 + 1 + 35
    }
    spin = [e for e in result["events"] if e.get("action") == 4]
    assert spin[0] == {"action": 4, "type": "crown", "number": 2, "colour": "black",
                       "clause": f"{CLAUSE}(j)3"}
    assert spin[1]["type"] == "five_adjacent_moved"
    assert (spin[1]["player"], spin[1]["amount"], spin[1]["to"]) == ("ann", "1.00", "straight:2")
    assert spin[1]["clause"] == f"{CLAUSE}(k)"
    settles = [(e["player"], e["wager"], e["result"]) for e in spin[2:]]
    assert settles == [
        ("ann", "straight:14", "lose"),
        ("ann", "straight:0", "lose"),
        ("ann", "straight:28", "lose"),
        ("ann", "straight:9", "lose"),
        ("bob", "red", "lose"),
        ("ann", "split:0-00", "lose"),
        ("ann", "straight:2", "win"),
        ("bob", "straight:2", "win"),
    ]
    assert all(e["type"] == "settle" for e in spin[2:])
    assert [e.get("part_of") for e in spin[2:6]] == ["five_adjacent:0"] * 4
    win = spin[8]
    assert (win["stake"], win["paid"], win["returned"]) == ("1.00", "35.00", "1.00")


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1iii")
def test_five_adjacent_bet_event_shows_the_five_numbers_in_wheel_order() -> None:
    """(e)1iii on a single-zero wheel: centre 26 covers 35 3 26 0 32 (wrapping round)."""
    result = play([bet("five_adjacent", center=26)], {"wheel": SZ})
    assert result["events"][-1]["numbers"] == [35, 3, 26, 0, 32]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(k)")
def test_a_losing_five_adjacent_moves_nothing() -> None:
    result = play([bet("five_adjacent", center=26, amount=10), {"spin": 5}], {"wheel": SZ})
    kinds = [e["type"] for e in result["events"] if e.get("action") == 1]
    assert kinds == ["crown"] + ["settle"] * 5
    assert result["players"]["p"]["bankroll"] == "990.00"
