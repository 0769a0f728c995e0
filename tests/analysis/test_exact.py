"""The exact analysis against published values, each derived from first principles here and
cross-checked by a Monte Carlo run of the engine itself (within four standard errors).

Notation: a roll of two dice has 36 equally likely outcomes; a total t comes in w(t) ways
(w(2)=1, w(3)=2, w(4)=3, w(5)=4, w(6)=5, w(7)=6, ..., w(12)=1). A number n before a 7 has
probability w(n) / (w(n) + 6). House edge = expected loss / amount at risk, per bet made.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from croupier.analysis.exact import (
    End,
    Next,
    analyse,
    analyse_craps,
    analyse_craps_wager,
    analyse_roulette_wager,
    fire_points,
    roulette_qualifiers,
    solve_chain,
)
from croupier.craps.config import CrapsConfig
from croupier.dice import HOPS
from croupier.rules import load_profile

from .mc_engine import simulate_craps, simulate_roulette

F = Fraction


def cfg(profile: str = "nj-13-69f", **options: Any) -> CrapsConfig:
    return CrapsConfig.from_options(load_profile(profile), options)


def edge(wager: str, qualifier: Any = None, profile: str = "nj-13-69f", **kw: Any) -> Fraction:
    options = kw.pop("options", {})
    return analyse_craps_wager(cfg(profile, **options), wager, qualifier, **kw).house_edge


# --- the published values, derived ---------------------------------------------------------


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)1", "N.J.A.C. 13:47-20.25(h)1i", "N.J.A.C. 19:47-1.2(a)1")
def test_pass_edge_is_7_495() -> None:
    """Pass (13:69F-1.2(a)1): P(win) = 8/36 + sum over points of w/36 * w/(w+6)
    = 8/36 + 2*(3/36*3/9 + 4/36*4/10 + 5/36*5/11) = 244/495; edge = 1 - 2*244/495 = 7/495."""
    for profile in ("nj-13-69f", "nj-19-47", "nj-casino-night"):
        assert edge("pass", profile=profile) == F(7, 495)
        assert edge("come", profile=profile) == F(7, 495)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)2", "N.J.A.C. 13:69F-1.2(a)4")
def test_dont_pass_edge_per_bet_made_and_resolved() -> None:
    """Don't pass (13:69F-1.2(a)2, void on 12 by (a)2iii): it loses whenever pass wins
    (P = 244/495 = 976/1980), pushes on the come-out 12 (1/36 = 55/1980) and wins the rest,
    949/1980. Per bet made (976 - 949)/1980 = 27/1980 = 3/220; per bet resolved
    27/(1980 - 55) = 27/1925."""
    row = analyse_craps_wager(cfg(), "dont_pass")
    assert (row.p_win, row.p_lose, row.p_push) == (F(949, 1980), F(976, 1980), F(1, 36))
    assert row.house_edge == F(3, 220)
    assert row.house_edge_resolved == F(27, 1925)
    assert analyse_craps_wager(cfg(), "dont_come").house_edge_resolved == F(27, 1925)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)5", "N.J.A.C. 13:69F-1.4(b)")
def test_place_to_win_edges() -> None:
    """Place 6 at 7 to 6: P(win) = 5/11; edge = 6/11 - 5/11*7/6 = 1/66. Place 5 at 7 to 5:
    P = 4/10; 6/10 - 4/10*7/5 = 1/25. Place 4 at 9 to 5: P = 3/9; 6/9 - 3/9*9/5 = 1/15."""
    assert edge("place_win", 6) == edge("place_win", 8) == F(1, 66)
    assert edge("place_win", 5) == edge("place_win", 9) == F(1, 25)
    assert edge("place_win", 4) == edge("place_win", 10) == F(1, 15)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)11", "N.J.A.C. 13:69F-1.4(b)")
def test_field_edge_2_to_1_on_2_and_12() -> None:
    """Field (13:69F-1.2(a)11): wins on 3, 4, 9, 10, 11 (14 ways) at 1 to 1, on 2 and 12 (2 ways)
    at 2 to 1, loses on 5, 6, 7, 8 (20 ways): E = (14 + 2*2 - 20)/36 = -2/36 = -1/18."""
    assert edge("field") == F(1, 18)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "N.J.A.C. 13:47-20.25(i)2")
def test_field_paying_3_to_1_on_12_changes_the_edge_to_1_36() -> None:
    """A changed pay table (field 12 at 3 to 1, above the minimum): 14 ways at +1, the 2 at +2,
    the 12 at +3, 20 ways at -1: E = (14 + 2 + 3 - 20)/36 = -1/36, so the edge is 1/36."""
    assert edge("field", options={"pays": {"field:12": "3 to 1"}}) == F(1, 36)
    assert edge("field", profile="nj-casino-night",
                options={"pays": {"field:12": "3 to 1"}}) == F(1, 36)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)12-17")
def test_one_roll_propositions() -> None:
    """Any seven at 4 to 1: 5*6/36 - 30/36 = -1/6. Any craps at 7 to 1: 7*4/36 - 32/36 = -1/9.
    Yo 11 at 15 to 1: 15*2/36 - 34/36 = -1/9. Craps 2 (and 12) at 30 to 1: 30/36 - 35/36 = -5/36.
    Craps 3 at 15 to 1: like 11, -1/9."""
    assert edge("any_seven") == F(1, 6)
    assert edge("any_craps") == F(1, 9)
    assert edge("yo_11") == edge("craps_3") == F(1, 9)
    assert edge("craps_2") == edge("craps_12") == F(5, 36)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)7-10")
def test_hardways() -> None:
    """Hard 6 at 9 to 1: the hard 6 (1 way) before an easy 6 (4) or a 7 (6): P = 1/11;
    edge = 10/11 - 9/11 = 1/11. Hard 4 at 7 to 1: 1 way against 2 + 6: P = 1/9;
    edge = 8/9 - 7/9 = 1/9."""
    assert edge("hard", 6) == edge("hard", 8) == F(1, 11)
    assert edge("hard", 4) == edge("hard", 10) == F(1, 9)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)22-38")
def test_hops() -> None:
    """A hop on a pair (2-2) comes 1 way in 36 at 30 to 1: 30/36 - 35/36 = -5/36; a hop on two
    different dice (1-3) comes 2 ways at 15 to 1: 30/36 - 34/36 = -1/9."""
    assert edge("hop", (2, 2)) == F(5, 36)
    assert edge("hop", (1, 3)) == F(1, 9)
    for dice in HOPS:
        assert edge("hop", dice) == (F(5, 36) if dice[0] == dice[1] else F(1, 9))


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "N.J.A.C. 13:69F-1.5(b)", "N.J.A.C. 13:47-20.25(k)")
def test_buy_and_lay_commission() -> None:
    """Buy 4, 5% at placement: true odds (2 to 1 at P = 1/3) lose nothing on the stake, the
    commission 0.05 is lost every decision, out of 1.05 at risk: 0.05/1.05 = 1/21. On the win:
    the 0.05 is paid with probability 1/3 on a stake of 1: 1/60. Lay 4 under 13:69F-1.5(b) (on
    the stake) at placement: 1/21; under 13:47-20.25(k) (on the win, 1 to 2): 0.025/1.025 = 1/41."""
    assert edge("buy", 4, timing="placement") == F(1, 21)
    assert edge("buy", 4, timing="win") == F(1, 60)
    assert edge("lay", 4, timing="placement") == F(1, 21)
    assert edge("lay", 4, profile="nj-casino-night") == F(1, 41)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_free_odds_have_no_edge() -> None:
    """Odds pay the true odds: P(win) * odds = P(lose) exactly, so the edge is 0."""
    rows = [r for r in analyse_craps(cfg()) if "_odds:" in r.wager]
    assert len(rows) == 24
    assert all(r.house_edge == 0 for r in rows)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40", "N.J.A.C. 13:69F-1.4(e)")
def test_fire_bet_points_probabilities() -> None:
    """The fire bet's chain over (points made, point) to the seven-out: P(exactly 4 different
    points) ~ 0.008798, 5 ~ 0.001640, 6 ~ 0.000162 (published); table A edge ~ 20.76%."""
    p = fire_points(cfg())
    assert round(float(p[4]), 6) == 0.008798
    assert round(float(p[5]), 6) == 0.001640
    assert round(float(p[6]), 6) == 0.000162
    rows = {r.wager: r for r in analyse_craps(cfg())}
    assert round(float(rows["fire:A"].house_edge), 4) == 0.2076
    assert rows["fire:A"].p_win == p[4] + p[5] + p[6]


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(c)", "N.J.A.C. 13:69F-1.4(d)", "N.J.A.C. 13:69F-1.2(a)21")
def test_split_wagers_and_whirl_push() -> None:
    """Horn = four one-unit bets on 2, 3, 11, 12 (13:69F-1.4(c)): per unit the average of
    their edges (5/36 + 1/9 + 1/9 + 5/36)/4 = 1/8. C and E = (1/9 + 1/9)/2 = 1/9.
    A whirl on 7: the any seven unit wins 4 and the four horn units lose 4: a push."""
    assert edge("horn") == F(1, 8)
    assert edge("c_and_e") == F(1, 9)
    whirl = analyse_craps_wager(cfg(), "whirl")
    assert whirl.p_push == F(6, 36)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1", "N.J.A.C. 13:47-20.32(e)5", "N.J.A.C. 13:47-20.32(f)")
def test_roulette_double_zero() -> None:
    """Straight at 35 to 1 on 38 pockets: (35 - 37)/38 = -1/19. First five at 6 to 1 covers 5:
    (6*5 - 33)/38 = -3/38."""
    rows = {r.wager: r for r in analyse("roulette", "nj-casino-night", {})}
    assert rows["straight"].house_edge == F(1, 19)
    assert rows["first_five"].house_edge == F(3, 38)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(h)", "N.J.A.C. 13:47-20.32(i)2", "N.J.A.C. 13:47-20.32(g)")
def test_roulette_single_zero_and_zero_rules() -> None:
    """Single zero: (35 - 36)/37 = -1/37 for every wager at its odds. A double-zero wheel used as
    single zero respins 00: the same 1/37. Half back on 0/00 (20.32(g)): red loses 20/38 -
    18/38 + ... = (18 - 18 - 2*1/2)/38 = -1/38."""
    for wheel in ("single-zero", "double-zero-as-single"):
        rows = {r.wager: r for r in analyse("roulette", "nj-casino-night", {"wheel": wheel})}
        assert rows["straight"].house_edge == F(1, 37)
        assert rows["red"].house_edge == F(1, 37)
        assert "first_five" not in rows
    half = {r.wager: r for r in analyse("roulette", "nj-casino-night", {"zero_rule": "half"})}
    assert half["red"].house_edge == F(1, 38)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)")
def test_roulette_every_qualifier_has_the_same_figures() -> None:
    """One representative qualifier per wager is enough: all have the same edge on a wheel."""
    pays = load_profile("nj-casino-night").roulette.pays  # type: ignore[union-attr]
    for wheel in ("double-zero", "single-zero"):
        for wager in ("split", "three_numbers", "four_numbers", "six_numbers", "dozen"):
            edges = {analyse_roulette_wager(wager, q, wheel, "full", pays).house_edge
                     for q in roulette_qualifiers(wager, wheel)}
            assert len(edges) == 1, (wheel, wager, edges)


def test_chain_solver_handles_cycles() -> None:
    """A two-state cycle: a <-> b with exits; checked against the hand solution.
    From a: 1/2 win, 1/2 to b; from b: 1/2 lose, 1/2 back to a. P(win from a) = 2/3."""
    half = F(1, 2)
    steps = {"a": [(half, End("win", F(1))), (half, Next("b"))],
             "b": [(half, End("lose", F(-1))), (half, Next("a"))]}
    result = solve_chain("a", lambda s: steps[str(s)])
    assert result.ends[End("win", F(1))] == F(2, 3)
    assert result.steps == 2


def test_variance_of_pass_is_one_minus_edge_squared() -> None:
    """An even-money bet with no push: Var = 1 - E^2."""
    row = analyse_craps_wager(cfg(), "pass")
    assert row.variance == 1 - F(7, 495) ** 2


def test_expected_rolls() -> None:
    """Pass: 1 + sum over points of P(point) * 36/(w+6) = 557/165; a one-roll bet: 1."""
    assert analyse_craps_wager(cfg(), "pass").expected_rolls == F(557, 165)
    assert analyse_craps_wager(cfg(), "field").expected_rolls == 1
    assert analyse_craps_wager(cfg(), "place_win", 6).expected_rolls == F(36, 11)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(b)", "N.J.A.C. 19:47-1.2(b)")
def test_table_lists_only_what_the_profile_permits() -> None:
    keys = {r.wager for r in analyse("craps", "nj-19-47", {})}
    assert "fire:A" not in keys and "buy:4:placement" not in keys and "pass_odds:4" not in keys
    keys = {r.wager for r in analyse("mini-craps", "nj-13-69f", {})}
    assert "fire:A" not in keys and "six_seven_eight" in keys
    keys = {r.wager for r in analyse("craps", "nj-13-69f", {})}
    assert {"buy:4:placement", "buy:4:win", "lay:4:win", "fire:A", "fire:B", "hop:1-3",
            "horn_high:12", "dont_come_odds:10", "six_seven_eight"} <= keys


# --- Monte Carlo of the engine itself --------------------------------------------------------

CRAPS_MC = [
    ("pass", None, {}, None),
    ("dont_pass", None, {}, None),
    ("come", None, {}, None),
    ("dont_come", None, {}, None),
    ("place_win", 6, {}, None),
    ("place_win", 4, {}, None),
    ("place_win", 5, {}, None),
    ("place_lose", 4, {}, None),
    ("field", None, {}, None),
    ("field", None, {"pays": {"field:12": "3 to 1"}}, None),
    ("any_seven", None, {}, None),
    ("any_craps", None, {}, None),
    ("hard", 6, {}, None),
    ("hard", 4, {}, None),
    ("yo_11", None, {}, None),
    ("craps_2", None, {}, None),
    ("hop", (2, 2), {}, None),
    ("hop", (1, 3), {}, None),
    ("buy", 4, {"vig_collected": "placement"}, "placement"),
    ("buy", 4, {"vig_collected": "win"}, "win"),
    ("lay", 10, {}, "placement"),
    ("pass_odds", None, {}, None),
    ("horn", None, {}, None),
    ("whirl", None, {}, None),
    ("six_seven_eight", None, {}, None),
    ("fire", None, {}, None),
]


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
@pytest.mark.parametrize(("wager", "qualifier", "options", "timing"), CRAPS_MC,
                         ids=[f"{w}-{q}-{t or o}" for w, q, o, t in CRAPS_MC])
def test_craps_monte_carlo_of_the_engine(wager: str, qualifier: Any, options: dict[str, Any],
                                         timing: str | None) -> None:
    """The engine, fed seeded random dice, agrees with the exact figure within 4 standard errors."""
    config = cfg(**options)
    if wager == "pass_odds":
        row = analyse_craps_wager(config, wager, point=6)
        n = 8000
        mean, bets = simulate_craps(wager, qualifier, n, options=options)
        # Odds behind a random point: mean 0 whatever the point; the largest sd is on 4/10.
        sd = analyse_craps_wager(config, wager, point=4).sd
        assert abs(mean) < 4 * sd / math.sqrt(bets)
        assert row.house_edge == 0
        return
    row = analyse_craps_wager(config, wager, qualifier, timing=timing)
    n = 4000 if wager == "fire" else 8000
    mean, bets = simulate_craps(wager, qualifier, n, options=options)
    expected = float(row.expected_net)
    assert abs(mean - expected) < 4 * row.sd / math.sqrt(bets), (mean, expected)


ROULETTE_MC = [
    ("straight", (17,), {}),
    ("first_five", None, {}),
    ("straight", (17,), {"wheel": "single-zero"}),
    ("red", None, {"zero_rule": "half"}),
    ("five_adjacent", 0, {}),
    ("split", (0, "00"), {}),
]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(f)")
@pytest.mark.parametrize(("wager", "qualifier", "options"), ROULETTE_MC,
                         ids=[f"{w}-{o}" for w, _, o in ROULETTE_MC])
def test_roulette_monte_carlo_of_the_engine(wager: str, qualifier: Any,
                                            options: dict[str, Any]) -> None:
    """The roulette engine, fed seeded random pockets, agrees within 4 standard errors."""
    pays = load_profile("nj-casino-night").roulette.pays  # type: ignore[union-attr]
    wheel = options.get("wheel", "double-zero")
    row = analyse_roulette_wager(wager, qualifier, wheel, options.get("zero_rule", "full"), pays)
    mean, spins = simulate_roulette(wager, qualifier, 10000, options=options)
    assert abs(mean - float(row.expected_net)) < 4 * row.sd / math.sqrt(spins)
