"""Line bets: pass, don't pass, come, don't come; the don't-bet 12; come bets travelling;
removal rules of N.J.A.C. 13:69F-1.3(c) and (d) as pinned by the replay contract."""

from __future__ import annotations

import pytest

from .conftest import (
    NJ_13_69F,
    PROFILES,
    bet,
    check,
    play,
    point,
    reduce,
    rejected,
    remove,
    roll,
    rolls,
)

# ------------------------------------------------------------------ pass line


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize("dice", [(3, 4), (1, 6), (5, 6)])
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1i(1)(A)",
                    "N.J.A.C. 13:47-20.25(g)4",
                    "N.J.A.C. 19:47-1.2(a)1i(1)",
                    "N.J.A.C. 13:69F-1.2(a)1i(1)")
def test_pass_wins_on_natural(rules, dice):
    """13:47-20.25(h)1i(1)(A), 19:47-1.2(a)1i(1), 13:69F-1.2(a)1i(1): pass wins on a come-out
    7 or 11; pays 1 to 1 (pay tables). $10: 100 - 10 + 10 + 10 = 110, nothing left down."""
    r = play(rules, [bet("a", "pass", 10), roll(*dice)])
    check(r, "a", 110, 0)
    assert point(r) is None
    assert rejected(r) == []


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize("dice", [(1, 1), (1, 2), (6, 6)])
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1i(2)(A)",
                    "N.J.A.C. 13:47-20.25(g)5",
                    "N.J.A.C. 19:47-1.2(a)1ii(1)",
                    "N.J.A.C. 13:69F-1.2(a)1ii(1)")
def test_pass_loses_on_craps(rules, dice):
    """13:47-20.25(h)1i(2)(A), 19:47-1.2(a)1ii(1), 13:69F-1.2(a)1ii(1): pass loses on a come-out
    2, 3 or 12. $10: 100 - 10 = 90."""
    r = play(rules, [bet("a", "pass", 10), roll(*dice)])
    check(r, "a", 90, 0)
    assert point(r) is None


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)1i(2)")
def test_pass_point_established_then_made():
    """13:69F-1.2(a)1i(2): a come-out 4 becomes the point, the pass bet stays (on_table 10,
    bankroll 90, state.point 4); 4 again before 7 wins 1 to 1: 90 + 10 + 10 = 110."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), roll(2, 2)])
    check(r, "a", 90, 10)
    assert point(r) == 4
    r = play(NJ_13_69F, [bet("a", "pass", 10), roll(2, 2), roll(3, 1)])
    check(r, "a", 110, 0)
    assert point(r) is None


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)1ii(2)")
def test_pass_seven_out():
    """13:69F-1.2(a)1ii(2): point 10, then 7 before 10: pass loses. 100 - 10 = 90."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), *rolls((5, 5), (3, 4))])
    check(r, "a", 90, 0)
    assert point(r) is None


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)1i(2)")
def test_pass_not_decided_by_other_totals_during_point():
    """13:69F-1.2(a)1i(2)/ii(2): with point 5, the totals 2, 11, 12, 6 decide nothing for pass.
    Bankroll 90, 10 still down, point still 5."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), *rolls((2, 3), (1, 1), (5, 6), (6, 6), (3, 3))])
    check(r, "a", 90, 10)
    assert point(r) == 5


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((1, 3), 4),
        ((2, 3), 5),
        ((1, 5), 6),
        ((2, 6), 8),
        ((3, 6), 9),
        ((4, 6), 10),
        ((3, 4), None),
        ((5, 6), None),
        ((1, 1), None),
        ((1, 2), None),
        ((6, 6), None),
    ],
)
@pytest.mark.clause("N.J.A.C. 13:69F-1.1")
def test_come_out_point(dice, expected):
    """13:69F-1.1 "Come out point": a come-out 4, 5, 6, 8, 9 or 10 is the point; naturals
    and craps leave no point (state.point null)."""
    r = play(NJ_13_69F, [roll(*dice)])
    assert point(r) == expected


# ------------------------------------------------------------------ don't pass


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize("dice", [(1, 1), (1, 2)])
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1ii(1)(A)",
                    "N.J.A.C. 19:47-1.2(a)2i(1)",
                    "N.J.A.C. 13:69F-1.2(a)2i(1)")
def test_dont_pass_wins_on_2_or_3(rules, dice):
    """13:47-20.25(h)1ii(1)(A), 19:47-1.2(a)2i(1), 13:69F-1.2(a)2i(1): don't pass wins on a
    come-out 2 or 3, 1 to 1: 100 - 10 + 20 = 110."""
    r = play(rules, [bet("a", "dont_pass", 10), roll(*dice)])
    check(r, "a", 110, 0)


@pytest.mark.parametrize("dice", [(3, 4), (5, 6)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)2ii(1)")
def test_dont_pass_loses_on_natural(dice):
    """13:69F-1.2(a)2ii(1): don't pass loses on a come-out 7 or 11: 100 - 10 = 90."""
    r = play(NJ_13_69F, [bet("a", "dont_pass", 10), roll(*dice)])
    check(r, "a", 90, 0)


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1ii(3)",
                    "N.J.A.C. 19:47-1.2(a)2iii",
                    "N.J.A.C. 13:69F-1.2(a)2iii")
def test_dont_pass_void_on_come_out_12(rules):
    """13:47-20.25(h)1ii(3), 19:47-1.2(a)2iii, 13:69F-1.2(a)2iii: don't pass is void on a
    come-out 12; contract: it stays where it is, undecided. Bankroll 90, on_table 10."""
    r = play(rules, [bet("a", "dont_pass", 10), roll(6, 6)])
    check(r, "a", 90, 10)
    assert point(r) is None
    assert rejected(r) == []


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)2iii")
def test_dont_pass_after_void_12_decided_by_next_come_out():
    """13:69F-1.2(a)2iii then 2i(1): after the void 12 the bet is still on the don't pass line;
    the next come-out 3 wins it: 90 + 20 = 110."""
    r = play(NJ_13_69F, [bet("a", "dont_pass", 10), roll(6, 6), roll(1, 2)])
    check(r, "a", 110, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)2i(2)")
def test_dont_pass_wins_on_seven_out():
    """13:69F-1.2(a)2i(2): point 6, then 7: don't pass wins 1 to 1: 100 - 10 + 20 = 110."""
    r = play(NJ_13_69F, [bet("a", "dont_pass", 10), *rolls((3, 3), (4, 3))])
    check(r, "a", 110, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)2ii(2)")
def test_dont_pass_loses_when_point_made():
    """13:69F-1.2(a)2ii(2): point 6, then 6 (5+1) before 7: don't pass loses: 90."""
    r = play(NJ_13_69F, [bet("a", "dont_pass", 10), *rolls((3, 3), (5, 1))])
    check(r, "a", 90, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)2iii")
def test_dont_pass_12_during_point_is_not_void():
    """13:69F-1.2(a)2iii speaks only of the come-out roll: a 12 while point 6 stands decides
    nothing; then 7 wins: 100 - 10 + 20 = 110."""
    r = play(NJ_13_69F, [bet("a", "dont_pass", 10), *rolls((3, 3), (6, 6), (3, 4))])
    check(r, "a", 110, 0)


@pytest.mark.parametrize("wager", ["pass", "dont_pass"])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)1", "N.J.A.C. 13:69F-1.2(a)2")
def test_line_bet_refused_while_point_is_on(wager):
    """13:69F-1.2(a)1, 2: pass / don't pass are placed "immediately prior to the come out
    roll"; contract: only before a come-out roll. With point 4 the bet (index 1) is refused."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", wager, 10)])
    assert rejected(r) == [1]
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.1")
def test_pass_accepted_again_after_point_decided():
    """13:69F-1.1 "Come out roll": the roll after the pass-line decision is a come-out, so a
    pass bet may be made again. Point 4 made, pass 10, come-out 7: 100 - 10 + 20 = 110."""
    r = play(NJ_13_69F, [*rolls((2, 2), (1, 3)), bet("a", "pass", 10), roll(3, 4)])
    assert rejected(r) == []
    check(r, "a", 110, 0)


# ------------------------------------------------------------------ come / don't come


@pytest.mark.parametrize("wager", ["come", "dont_come"])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)3", "N.J.A.C. 13:69F-1.2(a)4")
def test_come_refused_on_come_out(wager):
    """13:69F-1.2(a)3, 4: come / don't come are made "at any time after the come out roll";
    contract: only while a point is established. Index 0 refused; bankroll untouched."""
    r = play(NJ_13_69F, [bet("a", wager, 10)])
    assert rejected(r) == [0]
    check(r, "a", 100, 0)


@pytest.mark.parametrize("dice", [(3, 4), (5, 6)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)3i(1)")
def test_come_wins_on_natural_come_roll(dice):
    """13:69F-1.2(a)3i(1): come wins on 7 or 11 on the roll after it is placed, 1 to 1.
    Point 4, come 10, roll 7/11: 100 - 10 + 20 = 110."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "come", 10), roll(*dice)])
    check(r, "a", 110, 0)


@pytest.mark.parametrize("dice", [(1, 1), (1, 2), (6, 6)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)3ii(1)")
def test_come_loses_on_craps(dice):
    """13:69F-1.2(a)3ii(1): come loses on 2, 3, 12 on its first roll. 100 - 10 = 90; the
    shooter's point 4 is unaffected."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "come", 10), roll(*dice)])
    check(r, "a", 90, 0)
    assert point(r) == 4


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)3i(2)")
def test_come_travels_and_wins():
    """13:69F-1.2(a)3i(2) and 1.1 "Come point": point 4; come 10; a 6 makes it a come point
    (still down: 90 / 10); 6 again (4+2) wins 1 to 1: 90 + 20 = 110."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "come", 10), roll(3, 3)])
    check(r, "a", 90, 10)
    assert point(r) == 4
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "come", 10), roll(3, 3), roll(4, 2)])
    check(r, "a", 110, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)3ii(2)")
def test_come_travels_and_loses_on_seven():
    """13:69F-1.2(a)3ii(2): come point 6, then 7: come loses. 100 - 10 = 90."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "come", 10), *rolls((3, 3), (3, 4))])
    check(r, "a", 90, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)3i(2)")
def test_come_point_survives_pass_decision_and_wins_on_come_out():
    """13:69F-1.2(a)3i(2): a come bet on 6 is decided only by 6 or 7. Pass 10, point 4,
    come 10 -> 6, 4 made (pass +20 -> 100, come still down: on_table 10), come-out 6 (4+2)
    wins the come bet (the come bet itself is never off, 1.3(e)): 100 + 20 = 120; point 6."""
    actions = [bet("a", "pass", 10), roll(2, 2), bet("a", "come", 10), roll(3, 3), roll(1, 3)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 100, 10)
    assert point(r) is None
    r = play(NJ_13_69F, [*actions, roll(4, 2)])
    check(r, "a", 120, 0)
    assert point(r) == 6


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)3")
def test_new_come_bet_moves_to_number_just_won():
    """13:69F-1.2(a)3: pass 10, point 4, come 10 -> 6, come 5, roll 6: the first come bet wins
    (+20) while the new one moves to 6. 100 - 10 - 10 - 5 + 20 = 95; on_table 10 + 5 = 15.
    Then 7: pass and the come bet on 6 lose: 95, 0."""
    actions = [
        bet("a", "pass", 10),
        roll(2, 2),
        bet("a", "come", 10),
        roll(3, 3),
        bet("a", "come", 5),
        roll(4, 2),
    ]
    r = play(NJ_13_69F, actions)
    check(r, "a", 95, 15)
    r = play(NJ_13_69F, [*actions, roll(3, 4)])
    check(r, "a", 95, 0)


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1iv(3)",
                    "N.J.A.C. 19:47-1.2(a)4iii",
                    "N.J.A.C. 13:69F-1.2(a)4iii")
def test_dont_come_void_on_12(rules):
    """13:47-20.25(h)1iv(3), 19:47-1.2(a)4iii, 13:69F-1.2(a)4iii: don't come is void on a 12 on
    its first roll; contract: it stays, undecided (90 / 10). The next roll, a 3, wins it:
    90 + 20 = 110."""
    r = play(rules, [roll(2, 2), bet("a", "dont_come", 10), roll(6, 6)])
    check(r, "a", 90, 10)
    r = play(rules, [roll(2, 2), bet("a", "dont_come", 10), roll(6, 6), roll(1, 2)])
    check(r, "a", 110, 0)


@pytest.mark.parametrize("dice", [(1, 1), (1, 2)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)4i(1)")
def test_dont_come_wins_on_2_or_3(dice):
    """13:69F-1.2(a)4i(1): don't come wins on 2 or 3 on its first roll: 100 - 10 + 20 = 110."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "dont_come", 10), roll(*dice)])
    check(r, "a", 110, 0)


@pytest.mark.parametrize("dice", [(3, 4), (5, 6)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)4ii(1)")
def test_dont_come_loses_on_natural(dice):
    """13:69F-1.2(a)4ii(1): don't come loses on 7 or 11 on its first roll: 90."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "dont_come", 10), roll(*dice)])
    check(r, "a", 90, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)4i(2)")
def test_dont_come_travels_and_wins_on_seven():
    """13:69F-1.2(a)4i(2): don't come moves to 6, then 7: wins 1 to 1: 100 - 10 + 20 = 110."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "dont_come", 10), *rolls((3, 3), (3, 4))])
    check(r, "a", 110, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)4ii(2)")
def test_dont_come_travels_and_loses_when_number_repeats():
    """13:69F-1.2(a)4ii(2): don't come on 6, then 6 (2+4) before 7: loses: 90."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "dont_come", 10), *rolls((3, 3), (2, 4))])
    check(r, "a", 90, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)4iii")
def test_dont_come_12_after_moving_is_not_void():
    """13:69F-1.2(a)4iii is about the first roll only: don't come on 6, a 12 decides nothing
    (still 90 / 10)."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "dont_come", 10), *rolls((3, 3), (6, 6))])
    check(r, "a", 90, 10)


# ------------------------------------------------------------------ removal 13:69F-1.3(c), (d)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)1")
def test_pass_cannot_be_removed_after_point():
    """13:69F-1.3(c)1: a pass bet shall not be removed after a come out point is established.
    The remove (index 2) is refused; 90 / 10 stays."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), roll(2, 2), remove("a", "pass")])
    assert rejected(r) == [2]
    check(r, "a", 90, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)1")
def test_pass_cannot_be_reduced_after_point():
    """13:69F-1.3(c)1: nor reduced. reduce 5 (index 2) refused; 90 / 10."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), roll(2, 2), reduce("a", "pass", 5)])
    assert rejected(r) == [2]
    check(r, "a", 90, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)")
def test_pass_may_be_removed_before_come_out():
    """13:69F-1.3(c): any wager may be removed before the roll that decides it: pass 10 then
    remove: 100 / 0."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), remove("a", "pass")])
    assert rejected(r) == []
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)")
def test_pass_may_be_reduced_before_come_out():
    """13:69F-1.3(c): pass 10 reduced by 4 before the come-out: 100 - 10 + 4 = 94 / 6."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), reduce("a", "pass", 4)])
    assert rejected(r) == []
    check(r, "a", 94, 6)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)1")
def test_come_cannot_be_removed_after_come_point():
    """13:69F-1.3(c)1: a come bet shall not be removed after its come point is established.
    Point 4, come 10 -> 6, remove (index 3) refused: 90 / 10."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "come", 10), roll(3, 3), remove("a", "come")])
    assert rejected(r) == [3]
    check(r, "a", 90, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)")
def test_come_may_be_removed_before_its_first_roll():
    """13:69F-1.3(c): before the come roll nothing is established; come 10 removed: 100 / 0."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "come", 10), remove("a", "come")])
    assert rejected(r) == []
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(d)")
def test_dont_pass_may_be_removed_after_point():
    """13:69F-1.3(d): a don't pass bet may be removed at any time: point 4, remove: 100 / 0."""
    r = play(NJ_13_69F, [bet("a", "dont_pass", 10), roll(2, 2), remove("a", "dont_pass")])
    assert rejected(r) == []
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(d)")
def test_dont_pass_reduced_after_point_then_wins():
    """13:69F-1.3(d): reduce at any time. dont_pass 10, point 4, reduce 4 -> 94 / 6; then 7
    wins 6 at 1 to 1: 94 + 12 = 106."""
    actions = [bet("a", "dont_pass", 10), roll(2, 2), reduce("a", "dont_pass", 4)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 94, 6)
    r = play(NJ_13_69F, [*actions, roll(3, 4)])
    check(r, "a", 106, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(d)")
def test_dont_pass_not_increased_after_reduction():
    """13:69F-1.3(d): may not be increased after a reduction: dont_pass 10, point 4, reduce 4,
    bet dont_pass 4 (index 3) refused: 94 / 6."""
    actions = [
        bet("a", "dont_pass", 10),
        roll(2, 2),
        reduce("a", "dont_pass", 4),
        bet("a", "dont_pass", 4),
    ]
    r = play(NJ_13_69F, actions)
    assert rejected(r) == [3]
    check(r, "a", 94, 6)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(d)")
def test_dont_pass_not_replaced_until_next_decision():
    """13:69F-1.3(d) "may not be replaced ... after such removal" + contract: no new one until
    the next pass-line decision. dont_pass 10, remove, dont_pass 10 (index 2, refused), come-out
    7 (a pass-line decision), dont_pass 10 accepted: 100 - 10 = 90 / 10."""
    actions = [
        bet("a", "dont_pass", 10),
        remove("a", "dont_pass"),
        bet("a", "dont_pass", 10),
        roll(3, 4),
        bet("a", "dont_pass", 10),
    ]
    r = play(NJ_13_69F, actions)
    assert rejected(r) == [2]
    check(r, "a", 90, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(d)")
def test_dont_come_may_be_removed_after_come_point():
    """13:69F-1.3(d): don't come may be removed at any time: on 6, removed: 100 / 0."""
    actions = [roll(2, 2), bet("a", "dont_come", 10), roll(3, 3), remove("a", "dont_come")]
    r = play(NJ_13_69F, actions)
    assert rejected(r) == []
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(d)")
def test_dont_come_not_replaced_until_next_roll():
    """13:69F-1.3(d) + contract (window for don't come: the next roll). DC 10 -> 6, reduce 5,
    new DC 5 (index 4) refused; after a roll of 5 a new DC 5 is taken.
    100 - 10 + 5 - 5 = 90; on_table 5 (on 6) + 5 (new) = 10."""
    actions = [
        roll(2, 2),
        bet("a", "dont_come", 10),
        roll(3, 3),
        reduce("a", "dont_come", 5),
        bet("a", "dont_come", 5),
        roll(1, 4),
        bet("a", "dont_come", 5),
    ]
    r = play(NJ_13_69F, actions)
    assert rejected(r) == [4]
    check(r, "a", 90, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)4iii")
def test_dont_come_after_void_12_loses_on_seven():
    """13:69F-1.2(a)4iii then 4ii(1): after the void 12 the don't come bet is still waiting for
    its first deciding roll; a 7 is then a natural for it and it loses: 100 - 10 = 90."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "dont_come", 10), roll(6, 6), roll(3, 4)])
    check(r, "a", 90, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)2iii")
def test_dont_pass_twelve_twice_then_point_and_seven():
    """13:69F-1.2(a)2iii, 2i(2): two come-out 12s are void, then point 9 and a 7 wins:
    100 - 10 + 20 = 110."""
    r = play(NJ_13_69F, [bet("a", "dont_pass", 10), *rolls((6, 6), (6, 6), (4, 5), (2, 5))])
    check(r, "a", 110, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(d)")
def test_dont_pass_taken_again_after_seven_out():
    """13:69F-1.3(d) + contract: after a removal, a new don't pass is taken once the decision
    window opens again. dont_pass 10, point 4, removed; seven-out (pass-line decision);
    dont_pass 10 accepted on the next come-out: 90 / 10."""
    actions = [
        bet("a", "dont_pass", 10),
        roll(2, 2),
        remove("a", "dont_pass"),
        roll(3, 4),
        bet("a", "dont_pass", 10),
    ]
    r = play(NJ_13_69F, actions)
    assert rejected(r) == []
    check(r, "a", 90, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)")
def test_remove_or_reduce_a_wager_not_down_is_refused():
    """Contract `remove`/`reduce` take down a wager that is down; with none down both are
    refused and nothing changes."""
    r = play(NJ_13_69F, [remove("a", "pass"), reduce("a", "field", 5)])
    assert rejected(r) == [0, 1]
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_pass_pays_override():
    """13:69F-1.4(b): a licensee may pay more than 1 to 1; contract `pays` {"pass": "2 to 1"}:
    natural pays 20: 100 - 10 + 30 = 120."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), roll(3, 4)], pays={"pass": "2 to 1"})
    check(r, "a", 120, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)3")
def test_several_come_bets_on_different_numbers():
    """13:69F-1.2(a)3: pass on 4; come 10 -> 6; come 10 -> 8; 8 (2+6) wins the second (+20);
    7 loses pass and the come on 6. 100 - 30 + 20 = 90 / 0."""
    actions = [
        bet("a", "pass", 10),
        roll(2, 2),
        bet("a", "come", 10),
        roll(3, 3),
        bet("a", "come", 10),
        roll(4, 4),
        roll(2, 6),
    ]
    r = play(NJ_13_69F, actions)
    check(r, "a", 90, 20)
    r = play(NJ_13_69F, [*actions, roll(3, 4)])
    check(r, "a", 90, 0)
