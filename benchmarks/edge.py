"""The whole exact table for one profile (``croupier edge``) against a 1 s bound: an analyst
changing an option and asking again should not wait.

Each repetition computes every wager the table offers, from scratch (the analysis keeps no
cache between calls): the chains of the line bets, place, buy and lay under both commission
timings, the propositions, the 17 hops, the odds and the fire bet under both pay tables
(448 states). Printed: the median of the repetitions and its ratio to the bound (below 1 is
within it), plus the whole-process time including imports.

    .venv/bin/python benchmarks/edge.py                     # nj-13-69f, 7 repetitions
    .venv/bin/python benchmarks/edge.py --rules nj-casino-night --game roulette

This is a measurement, not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import argparse
import statistics
import time

START = time.perf_counter()

from croupier.analysis.exact import analyse  # noqa: E402

BOUND_SECONDS = 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="craps")
    parser.add_argument("--rules", default="nj-13-69f")
    parser.add_argument("--repetitions", type=int, default=7)
    args = parser.parse_args()
    times = []
    rows = 0
    for _ in range(args.repetitions):
        t0 = time.perf_counter()
        rows = len(analyse(args.game, args.rules, {}))
        times.append(time.perf_counter() - t0)
    median = statistics.median(times)
    print(f"{args.game} under {args.rules}: {rows} wagers")
    print(f"median of {args.repetitions}: {median:.4f} s "
          f"(min {min(times):.4f}, max {max(times):.4f})")
    print(f"ratio to the {BOUND_SECONDS:g} s bound: {median / BOUND_SECONDS:.3f}")
    print(f"whole process so far, imports included: {time.perf_counter() - START:.3f} s")


if __name__ == "__main__":
    main()
