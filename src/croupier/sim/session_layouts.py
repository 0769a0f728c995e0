"""A session's chain from the layout tables: states of (layout, chips in hand, status).

A session's state between rolls is the player's *layout* (everything the simulator keeps
for the player apart from money: the table's point, the fresh flag where a rule waits for a
new shooter, every wager's stake, state and commission paid, the progressions' levels; see
:mod:`croupier.sim.layouts`), the chips in hand and the player's status (active, or stopped
at the stop loss or the win goal with wagers still to be decided). The layout tables give,
per layout and outcome, the next layout and the chips the roll (and the bet rules before it)
gives back, computed by the simulator's own step; so a state's successors are a few table
lookups, and :func:`explore_layouts` finds every state breadth first, a whole layer of states
at once in numpy, indexing them by a 64-bit key in a hash table (:class:`StateIndex`).

Where the tables do not say what happens, the state is played by the generic kernel, as
:mod:`croupier.sim.session_rows` plays every state: a player whose chips do not afford what
the rules call for (the rules then make the bets they can, or the player is ruined), and a
layout those partial bets lead to is added to the tables. A strategy with a shooter loss
limit (its state keeps the bankroll at the hand's start) or with more layouts than
:data:`MAX_LAYOUTS` is explored by :mod:`croupier.sim.session_rows` instead.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from numba import njit

from croupier.sim.compile import ACTIVE, RUINED, STOP_LOSS, WIN_GOAL, Compiled
from croupier.sim.layouts import (
    CREDIT,
    DOWN,
    DOWN_CASH,
    NEXT,
    ON_TABLE,
    RULES_CASH,
    LayoutBook,
    fused,
    layout_tables,
    rules_with_chips,
    table_shape,
)
from croupier.sim.session_chain import I64, Chain, Progress, SessionRefused
from croupier.sim.session_rows import row_layout, too_many

MAX_LAYOUTS = 400_000
PROBE_LAYOUTS = 100_000  # numbered before the others where the simulator has not tabled them
PROBE_STEP = 20_000
ESTIMATE_REFUSED = 12_000_000
"""An estimate past this (and past four times the limit) is refused before exploring: the
estimate can be far above the count (hammer-lock at $500: 96,790 states), so a smaller limit
is enforced by the exploration itself, which passes 400,000 states in a few seconds."""
BANK_BITS, STATUS_BITS = 38, 2  # a state's key: layout, status, chips (cents)
LAYER = 1 << 18  # states expanded at once
EMPTY = np.int64(-1)


# --- the states found: a hash table of their keys ---------------------------------------------


@njit(cache=True, nogil=True)
def _index(table: Any, ids: Any, keys: Any, n: int, out: Any, shift: int) -> int:
    """Each of ``keys``' number in the open-addressing table (``table`` keys, ``ids`` their
    numbers; -1: free; ``2**(64 - shift)`` slots), numbering the new ones from ``n`` in
    order; return the next number."""
    bits = np.uint64(shift)
    mask = table.shape[0] - 1
    for i in range(keys.shape[0]):
        k = keys[i]
        h = np.int64((np.uint64(k) * np.uint64(0x9E3779B97F4A7C15)) >> bits)
        while True:
            got = table[h]
            if got == k:
                out[i] = ids[h]
                break
            if got == -1:
                table[h] = k
                ids[h] = n
                out[i] = n
                n += 1
                break
            h = (h + 1) & mask
    return n


class StateIndex:
    """The number of every state key found, in the order found (kept under half full)."""

    def __init__(self) -> None:
        self.table = np.full(1 << 16, EMPTY, np.int64)
        self.ids = np.zeros(1 << 16, np.int64)
        self.n = 0

    def numbers(self, keys: I64) -> I64:
        """The numbers of ``keys``, the new ones numbered next."""
        while 2 * (self.n + keys.shape[0]) > self.table.shape[0]:
            self._grow()
        out = np.empty(keys.shape[0], np.int64)
        self.n = int(_index(self.table, self.ids, keys, self.n, out, self._shift()))
        return out

    def _shift(self) -> int:
        return 64 - (self.table.shape[0].bit_length() - 1)

    def _grow(self) -> None:
        used = self.table != EMPTY
        keys, ids = self.table[used], self.ids[used]
        self.table = np.full(2 * self.table.shape[0], EMPTY, np.int64)
        self.ids = np.zeros(self.table.shape[0], np.int64)
        order = np.argsort(ids)
        _index(self.table, self.ids, keys[order], 0, np.empty(keys.shape[0], np.int64),
               self._shift())


def state_keys(lay: I64, status: Any, chips: I64) -> I64:
    """The 64-bit key of each state."""
    keys: I64 = (lay << (BANK_BITS + STATUS_BITS)) | (status.astype(np.int64) << BANK_BITS) \
        | chips
    return keys


# --- the tables, with each layout's distinct successors ---------------------------------------


@dataclasses.dataclass
class Successors:
    """Per layout, the distinct (next layout, credit) of a table and on how many outcomes
    each comes, as compressed rows (``ptr[L]:ptr[L + 1]``)."""

    ptr: I64
    nxt: I64
    credit: I64
    count: I64

    @staticmethod
    def of(table: I64) -> Successors:
        """Those of ``table`` (layouts x outcomes x columns NEXT, CREDIT, ...)."""
        n, n_out = table.shape[:2]
        key = np.sort((table[:, :, NEXT] << 32) | (table[:, :, CREDIT] + 2**31), axis=1)
        first = np.ones((n, n_out), np.bool_)
        first[:, 1:] = key[:, 1:] != key[:, :-1]
        at = np.flatnonzero(first.ravel())
        count = np.diff(np.append(at, n * n_out))
        flat = key.ravel()[at]
        ptr = np.zeros(n + 1, np.int64)
        ptr[1:] = np.cumsum(first.sum(axis=1))
        return Successors(ptr, flat >> 32, (flat & 0xFFFFFFFF) - 2**31, count)

    def joined(self, more: Successors) -> Successors:
        """These layouts' and then ``more``'s."""
        return Successors(np.concatenate([self.ptr, self.ptr[-1] + more.ptr[1:]]),
                          np.concatenate([self.nxt, more.nxt]),
                          np.concatenate([self.credit, more.credit]),
                          np.concatenate([self.count, more.count]))

    def expand(self, lay: I64, chips: I64) -> tuple[I64, I64, I64, I64]:
        """For states on layouts ``lay`` with ``chips``: each successor's state (by index
        into ``lay``), next layout, chips and outcome count."""
        lo, hi = self.ptr[lay], self.ptr[lay + 1]
        deg = hi - lo
        which = np.repeat(np.arange(lay.shape[0]), deg)
        starts = np.cumsum(deg) - deg
        entry = lo[which] + np.arange(which.shape[0]) - starts[which]
        return which, self.nxt[entry], chips[which] + self.credit[entry], self.count[entry]


class Tables:
    """The player's layout tables for the session, extended when partial bets lead to a
    layout they do not hold."""

    def __init__(self, book: LayoutBook) -> None:
        self.book = book
        self.play = np.zeros((0, book.compiled.n_outcomes, 4), np.int64)
        self.by_play = Successors.of(self.play)
        self.by_step = Successors.of(self.play[:, :, :3])
        self.refresh()

    def refresh(self) -> None:
        """Take in the layouts the book has tabled since."""
        decide, step_t = self.book.tables()
        old = self.play.shape[0]
        self.decide, self.step = decide, step_t
        self.on = decide[:, ON_TABLE]
        self.need = decide[:, 2]  # NEED: the least chips the rules need
        self.down, self.down_cash = decide[:, DOWN], decide[:, DOWN_CASH]
        play = fused(decide[old:], step_t)
        self.play = np.concatenate([self.play, play])
        self.by_play = self.by_play.joined(Successors.of(play))
        self.by_step = self.by_step.joined(Successors.of(step_t[old:]))

    def grow(self, rows: I64) -> I64:
        """The numbers of the layouts ``rows``, tabling the new ones."""
        ids = self.book.extend(rows)
        if ids is None or not self.book.complete():
            raise SessionRefused(f"the strategy has more than {MAX_LAYOUTS:,} layouts of its "
                                 "bets in play at once")
        if self.book.done > self.on.shape[0]:
            self.refresh()
        return ids


def _book(c: Compiled, start: int, max_states: int,
          progress: Progress | None = None) -> LayoutBook | None:
    """The player's layouts and their tables (those kept for the simulator where it has
    them: the tables do not depend on the limits), or None where they are too many. Where
    the simulator has none (more layouts than it tables), the first :data:`PROBE_LAYOUTS`
    are tabled and the session refused at once if they alone give past the estimate refused
    (:func:`_refuse_past_estimate`): tabling all 400,000 takes seconds, and exploring what
    they do not hold state row by state row far longer."""
    shape = table_shape(c)
    plain = dataclasses.replace(c, arrays=dict(c.arrays))
    for name in ("stoploss", "wingoal", "shooterlim"):
        plain.arrays[name] = np.zeros_like(c.arrays[name])
    lt = layout_tables(plain)
    if lt is not None:
        book = LayoutBook(c, 0, shape, MAX_LAYOUTS)
        book.seed(lt.rows, lt.decide, lt.step.astype(np.int64))
        return book if book.complete() else None
    book = LayoutBook(c, 0, shape, 1)  # the empty layout, numbered first
    if _table_up_to(book, PROBE_LAYOUTS, progress):
        return book
    decide, step = book.tables()
    credits = np.concatenate([step[:, :, CREDIT].ravel(), decide[:, RULES_CASH],
                              decide[:, DOWN_CASH]])
    _refuse_past_estimate(decide[:, ON_TABLE], credits, start, int(c.arrays["wingoal"][0]),
                          max_states, " (the first tabled of more)")
    return book if _table_up_to(book, MAX_LAYOUTS, progress) else None


def _table_up_to(book: LayoutBook, limit: int, progress: Progress | None) -> bool:
    """Table the book's layouts until all are or ``limit`` are numbered (False: the limit
    came first), telling ``progress`` every :data:`PROBE_STEP` layouts."""
    while not book.complete():
        if book.numbering.limit >= limit:
            return False
        book.numbering.limit = min(limit, book.numbering.limit + PROBE_STEP)
        if progress is not None:
            progress("tabling layouts", book.numbering.n, 0)
    book.numbering.limit = MAX_LAYOUTS  # partial bets may lead to layouts not yet numbered
    return True


# --- exploring --------------------------------------------------------------------------------


class _Found:
    """The states found: layout, chips, status, the roll that first reaches each."""

    def __init__(self) -> None:
        self.lay = np.zeros(1024, np.int64)
        self.chips = np.zeros(1024, np.int64)
        self.status = np.zeros(1024, np.int8)
        self.depth = np.zeros(1024, np.int64)
        self.n = 0

    def add(self, lay: I64, chips: I64, status: Any, depth: int) -> None:
        """Append new states (numbered in order)."""
        m = lay.shape[0]
        while self.n + m > self.lay.shape[0]:
            for name in ("lay", "chips", "status", "depth"):
                a = getattr(self, name)
                setattr(self, name, np.concatenate([a, np.zeros_like(a)]))
        sl = slice(self.n, self.n + m)
        self.lay[sl], self.chips[sl], self.status[sl], self.depth[sl] = lay, chips, status, depth
        self.n += m


@dataclasses.dataclass
class _Out:
    """What one layer of states leads to."""

    src: list[I64] = dataclasses.field(default_factory=list)
    dst: list[I64] = dataclasses.field(default_factory=list)
    count: list[I64] = dataclasses.field(default_factory=list)
    ended: list[I64] = dataclasses.field(default_factory=list)  # absorbing states
    end_status: list[I64] = dataclasses.field(default_factory=list)
    end_worth: list[I64] = dataclasses.field(default_factory=list)


def _estimate(on: I64, credits: I64, start: int, goal: int) -> int:
    """About how many states an active player's session has: per layout (``on``: the
    amounts on its table) that fits under the goal, the amounts of chips beside it (on the
    lattice of the amounts the tables move, ``credits``)."""
    top = start + goal
    amounts = np.concatenate([[start], credits])
    g = int(np.gcd.reduce(np.abs(amounts[amounts != 0]))) if (amounts != 0).any() else 1
    room = top - on[on < top]
    return int((room // max(g, 1) + 1).sum())


def _refuse_past_estimate(on: I64, credits: I64, start: int, goal: int, max_states: int,
                          note: str) -> None:
    """Refuse the session before exploring where :func:`_estimate` is past four times the
    limit and :data:`ESTIMATE_REFUSED`."""
    estimate = _estimate(on, credits, start, goal)
    if estimate > max(4 * max_states, ESTIMATE_REFUSED):
        raise too_many(max_states, f"about {estimate:,}: {on.shape[0]:,} layouts of the bets"
                                   f"{note} times the amounts of chips beside them")


def explore_layouts(c: Compiled, start: int, max_states: int,
                    progress: Progress | None = None) -> Chain | None:
    """Every state a session can reach from ``start`` cents, and the chain between them
    (None: the layout tables cannot hold this strategy's state; see the module)."""
    if c.players != 1 or c.arrays["shooterlim"][0] > 0:
        return None
    book = _book(c, start, max_states, progress)
    if book is None:
        return None
    t = Tables(book)
    loss, goal = int(c.arrays["stoploss"][0]), int(c.arrays["wingoal"][0])
    _refuse_past_estimate(t.on, np.concatenate([t.play[:, :, CREDIT].ravel(), t.down_cash]),
                          start, goal, max_states, "")
    ex = _Exploration(t, start, loss, goal, max_states)
    first = np.zeros(1, np.int64)
    ex.index.numbers(state_keys(first, np.zeros(1, np.int8), first + start))
    ex.found.add(first, first + start, np.zeros(1, np.int8), 0)
    begin = 0
    while begin < ex.found.n:
        end = ex.found.n
        for lo in range(begin, end, LAYER):
            ex.layer(np.arange(lo, min(end, lo + LAYER)))
            if progress is not None:
                progress("exploring", ex.found.n, 0)
        begin, ex.depth = end, ex.depth + 1
    return _chain(c, start, t, ex.found, ex.out)


@dataclasses.dataclass
class _Exploration:
    """A session's states found so far, breadth first (``depth``: the roll being expanded),
    numbered by ``index``, and the transitions and ends found from them."""

    t: Tables
    start: int
    loss: int  # the stop loss (0: none)
    goal: int  # the win goal (0: none)
    max_states: int
    found: _Found = dataclasses.field(default_factory=lambda: _Found())
    index: StateIndex = dataclasses.field(default_factory=lambda: StateIndex())
    out: _Out = dataclasses.field(default_factory=lambda: _Out())
    depth: int = 0

    def layer(self, ids: I64) -> None:
        """Expand the states ``ids``: their successors, numbered (the new ones found at
        ``depth + 1``), and those that end the session."""
        t, found, out = self.t, self.found, self.out
        start, loss, goal = self.start, self.loss, self.goal
        lay, chips, status = found.lay[ids], found.chips[ids], found.status[ids]
        worth = chips + t.on[lay]
        active = status == ACTIVE
        hit_loss = active & (loss > 0) & (worth <= start - loss)
        hit_goal = active & ~hit_loss & (goal > 0) & (worth >= start + goal)
        stopping = hit_loss | hit_goal
        usual = active & ~stopping & (chips >= t.need[lay])
        short = active & ~stopping & ~usual
        # a player who stops takes down what may come down; the rest is decided roll by roll
        rest = ~active | stopping
        r_lay = np.where(stopping, t.down[lay], lay)[rest]
        r_chips = np.where(stopping, chips + t.down_cash[lay], chips)[rest]
        r_status = np.where(hit_loss, STOP_LOSS, np.where(hit_goal, WIN_GOAL, status))[rest]
        over = t.on[r_lay] == 0
        r_ids = ids[rest]
        out.ended.append(r_ids[over])
        out.end_status.append(r_status[over].astype(np.int64))
        out.end_worth.append(r_chips[over])
        goes = ~over
        parts = [(ids[usual], t.by_play, lay[usual], chips[usual],
                  np.zeros(int(usual.sum()), np.int8)),
                 (r_ids[goes], t.by_step, r_lay[goes], r_chips[goes], r_status[goes])]
        for src_ids, succ, s_lay, s_chips, s_status in parts:
            if src_ids.size == 0:
                continue
            which, nxt, new_chips, count = succ.expand(s_lay, s_chips)
            self.link(src_ids[which], nxt, new_chips, s_status[which], count)
        if short.any():
            self.short(ids[short], lay[short], chips[short])

    def link(self, src: I64, lay: I64, chips: I64, status: Any, count: I64) -> None:
        """Transitions from ``src`` to the states (``lay``, ``chips``, ``status``)."""
        if (chips >= 1 << BANK_BITS).any():
            raise SessionRefused("the chips in hand outgrow the analysis's 38-bit amounts")
        index = self.index
        before = index.n
        dst = index.numbers(state_keys(lay, status, chips))
        new = dst >= before
        if index.n > self.max_states:
            raise too_many(self.max_states,
                           "layouts of the bets times the amounts of chips beside them")
        if new.any():
            at = np.flatnonzero(new)
            order = at[np.argsort(dst[at])]
            first = order[np.concatenate([[True], dst[order][1:] != dst[order][:-1]])]
            self.found.add(lay[first], chips[first], status[first], self.depth + 1)
        self.out.src.append(src)
        self.out.dst.append(dst)
        self.out.count.append(count)

    def short(self, ids: I64, lay: I64, chips: I64) -> None:
        """States whose chips do not afford everything the rules call for: the rules make the
        bets the chips afford (the kernel's own rules, with these chips), and a player left with
        nothing on the table is ruined; the others roll from the layout the bets make."""
        t, out = self.t, self.out
        book = t.book
        shape = book.shape
        m = ids.shape[0]
        after = np.zeros((m, shape.width), np.int64)
        left = np.zeros(m, np.int64)
        short = np.zeros(m, np.int64)
        rules_with_chips(book.rows[lay], chips, 0, shape.slots, shape.counters, book.t, after,
                         left, short, book.scratch)
        made = t.grow(after)
        ruined = (short != 0) & (t.on[made] == 0)
        out.ended.append(ids[ruined])
        out.end_status.append(np.full(int(ruined.sum()), RUINED, np.int64))
        out.end_worth.append(left[ruined])
        goes = ~ruined
        if goes.any():
            which, nxt, new_chips, count = t.by_step.expand(made[goes], left[goes])
            self.link(ids[goes][which], nxt, new_chips, np.zeros(which.shape[0], np.int8), count)


def describe_rows(book_rows: I64, layout: Any, lay: I64, chips: I64, status: Any,
                  on: I64) -> I64:
    """State rows (as :mod:`croupier.sim.session_rows` keeps them) of states of layouts
    ``lay`` with ``chips`` and ``status``."""
    s, cnt = layout.slots, layout.counters
    b = book_rows[lay]
    rows = np.zeros((lay.shape[0], layout.width), np.int64)
    rows[:, :2] = b[:, :2]
    rows[:, 2], rows[:, 3], rows[:, 5] = chips, status, on
    rows[:, 6:6 + 3 * s + cnt] = b[:, 2:2 + 3 * s + cnt]
    return rows


def _chain(c: Compiled, start: int, t: Tables, found: _Found, out: _Out) -> Chain:
    n = found.n
    lay, chips, status = found.lay[:n].copy(), found.chips[:n].copy(), found.status[:n].copy()
    absorbing = np.zeros(n, np.bool_)
    end_status = np.zeros(n, np.int8)
    worth = chips + t.on[lay]

    def cat(parts: list[I64]) -> I64:
        return np.concatenate(parts) if parts else np.zeros(0, np.int64)

    ended = cat(out.ended)
    absorbing[ended] = True
    end_status[ended] = cat(out.end_status)
    worth[ended] = cat(out.end_worth)
    layout = row_layout(c)
    book_rows, on = t.book.rows.copy(), t.on.copy()

    def describe() -> I64:
        return describe_rows(book_rows, layout, lay, chips, status, on[lay])

    return Chain(c, start, layout, chips, cat(out.src), cat(out.dst), cat(out.count), absorbing,
                 end_status, worth, describe, found.depth[:n].copy())

