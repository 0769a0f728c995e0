"""Issue 6: the live table server's bets per second and p50/p99 latency at 100 concurrent players.

A real ``croupier serve`` (OS RNG) is started in a subprocess on a free loopback port, on
embedded SQLite (WAL) and, when a URL is given, on PostgreSQL. 100 players (four tables of 25,
as a table has limited room) each bet $1 on the field over and over, every request a full
money-moving action: bearer token, idempotency key, engine check, one database transaction
with the event, the seat and the stored response. Each table's dealer rolls every 0.25 s (the
rolls settle the field bets in the same transactions). Latency is measured by the clients from
request to response; the clients run in their own processes beside the server, on the same
machine, so the figures are for the whole loop on this hardware.

    .venv/bin/python benchmarks/serve.py                       # SQLite, 10 s
    .venv/bin/python benchmarks/serve.py --postgres-url postgresql+psycopg://u:p@127.0.0.1/db
    (or set CROUPIER_TEST_POSTGRES_URL)

This is a measurement, not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

PASSWORD = "bench-pass-123"
TABLES = 4
ROLL_EVERY = 0.25


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(data_dir: Path, database: str | None) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    profile = os.environ.get("CROUPIER_BENCH_PROFILE")  # a file: cProfile the server into it
    cmd = [sys.executable, *(["-m", "cProfile", "-o", profile] if profile else []),
           "-m", "croupier", "serve", "--port", str(port), "--data-dir",
           str(data_dir), "--demo-password", PASSWORD]
    if database:
        cmd += ["--database", database]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(base + "/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("server did not start")


def _login(base: str, who: str) -> dict[str, str]:
    r = httpx.post(base + "/auth/login", json={"username": who, "password": PASSWORD}, timeout=30)
    r.raise_for_status()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _setup(base: str, players: int) -> dict[str, list[tuple[str, dict[str, str]]]]:
    admin = _login(base, "admin")
    seats: dict[str, list[tuple[str, dict[str, str]]]] = {}
    dealer = _login(base, "dealer")
    serials = [f"NJ-{i:04d}" for i in range(1, 6)]
    with httpx.Client(base_url=base, timeout=30) as c:
        for t in range(TABLES):
            table = f"bench-{t}"
            c.post("/tables", json={"id": table, "game": "craps", "profile": "nj-13-69f",
                                    "capacity": 30}, headers=admin).raise_for_status()
            for i in range(1, 6):
                serial = f"B{t}-{i}"
                c.post("/equipment/dice", json={"serial": serial, "set_name": "bench",
                                                "table_id": table}, headers=admin)
                from croupier.service.equipment import passing_record
                c.post(f"/equipment/dice/{serial}/inspections", json=passing_record(),
                       headers=admin).raise_for_status()
            seats[table] = []
        del serials
        for i in range(players):
            name = f"b{i:03d}"
            table = f"bench-{i % TABLES}"
            c.post("/users", json={"username": name, "password": PASSWORD, "role": "player"},
                   headers=admin).raise_for_status()
            c.post(f"/wallets/{name}/deposits", json={"amount": "100000"},
                   headers={**admin, "Idempotency-Key": uuid.uuid4().hex}).raise_for_status()
            head = _login(base, name)
            c.post(f"/tables/{table}/buy-in", json={"amount": "50000"},
                   headers={**head, "Idempotency-Key": uuid.uuid4().hex}).raise_for_status()
            seats[table].append((name, head))
        for t in range(TABLES):
            table = f"bench-{t}"
            key = {"Idempotency-Key": uuid.uuid4().hex}
            c.post(f"/tables/{table}/dice/offer", json={"serials": [f"B{t}-{i}" for i in
                                                                   range(1, 6)]},
                   headers={**dealer, **key}).raise_for_status()
            c.post(f"/tables/{table}/dice/select", json={"serials": [f"B{t}-1", f"B{t}-2"]},
                   headers=dealer).raise_for_status()
    return seats


def _client(base: str, work: list[tuple[str, dict[str, str]]], seconds: float,
            start_at: float, out: Any) -> None:
    """One client process: its players bet as fast as answers come back."""
    async def run() -> tuple[list[float], int, int]:
        latencies: list[float] = []
        errors = 0
        refused = 0
        limits = httpx.Limits(max_connections=len(work) + 4)
        async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as c:
            while time.time() < start_at:
                await asyncio.sleep(0.005)
            end = start_at + seconds

            async def player(table: str, head: dict[str, str]) -> None:
                nonlocal errors, refused
                while time.time() < end:
                    t0 = time.perf_counter()
                    try:
                        r = await c.post(f"/tables/{table}/bets",
                                         json={"wager": "field", "amount": "1"},
                                         headers={**head, "Idempotency-Key": uuid.uuid4().hex})
                    except httpx.HTTPError:
                        errors += 1
                        continue
                    dt = time.perf_counter() - t0
                    if r.status_code == 200:
                        latencies.append(dt)
                    elif r.status_code == 409:
                        refused += 1
                    else:
                        errors += 1

            await asyncio.gather(*(player(t, h) for t, h in work))
        return latencies, errors, refused

    out.put(asyncio.run(run()))


def _dealer(base: str, seconds: float, start_at: float, out: Any) -> None:
    head = _login(base, "dealer")
    rolls = 0
    with httpx.Client(base_url=base, timeout=30) as c:
        while time.time() < start_at:
            time.sleep(0.005)
        while time.time() < start_at + seconds:
            for t in range(TABLES):
                r = c.post(f"/tables/bench-{t}/roll", json={},
                           headers={**head, "Idempotency-Key": uuid.uuid4().hex})
                rolls += r.status_code == 200
            time.sleep(ROLL_EVERY)
    out.put(rolls)


def measure(database: str | None, players: int, seconds: float, procs: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        if database:
            import sqlalchemy as sa

            engine = sa.create_engine(database)
            with engine.begin() as conn:
                conn.exec_driver_sql("DROP SCHEMA IF EXISTS public CASCADE")
                conn.exec_driver_sql("CREATE SCHEMA public")
            engine.dispose()
        proc, base = _start(Path(tmp), database)
        try:
            seats = _setup(base, players)
            work = [(t, h) for t, people in seats.items() for _, h in people]
            ctx = multiprocessing.get_context("spawn")
            out = ctx.Queue()
            start_at = time.time() + 3.0
            workers = [ctx.Process(target=_client, args=(base, work[i::procs], seconds,
                                                        start_at, out)) for i in range(procs)]
            workers.append(ctx.Process(target=_dealer, args=(base, seconds, start_at, out)))
            for w in workers:
                w.start()
            results = [out.get(timeout=seconds + 120) for _ in workers]
            for w in workers:
                w.join(30)
            verify = httpx.get(base + "/audit/verify", headers=_login(base, "auditor"),
                               timeout=300).json()
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)
    latencies = sorted(x for r in results if isinstance(r, tuple) for x in r[0])
    errors = sum(r[1] for r in results if isinstance(r, tuple))
    refused = sum(r[2] for r in results if isinstance(r, tuple))
    rolls = sum(r for r in results if isinstance(r, int))
    n = len(latencies)
    return {
        "database": "postgresql" if database else "sqlite",
        "players": players, "seconds": seconds, "bets": n, "bets_per_s": round(n / seconds, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 2) if n else None,
        "p99_ms": round(1000 * latencies[min(n - 1, int(n * 0.99))], 2) if n else None,
        "rolls": rolls, "errors": errors, "refused": refused, "ledger_ok": verify.get("ok"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument("--postgres-url", default=os.environ.get("CROUPIER_TEST_POSTGRES_URL"))
    parser.add_argument("--skip-sqlite", action="store_true")
    args = parser.parse_args()
    rows = []
    if not args.skip_sqlite:
        rows.append(measure(None, args.players, args.seconds, args.client_procs))
        print(json.dumps(rows[-1]), flush=True)
    if args.postgres_url:
        rows.append(measure(args.postgres_url, args.players, args.seconds, args.client_procs))
        print(json.dumps(rows[-1]), flush=True)
    print(f"\n{'database':<11} {'bets/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'bets':>7} "
          f"{'rolls':>6} {'errors':>6} ledger")
    for r in rows:
        print(f"{r['database']:<11} {r['bets_per_s']:>8} {r['p50_ms']:>8} {r['p99_ms']:>8} "
              f"{r['bets']:>7} {r['rolls']:>6} {r['errors']:>6} {'ok' if r['ledger_ok'] else 'BAD'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
