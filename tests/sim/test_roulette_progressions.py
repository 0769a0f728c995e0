"""Named betting systems (martingale, d'Alembert, Fibonacci, Paroli) become bounded levels."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.errors import Malformed
from croupier.sim.library import BUILT_IN
from croupier.sim.roulette_progressions import MAX_LEVELS, SYSTEMS, expand
from croupier.sim.strategy import Strategy


def _strategy(**rule: Any) -> Strategy:
    return Strategy.from_dict({"name": "s", "game": "roulette",
                               "bets": [{"wager": "red", **rule}]})


@pytest.mark.parametrize(("system", "bound", "built_in"), [
    ("martingale", "640", "martingale-red"), ("dalembert", "100", "dalembert-red"),
    ("fibonacci", "720", "fibonacci-red")])
def test_a_named_system_is_the_built_in_written_out(system: str, bound: str,
                                                    built_in: str) -> None:
    named = _strategy(amount="5", progression=system, max_amount=bound)
    written = BUILT_IN[built_in]
    assert named.bets[0].amounts == written.bets[0].amounts
    ours, theirs = named.progressions[0], written.progressions[0]
    assert (ours.on_win, ours.on_lose) == (theirs.on_win, theirs.on_lose)


def test_paroli_and_a_reset_at_the_bound() -> None:
    paroli = _strategy(amount="5", progression="paroli", max_amount="100", wins=4)
    assert paroli.bets[0].amounts == tuple(Decimal(x) for x in ("5", "10", "20", "40"))
    assert paroli.progressions[0].on_win == (1, 2, 3, 0)
    assert paroli.progressions[0].on_lose == (0, 0, 0, 0)
    reset = _strategy(amount="5", progression="martingale", max_amount="20", at_max="reset")
    assert reset.progressions[0].on_lose == (1, 2, 0)


def test_a_shared_progression_of_that_name_is_kept() -> None:
    s = Strategy.from_dict({"name": "s", "game": "roulette",
                            "progressions": {"martingale": {"on_win": [0, 0],
                                                            "on_lose": [1, 1]}},
                            "bets": [{"wager": "red", "amounts": ["5", "7"],
                                      "progression": "martingale"}]})
    assert s.bets[0].amounts == (Decimal(5), Decimal(7))


@pytest.mark.parametrize(("rule", "where"), [
    ({"amount": "5", "progression": "martingale"}, "bets[0]"),
    ({"amount": "5", "progression": "fibonacci", "max_amount": "4"}, "bets[0].max_amount"),
    ({"amount": "5", "progression": "dalembert", "max_amount": "50", "at_max": "stop"},
     "bets[0].at_max"),
    ({"amount": "5", "progression": "martingale", "max_amount": "50", "wins": 2},
     "bets[0].wins"),
    ({"amount": "5", "max_amount": "50"}, "bets[0].max_amount"),
    ({"amount": "1", "progression": "dalembert", "max_amount": "500"}, "bets[0].max_amount"),
    ({"amounts": ["5"], "progression": "martingale", "max_amount": "50"}, "bets[0].amounts"),
])
def test_malformed_systems_name_the_place(rule: dict[str, Any], where: str) -> None:
    with pytest.raises(Malformed) as caught:
        _strategy(**rule)
    assert caught.value.where == f"strategy.{where}"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SYSTEMS), st.integers(1, 25), st.integers(1, 3000), st.booleans(),
       st.integers(1, 6))
def test_levels_stay_within_the_bound(system: str, unit: int, bound: int, reset: bool,
                                      wins: int) -> None:
    rule: dict[str, Any] = {"wager": "red", "amount": str(unit), "progression": system,
                            "max_amount": str(max(bound, unit)),
                            "at_max": "reset" if reset else "hold"}
    if system == "paroli":
        rule["wins"] = wins
    try:
        out = expand({"bets": [rule]})["bets"][0]
    except Malformed as exc:  # only too many levels is refused here
        assert "levels" in exc.message
        return
    amounts = [Decimal(a) for a in out["amounts"]]
    n = len(amounts)
    assert amounts[0] == unit and max(amounts) <= Decimal(rule["max_amount"]) and n <= MAX_LEVELS
    assert all(a % unit == 0 for a in amounts)
    assert all(0 <= x < n for x in out["on_win"] + out["on_lose"])
    if system != "paroli":  # a loss never brings a smaller bet, but for a reset at the top
        assert all(amounts[out["on_lose"][i]] >= amounts[i] or (reset and i == n - 1)
                   for i in range(n))
        assert all(amounts[out["on_win"][i]] <= amounts[i] for i in range(n))
