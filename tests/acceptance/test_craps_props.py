"""Proposition wagers: hardways, field (incl. `pays` overrides), any seven, any craps, craps
2/3/12, yo 11, C and E, horn, horn high, whirl, the 17 hops, 6-7-8 -- each where the profile
permits it and refused where it does not."""

from __future__ import annotations

import pytest

from .conftest import (
    CASINO_NIGHT,
    NJ_13_69F,
    NJ_19_47,
    PROFILES,
    bet,
    check,
    on,
    play,
    reasons,
    rejected,
    remove,
    roll,
)


def names_profile(result, rules, clause_hint):
    text = reasons(result)[0]
    return rules in text or clause_hint in text


# ------------------------------------------------------------------ field


@pytest.mark.parametrize(
    ("dice", "bank"),
    [
        ((1, 1), 120),
        ((1, 2), 110),
        ((2, 2), 110),
        ((2, 3), 90),
        ((3, 3), 90),
        ((3, 4), 90),
        ((4, 4), 90),
        ((4, 5), 110),
        ((4, 6), 110),
        ((5, 6), 110),
        ((6, 6), 120),
    ],
)
@pytest.mark.clause("N.J.A.C. 19:47-1.2(a)11")
def test_field(dice, bank):
    """19:47-1.2(a)11, 1.4(b): field wins on 2, 3, 4, 9, 10, 11, 12 (1 to 1; 2 to 1 on 2 and 12)
    and loses on 5, 6, 7, 8; one roll, so it comes down. $10: 2/12 -> 100 - 10 + 30 = 120;
    3/4/9/10/11 -> 110; 5-8 -> 90."""
    r = play(NJ_19_47, [bet("a", "field", 10), roll(*dice)])
    check(r, "a", bank, 0)


@pytest.mark.parametrize("rules", [CASINO_NIGHT, NJ_13_69F])
@pytest.mark.parametrize(("dice", "bank"), [((1, 1), 120), ((6, 6), 120), ((4, 5), 110), ((4, 4), 90)])
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1xi", "N.J.A.C. 13:69F-1.2(a)11")
def test_field_other_profiles(rules, dice, bank):
    """13:47-20.25(h)1xi, (i)2 and 13:69F-1.2(a)11, 1.4(b): same field table as above."""
    r = play(rules, [bet("a", "field", 10), roll(*dice)])
    check(r, "a", bank, 0)


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize(
    ("key", "dice", "bank"),
    [("field:12", (6, 6), 130), ("field:2", (1, 1), 130), ("field", (2, 2), 120)],
)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2", "N.J.A.C. 19:47-1.4(b)", "N.J.A.C. 13:69F-1.4(b)")
def test_field_pays_override(rules, key, dice, bank):
    """13:47-20.25(i)2, 19:47-1.4(b), 13:69F-1.4(b): a licensee may pay more than the minimum;
    contract `pays`. "3 to 1" on 12 (or 2): 100 - 10 + 40 = 130; "2 to 1" on the 1 to 1 entry:
    a 4 pays 20: 120."""
    ratio = "2 to 1" if key == "field" else "3 to 1"
    r = play(rules, [bet("a", "field", 10), roll(*dice)], pays={key: ratio})
    check(r, "a", bank, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)11")
def test_field_works_on_come_out_and_during_point():
    """13:69F-1.2(a)11 "at any time"; 1.3(e) "all other wagers shall be considered On". Field 10
    with point 4 on, a 9 wins: 110."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "field", 10), roll(4, 5)])
    check(r, "a", 110, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)")
def test_one_roll_bet_removed_before_roll():
    """13:69F-1.3(c): removed before the roll that decides it: field 10 then remove: 100 / 0."""
    r = play(NJ_13_69F, [bet("a", "field", 10), remove("a", "field")])
    assert rejected(r) == []
    check(r, "a", 100, 0)


# ------------------------------------------------------------------ single-number one-roll bets


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize(
    ("wager", "dice", "bank"),
    [
        ("any_seven", (3, 4), 140),
        ("any_seven", (1, 6), 140),
        ("any_seven", (2, 2), 90),
        ("any_craps", (1, 1), 170),
        ("any_craps", (1, 2), 170),
        ("any_craps", (6, 6), 170),
        ("any_craps", (5, 6), 90),
        ("craps_2", (1, 1), 400),
        ("craps_2", (1, 2), 90),
        ("craps_3", (1, 2), 250),
        ("craps_3", (6, 6), 90),
        ("craps_12", (6, 6), 400),
        ("craps_12", (1, 1), 90),
        ("yo_11", (5, 6), 250),
        ("yo_11", (3, 4), 90),
    ],
)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2", "N.J.A.C. 19:47-1.4(b)", "N.J.A.C. 13:69F-1.4(b)",
                    "N.J.A.C. 13:47-20.25(h)1xii-xvii", "N.J.A.C. 19:47-1.2(a)12-17",
                    "N.J.A.C. 13:69F-1.2(a)12-17")
def test_one_roll_bets(rules, wager, dice, bank):
    """Pay tables 13:47-20.25(i)2, 19:47-1.4(b), 13:69F-1.4(b): any seven 4 to 1 ($10 -> 140),
    any craps 7 to 1 (170), craps 2 and 12 30 to 1 (400), craps 3 and 11 15 to 1 (250); any
    other total loses ($10 -> 90)."""
    r = play(rules, [bet("a", wager, 10), roll(*dice)])
    check(r, "a", bank, 0)


# ------------------------------------------------------------------ C and E, horn, horn high, whirl


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize(
    ("dice", "bank"), [((1, 1), 130), ((1, 2), 130), ((6, 6), 130), ((5, 6), 170), ((3, 4), 90)]
)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)4", "N.J.A.C. 19:47-1.4(d)", "N.J.A.C. 13:69F-1.4(d)",
                    "N.J.A.C. 13:47-20.25(h)1xviii", "N.J.A.C. 19:47-1.2(a)18",
                    "N.J.A.C. 13:69F-1.2(a)18")
def test_c_and_e(rules, dice, bank):
    """13:47-20.25(i)4, 19:47-1.4(d), 13:69F-1.4(d): half on any craps (7 to 1), half on 11
    (15 to 1). $10: craps -> 5 + 35 back, other 5 lost: 100 - 10 + 40 = 130; 11 -> 5 + 75:
    170; 7 -> 90."""
    r = play(rules, [bet("a", "c_and_e", 10), roll(*dice)])
    check(r, "a", bank, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(d)")
def test_c_and_e_must_split_into_units():
    """Contract "Split wagers": C and E must split into 2 whole units; $5 -> 2.50: refused."""
    r = play(NJ_13_69F, [bet("a", "c_and_e", 5)])
    assert rejected(r) == [0]
    check(r, "a", 100, 0)


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize(
    ("dice", "bank"), [((1, 1), 127), ((1, 2), 112), ((5, 6), 112), ((6, 6), 127), ((3, 4), 96)]
)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)3", "N.J.A.C. 19:47-1.4(c)", "N.J.A.C. 13:69F-1.4(c)",
                    "N.J.A.C. 13:47-20.25(h)1xix", "N.J.A.C. 19:47-1.2(a)19",
                    "N.J.A.C. 13:69F-1.2(a)19")
def test_horn(rules, dice, bank):
    """13:47-20.25(i)3, 19:47-1.4(c), 13:69F-1.4(c): paid as four separate wagers on 2, 3, 11,
    12. $4 = 1 each: 2 or 12 -> 1 + 30 back: 100 - 4 + 31 = 127; 3 or 11 -> 1 + 15: 112;
    7 -> 96."""
    r = play(rules, [bet("a", "horn", 4), roll(*dice)])
    check(r, "a", bank, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(c)")
def test_horn_must_split_into_four_units():
    """Contract "Split wagers": horn stake must split into 4 equal whole units; $6 -> refused."""
    r = play(NJ_13_69F, [bet("a", "horn", 6)])
    assert rejected(r) == [0]


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(c)")
def test_horn_paid_by_craps_12_entry():
    """Contract pinned "Pay-table keys": horn has no entry of its own; it is paid by craps_12
    etc. pays {"craps_12": "31 to 1"}: $4 horn, 12 -> 1 + 31: 100 - 4 + 32 = 128."""
    r = play(NJ_13_69F, [bet("a", "horn", 4), roll(6, 6)], pays={"craps_12": "31 to 1"})
    check(r, "a", 128, 0)


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize(
    ("number", "dice", "bank"),
    [
        (12, (6, 6), 157),
        (12, (1, 1), 126),
        (12, (1, 2), 111),
        (12, (5, 6), 111),
        (12, (3, 4), 95),
        (2, (1, 1), 157),
        (3, (1, 2), 127),
        (11, (5, 6), 127),
    ],
)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1xx",
                    "N.J.A.C. 19:47-1.2(a)20",
                    "N.J.A.C. 13:69F-1.2(a)20")
def test_horn_high(rules, number, dice, bank):
    """13:47-20.25(h)1xx,(i)3, 19:47-1.2(a)20, 13:69F-1.2(a)20: five units, four as a horn and
    one more on the number. $5 high 12: 12 has 2 units: 2 x 30 = 60 + 2 back: 100 - 5 + 62 =
    157; a 2 -> 1 + 30: 126; 3 or 11 -> 1 + 15: 111; 7 -> 95. High 3 on a 3: 2 x 15 + 2 = 32:
    127."""
    r = play(rules, [bet("a", "horn_high", 5, number=number), roll(*dice)])
    check(r, "a", bank, 0)


@pytest.mark.parametrize("stake", [4, 7])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)20")
def test_horn_high_must_be_five_units(stake):
    """13:69F-1.2(a)20 "placed in units of five"; contract: must split into 5 whole units."""
    r = play(NJ_13_69F, [bet("a", "horn_high", stake, number=12)])
    assert rejected(r) == [0]
    check(r, "a", 100, 0)


@pytest.mark.parametrize("rules", [NJ_19_47, NJ_13_69F])
@pytest.mark.parametrize(
    ("dice", "bank"),
    [((3, 4), 100), ((1, 1), 126), ((1, 2), 111), ((5, 6), 111), ((6, 6), 126), ((4, 4), 95)],
)
@pytest.mark.clause("N.J.A.C. 19:47-1.2(a)21", "N.J.A.C. 13:69F-1.2(a)21")
def test_whirl(rules, dice, bank):
    """19:47-1.2(a)21, 13:69F-1.2(a)21: five units, one each on 2, 3, 11, 12 and one on any
    seven. $5: 7 -> any seven 4 to 1: 1 + 4 back: 100 - 5 + 5 = 100; 2/12 -> 1 + 30: 126;
    3/11 -> 1 + 15: 111; 8 -> 95."""
    r = play(rules, [bet("a", "whirl", 5), roll(*dice)])
    check(r, "a", bank, 0)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)")
def test_whirl_not_permitted_casino_night():
    """13:47-20.25(h): the casino night list has no whirl bet: refused with a reason naming the
    profile."""
    r = play(CASINO_NIGHT, [bet("a", "whirl", 5)])
    assert rejected(r) == [0]
    check(r, "a", 100, 0)
    assert names_profile(r, CASINO_NIGHT, "13:47-20.25")


# ------------------------------------------------------------------ hops

HOPS = [
    ((2, 2), 30), ((3, 3), 30), ((4, 4), 30), ((5, 5), 30),
    ((1, 3), 15), ((1, 4), 15), ((2, 3), 15), ((1, 5), 15), ((2, 4), 15), ((1, 6), 15),
    ((2, 5), 15), ((3, 4), 15), ((2, 6), 15), ((3, 5), 15), ((3, 6), 15), ((4, 5), 15),
    ((4, 6), 15),
]  # fmt: skip


@pytest.mark.parametrize(("dice", "odds"), HOPS, ids=[f"{a}-{b}" for (a, b), _ in HOPS])
@pytest.mark.clause("N.J.A.C. 19:47-1.2(a)22",
                    "N.J.A.C. 19:47-1.2(a)23",
                    "N.J.A.C. 19:47-1.2(a)24",
                    "N.J.A.C. 19:47-1.2(a)25",
                    "N.J.A.C. 19:47-1.2(a)26",
                    "N.J.A.C. 19:47-1.2(a)27",
                    "N.J.A.C. 19:47-1.2(a)28",
                    "N.J.A.C. 19:47-1.2(a)29",
                    "N.J.A.C. 19:47-1.2(a)30",
                    "N.J.A.C. 19:47-1.2(a)31",
                    "N.J.A.C. 19:47-1.2(a)32",
                    "N.J.A.C. 19:47-1.2(a)33",
                    "N.J.A.C. 19:47-1.2(a)34",
                    "N.J.A.C. 19:47-1.2(a)35",
                    "N.J.A.C. 19:47-1.2(a)36",
                    "N.J.A.C. 19:47-1.2(a)37",
                    "N.J.A.C. 19:47-1.2(a)38")
def test_hop_wins(dice, odds):
    """19:47-1.2(a)22-38, 1.4(b): hardway hops pay 30 to 1, the other 13 hops 15 to 1. The
    dice are rolled in reverse order (order free): $10 -> 100 - 10 + 10 + 10 x odds."""
    a, b = dice
    r = play(NJ_19_47, [bet("a", "hop", 10, dice=[a, b]), roll(b, a)])
    check(r, "a", 100 + 10 * odds, 0)


@pytest.mark.parametrize(
    ("hop", "dice"), [((1, 3), (2, 2)), ((2, 2), (1, 3)), ((2, 5), (3, 4)), ((4, 6), (5, 5))]
)
@pytest.mark.clause("N.J.A.C. 19:47-1.2(a)22",
                    "N.J.A.C. 19:47-1.2(a)23",
                    "N.J.A.C. 19:47-1.2(a)24",
                    "N.J.A.C. 19:47-1.2(a)25",
                    "N.J.A.C. 19:47-1.2(a)26",
                    "N.J.A.C. 19:47-1.2(a)27",
                    "N.J.A.C. 19:47-1.2(a)28",
                    "N.J.A.C. 19:47-1.2(a)29",
                    "N.J.A.C. 19:47-1.2(a)30",
                    "N.J.A.C. 19:47-1.2(a)31",
                    "N.J.A.C. 19:47-1.2(a)32",
                    "N.J.A.C. 19:47-1.2(a)33",
                    "N.J.A.C. 19:47-1.2(a)34",
                    "N.J.A.C. 19:47-1.2(a)35",
                    "N.J.A.C. 19:47-1.2(a)36",
                    "N.J.A.C. 19:47-1.2(a)37",
                    "N.J.A.C. 19:47-1.2(a)38")
def test_hop_loses_on_other_combination(hop, dice):
    """19:47-1.2(a)22-38: loses "if any other combination is thrown", even with the same total:
    100 - 10 = 90."""
    r = play(NJ_19_47, [bet("a", "hop", 10, dice=list(hop)), roll(*dice)])
    check(r, "a", 90, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)23")
def test_hop_13_69f():
    """13:69F-1.2(a)23, 1.4(b): six the hardway on the hop 30 to 1: 100 - 10 + 310 = 400."""
    r = play(NJ_13_69F, [bet("a", "hop", 10, dice=[3, 3]), roll(3, 3)])
    check(r, "a", 400, 0)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)")
def test_hop_not_permitted_casino_night():
    """13:47-20.25(h): no hop bets at casino nights: refused, reason names the profile."""
    r = play(CASINO_NIGHT, [bet("a", "hop", 10, dice=[2, 2])])
    assert rejected(r) == [0]
    assert names_profile(r, CASINO_NIGHT, "13:47-20.25")


@pytest.mark.clause("N.J.A.C. 19:47-1.4(b)")
def test_hop_pays_override():
    """Contract `pays` key `hop:1-3`: "16 to 1" (above 15 to 1): 100 - 10 + 170 = 260."""
    r = play(NJ_19_47, [bet("a", "hop", 10, dice=[3, 1]), roll(1, 3)], pays={"hop:1-3": "16 to 1"})
    check(r, "a", 260, 0)


# ------------------------------------------------------------------ hardways


@pytest.mark.parametrize("rules", PROFILES)
@pytest.mark.parametrize(
    ("number", "dice", "bank"),
    [(4, (2, 2), 160), (6, (3, 3), 180), (8, (4, 4), 180), (10, (5, 5), 160)],
)
@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2", "N.J.A.C. 19:47-1.4(b)", "N.J.A.C. 13:69F-1.4(b)")
def test_hard_wins_and_stays_up(rules, number, dice, bank):
    """13:47-20.25(i)2, 19:47-1.4(b), 13:69F-1.4(b): hard 4/10 7 to 1, hard 6/8 9 to 1; stays up
    after a win (contract). Point 5 first, $10: 100 - 10 + 70 = 160 or + 90 = 180; 10 down."""
    r = play(rules, [roll(2, 3), bet("a", "hard", 10, number=number), roll(*dice)])
    check(r, "a", bank, 10)


@pytest.mark.parametrize(
    ("number", "dice"), [(4, (1, 3)), (6, (1, 5)), (6, (2, 4)), (8, (2, 6)), (8, (3, 5)), (10, (4, 6))]
)
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)7",
                    "N.J.A.C. 13:69F-1.2(a)8",
                    "N.J.A.C. 13:69F-1.2(a)9",
                    "N.J.A.C. 13:69F-1.2(a)10")
def test_hard_loses_easy_way(number, dice):
    """13:69F-1.2(a)7-10: wins only if the number is thrown the hardway before any other way:
    the easy way loses. Point 5, $10: 90 / 0."""
    r = play(NJ_13_69F, [roll(2, 3), bet("a", "hard", 10, number=number), roll(*dice)])
    check(r, "a", 90, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)9")
def test_hard_loses_on_seven():
    """13:69F-1.2(a)9: ... and before a 7: point 5, hard 8 $10, 7: 90 / 0."""
    r = play(NJ_13_69F, [roll(2, 3), bet("a", "hard", 10, number=8), roll(3, 4)])
    check(r, "a", 90, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)8")
def test_hard_untouched_by_other_totals():
    """13:69F-1.2(a)8: only 6 or 7 decides hard 6. Point 5, rolls 2, 11, 8, 12: 90 / 10."""
    actions = [roll(2, 3), bet("a", "hard", 10, number=6), roll(1, 1), roll(5, 6), roll(4, 4), roll(6, 6)]
    r = play(NJ_13_69F, actions)
    check(r, "a", 90, 10)


@pytest.mark.parametrize("rules", [NJ_19_47, CASINO_NIGHT])
@pytest.mark.clause("N.J.A.C. 19:47-1.2(a)7",
                    "N.J.A.C. 19:47-1.2(a)8",
                    "N.J.A.C. 19:47-1.2(a)9",
                    "N.J.A.C. 19:47-1.2(a)10",
                    "N.J.A.C. 13:47-20.25(h)1vii",
                    "N.J.A.C. 13:47-20.25(h)1viii",
                    "N.J.A.C. 13:47-20.25(h)1ix",
                    "N.J.A.C. 13:47-20.25(h)1x")
def test_hard_works_on_come_out_without_13_69f(rules):
    """19:47-1.2(a)7-10 and 13:47-20.25(h)1vii-x: hardways "may be made at any time" and only
    place bets to win are inactive on the come-out. Hard 6 $10, come-out 3+3 wins 90:
    180 / 10."""
    r = play(rules, [bet("a", "hard", 10, number=6), roll(3, 3)])
    check(r, "a", 180, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_hard_off_on_come_out_13_69f():
    """13:69F-1.3(e): hardways are inactive on the come-out unless called on. Hard 6 $10:
    come-out 7 -> nothing (90 / 10); come-out 3+3 -> nothing, point 6 (90 / 10); 3+3 with the
    point on wins 90: 180 / 10."""
    r = play(NJ_13_69F, [bet("a", "hard", 10, number=6), roll(3, 4), roll(3, 3)])
    check(r, "a", 90, 10)
    r = play(NJ_13_69F, [bet("a", "hard", 10, number=6), roll(3, 4), roll(3, 3), roll(3, 3)])
    check(r, "a", 180, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_hard_called_on_13_69f():
    """13:69F-1.3(e): called "On", hard 6 works on the come-out: 7 loses it: 90 / 0."""
    r = play(NJ_13_69F, [bet("a", "hard", 10, number=6), on("a", "hard", number=6), roll(3, 4)])
    assert rejected(r) == []
    check(r, "a", 90, 0)


@pytest.mark.clause("N.J.A.C. 19:47-1.2(a)5")
def test_on_refused_for_hard_under_19_47():
    """Contract pinned "On and off": only wagers off on the come-out by default; under nj-19-47
    hardways are on, so `on` (index 1) is refused."""
    r = play(NJ_19_47, [bet("a", "hard", 10, number=6), on("a", "hard", number=6)])
    assert rejected(r) == [1]


# ------------------------------------------------------------------ 6-7-8


@pytest.mark.parametrize(
    ("dice", "bank"),
    [
        ((1, 5), 110),
        ((2, 4), 110),
        ((3, 4), 110),
        ((1, 6), 110),
        ((2, 6), 110),
        ((3, 5), 110),
        ((3, 3), 120),
        ((4, 4), 120),
        ((2, 2), 90),
        ((1, 1), 90),
        ((4, 5), 90),
        ((5, 6), 90),
        ((6, 6), 90),
    ],
)
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)39")
def test_six_seven_eight(dice, bank):
    """13:69F-1.2(a)39, 1.4(b): 6-7-8 pays 1 to 1 on an easy 6, 7, easy 8 (110), 2 to 1 on hard
    6 or 8 (120); loses on 2, 3, 4, 5, 9, 10, 11, 12 (90)."""
    r = play(NJ_13_69F, [bet("a", "six_seven_eight", 10), roll(*dice)])
    check(r, "a", bank, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)39")
def test_six_seven_eight_not_offered():
    """13:69F-1.2(a)39 "offered at the election of a casino licensee"; contract option
    `six_seven_eight` false: refused."""
    r = play(NJ_13_69F, [bet("a", "six_seven_eight", 10)], six_seven_eight=False)
    assert rejected(r) == [0]
    check(r, "a", 100, 0)


@pytest.mark.parametrize(("rules", "hint"), [(NJ_19_47, "19:47"), (CASINO_NIGHT, "13:47-20.25")])
@pytest.mark.clause("N.J.A.C. 19:47-1.2(b)", "N.J.A.C. 13:47-20.25(h)")
def test_six_seven_eight_not_in_profile(rules, hint):
    """19:47-1.2(b), 13:47-20.25(h): no 6-7-8 in these lists: refused, reason names the
    profile."""
    r = play(rules, [bet("a", "six_seven_eight", 10)])
    assert rejected(r) == [0]
    assert names_profile(r, rules, hint)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_six_seven_eight_hard_pays_override():
    """Contract pinned key `six_seven_eight:hard` (the 2 to 1 entry): "3 to 1" -> 3+3 pays 30:
    130."""
    r = play(
        NJ_13_69F, [bet("a", "six_seven_eight", 10), roll(3, 3)], pays={"six_seven_eight:hard": "3 to 1"}
    )
    check(r, "a", 130, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)20")
def test_horn_high_ten_dollars():
    """13:69F-1.2(a)20 units of five; contract: 5 parts. $10 high 12: 2 each on 2, 3, 11 and
    4 on 12. A 12: 4 x 30 = 120 + 4 back: 100 - 10 + 124 = 214."""
    r = play(NJ_13_69F, [bet("a", "horn_high", 10, number=12), roll(6, 6)])
    check(r, "a", 214, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)21")
def test_whirl_ten_dollars_on_seven():
    """13:69F-1.2(a)21: $10 whirl = 2 on each of 2, 3, 11, 12 and 2 on any seven; a 7: 2 x 4 +
    2 back: 100 - 10 + 10 = 100."""
    r = play(NJ_13_69F, [bet("a", "whirl", 10), roll(2, 5)])
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_field_refused_when_override_payout_not_payable():
    """Contract `unit`: refused when ANY payout it could earn is not a multiple of the unit
    (13:69F-1.4(f)). With field:12 at "5 to 2" (above the 2 to 1 minimum), a $5 field could
    win 12.50 on a 12: refused; $10 (25 on a 12) taken: 90 / 10."""
    r = play(NJ_13_69F, [bet("a", "field", 5), bet("a", "field", 10)], pays={"field:12": "5 to 2"})
    assert rejected(r) == [0]
    check(r, "a", 90, 10)


@pytest.mark.clause("N.J.A.C. 19:47-1.2(a)7")
def test_hard_stays_up_and_wins_again():
    """Contract "What stays up": hardways stay up after a win. Point 5, hard 4 $10: 2+2 wins 70,
    2+2 again wins 70: 100 - 10 + 140 = 230 / 10."""
    r = play(NJ_19_47, [roll(2, 3), bet("a", "hard", 10, number=4), roll(2, 2), roll(2, 2)])
    check(r, "a", 230, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_hard_called_on_wins_on_come_out_13_69f():
    """13:69F-1.3(e): called "On", hard 8 works on the come-out: 4+4 pays 9 to 1: 100 - 10 + 90
    = 180 / 10."""
    r = play(NJ_13_69F, [bet("a", "hard", 10, number=8), on("a", "hard", number=8), roll(4, 4)])
    check(r, "a", 180, 10)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(d)")
def test_c_and_e_pays_override_on_any_craps_entry():
    """Contract pinned: C and E is paid by the any_craps and yo_11 entries. any_craps "8 to 1":
    $10 C and E on a 3: 5 + 40 back: 100 - 10 + 45 = 135."""
    r = play(NJ_13_69F, [bet("a", "c_and_e", 10), roll(1, 2)], pays={"any_craps": "8 to 1"})
    check(r, "a", 135, 0)
