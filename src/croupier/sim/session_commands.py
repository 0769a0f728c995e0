"""``croupier session``: a strategy's session analysed exactly (no simulation)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from decimal import Decimal
from fractions import Fraction
from typing import Any

from croupier.errors import Malformed
from croupier.money import parse_amount

EPILOG = """The session is the simulator's (croupier simulate): the same strategy file, the same
rules, the same step; the analysis walks every state the session can reach (bankroll, the
table's point, every wager and progression level) instead of sampling. Exact rationals when the
chain is small (--exact / --float force one or the other); otherwise double precision with an
error bound. Exit status: 0 done, 2 a malformed input, a wager the rules refuse, or a strategy
whose session cannot be analysed (the reason is printed). See docs/session.md."""

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
MAX_STATES = 400_000  # as croupier.sim.session.MAX_STATES (not imported: numba loads with it)


def register(subparsers: Any) -> None:
    """Add the ``session`` command to the command line."""
    p = subparsers.add_parser(
        "session", help="exact session analysis: chance of the goal before ruin, rolls, bankroll",
        description=__doc__, epilog=EPILOG)
    p.add_argument("strategy", help="built-in name (see simulate --list) or strategy file")
    p.add_argument("--bankroll", default="1000", help="starting bankroll (default 1000)")
    p.add_argument("--goal", default=None, help="stop when the bankroll has grown by this much "
                   "(the strategy's win goal if not given; one of the two is needed)")
    p.add_argument("--rolls", type=int, default=100,
                   help="the bankroll's distribution after this many rolls (default 100)")
    p.add_argument("--rules", default=None, help="rule profile (as for simulate)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--exact", action="store_true", help="rationals, however large the chain")
    mode.add_argument("--float", action="store_true", help="double precision, with error bound")
    p.add_argument("--max-states", type=int, default=MAX_STATES,
                   help=f"refuse a session with more states than this (default {MAX_STATES:,})")
    p.add_argument("--json", action="store_true", help="print one JSON object (exact values "
                   "as fractions)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress on stderr (shown once the analysis has run a second)")
    p.set_defaults(func=run)


class Ticker:
    """Progress on stderr once the analysis has run a second: the phase and its count."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = self.last = time.perf_counter()
        self.shown = False

    def __call__(self, phase: str, done: int, total: int) -> None:
        now = time.perf_counter()
        if not self.enabled or now - self.start < 1.0 or now - self.last < 0.1:
            return
        self.last = now
        count = f"{done:,}" + (f" of {total:,}" if total else "")
        unit = " states" if phase == "exploring" else ""
        sys.stderr.write(f"\rsession: {phase} {count}{unit} ({now - self.start:.1f} s)   ")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        """End the progress line, if one was drawn."""
        if self.shown:
            sys.stderr.write("\n")


def _show(value: Fraction | float) -> str:
    return f"{float(value):.10g}"


def _json_value(value: Fraction | float) -> Any:
    if isinstance(value, Fraction):
        return {"fraction": f"{value.numerator}/{value.denominator}", "float": float(value)}
    return value


def run(args: argparse.Namespace) -> int:
    """Analyse the session and print the result."""
    from croupier.analysis.options import check_rules, check_table
    from croupier.sim.compile import StrategyRefused
    from croupier.sim.library import load_strategy
    from croupier.sim.session import Session, SessionRefused, analyse, statuses

    exact = True if args.exact else (False if args.float else None)
    t0 = time.perf_counter()
    try:
        if args.rolls < 0:
            raise Malformed("--rolls", "must be at least 0")
        if args.rules is not None:
            check_rules(args.rules)
        bankroll = parse_amount(args.bankroll, "--bankroll")
        goal = parse_amount(args.goal, "--goal") if args.goal is not None else None
        strategy = load_strategy(args.strategy)
        check_table(strategy.game, strategy.table, strategy.name)
        ticker = Ticker(not args.no_progress)
        try:
            session = Session(strategy, bankroll, goal, args.rolls, args.rules)
            chain, sol, dist = analyse(session, exact, args.max_states, ticker)
        finally:
            ticker.close()
    except (Malformed, StrategyRefused, SessionRefused, KeyError) as exc:
        print(f"croupier session: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - t0
    cents = Decimal(100)
    summary: dict[str, Any] = {
        "strategy": chain.compiled.strategies[0].name, "profile": chain.compiled.profile,
        "bankroll": str(Decimal(chain.start) / cents),
        "goal": str(chain.compiled.strategies[0].win_goal),
        "states": chain.size, "transient_states": sol.transient,
        "exact": sol.exact, "error_bound": sol.error_bound,
        "ends": {k: _json_value(sol.ends[k]) for k in statuses(sol.ends)},
        "expected_rolls": _json_value(sol.expected_rolls),
        "expected_rolls_error_bound": sol.rolls_error_bound,
        "after_rolls": {
            "rolls": dist.rolls, "exact": dist.exact, "error_bound": dist.error_bound,
            "mean": str((Decimal(dist.mean()) / cents).quantize(Decimal("0.01"))),
            "quantiles": {str(q): str(Decimal(dist.quantile(q)) / cents) for q in QUANTILES},
            "distribution": {str(Decimal(w) / cents): _json_value(p)
                             for w, p in sorted(dist.by_worth.items())},
        },
        "seconds": round(elapsed, 3),
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    _print(summary, sol.ends, sol.expected_rolls)
    return 0


def _print(summary: dict[str, Any], ends: dict[str, Fraction | float],
           expected: Fraction | float) -> None:
    how = "exact (rationals)" if summary["exact"] else \
        f"double precision, error <= {summary['error_bound']:.1e}"
    print(f"{summary['strategy']} under {summary['profile']}: bankroll {summary['bankroll']}, "
          f"goal +{summary['goal']}")
    print(f"{summary['states']:,} states ({summary['transient_states']:,} in play); {how}")
    for name in ends:
        print(f"  P({name:10s}) = {_show(ends[name])}")
    print(f"  expected rolls to the end = {_show(expected)}")
    after = summary["after_rolls"]
    qs = ", ".join(f"{float(q):.0%}: {v}" for q, v in after["quantiles"].items())
    print(f"after {after['rolls']} rolls: mean bankroll {after['mean']}; quantiles {qs}")
    print(f"({summary['seconds']:.2f} s)")
