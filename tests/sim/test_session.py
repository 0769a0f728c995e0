"""Exact session analysis: against the gambler's-ruin closed form and against simulation."""

from __future__ import annotations

import dataclasses
import json
import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from croupier.cli import main
from croupier.sim.compile import RUINED, WIN_GOAL, compile_table
from croupier.sim.engine import Simulation, simulate
from croupier.sim.library import BUILT_IN
from croupier.sim.session import (
    Chain,
    Session,
    SessionRefused,
    analyse,
    distribution,
    explore,
    gamblers_ruin,
    session_table,
    solve,
)
from croupier.sim.session_layouts import explore_layouts
from croupier.sim.session_rows import explore_rows

PASS_WINS = Fraction(244, 495)  # the pass line's chance of winning a decision


@pytest.mark.parametrize(("units", "goal"), [(1, 1), (3, 5), (9, 6)])
def test_flat_pass_line_is_the_gamblers_ruin_closed_form(units: int, goal: int) -> None:
    _, sol, _ = analyse(Session(BUILT_IN["pass-line"], Decimal(10 * units), Decimal(10 * goal), 0))
    assert sol.exact
    assert sol.ends["win goal"] == gamblers_ruin(PASS_WINS, units, goal)
    assert sol.ends["win goal"] + sol.ends["ruined"] == 1


def test_float_agrees_with_exact_within_its_bound() -> None:
    c = session_table(BUILT_IN["place-6-8"], Decimal(24), None)
    chain = explore(c, 2400)
    exact, approx = solve(chain, exact=True), solve(chain, exact=False)
    assert exact.exact and not approx.exact
    assert 0 < approx.error_bound < 1e-6
    for name, value in exact.ends.items():
        assert abs(float(value) - float(approx.ends[name])) <= approx.error_bound
    assert abs(float(exact.expected_rolls) - float(approx.expected_rolls)) <= \
        approx.rolls_error_bound
    d_exact, d_float = distribution(chain, 30, exact=True), distribution(chain, 30, exact=False)
    assert sum(d_exact.by_worth.values()) == 1
    for w, p in d_exact.by_worth.items():
        assert abs(float(p) - float(d_float.by_worth.get(w, 0.0))) <= d_float.error_bound + 1e-15


@pytest.mark.parametrize(("name", "dollars"), [
    ("place-6-8", 24), ("martingale-red", 40), ("iron-cross", 30)])
def test_the_iterative_solve_agrees_with_the_exact_fractions_within_its_bound(
        name: str, dollars: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """GMRES with the two-level preconditioner (taken past ``ITERATIVE_STATES``, here forced
    on every chain) against the rationals of the exact elimination, within the error bound it
    states, on chains small enough for rationals."""
    from croupier.sim import session

    c = session_table(BUILT_IN[name], Decimal(dollars), None)
    chain = explore(c, 100 * dollars)
    exact = solve(chain, exact=True)
    monkeypatch.setattr(session, "ITERATIVE_STATES", 0)
    steps: list[int] = []
    approx = solve(chain, exact=False, progress=lambda phase, k, _: steps.append(k)
                   if phase.startswith("solving") else None)
    assert exact.exact and not approx.exact and steps  # the iterative solver ran
    assert 0 < approx.error_bound < 1e-9
    assert set(approx.ends) == set(exact.ends)
    for end, value in exact.ends.items():
        assert isinstance(value, Fraction)
        assert abs(float(value) - float(approx.ends[end])) <= approx.error_bound
    assert abs(float(exact.expected_rolls) - float(approx.expected_rolls)) <= \
        approx.rolls_error_bound


@pytest.mark.parametrize("name", ["place-6-8", "place-6-8-press-regress"])
def test_session_agrees_with_simulation(name: str) -> None:
    bankroll, goal, rolls = Decimal(120), Decimal(120), 40
    _, sol, dist = analyse(Session(BUILT_IN[name], bankroll, goal, rolls), exact=False)
    compiled = compile_table([dataclasses.replace(BUILT_IN[name], win_goal=goal)])
    n = 16384
    res = simulate(compiled, Simulation(n, 20000, int(bankroll * 100), 11), kernel="generic")
    status = res.status[:, 0]
    assert set(np.unique(status).tolist()) <= {RUINED, WIN_GOAL}, "a session did not end"
    p = float(sol.ends["win goal"])
    won = float((status == WIN_GOAL).mean())
    assert abs(won - p) <= 4 * math.sqrt(p * (1 - p) / n), (won, p)
    mean_rolls = float(res.rolls.mean())
    se_rolls = float(res.rolls.std(ddof=1)) / math.sqrt(n)
    assert abs(mean_rolls - float(sol.expected_rolls)) <= 4 * se_rolls
    short = simulate(compiled, Simulation(n, rolls, int(bankroll * 100), 12), kernel="generic")
    final = short.final[:, 0].astype(np.float64)
    assert abs(final.mean() - dist.mean()) <= 4 * final.std(ddof=1) / math.sqrt(n)


def test_refusals_say_why() -> None:
    with pytest.raises(SessionRefused, match="no win goal"):
        session_table(BUILT_IN["pass-line"], None, None)
    two = compile_table([BUILT_IN["pass-line"], BUILT_IN["place-6-8"]])
    with pytest.raises(SessionRefused, match="one strategy at a time"):
        explore(two, 10000)
    c = session_table(BUILT_IN["pass-odds-come"], Decimal(200), None)
    with pytest.raises(SessionRefused, match="more than 5,000 states"):
        explore(c, 20000, max_states=5000)


def test_session_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["session", "pass-line", "--bankroll", "30", "--goal", "20", "--rolls", "3",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    won = gamblers_ruin(PASS_WINS, 3, 2)
    assert out["ends"]["win goal"]["fraction"] == f"{won.numerator}/{won.denominator}"
    assert out["exact"] and out["after_rolls"]["exact"]
    total = sum(Fraction(v["fraction"]) for v in out["after_rolls"]["distribution"].values())
    assert total == 1
    assert main(["session", "pass-line"]) == 2
    assert "no win goal" in capsys.readouterr().err


def _as_rows(chain: Chain) -> tuple[set[bytes], set[tuple[bytes, bytes, int]],
                                    dict[bytes, tuple[int, int]]]:
    keys = [r.tobytes() for r in chain.rows]
    trans = {(keys[s], keys[d], k) for s, d, k in zip(chain.src.tolist(), chain.dst.tolist(),
                                                       chain.count.tolist(), strict=True)}
    ends = {keys[i]: (int(chain.end_status[i]), int(chain.worth[i])) for i in range(chain.size)
            if chain.absorbing[i]}
    return set(keys), trans, ends


@pytest.mark.parametrize(("name", "money", "loss"), [
    ("pass-line", 40, None), ("pass-line", 40, 20), ("place-6-8", 48, None),
    ("place-6-8-press-regress", 60, None), ("pass-odds-come", 25, None),
    ("iron-cross", 40, 30), ("martingale-red", 30, None), ("pass-fire", 25, None),
    ("three-point-dolly", 20, None), ("hammer-lock", 30, None)])
def test_layout_tables_give_the_row_explorers_chain(name: str, money: int,
                                                    loss: int | None) -> None:
    # the chain from the layout tables (states of layout, chips, status) and the one found
    # state row by state row with the generic kernel (the code before it): the same states,
    # transitions with their outcome counts, endings and worths; small bankrolls, so that
    # players run short of money (partial bets) and reach the stop loss
    strategy = dataclasses.replace(BUILT_IN[name],
                                   stop_loss=None if loss is None else Decimal(loss))
    c = session_table(strategy, Decimal(money), None)
    new = explore_layouts(c, money * 100, 1_000_000)
    old = explore_rows(c, money * 100, 1_000_000)
    assert new is not None
    assert _as_rows(new) == _as_rows(old)
    if new.size - int(new.absorbing.sum()) <= 600:  # exact: the same fractions
        a, b = solve(new), solve(old)
        assert a.exact and a.ends == b.ends and a.expected_rolls == b.expected_rolls
        assert distribution(new, 7).by_worth == distribution(old, 7).by_worth


def test_a_chain_far_past_the_limit_is_refused_at_once_with_its_size() -> None:
    c = session_table(BUILT_IN["pass-odds-come"], Decimal(500), None)
    with pytest.raises(SessionRefused, match=r"about [\d,]+: 18,960 layouts.*--max-states"):
        explore(c, 50000)


def test_a_session_past_the_default_limit_is_refused_with_its_count_and_the_option() -> None:
    """The fire bet's points made times pass-line play at $500 and a $500 goal: more states
    than the default limit (which keeps a solve within what a person waits for); the refusal
    names the limit and the option that raises it."""
    c = session_table(BUILT_IN["pass-fire"], Decimal(500), None)
    with pytest.raises(SessionRefused, match=r"more than 400,000 states.*--max-states"):
        explore(c, 50000)


@pytest.mark.parametrize("iterative", [False, True])
def test_ruin_worked_out_from_the_other_ends_is_within_its_bound(
        iterative: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ruin is not solved for but taken as 1 less the other ends (the session ends surely):
    with a stop loss beside the goal (three ends), by the LU and by GMRES, each end against
    the exact fractions within the bound stated."""
    from croupier.sim import session

    strategy = dataclasses.replace(BUILT_IN["fibonacci-red"], stop_loss=Decimal(25))
    chain = explore(session_table(strategy, Decimal(30), None), 3000)
    exact = solve(chain, exact=True)
    assert set(exact.ends) == {"win goal", "ruined", "stop-loss"}
    assert all(0 < v < 1 for v in exact.ends.values())
    if iterative:
        monkeypatch.setattr(session, "ITERATIVE_STATES", 0)
    approx = solve(chain, exact=False)
    assert 0 < approx.error_bound < 1e-9
    for end, value in exact.ends.items():
        assert abs(float(value) - float(approx.ends[end])) <= approx.error_bound


def _no_simulator_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """As for a strategy with more layouts than the simulator tables (double-tap): the
    session's explorer tables them itself, a probe of them first."""
    from croupier.sim import session_layouts

    monkeypatch.setattr(session_layouts, "layout_tables", lambda _: None)
    monkeypatch.setattr(session_layouts, "PROBE_LAYOUTS", 60)
    monkeypatch.setattr(session_layouts, "PROBE_STEP", 20)


def test_layouts_tabled_by_the_session_give_the_same_chain(
        monkeypatch: pytest.MonkeyPatch) -> None:
    c = session_table(BUILT_IN["place-6-8-press-regress"], Decimal(60), None)
    usual = explore_layouts(c, 6000, 1_000_000)
    _no_simulator_tables(monkeypatch)
    tabled: list[int] = []
    probed = explore_layouts(c, 6000, 1_000_000,
                             lambda phase, n, _: tabled.append(n) if phase.startswith(
                                 "tabling") else None)
    assert usual is not None and probed is not None
    assert tabled[0] <= 60 < tabled[-1]  # more layouts than the probe: tabled past it
    assert _as_rows(probed) == _as_rows(usual)


def test_a_strategy_with_too_many_layouts_is_refused_from_the_first_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the first layouts tabled alone give an estimate past the refusal, the session
    is refused before the rest are tabled, with the estimate and the option."""
    from croupier.sim import session_layouts

    _no_simulator_tables(monkeypatch)
    monkeypatch.setattr(session_layouts, "ESTIMATE_REFUSED", 1000)
    tabled: list[int] = []
    c = session_table(BUILT_IN["place-6-8-press-regress"], Decimal(500), None)
    with pytest.raises(SessionRefused, match=r"about [\d,]+: [\d,]+ layouts of the bets \(the "
                       r"first tabled of more\).*--max-states"):
        explore_layouts(c, 50000, 200, lambda phase, n, _: tabled.append(n))
    assert max(tabled) <= 60


def test_gmres_vector_kernels_match_numpy() -> None:
    """The compiled projections, norm and update GMRES uses in place of numpy's products:
    the same results, and a norm of tiny entries whose squares would underflow to zero."""
    from croupier.sim.session_iterative import _add_combination, _norm, _orthogonalise

    rng = np.random.default_rng(5)
    basis = np.linalg.qr(rng.standard_normal((50, 4)))[0].T.copy()  # 4 orthonormal rows
    w = rng.standard_normal(50)
    hessenberg = np.ones((6, 3))  # GMRES passes a column of it: a strided view
    expected = w - (basis @ w) @ basis
    projections = basis @ w
    _orthogonalise(basis, 4, w, hessenberg[:, 1])
    assert np.allclose(w, expected) and np.allclose(basis @ w, 0, atol=1e-12)
    assert np.allclose(hessenberg[:4, 1], 1 + projections)
    assert (hessenberg[4:, 1] == 1).all() and (hessenberg[:, [0, 2]] == 1).all()
    assert math.isclose(_norm(w), float(np.linalg.norm(w)), rel_tol=1e-14)
    assert math.isclose(_norm(np.full(4, 1e-200)), 2e-200, rel_tol=1e-14)
    assert _norm(np.zeros(3)) == 0.0
    x = np.ones(50)
    y = rng.standard_normal(3)
    _add_combination(x, y, basis)  # only the first len(y) rows
    assert np.allclose(x, 1 + y @ basis[:3])
