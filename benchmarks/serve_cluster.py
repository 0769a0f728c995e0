"""Several ``croupier serve --node-id`` nodes on one PostgreSQL, measured: the throughput more
nodes add, and how long a table is unserved when its owner dies.

Two scenarios, run from ``benchmarks/serve.py``:

* ``--nodes N``: the load of ``serve.py`` (players betting $1 on the field at four tables, the
  dealer rolling each table every 0.25 s) against N nodes. Table ``bench-t`` is first used
  through node ``t % N``, so the tables are spread over the nodes. By default each player talks
  to node ``player % N`` (as behind a load balancer that knows nothing of tables: most
  requests are forwarded once to the table's owner); ``--affinity`` sends each player to the
  node that owns its table (a table-aware balancer). CPU is summed over all the nodes.
* ``--failover-kills K``: three nodes, eight players betting on one table through every node
  (each bet retried with its Idempotency-Key while the table changes hands), the dealer
  rolling; K times: kill -9 the table's owner and time the first bet accepted after it, then
  start the killed node again in the background. Prints the median and the maximum, and
  checks the ledger at the end.

    .venv/bin/python benchmarks/serve.py --postgres-url URL --skip-sqlite --nodes 2
    .venv/bin/python benchmarks/serve.py --postgres-url URL --skip-sqlite --failover-kills 10

This is a measurement, not a test: nothing here is collected by pytest.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from serve import (
    PASSWORD,
    TABLES,
    Load,
    _client,
    _cpu,
    _dealer,
    _free_port,
    _login,
    _own_schema,
    _postgres_pids,
    client_errors,
    pace,
)


def _launch(data_dir: Path, database: str, name: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    cmd = [sys.executable, "-m", "croupier", "serve", "--port", str(port), "--data-dir",
           str(data_dir), "--demo", "--demo-password", PASSWORD, "--database", database,
           "--node-id", name]
    with open(data_dir / f"{name}.log", "ab") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    return proc, f"http://127.0.0.1:{port}"


def _ready(proc: subprocess.Popen[bytes], base: str) -> None:
    for _ in range(1200):
        if proc.poll() is not None:
            log = Path(proc.args[5]) / f"{proc.args[-1]}.log"  # type: ignore[index]
            raise RuntimeError("a node exited while starting: " + log.read_text()[-2000:])
        try:
            if httpx.get(base + "/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise RuntimeError("a node did not start")


def _setup(bases: list[str], players: int) -> dict[str, list[tuple[str, dict[str, str]]]]:
    """Four tables, each first used (so leased) through node ``t % N``; the players seated."""
    from croupier.service.equipment import passing_record

    admin = _login(bases[0], "admin")
    dealer = _login(bases[0], "dealer")
    seats: dict[str, list[tuple[str, dict[str, str]]]] = {}
    with httpx.Client(timeout=30) as c:
        for t in range(TABLES):
            table = f"bench-{t}"
            c.post(bases[0] + "/tables", json={"id": table, "game": "craps",
                                               "profile": "nj-13-69f", "capacity": 30},
                   headers=admin).raise_for_status()
            for i in range(1, 6):
                c.post(bases[0] + "/equipment/dice", headers=admin, json={
                    "serial": f"B{t}-{i}", "set_name": "bench", "table_id": table})
                c.post(bases[0] + f"/equipment/dice/B{t}-{i}/inspections",
                       json=passing_record(), headers=admin).raise_for_status()
            seats[table] = []
        for i in range(players):
            name, t = f"b{i:03d}", i % TABLES
            c.post(bases[0] + "/users", json={"username": name, "password": PASSWORD,
                                              "role": "player"}, headers=admin).raise_for_status()
            c.post(bases[0] + f"/wallets/{name}/deposits", json={"amount": "100000"},
                   headers={**admin, "Idempotency-Key": uuid.uuid4().hex}).raise_for_status()
            head = _login(bases[0], name)
            c.post(bases[t % len(bases)] + f"/tables/bench-{t}/buy-in",
                   json={"amount": "50000"},
                   headers={**head, "Idempotency-Key": uuid.uuid4().hex}).raise_for_status()
            seats[f"bench-{t}"].append((name, head))
        for t in range(TABLES):
            base, key = bases[t % len(bases)], {"Idempotency-Key": uuid.uuid4().hex}
            c.post(base + f"/tables/bench-{t}/dice/offer", headers={**dealer, **key},
                   json={"serials": [f"B{t}-{i}" for i in range(1, 6)]}).raise_for_status()
            c.post(base + f"/tables/bench-{t}/dice/select", headers=dealer,
                   json={"serials": [f"B{t}-1", f"B{t}-2"]}).raise_for_status()
    return seats


def measure_nodes(database: str, nodes: int, load: Load, affinity: bool = False) -> dict[str, Any]:
    """Bets per second, latency and CPU of ``nodes`` nodes (see the module's docstring), in a
    schema of their own."""
    with _own_schema(database) as url:
        assert url is not None
        return _measure_nodes(url, nodes, load, affinity)


def _measure_nodes(database: str, nodes: int, load: Load, affinity: bool) -> dict[str, Any]:
    players, seconds, procs, rate = load.players, load.seconds, load.procs, load.rate
    with tempfile.TemporaryDirectory() as tmp:
        started = [_launch(Path(tmp), database, f"n{i}") for i in range(nodes)]
        try:
            for proc, base in started:
                _ready(proc, base)
            bases = [base for _, base in started]
            seats = _setup(bases, players)
            by_node: list[list[tuple[str, dict[str, str]]]] = [[] for _ in bases]
            n = 0
            for table, people in seats.items():
                for _, head in people:
                    node = int(table.rsplit("-", 1)[1]) % nodes if affinity else n % nodes
                    by_node[node].append((table, head))
                    n += 1
            ctx = multiprocessing.get_context("spawn")
            out = ctx.Queue()
            start_at = time.time() + 3.0
            total = procs * nodes
            workers = [ctx.Process(target=_client, args=(
                bases[k], by_node[k][i::procs], seconds, start_at, out,
                pace(len(by_node[k][i::procs]), total, rate)))
                for k in range(nodes) for i in range(procs)]
            workers.append(ctx.Process(target=_dealer, args=(bases[0], seconds, start_at, out)))
            for w in workers:
                w.start()
            while time.time() < start_at:
                time.sleep(0.01)
            pids = [p.pid for p, _ in started]
            srv0, pg0, load0 = _cpu(pids), _cpu(_postgres_pids()), os.getloadavg()[0]
            time.sleep(seconds)
            srv, pg = _cpu(pids) - srv0, _cpu(_postgres_pids()) - pg0
            results = [out.get(timeout=seconds + 120) for _ in workers]
            for w in workers:
                w.join(30)
            verify = httpx.get(bases[-1] + "/audit/verify", timeout=300,
                               headers=_login(bases[-1], "auditor")).json()
        finally:
            for proc, _ in started:
                proc.send_signal(signal.SIGTERM)
            for proc, _ in started:
                proc.wait(30)
    clients = [r for r in results if isinstance(r, tuple) and len(r) == 4]
    lat = sorted(dt for r in clients for _, dt in r[0])
    count = len(lat)
    return {
        "database": f"postgresql x{nodes}" + (" affine" if affinity else ""),
        "rate": rate or "max", "players": players, "seconds": seconds, "bets": count,
        "bets_per_s": round(count / seconds, 1),
        "p50_ms": round(1000 * statistics.median(lat), 2) if lat else None,
        "p99_ms": round(1000 * lat[min(count - 1, int(count * 0.99))], 2) if lat else None,
        "rolls": sum(r for r in results if isinstance(r, int)),
        "errors": sum(client_errors(clients).values()),
        "refused": sum(r[2] for r in clients),
        "ledger_ok": verify.get("ok"), "server_cpu": round(srv / seconds, 2),
        "server_ms_per_bet": round(1000 * srv / count, 3) if count else None,
        "clients_cpu": round(sum(r[3] for r in clients) / seconds, 2),
        "postgres_cpu": round(pg / seconds, 2), "load_before": round(load0, 2),
    }


class _Players:
    """Eight players on ``bench-0`` through every node, each bet retried with its key."""

    def __init__(self, bases: list[str], heads: list[dict[str, str]]) -> None:
        self.bases = bases
        self.heads = heads
        self.stop = threading.Event()
        self.accepted: list[tuple[float, float]] = []  # fresh bets: first sent, accepted
        self.failed = 0

    async def _bettor(self, client: httpx.AsyncClient, n: int) -> None:
        while not self.stop.is_set():
            key, sent = uuid.uuid4().hex, time.monotonic()
            for attempt in range(600):
                base = self.bases[(n + attempt) % len(self.bases)]
                try:
                    r = await client.post(base + "/tables/bench-0/bets", headers={
                        **self.heads[n], "Idempotency-Key": key},
                        json={"wager": "field", "amount": "1"})
                except httpx.HTTPError:
                    await asyncio.sleep(0.02)
                    continue
                if r.status_code == 503:
                    await asyncio.sleep(0.05)
                    continue
                if r.status_code == 200 and r.headers.get("Idempotent-Replay") != "true":
                    self.accepted.append((sent, time.monotonic()))
                self.failed += r.status_code not in (200, 409)
                break
            await asyncio.sleep(0.01)

    async def run(self) -> None:
        async with httpx.AsyncClient(timeout=httpx.Timeout(10.0, connect=1.0)) as client:
            await asyncio.gather(*(self._bettor(client, n) for n in range(len(self.heads))))


def _owner(started: list[tuple[subprocess.Popen[bytes], str]], table: str,
           staff: dict[str, str]) -> int:
    """The index of the live node holding the table's lease (waiting for one to take it);
    ``staff``: the headers of a staff log-in (``GET /cluster`` is for staff)."""
    for _ in range(600):
        for i, (proc, base) in enumerate(started):
            try:
                if proc.poll() is None and table in httpx.get(
                        base + "/cluster", headers=staff, timeout=2).json()["holds"]:
                    return i
            except httpx.HTTPError:
                continue
        time.sleep(0.05)
    raise RuntimeError(f"no node holds {table}")


def failover(database: str, kills: int) -> dict[str, Any]:
    """Time from kill -9 of the owner to the first bet accepted by the new owner, K times (in
    a schema of its own)."""
    with _own_schema(database) as url:
        assert url is not None
        return _failover(url, kills)


def _failover(database: str, kills: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        started = [_launch(Path(tmp), database, f"n{i}") for i in range(3)]
        try:
            for proc, base in started:
                _ready(proc, base)
            bases = [b for _, b in started]
            seats = _setup(bases[:1], 8 * TABLES)
            staff = _login(bases[0], "auditor")  # a token outlives the node that issued it
            players = _Players(bases, [h for _, h in seats["bench-0"]])
            loader = threading.Thread(target=lambda: asyncio.run(players.run()))
            loader.start()
            load0 = os.getloadavg()[0]
            times: list[float] = []
            restarts: list[threading.Thread] = []
            try:
                for _ in range(kills):
                    time.sleep(1.0)
                    k = _owner(started, "bench-0", staff)
                    killed = time.monotonic()
                    started[k][0].send_signal(signal.SIGKILL)
                    started[k][0].wait(10)
                    while not any(sent > killed for sent, _ in players.accepted):
                        time.sleep(0.01)
                    times.append(min(t for sent, t in players.accepted if sent > killed) - killed)
                    print(f"  kill {len(times)}: {times[-1]:.2f} s", flush=True)
                    for r in restarts:
                        r.join()
                    proc, base = _launch(Path(tmp), database, f"n{k}")
                    started[k] = (proc, base)
                    bases[k] = base
                    restarts = [threading.Thread(target=_ready, args=(proc, base))]
                    restarts[0].start()
                for r in restarts:
                    r.join()
            finally:
                players.stop.set()
                loader.join(60)
            verify = httpx.get(bases[0] + "/audit/verify", timeout=300,
                               headers=_login(bases[0], "auditor")).json()
        finally:
            for proc, _ in started:
                proc.send_signal(signal.SIGTERM)
            for proc, _ in started:
                proc.wait(30)
    return {"kills": len(times), "median_s": round(statistics.median(times), 2),
            "max_s": round(max(times), 2), "bets": len(players.accepted),
            "failed": players.failed, "ledger_ok": verify.get("ok"), "load_before": round(load0, 2)}


def run_cluster(args: Any, print_rows: Any) -> int:
    """``serve.py --nodes N`` / ``--failover-kills K``: one node and N nodes, then fail-overs."""
    from serve import measure

    if not args.postgres_url:
        print("several nodes need PostgreSQL: give --postgres-url or set "
              "CROUPIER_TEST_POSTGRES_URL", file=sys.stderr)
        return 2
    rows = []
    if args.nodes:
        load = Load(args.players, args.seconds, args.client_procs, args.rate)
        rows.append(measure(args.postgres_url, load))
        print(rows[-1], flush=True)
        rows.append(measure_nodes(args.postgres_url, args.nodes, load, args.affinity))
        print(rows[-1], flush=True)
        print_rows(rows)
    if args.failover_kills:
        result = failover(args.postgres_url, args.failover_kills)
        print(f"\nfail-over over {result['kills']} kills: median {result['median_s']} s, "
              f"max {result['max_s']} s; {result['bets']} bets accepted, {result['failed']} "
              f"failed; ledger {'ok' if result['ledger_ok'] else 'BAD'}; load before "
              f"{result['load_before']}")
    return 0
