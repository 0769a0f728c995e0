"""Found by an attack on a real cluster (a node started with another configuration joining it).

``croupier serve --node-id`` took any ``--lease-ttl`` argparse reads as a float. A node counts a
lease as its own only until ``ttl - 0.5 s`` after its last renewal, yet renews every held
lease each ``ttl / 3``: with ``--lease-ttl 0.4`` it took a table, never counted it as held, and
answered 503 for it, while its renewals kept the lease alive in the database, so the other
node forwarded every request for the table to it and got 503 too. Shown over two real nodes:
a roulette table opened through the misconfigured node answered 503 through both, twenty
times in four seconds, and never came back. ``nan`` (or ``inf``) started as well and failed
the first take of any lease with a 500 (PostgreSQL: interval out of range).

The option is now a number of seconds from 1 to 3600, refused at start (exit 2, nothing
touched) otherwise: at 1 s the lease is held locally for 0.5 s past each renewal started
every 0.33 s; above an hour, a node that stalls keeps its tables from every other node for
longer than any operator would wait.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
import sqlalchemy as sa

from .conftest import Cluster, free_port, running_cluster


@pytest.fixture(scope="module")
def one(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with running_cluster(("n1",), tmp_path_factory.mktemp("attack48")) as c:
        yield c


def _start(c: Cluster, ttl: str) -> tuple[int | None, str]:
    """``croupier serve --node-id n9 --lease-ttl TTL`` on the cluster's database: its exit code
    and output, or None if it came up and answered ``/health`` (then it is stopped)."""
    first = c.nodes[0]
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "croupier", "serve", "--port", str(port), "--data-dir",
         str(first.log.parent), "--database", first.database, "--node-id", "n9",
         "--lease-ttl", ttl, "--insecure-test-rng-seed", "7", "--test-mode"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    return None, ""
            except httpx.HTTPError:
                time.sleep(0.1)
        out, _ = proc.communicate(timeout=10)
        return proc.returncode, out
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)


def _leases(c: Cluster) -> int:
    engine = sa.create_engine(c.nodes[0].database)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text("SELECT count(*) FROM table_leases")).scalar_one())
    finally:
        engine.dispose()


@pytest.mark.parametrize("ttl", ["0.4", "0", "-3", "nan", "inf", "1e300"])
def test_a_lease_ttl_no_node_can_hold_is_refused_at_start(one: Cluster, ttl: str) -> None:
    before = _leases(one)
    code, out = _start(one, ttl)
    assert code is not None, (f"a node with --lease-ttl {ttl} started: the tables it takes "
                              "fail through every node (503, or 500 for a ttl PostgreSQL "
                              "cannot add)")
    assert code == 2 and "--lease-ttl" in out and "between 1 and 3600" in out, out
    assert _leases(one) == before  # refused before it took, or even looked at, any lease
