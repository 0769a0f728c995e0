"""Free odds behind the line and on come / don't come bets (nj-13-69f, whose 13:69F-1.3(e)
speaks of come odds), the `odds` table option (3-4-5 and N times), lay odds limits,
payability (13:69F-1.4(f)) and come odds being off on the come-out roll (13:69F-1.3(e))."""

from __future__ import annotations

import pytest

from .conftest import (
    CASINO_NIGHT,
    NJ_13_69F,
    NJ_19_47,
    bet,
    check,
    on,
    play,
    point,
    reasons,
    reduce,
    rejected,
    remove,
    roll,
)

BANK = {"a": "300"}

# point number -> (dice that set the point, dice that make it with other faces)
POINT_DICE = {
    4: ((2, 2), (1, 3)),
    5: ((2, 3), (1, 4)),
    6: ((3, 3), (1, 5)),
    8: ((4, 4), (2, 6)),
    9: ((3, 6), (4, 5)),
    10: ((5, 5), (4, 6)),
}


# ------------------------------------------------------------------ pass odds, 3-4-5


@pytest.mark.parametrize(
    ("number", "odds", "win"),
    [(4, 30, 60), (10, 30, 60), (5, 40, 60), (9, 40, 60), (6, 50, 60), (8, 50, 60)],
)
@pytest.mark.clause("replay contract: Table options (odds)")
def test_pass_odds_at_3_4_5_maximum(number, odds, win):
    """Contract `odds` "3-4-5" (default under nj-13-69f): 3x on 4/10, 4x on 5/9, 5x on 6/8;
    paid at true odds 2 to 1, 3 to 2, 6 to 5. Flat 10: 4 -> 30 wins 60; 5 -> 40 wins 60;
    6 -> 50 wins 60. Bankroll 300 - 10 - odds + 20 + odds + 60 = 370 in every case."""
    set_dice, make_dice = POINT_DICE[number]
    actions = [bet("a", "pass", 10), roll(*set_dice), bet("a", "pass_odds", odds)]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == []
    check(r, "a", 300 - 10 - odds, 10 + odds)
    r = play(NJ_13_69F, [*actions, roll(*make_dice)], BANK)
    check(r, "a", 300 - 10 - odds + 20 + odds + win, 0)
    assert 300 - 10 - odds + 20 + odds + win == 370


@pytest.mark.parametrize(("number", "odds"), [(4, 32), (10, 32), (5, 42), (9, 42), (6, 55), (8, 55)])
@pytest.mark.clause("replay contract: Table options (odds)")
def test_pass_odds_over_3_4_5_refused(number, odds):
    """Contract `odds` "3-4-5": above 3x / 4x / 5x the flat bet is refused. Amounts chosen to be
    payable (32 at 2 to 1 = 64, 42 at 3 to 2 = 63, 55 at 6 to 5 = 66) so only the limit decides.
    Refused at index 2: 290 / 10."""
    set_dice, _ = POINT_DICE[number]
    r = play(NJ_13_69F, [bet("a", "pass", 10), roll(*set_dice), bet("a", "pass_odds", odds)], BANK)
    assert rejected(r) == [2]
    check(r, "a", 290, 10)


@pytest.mark.clause("replay contract: Table options (odds)")
def test_pass_odds_n_times():
    """Contract `odds` N = 2: odds stake up to 2x the flat bet. Flat 10 on 6: odds 25 refused
    (index 2, payable 30 but over 20); odds 20 accepted; 6 made: 20 at 6 to 5 = 24.
    300 - 10 - 20 + 20 + 20 + 24 = 334."""
    actions = [
        bet("a", "pass", 10),
        roll(3, 3),
        bet("a", "pass_odds", 25),
        bet("a", "pass_odds", 20),
        roll(2, 4),
    ]
    r = play(NJ_13_69F, actions, BANK, odds="2")
    assert rejected(r) == [2]
    check(r, "a", 334, 0)


@pytest.mark.clause("replay contract: Table options (odds)", "replay contract: Limits")
def test_pass_odds_limit_counts_the_total_after_addition():
    """Contract, pinned "Limits ... apply to the total after an addition" and `odds` N = 2:
    flat 10 on 4, odds 20, then +2 (total 22 > 20) refused at index 3: 270 / 30."""
    actions = [bet("a", "pass", 10), roll(2, 2), bet("a", "pass_odds", 20), bet("a", "pass_odds", 2)]
    r = play(NJ_13_69F, actions, BANK, odds="2")
    assert rejected(r) == [3]
    check(r, "a", 270, 30)


@pytest.mark.clause("replay contract: Table options (odds)")
def test_odds_none_refuses_odds():
    """Contract `odds` "none": no free odds. pass_odds (index 2) refused: 290 / 10."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), roll(2, 2), bet("a", "pass_odds", 10)], BANK, odds="none")
    assert rejected(r) == [2]
    check(r, "a", 290, 10)


@pytest.mark.parametrize("rules", [NJ_19_47, CASINO_NIGHT])
@pytest.mark.clause("N.J.A.C. 19:47-1.2(b)", "N.J.A.C. 13:47-20.25(h)")
def test_odds_not_permitted_by_profile(rules):
    """Contract: free odds exist only where the profile permits them (nj-13-69f); the `odds`
    option is accepted under every profile. 19:47-1.2(b) / 13:47-20.25(h),(l) list no odds bet:
    refused (index 2) with a reason naming the profile; 290 / 10."""
    r = play(rules, [bet("a", "pass", 10), roll(2, 2), bet("a", "pass_odds", 20)], BANK, odds="2")
    assert rejected(r) == [2]
    check(r, "a", 290, 10)
    text = reasons(r)[0]
    assert rules in text or ("19:47" in text if rules == NJ_19_47 else "13:47-20.25" in text)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_pass_odds_not_payable_refused():
    """13:69F-1.4(f) + contract `unit`: $5 odds on 5 at 3 to 2 would pay 7.50, not a multiple
    of unit 1: refused (index 2). $6 pays 9: accepted. 300 - 10 - 6 = 284 / 16."""
    actions = [bet("a", "pass", 10), roll(2, 3), bet("a", "pass_odds", 5), bet("a", "pass_odds", 6)]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == [2]
    check(r, "a", 284, 16)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_pass_odds_on_six_not_payable_refused():
    """13:69F-1.4(f): $7 odds on 6 at 6 to 5 would pay 8.40: refused at unit 1."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), roll(3, 3), bet("a", "pass_odds", 7)], BANK)
    assert rejected(r) == [2]
    check(r, "a", 290, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_pass_odds_payable_at_half_unit():
    """Contract `unit` "0.5": $5 odds on 5 pays 7.50, a multiple of 0.50: accepted. Point 5
    made: 300 - 10 - 5 + 20 + 5 + 7.50 = 317.50."""
    actions = [bet("a", "pass", 10), roll(2, 3), bet("a", "pass_odds", 5), roll(1, 4)]
    r = play(NJ_13_69F, actions, BANK, unit="0.5")
    assert rejected(r) == []
    check(r, "a", "317.50", 0)


@pytest.mark.clause("replay contract: Table options (odds)")
def test_pass_odds_lose_on_seven_out():
    """Odds behind the line lose with the line bet: point 4, odds 30, 7: 300 - 40 = 260."""
    actions = [bet("a", "pass", 10), roll(2, 2), bet("a", "pass_odds", 30), roll(3, 4)]
    r = play(NJ_13_69F, actions, BANK)
    check(r, "a", 260, 0)


@pytest.mark.clause("replay contract: Table options (odds)")
def test_pass_odds_refused_before_point():
    """Contract: line odds only while the player's flat bet stands on a point. On the come-out
    pass_odds (index 1) is refused: 290 / 10."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), bet("a", "pass_odds", 10)], BANK)
    assert rejected(r) == [1]
    check(r, "a", 290, 10)


@pytest.mark.clause("replay contract: Table options (odds)")
def test_pass_odds_refused_without_flat_bet():
    """Contract: line odds only behind the player's own flat bet. No pass bet: refused."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "pass_odds", 10)], BANK)
    assert rejected(r) == [1]
    check(r, "a", 300, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)")
def test_pass_odds_may_be_removed():
    """Contract "Removal": any other wager may be removed before the roll that decides it.
    Point 4, odds 30 removed: 300 - 10 = 290 / 10."""
    actions = [bet("a", "pass", 10), roll(2, 2), bet("a", "pass_odds", 30), remove("a", "pass_odds")]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == []
    check(r, "a", 290, 10)


# ------------------------------------------------------------------ lay odds


@pytest.mark.parametrize(("number", "lay", "win"), [(4, 120, 60), (5, 90, 60), (6, 72, 60)])
@pytest.mark.clause("replay contract: Table options (odds)")
def test_lay_odds_at_3_4_5_maximum(number, lay, win):
    """Contract `odds` "3-4-5": lay odds may win up to 6x the flat bet (10 -> 60). True odds
    1 to 2, 2 to 3, 5 to 6: 120 on 4, 90 on 5, 72 on 6 each win 60. Seven-out:
    300 - 10 - lay + 20 + lay + 60 = 370."""
    set_dice, _ = POINT_DICE[number]
    actions = [bet("a", "dont_pass", 10), roll(*set_dice), bet("a", "dont_pass_odds", lay), roll(3, 4)]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == []
    check(r, "a", 300 - 10 - lay + 20 + lay + win, 0)


@pytest.mark.parametrize(("number", "lay"), [(4, 122), (5, 93), (6, 78)])
@pytest.mark.clause("replay contract: Table options (odds)")
def test_lay_odds_over_3_4_5_refused(number, lay):
    """Contract "3-4-5": lay odds may win up to 6x the flat bet = 60. 122 on 4 wins 61, 93 on 5
    wins 62, 78 on 6 wins 65 (all payable): refused at index 2; 290 / 10."""
    set_dice, _ = POINT_DICE[number]
    actions = [bet("a", "dont_pass", 10), roll(*set_dice), bet("a", "dont_pass_odds", lay)]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == [2]
    check(r, "a", 290, 10)


@pytest.mark.clause("replay contract: Table options (odds)")
def test_lay_odds_n_times():
    """Contract `odds` N = 2: lay odds may win up to 2x the flat bet (20). On 4 (1 to 2): 42
    would win 21, refused (index 2); 40 wins 20, accepted. 300 - 10 - 40 = 250 / 50."""
    actions = [
        bet("a", "dont_pass", 10),
        roll(2, 2),
        bet("a", "dont_pass_odds", 42),
        bet("a", "dont_pass_odds", 40),
    ]
    r = play(NJ_13_69F, actions, BANK, odds="2")
    assert rejected(r) == [2]
    check(r, "a", 250, 50)


@pytest.mark.parametrize(("number", "lay"), [(4, 11), (5, 10), (6, 10)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_lay_odds_not_payable_refused(number, lay):
    """13:69F-1.4(f): 11 on 4 would win 5.50, 10 on 5 6.67, 10 on 6 8.33: not multiples of
    unit 1, refused (index 2)."""
    set_dice, _ = POINT_DICE[number]
    actions = [bet("a", "dont_pass", 10), roll(*set_dice), bet("a", "dont_pass_odds", lay)]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == [2]
    check(r, "a", 290, 10)


@pytest.mark.clause("replay contract: Table options (odds)")
def test_lay_odds_lose_when_point_made():
    """Lay odds lose with the don't pass bet: point 6, lay 12, 6 made: 300 - 22 = 278."""
    actions = [bet("a", "dont_pass", 10), roll(3, 3), bet("a", "dont_pass_odds", 12), roll(4, 2)]
    r = play(NJ_13_69F, actions, BANK)
    check(r, "a", 278, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(d)", "replay contract: Table options (odds)")
def test_dont_pass_cannot_be_cut_below_its_odds():
    """Contract pinned: a flat bet cannot be cut below what the odds behind it need. dont_pass
    10 on 4 with lay 120 (wins 60 = 6 x 10); reducing the flat to 5 would cap wins at 30:
    refused (index 3); 170 / 130."""
    actions = [
        bet("a", "dont_pass", 10),
        roll(2, 2),
        bet("a", "dont_pass_odds", 120),
        reduce("a", "dont_pass", 5),
    ]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == [3]
    check(r, "a", 170, 130)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(d)")
def test_dont_pass_may_be_cut_while_odds_still_fit():
    """13:69F-1.3(d) + contract: lay 60 on 4 wins 30 = 6 x 5, so a flat of 5 still covers it:
    the reduction is taken. 300 - 10 - 60 + 5 = 235 / 65."""
    actions = [
        bet("a", "dont_pass", 10),
        roll(2, 2),
        bet("a", "dont_pass_odds", 60),
        reduce("a", "dont_pass", 5),
    ]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == []
    check(r, "a", 235, 65)


# ------------------------------------------------------------------ come odds


def _come_on(number_dice):
    return [bet("a", "pass", 10), roll(2, 2), bet("a", "come", 10), roll(*number_dice)]


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_come_odds_win():
    """13:69F-1.3(e) come odds; contract: come odds on the player's come bet on that number.
    Pass on 4, come -> 5, come odds 20 on 5; 5 (4+1): come +10, odds 3 to 2 = 30.
    300 - 40 + 20 + 50 = 330; pass still down: on_table 10."""
    actions = [*_come_on((3, 2)), bet("a", "come_odds", 20, number=5), roll(4, 1)]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == []
    check(r, "a", 330, 10)


@pytest.mark.clause("replay contract: Table options (odds)")
def test_come_odds_limit_3_4_5():
    """Contract "3-4-5": 4x on 5 -> at most 40 behind a 10 come bet. 44 (payable 66) refused at
    index 4; 40 accepted. 300 - 20 - 40 = 240 / 60."""
    actions = [
        *_come_on((3, 2)),
        bet("a", "come_odds", 44, number=5),
        bet("a", "come_odds", 40, number=5),
    ]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == [4]
    check(r, "a", 240, 60)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)", "replay contract: Table options (odds)")
def test_come_odds_need_a_come_bet_on_that_number():
    """Contract: come odds only on the player's come bet standing on that number. Come bet on
    5, odds on 6 (index 4) refused."""
    actions = [*_come_on((3, 2)), bet("a", "come_odds", 10, number=6)]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == [4]
    check(r, "a", 280, 20)


def _come_odds_then_point_made():
    # pass on 4, come -> 6, come odds 10 on 6, 4 made: pass +20.
    # 300 - 10 - 10 - 10 + 20 = 290, come 10 + odds 10 still down.
    return [
        *_come_on((3, 3)),
        bet("a", "come_odds", 10, number=6),
        roll(1, 3),
    ]


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_come_odds_off_on_come_out_returned_when_come_loses():
    """13:69F-1.3(e): come odds are inactive on a come-out roll unless called on; contract: odds
    that are off when their come bet is decided go back to the bankroll. Come-out 7: come bet
    on 6 loses 10, odds 10 returned: 290 + 10 = 300 / 0."""
    r = play(NJ_13_69F, _come_odds_then_point_made(), BANK)
    check(r, "a", 290, 20)
    assert point(r) is None
    r = play(NJ_13_69F, [*_come_odds_then_point_made(), roll(3, 4)], BANK)
    check(r, "a", 300, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_come_odds_off_on_come_out_returned_when_come_wins():
    """13:69F-1.3(e): come-out 6 (4+2) wins the come bet (+20) but the off odds are returned,
    not paid (+10): 290 + 30 = 320 / 0; the 6 is the new point."""
    r = play(NJ_13_69F, [*_come_odds_then_point_made(), roll(4, 2)], BANK)
    check(r, "a", 320, 0)
    assert point(r) == 6


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_come_odds_called_on_lose_on_come_out_seven():
    """13:69F-1.3(e): called "On", the come odds work: come-out 7 loses come 10 and odds 10:
    290 / 0."""
    r = play(NJ_13_69F, [*_come_odds_then_point_made(), on("a", "come_odds", number=6), roll(3, 4)], BANK)
    assert rejected(r) == []
    check(r, "a", 290, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_come_odds_called_on_win_on_come_out():
    """13:69F-1.3(e): called "On", come-out 6 wins come 10 (+20) and odds 10 at 6 to 5 (+10+12):
    290 + 42 = 332."""
    r = play(NJ_13_69F, [*_come_odds_then_point_made(), on("a", "come_odds", number=6), roll(4, 2)], BANK)
    check(r, "a", 332, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_come_odds_work_while_point_is_on():
    """13:69F-1.3(e) applies only to come-out rolls: with point 4 still on, come on 6 with odds
    10, a 7 loses both: 300 - 30 = 270 (pass lost too)."""
    actions = [*_come_on((3, 3)), bet("a", "come_odds", 10, number=6), roll(3, 4)]
    r = play(NJ_13_69F, actions, BANK)
    check(r, "a", 270, 0)


@pytest.mark.clause("replay contract: Table options (odds)")
def test_dont_come_odds_win():
    """Don't come odds at true odds (lay 2 to 3 on 5). Pass on 4, DC -> 5, lay 30 on 5
    (wins 20 <= 60), 7: pass loses, DC +10, odds +20. 300 - 50 + 20 + 50 = 320."""
    actions = [
        bet("a", "pass", 10),
        roll(2, 2),
        bet("a", "dont_come", 10),
        roll(3, 2),
        bet("a", "dont_come_odds", 30, number=5),
        roll(3, 4),
    ]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == []
    check(r, "a", 320, 0)


@pytest.mark.clause("replay contract: Table options (odds)")
def test_dont_come_odds_limit():
    """Contract "3-4-5": lay odds may win up to 6 x 10 = 60. On 5, 93 would win 62: refused
    (index 4); 90 wins 60: accepted. 300 - 10 - 10 - 90 = 190 / 110."""
    actions = [
        bet("a", "pass", 10),
        roll(2, 2),
        bet("a", "dont_come", 10),
        roll(3, 2),
        bet("a", "dont_come_odds", 93, number=5),
        bet("a", "dont_come_odds", 90, number=5),
    ]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == [4]
    check(r, "a", 190, 110)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(d)")
def test_dont_pass_flat_cannot_be_removed_under_its_odds():
    """13:69F-1.3(d) lets don't pass be removed, but the contract pins that a flat bet cannot be
    cut below what the odds behind it need; removal cuts it to 0 while lay 20 on 4 stands:
    refused (index 3): 270 / 30."""
    actions = [
        bet("a", "dont_pass", 10),
        roll(2, 2),
        bet("a", "dont_pass_odds", 20),
        remove("a", "dont_pass"),
    ]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == [3]
    check(r, "a", 270, 30)


@pytest.mark.clause("replay contract: Table options (odds)")
def test_come_odds_limit_on_four():
    """Contract "3-4-5": 3x on 4 -> at most 30 behind a 10 come bet on 4. 32 (payable 64)
    refused at index 4; 30 accepted: 300 - 20 - 30 = 250 / 50."""
    actions = [
        bet("a", "pass", 10),
        roll(5, 5),
        bet("a", "come", 10),
        roll(1, 3),
        bet("a", "come_odds", 32, number=4),
        bet("a", "come_odds", 30, number=4),
    ]
    r = play(NJ_13_69F, actions, BANK)
    assert rejected(r) == [4]
    check(r, "a", 250, 50)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_events_name_the_returned_come_odds():
    """Contract "Result": events must name every settlement (wager, stake, result, amount).
    Engine convention: {"type": "settle", ..., "result": win/lose/push/returned}. In the
    come-out-7 case the come bet is lost (10 taken) and the off odds are returned (10)."""
    r = play(NJ_13_69F, [*_come_odds_then_point_made(), roll(3, 4)], BANK)
    settles = [e for e in r["events"] if e.get("type") == "settle"]
    results = sorted(e["result"] for e in settles if e.get("player") == "a")
    # pass won on the 4; come lost and come odds returned on the 7
    assert results.count("returned") == 1
    returned = next(e for e in settles if e["result"] == "returned")
    assert returned["stake"] == "10.00"
    assert returned["returned"] == "10.00"
    lost = [e for e in settles if e["result"] == "lose"]
    assert len(lost) == 1
    assert lost[0]["taken"] == "10.00"


# Not asserted (ambiguous): whether don't come odds are off on the come-out. 13:69F-1.3(e)
# names only "come odds"; the contract repeats that wording, and it is unclear whether lay
# odds on a don't come bet fall under it.
