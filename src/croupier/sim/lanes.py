"""Eight sessions at once: the usual roll of a player from the layout tables, in lanes.

A player's roll from the layout tables (:mod:`croupier.sim.layouts`) is one lookup, and the
layout it gives is where the next lookup starts: a chain. One session alone waits for each
lookup before it can begin the next, and the layouts of strategies with odds and come bets
spread over hundreds of kilobytes of table, past the processor's first cache, so each link
costs a trip to the second (measured with ``benchmarks/simulate.py --profile``: one session at
a time, 9 to 22 ns a roll; eight, 1.3 to 1.8 ns a roll each). So a player plays
:data:`LANES` sessions side by side, each one's state in its own registers, and their lookups
overlap: the outcomes of a roll of eight sessions are eight adjacent bytes
(:func:`croupier.sim.kernel.fill_outcomes_grouped`), one load apart.

A lane plays only the usual roll of an active player: the bet rules and the roll in one
lookup. Before a roll a lane *leaves* the lanes (its session goes on roll by roll, in
:mod:`croupier.sim.layouts`) when its chips in hand do not afford what the rules call for, or
when its worth (chips plus wagers on the layout) reaches the stop loss or the win goal. Those
checks cost as much as the lookup itself, so the rolls in which no lane can reach either
(by the most a roll can take from the chips, add to or take from the worth, per player:
:func:`lane_bounds`) are played in one block without them; the others in blocks of
:data:`BLOCK_ROLLS` rolls that check every roll.

The tables are arrays over the entries of a layout and an outcome (entry ``row + outcome``,
``row`` the layout's first): the next layout's row (so the next lookup needs one addition),
the chips the roll (and the rules before it) gives back and the stakes it decides packed in
one 64-bit word (``credit + decided * 2**32``: a block is short enough for its sums to stay
below 2**31 each), the least chips the rules need, and the layout's amount on the table. A
block without the checks reads the first two only.

The functions here are compiled by numba, which takes arrays, numbers and tuples, not objects:
each table and the lanes' state is an array argument of its own, as in
:mod:`croupier.sim.kernel` (its "Arguments"): hence the file's exception to ruff's limit of six
arguments in pyproject.toml.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from croupier.sim.kernel import no_refcount

LANES = 8
BLOCK_ROLLS = 32
MIN_FREE = 8  # the fewest rolls played without the checks in one block
NEEDS_NOTHING = np.iinfo(np.int32).min  # the resting layout's need: it never leaves
NO_LIMIT = np.iinfo(np.int64).max
# the columns of a lane: its row, chips in hand and stakes decided before the block
ROW, CHIPS, DECIDED_SO_FAR = 0, 1, 2
# the columns of lane_bounds, per player
DROP, MOST_NEEDED, RISE, FALL, PACK_ROLLS = range(5)


@njit(cache=True, nogil=True, inline="always")
def _credit(acc: Any) -> Any:
    """The credit half of a packed sum (the low 32 bits, signed)."""
    return np.int64(np.int32(acc))


@njit(cache=True, nogil=True, inline="always")
def _flush(lane: Any, k: int, row: Any, acc: Any) -> None:
    """Store lane ``k``'s row and add its packed sums to its chips and stakes decided."""
    c = _credit(acc)
    lane[k, ROW] = np.int64(row)
    lane[k, CHIPS] += c
    lane[k, DECIDED_SO_FAR] += (acc - c) >> 32


@njit(cache=True, nogil=True, inline="always")
def _at(row: Any, o: Any) -> Any:
    """The entry of the layout at ``row`` for outcome ``o`` (unsigned: no negative index)."""
    return row + np.uint64(o)


@no_refcount
def _block_free(tt: Any, j: int, end: int, nxt: Any, packed: Any, lane: Any) -> None:
    """Rolls ``j`` to ``end`` of the eight lanes with no check (none can leave in them)."""
    r0, r1, r2, r3 = (np.uint64(lane[0, ROW]), np.uint64(lane[1, ROW]),
                      np.uint64(lane[2, ROW]), np.uint64(lane[3, ROW]))
    r4, r5, r6, r7 = (np.uint64(lane[4, ROW]), np.uint64(lane[5, ROW]),
                      np.uint64(lane[6, ROW]), np.uint64(lane[7, ROW]))
    a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = np.int64(0)
    for jj in range(j, end):
        o = tt[jj]
        x0, x1, x2, x3 = _at(r0, o[0]), _at(r1, o[1]), _at(r2, o[2]), _at(r3, o[3])
        x4, x5, x6, x7 = _at(r4, o[4]), _at(r5, o[5]), _at(r6, o[6]), _at(r7, o[7])
        a0, a1, a2, a3 = a0 + packed[x0], a1 + packed[x1], a2 + packed[x2], a3 + packed[x3]
        a4, a5, a6, a7 = a4 + packed[x4], a5 + packed[x5], a6 + packed[x6], a7 + packed[x7]
        r0, r1, r2, r3 = np.uint64(nxt[x0]), np.uint64(nxt[x1]), np.uint64(nxt[x2]), \
            np.uint64(nxt[x3])
        r4, r5, r6, r7 = np.uint64(nxt[x4]), np.uint64(nxt[x5]), np.uint64(nxt[x6]), \
            np.uint64(nxt[x7])
    _flush(lane, 0, r0, a0)
    _flush(lane, 1, r1, a1)
    _flush(lane, 2, r2, a2)
    _flush(lane, 3, r3, a3)
    _flush(lane, 4, r4, a4)
    _flush(lane, 5, r5, a5)
    _flush(lane, 6, r6, a6)
    _flush(lane, 7, r7, a7)


@njit(cache=True, nogil=True, inline="always")
def _short(need: Any, x: Any, b: Any, acc: Any) -> Any:
    """Negative when the chips ``b`` plus the block's credits do not afford the rules."""
    return b + _credit(acc) - need[x]


@njit(cache=True, nogil=True, inline="always")
def _out(need: Any, on: Any, x: Any, b: Any, acc: Any, lo: Any, hi: Any) -> Any:
    """Negative as :func:`_short`, or when the worth is out of ``[lo, hi]``."""
    chips = b + _credit(acc)
    worth = chips + on[x]
    return (chips - need[x]) | (worth - lo) | (hi - worth)


@no_refcount
def _block_checked(tt: Any, j: int, end: int, nxt: Any, packed: Any, need: Any, on: Any,
                   lane: Any, worth: Any, lo: Any, hi: Any) -> int:
    """Rolls ``j`` to ``end`` of the eight lanes, checking each roll; return the roll before
    which a lane leaves (``end``: none does)."""
    r0, r1, r2, r3 = (np.uint64(lane[0, ROW]), np.uint64(lane[1, ROW]),
                      np.uint64(lane[2, ROW]), np.uint64(lane[3, ROW]))
    r4, r5, r6, r7 = (np.uint64(lane[4, ROW]), np.uint64(lane[5, ROW]),
                      np.uint64(lane[6, ROW]), np.uint64(lane[7, ROW]))
    b0, b1, b2, b3 = lane[0, CHIPS], lane[1, CHIPS], lane[2, CHIPS], lane[3, CHIPS]
    b4, b5, b6, b7 = lane[4, CHIPS], lane[5, CHIPS], lane[6, CHIPS], lane[7, CHIPS]
    a0 = a1 = a2 = a3 = a4 = a5 = a6 = a7 = np.int64(0)
    jj = j
    while jj < end:
        o = tt[jj]
        x0, x1, x2, x3 = _at(r0, o[0]), _at(r1, o[1]), _at(r2, o[2]), _at(r3, o[3])
        x4, x5, x6, x7 = _at(r4, o[4]), _at(r5, o[5]), _at(r6, o[6]), _at(r7, o[7])
        if worth:
            bad = (_out(need, on, x0, b0, a0, lo, hi) | _out(need, on, x1, b1, a1, lo, hi)
                   | _out(need, on, x2, b2, a2, lo, hi) | _out(need, on, x3, b3, a3, lo, hi)
                   | _out(need, on, x4, b4, a4, lo, hi) | _out(need, on, x5, b5, a5, lo, hi)
                   | _out(need, on, x6, b6, a6, lo, hi) | _out(need, on, x7, b7, a7, lo, hi))
        else:
            bad = (_short(need, x0, b0, a0) | _short(need, x1, b1, a1)
                   | _short(need, x2, b2, a2) | _short(need, x3, b3, a3)
                   | _short(need, x4, b4, a4) | _short(need, x5, b5, a5)
                   | _short(need, x6, b6, a6) | _short(need, x7, b7, a7))
        if bad < 0:
            break
        a0, a1, a2, a3 = a0 + packed[x0], a1 + packed[x1], a2 + packed[x2], a3 + packed[x3]
        a4, a5, a6, a7 = a4 + packed[x4], a5 + packed[x5], a6 + packed[x6], a7 + packed[x7]
        r0, r1, r2, r3 = np.uint64(nxt[x0]), np.uint64(nxt[x1]), np.uint64(nxt[x2]), \
            np.uint64(nxt[x3])
        r4, r5, r6, r7 = np.uint64(nxt[x4]), np.uint64(nxt[x5]), np.uint64(nxt[x6]), \
            np.uint64(nxt[x7])
        jj += 1
    _flush(lane, 0, r0, a0)
    _flush(lane, 1, r1, a1)
    _flush(lane, 2, r2, a2)
    _flush(lane, 3, r3, a3)
    _flush(lane, 4, r4, a4)
    _flush(lane, 5, r5, a5)
    _flush(lane, 6, r6, a6)
    _flush(lane, 7, r7, a7)
    return jj


@njit(cache=True, nogil=True, inline="always")
def _clear_for(lane: Any, rest: int, on: Any, worth: Any, lo: Any, hi: Any, bounds: Any,
               most: int) -> int:
    """How many of the next rolls (up to ``most``) no lane can leave in: its chips stay
    above what the rules may need and its worth inside ``[lo, hi]``, however they fall."""
    m = most
    for k in range(LANES):
        row = lane[k, ROW]
        if row == rest:
            continue
        b = lane[k, CHIPS]
        if b < bounds[MOST_NEEDED]:
            return 0
        if bounds[DROP] > 0:  # before roll t the chips are at least b - t * DROP
            m = min(m, (b - bounds[MOST_NEEDED]) // bounds[DROP] + 1)
        if worth:
            w = b + on[row]
            if w < lo or w > hi:
                return 0
            if bounds[FALL] > 0:
                m = min(m, (w - lo) // bounds[FALL] + 1)
            if bounds[RISE] > 0:
                m = min(m, (hi - w) // bounds[RISE] + 1)
    return m


@no_refcount
def run_lanes(tt: Any, j: int, n_roll: int, nxt: Any, packed: Any, need: Any, on: Any,
              lane: Any, worth: Any, lo: Any, hi: Any, rest: int, bounds: Any) -> int:
    """Play the eight lanes (``lane[k]``: row, chips, stakes decided; ``tt[j, k]``: lane
    ``k``'s outcome at roll ``j``) from roll ``j`` until a lane leaves, or to ``n_roll``;
    return that roll. ``nxt`` to ``on``: the tables; ``worth``: check the worth against
    ``[lo, hi]`` too; ``rest``: the resting layout's row; ``bounds``: the player's
    :func:`lane_bounds`.

    The rolls no lane can leave in are played in one block without the checks, the others
    in blocks of :data:`BLOCK_ROLLS` with them; a block's packed sums stay within their
    halves (``bounds[PACK_ROLLS]`` rolls at most)."""
    pack = bounds[PACK_ROLLS]
    while j < n_roll:
        free = _clear_for(lane, rest, on, worth, lo, hi, bounds, min(n_roll - j, pack))
        if free >= MIN_FREE:
            _block_free(tt, j, j + free, nxt, packed, lane)
            j += free
            continue
        end = min(j + BLOCK_ROLLS, j + pack, n_roll)
        got = _block_checked(tt, j, end, nxt, packed, need, on, lane, worth, lo, hi)
        if got < end:
            return got
        j = end
    return j


@njit(cache=True, nogil=True, inline="always")
def lane_leaves(tt: Any, j: int, k: int, need: Any, on: Any, lane: Any, worth: Any, lo: Any,
                hi: Any) -> Any:
    """Whether lane ``k`` leaves the lanes before roll ``j``."""
    x = _at(np.uint64(lane[k, ROW]), tt[j, k])
    if worth:
        return _out(need, on, x, lane[k, CHIPS], 0, lo, hi) < 0
    return _short(need, x, lane[k, CHIPS], 0) < 0


def lane_bounds(credit: Any, decided: Any, need: Any, on_now: Any, on_next: Any) -> Any:
    """A player's bounds over its entries (arrays alike: the credit of the rules and the
    roll, the stakes decided, the chips the rules need, the amount on the table before and
    after): the most a roll takes from the chips, the most the rules need, the most a roll
    adds to the worth and the most it takes from it, and how many rolls' credits and stakes
    decided fit their halves of a packed word."""
    change = credit + on_next - on_now
    largest = max(1, int(np.abs(credit).max()), int(decided.max()))
    return np.array([max(0, int(-credit.min())), int(need.max()), max(0, int(change.max())),
                     max(0, int(-change.min())), (2**31 - 1) // largest], np.int64)
