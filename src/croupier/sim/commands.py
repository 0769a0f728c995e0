"""``croupier simulate``: play strategies over many sessions and summarize them."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any

from croupier.errors import Malformed
from croupier.games import game
from croupier.money import parse_amount

if TYPE_CHECKING:
    from croupier.sim.compile import Compiled
    from croupier.sim.engine import Results, Simulation

EPILOG = """STRATEGY is a built-in name (see --list) or a strategy file (TOML, see
docs/strategies.md); several joined by commas sit at one table sharing the dice (the first
one's rules and table options; the others name the same or none). Exit status: 0 done, 2 a
malformed input, an option the simulator cannot honour, or a wager the table's rules refuse
(the reason is printed)."""


def register(subparsers: Any) -> None:
    """Add the ``simulate`` command to the command line."""
    p = subparsers.add_parser("simulate", help="simulate a betting strategy over many sessions",
                              description=__doc__, epilog=EPILOG)
    p.add_argument("strategy", nargs="?", help="built-in name or strategy file; a,b,c for "
                   "several players")
    p.add_argument("--list", action="store_true", help="list the built-in strategies")
    p.add_argument("--sessions", type=int, default=10000, help="sessions to play (default 10000)")
    p.add_argument("--rolls", type=int, default=1000, help="rolls (spins) per session at most")
    p.add_argument("--bankroll", default="1000", help="each player's starting bankroll")
    p.add_argument("--seed", type=int, default=0, help="the dice seed; results depend only on it (default 0)")
    p.add_argument("--rules", default=None, help="rule profile (default: the strategy's, else "
                   "nj-13-69f for craps, nj-casino-night for roulette)")
    p.add_argument("--rolls-per-hour", type=float, default=100.0,
                   help="table speed, for figures per hour (default 100)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--csv", metavar="FILE", help="write per-session results as CSV")
    p.add_argument("--plot", metavar="DIR", help="write charts into DIR")
    p.add_argument("--plot-format", choices=("png", "svg"), default="png", help="chart format (default png)")
    p.add_argument("--paths", type=int, default=20, help="bankroll paths kept for --plot")
    p.add_argument("--chart", metavar="FILE", help="one chart comparing the strategies (a,b,c "
                   "share the dice): survival and final bankroll; .svg or .png")
    p.add_argument("--trace", metavar="SESSION", type=int, help="follow session SESSION (0 is "
                   "the first) roll by roll: every bet, roll, settlement and bankroll, under "
                   "the same seed; nothing else is simulated")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--workers", type=int, help="run on a local Dask cluster of N workers")
    group.add_argument("--cluster", metavar="tcp://HOST:PORT", help="run on a Dask scheduler")
    p.set_defaults(func=run)


class Bar:
    """A progress bar on stderr, redrawn at most ten times a second."""

    def __init__(self, total: int, enabled: bool, unit: str = "rolls") -> None:
        self.total, self.done, self.enabled = max(total, 1), 0, enabled
        self.unit = unit
        self.start = self.last = time.perf_counter()

    def __call__(self, n: int) -> None:
        self.done += n
        now = time.perf_counter()
        if self.enabled and (now - self.last > 0.1 or self.done >= self.total):
            self.last = now
            self.draw(now)

    def draw(self, now: float) -> None:
        """Redraw the bar at time ``now``."""
        frac = min(1.0, self.done / self.total)
        rate = self.done / max(now - self.start, 1e-9)
        bar = "#" * int(frac * 30)
        sys.stderr.write(f"\rsimulate [{bar:<30}] {frac:6.1%} {rate / 1e6:8.1f} M {self.unit}/s")
        sys.stderr.flush()

    def close(self) -> None:
        """Draw the bar complete and end its line."""
        if self.enabled:
            self.draw(time.perf_counter())
            sys.stderr.write("\n")


MAX_PLAYER_SESSIONS = 10**8  # sessions times players: about 5 GB of per-session results
NOT_WITH_TRACE = ("json", "csv", "plot", "chart", "workers", "cluster")


def check_options(args: argparse.Namespace) -> None:
    """Refuse, naming the option, what the simulation cannot do as asked (rather than
    ignore it or fail inside)."""
    from croupier.analysis.options import check_rules

    if not args.strategy:
        raise Malformed("STRATEGY", "name a strategy (--list shows the built-in ones)")
    if args.rules is not None:
        check_rules(args.rules)
    _check_numbers(args)
    if args.chart and not args.chart.lower().endswith((".svg", ".png")):
        raise Malformed("--chart", f"{args.chart}: name an .svg or a .png file")
    if args.trace is not None:
        given = [f"--{name}" for name in NOT_WITH_TRACE if getattr(args, name)]
        if given:
            raise Malformed("--trace", f"follows one session on the reference engine and "
                            f"simulates nothing else; not with {', '.join(given)}")


def _check_numbers(args: argparse.Namespace) -> None:
    """Refuse the numeric options out of their ranges, naming the first."""
    if args.sessions < 1 or args.rolls < 1:
        raise Malformed("--sessions/--rolls", "must be at least 1")
    if args.seed < 0:
        raise Malformed("--seed", f"must be 0 or more: {args.seed}")
    if not 0 < args.rolls_per_hour < float("inf"):
        raise Malformed("--rolls-per-hour", f"must be a number above 0: {args.rolls_per_hour}")
    if args.paths < 0:
        raise Malformed("--paths", f"must be 0 or more: {args.paths}")
    if args.workers is not None and args.workers < 1:
        raise Malformed("--workers", f"must be at least 1: {args.workers}")


def run(args: argparse.Namespace) -> int:
    """Run ``croupier simulate`` with the parsed arguments; the exit status."""
    from croupier.sim.compile import StrategyRefused
    from croupier.sim.engine import Simulation
    from croupier.sim.library import BUILT_IN

    if args.list:
        for name, s in BUILT_IN.items():
            print(f"{name:28s} {s.game:8s} {' '.join(s.description.split())}")
        return 0
    try:
        check_options(args)
        bankroll = int(parse_amount(args.bankroll, "--bankroll") * 100)
        compiled = _compile(args)
    except (Malformed, StrategyRefused, KeyError) as exc:
        print(f"croupier simulate: {exc}", file=sys.stderr)
        return 2
    if args.trace is not None:
        return _trace(compiled, args, bankroll)
    sim = Simulation(sessions=args.sessions, rolls=args.rolls, bankroll=bankroll, seed=args.seed,
                     n_hist=args.paths if args.plot else 0,
                     stride=max(1, -(-args.rolls // 1000)))
    bar = Bar(args.sessions * args.rolls, not args.no_progress,
              game(compiled.game).decisions)
    t0 = time.perf_counter()
    res = _play(args, compiled, sim, bar)
    bar.close()
    _report(args, compiled, sim, res, time.perf_counter() - t0)
    return 0


def _compile(args: argparse.Namespace) -> Compiled:
    """The strategies named in ``args``, checked against their tables and compiled."""
    from croupier.analysis.options import check_table
    from croupier.sim.compile import compile_table
    from croupier.sim.library import strategies_for

    strategies = strategies_for(args.strategy.split(","))
    for strategy in strategies:  # the option names, with the nearest suggested
        check_table(strategy.game, strategy.table, strategy.name)
    compiled = compile_table(strategies, args.rules)
    if compiled.players * args.sessions > MAX_PLAYER_SESSIONS:
        raise Malformed("--sessions", f"at most {MAX_PLAYER_SESSIONS // compiled.players:,} "
                        f"for {compiled.players} player(s): every session's results are "
                        "kept in memory")
    return compiled


def _play(args: argparse.Namespace, compiled: Compiled, sim: Simulation, bar: Bar) -> Results:
    """Play ``sim`` here, or on a Dask cluster (``--cluster``) or local workers
    (``--workers``)."""
    from croupier.sim.engine import simulate, simulate_dask

    if not (args.workers or args.cluster):
        return simulate(compiled, sim, progress=bar)
    from distributed import Client, LocalCluster

    if args.cluster:
        with Client(args.cluster) as client:  # type: ignore[no-untyped-call]
            return simulate_dask(compiled, sim, client=client, progress=bar)
    with LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=args.workers, threads_per_worker=1, processes=False,
            dashboard_address=None) as cluster, \
            Client(cluster) as client:  # type: ignore[no-untyped-call]
        return simulate_dask(compiled, sim, client=client, progress=bar)


def _report(args: argparse.Namespace, compiled: Compiled, sim: Simulation, res: Results,
            elapsed: float) -> None:
    """Write what the options ask for: the files, then the summary (JSON or a table)."""
    from croupier.sim.report import summarize, table_text, write_csv, write_plots

    summary = summarize(compiled, res, sim, rolls_per_hour=args.rolls_per_hour)
    if args.csv:
        write_csv(args.csv, compiled, res)
    if args.plot:
        files = write_plots(args.plot, compiled, res, sim.rolls, sim.bankroll, args.plot_format)
        if not args.json:
            print(f"charts: {', '.join(files)}", file=sys.stderr)
    if args.chart:
        _chart(args, compiled, res, sim.bankroll)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(table_text(summary))
        roll = game(compiled.game).decisions
        print(f"\n{summary['rolls']} {roll} in {elapsed:.2f} s "
              f"({summary['rolls'] / max(elapsed, 1e-9) / 1e6:.1f} M {roll}/s)")


def _trace(compiled: Any, args: argparse.Namespace, bankroll: int) -> int:
    """``--trace N``: print session N roll by roll (the reference engine on its dice)."""
    from decimal import Decimal

    from croupier.sim.trace import trace_session

    if args.trace < 0:
        print("croupier simulate: --trace: a session number, 0 or more", file=sys.stderr)
        return 2
    trace = trace_session(compiled, args.trace, args.rolls, Decimal(bankroll) / 100, args.seed)
    sys.stdout.write("\n".join(trace.lines) + "\n")
    return 0


def _chart(args: argparse.Namespace, compiled: Any, res: Any, bankroll: int) -> None:
    """``--chart FILE``: the strategies compared on one chart (the name checked before)."""
    from croupier.sim.report import write_comparison

    written = write_comparison(args.chart, compiled, res, args.rolls, bankroll)
    if not args.json:
        print(f"chart: {written}", file=sys.stderr)
