"""Timings of ``croupier session``'s exact analysis: three strategies, bankrolls of 100, 1,000
and 10,000 units (the goal as large as the bankroll; a unit is the strategy's stake).

    .venv/bin/python benchmarks/session.py [--units 100,1000,10000] [--max-states N]

For each: the states, whether the solution is exact or double precision (with its error
bound), P(goal), the expected rolls, and the seconds to explore, solve and give the bankroll's
distribution after 100 rolls. A chain past ``--max-states`` is refused and says so.
"""

from __future__ import annotations

import argparse
import os
import time
from decimal import Decimal

from croupier.sim.library import BUILT_IN
from croupier.sim.session import SessionRefused, distribution, explore, session_table, solve

STRATEGIES = (("pass-line", 10), ("place-6-8", 12), ("place-6-8-press-regress", 12))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--units", default="100,1000,10000")
    ap.add_argument("--max-states", type=int, default=3_000_000)
    args = ap.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    print(f"{'strategy':26s} {'units':>6s} {'states':>10s} {'method':>22s} {'P(goal)':>12s} "
          f"{'E[rolls]':>12s} {'explore':>8s} {'solve':>7s} {'N=100':>7s}")
    for name, unit in STRATEGIES:
        for units in (int(u) for u in args.units.split(",")):
            money = Decimal(unit * units)
            t0 = time.perf_counter()
            try:
                c = session_table(BUILT_IN[name], money, None)
                chain = explore(c, unit * units * 100, args.max_states)
            except SessionRefused as exc:
                print(f"{name:26s} {units:6d} refused after {time.perf_counter() - t0:.1f} s: "
                      f"{exc}", flush=True)
                continue
            t1 = time.perf_counter()
            sol = solve(chain)
            t2 = time.perf_counter()
            distribution(chain, 100)
            t3 = time.perf_counter()
            method = "exact" if sol.exact else f"float, err<={sol.error_bound:.0e}"
            print(f"{name:26s} {units:6d} {chain.size:10,d} {method:>22s} "
                  f"{float(sol.ends.get('win goal', 0)):12.4e} {float(sol.expected_rolls):12,.0f} "
                  f"{t1 - t0:8.1f} {t2 - t1:7.1f} {t3 - t2:7.2f}", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
