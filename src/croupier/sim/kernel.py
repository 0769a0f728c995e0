"""The compiled kernel: many independent sessions at once, integer cents, generated tables.

:func:`play_chunk` plays one chunk of rolls (or spins) for a block of sessions; all state lives
in arrays the caller keeps between chunks, so a block can be played in any number of calls.
Outcomes are indexes into the game's outcomes (the 36 rolls of two dice ``6 * (d1 - 1) + d2 -
1``, or the wheel's pockets); :func:`fill_outcomes` turns raw PCG64 words into uniform outcomes
by exact rejection sampling on bytes (a byte below ``256 - 256 % n`` gives ``byte % n``).

The kernel knows no wager: what a wager does on an outcome comes from the tables generated in
:mod:`croupier.sim.compile`; what a player does comes from the compiled rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

ACTIVE, RUINED, STOP_LOSS, WIN_GOAL = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def fill_outcomes(words: Any, out: Any, start: int, n_outcomes: int) -> int:
    """Fill ``out[start:]`` from the bytes of ``words``; return the new fill position.

    Bytes are taken in order, low byte first; the fill stops at the end of ``out`` (the rest
    of the word is dropped). While a whole word cannot reach the end, its eight bytes are
    written without a branch: every byte stores its outcome and only an accepted one advances,
    so ``out`` past the returned position may hold a rejected byte's scratch value (the next
    call, which starts there, overwrites it).
    """
    limit = 256 - 256 % n_outcomes
    lut = np.empty(256, np.uint8)
    acc = np.empty(256, np.int64)
    for v in range(256):
        lut[v] = v % n_outcomes
        acc[v] = 1 if v < limit else 0
    pos = start
    n = out.shape[0]
    nw = words.shape[0]
    w = 0
    while w < nw and pos + 8 <= n:
        x = words[w]
        for _ in range(8):
            b = x & 0xFF
            out[pos] = lut[b]
            pos += acc[b]
            x >>= 8
        w += 1
    while w < nw and pos < n:
        x = words[w]
        for _ in range(8):
            b = x & 0xFF
            x >>= 8
            if b < limit:
                out[pos] = lut[b]
                pos += 1
                if pos == n:
                    return pos
        w += 1
    return pos


@njit(cache=True, nogil=True, inline="always")
def _commission(base: int, kind: int, cpn: int, cpd: int, vn: int, vd: int, unit: int) -> int:
    if kind == 2:
        base = base * cpn // cpd
    return (base * vn // (vd * unit)) * unit


@njit(cache=True, nogil=True)
def play_chunk(outcomes: Any, n_sess: int, r_begin: int, total_rolls: int, start: int,
               point: Any, fresh: Any, bank: Any, stake: Any, st: Any, cpaid: Any, level: Any,
               status: Any, handstart: Any, ontable: Any, wagered: Any, rolls: Any,
               done: Any, endroll: Any, hist: Any, stride: int,
               nslots: Any, nrules: Any, nctr: Any, res: Any, won: Any, cn: Any, cd: Any,
               nxt: Any, dst: Any, remove: Any, numidx: Any, ostate: Any, stays: Any,
               off: Any, parent: Any, commk: Any, cpn: Any, cpd: Any, timing: Any,
               group: Any, line: Any, ctr: Any,
               rkind: Any, rslot: Any, rwhen: Any, rskippt: Any, rskipcov: Any, rcpass: Any,
               rcpass_st: Any, rccome: Any, rdown: Any, rcount: Any, rmaxsame: Any,
               rmaxline: Any, rctr: Any, ramt: Any, rnpair: Any, rflat: Any, rodds: Any,
               rmuln: Any, rmuld: Any, winnext: Any, losenext: Any, reset7: Any,
               stoploss: Any, wingoal: Any, shooterlim: Any, minstake: Any, vn: Any, vd: Any,
               unit: Any, placement: Any, pt: Any, seven: Any) -> None:
    """Play rolls ``r_begin`` to ``r_begin + outcomes.shape[1]`` (at most ``total_rolls``) of
    ``n_sess`` sessions, updating their state arrays in place.

    The arguments after ``stride`` are the compiled table's arrays in the order of
    :data:`croupier.sim.engine.TABLE_ARGS` (see :mod:`croupier.sim.compile` for what each
    holds). Before each roll every active player's limits and rules are applied in seat order;
    then every wager on the layout is settled from its (state, outcome) tables, the
    progressions move, and the point follows. ``fresh`` marks a session whose next roll is a
    new shooter's first (the only time a fire bet may be made).
    """
    n_players = bank.shape[1]
    n_hist = hist.shape[0]
    chunk = outcomes.shape[1]
    n_roll = min(chunk, total_rolls - r_begin)
    cw = np.zeros(8, np.int8)
    cl = np.zeros(8, np.int8)
    for i in range(n_sess):
        for j in range(n_roll):
            r = r_begin + j
            if done[i]:
                if i < n_hist and (r + 1) % stride == 0:
                    for p in range(n_players):
                        hist[i, p, (r + 1) // stride] = bank[i, p]
                continue
            pnt = point[i]
            # --- the players' decisions, in seat order ---------------------------------
            for p in range(n_players):
                if status[i, p] != ACTIVE:
                    continue
                b = bank[i, p]
                worth = b + ontable[i, p]
                stat = ACTIVE
                if stoploss[p] > 0 and worth <= start - stoploss[p]:
                    stat = STOP_LOSS
                elif wingoal[p] > 0 and worth >= start + wingoal[p]:
                    stat = WIN_GOAL
                if stat != ACTIVE:
                    status[i, p] = stat
                    endroll[i, p] = r
                    for k in range(nslots[p]):
                        s = stake[i, p, k]
                        if s > 0 and remove[p, k, st[i, p, k]] != 0:
                            bank[i, p] += s
                            ontable[i, p] -= s
                            stake[i, p, k] = 0
                            cpaid[i, p, k] = 0
                    continue
                if shooterlim[p] > 0 and worth <= handstart[i, p] - shooterlim[p]:
                    continue
                short = False
                for ru in range(nrules[p]):
                    c = rctr[p, ru]
                    lev = level[i, p, c] if c >= 0 else 0
                    when = rwhen[p, ru]
                    cond = when == 0 or (when == 1 and pnt != 0) or (when == 2 and pnt == 0)
                    kind = rkind[p, ru]
                    if kind == 0:
                        k = rslot[p, ru]
                        cur = stake[i, p, k]
                        if cond:
                            target = ramt[p, ru, lev]
                            if rskippt[p, ru] != 0 and pnt == rskippt[p, ru]:
                                target = 0
                            if rskipcov[p, ru] != 0:
                                kp = rcpass[p, ru]
                                kc = rccome[p, ru]
                                if kp >= 0 and stake[i, p, kp] > 0 and st[i, p, kp] == rcpass_st[p, ru]:
                                    target = 0
                                if kc >= 0 and stake[i, p, kc] > 0:
                                    target = 0
                        elif rdown[p, ru] != 0:
                            target = 0
                        else:
                            continue
                        if target > cur:
                            if cur == 0:
                                if rmaxsame[p, ru] > 0:
                                    n_same = 0
                                    g = group[p, k]
                                    for kk in range(nslots[p]):
                                        if group[p, kk] == g and stake[i, p, kk] > 0:
                                            n_same += 1
                                    if n_same >= rmaxsame[p, ru]:
                                        continue
                                if rmaxline[p, ru] > 0:
                                    n_line = 0
                                    for kk in range(nslots[p]):
                                        if line[p, kk] != 0 and stake[i, p, kk] > 0:
                                            n_line += 1
                                    if n_line >= rmaxline[p, ru]:
                                        continue
                            tm = timing[p, k]
                            if ((tm == 1 and pnt != 0) or (tm == 2 and pnt == 0)
                                    or (tm == 3 and fresh[i] == 0)):
                                continue
                            amt = target - cur
                            comm = 0
                            if commk[p, k] != 0 and placement[p] != 0:
                                comm = _commission(target, commk[p, k], cpn[p, k], cpd[p, k],
                                                   vn[p], vd[p], unit[p]) - cpaid[i, p, k]
                                if comm < 0:
                                    comm = 0
                            if amt + comm > bank[i, p]:
                                short = True
                                continue
                            bank[i, p] -= amt + comm
                            cpaid[i, p, k] += comm
                            stake[i, p, k] = target
                            ontable[i, p] += amt
                            if cur == 0:
                                st[i, p, k] = 0
                        elif target < cur and remove[p, k, st[i, p, k]] != 0:
                            amt = cur - target
                            bank[i, p] += amt
                            ontable[i, p] -= amt
                            stake[i, p, k] = target
                            if target == 0:
                                cpaid[i, p, k] = 0
                    elif kind == 1:
                        if not cond or pnt == 0:
                            continue
                        kb = rslot[p, ru]
                        if stake[i, p, kb] > 0:
                            continue
                        n_on = 0
                        for jj in range(rnpair[p, ru]):
                            if stake[i, p, rflat[p, ru, jj]] > 0:
                                n_on += 1
                        if n_on >= rcount[p, ru]:
                            continue
                        if rmaxline[p, ru] > 0:
                            n_line = 0
                            for kk in range(nslots[p]):
                                if line[p, kk] != 0 and stake[i, p, kk] > 0:
                                    n_line += 1
                            if n_line >= rmaxline[p, ru]:
                                continue
                        amt = ramt[p, ru, lev]
                        if amt == 0:
                            continue
                        if amt > bank[i, p]:
                            short = True
                            continue
                        bank[i, p] -= amt
                        stake[i, p, kb] = amt
                        st[i, p, kb] = 0
                        ontable[i, p] += amt
                    else:
                        for jj in range(rnpair[p, ru]):
                            f = rflat[p, ru, jj]
                            k = rodds[p, ru, jj]
                            fs = stake[i, p, f]
                            if fs == 0:
                                continue
                            ni = numidx[p, f, st[i, p, f]]
                            if ni == 0:
                                continue
                            target = fs * rmuln[p, ru, ni] // rmuld[p, ru, ni]
                            cur = stake[i, p, k]
                            if target > cur:
                                amt = target - cur
                                if amt > bank[i, p]:
                                    short = True
                                    continue
                                bank[i, p] -= amt
                                stake[i, p, k] = target
                                ontable[i, p] += amt
                                if cur == 0:
                                    st[i, p, k] = ostate[p, k, ni]
                            elif target < cur:
                                amt = cur - target
                                bank[i, p] += amt
                                ontable[i, p] -= amt
                                stake[i, p, k] = target
                if short and ontable[i, p] == 0:
                    # the strategy calls for a bet the player cannot afford, nothing is down
                    status[i, p] = RUINED
                    endroll[i, p] = r
            alive = False
            for p in range(n_players):
                if status[i, p] == ACTIVE or ontable[i, p] != 0:
                    alive = True
            if not alive:
                done[i] = True
                if i < n_hist and (r + 1) % stride == 0:
                    for p in range(n_players):
                        hist[i, p, (r + 1) // stride] = bank[i, p]
                continue
            # --- the roll ----------------------------------------------------------------
            o = outcomes[i, j]
            sev = seven[pnt, o]
            for p in range(n_players):
                nc = nctr[p]
                for c in range(nc):
                    cw[c] = 0
                    cl[c] = 0
                for k in range(nslots[p]):
                    s = stake[i, p, k]
                    if s == 0:
                        continue
                    if off[p, k] != 0 and pnt == 0:
                        par = parent[p, k]
                        if par >= 0 and stake[i, p, par] > 0 and res[p, par, st[i, p, par], o] == 1:
                            bank[i, p] += s
                            ontable[i, p] -= s
                            stake[i, p, k] = 0
                            cpaid[i, p, k] = 0
                        continue
                    sti = st[i, p, k]
                    rc = res[p, k, sti, o]
                    if rc == 0:
                        continue
                    if rc == 2:
                        d = dst[p, k, sti, o]
                        if d == k:
                            st[i, p, k] = nxt[p, k, sti, o]
                        else:
                            stake[i, p, d] += s
                            st[i, p, d] = nxt[p, k, sti, o]
                            stake[i, p, k] = 0
                        continue
                    wagered[i, p] += s
                    credit = s * cn[p, k, sti, o] // cd[p, k, sti, o]
                    c = ctr[p, k]
                    if won[p, k, sti, o] != 0:
                        if commk[p, k] != 0:
                            credit -= _commission(s, commk[p, k], cpn[p, k], cpd[p, k], vn[p],
                                                  vd[p], unit[p])
                        bank[i, p] += credit
                        if stays[p, k] == 0:
                            stake[i, p, k] = 0
                            ontable[i, p] -= s
                            cpaid[i, p, k] = 0
                        if c >= 0:
                            cw[c] = 1
                    else:
                        bank[i, p] += credit
                        stake[i, p, k] = 0
                        ontable[i, p] -= s
                        cpaid[i, p, k] = 0
                        if c >= 0:
                            cl[c] = 1
                for c in range(nc):
                    lv = level[i, p, c]
                    if cw[c] != 0:
                        lv = winnext[p, c, lv]
                    elif cl[c] != 0:
                        lv = losenext[p, c, lv]
                    if sev != 0 and reset7[p, c] != 0:
                        lv = 0
                    level[i, p, c] = lv
                if sev != 0:
                    handstart[i, p] = bank[i, p] + ontable[i, p]
            point[i] = pt[pnt, o]
            fresh[i] = sev  # after a seven-out the next roll is a new shooter's first
            rolls[i] += 1
            if i < n_hist and (r + 1) % stride == 0:
                for p in range(n_players):
                    hist[i, p, (r + 1) // stride] = bank[i, p]
