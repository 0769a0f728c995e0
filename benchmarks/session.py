"""Timings of ``croupier session``: every built-in strategy at a bankroll and goal of $500 and
the bankroll's distribution after 100 rolls (as ``croupier session NAME --bankroll 500
--goal 500 --rolls 100``), and place-6-8-press-regress at $1,000, with this checkout's code
and, beside it in the same run, another checkout's.

    .venv/bin/python benchmarks/session.py [--before CHECKOUT] [--timeout 60]
                                           [--cases NAME:AMOUNT,...] [--max-states N]

Each case runs in a child process (its ``src`` on ``PYTHONPATH``), stopped after
``--timeout`` seconds; the seconds are those of the analysis (exploring the chain, solving
it, the distribution after 100 rolls), the interpreter's start and imports apart (``wall``:
with them, the whole child process, as a person waits for it). A case past
the state limit is refused, and says so. ``--before`` is e.g. a ``git worktree add
/tmp/session-before main`` of the code before; each case runs with it and then with this
checkout, back to back, and ``ratio`` is before's seconds over now's. One small session per
checkout runs first, so that numba's cached code is compiled and read before the timings.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def one(name: str, amount: str, max_states: int | None) -> dict[str, Any]:
    """One analysis, in this process: what it gives and how long it takes."""
    from croupier.sim.library import BUILT_IN
    from croupier.sim.session import Session, SessionRefused, analyse

    money = Decimal(amount)
    t0 = time.perf_counter()
    try:
        session = Session(BUILT_IN[name], money, money, 100)
        chain, sol, _ = (analyse(session) if max_states is None
                         else analyse(session, max_states=max_states))
    except SessionRefused as exc:
        return {"refused": str(exc), "seconds": time.perf_counter() - t0}
    return {"seconds": time.perf_counter() - t0, "states": chain.size, "exact": sol.exact,
            "bound": sol.error_bound, "goal": float(sol.ends.get("win goal", 0)),
            "rolls": float(sol.expected_rolls)}


def run(checkout: Path, name: str, amount: str, args: argparse.Namespace) -> dict[str, Any]:
    """:func:`one` with ``checkout``'s code, in a child process."""
    env = dict(os.environ, PYTHONPATH=str(checkout / "src"))
    cmd = [sys.executable, __file__, "--one", f"{name}:{amount}"]
    if args.max_states is not None:
        cmd += ["--max-states", str(args.max_states)]
    t0 = time.perf_counter()
    try:
        got = subprocess.run(cmd, env=env, capture_output=True, text=True,
                             timeout=args.timeout, check=True)
    except subprocess.TimeoutExpired:
        return {"timeout": args.timeout}
    result: dict[str, Any] = json.loads(got.stdout)
    result["wall"] = time.perf_counter() - t0  # the interpreter's start and imports too
    return result


def ratio(before: dict[str, Any], now: dict[str, Any]) -> str:
    """How many times quicker now is (a lower bound where before ran out of time)."""
    if "seconds" not in now:
        return ""
    if "timeout" in before:
        return f">{before['timeout'] / now['seconds']:.1f}x"
    return f"{before['seconds'] / now['seconds']:.1f}x"


def cell(r: dict[str, Any]) -> str:
    """A timing as the table shows it."""
    if "timeout" in r:
        return f"> {r['timeout']:.0f} s"
    if "refused" in r:
        return f"refused ({r['seconds']:.1f} s)"
    return f"{r['seconds']:.1f} s"


def cases(spec: str | None) -> list[tuple[str, str]]:
    """The (strategy, amount) pairs to time."""
    if spec:
        return [(c.split(":")[0], c.split(":")[1]) for c in spec.split(",")]
    sys.path.insert(0, str(ROOT / "src"))
    from croupier.sim.library import BUILT_IN

    return [(n, "500") for n in BUILT_IN] + [("place-6-8-press-regress", "1000")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--before", metavar="CHECKOUT", help="time this checkout's code too")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--cases", help="NAME:AMOUNT,... (default: every built-in at 500 and "
                    "place-6-8-press-regress at 1000)")
    ap.add_argument("--max-states", type=int, default=None,
                    help="the state limit (default: each checkout's own)")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        name, amount = args.one.split(":")
        print(json.dumps(one(name, amount, args.max_states)))
        return 0
    checkouts = [Path(args.before).resolve()] if args.before else []
    for checkout in [*checkouts, ROOT]:  # numba's cached code compiled and read once
        run(checkout, "pass-line", "20", args)
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    head = f"{'strategy':28s} {'$':>5s} "
    head += f"{'before':>16s} " if args.before else ""
    print(head + f"{'now':>16s} {'ratio':>6s} {'wall':>6s} {'states':>10s} {'method':>22s} "
          f"{'P(goal)':>10s} {'E[rolls]':>10s}")
    for name, amount in cases(args.cases):
        line = f"{name:28s} {amount:>5s} "
        before: dict[str, Any] = {}
        if args.before:
            before = run(checkouts[0], name, amount, args)
            line += f"{cell(before):>16s} "
        now = run(ROOT, name, amount, args)
        wall = f"{now['wall']:.1f}" if "wall" in now else ""
        line += f"{cell(now):>16s} {ratio(before, now) if before else '':>6s} {wall:>6s} "
        if "states" in now:
            method = "exact" if now["exact"] else f"float, err<={now['bound']:.0e}"
            line += (f"{now['states']:10,d} {method:>22s} {now['goal']:10.4g} "
                     f"{now['rolls']:10,.0f}")
        print(line, flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
