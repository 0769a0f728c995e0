"""The table: shooter rotation, passing the dice, mini-craps seating, chips in hand, table
limits and unit, several players."""

from __future__ import annotations

import pytest

from .conftest import (
    CASINO_NIGHT,
    NJ_13_69F,
    NJ_19_47,
    PROFILES,
    bet,
    check,
    current_shooter,
    play,
    point,
    reduce,
    rejected,
    roll,
    shooter,
    sit,
    stand,
)

ABC = {"a": 100, "b": 100, "c": 100}
SEVEN_OUT = [roll(2, 2), roll(3, 4)]


# ------------------------------------------------------------------ shooters


@pytest.mark.clause("replay contract: Shooters")
def test_first_shooter_is_first_listed():
    """Contract pinned "Shooters": the first shooter is the first player listed (13:47-20.25
    (g)1). Players c, a, b: shooter c, no point."""
    r = play(NJ_13_69F, [], {"c": 100, "a": 100, "b": 100})
    assert current_shooter(r) == "c"
    assert point(r) is None


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize(("outs", "expected"), [(1, "b"), (2, "c"), (3, "a")])
@pytest.mark.clause("N.J.A.C. 13:47-20.25(g)6", "replay contract: Shooters")
def test_seven_out_passes_dice_in_listing_order(rules, outs, expected):
    """13:47-20.25(g)6: when the shooter misses out on the point the dice pass to the next
    player; contract: listing order, wrapping round. a -> b -> c -> a."""
    r = play(rules, SEVEN_OUT * outs, ABC)
    assert current_shooter(r) == expected


@pytest.mark.clause("replay contract: Shooters")
def test_other_decisions_keep_the_shooter():
    """13:47-20.25(g)2: the shooter throws until a miss-out... contract: the dice pass after a
    seven-out. A natural, a crap and a made point keep shooter a."""
    r = play(NJ_13_69F, [roll(3, 4), roll(1, 1), roll(6, 6), roll(2, 2), roll(1, 3)], ABC)
    assert current_shooter(r) == "a"


@pytest.mark.clause("replay contract: Shooters")
def test_dice_may_pass_before_come_out():
    """13:47-20.25(g)6, (g)7 + contract `shooter`: the dice pass only between decisions, before a
    come-out roll. At the start: shooter b, nothing refused."""
    r = play(NJ_13_69F, [shooter("b")], ABC)
    assert rejected(r) == []
    assert current_shooter(r) == "b"


@pytest.mark.clause("replay contract: Shooters")
def test_dice_may_pass_after_a_decision():
    """13:47-20.25(g)6 "may pass the dice ... on completion of a decision": point 4 made, then
    shooter c: accepted."""
    r = play(NJ_13_69F, [roll(2, 2), roll(1, 3), shooter("c")], ABC)
    assert rejected(r) == []
    assert current_shooter(r) == "c"


@pytest.mark.clause("replay contract: Shooters")
def test_dice_may_not_pass_while_point_is_on():
    """Contract `shooter`: only between decisions. With point 4 on, shooter b (index 1) is
    refused; shooter stays a, point stays 4."""
    r = play(NJ_13_69F, [roll(2, 2), shooter("b")], ABC)
    assert rejected(r) == [1]
    assert current_shooter(r) == "a"
    assert point(r) == 4


@pytest.mark.clause("replay contract: Shooters")
def test_rotation_continues_from_new_shooter():
    """13:47-20.25(g)6, (g)7: after the dice passed to c, c's seven-out passes them to the next
    player after c, wrapping to a."""
    r = play(NJ_13_69F, [shooter("c"), *SEVEN_OUT], ABC)
    assert current_shooter(r) == "a"


@pytest.mark.clause("replay contract: Shooters")
def test_naming_current_shooter_changes_nothing():
    """Contract pinned: naming the current shooter changes nothing. (Whether the action is listed
    as rejected is not pinned, so it is not asserted.)"""
    r = play(NJ_13_69F, [shooter("a"), roll(2, 2), roll(1, 3)], ABC)
    assert current_shooter(r) == "a"
    assert point(r) is None


# ------------------------------------------------------------------ several players


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)")
def test_several_players_settled_independently():
    """13:69F-1.2(a): pass 10 (a), don't pass 10 (b), field 5 (c). Come-out 4: field wins 1 to 1
    (c 105); 7: a loses (90), b wins (110); the dice pass to b."""
    actions = [
        bet("a", "pass", 10),
        bet("b", "dont_pass", 10),
        bet("c", "field", 5),
        roll(2, 2),
        roll(3, 4),
    ]
    r = play(NJ_13_69F, actions, ABC)
    check(r, "a", 90, 0)
    check(r, "b", 110, 0)
    check(r, "c", 105, 0)
    assert current_shooter(r) == "b"


# ------------------------------------------------------------------ chips in hand


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(b)")
def test_no_bet_on_credit():
    """Contract pinned "Chips in hand": a wager larger than the bankroll is refused. Bankroll 10:
    pass 11 refused (0), pass 10 taken, field 1 refused (2): 0 / 10."""
    actions = [bet("a", "pass", 11), bet("a", "pass", 10), bet("a", "field", 1)]
    r = play(NJ_13_69F, actions, {"a": 10})
    assert rejected(r) == [0, 2]
    check(r, "a", 0, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(b)")
def test_winnings_may_be_bet_again():
    """Bankroll 10: pass 10, natural: 20; pass 20 accepted: 0 / 20."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), roll(3, 4), bet("a", "pass", 20)], {"a": 10})
    assert rejected(r) == []
    check(r, "a", 0, 20)


@pytest.mark.clause("N.J.A.C. 19:47-1.4(b)")
def test_decimal_bankroll_and_stake():
    """Contract "Money": exact decimal arithmetic; unit 0.5, bankroll 100.50, field 2.50, a 12
    pays 2 to 1 = 5: 100.50 - 2.50 + 7.50 = 105.50."""
    r = play(NJ_19_47, [bet("a", "field", "2.50"), roll(6, 6)], {"a": "100.50"}, unit="0.5")
    check(r, "a", "105.50", 0)


# ------------------------------------------------------------------ limits and unit


@pytest.mark.clause("replay contract: Limits")
def test_min_bet():
    """Contract `min_bet`: pass 4 under min 5 refused (index 0), pass 5 taken: 95 / 5."""
    r = play(NJ_13_69F, [bet("a", "pass", 4), bet("a", "pass", 5)], min_bet="5")
    assert rejected(r) == [0]
    check(r, "a", 95, 5)


@pytest.mark.clause("replay contract: Limits")
def test_max_bet_and_total_after_addition():
    """Contract `max_bet` 50 applies to the total after an addition: pass 51 refused (0),
    pass 30 taken, +30 (total 60) refused (2), +20 (total 50) taken: 50 / 50."""
    actions = [bet("a", "pass", 51), bet("a", "pass", 30), bet("a", "pass", 30), bet("a", "pass", 20)]
    r = play(NJ_13_69F, actions, max_bet="50")
    assert rejected(r) == [0, 2]
    check(r, "a", 50, 50)


@pytest.mark.clause("replay contract: Limits", "replay contract: Table options (odds)")
def test_max_bet_applies_to_odds():
    """Contract pinned "Limits ... apply to every wager including odds": max 20, pass 10 on 4,
    odds 30 (3x allowed) refused for the limit (index 2); odds 20 taken: 70 / 30."""
    actions = [bet("a", "pass", 10), roll(2, 2), bet("a", "pass_odds", 30), bet("a", "pass_odds", 20)]
    r = play(NJ_13_69F, actions, max_bet="20")
    assert rejected(r) == [2]
    check(r, "a", 70, 30)


@pytest.mark.clause("replay contract: Limits", "replay contract: Table options (odds)")
def test_min_bet_applies_to_odds():
    """Contract pinned: min 10, pass 10 on 4, odds 5 refused (index 2): 90 / 10."""
    actions = [bet("a", "pass", 10), roll(2, 2), bet("a", "pass_odds", 5)]
    r = play(NJ_13_69F, actions, min_bet="10")
    assert rejected(r) == [2]
    check(r, "a", 90, 10)


@pytest.mark.clause("replay contract: Limits", "N.J.A.C. 13:69F-1.3(c)")
def test_reduction_must_leave_a_valid_wager():
    """Contract pinned: a reduction must leave a valid wager; by the whole stake it is a removal;
    by more it is refused. Min 5, field 10: reduce 6 (leaves 4) refused (1); reduce 5 taken;
    reduce 6 (more than 5) refused (3); reduce 5 = removal. 100 / 0."""
    actions = [
        bet("a", "field", 10),
        reduce("a", "field", 6),
        reduce("a", "field", 5),
        reduce("a", "field", 6),
        reduce("a", "field", 5),
    ]
    r = play(NJ_13_69F, actions, min_bet="5")
    assert rejected(r) == [1, 3]
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_stake_must_be_multiple_of_unit():
    """Contract `unit`: a stake that is not a multiple of the unit is refused. Unit 5: pass 7
    refused, pass 10 taken: 90 / 10."""
    r = play(NJ_13_69F, [bet("a", "pass", 7), bet("a", "pass", 10)], unit="5")
    assert rejected(r) == [0]
    check(r, "a", 90, 10)


# ------------------------------------------------------------------ mini-craps seating


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.clause("N.J.A.C. 13:69F-1.3(f)", "replay contract: Mini-craps")
def test_mini_unseated_player_cannot_bet(rules):
    """13:69F-1.3(f): only seated players may wager; contract: players start unseated (pinned
    for every profile). pass 10 (index 0) refused."""
    r = play(rules, [bet("a", "pass", 10)], game="mini-craps")
    assert rejected(r) == [0]
    check(r, "a", 100, 0)


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.clause("N.J.A.C. 13:69F-1.3(f)",
                    "N.J.A.C. 13:47-20.25(h)",
                    "replay contract: Mini-craps")
def test_mini_seated_player_bets(rules):
    """13:69F-1.3(f), 13:47-20.25(h) "craps and mini-craps": seated, pass 10, natural: 110."""
    r = play(rules, [sit("a"), bet("a", "pass", 10), roll(3, 4)], game="mini-craps")
    assert rejected(r) == []
    check(r, "a", 110, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(f)")
def test_mini_cannot_stand_with_wager_down():
    """13:69F-1.3(f): a player who placed a wager must remain seated until the round ends.
    Pass 10, point 4, stand (index 3) refused: 90 / 10."""
    actions = [sit("a"), bet("a", "pass", 10), roll(2, 2), stand("a")]
    r = play(NJ_13_69F, actions, game="mini-craps")
    assert rejected(r) == [3]
    check(r, "a", 90, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(f)")
def test_mini_stand_after_decision_then_cannot_bet():
    """13:69F-1.3(f): after the pass-line decision the player may stand; standing, a new bet
    (index 5) is refused. Pass 10 on 4 made: 110."""
    actions = [sit("a"), bet("a", "pass", 10), roll(2, 2), roll(1, 3), stand("a"), bet("a", "pass", 10)]
    r = play(NJ_13_69F, actions, game="mini-craps")
    assert rejected(r) == [5]
    check(r, "a", 110, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(f)")
def test_mini_cannot_stand_with_place_bet_down():
    """Contract pinned: standing is refused while the player has a wager down. Place 6 to lose
    $5 down, stand (index 2) refused."""
    actions = [sit("a"), bet("a", "place_lose", 5, number=6), stand("a")]
    r = play(NJ_13_69F, actions, game="mini-craps")
    assert rejected(r) == [2]
    check(r, "a", 95, 5)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(f)")
def test_mini_only_the_seated_player_bets():
    """13:69F-1.3(f): a sits, b does not: b's pass (index 2) refused, a's taken."""
    actions = [sit("a"), bet("a", "pass", 10), bet("b", "pass", 10), roll(3, 4)]
    r = play(NJ_13_69F, actions, {"a": 100, "b": 100}, game="mini-craps")
    assert rejected(r) == [2]
    check(r, "a", 110, 0)
    check(r, "b", 100, 0)


@pytest.mark.parametrize("rules", [NJ_13_69F, CASINO_NIGHT])
@pytest.mark.clause("N.J.A.C. 13:69F-1.3(f)", "replay contract: Mini-craps")
def test_sit_and_stand_refused_at_craps(rules):
    """Contract pinned: `sit` and `stand` at craps are refused (seating is 13:69F-1.3(f),
    mini-craps only)."""
    r = play(rules, [sit("a"), stand("a")])
    assert rejected(r) == [0, 1]
