"""Place bets to win / to lose, buy and lay bets: pay tables, staying up after a win, off on
the come-out unless called on, commission (rate, timing, rounding, base, top-up)."""

from __future__ import annotations

import pytest

from .conftest import (
    CASINO_NIGHT,
    NJ_13_69F,
    NJ_19_47,
    PROFILES,
    bet,
    check,
    off,
    on,
    play,
    point,
    reasons,
    reduce,
    rejected,
    remove,
    roll,
)

NUMBER_DICE = {4: (1, 3), 5: (1, 4), 6: (1, 5), 8: (2, 6), 9: (3, 6), 10: (4, 6)}


def set_point_other_than(number: int):
    """A come-out roll establishing a point that is not `number` (4, or 10 when number is 4)."""
    return roll(5, 5) if number == 4 else roll(2, 2)


# ------------------------------------------------------------------ place to win


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize(
    ("number", "stake", "win"),
    [(4, 5, 9), (5, 5, 7), (6, 6, 7), (8, 6, 7), (9, 5, 7), (10, 5, 9)],
)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2", "N.J.A.C. 19:47-1.4(b)", "N.J.A.C. 13:69F-1.4(b)")
def test_place_win_pays(rules, number, stake, win):
    """13:47-20.25(i)2, 19:47-1.4(b), 13:69F-1.4(b): place to win 4/10 9 to 5, 5/9 7 to 5,
    6/8 7 to 6. With a point on, the number wins; the bet stays up (contract "What stays up"):
    bankroll 100 - stake + win, on_table = stake."""
    actions = [
        set_point_other_than(number),
        bet("a", "place_win", stake, number=number),
        roll(*NUMBER_DICE[number]),
    ]
    r = play(rules, actions)
    assert rejected(r) == []
    check(r, "a", 100 - stake + win, stake)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)5")
def test_place_win_loses_on_seven():
    """13:69F-1.2(a)5: loses if a 7 is thrown before the number. Point 4, place 6 $12, 7:
    100 - 12 = 88 / 0."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "place_win", 12, number=6), roll(3, 4)])
    check(r, "a", 88, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_place_win_stays_up_wins_again_then_taken_down():
    """13:69F-1.4(b) 7 to 6; contract: place bets stay up after a win. Point 4, place 6 $12:
    6 wins 14, 6 wins 14 again, then taken down: 100 - 12 + 14 + 14 = 116 / 12, then 128 / 0."""
    actions = [roll(2, 2), bet("a", "place_win", 12, number=6), roll(1, 5), roll(2, 4)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 116, 12)
    r = play(NJ_13_69F, [*actions, remove("a", "place_win", number=6)])
    check(r, "a", 128, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)5")
def test_place_win_untouched_by_other_numbers():
    """13:69F-1.2(a)5: only the number or a 7 decides. Place 6 $6 with point 4, rolls 5, 8, 11,
    2: 94 / 6."""
    actions = [roll(2, 2), bet("a", "place_win", 6, number=6), roll(2, 3), roll(4, 4), roll(5, 6), roll(1, 1)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 94, 6)


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1v", "N.J.A.C. 19:47-1.2(a)5", "N.J.A.C. 13:69F-1.3(e)")
def test_place_win_off_on_come_out(rules):
    """13:47-20.25(h)1v, 19:47-1.2(a)5, 13:69F-1.3(e): place bets to win are inactive on a
    come-out unless called on. Place 6 $6 on the come-out: 7 -> nothing (94 / 6); come-out 6 ->
    nothing, point 6 (94 / 6); 6 (2+4) with the point on wins 7: 101 / 6."""
    actions = [bet("a", "place_win", 6, number=6), roll(4, 3)]
    r = play(rules, actions)
    check(r, "a", 94, 6)
    actions.append(roll(3, 3))
    r = play(rules, actions)
    check(r, "a", 94, 6)
    assert point(r) == 6
    r = play(rules, [*actions, roll(2, 4)])
    check(r, "a", 101, 6)


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1v", "N.J.A.C. 19:47-1.2(a)5", "N.J.A.C. 13:69F-1.3(e)")
def test_place_win_called_on_loses_on_come_out_seven(rules):
    """13:47-20.25(h)1v, 19:47-1.2(a)5, 13:69F-1.3(e): called "on", the place bet works on the
    come-out: 7 loses it. 100 - 6 = 94 / 0."""
    actions = [bet("a", "place_win", 6, number=6), on("a", "place_win", number=6), roll(3, 4)]
    r = play(rules, actions)
    assert rejected(r) == []
    check(r, "a", 94, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_place_win_called_on_stays_on_after_win():
    """13:69F-1.3(e) + contract: a wager called on stays on, also after a win that leaves it
    up. Place 6 $6 on: come-out 6 wins 7 (101), 6 again wins 7 (108, now come-out), come-out 7
    loses it: 108 / 0."""
    actions = [
        bet("a", "place_win", 6, number=6),
        on("a", "place_win", number=6),
        roll(3, 3),
        roll(1, 5),
        roll(3, 4),
    ]
    r = play(NJ_13_69F, actions)
    check(r, "a", 108, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_place_win_called_off_again():
    """Contract `off`: a wager called on may be called off again; then the come-out 7 does not
    touch it: 94 / 6."""
    actions = [
        bet("a", "place_win", 6, number=6),
        on("a", "place_win", number=6),
        off("a", "place_win", number=6),
        roll(3, 4),
    ]
    r = play(NJ_13_69F, actions)
    assert rejected(r) == []
    check(r, "a", 94, 6)


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1v", "N.J.A.C. 19:47-1.2(a)5", "N.J.A.C. 13:69F-1.3(e)")
def test_on_refused_for_place_lose(rules):
    """Contract pinned "On and off": only for wagers off on the come-out by default; a place
    bet to lose is always working, so `on` (index 1) is refused."""
    r = play(rules, [bet("a", "place_lose", 5, number=6), on("a", "place_lose", number=6)])
    assert rejected(r) == [1]
    check(r, "a", 95, 5)


@pytest.mark.parametrize(("number", "stake"), [(6, 5), (5, 3), (8, 7), (4, 3)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_place_win_not_payable_refused(number, stake):
    """13:69F-1.4(f): 5 on 6 at 7 to 6 -> 5.83, 3 on 5 at 7 to 5 -> 4.20, 7 on 8 -> 8.17,
    3 on 4 at 9 to 5 -> 5.40: not multiples of unit 1, refused."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "place_win", stake, number=number)])
    assert rejected(r) == [1]
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_place_win_unit_five():
    """Contract `unit` "5": place 6 $30 pays 35 (a multiple of 5), accepted; $10 would pay
    11.67: refused (index 2). 100 - 30 = 70 / 30."""
    actions = [roll(2, 2), bet("a", "place_win", 30, number=6), bet("a", "place_win", 10, number=8)]
    r = play(NJ_13_69F, actions, unit="5")
    assert rejected(r) == [2]
    check(r, "a", 70, 30)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)")
def test_place_win_reduced_and_removed():
    """13:69F-1.3(c): removed or reduced before the roll that decides it. Place 6 $12 reduced
    by 6: 94 / 6; then removed: 100 / 0."""
    actions = [roll(2, 2), bet("a", "place_win", 12, number=6), reduce("a", "place_win", 6, number=6)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 94, 6)
    r = play(NJ_13_69F, [*actions, remove("a", "place_win", number=6)])
    check(r, "a", 100, 0)


# ------------------------------------------------------------------ place to lose


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize(
    ("number", "stake", "win"),
    [(4, 11, 5), (5, 8, 5), (6, 5, 4), (8, 5, 4), (9, 8, 5), (10, 11, 5)],
)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2", "N.J.A.C. 19:47-1.4(b)", "N.J.A.C. 13:69F-1.4(b)",
                    "N.J.A.C. 13:47-20.25(h)1vi", "N.J.A.C. 19:47-1.2(a)6",
                    "N.J.A.C. 13:69F-1.2(a)6")
def test_place_lose_pays(rules, number, stake, win):
    """13:47-20.25(i)2, 19:47-1.4(b), 13:69F-1.4(b): place to lose 4/10 5 to 11, 5/9 5 to 8,
    6/8 4 to 5. Point on, 7 wins; the bet stays up: 100 - stake + win / stake."""
    actions = [set_point_other_than(number), bet("a", "place_lose", stake, number=number), roll(3, 4)]
    r = play(rules, actions)
    assert rejected(r) == []
    check(r, "a", 100 - stake + win, stake)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)6")
def test_place_lose_loses_when_number_rolled():
    """13:69F-1.2(a)6: loses if the number is thrown before a 7. Place 6 to lose $5, 6: 95 / 0."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "place_lose", 5, number=6), roll(3, 3)])
    check(r, "a", 95, 0)


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)", "N.J.A.C. 13:47-20.25(h)1v", "N.J.A.C. 19:47-1.2(a)5")
def test_place_lose_works_on_come_out(rules):
    """13:69F-1.3(e) "All other wagers shall be considered On"; 20.25(h)1v and 19:47-1.2(a)5 only
    turn place bets to win off. Place 6 to lose $5, come-out 7 wins 4: 99 / 5 (stays up)."""
    r = play(rules, [bet("a", "place_lose", 5, number=6), roll(3, 4)])
    check(r, "a", 99, 5)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_place_lose_not_payable_refused():
    """13:69F-1.4(f): place 4 to lose $5 at 5 to 11 would win 2.27: refused."""
    r = play(NJ_13_69F, [bet("a", "place_lose", 5, number=4)])
    assert rejected(r) == [0]
    check(r, "a", 100, 0)


# ------------------------------------------------------------------ buy


@pytest.mark.parametrize(("number", "win"), [(4, 40), (5, 30), (6, 24), (8, 24), (9, 30), (10, 40)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_true_odds_with_commission(number, win):
    """13:69F-1.5(a): buy bets pay true odds 2 to 1, 3 to 2, 6 to 5 for 5% of the amount wagered
    paid when the bet is made; contract: it pays the commission again out of its winnings to
    stay up. Buy $20: 5% = 1. 100 - 20 - 1 + win - 1 = 78 + win; on_table 20."""
    actions = [set_point_other_than(number), bet("a", "buy", 20, number=number)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 79, 20)
    r = play(NJ_13_69F, [*actions, roll(*NUMBER_DICE[number])])
    check(r, "a", 78 + win, 20)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_loses_on_seven():
    """13:69F-1.5(a): a buy bet is a place bet to win: point 10, buy 4 $20 (+1), 7:
    100 - 21 = 79 / 0."""
    r = play(NJ_13_69F, [roll(5, 5), bet("a", "buy", 20, number=4), roll(3, 4)])
    check(r, "a", 79, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_commission_collected_on_win():
    """13:69F-1.5(a) "collect the percentage ... only on winning bets"; contract
    `vig_collected` "win": buy 4 $20 costs 20 (80 / 20); 4 wins 40 less 1: 80 + 39 = 119 / 20."""
    actions = [roll(5, 5), bet("a", "buy", 20, number=4)]
    r = play(NJ_13_69F, actions, vig_collected="win")
    check(r, "a", 80, 20)
    r = play(NJ_13_69F, [*actions, roll(1, 3)], vig_collected="win")
    check(r, "a", 119, 20)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_commission_on_win_not_charged_on_loss():
    """13:69F-1.5(a): collected only on winning bets: buy 4 $20, 7: 80 / 0."""
    r = play(NJ_13_69F, [roll(5, 5), bet("a", "buy", 20, number=4), roll(3, 4)], vig_collected="win")
    check(r, "a", 80, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_commission_rounded_down():
    """Contract "Commission": rounded down to the unit, never up (5% cap). Buy 4 $30: 1.50 -> 1:
    69 / 30; 4 wins 60 less 1: 128 / 30."""
    actions = [roll(5, 5), bet("a", "buy", 30, number=4)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 69, 30)
    r = play(NJ_13_69F, [*actions, roll(1, 3)])
    check(r, "a", 128, 30)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_commission_rounded_down_to_zero():
    """Contract "Commission": buy 4 $10: 5% = 0.50, rounded down to unit 1 -> 0: 90 / 10."""
    r = play(NJ_13_69F, [roll(5, 5), bet("a", "buy", 10, number=4)])
    check(r, "a", 90, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_commission_at_quarter_unit():
    """Contract `unit` "0.25": buy 4 $30, 5% = 1.50 is a multiple of 0.25: 100 - 31.50 = 68.50."""
    r = play(NJ_13_69F, [roll(5, 5), bet("a", "buy", 30, number=4)], unit="0.25")
    check(r, "a", "68.50", 30)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_lower_vig_rate():
    """Contract `vig` "0.04" (13:69F-1.5(a) only caps it at 5%): buy 4 $50 costs 2: 48 / 50."""
    r = play(NJ_13_69F, [roll(5, 5), bet("a", "buy", 50, number=4)], vig="0.04")
    check(r, "a", 48, 50)


@pytest.mark.parametrize(("number", "stake"), [(5, 5), (9, 5), (6, 7), (8, 4)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_buy_not_payable_refused(number, stake):
    """13:69F-1.4(f) / contract `unit`: 5 on 5 at 3 to 2 = 7.50, 7 on 6 at 6 to 5 = 8.40,
    4 on 8 = 4.80: refused at unit 1."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "buy", stake, number=number)])
    assert rejected(r) == [1]
    check(r, "a", 100, 0)


@pytest.mark.parametrize("rules", [NJ_13_69F, CASINO_NIGHT])
@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)", "N.J.A.C. 13:47-20.25(j)")
def test_buy_off_on_come_out(rules):
    """13:69F-1.3(e) (buy bets inactive on the come-out) and contract pinned (buy under
    nj-casino-night is a place bet to win, 13:47-20.25(j), off like one). Buy 4 $20 on the
    come-out, 7: untouched: 79 / 20."""
    r = play(rules, [bet("a", "buy", 20, number=4), roll(3, 4)])
    check(r, "a", 79, 20)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_buy_called_on_loses_on_come_out():
    """13:69F-1.3(e): called "On", the buy works on the come-out: 7 loses it: 79 / 0."""
    r = play(NJ_13_69F, [bet("a", "buy", 20, number=4), on("a", "buy", number=4), roll(3, 4)])
    assert rejected(r) == []
    check(r, "a", 79, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_commission_not_returned_when_taken_down():
    """Contract "Commission": collected at placement it is not returned if the bet is taken
    down. Buy 4 $20 (+1), removed: 100 - 1 = 99 / 0."""
    r = play(NJ_13_69F, [roll(5, 5), bet("a", "buy", 20, number=4), remove("a", "buy", number=4)])
    check(r, "a", 99, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_adding_to_buy_tops_commission_up():
    """Contract pinned: adding to a buy tops the commission up to what the new total owes.
    Buy 4 $20 (1), add $20: total 40 owes 2, top-up 1: 100 - 20 - 1 - 20 - 1 = 58 / 40."""
    actions = [roll(5, 5), bet("a", "buy", 20, number=4), bet("a", "buy", 20, number=4)]
    r = play(NJ_13_69F, actions)
    assert rejected(r) == []
    check(r, "a", 58, 40)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_adding_to_buy_tops_commission_on_the_total():
    """Contract pinned: the top-up is to what the NEW TOTAL owes. Buy 4 $10 owes 0.50 -> 0;
    add $10: total 20 owes 1 (the increment alone would owe 0): 100 - 10 - 10 - 1 = 79 / 20."""
    actions = [roll(5, 5), bet("a", "buy", 10, number=4), bet("a", "buy", 10, number=4)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 79, 20)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "N.J.A.C. 13:69F-1.3(b)")
def test_buy_refused_when_commission_exceeds_chips():
    """Contract pinned "Chips in hand": a wager with any commission due at placement larger
    than the bankroll is refused. Bankroll 20, buy 4 $20 + 1: refused (index 1)."""
    r = play(NJ_13_69F, [roll(5, 5), bet("a", "buy", 20, number=4)], {"a": 20})
    assert rejected(r) == [1]
    check(r, "a", 20, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_commission_on_win_needs_only_the_stake():
    """Contract: with `vig_collected` "win" nothing is due at placement: bankroll 20, buy 4 $20
    accepted: 0 / 20."""
    r = play(NJ_13_69F, [roll(5, 5), bet("a", "buy", 20, number=4)], {"a": 20}, vig_collected="win")
    assert rejected(r) == []
    check(r, "a", 0, 20)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(j)")
def test_buy_casino_night_commission_on_stake():
    """13:47-20.25(j): a percentage of the amount wagered, at the time of making the bet. Buy 4
    $20: 1 -> 79 / 20; 4 wins 2 to 1 = 40, less 1 to stay up: 118 / 20."""
    actions = [roll(5, 5), bet("a", "buy", 20, number=4), roll(1, 3)]
    r = play(CASINO_NIGHT, actions)
    check(r, "a", 118, 20)


@pytest.mark.parametrize("wager", ["buy", "lay"])
@pytest.mark.clause("N.J.A.C. 19:47-1.2(b)")
def test_buy_and_lay_not_permitted_nj_19_47(wager):
    """19:47-1.2(b): only the listed wagers are permissible; buy and lay are not listed.
    Refused (index 1) with a reason naming the profile."""
    r = play(NJ_19_47, [roll(5, 5), bet("a", wager, 20, number=4)])
    assert rejected(r) == [1]
    check(r, "a", 100, 0)
    assert "nj-19-47" in reasons(r)[0] or "19:47" in reasons(r)[0]


# ------------------------------------------------------------------ lay


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)")
def test_lay_commission_on_stake_13_69f():
    """13:69F-1.5(b): 5% of the amount wagered, at placement. Lay 4 $40: 2 -> 58 / 40; come-out
    7 (lay works on the come-out, 1.3(e)) wins 1 to 2 = 20, less 2 to stay up: 76 / 40."""
    actions = [bet("a", "lay", 40, number=4)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 58, 40)
    r = play(NJ_13_69F, [*actions, roll(3, 4)])
    check(r, "a", 76, 40)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(k)")
def test_lay_commission_on_win_amount_casino_night():
    """13:47-20.25(k): a percentage of the amount the player could win. Lay 4 $40 could win 20:
    5% = 1 -> 59 / 40; 7 wins 20, less 1 to stay up: 78 / 40."""
    actions = [bet("a", "lay", 40, number=4)]
    r = play(CASINO_NIGHT, actions)
    check(r, "a", 59, 40)
    r = play(CASINO_NIGHT, [*actions, roll(3, 4)])
    check(r, "a", 78, 40)


@pytest.mark.parametrize(("rules", "bank"), [(NJ_13_69F, 37), (CASINO_NIGHT, 38)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)", "N.J.A.C. 13:47-20.25(k)")
def test_lay_commission_base_differs(rules, bank):
    """Lay 6 $60 (could win 50 at 5 to 6). 13:69F-1.5(b): 5% of 60 = 3 -> 37.
    13:47-20.25(k): 5% of 50 = 2.50 rounded down to 2 -> 38."""
    r = play(rules, [bet("a", "lay", 60, number=6)])
    check(r, "a", bank, 60)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)")
def test_lay_commission_collected_on_win_13_69f():
    """13:69F-1.5(b) "may collect the percentage ... only on winning bets": lay 4 $40 costs 40
    (60 / 40); 7 wins 20 less 2: 78 / 40."""
    r = play(NJ_13_69F, [bet("a", "lay", 40, number=4), roll(3, 4)], vig_collected="win")
    check(r, "a", 78, 40)


@pytest.mark.parametrize(
    ("number", "stake", "bank"),
    [(4, 40, 76), (5, 30, 88), (6, 30, 93), (8, 30, 93), (9, 30, 88), (10, 40, 76)],
)
@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)")
def test_lay_true_odds(number, stake, bank):
    """13:69F-1.5(b): lay 4/10 1 to 2, 5/9 2 to 3, 6/8 5 to 6; 5% of stake (40 -> 2,
    30 -> 1.50 -> 1) at placement and again out of the win. 4: 100-40-2+20-2 = 76;
    5: 100-30-1+20-1 = 88; 6: 100-30-1+25-1 = 93."""
    r = play(NJ_13_69F, [bet("a", "lay", stake, number=number), roll(3, 4)])
    check(r, "a", bank, stake)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)")
def test_lay_loses_when_number_rolled():
    """13:69F-1.5(b) lay = place to lose at true odds: 4 before 7 loses. Lay 4 $40 (+2),
    come-out 4: 58 / 0."""
    r = play(NJ_13_69F, [bet("a", "lay", 40, number=4), roll(1, 3)])
    check(r, "a", 58, 0)


@pytest.mark.parametrize(("number", "stake"), [(5, 10), (6, 10), (4, 11)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_lay_not_payable_refused(number, stake):
    """13:69F-1.4(f): lay 10 on 5 would win 6.67, 10 on 6 8.33, 11 on 4 5.50: refused."""
    r = play(NJ_13_69F, [bet("a", "lay", stake, number=number)])
    assert rejected(r) == [0]
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)")
def test_lay_commission_not_returned_when_taken_down():
    """Contract "Commission": lay 4 $40 (+2) removed: 98 / 0."""
    r = play(NJ_13_69F, [bet("a", "lay", 40, number=4), remove("a", "lay", number=4)])
    check(r, "a", 98, 0)


@pytest.mark.parametrize(("rules", "bank"), [(NJ_13_69F, 58), (CASINO_NIGHT, 59)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)", "N.J.A.C. 13:47-20.25(k)")
def test_adding_to_lay_tops_commission_up(rules, bank):
    """Contract pinned top-up. 13:69F: lay 4 $20 (1), +20: total 40 owes 2 -> 100-20-1-20-1 = 58.
    Casino night (on the win): $20 could win 10 -> 0.50 -> 0; total 40 could win 20 -> 1:
    100 - 40 - 1 = 59."""
    actions = [bet("a", "lay", 20, number=4), bet("a", "lay", 20, number=4)]
    r = play(rules, actions)
    assert rejected(r) == []
    check(r, "a", bank, 40)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_place_lose_stays_up_and_wins_again():
    """13:69F-1.4(b) place 6 to lose 4 to 5; contract: stays up after a win. $10 wins 8 on the
    come-out 7, stays; point 4, the seven-out wins 8 again: 100 - 10 + 8 + 8 = 106 / 10."""
    actions = [bet("a", "place_lose", 10, number=6), roll(3, 4), roll(2, 2), roll(3, 4)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 106, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_reduction_leaving_unpayable_place_bet_refused():
    """Contract pinned: a reduction must leave a valid wager; place 6 $12 reduced by 7 leaves
    $5, which could win only 5.83 (13:69F-1.4(f)): refused (index 2). 88 / 12."""
    actions = [roll(2, 2), bet("a", "place_win", 12, number=6), reduce("a", "place_win", 7, number=6)]
    r = play(NJ_13_69F, actions)
    assert rejected(r) == [2]
    check(r, "a", 88, 12)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_off_refused_for_wager_that_is_always_on():
    """Contract pinned "On and off": `off` on a wager that is not off by default (field) is
    refused."""
    r = play(NJ_13_69F, [bet("a", "field", 10), off("a", "field")])
    assert rejected(r) == [1]


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_stays_up_and_pays_commission_each_win():
    """13:69F-1.5(a) + contract "What stays up": buy 4 $20 (+1) wins 40 twice, each time paying
    1 to stay up: 100 - 21 + 39 + 39 = 157 / 20."""
    actions = [roll(5, 5), bet("a", "buy", 20, number=4), roll(1, 3), roll(2, 2)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 157, 20)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(j)", "N.J.A.C. 13:47-20.25(h)1v")
def test_buy_called_on_under_casino_night():
    """Contract pinned: buy under nj-casino-night is off on the come-out like a place bet to win,
    so `on` is accepted; come-out 7 then loses it: 100 - 21 = 79 / 0."""
    r = play(CASINO_NIGHT, [bet("a", "buy", 20, number=4), on("a", "buy", number=4), roll(3, 4)])
    assert rejected(r) == []
    check(r, "a", 79, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)")
def test_lay_commission_on_win_not_charged_on_loss():
    """13:69F-1.5(b) "only on winning bets": lay 4 $40, vig on win, 4 rolled: 60 / 0."""
    r = play(NJ_13_69F, [bet("a", "lay", 40, number=4), roll(1, 3)], vig_collected="win")
    check(r, "a", 60, 0)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(k)")
def test_lay_casino_night_commission_rounded_down():
    """13:47-20.25(k): lay 6 $30 could win 25; 5% = 1.25 -> rounded down to 1: 69 / 30."""
    r = play(CASINO_NIGHT, [bet("a", "lay", 30, number=6)])
    check(r, "a", 69, 30)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "N.J.A.C. 13:69F-1.3(b)")
def test_top_up_needs_chips_in_hand():
    """Contract pinned (chips in hand, top-up): bankroll 41, buy 4 $20 (+1) leaves 20; adding
    $20 needs 20 + top-up 1 = 21: refused (index 2): 20 / 20."""
    actions = [roll(5, 5), bet("a", "buy", 20, number=4), bet("a", "buy", 20, number=4)]
    r = play(NJ_13_69F, actions, {"a": 41})
    assert rejected(r) == [2]
    check(r, "a", 20, 20)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_zero_vig():
    """Contract `vig`: only above 0.05 is malformed; at 0 a buy costs nothing extra: buy 4 $20:
    80 / 20."""
    r = play(NJ_13_69F, [roll(5, 5), bet("a", "buy", 20, number=4)], vig="0")
    check(r, "a", 80, 20)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_commission_at_win_rounded_down():
    """Contract "Commission" rounding with `vig_collected` "win": buy 4 $30, 4 wins 60 less
    1.50 -> 1: 100 - 30 + 59 = 129 / 30."""
    r = play(NJ_13_69F, [roll(5, 5), bet("a", "buy", 30, number=4), roll(1, 3)], vig_collected="win")
    check(r, "a", 129, 30)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_place_payability_follows_pays_override():
    """13:69F-1.4(b) allows higher odds; contract `unit`: a wager is refused when any payout it
    could earn is not a multiple of the unit. With place_win:6 at "7 to 5", $6 would win 8.40:
    refused (index 1); $10 wins 14: taken, and a 6 pays 14: 100 - 10 + 14 = 104 / 10."""
    actions = [
        roll(2, 2),
        bet("a", "place_win", 6, number=6),
        bet("a", "place_win", 10, number=6),
        roll(1, 5),
    ]
    r = play(NJ_13_69F, actions, pays={"place_win:6": "7 to 5"})
    assert rejected(r) == [1]
    check(r, "a", 104, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_buy_made_on_come_out_works_once_point_is_on():
    """13:69F-1.3(e): off only on come-out rolls. Buy 4 $20 (+1) on the come-out; 7 does nothing
    (79 / 20); come-out 10 sets the point; a 4 then wins 40 less 1: 79 + 39 = 118 / 20."""
    actions = [bet("a", "buy", 20, number=4), roll(3, 4), roll(5, 5), roll(1, 3)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 118, 20)
