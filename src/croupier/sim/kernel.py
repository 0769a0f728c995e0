"""The compiled kernel: many independent sessions at once, integer cents, generated tables.

:func:`play_chunk` plays one chunk of rolls (or spins) for a block of sessions; all state lives
in arrays the caller keeps between chunks, so a block can be played in any number of calls.
Outcomes are indexes into the game's outcomes (the 36 rolls of two dice ``6 * (d1 - 1) + d2 -
1``, or the wheel's pockets); :func:`fill_outcomes` turns raw PCG64 words into uniform outcomes
by exact rejection sampling on bytes (a byte below ``256 - 256 % n`` gives ``byte % n``).

The kernel knows no wager: what a wager does on an outcome comes from the tables generated in
:mod:`croupier.sim.compile`; what a player does comes from the compiled rules.

Arguments. numba compiles functions of arrays, numbers and tuples, not of Python objects. The
kernels and the helpers numba inlines into them take the compiled tables as one
:class:`Tables` record and each session's state as the separate arrays the engine allocates,
keeps between chunks and reads back (``bank[i, p]``, ``stake[i, p, k]``, ...): every kernel
takes them in the same order (:data:`croupier.sim.specialise.KERNEL_ARGS`; the specialised
kernel is source written against those names), so the engine calls any of the three the same
way. These functions are over ruff's limit of six arguments for that reason (the file's
exception in pyproject.toml); the two that are also over its limit of complexity (a fixed
rule's purchase, a slot's settlement) are kept whole because the specialised kernel writes the
same steps in the same order, which is what makes the two kernels' results identical.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
from numba import njit

ACTIVE, RUINED, STOP_LOSS, WIN_GOAL = 0, 1, 2, 3
F = TypeVar("F", bound=Callable[..., Any])


def no_refcount(fn: F) -> F:
    """``njit`` (cached, without the GIL) and without numba's reference counting, for a
    kernel's outer loop that allocates nothing: the helpers it inlines take the tables as one
    :class:`Tables` record, and counting each of its arrays at each call costs two orders of
    magnitude.

    Why the private ``_nrt`` option: numba (0.68) documents no other way to compile one
    function without its runtime (``nopython`` and ``nogil`` leave reference counting on;
    there is no per-function public switch and no environment variable that turns it off).
    Measured with ``benchmarks/simulate.py --quick --croupier-only`` minutes apart, the
    layout kernels without it played 0.2 to 1.5 million rolls per second against 32 to 106
    million with it. The option only drops the counting: the results are the same (the
    kernel allocates nothing for the runtime to free), and a numba that no longer knew it
    would refuse it by name when the kernel is first compiled ("Unrecognized options", which
    every simulator test would show), not ignore it."""
    options = cast(dict[str, Any], {"cache": True, "nogil": True, "_nrt": False})
    return cast(F, njit(**options)(fn))


LOW7 = np.uint64(0x7F7F7F7F7F7F7F7F)
HIGH = np.uint64(0x8080808080808080)
ONES = np.uint64(0x0101010101010101)


@njit(cache=True, nogil=True, inline="always")
def _rejects_a_byte(x: Any, sub: Any) -> Any:
    """Whether a byte of the word ``x`` is at or above the limit ``128 + m`` (``sub``: ``m``
    in every byte, ``m < 128``): a byte with its high bit set whose low seven bits are at
    least ``m``; ``(low7 | 0x80) - m`` keeps its high bit exactly then, and borrows from no
    other byte."""
    return ((((x & LOW7) | HIGH) - sub) & x & HIGH) != 0


@njit(cache=True, nogil=True)
def fill_outcomes(words: Any, out: Any, start: int, n_outcomes: int) -> int:
    """Fill ``out[start:]`` from the bytes of ``words``; return the new fill position.

    Bytes are taken in order, low byte first; the fill stops at the end of ``out`` (the rest
    of the word is dropped). While a whole word cannot reach the end, a word none of whose
    bytes is rejected (most words: 88% with 36 outcomes) writes its eight outcomes at once;
    another writes its eight bytes without a branch: every byte stores its outcome and only
    an accepted one advances, so ``out`` past the returned position may hold a rejected
    byte's scratch value (the next call, which starts there, overwrites it).
    """
    limit = 256 - 256 % n_outcomes
    lut = np.empty(256, np.uint8)
    acc = np.empty(256, np.int64)
    for v in range(256):
        lut[v] = v % n_outcomes
        acc[v] = 1 if v < limit else 0
    # the whole-word test needs the limit above 128: true of every game of up to 128 outcomes
    whole = n_outcomes <= 128
    sub = np.uint64(limit - 128 if whole else 0) * ONES
    pos = start
    n = out.shape[0]
    nw = words.shape[0]
    w = 0
    while w < nw and pos + 8 <= n:
        x = words[w]
        if whole and not _rejects_a_byte(x, sub):
            for k in range(8):
                out[pos + k] = lut[(x >> np.uint64(8 * k)) & np.uint64(0xFF)]
            pos += 8
        else:
            for _ in range(8):
                b = x & np.uint64(0xFF)
                out[pos] = lut[b]
                pos += acc[b]
                x >>= np.uint64(8)
        w += 1
    while w < nw and pos < n:
        x = words[w]
        for _ in range(8):
            b = x & np.uint64(0xFF)
            x >>= np.uint64(8)
            if b < limit:
                out[pos] = lut[b]
                pos += 1
                if pos == n:
                    return pos
        w += 1
    return pos


@njit(cache=True, nogil=True, inline="always")
def _swap(a: Any, b: Any, shift: Any, mask: Any) -> tuple[Any, Any]:
    """Exchange the bytes of ``a`` above ``shift`` with those of ``b`` below it (``mask``)."""
    t = ((a >> shift) ^ b) & mask
    return a ^ (t << shift), b ^ t


@njit(cache=True, nogil=True)
def group_rows(rows: Any, out: Any) -> None:
    """Eight rows of outcomes side by side: ``rows`` (8G sessions, R rolls, viewed as R / 8
    64-bit words per session), ``out`` (G, R) 64-bit words, word ``j`` of group ``g`` holding
    the eight sessions' outcomes at roll ``j`` (byte ``k``: session ``8g + k``), for
    :mod:`croupier.sim.lanes`. Eight rolls of eight sessions at a time, an 8 x 8 transpose of
    bytes in three rounds of exchanges."""
    s8, s16, s32 = np.uint64(8), np.uint64(16), np.uint64(32)
    m8 = np.uint64(0x00FF00FF00FF00FF)
    m16 = np.uint64(0x0000FFFF0000FFFF)
    m32 = np.uint64(0x00000000FFFFFFFF)
    for g in range(out.shape[0]):
        r = 8 * g
        for w in range(rows.shape[1]):
            a0, a1, a2, a3 = rows[r, w], rows[r + 1, w], rows[r + 2, w], rows[r + 3, w]
            a4, a5, a6, a7 = rows[r + 4, w], rows[r + 5, w], rows[r + 6, w], rows[r + 7, w]
            a0, a1 = _swap(a0, a1, s8, m8)
            a2, a3 = _swap(a2, a3, s8, m8)
            a4, a5 = _swap(a4, a5, s8, m8)
            a6, a7 = _swap(a6, a7, s8, m8)
            a0, a2 = _swap(a0, a2, s16, m16)
            a1, a3 = _swap(a1, a3, s16, m16)
            a4, a6 = _swap(a4, a6, s16, m16)
            a5, a7 = _swap(a5, a7, s16, m16)
            a0, a4 = _swap(a0, a4, s32, m32)
            a1, a5 = _swap(a1, a5, s32, m32)
            a2, a6 = _swap(a2, a6, s32, m32)
            a3, a7 = _swap(a3, a7, s32, m32)
            j = 8 * w
            out[g, j], out[g, j + 1], out[g, j + 2], out[g, j + 3] = a0, a1, a2, a3
            out[g, j + 4], out[g, j + 5], out[g, j + 6], out[g, j + 7] = a4, a5, a6, a7


class Tables(NamedTuple):
    """A compiled table's arrays, as the kernel reads them (see :mod:`croupier.sim.compile`).

    Per player ``p`` and slot ``k`` (a wager the player may have on the layout), state ``t`` and
    outcome ``o``: ``res[p, k, t, o]`` what happens (0 nothing, 1 decided, 2 moves), ``won``,
    the credit ``cn / cd`` per unit of stake, ``nxt``/``dst`` the state and slot a move goes to;
    ``remove`` whether a strategy may take the wager down, ``point_of_state`` the point number a state
    stands on, ``odds_state`` an odds slot's state per number. Per slot: ``stays`` (up after a win),
    ``off`` (off on the come-out) and its ``parent``, the ``commission_kind`` (0 none, 1 on
    the stake, 2 on the win: the base is ``commission_num / commission_den`` of the stake)
    and whether it is collected when the bet is made (``placement``; else out of the win),
    ``timing``, ``group`` and ``line`` (for the counts of a rule) and the progression counter
    ``ctr``. The ``r*`` arrays are the rules, in order (kind, slot,
    when, skip the point, skip a covered number, come-bet count and limits, amounts per level,
    flat/odds pairs and the odds multiples); ``winnext``/``losenext``/``reset7`` move the
    progressions; then the limits, the vig ``vn / vd`` in ``unit``, and the
    point table ``pt`` and seven-out table ``seven`` per (point index, outcome).
    """

    nslots: Any
    nrules: Any
    nctr: Any
    res: Any
    won: Any
    cn: Any
    cd: Any
    nxt: Any
    dst: Any
    remove: Any
    point_of_state: Any
    odds_state: Any
    stays: Any
    off: Any
    parent: Any
    commission_kind: Any
    commission_num: Any
    commission_den: Any
    placement: Any
    timing: Any
    group: Any
    line: Any
    ctr: Any
    rkind: Any
    rslot: Any
    rwhen: Any
    rskip_point: Any
    rskip_covered: Any
    rcovering_pass: Any
    rcovering_pass_state: Any
    rcovering_come: Any
    rdown: Any
    rcount: Any
    rmaxsame: Any
    rmaxline: Any
    rctr: Any
    ramt: Any
    rnpair: Any
    rflat: Any
    rodds: Any
    rmuln: Any
    rmuld: Any
    winnext: Any
    losenext: Any
    reset7: Any
    stoploss: Any
    wingoal: Any
    shooterlim: Any
    vn: Any
    vd: Any
    unit: Any
    pt: Any
    seven: Any


def tables_of(arrays: dict[str, Any]) -> Tables:
    """The kernel's :class:`Tables` from a compiled table's arrays."""
    return Tables(*(arrays[name] for name in Tables._fields))


NO_PURCHASE = np.iinfo(np.int64).max


@njit(cache=True, nogil=True, inline="always")
def _commission(base: int, kind: int, base_num: int, base_den: int, vn: int, vd: int,
                unit: int) -> int:
    """The commission on a stake of ``base`` (for kind 2, on what it wins: ``base_num / base_den``
    of it): the vig ``vn / vd`` in whole table units, rounded down."""
    if kind == 2:
        base = base * base_num // base_den
    return (base * vn // (vd * unit)) * unit


@njit(cache=True, nogil=True, inline="always")
def limit_status(worth: int, start: int, p: int, t: Tables) -> int:
    """Player ``p``'s status from its stop loss and win goal, with ``worth`` on hand and down."""
    if t.stoploss[p] > 0 and worth <= start - t.stoploss[p]:
        return STOP_LOSS
    if t.wingoal[p] > 0 and worth >= start + t.wingoal[p]:
        return WIN_GOAL
    return ACTIVE


@njit(cache=True, nogil=True, inline="always")
def take_down_all(i: int, p: int, bank: Any, ontable: Any, stake: Any, st: Any, cpaid: Any,
                  t: Tables) -> None:
    """Take down every wager of player ``p`` a strategy may take down (a player who stops)."""
    for k in range(t.nslots[p]):
        s = stake[i, p, k]
        if s > 0 and t.remove[p, k, st[i, p, k]] != 0:
            bank[i, p] += s
            ontable[i, p] -= s
            stake[i, p, k] = 0
            cpaid[i, p, k] = 0


@njit(cache=True, nogil=True, inline="always")
def _count_group(i: int, p: int, stake: Any, group: int, t: Tables) -> int:
    """How many of player ``p``'s wagers of group ``group`` are down."""
    n = 0
    for kk in range(t.nslots[p]):
        if t.group[p, kk] == group and stake[i, p, kk] > 0:
            n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _count_line(i: int, p: int, stake: Any, t: Tables) -> int:
    """How many of player ``p``'s line bets (pass, come and the like) are down."""
    n = 0
    for kk in range(t.nslots[p]):
        if t.line[p, kk] != 0 and stake[i, p, kk] > 0:
            n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _fixed_target(i: int, p: int, ru: int, cond: bool, lev: int, pnt: int, stake: Any,
                  st: Any, t: Tables) -> int:
    """A fixed rule's target stake (-1: the rule does nothing this roll)."""
    if not cond:
        return 0 if t.rdown[p, ru] != 0 else -1
    target: int = t.ramt[p, ru, lev]
    if t.rskip_point[p, ru] != 0 and pnt == t.rskip_point[p, ru]:
        target = 0
    if t.rskip_covered[p, ru] != 0:
        kp = t.rcovering_pass[p, ru]
        kc = t.rcovering_come[p, ru]
        if kp >= 0 and stake[i, p, kp] > 0 and st[i, p, kp] == t.rcovering_pass_state[p, ru]:
            target = 0
        if kc >= 0 and stake[i, p, kc] > 0:
            target = 0
    return target


@njit(cache=True, nogil=True, inline="always")
def _rule_fixed(i: int, p: int, ru: int, cond: bool, lev: int, pnt: int, fr: int, bank: Any,
                stake: Any, st: Any, cpaid: Any, ontable: Any, t: Tables) -> tuple[bool, int]:
    """Bring a fixed rule's wager to its target; (short of money, least money left over)."""
    k = t.rslot[p, ru]
    cur = stake[i, p, k]
    target = _fixed_target(i, p, ru, cond, lev, pnt, stake, st, t)
    if target < 0:
        return False, NO_PURCHASE
    if target > cur:
        if cur == 0:
            g = t.group[p, k]
            if t.rmaxsame[p, ru] > 0 and _count_group(i, p, stake, g, t) >= t.rmaxsame[p, ru]:
                return False, NO_PURCHASE
            if t.rmaxline[p, ru] > 0 and _count_line(i, p, stake, t) >= t.rmaxline[p, ru]:
                return False, NO_PURCHASE
        tm = t.timing[p, k]
        if (tm == 1 and pnt != 0) or (tm == 2 and pnt == 0) or (tm == 3 and fr == 0):
            return False, NO_PURCHASE
        amt = target - cur
        comm = 0
        if t.placement[p, k] != 0:
            comm = _commission(target, t.commission_kind[p, k], t.commission_num[p, k],
                               t.commission_den[p, k], t.vn[p], t.vd[p], t.unit[p]) \
                - cpaid[i, p, k]
            if comm < 0:
                comm = 0
        slack = bank[i, p] - (amt + comm)
        if slack < 0:
            return True, slack
        bank[i, p] -= amt + comm
        cpaid[i, p, k] += comm
        stake[i, p, k] = target
        ontable[i, p] += amt
        if cur == 0:
            st[i, p, k] = 0
        return False, slack
    if target < cur and t.remove[p, k, st[i, p, k]] != 0:
        amt = cur - target
        bank[i, p] += amt
        ontable[i, p] -= amt
        stake[i, p, k] = target
        if target == 0:
            cpaid[i, p, k] = 0
    return False, NO_PURCHASE


@njit(cache=True, nogil=True, inline="always")
def _rule_come(i: int, p: int, ru: int, cond: bool, lev: int, pnt: int, bank: Any,
               stake: Any, st: Any, ontable: Any, t: Tables) -> tuple[bool, int]:
    """Make a come bet while fewer than the rule's count stand on numbers."""
    if not cond or pnt == 0:
        return False, NO_PURCHASE
    kb = t.rslot[p, ru]
    if stake[i, p, kb] > 0:
        return False, NO_PURCHASE
    n_on = 0
    for jj in range(t.rnpair[p, ru]):
        if stake[i, p, t.rflat[p, ru, jj]] > 0:
            n_on += 1
    if n_on >= t.rcount[p, ru]:
        return False, NO_PURCHASE
    if t.rmaxline[p, ru] > 0 and _count_line(i, p, stake, t) >= t.rmaxline[p, ru]:
        return False, NO_PURCHASE
    amt = t.ramt[p, ru, lev]
    if amt == 0:
        return False, NO_PURCHASE
    slack = bank[i, p] - amt
    if slack < 0:
        return True, slack
    bank[i, p] -= amt
    stake[i, p, kb] = amt
    st[i, p, kb] = 0
    ontable[i, p] += amt
    return False, slack


@njit(cache=True, nogil=True, inline="always")
def _rule_odds(i: int, p: int, ru: int, bank: Any, stake: Any, st: Any, ontable: Any,
               t: Tables) -> tuple[bool, int]:
    """Odds behind every flat bet on a number, at the rule's multiple."""
    short = False
    least = NO_PURCHASE
    for jj in range(t.rnpair[p, ru]):
        f = t.rflat[p, ru, jj]
        k = t.rodds[p, ru, jj]
        fs = stake[i, p, f]
        if fs == 0:
            continue
        ni = t.point_of_state[p, f, st[i, p, f]]
        if ni == 0:
            continue
        target = fs * t.rmuln[p, ru, ni] // t.rmuld[p, ru, ni]
        cur = stake[i, p, k]
        if target > cur:
            amt = target - cur
            slack = bank[i, p] - amt
            least = min(least, slack)
            if slack < 0:
                short = True
                continue
            bank[i, p] -= amt
            stake[i, p, k] = target
            ontable[i, p] += amt
            if cur == 0:
                st[i, p, k] = t.odds_state[p, k, ni]
        elif target < cur:
            amt = cur - target
            bank[i, p] += amt
            ontable[i, p] -= amt
            stake[i, p, k] = target
    return short, least


@njit(cache=True, nogil=True, inline="always")
def apply_rules(i: int, p: int, pnt: int, fr: int, bank: Any, stake: Any, st: Any, cpaid: Any,
                level: Any, ontable: Any, t: Tables) -> tuple[bool, int]:
    """Player ``p``'s bet rules before a roll, in order: (whether a bet the rules call for was
    not affordable, the least money left after any purchase: ``NO_PURCHASE`` if none).

    With the least left over ``m`` from a bankroll ``B``, any bankroll of at least ``B - m``
    makes the same decisions (the layout state tables rely on it)."""
    short = False
    least = NO_PURCHASE
    for ru in range(t.nrules[p]):
        c = t.rctr[p, ru]
        lev = level[i, p, c] if c >= 0 else 0
        when = t.rwhen[p, ru]
        cond = when == 0 or (when == 1 and pnt != 0) or (when == 2 and pnt == 0)
        kind = t.rkind[p, ru]
        if kind == 0:
            sh, m = _rule_fixed(i, p, ru, cond, lev, pnt, fr, bank, stake, st, cpaid, ontable, t)
        elif kind == 1:
            sh, m = _rule_come(i, p, ru, cond, lev, pnt, bank, stake, st, ontable, t)
        else:
            sh, m = _rule_odds(i, p, ru, bank, stake, st, ontable, t)
        short = short or sh
        least = min(least, m)
    return short, least


@njit(cache=True, nogil=True, inline="always")
def _settle_slot(i: int, p: int, k: int, o: int, pnt: int, bank: Any, stake: Any, st: Any,
                 cpaid: Any, ontable: Any, wagered: Any, t: Tables) -> int:
    """Settle one slot on outcome ``o``: 1 won, -1 lost (for its progression), else 0."""
    s = stake[i, p, k]
    if s == 0:
        return 0
    if t.off[p, k] != 0 and pnt == 0:
        par = t.parent[p, k]
        if par >= 0 and stake[i, p, par] > 0 and t.res[p, par, st[i, p, par], o] == 1:
            bank[i, p] += s
            ontable[i, p] -= s
            stake[i, p, k] = 0
            cpaid[i, p, k] = 0
        return 0
    sti = st[i, p, k]
    rc = t.res[p, k, sti, o]
    if rc == 0:
        return 0
    if rc == 2:
        d = t.dst[p, k, sti, o]
        if d == k:
            st[i, p, k] = t.nxt[p, k, sti, o]
        else:
            stake[i, p, d] += s
            st[i, p, d] = t.nxt[p, k, sti, o]
            stake[i, p, k] = 0
        return 0
    wagered[i, p] += s
    credit = s * t.cn[p, k, sti, o] // t.cd[p, k, sti, o]
    if t.won[p, k, sti, o] != 0:
        if t.commission_kind[p, k] != 0:
            comm = _commission(s, t.commission_kind[p, k], t.commission_num[p, k],
                               t.commission_den[p, k], t.vn[p], t.vd[p], t.unit[p])
            credit -= comm
            if t.placement[p, k] != 0:  # paid again to stay up: what a top-up counts from
                cpaid[i, p, k] = comm
        bank[i, p] += credit
        if t.stays[p, k] == 0:
            stake[i, p, k] = 0
            ontable[i, p] -= s
            cpaid[i, p, k] = 0
        return 1
    bank[i, p] += credit
    stake[i, p, k] = 0
    ontable[i, p] -= s
    cpaid[i, p, k] = 0
    return -1


@njit(cache=True, nogil=True, inline="always")
def settle_player(i: int, p: int, o: int, pnt: int, sev: int, bank: Any, stake: Any, st: Any,
                  cpaid: Any, level: Any, ontable: Any, wagered: Any, t: Tables) -> None:
    """Settle every wager of player ``p`` on outcome ``o`` (slots in order), then move the
    player's progressions (a win of a counted wager, else a loss; reset on a seven-out)."""
    nc = t.nctr[p]
    won = 0
    lost = 0
    for k in range(t.nslots[p]):
        how = _settle_slot(i, p, k, o, pnt, bank, stake, st, cpaid, ontable, wagered, t)
        c = t.ctr[p, k]
        if c >= 0:
            if how == 1:
                won |= 1 << c
            elif how == -1:
                lost |= 1 << c
    for c in range(nc):
        lv = level[i, p, c]
        if won & (1 << c):
            lv = t.winnext[p, c, lv]
        elif lost & (1 << c):
            lv = t.losenext[p, c, lv]
        if sev != 0 and t.reset7[p, c] != 0:
            lv = 0
        level[i, p, c] = lv


@njit(cache=True, nogil=True, inline="always")
def record_hist(i: int, r: int, stride: int, bank: Any, hist: Any) -> None:
    """Record session ``i``'s chips in hand after roll ``r`` (every ``stride``-th roll)."""
    if i < hist.shape[0] and (r + 1) % stride == 0:
        for p in range(bank.shape[1]):
            hist[i, p, (r + 1) // stride] = bank[i, p]


@njit(cache=True, nogil=True, inline="always")
def decide_all(i: int, r: int, start: int, pnt: int, fr: int, bank: Any, stake: Any, st: Any,
               cpaid: Any, level: Any, status: Any, handstart: Any, ontable: Any,
               endroll: Any, t: Tables) -> bool:
    """Every player's limits and rules before roll ``r``, in seat order; whether the session
    goes on (a player is active or has a wager down)."""
    alive = False
    for p in range(bank.shape[1]):
        if status[i, p] == ACTIVE:
            worth = bank[i, p] + ontable[i, p]
            stat = limit_status(worth, start, p, t)
            if stat != ACTIVE:
                status[i, p] = stat
                endroll[i, p] = r
                take_down_all(i, p, bank, ontable, stake, st, cpaid, t)
            elif not (t.shooterlim[p] > 0 and worth <= handstart[i, p] - t.shooterlim[p]):
                short, _ = apply_rules(i, p, pnt, fr, bank, stake, st, cpaid, level, ontable, t)
                if short and ontable[i, p] == 0:
                    # the strategy calls for a bet the player cannot afford, nothing is down
                    status[i, p] = RUINED
                    endroll[i, p] = r
        alive = alive or status[i, p] == ACTIVE or ontable[i, p] != 0
    return alive


@no_refcount
def play_chunk(outcomes: Any, n_sess: int, r_begin: int, total_rolls: int, start: int,
               point: Any, fresh: Any, bank: Any, stake: Any, st: Any, cpaid: Any, level: Any,
               status: Any, handstart: Any, ontable: Any, wagered: Any, rolls: Any,
               done: Any, endroll: Any, hist: Any, stride: int, first: Any, t: Tables) -> None:
    """Play rolls ``r_begin`` to ``r_begin + outcomes.shape[1]`` (at most ``total_rolls``) of
    ``n_sess`` sessions, updating their state arrays in place; session ``i`` from the chunk's
    roll ``first[i]`` on (0: all of it).

    Before each roll every active player's limits and rules are applied in seat order; then
    every wager on the layout is settled from its (state, outcome) tables, the progressions
    move, and the point follows. ``fresh`` marks a session whose next roll is a new shooter's
    first (the only time a fire bet may be made).

    Compiled by :func:`no_refcount`: nothing here allocates.
    """
    n_players = bank.shape[1]
    n_roll = min(outcomes.shape[1], total_rolls - r_begin)
    for i in range(n_sess):
        for j in range(first[i], n_roll):
            r = r_begin + j
            if done[i]:
                record_hist(i, r, stride, bank, hist)
                continue
            pnt = point[i]
            if not decide_all(i, r, start, pnt, fresh[i], bank, stake, st, cpaid, level,
                              status, handstart, ontable, endroll, t):
                done[i] = True
                record_hist(i, r, stride, bank, hist)
                continue
            o = outcomes[i, j]
            sev = t.seven[pnt, o]
            for p in range(n_players):
                settle_player(i, p, o, pnt, sev, bank, stake, st, cpaid, level, ontable,
                              wagered, t)
                if sev != 0:
                    handstart[i, p] = bank[i, p] + ontable[i, p]
            point[i] = t.pt[pnt, o]
            fresh[i] = sev  # after a seven-out the next roll is a new shooter's first
            rolls[i] += 1
            record_hist(i, r, stride, bank, hist)
