"""``croupier edge --stake``: the edge a player really gets at a stake, the commission as the
table takes it (rounded down to its unit), worked by hand from the regulation's odds."""

from __future__ import annotations

import json
from decimal import Decimal as D
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.analysis.exact import analyse
from croupier.cli import main


def rows(rules: str, options: dict[str, object], stake: D | None) -> dict[str, object]:
    return {r.wager: r for r in analyse("craps", rules, options, stake)}


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_a_buy_too_small_to_owe_a_unit_has_no_edge() -> None:
    """Buy 4 pays 2 to 1, true odds; 5% of $19 rounds down to nothing, so the player's edge is
    0 where the exact rate gives 0.05 / 1.05 = 1/21. At $20 the $1 is exactly 5%: 1/21."""
    assert rows("nj-13-69f", {}, None)["buy:4:placement"].house_edge == Fraction(1, 21)
    assert rows("nj-13-69f", {}, D(19))["buy:4:placement"].house_edge == 0
    assert rows("nj-13-69f", {}, D(20))["buy:4:placement"].house_edge == Fraction(1, 21)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(k)")
def test_a_lay_at_a_stake_pays_the_commission_rounded_down() -> None:
    """Lay 10 $40 under (k) could win 20: 5% is $1, paid when made, i.e. 1/40 of the stake.
    True odds leave the stake's expectation 0, so the edge is (1/40) / (1 + 1/40) = 1/41.
    Lay 10 $30 could win 15: 0.75 rounds to nothing, edge 0."""
    assert rows("nj-casino-night", {}, D(40))["lay:10:placement"].house_edge == Fraction(1, 41)
    assert rows("nj-casino-night", {}, D(30))["lay:10:placement"].house_edge == 0


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "N.J.A.C. 13:69F-1.4(f)")
def test_rows_the_table_would_refuse_at_that_stake_say_why() -> None:
    at = rows("nj-13-69f", {"min_buy": 20}, D(19))
    assert "minimum buy" in at["buy:4:placement"].notes[0]
    assert "13:69F-1.4(f)" in at["lay:5:placement"].notes[0]  # 2 to 3 on 19: 12.66...
    assert at["field"].notes == ()


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_the_table_setting_follows_the_commission_timing_of_each_bet() -> None:
    """vig_on_win ["buy:4"]: buy 4's own setting is "win", buy 10's "placement"; collected on
    the win, 5% of the stake comes out of a 2 to 1 win with probability 1/3: edge 1/60."""
    at = rows("nj-13-69f", {"vig_on_win": ["buy:4"]}, None)
    assert at["buy:4:win"].as_configured and not at["buy:4:placement"].as_configured
    assert at["buy:10:placement"].as_configured and not at["buy:10:win"].as_configured
    assert at["buy:4:win"].house_edge == Fraction(1, 60)


def test_the_command_line_takes_a_stake(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edge", "--stake", "19", "--option", "min_buy=20", "--json"]) == 0
    out = {row["wager"]: row for row in json.loads(capsys.readouterr().out)}
    assert out["buy:4:placement"]["house_edge_exact"] == "0/1"
    assert "minimum buy" in out["buy:4:placement"]["notes"][0]
    assert main(["edge", "--stake", "ten"]) == 2
    assert "--stake ten" in capsys.readouterr().err
    assert main(["edge", "--stake", "19"]) == 0
    assert "at a stake of 19.00" in capsys.readouterr().out.splitlines()[0]


@settings(max_examples=40, deadline=None)
@given(stake=st.integers(1, 400), wager=st.sampled_from(["buy", "lay"]),
       number=st.sampled_from([4, 5, 6, 8, 9, 10]), timing=st.sampled_from(["placement", "win"]),
       rules=st.sampled_from(["nj-13-69f", "nj-casino-night"]))
def test_rounding_down_never_costs_the_player_more_than_the_exact_rate(
        stake: int, wager: str, number: int, timing: str, rules: str) -> None:
    """The commission is rounded down, never up: at any stake the edge is at most the exact
    rate's, and equal to it exactly when the rate's commission is a whole number of units."""
    from croupier.analysis.exact import analyse_craps_wager
    from croupier.craps.config import CrapsConfig
    from croupier.rules import load_profile

    if rules == "nj-casino-night":
        timing = "placement"  # (j), (k): paid when the bet is made
    cfg = CrapsConfig.from_options(load_profile(rules), {})
    exact = analyse_craps_wager(cfg, wager, number, timing=timing).house_edge
    at = analyse_craps_wager(cfg, wager, number, timing=timing, stake=D(stake)).house_edge
    assert 0 <= at <= exact
    owed = cfg.commission_base(wager, number, Fraction(stake)) * Fraction(cfg.vig)
    assert (at == exact) == (owed.denominator == 1)
