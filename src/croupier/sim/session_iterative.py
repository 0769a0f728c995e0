"""A large session's chain solved iteratively: GMRES with a two-level preconditioner.

The sparse LU of ``36 I - C`` (:func:`croupier.sim.session.solve`) fills in with what the
strategy's layouts do far more than with the state count: iron-cross at $500 (191,489 states in
play) fills to 92 million entries and takes minutes. An iterative solver costs a few passes over
the matrix per step instead, and the steps needed depend on how well a cheap approximate
inverse (the *preconditioner*) captures the chain:

* within one bankroll, the layout of the bets mixes in a few rolls: a symmetric Gauss-Seidel
  sweep over the matrix (forward, then backward) settles that part of the error;
* across bankrolls the session drifts slowly (thousands of rolls from start to goal or ruin),
  and no local sweep moves information that far. A *coarse* chain does: the states merged by
  their worth (chips in hand plus wagers on the layout), ``P^T A P`` with ``P`` the 0/1 matrix
  of which state has which worth, is a walk over a few thousand worths, factorised exactly
  once. Its correction carries the error across the whole bankroll in one step.

The two together (sweep, coarse, sweep) precondition restarted GMRES, which converges in 20
to 100 steps a column on every built-in strategy measured (``benchmarks/session.py``). Nothing here is
trusted blindly: the caller computes the residual of the answer and from it the error bound it
reports, as for the LU; and a solve that has not converged within its steps says so (None), so
the caller can fall back on the LU.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp  # type: ignore[import-untyped]
import scipy.sparse.linalg as spla  # type: ignore[import-untyped]
from numba import njit

F64 = npt.NDArray[np.float64]
RESTART = 20
MAX_STEPS = 200  # per column; hammer-lock at $500, the slowest built-in, needs 100
PASSES = 2
RTOL = 2e-15  # a little above what double precision can reach on these sums


@njit(cache=True, nogil=True, inline="always")
def _flush(v: float) -> float:  # pragma: no cover
    """``v``, or 0 where it is below any normal double: the error a sweep leaves far from where
    the session ends decays geometrically, and arithmetic on subnormal numbers is a hundred
    times slower (a 5 ms sweep took 100)."""
    return v if abs(v) > 1e-290 else 0.0


@njit(cache=True, nogil=True)
def _sweep(indptr: Any, indices: Any, data: Any, r: Any, z: Any) -> None:  # pragma: no cover
    """One symmetric Gauss-Seidel sweep for ``A z = r`` from ``z`` = 0, in place (``A`` in
    CSR, its diagonal non-zero)."""
    n = r.shape[0]
    for i in range(n):
        _relax(indptr, indices, data, r, z, i)
    for i in range(n - 1, -1, -1):
        _relax(indptr, indices, data, r, z, i)


@njit(cache=True, nogil=True, inline="always")
def _relax(indptr: Any, indices: Any, data: Any, r: Any, z: Any, i: int) -> None:  # pragma: no cover
    """Row ``i`` of ``A z = r`` solved for ``z[i]`` with the others as they stand."""
    s = r[i]
    d = 1.0
    for k in range(indptr[i], indptr[i + 1]):
        j = indices[k]
        if j == i:
            d = data[k]
        else:
            s -= data[k] * z[j]
    z[i] = _flush(s / d)


# The vector work of GMRES in compiled loops rather than numpy's products: those go to a
# multithreaded BLAS, whose threads, on a machine whose cores are busy, wait on one another
# (a 90,000-state solve took 24 s with them, 4.6 s with one thread).


@njit(cache=True, nogil=True)
def _orthogonalise(basis: Any, k: int, w: Any, h: Any) -> None:  # pragma: no cover
    """``w`` less its projections on the first ``k`` rows of ``basis`` (orthonormal), the
    projections added to ``h[:k]`` (classical Gram-Schmidt, one pass)."""
    n = w.shape[0]
    c = np.zeros(k)
    for j in range(k):
        s = 0.0
        for i in range(n):
            s += basis[j, i] * w[i]
        c[j] = s
    for i in range(n):
        s = w[i]
        for j in range(k):
            s -= c[j] * basis[j, i]
        w[i] = s
    for j in range(k):
        h[j] += c[j]


@njit(cache=True, nogil=True)
def _norm(v: Any) -> float:  # pragma: no cover
    """The Euclidean norm of ``v`` (scaled, so no square overflows or underflows)."""
    big = 0.0
    for i in range(v.shape[0]):
        big = max(big, abs(v[i]))
    if big == 0.0:
        return 0.0
    s = 0.0
    for i in range(v.shape[0]):
        t = v[i] / big
        s += t * t
    return float(big * np.sqrt(s))


@njit(cache=True, nogil=True)
def _add_combination(x: Any, y: Any, z: Any) -> None:  # pragma: no cover
    """``x += y @ z[:len(y)]``, in place."""
    for j in range(y.shape[0]):
        c = y[j]
        for i in range(x.shape[0]):
            x[i] += c * z[j, i]


class TwoLevel:
    """The preconditioner: a symmetric Gauss-Seidel sweep, a coarse correction over the
    states merged by ``groups``, the sweep again (each applied to what the previous left of
    the residual). Sweeping on both sides of the coarse correction rather than correcting on
    both sides of a sweep more than halves the steps where the layouts mix slowly within a
    bankroll (hammer-lock at $500: 160 and 260 steps for the goal and the rolls, now 72 and
    100) for a step about as dear."""

    def __init__(self, a: Any, groups: npt.NDArray[np.int64]) -> None:
        self.a = sp.csr_matrix(a)
        m = self.a.shape[0]
        _, which = np.unique(groups, return_inverse=True)
        k = int(which.max()) + 1 if m else 0
        self.p = sp.csr_matrix((np.ones(m), (np.arange(m), which)), shape=(m, k))
        self.pt = sp.csr_matrix(self.p.T)
        self.coarse = spla.splu(sp.csc_matrix(self.pt @ self.a @ self.p))

    def _coarse(self, r: F64) -> F64:
        out: F64 = self.p @ self.coarse.solve(self.pt @ r)
        return out

    def _smooth(self, r: F64) -> F64:
        e = np.zeros_like(r)
        _sweep(self.a.indptr, self.a.indices, self.a.data, r, e)
        return e

    def __call__(self, r: F64) -> F64:
        z = self._smooth(r)
        z += self._coarse(r - self.a @ z)
        z += self._smooth(r - self.a @ z)
        return z


def gmres(a: Any, b: F64, precondition: Callable[[F64], F64],
          on_step: Callable[[int], None] | None = None) -> F64 | None:
    """``x`` with ``max |b - A x| <= RTOL (max |b| + |A| max |x|)`` (``|A|``: the largest sum
    of a row's magnitudes), by restarted GMRES (right preconditioned; Gram-Schmidt done twice,
    as whole-basis products; the small least-squares problem by Givens rotations); None if
    :data:`MAX_STEPS` steps do not get there."""
    m = b.shape[0]
    x = np.zeros_like(b)
    steps = 0
    norm_a = float(np.asarray(abs(a).sum(axis=1)).max(initial=0.0))
    b_max = float(np.abs(b).max(initial=0.0))
    basis = np.empty((RESTART + 1, m))
    z = np.empty((RESTART, m))
    while True:
        r = b - a @ x
        tol = RTOL * (b_max + norm_a * float(np.abs(x).max(initial=0.0)))
        if np.abs(r).max(initial=0.0) <= tol:
            return x
        if steps >= MAX_STEPS:
            return None
        beta = _norm(r)
        basis[0] = r / beta
        h = np.zeros((RESTART + 1, RESTART))
        g = np.zeros(RESTART + 1)
        g[0] = beta
        cs, sn = np.zeros(RESTART), np.zeros(RESTART)
        k = 0
        for k in range(RESTART):
            z[k] = precondition(basis[k])
            w = a @ z[k]
            for _ in range(PASSES):
                _orthogonalise(basis, k + 1, w, h[:, k])
            h[k + 1, k] = _norm(w)
            steps += 1
            if on_step is not None:
                on_step(steps)
            for j in range(k):  # the rotations so far, then one that zeroes h[k + 1, k]
                h[j, k], h[j + 1, k] = (cs[j] * h[j, k] + sn[j] * h[j + 1, k],
                                        -sn[j] * h[j, k] + cs[j] * h[j + 1, k])
            rho = float(np.hypot(h[k, k], h[k + 1, k]))
            cs[k], sn[k] = h[k, k] / rho, h[k + 1, k] / rho
            lost = h[k + 1, k]
            h[k, k], h[k + 1, k] = rho, 0.0
            g[k + 1], g[k] = -sn[k] * g[k], cs[k] * g[k]
            if lost == 0 or abs(g[k + 1]) < tol / 10:
                break
            basis[k + 1] = w / lost
        y = np.linalg.solve(np.triu(h[:k + 1, :k + 1]), g[:k + 1])
        _add_combination(x, y, z)


def solve_columns(a: Any, rhs: F64, groups: npt.NDArray[np.int64],
                  on_step: Callable[[int], None] | None = None) -> F64 | None:
    """Every column of ``A X = rhs`` (see :func:`gmres`), preconditioned by the states merged
    by ``groups`` (None: a column did not converge). ``on_step`` is told the steps so far."""
    precondition = TwoLevel(a, groups)
    out = np.zeros_like(rhs)
    steps = [0, 0]  # before this column, so far

    def step(k: int) -> None:
        steps[1] = steps[0] + k
        if on_step is not None:
            on_step(steps[1])

    for col in range(rhs.shape[1]):
        b = np.ascontiguousarray(rhs[:, col])
        if not b.any():
            continue
        x = gmres(precondition.a, b, precondition, step)
        if x is None:
            return None
        out[:, col] = x
        steps[0] = steps[1]
    return out
