"""A seeded RNG serves a test ledger only (docs/ledger.md, The seeded RNG).

A ledger is a test ledger from its making (``croupier init --test-mode``: the house chain's
first record, under the signed init checkpoint) or never. ``croupier serve`` with a seed
refuses any other ledger before it serves (a cluster's node too); the audit names every seeded
draw on a production ledger, however it got there, and a test-ledger mark a database writer
added later; an older release's ledger is a production ledger that still verifies, its seeded
draws from before its first checkpoint noted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from croupier.service import codec, install, register, store
from croupier.service import events as sv
from croupier.service.audit import chain, keys, seeding, verify
from croupier.service.audit.canonical import event_text, genesis_of, link
from croupier.service.runner import Runner

from .conftest import PASSWORD, Server, free_port, fresh_schema, postgres_url
from .ledgerkit import Kit

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RULE = "docs/ledger.md, The seeded RNG"


def croupier(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("CROUPIER_DATABASE_URL", keys.KEY_ENV)}
    return subprocess.run([sys.executable, "-m", "croupier", *map(str, args)],
                          capture_output=True, text=True, timeout=300, env=env)


def serve_seeded(data: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``croupier serve`` with a seeded RNG, which must be refused (a start that served would
    block until the timeout)."""
    return croupier("serve", "--port", str(free_port()), "--data-dir", data,
                    "--insecure-test-rng-seed", "7", "--test-mode", *extra)


def refused_seed(done: subprocess.CompletedProcess[str]) -> None:
    """Refused as a seeded RNG on a production ledger: exit 2, saying why and what to do."""
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    said = done.stderr
    assert "refusing a seeded RNG" in said and "not a test ledger" in said, said
    assert "Serve it without --insecure-test-rng-seed" in said
    assert "croupier init --test-mode" in said
    assert "serving on" not in done.stdout


def checkpoints(url: str) -> int:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text("SELECT count(*) FROM checkpoints")).scalar_one())
    finally:
        engine.dispose()


def sqlite_url(data: Path) -> str:
    return f"sqlite:///{(data / 'croupier.db').resolve()}"


def audit(data: Path) -> dict[str, Any]:
    done = croupier("audit", "verify", "--data-dir", data, "--json")
    report: dict[str, Any] = json.loads(done.stdout)
    assert done.returncode == (0 if report["ok"] else 1), done.stderr
    return report


# --- serve ----------------------------------------------------------------------------------

def put_mark_first(conn: sa.Connection, old: list[dict[str, Any]]) -> None:
    """What a database writer without the key does: the house chain rewritten with the
    test-ledger mark as its first record and the ``old`` records after it, every hash
    recomputed."""
    conn.execute(store.house_records.delete())
    register.append(conn, seeding.KIND, seeding.SUBJECT, seeding.mark_payload(), seeding.ACTOR)
    for r in old:
        register.append(conn, r["kind"], r["subject"], r["payload"], r["actor"], r["at"])


def test_serve_refuses_a_seed_on_a_production_ledger_before_serving(tmp_path: Path) -> None:
    """A ledger made without --test-mode (a demo one, even) is a production ledger: a seeded
    start is refused before the start-up audit signs anything, and --demo --test-mode on it
    changes nothing (a ledger is a test ledger from its making or never)."""
    data = tmp_path / "data"
    made = croupier("init", "--data-dir", data, "--demo", "--demo-password", PASSWORD)
    assert made.returncode == 0, made.stderr
    assert "TEST LEDGER" not in made.stdout
    signed = checkpoints(sqlite_url(data))
    refused_seed(serve_seeded(data))
    refused_seed(serve_seeded(data, "--demo", "--demo-password", PASSWORD))
    assert checkpoints(sqlite_url(data)) == signed  # nothing was served, nothing signed
    # Nor does init make it one afterwards.
    again = croupier("init", "--data-dir", data, "--test-mode")
    assert again.returncode == 2 and "was not made a test ledger" in again.stderr
    refused_seed(serve_seeded(data))


def test_a_cluster_node_refuses_a_seed_on_a_production_ledger(tmp_path: Path) -> None:
    """Each node of a cluster checks at its own start: a node joining a production ledger's
    cluster with a seeded RNG takes no table."""
    url = fresh_schema(postgres_url(" (a cluster's node on PostgreSQL)"))
    made = croupier("init", "--demo", "--demo-password", PASSWORD, "--database", url,
                    "--data-dir", tmp_path)
    assert made.returncode == 0, made.stderr
    signed = checkpoints(url)
    refused_seed(serve_seeded(tmp_path, "--database", url, "--node-id", "n9"))
    assert checkpoints(url) == signed
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            names = set(sa.inspect(conn).get_table_names())
            if "table_leases" in names:
                assert conn.execute(sa.text("SELECT count(*) FROM table_leases")).scalar() == 0
    finally:
        engine.dispose()


def test_serve_takes_a_seed_on_a_test_ledger(tmp_path: Path) -> None:
    """``croupier init --test-mode`` makes a test ledger: its mark is the house chain's first
    record, signed by the init checkpoint; a seeded server starts on it and its seeded rolls
    verify, the audit noting it is a test ledger."""
    data = tmp_path / "data"
    made = croupier("init", "--data-dir", data, "--demo", "--demo-password", PASSWORD,
                    "--test-mode")
    assert made.returncode == 0 and "THIS IS A TEST LEDGER" in made.stdout, made.stderr
    engine = sa.create_engine(sqlite_url(data))
    with engine.connect() as conn:
        first = conn.execute(sa.select(store.house_records).where(
            store.house_records.c.seq == 1)).one()
        head = json.loads(conn.execute(sa.select(store.checkpoints.c.heads).where(
            store.checkpoints.c.id == 1)).scalar_one())
    engine.dispose()
    assert (first.kind, json.loads(first.payload)) == (seeding.KIND, {"mode": "test"})
    assert head["records"][0] >= 1  # under the init checkpoint
    srv = Server(data, None, seed=7)
    srv.start()
    try:
        assert httpx.get(srv.base + "/health", timeout=10).json()["rng"] != "os"
        srv.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})
        srv.ready_dice()
        srv.ok("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "1"})
        srv.ok("dealer", "/tables/craps-1/roll", {})
        report = srv.get("auditor", "/audit/verify").json()
        assert report["ok"], report["problems"]
        assert any("a test ledger" in n for n in report["notes"]), report["notes"]
        assert any("1 draws by a seeded generator" in n for n in report["notes"])
    finally:
        srv.stop()


# --- the audit: seeded draws ---------------------------------------------------------------

def _seeded_draws(engine: sa.Engine) -> set[tuple[str, int, int]]:
    """Every draw event the ledger holds from a seeded generator: (table, seq, round)."""
    with engine.connect() as conn:
        rows = conn.execute(sa.select(store.events).where(store.events.c.kind == "draw")).all()
    return {(r.table_id, r.seq, r.round) for r in rows
            if json.loads(r.payload)["f"]["source"] != "os"}


def _seeded_findings(report: dict[str, Any]) -> set[tuple[str, int, int]]:
    out = set()
    for f in report["findings"]:
        if "not the operating system's secure generator" in f["what"]:
            round_no = int(f["what"].split(":")[0].removeprefix("round "))
            out.add((f["where"].removeprefix("table "), f["seq"], round_no))
    return out


def test_the_audit_names_every_seeded_draw_on_a_production_ledger(tmp_path: Path) -> None:
    """Rounds played in process with a seeded generator on a production ledger (no start
    refused them): each draw is a finding naming its table, event and round, and they are the
    only findings. The same play on a test ledger passes."""
    kit = Kit(tmp_path / "prod", test_mode=False)
    try:
        kit.play(6, 3)
        verify.configure(None, None)
        report = verify.verify_ledger(kit.tables, checkpoint=False)
        drawn = _seeded_draws(kit.engine)
    finally:
        kit.engine.dispose()
    assert drawn and {t for t, _, _ in drawn} >= {"roulette-1"}
    assert not report["ok"]
    assert _seeded_findings(report) == drawn
    assert len(report["findings"]) == len(drawn), report["problems"]  # nothing else
    test = Kit(tmp_path / "test")
    try:
        test.play(6, 3)
        passed = verify.verify_ledger(test.tables, checkpoint=False)
    finally:
        test.engine.dispose()
    assert passed["ok"], passed["problems"]
    assert any("draws by a seeded generator, as a test ledger may hold" in n
               for n in passed["notes"])


def _append_draw(engine: sa.Engine, table_id: str, source: str) -> tuple[int, int]:
    """What a database writer does: a draw event appended to the table's chain, hashed onto
    it as the server hashes; its (seq, round)."""
    with engine.begin() as conn:
        table = conn.execute(sa.select(store.tables).where(store.tables.c.id == table_id)).one()
        last = conn.execute(sa.select(store.events).where(store.events.c.table_id == table_id)
                            .order_by(store.events.c.seq.desc()).limit(1)).first()
        prev = last.hash if last is not None else genesis_of(table._mapping)
        row = {"table_id": table_id, "seq": (last.seq if last is not None else 0) + 1,
               "round": last.round if last is not None else 1, "kind": "draw", "player": None,
               "payload": codec.encode(sv.Drawn(source, (9, 200), (4, 3))), "actor": "dealer",
               "at": time.time()}
        row["hash"] = link(prev, event_text(row))
        conn.execute(store.events.insert().values(**row))
    return int(row["seq"]), int(row["round"])


def test_a_seeded_draw_written_into_a_production_ledger_is_named(tmp_path: Path) -> None:
    """Draw rows written straight into a production ledger's table chain (hashed so the chain
    itself holds), one in this release's words and one in an older release's: the audit
    names each with its table, event and round, and a seeded start stays refused."""
    data = tmp_path / "data"
    assert croupier("init", "--data-dir", data, "--demo", "--demo-password",
                    PASSWORD).returncode == 0
    engine = store.make_engine(sqlite_url(data))
    try:
        new = _append_draw(engine, "craps-1", "insecure-test-seeded")
        old = _append_draw(engine, "roulette-1", "seeded:11")
    finally:
        engine.dispose()
    report = audit(data)
    assert not report["ok"]
    named = {(f["where"], f["seq"]): f["what"] for f in report["findings"]}
    for (table, source), (seq, round_no) in ((("craps-1", "insecure-test-seeded"), new),
                                             (("roulette-1", "seeded:11"), old)):
        what = named[(f"table {table}", seq)]
        assert what.startswith(f"round {round_no}: an outcome drawn by '{source}'"), what
        assert "on a production ledger" in what
    refused_seed(serve_seeded(data))


# --- an older release's ledger -----------------------------------------------------------

def test_an_old_release_s_ledger_is_a_production_ledger_that_still_verifies(
        tmp_path: Path) -> None:
    """``ledger-v1`` (served by a release with ``seeded:11``, before checkpoints): upgraded by
    ``croupier init``, it verifies, its 38 seeded draws noted as older than its first signed
    checkpoint; it is a production ledger, so a seeded start is refused."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    shutil.copy(FIXTURES / "ledger-v1" / "croupier.db", data / "croupier.db")
    upgraded = croupier("init", "--data-dir", data)
    assert upgraded.returncode == 0, upgraded.stderr
    report = audit(data)
    assert report["ok"], report["problems"]
    noted = [n for n in report["notes"] if "draws by a seeded generator recorded before" in n]
    assert noted and noted[0].startswith("38 draws"), report["notes"]
    assert "craps-1 (23)" in noted[0]
    refused_seed(serve_seeded(data))
    refused = croupier("init", "--data-dir", data, "--test-mode")
    assert refused.returncode == 2 and "was not made a test ledger" in refused.stderr


# --- a mark written later --------------------------------------------------------------------

def test_a_test_ledger_mark_added_by_a_database_writer_is_named(tmp_path: Path) -> None:
    """A production ledger made without --demo has no house record under its init checkpoint:
    a writer puts the mark there as record 1, hashed as init would. The audit names it, and
    the ledger stays a production ledger (a seeded start refused), even once a server has
    signed a checkpoint over it."""
    data = tmp_path / "data"
    assert croupier("init", "--data-dir", data, "--admin-password",
                    "a-long-admin-passphrase").returncode == 0
    engine = store.make_engine(sqlite_url(data))
    key = keys.key_path(data)
    try:
        with engine.begin() as conn:
            row = register.append(conn, seeding.KIND, seeding.SUBJECT,
                                  seeding.mark_payload(), seeding.ACTOR)
        assert row["seq"] == 1
        signer = keys.load_key(key)
        assert not seeding.is_test_ledger(engine, signer)
        # A running server's timed checkpoint signs whatever the chains hold: the mark too.
        signed = chain.Checkpointer(engine, signer, install.pin_path(key)).write("timed")
        assert json.loads(signed["heads"])["records"][0] == 1
        assert not seeding.is_test_ledger(engine, signer)
    finally:
        engine.dispose()
    refused_seed(serve_seeded(data))
    report = audit(data)
    named = [f for f in report["findings"] if f["where"] == "house records"]
    assert [(f["seq"], f["what"].split(":")[0]) for f in named] == [
        (1, "a test-ledger mark that init did not make")], report["problems"]
    assert len(report["findings"]) == 1  # signed since, the chain itself holds


def test_a_mark_put_first_into_a_production_house_chain_is_named(tmp_path: Path) -> None:
    """A demo production ledger has house records under its init checkpoint: a writer
    rewrites the house chain with the mark first and every hash recomputed. Checkpoint 1 no
    longer matches, the mark is named, and a seeded start is refused."""
    data = tmp_path / "data"
    assert croupier("init", "--data-dir", data, "--demo", "--demo-password",
                    PASSWORD).returncode == 0
    engine = store.make_engine(sqlite_url(data))
    try:
        with engine.begin() as conn:
            old = register.rows(conn)
            assert old  # the demo's dice and tables
            put_mark_first(conn, old)
        assert not seeding.is_test_ledger(engine, keys.load_key(keys.key_path(data)))
        assert not verify.verify_ledger(Runner.over(engine).tables, checkpoint=False)["ok"]
    finally:
        engine.dispose()
    refused_seed(serve_seeded(data))
    report = audit(data)
    problems = " | ".join(report["problems"])
    assert "house records, entry 1: a test-ledger mark that init did not make" in problems
    assert "checkpoint 1 signed the house's chain up to here and it no longer matches" \
        in problems


def test_init_test_mode_cut_short_is_not_finished_as_a_production_ledger(
        tmp_path: Path) -> None:
    """An ``init --test-mode`` stopped after its mark (no users yet): run again without
    --test-mode it is refused (finished, it would be a test ledger); with it, it finishes."""
    data = tmp_path / "data"
    engine = store.make_engine(install._sqlite_url(data))
    try:
        store.upgrade(engine)
        with engine.begin() as conn:
            seeding.mark(conn)
    finally:
        engine.dispose()
    plain = croupier("init", "--data-dir", data, "--admin-password", "a-long-admin-passphrase")
    assert plain.returncode == 2 and "begun as a test ledger" in plain.stderr
    done = croupier("init", "--data-dir", data, "--admin-password", "a-long-admin-passphrase",
                    "--test-mode")
    assert done.returncode == 0 and "THIS IS A TEST LEDGER" in done.stdout, done.stderr
    assert audit(data)["ok"]
