"""Malformed transcripts (contract "Exit status and errors"): exit 2, nothing on stdout, ONE
line on stderr that names the place, e.g. `actions[3].amount: not a decimal amount: "ten"`.
The cases that check only the transcript's format exercise no clause of the regulations and
carry no clause marker; those that check a clause name it.
"""

from __future__ import annotations

import json

import pytest

from .conftest import (
    CASINO_NIGHT,
    NJ_13_69F,
    NJ_19_47,
    bet,
    malformed,
    play,
    rejected,
    roll,
    run,
    transcript,
)


def test_bad_json():
    """Contract: bad JSON is malformed: exit 2, one line on stderr."""
    malformed('{"game": "craps", "rules": "nj-13-69f", "players": {"a": 100}, "actions": [')


def test_unknown_game():
    """Contract: an unknown game is malformed; the place is `game`."""
    doc = transcript(NJ_13_69F, [])
    doc["game"] = "poker"
    assert malformed(doc).startswith("game")


def test_unknown_rules():
    """Contract: unknown rules are malformed; the place is `rules`."""
    assert malformed(transcript("nj-99-99", [])).startswith("rules")


@pytest.mark.clause("N.J.A.C. 19:47-1.2")
def test_roulette_not_covered_by_nj_19_47():
    """Contract: nj-19-47 is N.J.A.C. 19:47-1.2 and 1.4, craps and mini-craps; a game a profile
    does not cover is malformed. The place is the game (or the rules naming it)."""
    line = malformed(transcript(NJ_19_47, [], game="roulette"))
    assert line.startswith(("game", "rules"))


def test_unknown_wager():
    """Contract: an unknown wager name is malformed: `actions[0]...`."""
    assert malformed(transcript(NJ_13_69F, [bet("a", "big_red", 10)])).startswith("actions[0]")


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)")
def test_permitted_elsewhere_is_refused_not_malformed():
    """Contract: a known wager the profile does not permit is REJECTED (exit 0), not malformed:
    whirl under nj-casino-night."""
    r = play(CASINO_NIGHT, [bet("a", "whirl", 5)])
    assert rejected(r) == [0]


@pytest.mark.parametrize("dice", [[7, 1], [0, 3], [3, 7]])
def test_die_out_of_range(dice):
    """Contract: "a die of 7" is malformed: each die 1 to 6. Place `actions[1]`."""
    doc = transcript(NJ_13_69F, [bet("a", "pass", 10), {"roll": dice}])
    assert malformed(doc).startswith("actions[1]")


def test_roll_with_one_die():
    """Contract: a throw is [d1, d2]; one die is malformed at `actions[0]`."""
    assert malformed(transcript(NJ_13_69F, [{"roll": [3]}])).startswith("actions[0]")


@pytest.mark.parametrize("rules", [NJ_13_69F, CASINO_NIGHT])
@pytest.mark.clause("N.J.A.C. 13:69F-1.5", "N.J.A.C. 13:47-20.25(j)")
def test_vig_over_five_percent(rules):
    """Contract `vig`: above 0.05 is malformed (13:69F-1.5, 13:47-20.25(j),(k): "in no event shall
    exceed five percent"). Place `options.vig`."""
    assert malformed(transcript(rules, [], vig="0.06")).startswith("options.vig")


@pytest.mark.parametrize(
    ("rules", "key", "ratio"),
    [
        (NJ_13_69F, "field:12", "1 to 1"),
        (NJ_19_47, "place_win:6", "1 to 1"),
        (CASINO_NIGHT, "craps_2", "29 to 1"),
        (NJ_13_69F, "hop:2-2", "15 to 1"),
        (NJ_13_69F, "fire:4", "20 to 1"),
    ],
)
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "N.J.A.C. 19:47-1.4(b)", "N.J.A.C. 13:47-20.25(i)2")
def test_payout_below_minimum(rules, key, ratio):
    """13:69F-1.4(b), 19:47-1.4(b), 13:47-20.25(i)2: no winning wager paid at less than the
    listed odds; contract: a pay entry below the minimum is malformed. Place `options.pays`."""
    assert malformed(transcript(rules, [], pays={key: ratio})).startswith("options.pays")


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(e)")
def test_fire_override_below_table_b():
    """13:69F-1.4(e): with table B pre-selected, 4 points pay no less than 39 to 1; "30 to 1"
    is below it: malformed at `options...`."""
    doc = transcript(NJ_13_69F, [], fire_pay_table="B", pays={"fire:4": "30 to 1"})
    assert malformed(doc).startswith("options")


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(a)")
def test_odds_stated_with_for():
    """13:69F-1.4(a), 19:47-1.4(a), 13:47-20.25(i)1: odds are stated with "to", never "for":
    "3 for 1" is malformed at `options.pays`."""
    doc = transcript(NJ_13_69F, [], pays={"field:12": "3 for 1"})
    assert malformed(doc).startswith("options.pays")


def test_unknown_option():
    """Contract: unknown option keys are malformed at `options...`."""
    assert malformed(transcript(NJ_13_69F, [], colour="red")).startswith("options")


@pytest.mark.parametrize(
    ("rules", "key"),
    [
        (CASINO_NIGHT, "hop:2-2"),
        (CASINO_NIGHT, "six_seven_eight"),
        (NJ_13_69F, "field:7"),
        (NJ_19_47, "fire:4"),
    ],
)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)")
def test_pays_key_the_profile_lacks(rules, key):
    """Contract pinned: a pay-table key the profile's table lacks (hop:2-2 under nj-casino-night)
    is malformed at `options.pays`."""
    assert malformed(transcript(rules, [], pays={key: "40 to 1"})).startswith("options.pays")


@pytest.mark.parametrize(
    "action",
    [
        bet("a", "place_win", 10, number=7),
        bet("a", "place_lose", 10, number=3),
        bet("a", "buy", 10, number=11),
        bet("a", "hard", 10, number=5),
        bet("a", "hard", 10, number=12),
        bet("a", "horn_high", 5, number=4),
        bet("a", "hop", 10, dice=[1, 2]),
        bet("a", "hop", 10, dice=[6, 6]),
        bet("a", "hop", 10, dice=[1, 7]),
    ],
    ids=[
        "place_win-7",
        "place_lose-3",
        "buy-11",
        "hard-5",
        "hard-12",
        "horn_high-4",
        "hop-1-2",
        "hop-6-6",
        "hop-1-7",
    ],
)
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)22",
                    "N.J.A.C. 13:69F-1.2(a)23",
                    "N.J.A.C. 13:69F-1.2(a)24",
                    "N.J.A.C. 13:69F-1.2(a)25",
                    "N.J.A.C. 13:69F-1.2(a)26",
                    "N.J.A.C. 13:69F-1.2(a)27",
                    "N.J.A.C. 13:69F-1.2(a)28",
                    "N.J.A.C. 13:69F-1.2(a)29",
                    "N.J.A.C. 13:69F-1.2(a)30",
                    "N.J.A.C. 13:69F-1.2(a)31",
                    "N.J.A.C. 13:69F-1.2(a)32",
                    "N.J.A.C. 13:69F-1.2(a)33",
                    "N.J.A.C. 13:69F-1.2(a)34",
                    "N.J.A.C. 13:69F-1.2(a)35",
                    "N.J.A.C. 13:69F-1.2(a)36",
                    "N.J.A.C. 13:69F-1.2(a)37",
                    "N.J.A.C. 13:69F-1.2(a)38")
def test_qualifier_outside_domain(action):
    """Contract pinned: qualifiers outside their domain are malformed (place 4-10 without 7,
    hardways 4/6/8/10, horn high 2/3/11/12, the regulation's 17 hops,
    13:69F-1.2(a)22-38). Place `actions[1]` (after one valid roll)."""
    doc = transcript(NJ_13_69F, [roll(2, 2), action])
    assert malformed(doc).startswith("actions[1]")


@pytest.mark.parametrize("amount", ["0", "-5", "0.00"])
def test_zero_or_negative_amount(amount):
    """Contract pinned: zero or negative amounts are malformed: `actions[0].amount`."""
    doc = transcript(NJ_13_69F, [bet("a", "pass", amount)])
    assert malformed(doc).startswith("actions[0].amount")


def test_amount_ten_in_words():
    """Contract example: `actions[3].amount: not a decimal amount: "ten"` -- even after valid
    actions, nothing is printed on stdout."""
    doc = transcript(
        NJ_13_69F,
        [bet("a", "pass", 10), roll(2, 2), bet("a", "place_win", 6, number=6), bet("a", "field", "ten")],
    )
    assert malformed(doc).startswith("actions[3].amount")


@pytest.mark.parametrize("bank", ["0", "-100"])
def test_zero_or_negative_bankroll(bank):
    """Contract pinned: zero or negative bankrolls are malformed: `players...`."""
    assert malformed(transcript(NJ_13_69F, [], {"a": bank})).startswith("players")


def test_unknown_player_bets():
    """Contract pinned: players not listed are malformed: `actions[1]...`."""
    doc = transcript(NJ_13_69F, [bet("a", "pass", 10), bet("zed", "pass", 10)])
    assert malformed(doc).startswith("actions[1]")


def test_unknown_player_as_shooter():
    """Contract pinned: players not listed are malformed, also as shooter: `actions[0]...`."""
    doc = transcript(NJ_13_69F, [{"shooter": "zed"}])
    assert malformed(doc).startswith("actions[0]")


@pytest.mark.clause("N.J.A.C. 13:47-20.25(j)")
def test_vig_collected_win_under_casino_night():
    """13:47-20.25(j),(k): the percentage is paid "at the time of making the bet"; contract
    pinned: `vig_collected: "win"` under nj-casino-night is malformed: `options.vig_collected`."""
    doc = transcript(CASINO_NIGHT, [], vig_collected="win")
    assert malformed(doc).startswith("options.vig_collected")


@pytest.mark.parametrize(
    ("option", "value"),
    [("vig_collected", "later"), ("fire_pay_table", "C"), ("odds", "7-8-9")],
)
def test_option_value_outside_its_domain(option, value):
    """Contract table options: vig_collected is "placement" or "win", fire_pay_table "A" or "B",
    odds "none", N or "3-4-5"; anything else is malformed at `options.<name>`."""
    doc = transcript(NJ_13_69F, [], **{option: value})
    assert malformed(doc).startswith(f"options.{option}")


@pytest.mark.clause("N.J.A.C. 19:47-1.4(b)")
def test_float_money_is_exact():
    """Contract "Money": amounts may be JSON numbers and are read exactly (no binary floating
    point). Bankroll 100.3 and stake 0.1 as JSON numbers, unit 0.1; field on a 3 pays 1 to 1
    (19:47-1.4(b)): 100.30 - 0.10 + 0.20 = 100.40."""
    text = (
        json.dumps(
            {
                "game": "craps",
                "rules": NJ_19_47,
                "options": {"unit": "0.1"},
                "players": {"a": "X"},
                "actions": [{"player": "a", "bet": "field", "amount": "Y"}, {"roll": [1, 2]}],
            }
        )
        .replace('"X"', "100.3")
        .replace('"Y"', "0.1")
    )
    code, result, err = run(text)
    assert code == 0, err
    assert result["players"]["a"] == {"bankroll": "100.40", "on_table": "0.00"}


def test_misspelt_top_level_key_is_malformed():
    """Contract "Top level": any key besides the five and annotations is malformed, so a
    misspelt ``action`` is an error naming the key, not an empty replay."""
    doc = transcript(NJ_13_69F, [bet("a", "pass", 10)])
    doc["action"] = doc.pop("actions")
    assert malformed(doc).startswith("action")


def test_missing_actions_is_malformed():
    """Contract "Top level": ``actions`` is required (it may be empty)."""
    doc = transcript(NJ_13_69F, [])
    del doc["actions"]
    assert malformed(doc).startswith("actions")


def test_top_level_annotations_are_ignored():
    """Contract "Top level": ``comment``, ``note``, ``description`` and ``_`` keys are ignored."""
    doc = transcript(NJ_13_69F, [bet("a", "pass", 10), roll(3, 4)])
    doc.update({"comment": "x", "note": "y", "description": "z", "_lab": 1})
    code, result, err = run(doc)
    assert code == 0, err
    assert result is not None and result["players"]["a"]["bankroll"] == "110.00"
