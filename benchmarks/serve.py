"""The live table server's bets per second and p50/p99 latency at 100 concurrent players, and
the same with and without a flood of log-ins in one run (a log-in hashes a password on
purpose slowly: the bets must not wait behind it).

A real ``croupier serve`` (OS RNG) is started in a subprocess on a free loopback port, on
embedded SQLite (WAL) and, when a URL is given, on PostgreSQL. 100 players (four tables of 25,
as a table has limited room) each bet $1 on the field over and over, every request a full
money-moving action: bearer token, idempotency key, engine check, one database transaction
with the event, the seat and the stored response. Each table's dealer rolls every 0.25 s (the
rolls settle the field bets in the same transactions). Latency is measured by the clients from
request to response; the clients run in their own processes beside the server, on the same
machine, so the figures are for the whole loop on this hardware.

The clients speak raw HTTP/1.1 over keep-alive asyncio streams (one connection per player): an
httpx client spends more CPU per request than the server does, and measured itself. By default
each player bets again as soon as it is answered (saturation: with 100 players, latency is
100 / throughput by Little's law); ``--rate R`` paces the players to R bets/s in all and counts
each bet's latency from when it was due. The table also shows the server's CPU per bet (the
robust figure on a shared machine), the cores used by the server, the clients and PostgreSQL,
and the load average before the run. The load runs for :data:`WARMUP` seconds before the
measured window opens (the first answers of a run pay for connections and caches warming up
in the clients and the server, not for what a bet costs).

``--login-rate R`` (default 13) runs each measurement twice over on the same server: first
``--seconds`` without log-ins, then ``--seconds`` while another process logs in R times a
second (real argon2 checks); the table shows bet p50/p99 for both halves and their ratio.
On PostgreSQL the benchmark makes a schema of its own (``croupier_bench_<random>``) in the
database given, runs there and drops only that schema: it never touches another schema.

Before croupier, the same clients drive a bare ASGI app under the same uvicorn settings
(benchmarks/bare_asgi.py: reads the body, checks the bearer token in a dict, answers a small
JSON body): the bound a bet is measured against. The summary prints croupier's bets/s as a
share of its requests/s and the server CPU per bet against the bare request's
(``--no-bound`` skips it).

    .venv/bin/python benchmarks/serve.py                       # SQLite, 10 s
    .venv/bin/python benchmarks/serve.py --rate 1000 --repeat 3
    .venv/bin/python benchmarks/serve.py --postgres-url postgresql+psycopg://u:p@127.0.0.1/db
    (or set CROUPIER_TEST_POSTGRES_URL)

This is a measurement, not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import multiprocessing
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

PASSWORD = "bench-pass-123"
TABLES = 4
ROLL_EVERY = 0.25
WARMUP = 1.0  # seconds of load before the measured window: what starting up costs is not counted


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(data_dir: Path, database: str | None, src: str | None = None,
           serve_args: tuple[str, ...] = ()) -> tuple[subprocess.Popen[bytes], str]:
    """A server on a free port; ``src``: the source tree it runs (default: this one);
    ``serve_args``: more options for ``croupier serve``."""
    port = _free_port()
    cmd = [sys.executable, "-m", "croupier", "serve", "--port", str(port), "--data-dir",
           str(data_dir), "--demo", "--demo-password", PASSWORD, *serve_args]
    if database:
        cmd += ["--database", database]
    env = {**os.environ, "PYTHONPATH": src} if src else None
    # What the server says is kept beside its data folder, for a run whose bets fail.
    with open(data_dir.parent / "server.log", "wb") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    return proc, _healthy(proc, f"http://127.0.0.1:{port}")


def _healthy(proc: subprocess.Popen[bytes], base: str) -> str:
    """``base`` once the server there answers ``GET /health`` (killed if it never does)."""
    for _ in range(300):
        try:
            if httpx.get(base + "/health", timeout=1).status_code == 200:
                return base
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


class _Conn:
    """One keep-alive HTTP/1.1 connection over asyncio streams: requests written as prepared
    bytes, responses read by Content-Length (httpx costs the load generator more CPU per request
    than the server spends on it, and would measure itself)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, base: str) -> _Conn:
        host, port = base.removeprefix("http://").split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        return cls(reader, writer)

    async def request(self, head: bytes, body: bytes) -> tuple[int, bytes]:
        self.writer.write(head + body)
        status_line = await self.reader.readuntil(b"\r\n")
        status = int(status_line.split(b" ", 2)[1])
        length = 0
        while True:
            line = await self.reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        self.writer.close()


@dataclass(frozen=True)
class Load:
    """What a run puts on the server: ``players`` players betting for ``seconds`` from
    ``procs`` client processes, as fast as answers come (or ``rate`` bets a second in all),
    with ``login_rate`` logins a second flooding its second half and ``watchers`` watching
    the tables' streams."""

    players: int
    seconds: float
    procs: int
    rate: float = 0.0
    login_rate: float = 0.0
    watchers: int = 0


def pace(players: int, procs: int, rate: float) -> float:
    """The seconds between one player's bets for ``rate`` bets a second in all, when each of
    ``procs`` processes has ``players`` players (0: as fast as answers come)."""
    return players * procs / rate if rate else 0.0


def _client(base: str, work: list[tuple[str, dict[str, str]]], seconds: float,
            start_at: float, out: Any, gap: float = 0.0) -> None:
    """One client process: its players bet as fast as answers come back (or one every
    ``gap`` seconds each), each on its own keep-alive connection; latency is from writing the
    request to reading the whole answer."""
    body = json.dumps({"wager": "field", "amount": "1"}).encode()
    prefix = uuid.uuid4().hex[:12]

    async def run() -> tuple[list[tuple[float, float]], dict[str, int], int, float]:
        latencies: list[tuple[float, float]] = []
        errors: collections.Counter[str] = collections.Counter()
        refused = 0
        conns = [await _Conn.open(base) for _ in work]
        while time.time() < start_at:
            await asyncio.sleep(0.005)
        end = start_at + seconds
        cpu0 = time.process_time()

        async def player(n: int, table: str, head: dict[str, str], conn: _Conn) -> None:
            nonlocal errors, refused
            fixed = (f"POST /tables/{table}/bets HTTP/1.1\r\nHost: bench\r\n"
                     f"Authorization: {head['Authorization']}\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                     f"Idempotency-Key: {prefix}-{n}-").encode()
            i = 0
            # Paced (--rate): this player's bets are due every ``gap`` seconds from a random
            # phase, and latency counts from when each was due (a late send is waiting too).
            due = time.perf_counter() + random.random() * gap
            while time.time() < end:
                i += 1
                if gap:
                    wait = due - time.perf_counter()
                    if wait > 0:
                        await asyncio.sleep(wait)
                t0 = due if gap else time.perf_counter()
                due += gap
                try:
                    status, _ = await conn.request(fixed + b"%d\r\n\r\n" % i, body)
                except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                    errors[type(exc).__name__] += 1
                    conn.close()
                    conn = await _Conn.open(base)
                    continue
                dt = time.perf_counter() - t0
                if status == 200:
                    latencies.append((time.time(), dt))
                elif status == 409:
                    refused += 1
                else:
                    errors[str(status)] += 1
            conn.close()

        await asyncio.gather(*(player(n, t, h, c) for n, ((t, h), c) in
                               enumerate(zip(work, conns, strict=True))))
        return latencies, dict(errors), refused, time.process_time() - cpu0

    out.put(asyncio.run(run()))


def _login_flood(base: str, rate: float, start_at: float, seconds: float, out: Any) -> None:
    """Start a log-in ``rate`` times a second (correct password: a full argon2 check each),
    each on its own, not waiting for the ones before, from ``start_at`` for ``seconds``; puts
    the number of log-ins answered."""

    async def run() -> int:
        async with httpx.AsyncClient(base_url=base, timeout=60) as c:
            async def one() -> bool:
                r = await c.post("/auth/login", json={"username": "flood", "password": PASSWORD})
                return r.status_code == 200

            while time.time() < start_at:
                await asyncio.sleep(0.005)
            tasks = []
            due = time.time()
            while time.time() < start_at + seconds:
                tasks.append(asyncio.create_task(one()))
                due += 1 / rate
                await asyncio.sleep(max(0.0, due - time.time()))
            return sum(await asyncio.gather(*tasks))

    out.put(("logins", asyncio.run(run())))


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


def _watch(base: str, watchers: int, seconds: float, start_at: float, out: Any) -> None:
    """``watchers`` WebSocket watchers spread over the tables, live from now on (no replay);
    puts ("delivered", the events they received in the window)."""
    from websockets.asyncio.client import connect

    token = _login(base, "auditor")["Authorization"].removeprefix("Bearer ")
    ws_base = base.replace("http://", "ws://")

    async def one(n: int) -> int:
        got = 0
        async with connect(f"{ws_base}/tables/bench-{n % TABLES}/stream") as ws:
            await ws.send(json.dumps({"token": token}))
            while time.time() < start_at + seconds:
                try:
                    await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                got += time.time() >= start_at
        return got

    async def run() -> int:
        return sum(await asyncio.gather(*(one(n) for n in range(watchers))))

    out.put(("delivered", asyncio.run(run())))


def _cpu(pids: list[int]) -> float:
    """User + system CPU seconds of these processes so far (Linux /proc)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def _postgres_pids() -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


@contextlib.contextmanager
def _own_schema(database: str | None) -> Iterator[str | None]:
    """The database URL to run on: for PostgreSQL, a schema this benchmark creates (and drops
    afterwards) inside the database given; nothing else in it is touched."""
    if not database:
        yield None
        return
    import sqlalchemy as sa

    schema = f"croupier_bench_{uuid.uuid4().hex[:10]}"
    engine = sa.create_engine(database)
    with engine.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in database else "?"
    try:
        yield f"{database}{sep}options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        engine.dispose()


@contextlib.contextmanager
def _sampled(pid: int, seconds: float) -> Iterator[None]:
    """With CROUPIER_BENCH_PYSPY=FILE (and py-spy on the PATH): sample the server's stacks over
    the measured window into FILE (py-spy's raw folded format), to see where a bet's time goes."""
    out = os.environ.get("CROUPIER_BENCH_PYSPY")
    spy = subprocess.Popen(["py-spy", "record", "-p", str(pid), "-d", str(int(seconds)), "-r",
                            "200", "-f", "raw", "-o", out, "--nonblocking"],
                           stdout=subprocess.DEVNULL) if out else None
    try:
        yield
    finally:
        if spy is not None:
            spy.wait(60)


def client_errors(clients: list[tuple[Any, ...]]) -> dict[str, int]:
    """The clients' failed bets by what failed (an HTTP status other than 200 and 409, or the
    connection's error), summed over the client processes."""
    kinds: collections.Counter[str] = collections.Counter()
    for r in clients:
        kinds.update(r[1])
    return dict(sorted(kinds.items()))


def _server_log_tail(log: Path, lines: int = 15) -> str:
    """The last ``lines`` of what the server wrote, to see why a run's bets failed."""
    try:
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no server log)"


def _percentiles(latencies: list[float]) -> tuple[float | None, float | None]:
    xs = sorted(latencies)
    if not xs:
        return None, None
    return (round(1000 * statistics.median(xs), 2),
            round(1000 * xs[min(len(xs) - 1, int(len(xs) * 0.99))], 2))


def measure(database: str | None, load: Load, src: str | None = None,
            serve_args: tuple[str, ...] = ()) -> dict[str, Any]:
    players, seconds, procs = load.players, load.seconds, load.procs
    rate, login_rate, watchers = load.rate, load.login_rate, load.watchers
    with tempfile.TemporaryDirectory() as tmp, _own_schema(database) as url:
        # The data folder inside the temporary one: its anchors folder (a sibling) is too.
        proc, base = _start(Path(tmp) / "data", url, src, serve_args)
        try:
            seats = _setup(base, players)
            if login_rate:
                httpx.post(base + "/users", json={"username": "flood", "password": PASSWORD,
                                                  "role": "player"},
                           headers=_login(base, "admin"), timeout=30).raise_for_status()
            work = [(t, h) for t, people in seats.items() for _, h in people]
            ctx = multiprocessing.get_context("spawn")
            out = ctx.Queue()
            start_at = time.time() + 3.0
            measured_from = start_at + WARMUP
            total = seconds * 2 if login_rate else seconds
            workers = [ctx.Process(target=_client, args=(
                base, work[i::procs], WARMUP + total, start_at, out,
                pace(len(work[i::procs]), procs, rate))) for i in range(procs)]
            workers.append(ctx.Process(target=_dealer, args=(base, WARMUP + total, start_at,
                                                             out)))
            if watchers:
                workers.append(ctx.Process(target=_watch, args=(base, watchers, total,
                                                                measured_from, out)))
            if login_rate:
                workers.append(ctx.Process(target=_login_flood, args=(
                    base, login_rate, measured_from + seconds, seconds, out)))
            for w in workers:
                w.start()
            # CPU seconds of the server (and of PostgreSQL's processes) over the measured window.
            while time.time() < measured_from:
                time.sleep(0.01)
            server0, pg0, load0 = _cpu([proc.pid]), _cpu(_postgres_pids()), os.getloadavg()[0]
            with _sampled(proc.pid, total):
                time.sleep(total)
            server_cpu, pg_cpu = _cpu([proc.pid]) - server0, _cpu(_postgres_pids()) - pg0
            results = [out.get(timeout=total + 120) for _ in workers]
            for w in workers:
                w.join(30)
            verify = httpx.get(base + "/audit/verify", headers=_login(base, "auditor"),
                               timeout=300).json()
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(30)
        clients = [r for r in results if isinstance(r, tuple) and len(r) == 4]
        failed = client_errors(clients)
        if failed:
            print(f"bets failed: {failed}; the server's last words:\n"
                  f"{_server_log_tail(Path(tmp) / 'server.log')}", flush=True)
    # The bets due in the measured window (a paced bet's latency counts from when it was due).
    timed = [(t, dt) for r in clients for t, dt in r[0] if t - dt >= measured_from]
    if os.environ.get("CROUPIER_BENCH_LATENCIES"):  # every bet's (answered at, latency) as JSON
        Path(os.environ["CROUPIER_BENCH_LATENCIES"]).write_text(json.dumps(sorted(timed)))
    split = measured_from + seconds
    quiet = [dt for t, dt in timed if t < split]
    flooded = [dt for t, dt in timed if t >= split]
    errors = sum(failed.values())
    refused = sum(r[2] for r in clients)
    rolls = sum(r for r in results if isinstance(r, int))
    logins = sum(r[1] for r in results if isinstance(r, tuple) and r[0] == "logins")
    delivered = sum(r[1] for r in results if isinstance(r, tuple) and r[0] == "delivered")
    n = len(timed)
    p50, p99 = _percentiles(quiet)
    f50, f99 = _percentiles(flooded) if login_rate else (None, None)
    return {
        "database": "postgresql" if database else "sqlite", "rate": rate or "max",
        "players": players, "seconds": seconds, "bets": n,
        # A run that answered no bet has no rate to take a median of (its errors say why).
        "bets_per_s": round(len(quiet) / seconds, 1) if quiet else None,
        "p50_ms": p50, "p99_ms": p99,
        "flood_logins_per_s": round(logins / seconds, 1) if login_rate else None,
        "flood_bets_per_s": round(len(flooded) / seconds, 1) if login_rate else None,
        "flood_p50_ms": f50, "flood_p99_ms": f99,
        "rolls": rolls, "errors": errors, "refused": refused, "ledger_ok": verify.get("ok"),
        "server_cpu": round(server_cpu / total, 2),
        "server_ms_per_bet": round(1000 * server_cpu / n, 3) if n else None,
        "clients_cpu": round(sum(r[3] for r in clients) / total, 2),
        "postgres_cpu": round(pg_cpu / total, 2) if database else None,
        "load_before": round(load0, 2), "delivered": delivered,
    }


def measure_bare(players: int, seconds: float, procs: int) -> dict[str, Any]:
    """The bound (benchmarks/bare_asgi.py): the same clients, bodies and connections against a
    bare ASGI app under the same uvicorn settings, unpaced; its requests/s, latency and server
    CPU per request."""
    from bare_asgi import token

    port = _free_port()
    proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("bare_asgi.py")),
                             "--port", str(port), "--players", str(players)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = _healthy(proc, f"http://127.0.0.1:{port}")
        work = [(f"bench-{n % TABLES}", {"Authorization": f"Bearer {token(n)}"})
                for n in range(players)]
        ctx = multiprocessing.get_context("spawn")
        out = ctx.Queue()
        start_at = time.time() + 3.0
        measured_from = start_at + WARMUP
        workers = [ctx.Process(target=_client, args=(base, work[i::procs], WARMUP + seconds,
                                                    start_at, out))
                   for i in range(procs)]
        for w in workers:
            w.start()
        while time.time() < measured_from:
            time.sleep(0.01)
        server0 = _cpu([proc.pid])
        time.sleep(seconds)
        server_cpu = _cpu([proc.pid]) - server0
        results = [out.get(timeout=seconds + 120) for _ in workers]
        for w in workers:
            w.join(30)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    timed = [dt for r in results for t, dt in r[0] if t - dt >= measured_from]
    p50, p99 = _percentiles(timed)
    return {"requests_per_s": round(len(timed) / seconds, 1), "p50_ms": p50, "p99_ms": p99,
            "errors": sum(client_errors(results).values()),
            "server_ms_per_request": round(1000 * server_cpu / len(timed), 3) if timed else None}


def _print_bound(bare: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    print(f"\nthe bound, in the same run: a bare ASGI app under the same uvicorn, the same "
          f"clients and body (benchmarks/bare_asgi.py): {bare['requests_per_s']} requests/s, "
          f"p50 {bare['p50_ms']} ms, p99 {bare['p99_ms']} ms, "
          f"{bare['server_ms_per_request']} ms of server CPU per request, "
          f"{bare['errors']} errors")
    for r in rows:
        bets = r["bets_per_s"] or 0.0  # None: no run answered a bet
        share = bets / bare["requests_per_s"] if bare["requests_per_s"] else 0.0
        cpu = (r["server_ms_per_bet"] / bare["server_ms_per_request"]
               if r["server_ms_per_bet"] and bare["server_ms_per_request"] else 0.0)
        print(f"  {r['database']:<11} {bets:>8} bets/s = {share:.1%} of the bound; "
              f"server CPU per bet {cpu:.1f}x the bare request's")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument("--postgres-url", default=os.environ.get("CROUPIER_TEST_POSTGRES_URL"))
    parser.add_argument("--skip-sqlite", action="store_true")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="paced: bets/s offered by all players together (default: each "
                             "player bets again as soon as answered, i.e. saturation)")
    parser.add_argument("--login-rate", type=float, default=13.0,
                        help="log-ins per second in the second half of each run (0: none)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per database; the table shows each figure's median")
    # The cluster's scenarios (benchmarks/serve_cluster.py): several nodes on one PostgreSQL.
    parser.add_argument("--nodes", type=int, default=0,
                        help="also run the load against this many nodes on PostgreSQL")
    parser.add_argument("--affinity", action="store_true",
                        help="with --nodes: each player talks to its table's owner")
    parser.add_argument("--failover-kills", type=int, default=None,
                        help="kill -9 a table's owner this many times; time each fail-over")
    parser.add_argument("--table", action="store_true",
                        help="the capacity table in one run: one node on SQLite and PostgreSQL, "
                             "unpaced and paced (--rate, default 1000), two nodes, fail-over "
                             "over --failover-kills (default 10) kills")
    parser.add_argument("--before", metavar="SRC",
                        help="also run each measurement on this source tree (e.g. an older "
                             "commit's src), alternating, and print the ratios")
    parser.add_argument("--serve-args", default="", metavar="'ARGS'",
                        help="more options for this tree's croupier serve, e.g. "
                             "'--checkpoint-within 1'")
    parser.add_argument("--vs-serve-args", default=None, metavar="'ARGS'",
                        help="also run this tree with these options instead, alternating, "
                             "and print the ratios (e.g. a checkpoint interval against another)")
    parser.add_argument("--no-bound", action="store_true",
                        help="skip the bare ASGI app the bets are measured against")
    args = parser.parse_args()
    if args.table:
        from serve_table import run_table

        return run_table(args)
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs", flush=True)
    if args.nodes or args.failover_kills:
        if args.before or args.vs_serve_args is not None:
            parser.error("--before and --vs-serve-args compare one node: not with --nodes or "
                         "--failover-kills")
        from serve_cluster import run_cluster

        return run_cluster(args, _print_rows)
    if args.before or args.vs_serve_args is not None:
        return _compare(args)
    bare = None if args.no_bound else measure_bare(args.players, args.seconds,
                                                      args.client_procs)
    rows = _medians_by_database(args)
    _print_rows(rows)
    if bare is not None:
        _print_bound(bare, rows)
    if args.login_rate:
        _print_flood(args.login_rate, rows)
    if args.repeat > 1:
        print(f"(medians of {args.repeat} runs each; cpu = cores busy on average)")
    return 0


def _medians_by_database(args: argparse.Namespace) -> list[dict[str, Any]]:
    """One row per database: each figure the median of ``--repeat`` runs."""
    rows = []
    for database in ([None] if not args.skip_sqlite else []) + (
            [args.postgres_url] if args.postgres_url else []):
        runs = []
        for _ in range(args.repeat):
            runs.append(measure(database, Load(args.players, args.seconds, args.client_procs,
                                               args.rate, args.login_rate),
                                serve_args=tuple(args.serve_args.split())))
            print(json.dumps(runs[-1]), flush=True)
        row = dict(runs[0])
        for key in ("bets_per_s", "p50_ms", "p99_ms", "bets", "rolls", "errors", "server_cpu",
                    "server_ms_per_bet",
                    "clients_cpu", "postgres_cpu", "load_before", "flood_logins_per_s",
                    "flood_bets_per_s", "flood_p50_ms", "flood_p99_ms"):
            values = [r[key] for r in runs if r[key] is not None]
            row[key] = statistics.median(values) if values else None
        row["ledger_ok"] = all(r["ledger_ok"] for r in runs)
        rows.append(row)
    return rows


def _print_flood(login_rate: float, rows: list[dict[str, Any]]) -> None:
    print(f"\nwith a log-in flood ({login_rate:g}/s asked) in the same run:")
    print(f"{'database':<11} {'logins/s':>8} {'bets/s':>8} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'p50 x':>6} {'p99 x':>6}")
    for r in rows:
        ratio50 = (r["flood_p50_ms"] / r["p50_ms"]) if r["p50_ms"] and r["flood_p50_ms"] else 0
        ratio99 = (r["flood_p99_ms"] / r["p99_ms"]) if r["p99_ms"] and r["flood_p99_ms"] else 0
        print(f"{r['database']:<11} {r['flood_logins_per_s']:>8} {r['flood_bets_per_s']:>8} "
              f"{r['flood_p50_ms']:>8} {r['flood_p99_ms']:>8} {ratio50:>6.2f} {ratio99:>6.2f}")


def _compare(args: argparse.Namespace) -> int:
    """This tree against ``--before`` (another tree) or ``--vs-serve-args`` (other options),
    alternating run by run in one process so both meet the same load; the medians and the
    ratios this / other."""
    mine = tuple(args.serve_args.split())
    other: tuple[str | None, tuple[str, ...]] = (
        (args.before, ()) if args.before else (None, tuple(args.vs_serve_args.split())))
    label = f"before ({args.before})" if args.before else f"serve {args.vs_serve_args}"
    for database in ([None] if not args.skip_sqlite else []) + (
            [args.postgres_url] if args.postgres_url else []):
        runs: dict[str, list[dict[str, Any]]] = {"this": [], "other": []}
        for _ in range(args.repeat):
            for name, (src, extra) in (("this", (None, mine)), ("other", other)):
                load = Load(args.players, args.seconds, args.client_procs, args.rate)
                runs[name].append(measure(database, load, src, serve_args=extra))
                print(name, json.dumps(runs[name][-1]), flush=True)
        med = {name: {k: _median(r[k] for r in rs)
                      for k in ("bets_per_s", "p50_ms", "p99_ms", "server_ms_per_bet")}
               for name, rs in runs.items()}
        where = "PostgreSQL" if database else "SQLite"
        print(f"\n{where}: this tree ({args.serve_args or 'defaults'}) vs {label}, medians of "
              f"{args.repeat} alternating runs")
        print(f"{'':<8} {'bets/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'srv ms/bet':>10}")
        for name in ("this", "other"):
            m = med[name]
            print(f"{name:<8} {m['bets_per_s']:>8} {m['p50_ms']:>8} {m['p99_ms']:>8} "
                  f"{m['server_ms_per_bet']:>10}")
        ratio = {k: med["this"][k] / med["other"][k] if med["other"][k] else 0.0
                 for k in med["this"]}  # 0.0: a run that answered nothing has no ratio
        print(f"{'ratio':<8} {ratio['bets_per_s']:>8.3f} {ratio['p50_ms']:>8.3f} "
              f"{ratio['p99_ms']:>8.3f} {ratio['server_ms_per_bet']:>10.3f}")
        ok = all(r["ledger_ok"] for rs in runs.values() for r in rs)
        print(f"ledger verified after every run: {'yes' if ok else 'NO'}")
    return 0


def _median(values: Any) -> float:
    """The median of the figures a run gave (a run that answered no bet gives none: skipped),
    0.0 if none did."""
    given = [v for v in values if v is not None]
    return round(statistics.median(given), 3) if given else 0.0


def _cell(value: Any) -> str:
    """A figure as the tables print it: '-' where the run gave none."""
    return "-" if value is None else str(value)


def _print_rows(rows: list[dict[str, Any]]) -> None:
    print(f"\n{'database':<11} {'bets/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'bets':>7} "
          f"{'rolls':>6} {'errors':>6} {'srv ms/bet':>10} {'cpu srv':>7} {'cpu cli':>7} "
          f"{'cpu pg':>6} {'load':>5} ledger")
    for r in rows:
        print(f"{r['database']:<11} {_cell(r['bets_per_s']):>8} {_cell(r['p50_ms']):>8} "
              f"{_cell(r['p99_ms']):>8} "
              f"{r['bets']:>7} {r['rolls']:>6} {r['errors']:>6} "
              f"{_cell(r['server_ms_per_bet']):>10} "
              f"{r['server_cpu']:>7} "
              f"{r['clients_cpu']:>7} {r['postgres_cpu'] if r['postgres_cpu'] is not None else '-':>6} "
              f"{r['load_before']:>5} {'ok' if r['ledger_ok'] else 'BAD'}")


if __name__ == "__main__":
    sys.exit(main())
