"""Whether a live server's memory grows with the number of bets it has answered.

A real ``croupier serve`` (OS RNG, embedded SQLite or, with ``--postgres-url``, PostgreSQL in a
schema of its own) is started and set up as ``benchmarks/serve.py`` does (four craps tables;
``--players`` players spread over them, each with a $500 buy-in). Then, in phases of
``--bets`` bets each, every table's players bet $1 on the field, all at once over their own
keep-alive connections, and the table's dealer rolls after every ``--roll-every`` bets of that
table: the rolls settle the field bets, so rounds end and the table's ledger keeps growing.

After each phase the script reads the server's resident memory (``VmRSS`` in
``/proc/PID/status``) and its peak so far (``VmHWM``), and, through a ``sitecustomize`` hook
placed on the server's ``PYTHONPATH`` (SIGUSR1 writes the counts to a file), the objects the
garbage collector tracks as they are (uncollected cyclic garbage included: the server collects
its young generation only every 50 000 allocations and its oldest rarely) and the highest such
count the hook's once-a-second sampler saw during the phase. Nothing is collected between
phases, so garbage waiting for the server's own collections counts, as it does in production;
after the last phase the hook also counts after a full collection (what the process really
holds). The table prints each phase's figures and the bytes / objects per bet from the end of
the first (warm-up) phase to the last. A server whose memory is bounded shows a few bytes per
bet at most; one that keeps something per bet shows hundreds.

``--before SRC`` runs the same phases on another source tree first (e.g. ``src`` of a
``git worktree add /tmp/mem_before main``), so both are measured in one run.

    .venv/bin/python benchmarks/serve_memory.py                        # SQLite, ~1 minute
    .venv/bin/python benchmarks/serve_memory.py --before /tmp/mem_before/src
    .venv/bin/python benchmarks/serve_memory.py --postgres-url postgresql+psycopg://u:p@h/db

This is a measurement, not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from serve import _Conn, _login, _own_schema, _setup, _start

ROOT = Path(__file__).resolve().parents[1]

# Imported by the server at start-up (``site`` imports ``sitecustomize`` from the path): on
# SIGUSR1, the tracked objects as they are, their sampled peak and (when asked, by a flag file)
# the count after a full collection, written as JSON.
HOOK = '''
import gc, json, os, signal, threading, time

_peak = [0]

def _sample():
    # The tracked objects once a second as they are (uncollected garbage included): the peak
    # a phase reached, which a count taken between phases would miss.
    while True:
        _peak[0] = max(_peak[0], len(gc.get_objects()))
        time.sleep(1.0)

def _counts(signum, frame):
    path = os.environ["CROUPIER_MEMORY_COUNTS"]
    out = {"tracked": len(gc.get_objects()), "peak": _peak[0],
           "gc_runs": [g["collections"] for g in gc.get_stats()]}
    _peak[0] = 0
    if os.path.exists(path + ".collect"):
        gc.collect()
        out["live"] = len(gc.get_objects())
    with open(path + ".tmp", "w") as f:
        json.dump(out, f)
    os.replace(path + ".tmp", path)

signal.signal(signal.SIGUSR1, _counts)
threading.Thread(target=_sample, daemon=True).start()
'''


def _status_kib(pid: int, field: str) -> int:
    """A field of ``/proc/PID/status`` in KiB (VmRSS: resident now; VmHWM: its peak)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field}")


def _counts(pid: int, path: Path, collect: bool) -> dict[str, int]:
    """The server's object counts, asked for by SIGUSR1 and read from ``path``; with
    ``collect``, also after a full collection (which frees what was waiting for one)."""
    path.unlink(missing_ok=True)
    flag = path.with_name(path.name + ".collect")
    if collect:
        flag.touch()
    else:
        flag.unlink(missing_ok=True)
    os.kill(pid, signal.SIGUSR1)
    for _ in range(600):
        if path.exists():
            return dict(json.loads(path.read_text()))
        time.sleep(0.05)
    raise RuntimeError("the server did not write its object counts")


async def _table(base: str, table: str, heads: list[dict[str, str]], dealer: dict[str, str],
                 bets_rolls: tuple[int, int], prefix: str) -> tuple[int, int]:
    """``bets`` field bets at one table, ``roll_every`` at a time (``bets_rolls``; spread over
    its players, sent together), each group followed by a roll; (bets answered 200, rolls
    answered 200)."""
    bets, roll_every = bets_rolls
    body = json.dumps({"wager": "field", "amount": "1"}).encode()
    conns = [await _Conn.open(base) for _ in heads]
    roller = await _Conn.open(base)
    ok = rolls = 0

    def head(path: str, auth: str, key: str, length: int) -> bytes:
        return (f"POST {path} HTTP/1.1\r\nHost: bench\r\nAuthorization: {auth}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {length}\r\n"
                f"Idempotency-Key: {key}\r\n\r\n").encode()

    async def one(i: int) -> int:
        n = i % len(heads)
        status, _ = await conns[n].request(head(f"/tables/{table}/bets",
                                                heads[n]["Authorization"],
                                                f"{prefix}-{i}", len(body)), body)
        return status

    done = 0
    while done < bets:
        group = range(done, min(bets, done + roll_every))
        # One bet per player at a time, so a player's connection carries one request at once.
        for start in range(group.start, group.stop, len(heads)):
            statuses = await asyncio.gather(*(one(i) for i in range(
                start, min(group.stop, start + len(heads)))))
            ok += sum(s == 200 for s in statuses)
        done = group.stop
        status, _ = await roller.request(head(f"/tables/{table}/roll", dealer["Authorization"],
                                              uuid.uuid4().hex, 2), b"{}")
        rolls += status == 200
    for c in [*conns, roller]:
        c.close()
    return ok, rolls


async def _phase(base: str, seats: dict[str, list[tuple[str, dict[str, str]]]],
                 dealer: dict[str, str], bets: int, roll_every: int) -> tuple[int, int]:
    prefix = uuid.uuid4().hex[:12]
    per_table = bets // len(seats)
    results = await asyncio.gather(*(
        _table(base, table, [h for _, h in people], dealer, (per_table, roll_every),
               f"{prefix}-{table}") for table, people in seats.items()))
    return sum(r[0] for r in results), sum(r[1] for r in results)


def measure(database: str | None, src: str, players: int, phases: int, bets: int,
            roll_every: int) -> list[dict[str, Any]]:
    """The server's memory after each phase: one row per phase."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, _own_schema(database) as url:
        hook = Path(tmp) / "hook"
        hook.mkdir()
        (hook / "sitecustomize.py").write_text(HOOK)
        counts_file = Path(tmp) / "counts.json"
        os.environ["CROUPIER_MEMORY_COUNTS"] = str(counts_file)
        data = Path(tmp) / "data"
        data.mkdir()
        proc, base = _start(data, url, f"{src}{os.pathsep}{hook}")
        try:
            seats = _setup(base, players)
            dealer = _login(base, "dealer")
            total = 0
            for phase in range(phases + 1):  # phase 0 warms up
                t0 = time.perf_counter()
                ok, rolls = asyncio.run(_phase(base, seats, dealer, bets, roll_every))
                seconds = time.perf_counter() - t0
                total += ok
                rss, hwm = _status_kib(proc.pid, "VmRSS"), _status_kib(proc.pid, "VmHWM")
                counts = _counts(proc.pid, counts_file, collect=phase == phases)
                rows.append({"phase": phase, "bets": total, "rolls": rolls,
                             "bets_per_s": round(ok / seconds), "rss_kib": rss,
                             "hwm_kib": hwm, **counts})
                print(json.dumps(rows[-1]), flush=True)
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)
    return rows


def _per_bet(rows: list[dict[str, Any]], key: str, scale: float = 1.0) -> float:
    """Growth of ``key`` per bet from the end of the warm-up to the last phase."""
    first, last = rows[0], rows[-1]
    return (last[key] - first[key]) * scale / max(1, last["bets"] - first["bets"])


def _print(label: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n{label}")
    print(f"{'phase':>5} {'bets':>7} {'bets/s':>7} {'RSS MiB':>8} {'peak MiB':>8} "
          f"{'tracked':>9} {'peak trk':>9}  collections by generation")
    for r in rows:
        print(f"{r['phase']:>5} {r['bets']:>7} {r['bets_per_s']:>7} {r['rss_kib'] / 1024:>8.1f} "
              f"{r['hwm_kib'] / 1024:>8.1f} {r['tracked']:>9} {r['peak']:>9}  "
              f"{'/'.join(map(str, r['gc_runs']))}")
    print(f"per bet after the warm-up: RSS {_per_bet(rows, 'rss_kib', 1024):.0f} bytes, "
          f"peak RSS {_per_bet(rows, 'hwm_kib', 1024):.0f} bytes, "
          f"tracked objects {_per_bet(rows, 'tracked'):.3f}; after a full collection at the "
          f"end, {rows[-1]['live']} objects live")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--phases", type=int, default=4, help="measured phases after a warm-up")
    parser.add_argument("--bets", type=int, default=4000, help="bets per phase, all tables")
    parser.add_argument("--roll-every", type=int, default=20, help="bets per table per roll")
    parser.add_argument("--postgres-url", default=None,
                        help="PostgreSQL instead of SQLite (a schema of its own, dropped after)")
    parser.add_argument("--before", metavar="SRC",
                        help="also measure this source tree first (e.g. a checkout of main)")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} CPUs", flush=True)
    runs = ([("before: " + args.before, args.before)] if args.before else []) + [
        ("this tree: " + str(ROOT / "src"), str(ROOT / "src"))]
    tables = [(label, measure(args.postgres_url, src, args.players, args.phases, args.bets,
                              args.roll_every)) for label, src in runs]
    for label, rows in tables:
        _print(label, rows)
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
