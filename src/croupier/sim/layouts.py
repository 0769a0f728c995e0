"""Whole-layout state tables: a player's layout as one integer, a roll as one table lookup.

A player's *layout* is everything the strategy keeps between rolls apart from money in hand:
the table's point, whether the next roll is a new shooter's first (where a rule waits for
one), every wager's stake, state (a come bet's number, the fire bet's points made, ...) and
commission paid, and the progressions' levels. Where the strategy's layouts are finitely many
(flat bets, odds, come bets, place bets, bounded progressions), :func:`layout_tables` numbers
every layout reachable from the empty one and precomputes, from the generic kernel's own step
(:func:`croupier.sim.kernel.apply_rules`, :func:`~croupier.sim.kernel.take_down_all` and
:func:`~croupier.sim.kernel.settle_player`, which read the tables compiled from the wager
definitions), for every layout:

* the layout after the strategy's bet rules, the money they take from (or give back to) the
  player's hand, and the least bankroll with which every bet they call for is affordable;
* the layout and money after taking every wager down (a stop loss or win goal);
* per outcome, the layout after the roll, the money it pays back and the stakes it decides.

:func:`play_layouts` then plays a roll with a few lookups per player. The bankroll stays
outside the layout: the limits are checked against it every roll, and a player who cannot
afford what the rules call for (below the layout's least bankroll) leaves the tables for the
rest of the session: the whole session's state is decoded into the generic kernel's arrays and
:func:`croupier.sim.kernel.play_chunk` plays on from that roll. So the results are the generic
kernel's, to the cent, by construction; the tests check it against the reference engine too.

A strategy with more than :data:`MAX_LAYOUTS` layouts per player is left to the other kernels.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from numba import njit

from croupier.sim import kernel
from croupier.sim.compile import T_NEW_SHOOTER, Compiled
from croupier.sim.kernel import (
    ACTIVE,
    NO_PURCHASE,
    STOP_LOSS,
    WIN_GOAL,
    Tables,
    apply_rules,
    no_refcount,
    settle_player,
    tables_of,
    take_down_all,
)
from croupier.sim.specialise import cache_dir as _cache_dir

# numba's cache of this module's kernels is keyed on this file only: it does not see a change
# to the kernel.py helpers they inline, and would go on running the old ones. After editing
# kernel.py, delete this module's numba cache (__pycache__/layouts.*.nbi, .nbc) in that
# checkout; the layout tables kept on disk are keyed on both files (_code_version).

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
MAX_LAYOUTS = 40_000
BATCH = 2048
ENOUGH = 1 << 52  # the bankroll the tables are computed with: more than any stake

# the columns of LayoutTables.decide
RULES, RULES_CASH, NEED, ON_TABLE, DOWN, DOWN_CASH = range(6)
# the columns of LayoutTables.step and .play (play has the layout's least bankroll too)
NEXT, CREDIT, DECIDED, LEAST = range(4)

_LOCK = threading.Lock()
_CACHE: dict[str, LayoutTables | None] = {}


@dataclass(frozen=True)
class Shape:
    """Where each part of a layout sits in a layout row: point, fresh, then per slot (padded
    to the table's widest player) the stakes, wager states and commissions paid, then the
    progressions' levels."""

    slots: int
    counters: int

    @property
    def width(self) -> int:
        """The columns of a layout row."""
        return 2 + 3 * self.slots + self.counters


@dataclass
class LayoutTables:
    """Every player's layouts, numbered together (player ``p``'s from ``first[p]``)."""

    first: I64  # (P + 1,) the first layout number of each player; the empty layout is first
    decide: I64  # (N, 6) per layout: the columns RULES ... DOWN_CASH
    step: I32  # (N, n_outcomes, 3) per layout and outcome: NEXT, CREDIT, DECIDED
    play: I32  # (N, n_outcomes, 4) the same for the rules' decision and then the roll, and
    # the least bankroll the rules need
    rows: I64  # (N, width) each layout, to decode it into the generic kernel's arrays
    shape: Shape

    @property
    def size(self) -> int:
        """How many layouts, all players together."""
        return int(self.rows.shape[0])


# --- one step of many layouts, by the generic kernel's own functions -----------------------


@njit(cache=True, nogil=True, inline="always")
def _load(row: Any, p: int, slots: int, counters: int, stake: Any, st: Any, cpaid: Any,
          level: Any, bank: Any, ontable: Any, wagered: Any) -> None:
    """Put one layout row in player ``p``'s place of one-session arrays, with ENOUGH in hand."""
    on = 0
    for k in range(slots):
        stake[0, p, k] = row[2 + k]
        st[0, p, k] = row[2 + slots + k]
        cpaid[0, p, k] = row[2 + 2 * slots + k]
        on += row[2 + k]
    for c in range(counters):
        level[0, p, c] = row[2 + 3 * slots + c]
    bank[0, p] = ENOUGH
    ontable[0, p] = on
    wagered[0, p] = 0


@njit(cache=True, nogil=True, inline="always")
def _store(out: Any, point: int, fresh: int, p: int, slots: int, counters: int, stake: Any,
           st: Any, cpaid: Any, level: Any) -> None:
    """Player ``p``'s layout from one-session arrays into the row ``out``."""
    out[0] = point
    out[1] = fresh
    for k in range(slots):
        out[2 + k] = stake[0, p, k]
        out[2 + slots + k] = st[0, p, k]
        out[2 + 2 * slots + k] = cpaid[0, p, k]
    for c in range(counters):
        out[2 + 3 * slots + c] = level[0, p, c]


@no_refcount
def step_layouts(rows: Any, p: int, slots: int, counters: int, fresh_matters: int, t: Tables,
                 after_rules: Any, after_down: Any, decide: Any, after_roll: Any,
                 step: Any, scratch: Scratch) -> None:
    """For each layout row of player ``p``: the layout after its bet rules and after taking
    everything down (``decide``'s cash and need columns filled, the layout numbers left to the
    caller), and after each outcome (``step``'s credit and decided columns).

    Compiled by :func:`croupier.sim.kernel.no_refcount`: the scratch arrays come from the
    caller."""
    stake, st, cpaid, level, bank, ontable, wagered = scratch
    width = rows.shape[1]
    n_out = t.pt.shape[1]
    for n in range(rows.shape[0]):
        row = rows[n]
        pnt, fr = row[0], row[1]
        _load(row, p, slots, counters, stake, st, cpaid, level, bank, ontable, wagered)
        short, least = apply_rules(0, p, pnt, fr, bank, stake, st, cpaid, level, ontable, t)
        if short:
            raise ValueError("a stake beyond the tables' bankroll")
        decide[n, RULES_CASH] = bank[0, p] - ENOUGH
        decide[n, NEED] = 0 if least == NO_PURCHASE else ENOUGH - least
        decide[n, ON_TABLE] = row[2:2 + slots].sum()
        _store(after_rules[n], pnt, fr, p, slots, counters, stake, st, cpaid, level)
        _load(row, p, slots, counters, stake, st, cpaid, level, bank, ontable, wagered)
        take_down_all(0, p, bank, ontable, stake, st, cpaid, t)
        decide[n, DOWN_CASH] = bank[0, p] - ENOUGH
        _store(after_down[n], pnt, fr, p, slots, counters, stake, st, cpaid, level)
        for o in range(n_out):
            _load(row, p, slots, counters, stake, st, cpaid, level, bank, ontable, wagered)
            sev = t.seven[pnt, o]
            settle_player(0, p, o, pnt, sev, bank, stake, st, cpaid, level, ontable, wagered, t)
            step[n, o, CREDIT] = bank[0, p] - ENOUGH
            step[n, o, DECIDED] = wagered[0, p]
            _store(after_roll[n * n_out + o], t.pt[pnt, o], sev * fresh_matters, p, slots,
                   counters, stake, st, cpaid, level)
    assert width == 2 + 3 * slots + counters


# --- numbering the layouts -------------------------------------------------------------------


class Scratch(NamedTuple):
    """One session's arrays for :func:`step_layouts` to play a layout in."""

    stake: Any
    st: Any
    cpaid: Any
    level: Any
    bank: Any
    ontable: Any
    wagered: Any

    @staticmethod
    def make(players: int, shape: Shape) -> Scratch:
        """Zeroed arrays for ``players`` players of layouts of ``shape``."""
        s, c = shape.slots, max(shape.counters, 1)
        def z(*dims: int) -> I64:
            return np.zeros(dims, np.int64)

        return Scratch(z(1, players, s), z(1, players, s), z(1, players, s), z(1, players, c),
                       z(1, players), z(1, players), z(1, players))


class _Numbering:
    """The layouts found so far, numbered in the order found, indexed by a 64-bit hash of the
    row (every match is checked against the row itself)."""

    def __init__(self, width: int, limit: int) -> None:
        self.rows = np.zeros((1024, width), np.int64)
        self.n = 0
        self.mult = np.random.default_rng(0).integers(1, 2**63, width, dtype=np.uint64) | 1
        self.keys = np.zeros(0, np.uint64)  # sorted hashes of the rows found
        self.ids = np.zeros(0, np.int64)  # their numbers
        self.limit = limit

    def _hash(self, rows: I64) -> npt.NDArray[np.uint64]:
        with np.errstate(over="ignore"):
            h: npt.NDArray[np.uint64] = (rows.view(np.uint64) * self.mult).sum(
                axis=1, dtype=np.uint64)
        return h

    def numbers(self, rows: I64) -> I64 | None:
        """The number of every row of ``rows``, numbering the new ones (None: over the limit,
        or two different layouts with one hash)."""
        h = self._hash(rows)
        uniq, first, inverse = np.unique(h, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
        pos = np.searchsorted(self.keys, uniq)
        known = pos < self.keys.shape[0]
        known[known] = self.keys[pos[known]] == uniq[known]
        ids = np.empty(uniq.shape[0], np.int64)
        ids[known] = self.ids[pos[known]]
        new = np.flatnonzero(~known)
        if self.n + new.size > self.limit:
            return None
        ids[new] = self.n + np.arange(new.size)
        while self.n + new.size > self.rows.shape[0]:
            self.rows = np.concatenate([self.rows, np.zeros_like(self.rows)])
        self.rows[self.n:self.n + new.size] = rows[first[new]]
        self.n += new.size
        keys = np.concatenate([self.keys, uniq[new]])
        order = np.argsort(keys, kind="stable")
        self.keys = keys[order]
        self.ids = np.concatenate([self.ids, ids[new]])[order]
        out = ids[inverse]
        if not (self.rows[out] == rows).all():
            return None
        return out


def fresh_matters(compiled: Compiled, p: int) -> int:
    """Whether player ``p`` has a rule that waits for a new shooter (else the layout does not
    keep the flag: half the layouts)."""
    a = compiled.arrays
    return int((a["timing"][p, : int(a["nslots"][p])] == T_NEW_SHOOTER).any())


def _player(compiled: Compiled, t: Tables, p: int, shape: Shape,
            limit: int) -> tuple[I64, I64, I64] | None:
    """Player ``p``'s layouts (rows), decide and step tables, numbered from 0."""
    n_out = compiled.n_outcomes
    fm = fresh_matters(compiled, p)
    numbering = _Numbering(shape.width, limit)
    empty = np.zeros((1, shape.width), np.int64)
    empty[0, 1] = fm
    numbering.numbers(empty)
    decides: list[I64] = []
    steps: list[I64] = []
    scratch = Scratch.make(compiled.players, shape)
    done = 0
    while done < numbering.n:
        batch = numbering.rows[done:min(numbering.n, done + BATCH)].copy()
        m = batch.shape[0]
        done += m
        after_rules = np.zeros_like(batch)
        after_down = np.zeros_like(batch)
        after_roll = np.zeros((m * n_out, shape.width), np.int64)
        decide = np.zeros((m, 6), np.int64)
        step = np.zeros((m, n_out, 3), np.int64)
        step_layouts(batch, p, shape.slots, shape.counters, fm, t, after_rules, after_down,
                     decide, after_roll, step, scratch)
        ids = numbering.numbers(np.concatenate([after_rules, after_down, after_roll]))
        if ids is None:
            return None
        decide[:, RULES] = ids[:m]
        decide[:, DOWN] = ids[m:2 * m]
        step[:, :, NEXT] = ids[2 * m:].reshape(m, n_out)
        decides.append(decide)
        steps.append(step)
    return numbering.rows[:numbering.n].copy(), np.concatenate(decides), np.concatenate(steps)


def build_layout_tables(compiled: Compiled, limit: int | None = None) -> LayoutTables | None:
    """Every player's layout tables, or None if a player has more than ``limit`` layouts
    (default :data:`MAX_LAYOUTS`)."""
    limit = MAX_LAYOUTS if limit is None else limit
    a = compiled.arrays
    t = tables_of(a)
    shape = Shape(int(a["res"].shape[1]), int(a["winnext"].shape[1]))
    rows: list[I64] = []
    decides: list[I64] = []
    steps: list[I64] = []
    first = [0]
    for p in range(compiled.players):
        got = _player(compiled, t, p, shape, limit)
        if got is None:
            return None
        r, d, s = got
        offset = first[-1]
        d[:, RULES] += offset
        d[:, DOWN] += offset
        s[:, :, NEXT] += offset
        rows.append(r)
        decides.append(d)
        steps.append(s)
        first.append(offset + r.shape[0])
    decide = np.concatenate(decides)
    step = np.concatenate(steps)
    # the rules' decision and the roll in one lookup (an active player's usual roll)
    play = np.zeros((step.shape[0], step.shape[1], 4), np.int64)
    play[:, :, :3] = step[decide[:, RULES]]
    play[:, :, CREDIT] += decide[:, RULES_CASH, None]
    play[:, :, LEAST] = decide[:, NEED, None]  # where the usual roll finds it: one lookup
    if max(np.abs(step).max(), np.abs(play).max()) >= 2**31:
        return None  # the tables hold 32-bit entries (half the memory): not for these stakes
    return LayoutTables(np.array(first, np.int64), decide, step.astype(np.int32),
                        play.astype(np.int32), np.concatenate(rows), shape)


def _digest(compiled: Compiled) -> str:
    h = hashlib.sha256()
    for name in sorted(compiled.arrays):
        arr = np.ascontiguousarray(compiled.arrays[name])
        h.update(f"{name}{arr.dtype}{arr.shape}".encode())
        h.update(arr.tobytes())
    return h.hexdigest()


def _code_version() -> str:
    """A hash of the code the tables are computed with (the kernel's step and this module)."""
    h = hashlib.sha256()
    for module in (kernel, sys.modules[__name__]):
        h.update(Path(inspect.getfile(module)).read_bytes())
    return h.hexdigest()[:16]


def _cached_file(key: str) -> Path:
    return _cache_dir() / f"layouts-{key[:32]}-{_code_version()}.npz"


def _read_cached(path: Path) -> LayoutTables | None:
    with np.load(path) as z:
        if "none" in z:
            return None
        slots, counters = (int(x) for x in z["shape"])
        return LayoutTables(z["first"], z["decide"], z["step"], z["play"], z["rows"],
                            Shape(slots, counters))


def _write_cached(path: Path, lt: LayoutTables | None) -> None:
    tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
    with open(tmp, "wb") as f:
        if lt is None:
            np.savez(f, none=np.zeros(0))
        else:
            np.savez(f, first=lt.first, decide=lt.decide, step=lt.step, play=lt.play,
                     rows=lt.rows, shape=np.array([lt.shape.slots, lt.shape.counters]))
    os.replace(tmp, path)


def layout_tables(compiled: Compiled) -> LayoutTables | None:
    """The layout tables of ``compiled`` (None where a strategy's layouts are too many):
    built once and kept in this process and on disk, next to the specialised kernels, under a
    hash of the compiled table and of the code that computes them."""
    key = _digest(compiled)
    with _LOCK:
        if key in _CACHE:
            return _CACHE[key]
        path: Path | None = None
        try:
            path = _cached_file(key)
            if path.exists():
                _CACHE[key] = _read_cached(path)
                return _CACHE[key]
        except (OSError, ValueError, KeyError):
            pass  # no cache directory, or a damaged file: build them again
        lt = build_layout_tables(compiled)
        _CACHE[key] = lt
        if path is not None:
            with contextlib.suppress(OSError):
                _write_cached(path, lt)
        return lt


# --- playing ----------------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _leave_tables(i: int, layout: Any, rows: Any, slots: int, counters: int, stake: Any,
                  st: Any, cpaid: Any, level: Any, ontable: Any) -> None:
    """Decode session ``i``'s layouts into the generic kernel's arrays."""
    for p in range(layout.shape[1]):
        row = rows[layout[i, p]]
        on = 0
        for k in range(slots):
            stake[i, p, k] = row[2 + k]
            st[i, p, k] = row[2 + slots + k]
            cpaid[i, p, k] = row[2 + 2 * slots + k]
            on += row[2 + k]
        for c in range(counters):
            level[i, p, c] = row[2 + 3 * slots + c]
        ontable[i, p] = on


# a player's state through a chunk: layout, chips in hand, status, hand start, stakes decided,
# point, fresh, rolls in play, out of play, the roll it could not afford the rules (-1: none)
Run = tuple[Any, Any, Any, Any, Any, Any, Any, Any, bool, Any]


@njit(cache=True, nogil=True, inline="always")
def _start(i: int, p: int, bank: Any, status: Any, handstart: Any, wagered: Any, point: Any,
           fresh: Any, layout: Any) -> Run:
    """Player ``p`` of session ``i`` at the chunk's start (``i < 0``: nobody, out of play)."""
    if i < 0:
        z = np.int64(0)
        return z, z, z, z, z, z, z, z, True, np.int64(-1)
    return (np.int64(layout[i, p]), bank[i, p], np.int64(status[i, p]), handstart[i, p],
            wagered[i, p], np.int64(point[i]), np.int64(fresh[i]), np.int64(0), False,
            np.int64(-1))


@njit(cache=True, nogil=True, inline="always")
def _roll(i: int, p: int, j: int, r: int, run: Run, start: int, limits: tuple[Any, Any, Any],
          track: Any, outcomes: Any, endroll: Any, decide: Any, step: Any, play: Any,
          t: Tables) -> Run:
    """Player ``p`` of session ``i`` before and through roll ``j`` (``r`` of the session);
    ``limits``: the player's stop loss, win goal and shooter loss limit (0: none); ``track``:
    follow the point (the first player does, for the session, and one with a shooter loss
    limit)."""
    lay, b, stat, hs, wg, pnt, fr, played, out, short = run
    if out or short >= 0:
        return run
    o = outcomes[i, j]
    loss, goal, shooter = limits
    fused = False
    if stat == ACTIVE:
        waits = False
        if loss > 0 or goal > 0 or shooter > 0:
            worth = b + decide[lay, ON_TABLE]
            if loss > 0 and worth <= start - loss:
                stat = np.int64(STOP_LOSS)
            elif goal > 0 and worth >= start + goal:
                stat = np.int64(WIN_GOAL)
            waits = shooter > 0 and worth <= hs - shooter
        if stat != ACTIVE:
            endroll[i, p] = r
            b += decide[lay, DOWN_CASH]
            lay = np.int64(decide[lay, DOWN])
        elif not waits:
            if b < play[lay, o, LEAST]:
                return lay, b, stat, hs, wg, pnt, fr, played, out, np.int64(j)
            fused = True  # the rules and the roll in one lookup
    if not fused and stat != ACTIVE and decide[lay, ON_TABLE] == 0:
        return lay, b, stat, hs, wg, pnt, fr, played, True, short
    if fused:
        b += play[lay, o, CREDIT]
        wg += play[lay, o, DECIDED]
        lay = np.int64(play[lay, o, NEXT])
    else:
        b += step[lay, o, CREDIT]
        wg += step[lay, o, DECIDED]
        lay = np.int64(step[lay, o, NEXT])
    if track:  # the point, for the hand's start at a seven-out and for the session's point
        fr = np.int64(t.seven[pnt, o])
        if fr != 0 and shooter > 0:
            hs = b + decide[lay, ON_TABLE]
        pnt = np.int64(t.pt[pnt, o])
    return lay, b, stat, hs, wg, pnt, fr, played + 1, out, short


@njit(cache=True, nogil=True, inline="always")
def _finish(i: int, p: int, run: Run, bank: Any, status: Any, handstart: Any, wagered: Any,
            layout: Any) -> None:
    """Store player ``p``'s state of session ``i`` at the chunk's end."""
    if i >= 0:
        layout[i, p], bank[i, p], status[i, p] = run[0], run[1], run[2]
        handstart[i, p], wagered[i, p] = run[3], run[4]


@njit(cache=True, nogil=True, inline="always")
def _two_sessions(i: int, i2: int, p: int, n_roll: int, r_begin: int, start: int,
                  stride: int, outcomes: Any, point: Any, fresh: Any, bank: Any, status: Any,
                  handstart: Any, wagered: Any, endroll: Any, hist: Any, layout: Any,
                  decide: Any, step: Any, play: Any, t: Tables) -> tuple[Run, Run]:
    """Player ``p`` through the chunk in sessions ``i`` and ``i2`` at once (``i2 < 0``: only
    ``i``): the two chains of lookups overlap in the processor.

    Players at a table share only the dice, and a player out of play (stopped, nothing down)
    changes nothing after, so each plays the chunk on its own; the session goes on while any
    player is in play (the rolls in play are a prefix of the chunk)."""
    a = _start(i, p, bank, status, handstart, wagered, point, fresh, layout)
    b = _start(i2, p, bank, status, handstart, wagered, point, fresh, layout)
    rec_a = i < hist.shape[0]
    rec_b = 0 <= i2 < hist.shape[0]
    limits = (np.int64(t.stoploss[p]), np.int64(t.wingoal[p]), np.int64(t.shooterlim[p]))
    track = p == 0 or limits[2] > 0
    for j in range(n_roll):
        r = r_begin + j
        a = _roll(i, p, j, r, a, start, limits, track, outcomes, endroll, decide, step, play, t)
        b = _roll(i2, p, j, r, b, start, limits, track, outcomes, endroll, decide, step, play,
                  t)
        if (rec_a or rec_b) and (r + 1) % stride == 0:
            if rec_a:
                hist[i, p, (r + 1) // stride] = a[1]
            if rec_b:
                hist[i2, p, (r + 1) // stride] = b[1]
    _finish(i, p, a, bank, status, handstart, wagered, layout)
    _finish(i2, p, b, bank, status, handstart, wagered, layout)
    return a, b


@njit(cache=True, nogil=True, inline="always")
def _keep(i: int, saved: Any, layout: Any, bank: Any, status: Any, handstart: Any,
          wagered: Any, endroll: Any, back: bool) -> None:
    """Save session ``i``'s players' state in ``saved`` (or, ``back``, restore it)."""
    for p in range(bank.shape[1]):
        if back:
            layout[i, p], bank[i, p], status[i, p] = saved[p, 0], saved[p, 1], saved[p, 2]
            handstart[i, p], wagered[i, p], endroll[i, p] = saved[p, 3], saved[p, 4], saved[p, 5]
        else:
            saved[p, 0], saved[p, 1], saved[p, 2] = layout[i, p], bank[i, p], status[i, p]
            saved[p, 3], saved[p, 4], saved[p, 5] = handstart[i, p], wagered[i, p], endroll[i, p]


@njit(cache=True, nogil=True, inline="always")
def _close(i: int, runs: Any, n_roll: int, n_players: int, outcomes: Any, point: Any,
           fresh: Any, rolls: Any, done: Any, ontable: Any, layout: Any, decide: Any,
           t: Tables) -> None:
    """Session ``i``'s point, fresh flag, rolls and on-table amounts after the chunk; ``runs``
    holds each player's rolls in play (and the first player's point and fresh flag after
    them)."""
    most = 0
    for p in range(n_players):
        most = max(most, runs[p, 0])
    # the first player followed the point while in play; the rest of the way, if any, here
    pnt, fr = runs[0, 1], runs[0, 2]
    for j in range(runs[0, 0], most):
        o = outcomes[i, j]
        fr = np.int64(t.seven[pnt, o])
        pnt = np.int64(t.pt[pnt, o])
    point[i] = pnt
    fresh[i] = fr
    rolls[i] += most
    done[i] = done[i] or most < n_roll
    for p in range(n_players):
        ontable[i, p] = decide[layout[i, p], ON_TABLE]


@no_refcount
def play_layouts(outcomes: Any, n_sess: int, r_begin: int, total_rolls: int, start: int,
                 point: Any, fresh: Any, bank: Any, stake: Any, st: Any, cpaid: Any,
                 level: Any, status: Any, handstart: Any, ontable: Any, wagered: Any,
                 rolls: Any, done: Any, endroll: Any, hist: Any, stride: int, layout: Any,
                 generic: Any, first: Any, saved: Any, decide: Any, step: Any, play: Any,
                 rows: Any, slots: int, counters: int, t: Tables) -> None:
    """Play a chunk as :func:`croupier.sim.kernel.play_chunk` does, from the layout tables.

    ``layout[i, p]`` is player ``p``'s layout number in session ``i``. A session some player of
    which cannot afford what the rules call for goes back to its state at the chunk's start,
    is decoded into the generic arrays and marked in ``generic``; ``first[i]`` is 0 for every
    generic session (the generic kernel plays the whole chunk), the chunk's length for the
    others. ``saved`` is scratch room, (2, players, 6) and (2, players, 3). Compiled by
    :func:`croupier.sim.kernel.no_refcount`.
    """
    n_players = bank.shape[1]
    n_roll = min(outcomes.shape[1], total_rolls - r_begin)
    keep, runs = saved
    i = 0
    while i < n_sess:
        # the next two sessions still on the tables
        while i < n_sess and generic[i]:
            first[i] = 0
            i += 1
        if i >= n_sess:
            break
        i2 = i + 1
        while i2 < n_sess and generic[i2]:
            first[i2] = 0
            i2 += 1
        pair = (i, i2 if i2 < n_sess else -1)
        for s in range(2):
            if pair[s] >= 0:
                _keep(pair[s], keep[s], layout, bank, status, handstart, wagered, endroll,
                      False)
        short_a = short_b = False
        for p in range(n_players):
            a, b = _two_sessions(pair[0], pair[1], p, n_roll, r_begin, start, stride,
                                 outcomes, point, fresh, bank, status, handstart, wagered,
                                 endroll, hist, layout, decide, step, play, t)
            runs[0, p, 0], runs[0, p, 1], runs[0, p, 2] = a[7], a[5], a[6]
            runs[1, p, 0], runs[1, p, 1], runs[1, p, 2] = b[7], b[5], b[6]
            short_a = short_a or a[9] >= 0
            short_b = short_b or b[9] >= 0
        short = (short_a, short_b)
        for s in range(2):
            k = pair[s]
            if k < 0:
                continue
            if short[s]:
                _keep(k, keep[s], layout, bank, status, handstart, wagered, endroll, True)
                _leave_tables(k, layout, rows, slots, counters, stake, st, cpaid, level,
                              ontable)
                generic[k] = True
                first[k] = 0
            else:
                first[k] = n_roll
                _close(k, runs[s], n_roll, n_players, outcomes, point, fresh, rolls, done,
                       ontable, layout, decide, t)
        i = i2 + 1
