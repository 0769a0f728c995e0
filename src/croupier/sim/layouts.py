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

:func:`play_layouts` then plays a roll with a few lookups per player, eight sessions at once
(:mod:`croupier.sim.lanes`). The bankroll stays outside the layout: the limits are checked
against it every roll, and a player who cannot afford what the rules call for (below the
layout's least bankroll) leaves the tables for the rest of the session: the whole session's
state is decoded into the generic kernel's arrays and :func:`croupier.sim.kernel.play_chunk`
plays on from that roll. So the results are the generic kernel's, to the cent, by
construction; the tests check it against the reference engine too.

The same tables (:class:`LayoutBook`) give the session analysis its chain
(:mod:`croupier.sim.session_layouts`).

A strategy with more than :data:`MAX_LAYOUTS` layouts per player is left to the other kernels.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import os
import sys
import threading
import weakref
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
from croupier.sim.lanes import (
    CHIPS,
    DECIDED_SO_FAR,
    LANES,
    NEEDS_NOTHING,
    NO_LIMIT,
    ROW,
    lane_bounds,
    lane_leaves,
    run_lanes,
)
from croupier.sim.specialise import cache_dir as _cache_dir

# numba's cache of this module's kernels is keyed on this file only: it does not see a change
# to the kernel.py and lanes.py functions they inline or call, and would go on running the old
# ones. After editing either, delete this module's numba cache (__pycache__/layouts.*.nbi,
# .nbc) in that checkout; the layout tables kept on disk are keyed on kernel.py and this file
# (_code_version: lanes.py reads them, it does not make them).

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
    lanes: LaneTable | None = None  # the tables as the lanes read them (not kept on disk)

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


@no_refcount
def rules_with_chips(rows: Any, chips: Any, p: int, slots: int, counters: int, t: Tables,
                     after: Any, after_chips: Any, short: Any, scratch: Scratch) -> None:
    """Player ``p``'s bet rules on each layout row with ``chips[n]`` in hand (not
    necessarily enough): the layout after them, the chips left and whether a bet they call
    for was not affordable (the rules make the others)."""
    stake, st, cpaid, level, bank, ontable, wagered = scratch
    for n in range(rows.shape[0]):
        row = rows[n]
        _load(row, p, slots, counters, stake, st, cpaid, level, bank, ontable, wagered)
        bank[0, p] = chips[n]
        sh, _ = apply_rules(0, p, row[0], row[1], bank, stake, st, cpaid, level, ontable, t)
        after_chips[n] = bank[0, p]
        short[n] = 1 if sh else 0
        _store(after[n], row[0], row[1], p, slots, counters, stake, st, cpaid, level)


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

    def seed(self, rows: I64) -> bool:
        """Number ``rows`` 0, 1, ... in order, in place of what is numbered (False: two of
        them with one hash)."""
        h = self._hash(rows)
        order = np.argsort(h, kind="stable")
        if rows.shape[0] > self.limit or (np.diff(h[order]) == 0).any():
            return False
        self.rows = np.concatenate([rows, np.zeros_like(rows)])
        self.n = rows.shape[0]
        self.keys, self.ids = h[order], order.astype(np.int64)
        return True

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


def table_shape(compiled: Compiled) -> Shape:
    """The shape of a layout row at this table (slots padded to the widest player)."""
    a = compiled.arrays
    return Shape(int(a["res"].shape[1]), int(a["winnext"].shape[1]))


def fresh_matters(compiled: Compiled, p: int) -> int:
    """Whether player ``p`` has a rule that waits for a new shooter (else the layout does not
    keep the flag: half the layouts)."""
    a = compiled.arrays
    return int((a["timing"][p, : int(a["nslots"][p])] == T_NEW_SHOOTER).any())


class LayoutBook:
    """Player ``p``'s layouts, numbered in the order found (the empty layout first), with
    their decide and step tables; :meth:`extend` numbers more and :meth:`complete` tables
    every layout numbered and every layout they lead to."""

    def __init__(self, compiled: Compiled, p: int, shape: Shape, limit: int) -> None:
        self.compiled, self.p, self.shape = compiled, p, shape
        self.t = tables_of(compiled.arrays)
        self.fm = fresh_matters(compiled, p)
        self.numbering = _Numbering(shape.width, limit)
        self.scratch = Scratch.make(compiled.players, shape)
        self.decides: list[I64] = []
        self.steps: list[I64] = []
        self.done = 0  # the layouts tabled so far
        empty = np.zeros((1, shape.width), np.int64)
        empty[0, 1] = self.fm
        self.numbering.numbers(empty)

    @property
    def size(self) -> int:
        """How many layouts are numbered."""
        return self.numbering.n

    @property
    def rows(self) -> I64:
        """The layouts numbered, as rows."""
        return self.numbering.rows[:self.numbering.n]

    def seed(self, rows: I64, decide: I64, step: I64) -> bool:
        """Start from layouts already tabled (``rows`` numbered in order, the empty layout
        first, with their tables): False if they cannot be numbered so."""
        if not self.numbering.seed(rows):
            return False
        self.decides = [decide.astype(np.int64)]
        self.steps = [step.astype(np.int64)]
        self.done = rows.shape[0]
        return True

    def extend(self, rows: I64) -> I64 | None:
        """The numbers of layouts ``rows`` (new ones numbered; None: past the limit)."""
        return self.numbering.numbers(rows)

    def complete(self) -> bool:
        """Table every layout not yet tabled, and those they lead to (False: past the
        limit)."""
        n_out = self.compiled.n_outcomes
        shape = self.shape
        while self.done < self.numbering.n:
            batch = self.numbering.rows[self.done:min(self.numbering.n,
                                                      self.done + BATCH)].copy()
            m = batch.shape[0]
            after_rules = np.zeros_like(batch)
            after_down = np.zeros_like(batch)
            after_roll = np.zeros((m * n_out, shape.width), np.int64)
            decide = np.zeros((m, 6), np.int64)
            step = np.zeros((m, n_out, 3), np.int64)
            step_layouts(batch, self.p, shape.slots, shape.counters, self.fm, self.t,
                         after_rules, after_down, decide, after_roll, step, self.scratch)
            ids = self.numbering.numbers(np.concatenate([after_rules, after_down, after_roll]))
            if ids is None:
                return False
            decide[:, RULES] = ids[:m]
            decide[:, DOWN] = ids[m:2 * m]
            step[:, :, NEXT] = ids[2 * m:].reshape(m, n_out)
            self.decides.append(decide)
            self.steps.append(step)
            self.done += m
        return True

    def tables(self) -> tuple[I64, I64]:
        """The decide and step tables of the layouts tabled."""
        n_out = self.compiled.n_outcomes
        if not self.decides:
            return np.zeros((0, 6), np.int64), np.zeros((0, n_out, 3), np.int64)
        if len(self.decides) > 1:
            self.decides = [np.concatenate(self.decides)]
            self.steps = [np.concatenate(self.steps)]
        return self.decides[0], self.steps[0]


def fused(decide: I64, step: I64) -> I64:
    """The rules' decision and then the roll in one lookup per layout (of ``decide``) and
    outcome: the columns of :data:`LayoutTables.play`."""
    play = np.zeros((decide.shape[0], step.shape[1], 4), np.int64)
    play[:, :, :3] = step[decide[:, RULES]]
    play[:, :, CREDIT] += decide[:, RULES_CASH, None]
    play[:, :, LEAST] = decide[:, NEED, None]  # where the usual roll finds it: one lookup
    return play


def _player(compiled: Compiled, p: int, shape: Shape,
            limit: int) -> tuple[I64, I64, I64] | None:
    """Player ``p``'s layouts (rows), decide and step tables, numbered from 0."""
    book = LayoutBook(compiled, p, shape, limit)
    if not book.complete():
        return None
    decide, step = book.tables()
    return book.rows.copy(), decide, step


def build_layout_tables(compiled: Compiled, limit: int | None = None) -> LayoutTables | None:
    """Every player's layout tables, or None if a player has more than ``limit`` layouts
    (default :data:`MAX_LAYOUTS`)."""
    limit = MAX_LAYOUTS if limit is None else limit
    shape = table_shape(compiled)
    rows: list[I64] = []
    decides: list[I64] = []
    steps: list[I64] = []
    first = [0]
    for p in range(compiled.players):
        got = _player(compiled, p, shape, limit)
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
    play = fused(decide, step)  # an active player's usual roll
    if max(np.abs(step).max(), np.abs(play).max(), decide[:, ON_TABLE].max()) >= 2**31 \
            or not lanes_fit(decide.shape[0], compiled.n_outcomes):
        return None  # the tables hold 32-bit entries (half the memory): not for these stakes
    lt = LayoutTables(np.array(first, np.int64), decide, step.astype(np.int32),
                      play.astype(np.int32), np.concatenate(rows), shape)
    lt.lanes = lane_table(lt, compiled)
    return lt


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


_DIGESTS: dict[int, tuple[weakref.ref[Compiled], str]] = {}


def _digest_of(compiled: Compiled) -> str:
    """:func:`_digest`, once per compiled table in this process (a block of sessions asks
    for its tables, and hashing every array each time cost a tenth of a short run)."""
    got = _DIGESTS.get(id(compiled))
    if got is not None and got[0]() is compiled:
        return got[1]
    for key in [k for k, (ref, _) in _DIGESTS.items() if ref() is None]:
        del _DIGESTS[key]
    digest = _digest(compiled)
    _DIGESTS[id(compiled)] = (weakref.ref(compiled), digest)
    return digest


def layout_tables(compiled: Compiled) -> LayoutTables | None:
    """The layout tables of ``compiled`` (None where a strategy's layouts are too many):
    built once and kept in this process and on disk, next to the specialised kernels, under a
    hash of the compiled table and of the code that computes them."""
    key = _digest_of(compiled)
    with _LOCK:
        if key in _CACHE:
            return _CACHE[key]
        path: Path | None = None
        try:
            path = _cached_file(key)
            if path.exists():
                got = _read_cached(path)
                if got is not None:
                    got.lanes = lane_table(got, compiled)
                _CACHE[key] = got
                return got
        except (OSError, ValueError, KeyError):
            pass  # no cache directory, or a damaged file: build them again
        lt = build_layout_tables(compiled)
        _CACHE[key] = lt
        if path is not None:
            with contextlib.suppress(OSError):
                _write_cached(path, lt)
        return lt


# --- the lanes' table -------------------------------------------------------------------------


@dataclass
class LaneTable:
    """The layout tables as the lanes read them (:mod:`croupier.sim.lanes`): per entry
    (``layout * n_outcomes + outcome``; the resting layout's last)."""

    nxt: I32  # the next layout's first entry
    packed: I64  # credit + stakes decided * 2**32
    need: I32  # the least chips the rules need
    on: I32  # the layout's amount on the table
    rest: int  # the resting layout's first entry
    bounds: I64  # (P, 5) per player: lane_bounds


def lanes_fit(n_layouts: int, n_outcomes: int) -> bool:
    """Whether the lanes' entries number these layouts' entries in 32 bits."""
    return (n_layouts + 1) * n_outcomes < 2**31


def lane_table(lt: LayoutTables, compiled: Compiled) -> LaneTable:
    """The lanes' table of ``lt``: per layout and outcome, the next layout's first entry, the
    credit and stakes decided packed in one word, the least chips the rules need, the
    layout's amount on the table; the resting layout last (it stays put, pays and needs
    nothing)."""
    n, n_out = lt.play.shape[:2]
    play = lt.play.astype(np.int64)
    on = lt.decide[:, ON_TABLE]
    entries = (n + 1) * n_out
    nxt = np.full(entries, n * n_out, np.int32)
    nxt[:n * n_out] = (play[:, :, NEXT] * n_out).ravel()
    packed = np.zeros(entries, np.int64)
    packed[:n * n_out] = (play[:, :, CREDIT] + (play[:, :, DECIDED] << 32)).ravel()
    need = np.full(entries, NEEDS_NOTHING, np.int32)
    need[:n * n_out] = play[:, :, LEAST].ravel()
    on_entry = np.zeros(entries, np.int32)
    on_entry[:n * n_out] = np.repeat(on, n_out)
    bounds = np.zeros((compiled.players, 5), np.int64)
    for p in range(compiled.players):
        a, b = int(lt.first[p]), int(lt.first[p + 1])
        bounds[p] = lane_bounds(play[a:b, :, CREDIT], play[a:b, :, DECIDED], play[a:b, :, LEAST],
                                np.repeat(on[a:b, None], n_out, axis=1),
                                on[play[a:b, :, NEXT]])
    return LaneTable(nxt, packed, need, on_entry, n * n_out, bounds)


# --- playing ----------------------------------------------------------------------------------
#
# The sessions are played in groups of LANES (their outcomes side by side, grouped: see
# croupier.sim.kernel.fill_outcomes_grouped), player by player. The usual roll of an active
# player is played in the lanes (croupier.sim.lanes); a lane that reaches a limit or cannot
# afford the rules leaves them at that roll and plays the rest of the chunk roll by roll
# (_roll), as does, from the chunk's start, a player out of the usual case (stopped with
# wagers down, with a shooter loss limit, or in a session whose bankroll path is kept).


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
# where a lane's player plays the chunk (LaneScratch.hand[k, 0]); a roll: roll by roll from it
NO_SESSION, IN_LANES = -2, -1


@njit(cache=True, nogil=True, inline="always")
def _start(i: int, p: int, bank: Any, status: Any, handstart: Any, wagered: Any, point: Any,
           fresh: Any, layout: Any) -> Run:
    """Player ``p`` of session ``i`` at the chunk's start."""
    return (np.int64(layout[i, p]), bank[i, p], np.int64(status[i, p]), handstart[i, p],
            wagered[i, p], np.int64(point[i]), np.int64(fresh[i]), np.int64(0), False,
            np.int64(-1))


@njit(cache=True, nogil=True, inline="always")
def _roll(i: int, p: int, j: int, r: int, o: int, run: Run, start: int,
          limits: tuple[Any, Any, Any], track: bool, endroll: Any, decide: Any, step: Any,
          play: Any, t: Tables) -> Run:
    """Player ``p`` of session ``i`` before and through roll ``j`` (``r`` of the session),
    whose outcome is ``o``; ``limits``: the player's stop loss, win goal and shooter loss
    limit (0: none); ``track``: follow the point (for the hand's start at a seven-out)."""
    lay, b, stat, hs, wg, pnt, fr, played, out, short = run
    if out or short >= 0:
        return run
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
    if track:
        fr = np.int64(t.seven[pnt, o])
        if fr != 0 and shooter > 0:
            hs = b + decide[lay, ON_TABLE]
        pnt = np.int64(t.pt[pnt, o])
    return lay, b, stat, hs, wg, pnt, fr, played + 1, out, short


@njit(cache=True, nogil=True, inline="always")
def _finish(i: int, p: int, run: Run, bank: Any, status: Any, handstart: Any, wagered: Any,
            layout: Any) -> None:
    """Store player ``p``'s state of session ``i`` at the chunk's end."""
    layout[i, p], bank[i, p], status[i, p] = run[0], run[1], run[2]
    handstart[i, p], wagered[i, p] = run[3], run[4]


@njit(cache=True, nogil=True, inline="always")
def _roll_by_roll(i: int, p: int, j: int, n_roll: int, r_begin: int, start: int, stride: int,
                  run: Run, limits: tuple[Any, Any, Any], tt: Any, endroll: Any, hist: Any,
                  decide: Any, step: Any, play: Any, t: Tables) -> Run:
    """Player ``p`` of session ``i`` (``tt[:, i % LANES]`` its outcomes) from roll ``j`` to
    the chunk's end, one roll at a time, keeping the bankroll path of a session that has
    one."""
    rec = i < hist.shape[0]
    track = limits[2] > 0
    k = i % LANES
    for jj in range(j, n_roll):
        r = r_begin + jj
        run = _roll(i, p, jj, r, tt[jj, k], run, start, limits, track, endroll, decide, step,
                    play, t)
        if rec:
            if (r + 1) % stride == 0:
                hist[i, p, (r + 1) // stride] = run[1]
        elif run[8] or run[9] >= 0:
            break  # out of play, or back to the chunk's start on the generic kernel
    return run


@njit(cache=True, nogil=True, inline="always")
def _enter_lanes(g: int, p: int, n_sess: int, start: int, bank: Any, status: Any,
                 wagered: Any, layout: Any, generic: Any, hist: Any, lane: Any, hand: Any,
                 per_layout: int, rest: int, shooter: Any) -> None:
    """Each lane's start for player ``p`` of group ``g``: the player's layout, chips and stakes
    decided where it plays the usual roll from the chunk's start, else resting."""
    for k in range(LANES):
        s = g * LANES + k
        lane[k, ROW], lane[k, CHIPS], lane[k, DECIDED_SO_FAR] = rest, start, 0
        if s >= n_sess or generic[s]:
            hand[k, 0] = NO_SESSION
        elif status[s, p] == ACTIVE and shooter == 0 and s >= hist.shape[0]:
            lane[k, ROW] = layout[s, p] * per_layout
            lane[k, CHIPS], lane[k, DECIDED_SO_FAR] = bank[s, p], wagered[s, p]
            hand[k, 0] = IN_LANES
        else:
            hand[k, 0] = 0


@njit(cache=True, nogil=True, inline="always")
def _player_lanes(g: int, p: int, n_sess: int, n_roll: int, r_begin: int, start: int,
                  stride: int, outcomes: Any, point: Any, fresh: Any, bank: Any, status: Any,
                  handstart: Any, wagered: Any, endroll: Any, hist: Any, layout: Any,
                  generic: Any, scratch: Any, decide: Any, step: Any, play: Any, nxt: Any,
                  packed: Any, need: Any, on: Any, bounds: Any, t: Tables) -> None:
    """Player ``p`` through the chunk in the sessions of group ``g``: the usual rolls in the
    lanes, the rest roll by roll; ``runs[s, p]``: the rolls in play and the roll at which the
    player could not afford the rules (-1: none).

    Players at a table share only the dice, and a player out of play (stopped, nothing down)
    changes nothing after, so each plays the chunk on its own; the session goes on while any
    player is in play (the rolls in play are a prefix of the chunk)."""
    _, runs, lane, hand = scratch
    tt = outcomes[g]
    per_layout = t.pt.shape[1]
    rest = nxt.shape[0] - per_layout
    loss, goal, shooter = np.int64(t.stoploss[p]), np.int64(t.wingoal[p]), \
        np.int64(t.shooterlim[p])
    limits = (loss, goal, shooter)
    worth = loss > 0 or goal > 0
    lo = start - loss + 1 if loss > 0 else np.int64(-(1 << 62))  # the worth stays in [lo, hi]
    hi = start + goal - 1 if goal > 0 else np.int64(NO_LIMIT)
    _enter_lanes(g, p, n_sess, start, bank, status, wagered, layout, generic, hist, lane,
                 hand, per_layout, rest, shooter)
    j = 0
    while True:
        j = run_lanes(tt, j, n_roll, nxt, packed, need, on, lane, worth, lo, hi, rest,
                      bounds[p])
        if j >= n_roll:
            break
        left = False
        for k in range(LANES):  # who leaves the lanes here: a limit, or short of money
            if hand[k, 0] == IN_LANES and lane_leaves(tt, j, k, need, on, lane, worth, lo, hi):
                hand[k, 0], hand[k, 1] = j, lane[k, ROW] // per_layout
                hand[k, 2], hand[k, 3] = lane[k, CHIPS], lane[k, DECIDED_SO_FAR]
                lane[k, ROW], lane[k, CHIPS], lane[k, DECIDED_SO_FAR] = rest, start, 0
                left = True
        if not left:
            raise AssertionError("the lanes stopped at a roll no lane leaves at")
    for k in range(LANES):
        s = g * LANES + k
        h = hand[k, 0]
        if h == NO_SESSION:
            continue
        run = _start(s, p, bank, status, handstart, wagered, point, fresh, layout)
        if h == IN_LANES:  # the usual roll to the end
            run = (np.int64(lane[k, ROW] // per_layout), lane[k, CHIPS], run[2], run[3],
                   lane[k, DECIDED_SO_FAR], run[5], run[6], np.int64(n_roll), False,
                   np.int64(-1))
        else:
            if h > 0:
                run = (np.int64(hand[k, 1]), hand[k, 2], run[2], run[3], hand[k, 3], run[5],
                       run[6], np.int64(h), False, np.int64(-1))
            run = _roll_by_roll(s, p, h, n_roll, r_begin, start, stride, run, limits, tt,
                                endroll, hist, decide, step, play, t)
        _finish(s, p, run, bank, status, handstart, wagered, layout)
        runs[s, p, 0], runs[s, p, 1] = run[7], run[9]


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
def _close(i: int, runs: Any, n_roll: int, n_players: int, point: Any, fresh: Any,
           rolls: Any, done: Any, ontable: Any, layout: Any, decide: Any, rows: Any,
           keeps_fresh: Any) -> None:
    """Session ``i``'s point, fresh flag, rolls and on-table amounts after the chunk; ``runs``
    holds each player's rolls in play.

    A session that goes on has a player in play through the whole chunk, whose layout has
    followed the table's point at every roll, and the fresh flag where the player keeps it.
    Only a rule waiting for a new shooter reads the flag, and its player, while active, is in
    play to the chunk's end: it is taken from such a player where there is one. The point and
    flag of a session that is over are never read again."""
    most = 0
    for p in range(n_players):
        most = max(most, runs[p, 0])
    if most == n_roll:
        pick = -1
        for p in range(n_players):
            if runs[p, 0] == n_roll and (pick < 0 or (keeps_fresh[p] != 0
                                                      and keeps_fresh[pick] == 0)):
                pick = p
        row = rows[layout[i, pick]]
        point[i] = row[0]
        fresh[i] = row[1]
    rolls[i] += most
    done[i] = done[i] or most < n_roll
    for p in range(n_players):
        ontable[i, p] = decide[layout[i, p], ON_TABLE]


@no_refcount
def play_layouts(outcomes: Any, n_sess: int, r_begin: int, total_rolls: int, start: int,
                 point: Any, fresh: Any, bank: Any, stake: Any, st: Any, cpaid: Any,
                 level: Any, status: Any, handstart: Any, ontable: Any, wagered: Any,
                 rolls: Any, done: Any, endroll: Any, hist: Any, stride: int, layout: Any,
                 generic: Any, first: Any, scratch: Any, decide: Any, step: Any, play: Any,
                 rows: Any, keeps_fresh: Any, nxt: Any, packed: Any, need: Any, on: Any,
                 bounds: Any, slots: int, counters: int, t: Tables) -> None:
    """Play a chunk as :func:`croupier.sim.kernel.play_chunk` does, from the layout tables;
    ``outcomes`` grouped (:func:`croupier.sim.kernel.fill_outcomes_grouped`).

    ``layout[i, p]`` is player ``p``'s layout number in session ``i``. A session some player of
    which cannot afford what the rules call for goes back to its state at the chunk's start,
    is decoded into the generic arrays and marked in ``generic``; ``first[i]`` is 0 for every
    generic session (the generic kernel plays the whole chunk), the chunk's length for the
    others. ``scratch``: :func:`lane_scratch`; ``keeps_fresh[p]``: whether player ``p``'s
    layouts keep the fresh flag; ``nxt`` to ``bounds``: the :class:`LaneTable`. Compiled by
    :func:`croupier.sim.kernel.no_refcount`.
    """
    n_players = bank.shape[1]
    n_roll = min(outcomes.shape[1], total_rolls - r_begin)
    keep, runs, _, _ = scratch
    for i in range(n_sess):
        if generic[i]:
            first[i] = 0
        else:
            _keep(i, keep[i], layout, bank, status, handstart, wagered, endroll, False)
    # player by player, so that each player's tables stay in the processor's caches
    for p in range(n_players):
        for g in range((n_sess + LANES - 1) // LANES):
            _player_lanes(g, p, n_sess, n_roll, r_begin, start, stride, outcomes, point, fresh,
                          bank, status, handstart, wagered, endroll, hist, layout, generic,
                          scratch, decide, step, play, nxt, packed, need, on, bounds, t)
    for i in range(n_sess):
        if generic[i]:
            continue
        short = False
        for p in range(n_players):
            short = short or runs[i, p, 1] >= 0
        if short:
            _keep(i, keep[i], layout, bank, status, handstart, wagered, endroll, True)
            _leave_tables(i, layout, rows, slots, counters, stake, st, cpaid, level, ontable)
            generic[i] = True
            first[i] = 0
        else:
            first[i] = n_roll
            _close(i, runs[i], n_roll, n_players, point, fresh, rolls, done, ontable, layout,
                   decide, rows, keeps_fresh)


def lane_scratch(sessions: int, players: int) -> tuple[I64, I64, I64, I64]:
    """Room for :func:`play_layouts`: every session's players at the chunk's start, their
    rolls in play and short roll, the lanes' state, and where each lane's player plays the
    chunk (:data:`NO_SESSION`, :data:`IN_LANES` or the roll from which it plays roll by roll,
    with its layout, chips and stakes decided then)."""
    return (np.zeros((sessions, players, 6), np.int64),
            np.zeros((sessions, players, 2), np.int64), np.zeros((LANES, 3), np.int64),
            np.zeros((LANES, 4), np.int64))
