"""A kernel specialised to one table of strategies: generated Python source, compiled by numba.

The generic :func:`croupier.sim.kernel.play_chunk` interprets the compiled rule arrays every
roll. :func:`kernel_for` writes the same algorithm out for one :class:`Compiled` table instead:
every loop over players, slots and rules unrolled, every rule parameter a literal (a branch
the strategy cannot take is not generated at all), the per-(slot, state, outcome) tables baked
in as constant arrays, and one session's whole state (bankrolls, stakes, wager states, levels,
the point) held in local variables while the session plays its rolls. Payouts of the stakes a
rule can ask for are precomputed in cents per (slot, stake, state, outcome), so the usual
decision pays without a division; any other stake falls back to ``stake * num // den``.

The results are identical to the generic kernel's by construction (the same operations in the
same order, on the same integer cents), and the tests check it on the built-in strategies and
on random ones. The generated source is written to a cache directory under a name made of the
hash of the source itself, so numba's on-disk cache (``cache=True``) keeps the machine code
between processes; tables come from :mod:`croupier.sim.compile`, never from here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import numpy as np

from croupier.sim.compile import (
    COME,
    FIXED,
    ODDS,
    T_COME_OUT,
    T_NEW_SHOOTER,
    T_POINT_ON,
    Compiled,
)

Kernel = Callable[..., None]

_LOCK = threading.Lock()
_KERNELS: dict[str, Kernel] = {}

# A wager made only at one point of the game: the kernel's condition under which the rule
# makes no bet (on the come-out only, while a point is on only, on a new shooter's first roll).
TIMING_GATES = {T_COME_OUT: "pnt != 0", T_POINT_ON: "pnt == 0", T_NEW_SHOOTER: "fr == 0"}

KERNEL_ARGS = ("outcomes", "n_sess", "r_begin", "total_rolls", "start", "point", "fresh", "bank",
               "stake", "st", "cpaid", "level", "status", "handstart", "ontable", "wagered", "rolls",
               "done", "endroll", "hist", "stride")


class _Src:
    """Lines of Python source with indentation."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def indent(self) -> _Src:
        """One level deeper (use as a context manager)."""
        self.depth += 1
        return self

    def __enter__(self) -> _Src:
        return self

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1

    def text(self) -> str:
        """The source text."""
        return "\n".join(self.lines) + "\n"


def _literal(values: Any, dtype: str) -> str:
    flat = ", ".join(str(int(v)) for v in np.asarray(values).reshape(-1))
    return f"np.array([{flat}], dtype=np.{dtype})"


class _Gen:
    """Generates the specialised kernel's source for one compiled table."""

    def __init__(self, compiled: Compiled) -> None:
        self.c = compiled
        self.a = compiled.arrays
        self.P = compiled.players
        self.n_out = compiled.n_outcomes
        self.consts: list[str] = []
        self._const_names: dict[tuple[str, bytes], str] = {}

    # --- constants ------------------------------------------------------------------------

    def const(self, values: Any, dtype: str, hint: str) -> str:
        """A module-level constant array holding ``values`` (shared by equal tables); its name."""
        arr = np.ascontiguousarray(np.asarray(values).astype(dtype).reshape(-1))
        key = (dtype, arr.tobytes())
        name = self._const_names.get(key)
        if name is None:
            name = f"{hint}{len(self._const_names)}"
            self._const_names[key] = name
            self.consts.append(f"{name} = {_literal(arr, dtype)}")
        return name

    # --- names of a session's state held in locals ---------------------------------------

    def ns(self, p: int, k: int) -> int:
        """The number of states slot ``k`` of player ``p`` can be in."""
        return int(self.a["nstates"][p, k])

    def s(self, p: int, k: int) -> str:
        """The local holding slot ``k``'s stake."""
        return f"s{p}_{k}"

    def t(self, p: int, k: int) -> str:
        """The local holding slot ``k``'s state (``0`` for a one-state slot)."""
        return f"t{p}_{k}" if self.ns(p, k) > 1 else "0"

    def has_cpaid(self, p: int, k: int) -> bool:
        """Whether slot ``k`` keeps a commission paid at placement."""
        return bool(self.a["commission_kind"][p, k] != 0 and self.a["placement"][p, k] != 0)

    def by_state(self, p: int, k: int, table: Any, dtype: str, hint: str) -> str:
        """An expression for ``table[state]`` of slot ``k`` (a literal if all states agree)."""
        n = self.ns(p, k)
        row = np.asarray(table)[:n]
        if n == 1 or (row == row[0]).all():
            return str(int(row[0]))
        return f"{self.const(row, dtype, hint)}[{self.t(p, k)}]"

    # --- generation -----------------------------------------------------------------------

    def generate(self) -> str:
        """The kernel module's whole source."""
        body = _Src()
        body.depth = 1
        self.body(body)
        head = [
            '"""Generated by croupier.sim.specialise; do not edit."""',
            "import numpy as np",
            "from numba import njit",
            "",
            *self.consts,
            "",
            "",
            "@njit(cache=True, nogil=True, error_model='numpy')",
            f"def play({', '.join(KERNEL_ARGS)}):",
        ]
        return "\n".join(head) + "\n" + body.text()

    def record_rest(self, w: _Src, first: str, bankroll: Callable[[int], str]) -> None:
        """A finished session's bankrolls, recorded for the rest of the chunk's rolls."""
        w("if rec:")
        with w.indent():
            w(f"for jj in range({first}, n_roll):")
            with w.indent():
                w("r = r_begin + jj")
                w("if (r + 1) % stride == 0:")
                with w.indent():
                    for p in range(self.P):
                        w(f"hist[i, {p}, (r + 1) // stride] = {bankroll(p)}")

    def body(self, w: _Src) -> None:
        """The kernel's body: sessions, rolls, each player's decisions and the roll."""
        w("n_hist = hist.shape[0]")
        w("n_roll = min(outcomes.shape[1], total_rolls - r_begin)")
        w("for i in range(n_sess):")
        with w.indent():
            w("rec = i < n_hist")
            w("if done[i]:")
            with w.indent():
                self.record_rest(w, "0", lambda p: f"bank[i, {p}]")
                w("continue")
            w("pnt = np.int64(point[i])")
            w("fr = fresh[i]")
            w("nr = rolls[i]")
            self.load_session(w)
            for p in range(self.P):
                w(f"d{p} = True")
            w("fin = False")
            w("jd = n_roll")
            w("row = outcomes[i]")
            self.roll_loop(w)
            # the session ended: the rest of the chunk only records the bankrolls
            w("if fin:")
            with w.indent():
                w("done[i] = True")
                self.record_rest(w, "jd", lambda p: f"b{p}")
            w("point[i] = pnt")
            w("fresh[i] = fr")
            w("rolls[i] = nr")
            self.store_session(w)
        self.consts.append(f"PT = {_literal(self.a['pt'], 'int8')}")
        self.consts.append(f"SEVEN = {_literal(self.a['seven'], 'int8')}")

    def load_session(self, w: _Src) -> None:
        """Session ``i``'s state into local variables, each player's, slot by slot."""
        a, P = self.a, self.P
        for p in range(P):
            w(f"b{p} = bank[i, {p}]")
            w(f"ot{p} = ontable[i, {p}]")
            w(f"ss{p} = np.int64(status[i, {p}])")
            w(f"wg{p} = wagered[i, {p}]")
            if a["shooterlim"][p] > 0:
                w(f"hs{p} = handstart[i, {p}]")
            for k in range(int(a["nslots"][p])):
                w(f"{self.s(p, k)} = stake[i, {p}, {k}]")
                if self.ns(p, k) > 1:
                    w(f"t{p}_{k} = st[i, {p}, {k}]")
                if self.has_cpaid(p, k):
                    w(f"c{p}_{k} = cpaid[i, {p}, {k}]")
            for c in range(int(a["nctr"][p])):
                w(f"lv{p}_{c} = level[i, {p}, {c}]")

    def roll_loop(self, w: _Src) -> None:
        """The chunk's rolls of session ``i``: the players' decisions, the end of the session
        once no one plays on, the roll, the point and the kept bankrolls."""
        P = self.P
        w("for j in range(n_roll):")
        with w.indent():
            w("r = r_begin + j")
            for p in range(P):
                self.decide(w, p)
            cond = " and ".join(f"ss{p} != 0 and ot{p} == 0" for p in range(P))
            w(f"if {cond}:")
            with w.indent():
                w("fin = True")
                w("jd = j")
                w("break")
            self.roll(w)
            w("npnt = np.int64(PT[po])")
            w("if npnt != pnt:")
            with w.indent():
                for p in range(P):
                    w(f"d{p} = True")
            w("pnt = npnt")
            w("fr = sev")
            w("nr += 1")
            w("if rec and (r + 1) % stride == 0:")
            with w.indent():
                for p in range(P):
                    w(f"hist[i, {p}, (r + 1) // stride] = b{p}")

    def store_session(self, w: _Src) -> None:
        """The local variables back into session ``i``'s state."""
        a, P = self.a, self.P
        for p in range(P):
            w(f"bank[i, {p}] = b{p}")
            w(f"ontable[i, {p}] = ot{p}")
            w(f"status[i, {p}] = ss{p}")
            w(f"wagered[i, {p}] = wg{p}")
            if a["shooterlim"][p] > 0:
                w(f"handstart[i, {p}] = hs{p}")
            for k in range(int(a["nslots"][p])):
                w(f"stake[i, {p}, {k}] = {self.s(p, k)}")
                if self.ns(p, k) > 1:
                    w(f"st[i, {p}, {k}] = t{p}_{k}")
                if self.has_cpaid(p, k):
                    w(f"cpaid[i, {p}, {k}] = c{p}_{k}")
            for c in range(int(a["nctr"][p])):
                w(f"level[i, {p}, {c}] = lv{p}_{c}")

    # --- the players' decisions -----------------------------------------------------------

    def take_down_all(self, w: _Src, p: int) -> None:
        """Take down every wager of player ``p`` that may be taken down."""
        a = self.a
        for k in range(int(a["nslots"][p])):
            rm = self.by_state(p, k, a["remove"][p, k], "int8", "RM")
            if rm == "0":
                continue
            s = self.s(p, k)
            w(f"if {s} > 0 and {rm} != 0:")
            with w.indent():
                w(f"b{p} += {s}")
                w(f"ot{p} -= {s}")
                w(f"{s} = 0")
                if self.has_cpaid(p, k):
                    w(f"c{p}_{k} = 0")

    def decide(self, w: _Src, p: int) -> None:
        """Player ``p``'s limits and rules before a roll (only after something changed)."""
        a = self.a
        sl, wgoal, shl = int(a["stoploss"][p]), int(a["wingoal"][p]), int(a["shooterlim"][p])
        w(f"if ss{p} == 0 and d{p}:")
        with w.indent():
            w(f"d{p} = False")
            if sl > 0 or wgoal > 0 or shl > 0:
                w(f"worth = b{p} + ot{p}")
            if sl > 0 or wgoal > 0:
                w("stat = 0")
                if sl > 0:
                    w(f"if worth <= start - {sl}:")
                    with w.indent():
                        w("stat = 2")
                    if wgoal > 0:
                        w(f"elif worth >= start + {wgoal}:")
                        with w.indent():
                            w("stat = 3")
                else:
                    w(f"if worth >= start + {wgoal}:")
                    with w.indent():
                        w("stat = 3")
                w("if stat != 0:")
                with w.indent():
                    w(f"ss{p} = stat")
                    w(f"endroll[i, {p}] = r")
                    self.take_down_all(w, p)
                w("else:")
                w.indent()
            if shl > 0:
                w(f"if not (worth <= hs{p} - {shl}):")
                w.indent()
            self.rules(w, p)
            if shl > 0:
                w.depth -= 1
            if sl > 0 or wgoal > 0:
                w.depth -= 1

    def amount(self, p: int, ru: int) -> str:
        """The rule's amount: a literal, or the level's entry."""
        a = self.a
        c = int(a["rctr"][p, ru])
        row = a["ramt"][p, ru]
        if c < 0 or (row == row[0]).all():
            return str(int(row[0]))
        return f"{self.const(row, 'int64', 'AMT')}[lv{p}_{c}]"

    def count_on(self, p: int, slots: list[int]) -> str:
        """An expression counting the slots with a stake."""
        if not slots:
            return "0"
        return " + ".join(f"({self.s(p, k)} > 0)" for k in slots)

    def rules(self, w: _Src, p: int) -> None:
        """Player ``p``'s rules in order, and ruin when short with nothing down."""
        a = self.a
        w("short = False")
        for ru in range(int(a["nrules"][p])):
            kind = int(a["rkind"][p, ru])
            w("for _ in range(1):")
            with w.indent():
                if kind == FIXED:
                    self.rule_fixed(w, p, ru)
                elif kind == COME:
                    self.rule_come(w, p, ru)
                else:
                    assert kind == ODDS
                    self.rule_odds(w, p, ru)
        w(f"if short and ot{p} == 0:")
        with w.indent():
            w(f"ss{p} = 1")
            w(f"d{p} = True")
            w(f"endroll[i, {p}] = r")

    def cond(self, p: int, ru: int) -> str:
        """The rule's ``when`` as an expression on the point."""
        when = int(self.a["rwhen"][p, ru])
        return {0: "True", 1: "pnt != 0", 2: "pnt == 0"}[when]

    def fixed_target(self, w: _Src, p: int, ru: int) -> None:
        """A fixed rule's ``target`` stake: its amount while its condition holds (none on its
        skipped point or with its number covered), else none (a rule that takes its wager
        down) or leave the wager as it is (``break``)."""
        a = self.a
        w(f"if {self.cond(p, ru)}:")
        with w.indent():
            w(f"target = {self.amount(p, ru)}")
            skip_point = int(a["rskip_point"][p, ru])
            if skip_point != 0:
                w(f"if pnt == {skip_point}:")
                with w.indent():
                    w("target = 0")
            if a["rskip_covered"][p, ru] != 0:
                self.skip_covered(w, p, ru)
        w("else:")
        with w.indent():
            w("target = 0" if a["rdown"][p, ru] != 0 else "break")

    def skip_covered(self, w: _Src, p: int, ru: int) -> None:
        """No target where the rule's number is covered by the pass line or a come bet."""
        a = self.a
        kp, kc = int(a["rcovering_pass"][p, ru]), int(a["rcovering_come"][p, ru])
        if kp >= 0:
            pass_state = int(a["rcovering_pass_state"][p, ru])
            w(f"if {self.s(p, kp)} > 0 and {self.t(p, kp)} == {pass_state}:")
            with w.indent():
                w("target = 0")
        if kc >= 0:
            w(f"if {self.s(p, kc)} > 0:")
            with w.indent():
                w("target = 0")

    def fixed_caps(self, w: _Src, p: int, ru: int) -> None:
        """A new wager only while fewer than the rule's caps stand: of the same wager
        (``max_same``), of line bets (``max_line``)."""
        a = self.a
        k = int(a["rslot"][p, ru])
        maxsame, maxline = int(a["rmaxsame"][p, ru]), int(a["rmaxline"][p, ru])
        if maxsame <= 0 and maxline <= 0:
            return
        w("if cur == 0:")
        with w.indent():
            if maxsame > 0:
                g = a["group"][p, k]
                same = [kk for kk in range(int(a["nslots"][p])) if a["group"][p, kk] == g]
                w(f"if {self.count_on(p, same)} >= {maxsame}:")
                with w.indent():
                    w("break")
            if maxline > 0:
                w(f"if {self.count_on(p, self.line_slots(p))} >= {maxline}:")
                with w.indent():
                    w("break")

    def fixed_buy(self, w: _Src, p: int, k: int) -> None:
        """Pay ``amt`` (and the commission still owed on the new stake, where it is paid on
        placing) from the hand, or stop the rules short of money."""
        if self.has_cpaid(p, k):
            w(f"comm = {self.commission(p, k, 'target')} - c{p}_{k}")
            w("if comm < 0:")
            with w.indent():
                w("comm = 0")
            w(f"if amt + comm > b{p}:")
            with w.indent():
                w("short = True")
                w("break")
            w(f"b{p} -= amt + comm")
            w(f"d{p} = True")
            w(f"c{p}_{k} += comm")
        else:
            w(f"if amt > b{p}:")
            with w.indent():
                w("short = True")
                w("break")
            w(f"b{p} -= amt")
            w(f"d{p} = True")

    def line_slots(self, p: int) -> list[int]:
        """Player ``p``'s pass and come slots."""
        a = self.a
        return [kk for kk in range(int(a["nslots"][p])) if a["line"][p, kk] != 0]

    def rule_fixed(self, w: _Src, p: int, ru: int) -> None:
        """A fixed rule: bring the wager to its target amount."""
        a = self.a
        k = int(a["rslot"][p, ru])
        s = self.s(p, k)
        w(f"cur = {s}")
        self.fixed_target(w, p, ru)
        w("if target > cur:")
        with w.indent():
            self.fixed_caps(w, p, ru)
            gate = TIMING_GATES.get(int(a["timing"][p, k]))
            if gate is not None:  # the wager is off at this point of the game: no bet
                w(f"if {gate}:")
                with w.indent():
                    w("break")
            w("amt = target - cur")
            self.fixed_buy(w, p, k)
            w(f"{s} = target")
            w(f"ot{p} += amt")
            if self.ns(p, k) > 1:
                w("if cur == 0:")
                with w.indent():
                    w(f"t{p}_{k} = 0")
        rm = self.by_state(p, k, a["remove"][p, k], "int8", "RM")
        if rm != "0":
            w(f"elif target < cur and {rm} != 0:")
            with w.indent():
                w("amt = cur - target")
                w(f"b{p} += amt")
                w(f"d{p} = True")
                w(f"ot{p} -= amt")
                w(f"{s} = target")
                if self.has_cpaid(p, k):
                    w("if target == 0:")
                    with w.indent():
                        w(f"c{p}_{k} = 0")

    def rule_come(self, w: _Src, p: int, ru: int) -> None:
        """A come rule: a new come bet while fewer than ``count`` stand on numbers."""
        a = self.a
        when = int(a["rwhen"][p, ru])
        if when == 2:
            w("break")
            return
        kb = int(a["rslot"][p, ru])
        fam = [int(a["rflat"][p, ru, jj]) for jj in range(int(a["rnpair"][p, ru]))]
        # one branch, usually not taken, for the three reasons not to make a come bet
        w(f"if (pnt == 0) | ({self.s(p, kb)} > 0) | ({self.count_on(p, fam)} >= "
          f"{int(a['rcount'][p, ru])}):")
        with w.indent():
            w("break")
        maxline = int(a["rmaxline"][p, ru])
        if maxline > 0:
            w(f"if {self.count_on(p, self.line_slots(p))} >= {maxline}:")
            with w.indent():
                w("break")
        w(f"amt = {self.amount(p, ru)}")
        w("if amt == 0:")
        with w.indent():
            w("break")
        w(f"if amt > b{p}:")
        with w.indent():
            w("short = True")
            w("break")
        w(f"b{p} -= amt")
        w(f"d{p} = True")
        w(f"{self.s(p, kb)} = amt")
        if self.ns(p, kb) > 1:
            w(f"t{p}_{kb} = 0")
        w(f"ot{p} += amt")

    def rule_odds(self, w: _Src, p: int, ru: int) -> None:
        """An odds rule: odds behind every flat bet on a number, at the rule's multiple."""
        a = self.a
        muln, muld = a["rmuln"][p, ru], a["rmuld"][p, ru]
        n_pairs = int(a["rnpair"][p, ru])
        if n_pairs == 0:
            w("pass")
            return
        for jj in range(n_pairs):
            f, k = int(a["rflat"][p, ru, jj]), int(a["rodds"][p, ru, jj])
            ni = self.by_state(p, f, a["point_of_state"][p, f], "int64", "NI")
            if ni == "0":
                continue
            s = self.s(p, k)
            # the odds the flat stake calls for; the usual flat stakes from a table (no division)
            w(f"fs = {self.s(p, f)}")
            w(f"ni = {ni}")
            general = f"fs * {self.const(muln, 'int64', 'MN')}[ni]"
            if not (muld == 1).all():
                general += f" // {self.const(muld, 'int64', 'MD')}[ni]"
            cases = [(f"fs == {v}", self.const([v * int(n) // int(d) for n, d in
                                                 zip(muln, muld, strict=True)], "int64", "ODD")
                      + "[ni]") for v in self.stake_values(p, f)]
            if not (muld == 1).all():
                cases.append(("fs == 0", "0"))
            for m, (test, expr) in enumerate(cases):
                w(f"{'if' if m == 0 else 'elif'} {test}:")
                with w.indent():
                    w(f"target = {expr}")
            if cases:
                w("else:")
                with w.indent():
                    w(f"target = {general}")
            else:
                w(f"target = {general}")
            # nothing to do unless the odds differ from the target (the usual roll: they match)
            w(f"if target != {s} and fs != 0 and ni != 0:")
            with w.indent():
                w("for _ in range(1):")
                with w.indent():
                    w(f"cur = {s}")
                    w("if target > cur:")
                    with w.indent():
                        w("amt = target - cur")
                        w(f"if amt > b{p}:")
                        with w.indent():
                            w("short = True")
                            w("break")
                        w(f"b{p} -= amt")
                        w(f"d{p} = True")
                        w(f"{s} = target")
                        w(f"ot{p} += amt")
                        if self.ns(p, k) > 1:
                            w("if cur == 0:")
                            with w.indent():
                                w(f"t{p}_{k} = {self.const(a['odds_state'][p, k], 'int64', 'OS')}[ni]")
                    w("elif target < cur:")
                    with w.indent():
                        w("amt = cur - target")
                        w(f"b{p} += amt")
                        w(f"d{p} = True")
                        w(f"ot{p} -= amt")
                        w(f"{s} = target")

    def commission(self, p: int, k: int, base: str) -> str:
        """The commission on ``base`` for slot ``k`` (buy and lay), in whole table units."""
        a = self.a
        kind = int(a["commission_kind"][p, k])
        vn, vd, unit = int(a["vn"][p]), int(a["vd"][p]), int(a["unit"][p])
        if kind == 2:
            base = f"({base} * {int(a['commission_num'][p, k])} // {int(a['commission_den'][p, k])})"
        return f"(({base} * {vn} // {vd * unit}) * {unit})"

    # --- the roll -------------------------------------------------------------------------

    def stake_values(self, p: int, k: int) -> list[int]:
        """The stakes a rule can put on slot ``k`` directly (the precomputed payouts)."""
        a = self.a
        found: list[int] = []
        for ru in range(int(a["nrules"][p])):
            kind = int(a["rkind"][p, ru])
            if kind == ODDS:
                self.odds_stake_values(p, k, ru, found)
                continue
            slots = [int(a["rslot"][p, ru])]
            if kind == COME:
                slots += [int(a["rflat"][p, ru, jj]) for jj in range(int(a["rnpair"][p, ru]))]
            if k not in slots:
                continue
            for v in a["ramt"][p, ru]:
                if int(v) > 0 and int(v) not in found:
                    found.append(int(v))
        return found[:4]

    def odds_stake_values(self, p: int, k: int, ru: int, found: list[int]) -> None:
        """Add to ``found`` the odds stakes odds rule ``ru`` can put on slot ``k``: the rule's
        multiple, on each point, of each stake its flat bet can carry."""
        a = self.a
        for jj in range(int(a["rnpair"][p, ru])):
            if int(a["rodds"][p, ru, jj]) != k:
                continue
            f = int(a["rflat"][p, ru, jj])
            nis = sorted({int(x) for x in a["point_of_state"][p, f, :self.ns(p, f)]} - {0})
            for v in self.stake_values(p, f):
                for ni in nis:
                    o = v * int(a["rmuln"][p, ru, ni]) // int(a["rmuld"][p, ru, ni])
                    if o > 0 and o not in found:
                        found.append(o)

    def roll(self, w: _Src) -> None:
        """The roll: settle every slot of every player, then move the progressions."""
        a, P = self.a, self.P
        w("o = np.int64(row[j])")
        w(f"po = pnt * {self.n_out} + o")
        w("sev = SEVEN[po]")
        for p in range(P):
            nc = int(a["nctr"][p])
            for c in range(nc):
                w(f"cw{c} = False")
                w(f"cl{c} = False")
            for k in range(int(a["nslots"][p])):
                self.settle(w, p, k)
            for c in range(nc):
                w(f"lv = lv{p}_{c}")
                w(f"if cw{c}:")
                with w.indent():
                    w(f"lv = {self.const(a['winnext'][p, c], 'int64', 'WN')}[lv]")
                w(f"elif cl{c}:")
                with w.indent():
                    w(f"lv = {self.const(a['losenext'][p, c], 'int64', 'LN')}[lv]")
                if a["reset7"][p, c] != 0:
                    w("if sev != 0:")
                    with w.indent():
                        w("lv = 0")
                w(f"lv{p}_{c} = lv")
            if a["shooterlim"][p] > 0:
                w("if sev != 0:")
                with w.indent():
                    w(f"hs{p} = b{p} + ot{p}")

    def settle(self, w: _Src, p: int, k: int) -> None:
        """Settle slot ``k`` (off on the come-out where the rules say so)."""
        a = self.a
        n = self.ns(p, k)
        n_out = self.n_out
        res = a["res"][p, k, :n]
        if not res.any():
            return
        sv = self.s(p, k)
        w(f"if {sv} != 0:")
        with w.indent():
            w(f"s = {sv}")
            if a["off"][p, k] != 0:
                w("if pnt == 0:")
                with w.indent():
                    par = int(a["parent"][p, k])
                    if par >= 0:
                        pres = self.const(a["res"][p, par, :self.ns(p, par)], "int8", "RES")
                        w(f"if {self.s(p, par)} > 0 and {pres}[{self.t(p, par)} * {n_out} + o] "
                          "== 1:")
                        with w.indent():
                            w(f"b{p} += s")
                            w(f"d{p} = True")
                            w(f"ot{p} -= s")
                            w(f"{sv} = 0")
                            if self.has_cpaid(p, k):
                                w(f"c{p}_{k} = 0")
                    else:
                        w("pass")
                w("else:")
                w.indent()
            self.settle_normal(w, p, k)
            if a["off"][p, k] != 0:
                w.depth -= 1

    def settle_normal(self, w: _Src, p: int, k: int) -> None:
        """Settle slot ``k`` from its tables: win, lose or move."""
        a = self.a
        n = self.ns(p, k)
        res = a["res"][p, k, :n]
        idx = "o" if n == 1 else f"{self.t(p, k)} * {self.n_out} + o"
        w(f"x = {idx}")
        w(f"rc = {self.const(res, 'int8', 'RES')}[x]")
        w("if rc == 1:")
        with w.indent():
            w(f"d{p} = True")
            w(f"wg{p} += s")
            self.credit(w, p, k)
            self.settle_decided(w, p, k)
        if (res == 2).any():
            w("elif rc == 2:")
            with w.indent():
                self.settle_moved(w, p, k)

    def credit(self, w: _Src, p: int, k: int) -> None:
        """What slot ``k`` gives back on the outcome (``credit``): looked up for the stakes a
        rule makes, worked out for any other."""
        a = self.a
        n = self.ns(p, k)
        decided = a["res"][p, k, :n] == 1
        cn, cd = a["cn"][p, k, :n], a["cd"][p, k, :n]
        cns = self.const(cn, "int64", "CN")
        if (cd[decided] == 1).all():
            generic = f"s * {cns}[x]"
        else:
            generic = f"s * {cns}[x] // {self.const(cd, 'int64', 'CD')}[x]"
        values = self.stake_values(p, k)
        if not values:
            w(f"credit = {generic}")
            return
        for m, v in enumerate(values):
            pay = self.const(v * cn // cd, "int64", "PAY")
            w(f"{'if' if m == 0 else 'elif'} s == {v}:")
            with w.indent():
                w(f"credit = {pay}[x]")
        w("else:")
        with w.indent():
            w(f"credit = {generic}")

    def settle_decided(self, w: _Src, p: int, k: int) -> None:
        """A decided slot: won (less its commission; down unless it stays up) or lost (down),
        and its progression's counter told."""
        a = self.a
        n = self.ns(p, k)
        decided = a["res"][p, k, :n] == 1
        won = a["won"][p, k, :n]
        sv = self.s(p, k)
        c = int(a["ctr"][p, k])
        if won[decided].any():
            w(f"if {self.const(won, 'int8', 'WON')}[x] != 0:" if not won[decided].all()
              else "if True:")
            with w.indent():
                if self.has_cpaid(p, k) and a["stays"][p, k] != 0:
                    # paid again to stay up: what a top-up counts from
                    w(f"c{p}_{k} = {self.commission(p, k, 's')}")
                    w(f"credit -= c{p}_{k}")
                elif a["commission_kind"][p, k] != 0:
                    w(f"credit -= {self.commission(p, k, 's')}")
                w(f"b{p} += credit")
                if a["stays"][p, k] == 0:
                    w(f"{sv} = 0")
                    w(f"ot{p} -= s")
                    if self.has_cpaid(p, k):
                        w(f"c{p}_{k} = 0")
                if c >= 0:
                    w(f"cw{c} = True")
            w("else:")
        else:
            w("if True:")
        with w.indent():
            w(f"b{p} += credit")
            w(f"{sv} = 0")
            w(f"ot{p} -= s")
            if self.has_cpaid(p, k):
                w(f"c{p}_{k} = 0")
            if c >= 0:
                w(f"cl{c} = True")

    def settle_moved(self, w: _Src, p: int, k: int) -> None:
        """A slot the roll moves: to its next state, or (a bet that travels) to another slot."""
        a = self.a
        n = self.ns(p, k)
        sv = self.s(p, k)
        w(f"d{p} = True")
        moves = a["res"][p, k, :n] == 2
        dsts = sorted({int(d) for d in a["dst"][p, k, :n][moves]})
        nx = self.const(a["nxt"][p, k, :n], "int64", "NX")
        w(f"nx = {nx}[x]")
        if dsts == [k]:
            if n > 1:
                w(f"t{p}_{k} = nx")
            return
        w(f"d = {self.const(a['dst'][p, k, :n], 'int64', 'DST')}[x]")
        if k not in dsts:
            # the bet travels (a come box to its number): add it where it goes without
            # a branch on the number
            for d in dsts:
                w(f"{self.s(p, d)} += s * (d == {d})")
                if self.ns(p, d) > 1:
                    w(f"t{p}_{d} = nx if d == {d} else t{p}_{d}")
            w(f"{sv} = 0")
            return
        for m, d in enumerate(dsts):
            w(f"{'if' if m == 0 else 'elif'} d == {d}:")
            with w.indent():
                if d == k:
                    w(f"t{p}_{k} = nx" if n > 1 else "pass")
                else:
                    w(f"{self.s(p, d)} += s")
                    if self.ns(p, d) > 1:
                        w(f"t{p}_{d} = nx")
                    w(f"{sv} = 0")


def source_for(compiled: Compiled) -> str:
    """The specialised kernel's Python source for ``compiled``."""
    return _Gen(compiled).generate()


def cache_dir() -> Path:
    """A writable directory for generated kernels and tables (``CROUPIER_KERNEL_DIR``, else
    the user's cache, else a temporary directory)."""
    env = os.environ.get("CROUPIER_KERNEL_DIR")
    base = Path(env) if env else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    candidates = [base if env else base / "croupier" / "kernels",
                  Path(tempfile.gettempdir()) / f"croupier-kernels-{os.getuid()}"]
    for d in candidates:
        try:
            d.mkdir(parents=True, exist_ok=True)
            probe = d / f".probe-{os.getpid()}-{threading.get_ident()}"
            probe.write_text("")
            probe.unlink()
            return d
        except OSError:
            continue
    raise OSError("no writable directory for the generated kernels")


def kernel_for(compiled: Compiled) -> Kernel:
    """The specialised kernel for ``compiled`` (generated, compiled and cached on first use)."""
    src = source_for(compiled)
    digest = hashlib.sha256(src.encode()).hexdigest()[:20]
    with _LOCK:
        fn = _KERNELS.get(digest)
        if fn is not None:
            return fn
        name = f"croupier_kernel_{digest}"
        path = cache_dir() / f"{name}.py"
        if not path.exists() or path.read_text() != src:
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(src)
            os.replace(tmp, path)
        module_spec = importlib.util.spec_from_file_location(name, path)
        assert module_spec is not None and module_spec.loader is not None
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        module_spec.loader.exec_module(module)
        fn = cast(Kernel, module.play)
        _KERNELS[digest] = fn
        return fn
