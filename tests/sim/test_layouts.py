"""Whole-layout state tables: the same results as the generic kernel and the reference engine,
to the cent, with the tables generated from the wager definitions."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.dice import OUTCOMES
from croupier.sim import layouts
from croupier.sim.compile import RUINED, compile_table
from croupier.sim.engine import Results, Simulation, outcome_stream, simulate
from croupier.sim.layouts import CREDIT, DECIDED, NEXT, ON_TABLE, RULES, build_layout_tables
from croupier.sim.library import BUILT_IN
from croupier.sim.strategy import Strategy
from croupier.sim.table_play import play_on_tables

# double-tap has more layouts than the tables take (it plays on the specialised kernel)
CRAPS = sorted(n for n, s in BUILT_IN.items() if s.game == "craps" and n != "double-tap")
ROULETTE = sorted(n for n, s in BUILT_IN.items() if s.game == "roulette")
FIELDS = ("final", "bank", "wagered", "rolls", "status", "endroll", "hist")


def _same(a: Results, b: Results) -> None:
    for name in FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


def _with_limits(s: Strategy, loss: int, goal: int, shooter: int) -> Strategy:
    return dataclasses.replace(
        s, stop_loss=Decimal(loss) or None, win_goal=Decimal(goal) or None,
        shooter_loss_limit=(Decimal(shooter) or None) if s.game == "craps" else None)


@st.composite
def tables(draw: st.DrawFn) -> list[Strategy]:
    """One to three players of one game, each with or without a stop loss, win goal and
    shooter loss limit."""
    pool = draw(st.sampled_from([CRAPS, CRAPS, ROULETTE]))
    names = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3))
    return [_with_limits(BUILT_IN[n], draw(st.sampled_from([0, 60, 150])),
                         draw(st.sampled_from([0, 40, 200])), draw(st.sampled_from([0, 25])))
            for n in names]


@settings(max_examples=8, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(strategies=tables(), bankroll=st.sampled_from([3000, 9000, 40000, 10**7]),
       seed=st.integers(0, 2**32 - 1), stride=st.sampled_from([1, 5]))
def test_layout_tables_play_the_generic_kernels_game(strategies: list[Strategy], bankroll: int,
                                                     seed: int, stride: int) -> None:
    compiled = compile_table(strategies)
    # an odd number of sessions (they are played in pairs) and a partial second chunk
    sim = Simulation(37, 1100, bankroll, seed, n_hist=37, stride=stride)
    tabled = simulate(compiled, sim)
    generic = simulate(compiled, sim, kernel="generic")
    _same(tabled, generic)


@settings(max_examples=10, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(strategies=tables(), bankroll=st.sampled_from([3000, 9000, 40000, 10**7]),
       seed=st.integers(0, 2**32 - 1), sessions=st.integers(1, 70),
       paths=st.integers(0, 3))
def test_sessions_in_lanes_play_the_generic_kernels_game(strategies: list[Strategy],
                                                         bankroll: int, seed: int,
                                                         sessions: int, paths: int) -> None:
    # the sessions without a kept path play in lanes, eight at a time (a partial last group,
    # lanes that leave at a limit or short of money, blocks with and without the checks)
    compiled = compile_table(strategies)
    sim = Simulation(sessions, 1100, bankroll, seed, n_hist=paths, stride=3)
    _same(simulate(compiled, sim), simulate(compiled, sim, kernel="generic"))


def test_lanes_near_their_limits_and_far_from_them() -> None:
    # a win goal and a stop loss a few bets away (lanes leave at them, in checked blocks) and
    # far away (blocks played without the checks), at one table with a player without limits
    near = _with_limits(BUILT_IN["pass-odds-come"], 120, 90, 0)
    far = _with_limits(BUILT_IN["iron-cross"], 4000, 5000, 0)
    compiled = compile_table([near, far, BUILT_IN["place-6-8"]])
    sim = Simulation(203, 2100, 300000, 12)
    lanes = simulate(compiled, sim)
    _same(lanes, simulate(compiled, sim, kernel="generic"))
    assert {2, 3} <= set(lanes.status[:, 0].tolist())  # the stop loss and the goal
    assert (lanes.status[:, 2] == 0).any() and (lanes.endroll[:, 1] > 1024).any()


def test_lanes_short_of_money_go_on_with_the_generic_kernel() -> None:
    # as test_a_player_short_of_money_leaves..., with the sessions in lanes (no kept paths)
    compiled = compile_table([BUILT_IN["pass-odds-come"], BUILT_IN["place-6-8"]])
    sim = Simulation(301, 1500, 6000, 4)
    lanes = simulate(compiled, sim)
    assert (lanes.status == RUINED).sum() > 100
    _same(lanes, simulate(compiled, sim, kernel="generic"))


@settings(max_examples=4, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(strategies=tables(), seed=st.integers(0, 2**32 - 1))
def test_layout_tables_play_the_reference_engines_game(strategies: list[Strategy],
                                                       seed: int) -> None:
    compiled = compile_table(strategies)
    res = simulate(compiled, Simulation(2, 150, 20000, seed, n_hist=2))
    for i in range(2):
        dice = outcome_stream(seed, i, 150, compiled.n_outcomes)
        ref = play_on_tables(compiled, [int(o) for o in dice], Decimal(200))
        assert int(res.rolls[i]) == ref.rolls
        for p in range(compiled.players):
            assert [Decimal(int(c)) / 100 for c in res.hist[i, p, 1:ref.rolls + 1]] \
                == ref.history[p]
            assert Decimal(int(res.wagered[i, p])) / 100 == ref.wagered[p]


def test_a_player_short_of_money_leaves_the_tables_with_the_same_results() -> None:
    # $60 behind a pass line with odds and two come bets: most sessions reach a roll whose
    # bets the player cannot afford, where the generic kernel takes over (only it rules a
    # player ruined)
    compiled = compile_table([BUILT_IN["pass-odds-come"], BUILT_IN["place-6-8"]])
    sim = Simulation(301, 1500, 6000, 4, n_hist=301)
    tabled = simulate(compiled, sim)
    assert (tabled.status == RUINED).sum() > 100
    _same(tabled, simulate(compiled, sim, kernel="generic"))


def test_pass_line_tables_come_from_the_wager_definition() -> None:
    lt = build_layout_tables(compile_table([BUILT_IN["pass-line"]]))
    assert lt is not None
    empty = 0
    assert lt.decide[empty, ON_TABLE] == 0
    bet = int(lt.decide[empty, RULES])
    assert lt.decide[bet, ON_TABLE] == 1000  # the $10 pass line, in cents
    seven = OUTCOMES.index((3, 4))
    craps = OUTCOMES.index((1, 1))
    four = OUTCOMES.index((1, 3))
    # a come-out seven pays even money: the stake and $10 back, $10 decided
    assert lt.step[bet, seven, CREDIT] == 2000
    assert lt.step[bet, seven, DECIDED] == 1000
    assert lt.step[bet, craps, CREDIT] == 0
    on_four = int(lt.step[bet, four, NEXT])
    assert lt.rows[on_four, 0] == 1  # the table's point is 4
    assert lt.step[bet, four, DECIDED] == 0
    # the rules and the roll in one lookup agree with the two lookups
    assert (lt.play[empty, :, :3] == lt.step[bet] + np.array([0, -1000, 0])).all()
    assert (lt.play[empty, :, 3] == 1000).all()  # the least bankroll that makes the bet
    # every layout's amount on the table is its stakes' sum
    slots = lt.shape.slots
    assert (lt.decide[:, ON_TABLE] == lt.rows[:, 2:2 + slots].sum(axis=1)).all()


def test_too_many_layouts_play_on_the_specialised_kernel(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    compiled = compile_table([BUILT_IN["pass-line"]])
    assert build_layout_tables(compiled, limit=10) is None
    monkeypatch.setattr(layouts, "MAX_LAYOUTS", 10)
    monkeypatch.setattr(layouts, "_CACHE", {})
    monkeypatch.setenv("CROUPIER_KERNEL_DIR", str(tmp_path))
    assert layouts.layout_tables(compiled) is None
    assert list(tmp_path.glob("layouts-*.npz"))  # the verdict is kept on disk too
    _same(simulate(compiled, Simulation(40, 300, 5000, 9, n_hist=40)),
          simulate(compiled, Simulation(40, 300, 5000, 9, n_hist=40), kernel="generic"))


def test_tables_kept_on_disk_are_the_tables_built(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    compiled = compile_table([BUILT_IN["place-6-8-press-regress"]])
    monkeypatch.setenv("CROUPIER_KERNEL_DIR", str(tmp_path))
    monkeypatch.setattr(layouts, "_CACHE", {})
    built = layouts.layout_tables(compiled)
    monkeypatch.setattr(layouts, "_CACHE", {})
    read = layouts.layout_tables(compiled)
    assert built is not None and read is not None and read is not built
    for name in ("first", "decide", "step", "play", "rows"):
        np.testing.assert_array_equal(getattr(built, name), getattr(read, name))
    assert read.shape == built.shape
