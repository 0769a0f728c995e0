"""The kernel plays the reference engine's game: identical bankroll histories, to the cent."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import numpy as np
import pytest

from croupier.sim.compile import compile_table
from croupier.sim.engine import Simulation, outcome_stream, simulate
from croupier.sim.library import BUILT_IN
from croupier.sim.strategy import Strategy
from croupier.sim.table_play import play_on_tables

SEED = 20240605
SESSIONS = 6
ROLLS = 240


def _check(strategies: list[Strategy], bankroll: Decimal, sessions: int = SESSIONS,
           rolls: int = ROLLS, seed: int = SEED) -> None:
    compiled = compile_table(strategies)
    cents = int(bankroll * 100)
    res = simulate(compiled, Simulation(sessions, rolls, cents, seed, n_hist=sessions, stride=1))
    for i in range(sessions):
        dice = outcome_stream(seed, i, rolls, compiled.n_outcomes)
        ref = play_on_tables(compiled, [int(o) for o in dice], bankroll)
        assert res.rolls[i] == ref.rolls, f"session {i}: rolls"
        for p in range(compiled.players):
            kernel = [Decimal(int(c)) / 100 for c in res.hist[i, p, 1:ref.rolls + 1]]
            assert kernel == ref.history[p], f"session {i} player {p}: bankroll history differs"
            assert Decimal(int(res.final[i, p])) / 100 == ref.final[p]
            assert Decimal(int(res.wagered[i, p])) / 100 == ref.wagered[p]
            assert int(res.status[i, p]) == ref.status[p]


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_identical_histories(name: str) -> None:
    strategy = BUILT_IN[name]
    _check([strategy], Decimal(300))


def test_identical_histories_with_limits() -> None:
    for name in ("pass-odds-come", "double-tap", "martingale-red", "hammer-lock"):
        s = dataclasses.replace(BUILT_IN[name], stop_loss=Decimal(150), win_goal=Decimal(100),
                                shooter_loss_limit=Decimal(40) if BUILT_IN[name].game == "craps"
                                else None)
        _check([s], Decimal(400))


def test_identical_histories_six_players() -> None:
    names = ["pass-line", "pass-odds-come", "place-6-8", "iron-cross", "three-point-dolly",
             "buy-sampler"]
    _check([BUILT_IN[n] for n in names], Decimal(500), sessions=4)


def test_history_detects_a_changed_pay_table() -> None:
    # The comparison can fail: a kernel compiled with a different pay table disagrees.
    s = dataclasses.replace(BUILT_IN["dice-doctor"], table={"pays": {"field:12": "3 to 1"}})
    compiled = compile_table([s])
    res = simulate(compiled, Simulation(1, ROLLS, 30000, SEED, n_hist=1))
    plain = compile_table([BUILT_IN["dice-doctor"]])
    dice = outcome_stream(SEED, 0, ROLLS, 36)
    ref = play_on_tables(plain, [int(o) for o in dice], Decimal(300))
    kernel = [Decimal(int(c)) / 100 for c in res.hist[0, 0, 1:ref.rolls + 1]]
    assert kernel != ref.history[0]
    assert np.any(res.wagered > 0)


FIRE_ONLY = """
name = "fire-only"
rules = "nj-13-69f"
[[bets]]
wager = "fire"
amount = "1"
"""


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_one_fire_bet_per_shooter_as_the_reference_engine_plays_it() -> None:
    # $5 and a $1 fire bet with no goal: a new bet on every new shooter until the money is
    # gone. The reference table refuses a fire bet after a shooter's first roll, so any bet the
    # kernel made at the wrong time would stop this test with that refusal.
    s = Strategy.from_toml(FIRE_ONLY)
    _check([s], Decimal(5), sessions=8, rolls=400)
    _check([BUILT_IN["pass-fire"]], Decimal(200), sessions=4, rolls=400)
