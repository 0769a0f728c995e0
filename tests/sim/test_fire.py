"""The fire bet in simulation: shooters' points made agree with the exact analysis."""

from __future__ import annotations

import math

import numpy as np
import pytest

from croupier.analysis.exact import fire_points
from croupier.sim.compile import ACTIVE, RUINED, WIN_GOAL, StrategyRefused, compile_table
from croupier.sim.engine import Simulation, simulate
from croupier.sim.strategy import Strategy

SHOOTERS = 1_000_000

# One $1 fire bet per session, the whole bankroll: a shooter who makes fewer than four points
# ruins the player; one who makes more pays 24, 249 or 999 to 1 and the session stops at its
# (one cent) win goal. So each session is one shooter, and its final bankroll says how many
# points the shooter made.
ONE_SHOOTER = """
name = "one-fire-bet"
rules = "nj-13-69f"
win_goal = "0.01"
[[bets]]
wager = "fire"
amount = "1"
"""


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(e)")
def test_shooters_points_made_agree_with_the_exact_analysis() -> None:
    compiled = compile_table([Strategy.from_toml(ONE_SHOOTER)])
    assert compiled.craps_config is not None
    exact = fire_points(compiled.craps_config)
    res = simulate(compiled, Simulation(SHOOTERS, 400, 100, 16), kernel="generic")
    status = res.status[:, 0]
    assert not (status == ACTIVE).any(), "a shooter still rolling after 400 rolls"
    assert set(np.unique(status).tolist()) <= {RUINED, WIN_GOAL}
    pays = {4: 24, 5: 249, 6: 999}
    for points, win in pays.items():
        count = int((res.final[:, 0] == 100 * (win + 1)).sum())
        p = float(exact[points])
        expected = SHOOTERS * p
        se = math.sqrt(SHOOTERS * p * (1 - p))
        assert abs(count - expected) <= 4 * se, (points, count, expected, se)
    winners = int((status == WIN_GOAL).sum())
    assert winners == sum(int((res.final[:, 0] == 100 * (w + 1)).sum()) for w in pays.values())


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)")
def test_the_fire_bet_is_refused_where_the_profile_has_none() -> None:
    s = Strategy.from_toml(ONE_SHOOTER.replace('"nj-13-69f"', '"nj-19-47"'))
    with pytest.raises(StrategyRefused, match="fire"):
        compile_table([s])


