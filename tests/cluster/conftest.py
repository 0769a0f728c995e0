"""Several real ``croupier serve --node-id`` processes on one real PostgreSQL.

The cluster tests need PostgreSQL (multi-node mode is PostgreSQL only): they run when
CROUPIER_TEST_POSTGRES_URL is set (CI always sets it, and fails if it is missing) and are
skipped otherwise, saying so. Three nodes are started once for the module (starting a node
costs seconds); each test plays its own table.
"""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import serverkit
from serverkit import PASSWORD as PASSWORD  # re-exported for the cluster tests
from serverkit import Logins, free_port, fresh_schema

TTL = 3.0
RETRY_FOR = 20.0


def postgres_url() -> str:
    return serverkit.postgres_url(": several nodes need a shared PostgreSQL")


class Node:
    """One ``croupier serve --node-id NAME`` process."""

    def __init__(self, name: str, url: str, log_dir: Path) -> None:
        self.name = name
        self.database = url
        self.log = log_dir / f"{name}.log"
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.stopped = False
        self.logins: Logins | None = None  # whose auditor reads ``GET /cluster`` (staff only)

    def launch(self) -> None:
        # The ledger and its key (in the shared data folder) were made by `croupier init`.
        cmd = [sys.executable, "-m", "croupier", "serve", "--port", str(self.port),
               "--data-dir", str(self.log.parent), "--database", self.database,
               "--node-id", self.name, "--lease-ttl", str(TTL),
               "--insecure-test-rng-seed", "7", "--test-mode"]
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc is None or self.proc.poll() is not None:
                raise RuntimeError(f"node {self.name} exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(self.base + "/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"node {self.name} did not start")

    @property
    def alive(self) -> bool:
        """Running and not stopped (SIGSTOP)."""
        return self.proc is not None and self.proc.poll() is None and not self.stopped

    def signal(self, sig: signal.Signals) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)
        self.stopped = sig == signal.SIGSTOP
        if sig == signal.SIGKILL:
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGCONT)
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    def holds(self) -> dict[str, int]:
        assert self.logins is not None
        r = httpx.get(self.base + "/cluster", headers=self.logins.headers("auditor"), timeout=5)
        assert r.status_code == 200, r.text
        result: dict[str, int] = r.json()["holds"]
        return result


class Cluster(Logins):
    """The nodes and a small client that may talk to any of them."""

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = nodes
        self.tokens: dict[str, str] = {}
        for node in nodes:
            node.logins = self

    def login_base(self) -> str:
        return next(n for n in self.nodes if n.alive).base

    def post(self, node: Node, who: str, path: str, body: Any = None,
             key: str | None = None) -> httpx.Response:
        """POST, retried with the same Idempotency-Key while the table changes hands (503)."""
        key = key or uuid.uuid4().hex
        deadline = time.monotonic() + RETRY_FOR
        while True:
            try:
                r = httpx.post(node.base + path, json=body, headers=self.headers(who, key),
                               timeout=10)
                if r.status_code != 503:
                    return r
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, f"{path} still unavailable after {RETRY_FOR} s"
            time.sleep(0.1)

    def ok(self, node: Node, who: str, path: str, body: Any = None) -> dict[str, Any]:
        r = self.post(node, who, path, body)
        assert r.status_code in (200, 201, 202), f"{path} on {node.name}: {r.status_code} {r.text}"
        result: dict[str, Any] = r.json()
        return result

    def get(self, node: Node, who: str, path: str) -> Any:
        r = httpx.get(node.base + path, headers=self.headers(who), timeout=30)
        assert r.status_code == 200, f"{path} on {node.name}: {r.status_code} {r.text}"
        return r.json()

    def owner(self, table: str) -> Node:
        """The node that holds the table's lease."""
        for node in self.nodes:
            if node.alive and table in node.holds():
                return node
        raise AssertionError(f"no live node holds {table}")

    def ledger_events(self, node: Node, table: str) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        while True:
            since = out[-1]["seq"] if out else 0
            page = self.get(node, "auditor", f"/tables/{table}/events?since={since}&limit=1000")
            if not page:
                return out
            out.extend(page)

    def new_craps_table(self, table: str) -> None:
        """A craps table with five inspected dice in its cup, the shooter holding two."""
        node = next(n for n in self.nodes if n.alive)
        r = httpx.post(node.base + "/tables", headers=self.headers("admin"), timeout=10,
                       json={"id": table, "game": "craps", "profile": "nj-13-69f"})
        assert r.status_code == 201, r.text
        from croupier.service.equipment import passing_record

        serials = [f"{table}-d{i}" for i in range(1, 6)]
        for serial in serials:
            for path, body in (("/equipment/dice", {"serial": serial, "set_name": table,
                                                     "table_id": table}),
                               (f"/equipment/dice/{serial}/inspections", passing_record())):
                r = httpx.post(node.base + path, json=body, headers=self.headers("admin"),
                               timeout=10)
                assert r.status_code == 201, r.text
        for who in ("alice", "bob"):
            self.ok(node, who, f"/tables/{table}/buy-in", {"amount": "200"})
        self.ok(node, "dealer", f"/tables/{table}/dice/offer", {"serials": serials})
        self.ok(node, "dealer", f"/tables/{table}/dice/select", {"serials": serials[:2]})


def init_ledger(url: str, data_dir: Path) -> None:
    """A demo test ledger made on purpose (``croupier init --demo --test-mode``), as an
    operator would before starting the nodes: they share the database and the signing key's
    folder, and each node, serving with a seeded RNG, refuses any ledger not a test ledger."""
    result = subprocess.run(
        [sys.executable, "-m", "croupier", "init", "--demo", "--demo-password", PASSWORD,
         "--test-mode", "--database", url, "--data-dir", str(data_dir)],
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


@contextlib.contextmanager
def running_cluster(names: tuple[str, ...], log_dir: Path) -> Iterator[Cluster]:
    """Nodes ``names`` on an empty test database with a demo ledger, stopped afterwards."""
    # A schema of its own: nodes a module before left to finish stopping, or that sign a
    # checkpoint as they stop, never write into this cluster's ledger.
    url = fresh_schema(postgres_url())
    init_ledger(url, log_dir)
    nodes = [Node(name, url, log_dir) for name in names]
    try:
        for node in nodes:
            node.launch()
        for node in nodes:
            node.wait_ready()
        yield Cluster(nodes)
    finally:
        for node in nodes:
            node.stop()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with running_cluster(("n1", "n2", "n3"), tmp_path_factory.mktemp("cluster")) as c:
        yield c


@pytest.fixture
def nodes(cluster: Cluster) -> Cluster:
    """The module's cluster; at least two of its nodes running."""
    assert sum(n.alive for n in cluster.nodes) >= 2
    return cluster
