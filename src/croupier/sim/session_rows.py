"""A session's chain from the simulator's generic step, state by state: the reference.

A state is the simulator's whole state row of the player between rolls (the table's point,
whether the next roll is a new shooter's first, chips in hand, status, the bankroll at the
hand's start, the amount on the table, every wager's stake, state and commission paid, the
progressions' levels). :func:`explore_rows` plays the compiled kernel
(:func:`croupier.sim.kernel.play_chunk`) one roll from a batch of states, once per outcome,
until no new state appears. It is what :mod:`croupier.sim.session_layouts` is checked
against, and what explores a strategy whose state the layout tables do not hold (a shooter
loss limit keeps the bankroll at the hand's start) or whose layouts are too many for them;
:func:`step` also plays the few states the layout tables cannot (a player short of money).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from croupier.sim.compile import ACTIVE, T_NEW_SHOOTER, Compiled
from croupier.sim.kernel import play_chunk, tables_of
from croupier.sim.session_chain import I64, Chain, Layout, Progress, SessionRefused

BATCH = 4096


def row_layout(c: Compiled) -> Layout:
    """Where each part of the player's state sits in a state row."""
    return Layout(int(c.arrays["nslots"][0]), int(c.arrays["nctr"][0]))


def initial_row(c: Compiled, start: int, layout: Layout) -> I64:
    """The session's first state: ``start`` cents in hand, nothing down, a new shooter."""
    row = np.zeros(layout.width, np.int64)
    row[1] = fresh_matters(c)
    row[2] = start
    row[3] = ACTIVE
    row[4] = start if c.arrays["shooterlim"][0] > 0 else 0
    return row


def fresh_matters(c: Compiled) -> int:
    """Whether a rule waits for a new shooter (else the flag is kept at 0: fewer states)."""
    return int((c.arrays["timing"][0, : int(c.arrays["nslots"][0])] == T_NEW_SHOOTER).any())


def step(c: Compiled, start: int, layout: Layout, states: I64) -> tuple[I64, npt.NDArray[
        np.bool_]]:
    """Every state of ``states`` after each outcome: ``(m * n_outcomes, width)`` rows (state
    by state, outcome by outcome), and whether each state ended the session instead of rolling
    (the same for every outcome)."""
    m, n_out, S, C = states.shape[0], c.n_outcomes, layout.slots, layout.counters
    n = m * n_out

    def cols(a: int, b: int) -> I64:
        return np.repeat(states[:, a:b], n_out, axis=0)

    outcomes = np.tile(np.arange(n_out, dtype=np.uint8), m).reshape(n, 1)
    point = cols(0, 1).reshape(n)
    fresh = cols(1, 2).reshape(n).astype(np.int8)
    bank, status, handstart, ontable = cols(2, 3), cols(3, 4).astype(np.int8), cols(4, 5), \
        cols(5, 6)
    stake = cols(6, 6 + S).reshape(n, 1, S)
    st = cols(6 + S, 6 + 2 * S).reshape(n, 1, S)
    cpaid = cols(6 + 2 * S, 6 + 3 * S).reshape(n, 1, S)
    level = cols(6 + 3 * S, 6 + 3 * S + C).reshape(n, 1, C) if C else np.zeros((n, 1, 1),
                                                                                 np.int64)
    rolls = np.zeros(n, np.int64)
    tables = tables_of(c.arrays)
    play_chunk(outcomes, n, 0, 1, start, point, fresh, bank, stake, st, cpaid, level, status,
               handstart, ontable, np.zeros((n, 1), np.int64), rolls, np.zeros(n, np.bool_),
               np.full((n, 1), -1, np.int64), np.zeros((0, 1, 2), np.int64), 1,
               np.zeros(n, np.int64), tables)
    out = np.empty((n, layout.width), np.int64)
    out[:, 0] = point
    out[:, 1] = fresh * fresh_matters(c)
    out[:, 2], out[:, 3], out[:, 5] = bank[:, 0], status[:, 0], ontable[:, 0]
    out[:, 4] = handstart[:, 0] if c.arrays["shooterlim"][0] > 0 else 0
    out[:, 6:6 + S] = stake[:, 0]
    out[:, 6 + S:6 + 2 * S] = st[:, 0]
    out[:, 6 + 2 * S:6 + 3 * S] = cpaid[:, 0]
    if C:
        out[:, 6 + 3 * S:] = level[:, 0, :C]
    ended = rolls.reshape(m, n_out)[:, 0] == 0
    return out, ended


def _distinct(rows: I64) -> tuple[I64, I64]:
    """The distinct rows of ``rows`` (as indexes of a first occurrence) and each row's one:
    by a 64-bit hash, checked against the rows themselves (a collision falls back to sorting
    the rows' bytes)."""
    mult = np.random.default_rng(0).integers(1, 2**63, rows.shape[1], dtype=np.uint64) | 1
    with np.errstate(over="ignore"):
        h = (rows.view(np.uint64) * mult).sum(axis=1, dtype=np.uint64)
    _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    if not (rows[first][inverse] == rows).all():
        keys = np.ascontiguousarray(rows).view(np.dtype((np.void, rows.shape[1] * 8))).ravel()
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
    return first, inverse


def too_many(limit: int, found: str) -> SessionRefused:
    """The refusal of a chain past the state limit."""
    return SessionRefused(
        f"the session has more than {limit:,} states ({found}); the limit is --max-states "
        f"(a smaller bankroll or goal, or fewer bets, would need fewer)")


class _States:
    """The states found so far: rows in a growing array, and an index by their bytes."""

    def __init__(self, first: I64, limit: int) -> None:
        self.rows = np.zeros((1024, first.shape[0]), np.int64)
        self.rows[0] = first
        self.n = 1
        self.index: dict[bytes, int] = {first.tobytes(): 0}
        self.limit = limit

    def add(self, row: I64) -> int:
        """The number of ``row``, numbering it if it is new."""
        key = row.tobytes()
        got = self.index.get(key)
        if got is not None:
            return got
        if self.n >= self.limit:
            raise too_many(self.limit, "bankroll x table x layout")
        if self.n == self.rows.shape[0]:
            self.rows = np.concatenate([self.rows, np.zeros_like(self.rows)])
        self.rows[self.n] = row
        self.index[key] = self.n
        self.n += 1
        return self.n - 1


def explore_rows(c: Compiled, start: int, max_states: int,
                 progress: Progress | None = None) -> Chain:
    """Every state a session can reach from ``start`` cents, and the chain between them,
    found state row by state row."""
    layout = row_layout(c)
    found = _States(initial_row(c, start, layout), max_states)
    srcs: list[I64] = []
    dsts: list[I64] = []
    counts: list[I64] = []
    ended_at: dict[int, I64] = {}
    done = 0
    while done < found.n:
        batch = np.arange(done, min(found.n, done + BATCH))
        done = int(batch[-1]) + 1
        after, ended = step(c, start, layout, found.rows[batch])
        for i in np.flatnonzero(ended):
            ended_at[int(batch[i])] = after[i * c.n_outcomes].copy()
        live = np.flatnonzero(~ended)
        if progress is not None:
            progress("exploring", done, 0)
        if live.size == 0:
            continue
        flat = after.reshape(batch.size, c.n_outcomes, layout.width)[live].reshape(
            -1, layout.width)
        first, inverse = _distinct(flat)
        ids = np.array([found.add(flat[f]) for f in first], np.int64)
        src = np.repeat(batch[live], c.n_outcomes)
        pair, count = np.unique(src * (1 << 32) + ids[inverse], return_counts=True)
        srcs.append(pair >> 32)
        dsts.append(pair & ((1 << 32) - 1))
        counts.append(count.astype(np.int64))
    rows = found.rows[:found.n].copy()
    n = rows.shape[0]
    absorbing = np.zeros(n, np.bool_)
    end_status = np.zeros(n, np.int8)
    worth = rows[:, 2] + rows[:, 5]
    for at, final in ended_at.items():
        absorbing[at] = True
        end_status[at] = final[3]
        worth[at] = final[2] + final[5]
    empty = np.zeros(0, np.int64)
    return Chain(c, start, layout, rows[:, 2].copy(), np.concatenate(srcs) if srcs else empty,
                 np.concatenate(dsts) if dsts else empty,
                 np.concatenate(counts) if counts else empty, absorbing, end_status, worth,
                 lambda: rows)
