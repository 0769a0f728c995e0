"""Exact session analysis: a strategy's whole session as a finite Markov chain, solved.

A session's state is everything the simulator keeps for a player between rolls: chips in hand,
the table's point, whether the next roll is a new shooter's first, every wager's stake and
state, the progressions' levels, the player's status. :func:`explore` builds the chain from
the simulator's own step (the compiled kernel :func:`croupier.sim.kernel.play_chunk`, played
one roll from a batch of states, once per outcome), so the analysis and ``simulate`` play the
same game by construction. With a goal (a win goal) and the floor of ruin, the bankroll is
bounded and so is the chain; a strategy whose chain exceeds the state limit is refused with
the count.

:func:`solve` then gives, from the starting state, the probability of each way a session ends
(goal, ruin, stop loss) and the expected number of rolls to the end: exactly in rationals by
sparse elimination when the chain is small, otherwise in double precision (GMRES past
:data:`ITERATIVE_STATES`, a sparse LU below it or where GMRES does not converge), with an
error bound (the residual times the largest expected number of rolls,
which is the infinity norm of ``(I - Q)^-1``). :func:`distribution` gives the bankroll after N
rolls (chips in hand plus wagers on the layout, the simulator's ``final``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp  # type: ignore[import-untyped]
import scipy.sparse.linalg as spla  # type: ignore[import-untyped]

from croupier.errors import Malformed
from croupier.sim.compile import (
    RUINED,
    STATUS_NAMES,
    STOP_LOSS,
    WIN_GOAL,
    Compiled,
    cents,
    compile_table,
)
from croupier.sim.session_chain import I64, Chain, Layout, Progress, SessionRefused
from croupier.sim.session_iterative import solve_columns
from croupier.sim.session_layouts import explore_layouts
from croupier.sim.session_rows import explore_rows
from croupier.sim.strategy import Strategy

__all__ = ["Chain", "Layout", "SessionRefused", "analyse", "distribution", "explore",
           "gamblers_ruin", "session_table", "solve", "statuses"]

F64 = npt.NDArray[np.float64]
MAX_STATES = 400_000  # past this the solve alone takes more than a person waits for
EXACT_STATES = 600
ITERATIVE_STATES = 5_000  # past this, GMRES (session_iterative) before the sparse LU
UNIT_ROUNDOFF = 2.0 ** -53


def session_table(strategy: Strategy, goal: Decimal | None, rules: str | None) -> Compiled:
    """The strategy compiled for one player, with ``goal`` as its win goal; refused where the
    session's state is unbounded."""
    if goal is not None:
        strategy = dataclasses.replace(strategy, win_goal=goal)
    if strategy.win_goal is None:
        raise SessionRefused(f"strategy {strategy.name!r} has no win goal: without one the "
                             "bankroll, and so the session's state, is unbounded (give --goal)")
    return compile_table([strategy], rules)


def explore(c: Compiled, start: int, max_states: int = MAX_STATES,
            progress: Progress | None = None) -> Chain:
    """Every state a session can reach from ``start`` cents, and the chain between them:
    from the layout tables (:mod:`croupier.sim.session_layouts`) where they hold the
    strategy's state, else state row by state row (:mod:`croupier.sim.session_rows`)."""
    if c.players != 1:
        raise SessionRefused("one strategy at a time: players at one table share the dice, so "
                             "their sessions are one chain of all their states together")
    chain = explore_layouts(c, start, max_states, progress)
    if chain is None:
        chain = explore_rows(c, start, max_states, progress)
    return chain


@dataclass
class Solution:
    """How the session ends, from its start: probabilities by status, expected rolls."""

    ends: dict[str, Fraction | float]  # "win goal", "ruined", "stop-loss" -> probability
    expected_rolls: Fraction | float
    exact: bool
    error_bound: float  # a bound on each probability's error (0 when exact)
    rolls_error_bound: float  # a bound on the expected rolls' error (0 when exact)
    transient: int  # states in which the session goes on


def solve(chain: Chain, exact: bool | None = None, progress: Progress | None = None) -> Solution:
    """Absorption probabilities and the expected rolls to the end, from the starting state."""
    trans = np.flatnonzero(~chain.absorbing)
    if chain.absorbing[0]:
        return Solution({STATUS_NAMES[int(chain.end_status[0])]: Fraction(1)}, Fraction(0),
                        True, 0.0, 0.0, 0)
    if exact is None:
        exact = trans.size <= EXACT_STATES
    ends = [s for s in (WIN_GOAL, RUINED, STOP_LOSS)
            if (chain.absorbing & (chain.end_status == s)).any()]
    if exact:
        return _solve_exact(chain, trans, ends)
    return _solve_float(chain, trans, ends, progress)


def _transient_system(chain: Chain, trans: I64, ends: list[int]) -> tuple[Any, F64]:
    """``36 I - C`` over the transient states (C: outcome counts between them) and, per end,
    the counts of outcomes into it; the order puts the starting state first."""
    n = chain.size
    pos = np.full(n, -1, np.int64)
    pos[trans] = np.arange(trans.size)
    keep = pos[chain.src] >= 0
    src, dst, cnt = pos[chain.src[keep]], chain.dst[keep], chain.count[keep]
    inner = pos[dst] >= 0
    m = trans.size
    q = sp.csr_matrix((cnt[inner].astype(np.float64), (src[inner], pos[dst[inner]])),
                      shape=(m, m))
    rhs = np.zeros((m, len(ends) + 1), np.float64)
    for e, status in enumerate(ends):
        hit = ~inner & (chain.end_status[dst] == status)
        np.add.at(rhs[:, e], src[hit], cnt[hit])
    rhs[:, -1] = chain.n_outcomes  # one roll from every transient state
    a = sp.identity(m, format="csr") * chain.n_outcomes - q
    return a, rhs


def _solve_float(chain: Chain, trans: I64, ends: list[int],
                 progress: Progress | None = None) -> Solution:
    a, rhs = _transient_system(chain, trans, ends)
    # The session ends surely, so from every state the ends' probabilities sum to 1: one of
    # them (ruin, where it can happen) is 1 less the others, and its residual is minus the
    # sum of theirs (A 1 is the outcomes into every end), so one column fewer is solved.
    derived = ends.index(RUINED) if len(ends) > 1 and RUINED in ends else None
    cols = [e for e in range(len(ends) + 1) if e != derived]
    x = np.zeros_like(rhs)
    x[:, cols] = _solve_system(a, rhs[:, cols], chain.worth[trans], progress)
    residual = np.zeros(rhs.shape[1])
    residual[cols] = np.abs(a @ x[:, cols] - rhs[:, cols]).max(axis=0) / chain.n_outcomes
    if derived is not None:
        others = [e for e in cols if e < len(ends)]
        x[:, derived] = 1.0 - x[:, others].sum(axis=1)
        residual[derived] = residual[others].sum()
    t_max = float(x[:, -1].max())
    # (I - Q)^-1 is non-negative with row sums t: its infinity norm is max t. Each solution's
    # error is at most that norm times its residual (t's own error enlarges max t by at most
    # the same factor, kept by the 2x).
    bounds = 2 * t_max * residual
    names = {s: STATUS_NAMES[s] for s in ends}
    return Solution({names[s]: float(x[0, e]) for e, s in enumerate(ends)}, float(x[0, -1]),
                    False, float(bounds[:-1].max(initial=0.0)), float(bounds[-1]),
                    int(trans.size))


def _solve_system(a: Any, rhs: F64, groups: I64, progress: Progress | None) -> F64:
    """``a X = rhs`` in double precision: GMRES past :data:`ITERATIVE_STATES` (its cost is
    bounded, steps times the matrix's entries), the sparse LU where the chain is smaller or
    GMRES has not converged (the LU's fill is bounded by nothing the size shows: 0.3 to 92
    million entries among the built-ins at $500)."""
    if a.shape[0] > ITERATIVE_STATES:
        tell = None if progress is None else (lambda k: progress("solving, step", k, 0))
        x = solve_columns(a, rhs, groups, tell)
        if x is not None:
            return x
    if progress is not None:
        progress("factorising", int(a.shape[0]), 0)
    # 36 I - C is a non-singular M-matrix: its pivots stay on the diagonal with no growth, so
    # the ordering may be chosen for fill alone, symmetrically (minimum degree on A + A^T;
    # quick-props at $500 fills to 7 million entries so, to 34 million by column ordering)
    lu = spla.splu(sp.csc_matrix(a), permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                   options={"SymmetricMode": True})
    out: F64 = lu.solve(rhs)
    return out


def _solve_exact(chain: Chain, trans: I64, ends: list[int]) -> Solution:
    """Sparse Gaussian elimination in rationals, states in order of bankroll (so the matrix is
    nearly banded and fills in little). ``36 I - C`` is a non-singular M-matrix: no pivoting."""
    a, rhs = _transient_system(chain, trans, ends)
    m = a.shape[0]
    order = np.lexsort((np.arange(m), chain.bank[trans]))
    at = np.empty(m, np.int64)
    at[order] = np.arange(m)
    rows = _rational_rows(a, at)
    b = [[Fraction(round(v)) for v in rhs[i]] for i in order.tolist()]
    _eliminate(rows, b)
    x = _back_substitute(rows, b)
    first = x[int(at[0])]
    names = {s: STATUS_NAMES[s] for s in ends}
    return Solution({names[s]: first[e] for e, s in enumerate(ends)}, first[-1], True, 0.0, 0.0,
                    m)


def _rational_rows(a: Any, at: I64) -> list[dict[int, Fraction]]:
    """The sparse integer matrix ``a`` as exact rows (column: entry), its rows and columns
    renumbered by ``at``."""
    coo = sp.coo_matrix(a)
    rows: list[dict[int, Fraction]] = [{} for _ in range(a.shape[0])]
    for i, j, v in zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist(), strict=True):
        rows[int(at[i])][int(at[j])] = Fraction(round(v))
    return rows


def _eliminate(rows: list[dict[int, Fraction]], b: list[list[Fraction]]) -> None:
    """Forward elimination in place: ``rows`` upper triangular, ``b`` with it."""
    below: list[set[int]] = [set() for _ in rows]  # rows below the diagonal with column j
    for i, row in enumerate(rows):
        for j in row:
            if j < i:
                below[j].add(i)
    for k, pivot_row in enumerate(rows):
        pivot = pivot_row[k]
        for i in sorted(below[k]):
            entry = rows[i].pop(k, None)
            if entry is None:  # cancelled to zero by an earlier step
                continue
            factor = entry / pivot
            _subtract_row(rows[i], i, pivot_row, k, factor, below)
            b[i] = [bi - factor * bk for bi, bk in zip(b[i], b[k], strict=True)]


def _subtract_row(row: dict[int, Fraction], i: int, pivot_row: dict[int, Fraction], k: int,
                  factor: Fraction, below: list[set[int]]) -> None:
    """Row ``i`` less ``factor`` times pivot row ``k`` (off its diagonal), noting the new
    entries below the diagonal and dropping those that cancel."""
    for j, v in pivot_row.items():
        if j == k:
            continue
        new = row.get(j, Fraction(0)) - factor * v
        if new:
            row[j] = new
            if j < i:
                below[j].add(i)
        else:
            row.pop(j, None)


def _back_substitute(rows: list[dict[int, Fraction]],
                     b: list[list[Fraction]]) -> list[list[Fraction]]:
    """The solutions of the upper triangular system, one per column of ``b``."""
    x: list[list[Fraction]] = [[] for _ in rows]
    for i in range(len(rows) - 1, -1, -1):
        row = rows[i]
        acc = list(b[i])
        for j, v in row.items():
            if j > i:
                acc = [s - v * xj for s, xj in zip(acc, x[j], strict=True)]
        x[i] = [s / row[i] for s in acc]
    return x


@dataclass
class Distribution:
    """The bankroll after N rolls (chips in hand plus wagers on the layout), by amount."""

    rolls: int
    by_worth: dict[int, Fraction | float]  # cents -> probability
    exact: bool
    error_bound: float  # on the sum of the probabilities' errors (0 when exact)

    def mean(self) -> float:
        """The mean bankroll, in cents."""
        return float(sum(w * float(p) for w, p in self.by_worth.items()))

    def quantile(self, q: float) -> int:
        """The smallest bankroll with at least ``q`` of the probability at or below it."""
        acc = 0.0
        for w in sorted(self.by_worth):
            acc += float(self.by_worth[w])
            if acc >= q - 1e-12:
                return w
        return max(self.by_worth)


def distribution(chain: Chain, rolls: int, exact: bool | None = None) -> Distribution:
    """The bankroll after ``rolls`` rolls from the start (a session that ended keeps its final
    bankroll): exactly with integer outcome counts, or in double precision."""
    n = chain.size
    if exact is None:
        exact = n * max(rolls, 1) <= 400_000
    loops = np.flatnonzero(chain.absorbing)
    src = np.concatenate([chain.src, loops])
    dst = np.concatenate([chain.dst, loops])
    cnt = np.concatenate([chain.count, np.full(loops.size, chain.n_outcomes, np.int64)])
    if exact:
        return _distribution_exact(chain, rolls, src, dst, cnt)
    worth = chain.worth
    if chain.depth is not None:  # only states reached in at most ``rolls`` rolls matter
        near = np.flatnonzero(chain.depth <= rolls)
        at = np.full(n, -1, np.int64)
        at[near] = np.arange(near.size)
        keep = (at[src] >= 0) & (at[dst] >= 0)
        src, dst, cnt, worth, n = at[src[keep]], at[dst[keep]], cnt[keep], worth[near], near.size
    p = sp.csr_matrix((cnt / chain.n_outcomes, (dst, src)), shape=(n, n))
    v = np.zeros(n)
    v[0] = 1.0
    for _ in range(rolls):
        v = p @ v
    out: dict[int, Fraction | float] = {}
    for w, prob in zip(worth.tolist(), v.tolist(), strict=True):
        if prob > 0:
            out[w] = float(out.get(w, 0.0)) + prob
    # each step adds at most (successors + 1) roundings of the unit total mass
    bound = rolls * (chain.n_outcomes + 1) * UNIT_ROUNDOFF
    return Distribution(rolls, out, False, bound)


def _distribution_exact(chain: Chain, rolls: int, src: I64, dst: I64, cnt: I64,
                        ) -> Distribution:
    order = np.argsort(src, kind="stable")
    src_l, dst_l, cnt_l = src[order].tolist(), dst[order].tolist(), cnt[order].tolist()
    weights: dict[int, int] = {0: 1}  # state -> probability * n_outcomes ** step
    by_src: dict[int, list[tuple[int, int]]] = {}
    for s, d, k in zip(src_l, dst_l, cnt_l, strict=True):
        by_src.setdefault(s, []).append((d, k))
    for _ in range(rolls):
        nxt: dict[int, int] = {}
        for s, w in weights.items():
            for d, k in by_src[s]:
                nxt[d] = nxt.get(d, 0) + w * k
        weights = nxt
    total = chain.n_outcomes ** rolls
    out: dict[int, Fraction | float] = {}
    for s, w in weights.items():
        worth = int(chain.worth[s])
        out[worth] = out.get(worth, Fraction(0)) + Fraction(w, total)
    return Distribution(rolls, out, True, 0.0)


def gamblers_ruin(p: Fraction, bankroll: int, goal: int) -> Fraction:
    """The chance of gaining ``goal`` units before losing ``bankroll``, one unit at even money
    won with probability ``p`` a decision (the closed form)."""
    r = (1 - p) / p
    if r == 1:
        return Fraction(bankroll, bankroll + goal)
    return (1 - r ** bankroll) / (1 - r ** (bankroll + goal))


@dataclass(frozen=True)
class Session:
    """The session analysed: one strategy's player with ``bankroll`` (and, if given, the win
    goal ``goal``) at a table of ``rules`` (the strategy's own if None); the bankroll's
    distribution after ``rolls`` rolls."""

    strategy: Strategy
    bankroll: Decimal
    goal: Decimal | None
    rolls: int
    rules: str | None = None


def analyse(session: Session, exact: bool | None = None, max_states: int = MAX_STATES,
            progress: Progress | None = None) -> tuple[Chain, Solution, Distribution]:
    """The whole analysis of one strategy's session (``progress``: told each phase)."""
    c = session_table(session.strategy, session.goal, session.rules)
    if session.bankroll <= 0:
        raise Malformed("--bankroll", "must be positive")
    chain = explore(c, cents(session.bankroll), max_states, progress)
    sol = solve(chain, exact, progress)
    if progress is not None:
        progress("after rolls", 0, 0)
    return chain, sol, distribution(chain, session.rolls, exact)


def statuses(ends: Iterable[str]) -> list[str]:
    """The end statuses in report order."""
    order = [STATUS_NAMES[s] for s in (WIN_GOAL, RUINED, STOP_LOSS)]
    return [s for s in order if s in set(ends)]
