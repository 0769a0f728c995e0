"""Long-run edge, seed and worker invariance, refusals and the strategy format."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from croupier.craps.wagers import PASS, Lose, Move, Win
from croupier.dice import OUTCOMES
from croupier.errors import Malformed
from croupier.sim.compile import StrategyRefused, compile_table
from croupier.sim.engine import BLOCK, Results, Simulation, run_blocks, simulate, simulate_dask
from croupier.sim.library import BUILT_IN, BUILT_IN_TOML
from croupier.sim.strategy import Strategy


def exact_pass_edge() -> Fraction:
    """The pass line's expected loss per unit, from PASS.decide with exact fractions."""
    p = Fraction(1, 36)
    ev = Fraction(0)
    for d1, d2 in OUTCOMES:
        out = PASS.decide(None, None, d1, d2)
        if isinstance(out, Win):
            ev += p
        elif isinstance(out, Lose):
            ev -= p
        else:
            assert isinstance(out, Move)
            point = out.state
            win = sum(1 for a, b in OUTCOMES if isinstance(PASS.decide(None, point, a, b), Win))
            lose = sum(1 for a, b in OUTCOMES if isinstance(PASS.decide(None, point, a, b), Lose))
            ev += p * Fraction(win - lose, win + lose)
    return -ev


def test_exact_edge_is_7_over_495() -> None:
    assert exact_pass_edge() == Fraction(7, 495)


def test_pass_line_loss_per_unit_matches_the_exact_edge() -> None:
    compiled = compile_table([BUILT_IN["pass-line"]])
    n, rolls, bank = 8 * BLOCK, 2000, 10**9
    res = simulate(compiled, Simulation(n, rolls, bank, 7))
    loss = (bank - res.final[:, 0]).astype(np.float64)
    wag = res.wagered[:, 0].astype(np.float64)
    ratio = loss.sum() / wag.sum()
    se = np.sqrt(np.var(loss - ratio * wag, ddof=1) / n) / wag.mean()
    edge = float(exact_pass_edge())
    assert se < 0.001
    assert abs(ratio - edge) < 4 * se, (ratio, edge, se)


def _same(a: Results, b: Results) -> None:
    for name in ("final", "bank", "wagered", "rolls", "status", "endroll"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


def test_results_do_not_depend_on_chunking() -> None:
    compiled = compile_table([BUILT_IN["pass-odds-come"]])
    sessions = 2 * BLOCK + 300
    whole = simulate(compiled, Simulation(sessions, 300, 50000, 11))
    parts = [run_blocks(compiled, [b], Simulation(sessions, 300, 50000, 11)) for b in (2, 0, 1)]
    _same(whole, Results.concat([parts[1], parts[2], parts[0]]))
    # fewer sessions: the same dice and results for the sessions both runs play
    few = simulate(compiled, Simulation(500, 300, 50000, 11))
    np.testing.assert_array_equal(few.final, whole.final[:500])
    other = simulate(compiled, Simulation(500, 300, 50000, 12))
    assert not np.array_equal(other.final, few.final)


def test_dask_local_cluster_gives_identical_results() -> None:
    import distributed  # a dependency: its absence is a failure, not a skip
    compiled = compile_table([BUILT_IN["iron-cross"]])
    sessions = 2 * BLOCK + 100
    local = simulate(compiled, Simulation(sessions, 200, 50000, 3))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = simulate_dask(compiled, Simulation(sessions, 200, 50000, 3), client=client, tasks=3)
    _same(local, remote)


def test_refused_wagers_say_why() -> None:
    odds_night = dataclasses.replace(BUILT_IN["pass-odds-come"], rules="nj-casino-night")
    with pytest.raises(StrategyRefused, match=r"pass_odds\) is not a permitted wager under nj-casino-night"):
        compile_table([odds_night])
    fire = Strategy.from_toml('name = "f"\n[[bets]]\nwager = "fire"\namount = "5"\n'
                              'rules = "nj-19-47"\n'.replace('rules = "nj-19-47"\n', ''))
    with pytest.raises(StrategyRefused, match="not a permitted wager under nj-19-47"):
        compile_table([fire], "nj-19-47")
    with pytest.raises(StrategyRefused, match="cannot be paid at 7 to 6"):
        compile_table([Strategy.from_toml(
            'name = "x"\n[[bets]]\nwager = "place_win"\nnumber = 6\namount = "10"\n')])
    with pytest.raises(StrategyRefused, match="more than 3 times"):
        compile_table([Strategy.from_toml(
            'name = "x"\n[[bets]]\nwager = "pass"\namount = "10"\n'
            '[[bets]]\nwager = "pass_odds"\nmultiple = 10\n')])


def test_every_built_in_is_a_valid_file() -> None:
    for name, text in BUILT_IN_TOML.items():
        s = Strategy.from_toml(text)
        assert s == BUILT_IN[name]
        assert s.description


def test_malformed_strategies() -> None:
    with pytest.raises(Malformed, match="unknown bet rule key"):
        Strategy.from_toml('name = "x"\n[[bets]]\nwager = "pass"\namout = "10"\n')
    with pytest.raises(Malformed, match="needs at least one"):
        Strategy.from_toml('name = "x"\n')
    with pytest.raises(Malformed, match="no progression"):
        Strategy.from_toml('name = "x"\n[[bets]]\nwager = "pass"\namount = "10"\n'
                           'progression = "p"\n')


def test_ruin_and_goal_statuses() -> None:
    s = dataclasses.replace(BUILT_IN["martingale-red"], win_goal=Decimal(50))
    res = simulate(compile_table([s]), Simulation(500, 2000, 20000, 5))
    statuses = set(np.unique(res.status).tolist())
    assert {1, 3} <= statuses  # some ruined, some reached the goal
    assert (res.final[res.status[:, 0] == 3, 0] >= 25000).all()
