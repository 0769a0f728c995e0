"""The fire bet, N.J.A.C. 13:69F-1.2(a)40 and 1.4(e), as pinned by the replay contract."""

from __future__ import annotations

import pytest

from .conftest import (
    CASINO_NIGHT,
    NJ_13_69F,
    NJ_19_47,
    bet,
    check,
    current_shooter,
    play,
    point,
    reduce,
    rejected,
    remove,
    roll,
    shooter,
    sit,
)

# point -> (roll setting it, roll making it)
MAKE = {
    4: [roll(2, 2), roll(1, 3)],
    5: [roll(2, 3), roll(1, 4)],
    6: [roll(3, 3), roll(2, 4)],
    8: [roll(4, 4), roll(2, 6)],
    9: [roll(4, 5), roll(3, 6)],
    10: [roll(4, 6), roll(5, 5)],
}
ORDER = [4, 5, 6, 8, 9, 10]
SEVEN_OUT = [roll(3, 3), roll(3, 4)]


def points(n: int) -> list:
    out: list = []
    for number in ORDER[:n]:
        out += MAKE[number]
    return out


@pytest.mark.parametrize(
    ("table", "count", "bank"),
    [("A", 4, 124), ("A", 5, 349), ("B", 4, 139), ("B", 5, 299)],
)
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(e)")
def test_fire_pays_at_seven_out(table, count, bank):
    """13:69F-1.4(e): paid once for the highest number of different points made; table A 4 ->
    24 to 1, 5 -> 249 to 1; table B 39 to 1, 199 to 1. Contract: settled at seven-out.
    $1: A4 100 - 1 + 25 = 124; A5 100 - 1 + 250 = 349; B4 140 - 1 = 139; B5 300 - 1 = 299."""
    actions = [bet("a", "fire", 1), *points(count), *SEVEN_OUT]
    r = play(NJ_13_69F, actions, fire_pay_table=table)
    assert rejected(r) == []
    check(r, "a", bank, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(e)")
def test_fire_default_table_is_a():
    """Contract `fire_pay_table` default "A": 4 points pay 24 to 1: 124."""
    r = play(NJ_13_69F, [bet("a", "fire", 1), *points(4), *SEVEN_OUT])
    check(r, "a", 124, 0)


@pytest.mark.parametrize(("table", "bank"), [("A", 1099), ("B", 599)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(e)")
def test_fire_six_points_paid_at_once(table, bank):
    """13:69F-1.4(e) 6 points: A 999 to 1, B 499 to 1; contract: settled at once when the sixth
    different point is made (no seven-out needed). $1: 100 - 1 + 1000 = 1099; B: 600 - 1 = 599."""
    r = play(NJ_13_69F, [bet("a", "fire", 1), *points(6)], fire_pay_table=table)
    check(r, "a", bank, 0)
    assert point(r) is None


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(e)")
def test_fire_six_points_not_paid_again_at_seven_out():
    """13:69F-1.4(e) "paid once": after the 6-point payout a later seven-out changes nothing:
    1099 / 0."""
    r = play(NJ_13_69F, [bet("a", "fire", 1), *points(6), *SEVEN_OUT])
    check(r, "a", 1099, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_loses_with_three_points():
    """13:69F-1.2(a)40: loses if fewer than four different points are made before a loser 7:
    3 points then seven-out: 99 / 0."""
    r = play(NJ_13_69F, [bet("a", "fire", 1), *points(3), *SEVEN_OUT])
    check(r, "a", 99, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_repeated_point_counts_once():
    """13:69F-1.2(a)40 "different (unique) point totals": 4, 4, 5, 6 made is 3 different:
    loses at the seven-out: 99."""
    actions = [bet("a", "fire", 1), *MAKE[4], *MAKE[4], *MAKE[5], *MAKE[6], *SEVEN_OUT]
    r = play(NJ_13_69F, actions)
    check(r, "a", 99, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_rides_during_the_hand():
    """Contract: settled only when the hand ends. After 3 points the $1 is still down: 99 / 1."""
    r = play(NJ_13_69F, [bet("a", "fire", 1), *points(3)])
    check(r, "a", 99, 1)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_naturals_and_craps_do_not_end_the_hand():
    """13:69F-1.2(a)40 counts points until a loser 7; a come-out 7 or 2 is not a loser 7 and is
    no point. 7, 2, then 4 points and seven-out: 124."""
    actions = [bet("a", "fire", 1), roll(3, 4), roll(1, 1), *points(4), *SEVEN_OUT]
    r = play(NJ_13_69F, actions)
    check(r, "a", 124, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)2")
def test_fire_cannot_be_removed_or_reduced():
    """13:69F-1.3(c) (fire bet not removed before a loser 7) + contract: a fire bet can never be
    removed or reduced. Fire $2: remove (index 1) and reduce 1 (index 2) refused: 98 / 2."""
    r = play(NJ_13_69F, [bet("a", "fire", 2), remove("a", "fire"), reduce("a", "fire", 1)])
    assert rejected(r) == [1, 2]
    check(r, "a", 98, 2)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)2")
def test_fire_cannot_be_removed_mid_hand():
    """As above, after two points: remove refused (index 5): 99 / 1."""
    r = play(NJ_13_69F, [bet("a", "fire", 1), *points(2), remove("a", "fire")])
    assert rejected(r) == [5]
    check(r, "a", 99, 1)


@pytest.mark.parametrize("first", [[roll(3, 4)], [roll(2, 2)], [roll(1, 1)]])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_only_before_new_shooters_first_roll(first):
    """13:69F-1.2(a)40 "may only be made prior to the come out roll of a new shooter"; contract:
    only before the first roll of a new shooter. After any roll of the same hand: refused."""
    r = play(NJ_13_69F, [*first, bet("a", "fire", 1)])
    assert rejected(r) == [1]
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_accepted_after_seven_out():
    """Contract pinned: after a seven-out the next roll is a new shooter's first, so fire bets
    may be made. a sevens out, b shoots; a's fire $1 rides on b's 4 points: 124."""
    players = {"a": 100, "b": 100}
    actions = [roll(2, 2), roll(3, 4), bet("a", "fire", 1), *points(4), *SEVEN_OUT]
    r = play(NJ_13_69F, actions, players)
    assert rejected(r) == []
    check(r, "a", 124, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40", "replay contract: Shooters")
def test_fire_settled_when_dice_pass_between_decisions():
    """Contract: settled when the hand ends, "seven-out, or the dice pass to another shooter";
    13:47-20.25(g)6 lets a shooter pass the dice on completion of a decision. 4 points, then
    the dice pass to b: paid 24 to 1: 124 / 0; shooter b."""
    actions = [bet("a", "fire", 1), *points(4), shooter("b")]
    r = play(NJ_13_69F, actions, {"a": 100, "b": 100})
    assert rejected(r) == []
    check(r, "a", 124, 0)
    assert current_shooter(r) == "b"


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_lost_when_dice_pass_with_three_points():
    """Contract: the hand ends when the dice pass; 3 points < 4: lost: 99 / 0."""
    actions = [bet("a", "fire", 1), *points(3), shooter("b")]
    r = play(NJ_13_69F, actions, {"a": 100, "b": 100})
    check(r, "a", 99, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_rides_on_when_dice_pass_before_first_roll():
    """Contract pinned: passing the dice before the hand's first roll does not end a hand: the
    fire bet rides on to the new shooter (99 / 1, shooter b). b makes 4 points: 124."""
    players = {"a": 100, "b": 100}
    r = play(NJ_13_69F, [bet("a", "fire", 1), shooter("b")], players)
    check(r, "a", 99, 1)
    assert current_shooter(r) == "b"
    r = play(NJ_13_69F, [bet("a", "fire", 1), shooter("b"), *points(4), *SEVEN_OUT], players)
    check(r, "a", 124, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_bet_by_non_shooter():
    """13:69F-1.2(a)40 counts the shooter's points, whoever bets. b bets $1 while a shoots:
    a makes 4 points and sevens out: b 124 / 0; a untouched."""
    players = {"a": 100, "b": 100}
    r = play(NJ_13_69F, [bet("b", "fire", 1), *points(4), *SEVEN_OUT], players)
    check(r, "b", 124, 0)
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(e)")
def test_fire_pays_override():
    """Contract `pays` key `fire:4`: "30 to 1" (above table A's 24 to 1): 100 - 1 + 31 = 130."""
    r = play(NJ_13_69F, [bet("a", "fire", 1), *points(4), *SEVEN_OUT], pays={"fire:4": "30 to 1"})
    check(r, "a", 130, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)")
def test_fire_not_at_mini_craps():
    """13:69F-1.2(a): "the fire bet ... shall only be permitted at the game of craps"; contract
    "Mini-craps ... No fire bet". Seated player's fire (index 1) refused."""
    r = play(NJ_13_69F, [sit("a"), bet("a", "fire", 1)], game="mini-craps")
    assert rejected(r) == [1]
    check(r, "a", 100, 0)


@pytest.mark.parametrize("rules", [NJ_19_47, CASINO_NIGHT])
@pytest.mark.clause("N.J.A.C. 19:47-1.2(b)", "N.J.A.C. 13:47-20.25(h)")
def test_fire_not_in_other_profiles(rules):
    """19:47-1.2(b), 13:47-20.25(h): no fire bet listed: refused."""
    r = play(rules, [bet("a", "fire", 1)])
    assert rejected(r) == [0]
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_accepted_after_dice_pass_between_decisions():
    """Contract: the fire bet only before the first roll of a NEW shooter. a makes point 4, the
    dice pass to b: b's first roll has not been thrown, so a fire bet is taken: 99 / 1."""
    actions = [*MAKE[4], shooter("b"), bet("a", "fire", 1)]
    r = play(NJ_13_69F, actions, {"a": 100, "b": 100})
    assert rejected(r) == []
    check(r, "a", 99, 1)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_bets_refused_after_sixth_point_same_hand():
    """13:69F-1.2(a)40: after the sixth point is paid the hand goes on; it is not a new
    shooter's first roll, so a new fire bet (index 13) is refused: 1099 / 0."""
    r = play(NJ_13_69F, [bet("a", "fire", 1), *points(6), bet("a", "fire", 1)])
    assert rejected(r) == [13]
    check(r, "a", 1099, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_come_points_do_not_count():
    """13:69F-1.2(a)40 counts point totals made by the shooter on the pass line: during point 4,
    the 5, 6 and 8 are thrown twice each (come points, not pass-line points), then 4 is made
    and the seven-out comes: one point: lost, 99."""
    actions = [
        bet("a", "fire", 1),
        roll(2, 2),
        roll(2, 3),
        roll(1, 4),
        roll(3, 3),
        roll(2, 4),
        roll(4, 4),
        roll(2, 6),
        roll(1, 3),
        *SEVEN_OUT,
    ]
    r = play(NJ_13_69F, actions)
    check(r, "a", 99, 0)
