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
from .load import BETS


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


# --- a node still holding a retired key ------------------------------------------------------


def _verify(c: Cluster) -> subprocess.CompletedProcess[str]:
    """``croupier audit verify`` with the key in the cluster's key folder (the current one)."""
    first = c.nodes[0]
    return subprocess.run(
        [sys.executable, "-m", "croupier", "audit", "verify", "--database", first.database,
         "--data-dir", str(first.log.parent)], capture_output=True, text=True, timeout=120)


def _checkpoints(c: Cluster) -> list[tuple[int, str]]:
    engine = sa.create_engine(c.nodes[0].database)
    try:
        with engine.connect() as conn:
            return [(int(r.id), str(r.key_id)) for r in conn.execute(sa.text(
                "SELECT id, key_id FROM checkpoints ORDER BY id"))]
    finally:
        engine.dispose()


def test_a_node_holding_a_retired_key_signs_nothing(tmp_path_factory: pytest.TempPathFactory,
                                                    ) -> None:
    """The key rotated (``croupier audit rotate-key``) with n1 stopped and n2 still running, as
    a rolling change would: n2 holds the old key in memory. It signed the next checkpoint
    with it, a checkpoint after the key's retirement, and the audit failed for good (``a
    retired key signs nothing after its rotation``: no later checkpoint takes it back). A
    writer now reads, under the checkpoint writers' lock, whether a rotation its own key
    signed retired that key, and signs nothing if so: the audit (or n1, started again with
    the new key) signs with the new key, and passes."""
    with running_cluster(("n1", "n2"), tmp_path_factory.mktemp("retired")) as c:
        n1, n2 = c.nodes  # n1 stays down: only n2 serves, with the old key
        table = "retired-key"
        c.new_craps_table(table)
        n1.stop()
        rotated = subprocess.run(
            [sys.executable, "-m", "croupier", "audit", "rotate-key", "--database",
             n1.database, "--data-dir", str(n1.log.parent)],
            capture_output=True, text=True, timeout=120)
        assert rotated.returncode == 0, rotated.stderr
        new_key = _checkpoints(c)[-1][1]  # the rotation signs a checkpoint with the new key
        for i in range(4):  # events only n2 (the old key) can sign, within --checkpoint-within
            c.ok(n2, ("alice", "bob")[i % 2], f"/tables/{table}/bets", BETS[i % 4])
        time.sleep(7)  # n2's ticker signs within 5 s of an unsigned event
        assert _checkpoints(c)[-1][1] == new_key, "n2 signed a checkpoint with the retired key"
        report = _verify(c)  # with the new key, which signs the bets once they verify
        assert report.returncode == 0, report.stdout + report.stderr
        assert "retired" not in report.stdout
