"""The capacity table of docs/capacity.md, in one run (``benchmarks/serve.py --table``).

One node on SQLite and on PostgreSQL, each unpaced (players bet again as soon as answered) and
paced (``--rate`` bets/s offered in all, latency counted from when each bet was due); two
nodes on PostgreSQL (the players talking to any node, half their bets forwarded, and to each
table's owner, as a table-aware balancer would send them); the fail-over time over
``--failover-kills`` kills of a busy table's owner (median, max); the load average at the
start of each row. With ``--before SRC`` the one-node rows also run on another source tree
(an older commit's ``src``), each right after the same row on this tree, so both are measured
under the same load.

    .venv/bin/python benchmarks/serve.py --table --postgres-url URL
    .venv/bin/python benchmarks/serve.py --table --before /tmp/old/src --failover-kills 0

This is a measurement, not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from serve import Load, measure
from serve_cluster import failover, measure_nodes

DEFAULT_RATE = 1000.0
DEFAULT_SECONDS = 6.0
DEFAULT_KILLS = 10


def _rows(args: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """Every row of the table: (setup, code, result)."""
    rate = args.rate or DEFAULT_RATE
    seconds = min(args.seconds, DEFAULT_SECONDS)
    trees = [("after", None)] + ([("before", args.before)] if args.before else [])
    rows = []
    for database in (None, args.postgres_url):
        name = "1 node, " + ("PostgreSQL" if database else "SQLite")
        for paced in (0.0, rate):
            setup = f"{name}, " + (f"paced {paced:g}/s" if paced else "unpaced")
            for code, src in trees:
                result = measure(database, Load(args.players, seconds, args.client_procs, paced),
                                 src)
                print(f"  {setup} ({code}): {result['bets_per_s']} bets/s, p99 "
                      f"{result['p99_ms']} ms", flush=True)
                rows.append((setup, code, result))
    for affinity, how in ((False, "any node"), (True, "each table's owner")):
        result = measure_nodes(args.postgres_url, 2, Load(args.players, seconds, args.client_procs),
                               affinity=affinity)
        rows.append((f"2 nodes, PostgreSQL, unpaced, {how}", "after", result))
    return rows


def _cell(value: Any) -> str:
    return "-" if value is None else str(value)


def run_table(args: Any) -> int:
    if not args.postgres_url:
        print("the table needs PostgreSQL: give --postgres-url or set CROUPIER_TEST_POSTGRES_URL",
              file=sys.stderr)
        return 2
    print(f"load average at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs",
          flush=True)
    rows = _rows(args)
    kills = DEFAULT_KILLS if args.failover_kills is None else args.failover_kills
    over = failover(args.postgres_url, kills) if kills > 0 else None
    print("\n| setup | code | load | bets/s | p50 ms | p99 ms | server CPU ms/bet | "
          "PostgreSQL CPU ms/bet | errors | ledger |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for setup, code, r in rows:
        pg = (round(1000 * r["postgres_cpu"] * r["seconds"] / r["bets"], 3)
              if r.get("postgres_cpu") is not None and r["bets"] else None)
        print(f"| {setup} | {code} | {r['load_before']} | {r['bets_per_s']} | "
              f"{_cell(r['p50_ms'])} | {_cell(r['p99_ms'])} | {_cell(r['server_ms_per_bet'])} | "
              f"{_cell(pg)} | {r['errors']} | {'ok' if r['ledger_ok'] else 'BAD'} |")
    if over is not None:
        print(f"\nfail-over over {over['kills']} kills: median {over['median_s']} s, max "
              f"{over['max_s']} s; {over['bets']} bets accepted, {over['failed']} failed; "
              f"ledger {'ok' if over['ledger_ok'] else 'BAD'}; load {over['load_before']}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0
