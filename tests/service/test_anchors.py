"""The ledger's trust anchored outside its data folder, over real processes: a key holder's
re-signed rewrite is caught by an earlier bundle (``audit verify --anchor``, ``verify-bundle
--since``); a retired key signs nothing after its rotation; a copy restored after more events,
or a cut after the last checkpoint, no longer reaches the pin (signed at most 5 s after any
event and at a clean shutdown); a deleted or malformed pin is named in plain words; and
``croupier backup`` / ``croupier restore`` copy a ledger under load and refuse a stale copy
unless a recovery, recorded with its gap, is declared."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import httpx
import pytest
import sqlalchemy as sa

from croupier.service import register, store
from croupier.service.audit import chain, keys
from croupier.service.audit.canonical import FORMAT, canonical, entry_text, link, wallet_genesis

from .conftest import PASSWORD, Server, free_port, postgres_url, reset_postgres

T = TypeVar("T")


def croupier(*args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("CROUPIER_DATABASE_URL", keys.KEY_ENV)}
    return subprocess.run([sys.executable, "-m", "croupier", *map(str, args)],
                          capture_output=True, text=True, timeout=300, env=env)


def served(tmp_path: Path) -> Server:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    server = Server(data, None)
    server.start()
    return server


def play(s: Server, rounds: int, who: str = "alice") -> None:
    for _ in range(rounds):
        s.ok(who, "/tables/craps-1/bets", {"wager": "field", "amount": "1"})
        s.ok("dealer", "/tables/craps-1/roll", {})


def sqlite_copy(source: Path, dest: Path) -> None:
    """What anyone who can read the data folder can take while the server runs."""
    src, out = sqlite3.connect(source), sqlite3.connect(dest)
    src.backup(out)
    out.close()
    src.close()


def put_back(copy: Path, data: Path) -> None:
    """Install an old copy of the database by hand (what a rollback is)."""
    for extra in ("-wal", "-shm"):
        Path(f"{data / 'croupier.db'}{extra}").unlink(missing_ok=True)
    os.replace(copy, data / "croupier.db")


# --- a key holder's rewrite ---------------------------------------------------------------

def rewrite_and_resign(data: Path, player: str, cents: int) -> None:
    """What someone holding the data folder AND the key can do: take ``cents`` out of the
    player's first deposit, every later balance and the wallet adjusted, the wallet's chain
    recomputed, every checkpoint re-signed with the key, and the pin rewritten."""
    key = keys.key_path(data)
    signer = keys.load_key(key)
    engine = store.make_engine(f"sqlite:///{data / 'croupier.db'}")
    entries, wallets, checkpoints = store.wallet_entries, store.wallets, store.checkpoints
    with engine.begin() as conn:
        first = conn.execute(sa.select(entries.c.id).where(
            entries.c.player == player, entries.c.kind == "deposit").order_by(entries.c.id)
            .limit(1)).scalar_one()
        conn.execute(entries.update().where(entries.c.id == first).values(
            amount_cents=entries.c.amount_cents - cents))
        conn.execute(entries.update().where(entries.c.player == player, entries.c.id >= first)
                     .values(balance_after_cents=entries.c.balance_after_cents - cents))
        conn.execute(wallets.update().where(wallets.c.player == player).values(
            balance_cents=wallets.c.balance_cents - cents))
        renamed, head = {wallet_genesis(player): wallet_genesis(player)}, wallet_genesis(player)
        for e in conn.execute(sa.select(entries).where(entries.c.player == player)
                              .order_by(entries.c.id)).all():
            head = renamed[e.hash] = link(head, entry_text(e._mapping))
            conn.execute(entries.update().where(entries.c.id == e.id).values(hash=head))
        conn.execute(wallets.update().where(wallets.c.player == player).values(chain_head=head))
        prev, row = FORMAT, None
        for c in conn.execute(sa.select(checkpoints).order_by(checkpoints.c.id)).all():
            heads = json.loads(c.heads)
            heads["wallets"] = {p: renamed.get(h, h) for p, h in heads["wallets"].items()}
            row = {**dict(c._mapping), "heads": canonical(heads), "prev": prev}
            row["signature"] = signer.sign(chain.checkpoint_message(row))
            conn.execute(checkpoints.update().where(checkpoints.c.id == c.id).values(**row))
            prev = chain.checkpoint_hash(row)
    engine.dispose()
    assert row is not None
    key.with_name("ledger.key.pin").write_text(chain.pin_text(row), encoding="utf-8")


def test_a_resigned_rewrite_is_caught_by_an_earlier_bundle(tmp_path: Path) -> None:
    s = served(tmp_path)
    try:
        s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
        s.ready_dice()
        play(s, 3)
    finally:
        s.stop()
    data = s.data_dir
    earlier, later = tmp_path / "earlier.json", tmp_path / "later.json"
    assert croupier("audit", "export", earlier, "--data-dir", data).returncode == 0
    rewrite_and_resign(data, "alice", 60_000)  # $600 out of alice's $1000 deposit
    alone = croupier("audit", "verify", "--data-dir", data)
    assert alone.returncode == 0, alone.stdout  # the key holder's rewrite passes by itself
    assert "deposits 1400.00" in alone.stdout
    done = croupier("audit", "verify", "--data-dir", data, "--anchor", earlier)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "checkpoint 1: signed twice with different contents" in done.stdout
    assert "heads that differ: wallet alice" in done.stdout
    assert "wallet alice: the earlier bundle holds this wallet's chain" in done.stdout
    # The regulator's way: a bundle exported after the rewrite verifies alone, not since.
    assert croupier("audit", "export", later, "--data-dir", data).returncode == 0
    assert croupier("audit", "verify-bundle", later).returncode == 0
    since = croupier("audit", "verify-bundle", later, "--since", earlier)
    assert since.returncode == 1 and "signed twice with different contents" in since.stdout
    # An honest ledger extends its earlier bundle.
    assert croupier("audit", "verify-bundle", earlier, "--since", earlier).returncode == 0


def test_an_honest_ledger_extends_its_earlier_bundle(tmp_path: Path) -> None:
    s = served(tmp_path)
    try:
        s.ok("bob", "/tables/craps-1/buy-in", {"amount": "50"})
        s.ready_dice()
        play(s, 2, "bob")
    finally:
        s.stop()
    earlier = tmp_path / "earlier.json"
    assert croupier("audit", "export", earlier, "--data-dir", s.data_dir).returncode == 0
    s.start()
    try:
        play(s, 2, "bob")
    finally:
        s.stop()
    done = croupier("audit", "verify", "--data-dir", s.data_dir, "--anchor", earlier)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "compared with an earlier bundle" in done.stdout


# --- a retired key ------------------------------------------------------------------------

def test_a_retired_key_signs_nothing_after_its_rotation(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    made = croupier("init", "--data-dir", data, "--demo", "--demo-password", PASSWORD)
    assert made.returncode == 0, made.stderr
    anchors = keys.anchors_dir(data)
    old = keys.load_key(anchors / "ledger.key")
    assert croupier("audit", "rotate-key", "--data-dir", data).returncode == 0
    retired = anchors / f"ledger.key.{old.key_id}"
    assert retired.exists() and not list(data.glob("ledger.key*"))
    assert croupier("audit", "verify", "--data-dir", data).returncode == 0  # its past holds
    engine = store.make_engine(f"sqlite:///{data / 'croupier.db'}")
    with pytest.raises(chain.KeyRetired):  # the writer reads the rotation and signs nothing
        chain.Checkpointer(engine, keys.load_key(retired), None).write("forged")
    # Whoever kept the old key signs without that check: the audit names what they signed.
    monkeypatch.setattr(chain, "retired_by", lambda conn, signer: None)
    forged = chain.Checkpointer(engine, keys.load_key(retired), None).write("forged")
    engine.dispose()
    done = croupier("audit", "verify", "--data-dir", data)
    assert done.returncode == 1, done.stdout
    assert (f"checkpoint {forged['id']}: signed by key {old.key_id}, which was retired after "
            "checkpoint") in done.stdout


# --- rollback and cut ---------------------------------------------------------------------

@pytest.mark.parametrize("how", ["rollback, clean stop", "cut, killed once the timer signed"])
def test_an_old_copy_put_back_is_caught(how: str, tmp_path: Path) -> None:
    """``rollback``: a copy taken while serving, put back after more events and bob's $280
    cash-out (the server stopped cleanly: the shutdown checkpoint). ``cut``: bob's cash-out,
    the last thing written, erased by putting back the state just before it (a consistent
    cut after the last checkpoint), the server killed (SIGKILL) once the timed checkpoint
    signed it (at most 5 s after it): only the timed checkpoint signed it."""
    s = served(tmp_path)
    copy = tmp_path / "copy.db"
    try:
        s.ok("bob", "/tables/craps-1/buy-in", {"amount": "280"})
        s.ready_dice()
        if how.startswith("rollback"):
            sqlite_copy(s.data_dir / "croupier.db", copy)
            play(s, 5, "bob")
        else:
            play(s, 5, "bob")
            signed_as_it_stands(s.data_dir)  # the timed checkpoint signs the rounds
            sqlite_copy(s.data_dir / "croupier.db", copy)
        s.ok("bob", "/tables/craps-1/cash-out", {})
        if how.startswith("cut"):
            signed_as_it_stands(s.data_dir)  # the timed checkpoint signs the cash-out
            s.kill()
    finally:
        s.stop()
    put_back(copy, s.data_dir)
    done = croupier("audit", "verify", "--data-dir", s.data_dir)
    assert done.returncode == 1, done.stdout
    assert "the checkpoint pinned outside the database is missing or changed" in done.stdout
    refused = serve_refuses(s.data_dir)
    assert "rolled back, cut short or rewritten" in refused


def signed_as_it_stands(data: Path) -> None:
    """Wait until the pin holds a checkpoint of every chain as it stands now: the server's
    timed checkpoint (a tick every 2.5 s signs what moved, so at most 5 s after an event) has
    signed the last event. Polled instead of sleeping 6 s through, and failed, as that sleep
    was, if it is not signed 6 s after the call (half a second more for the polling)."""
    engine = sa.create_engine(f"sqlite:///{data / 'croupier.db'}")  # reads only, locks nothing
    pin = keys.anchors_dir(data) / "ledger.key.pin"
    deadline = time.monotonic() + 6.5
    try:
        while True:
            with engine.connect() as conn:
                now = canonical(chain.heads(conn))
            try:
                pinned = json.loads(pin.read_text("utf-8"))["checkpoint"]["heads"]
            except (OSError, ValueError, KeyError):
                pinned = None
            if pinned == now:
                return
            assert time.monotonic() < deadline, "no timed checkpoint signed the last event in 6 s"
            time.sleep(0.2)
    finally:
        engine.dispose()


def serve_refuses(data: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "croupier", "serve", "--port", str(free_port()),
                           "--data-dir", str(data)], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "CROUPIER_DATABASE_URL": ""})
    assert done.returncode == 3, (done.returncode, done.stdout, done.stderr)
    return done.stderr


# --- the pin ------------------------------------------------------------------------------

@pytest.mark.parametrize("damage", ["deleted", "malformed"])
def test_a_damaged_pin_is_named(damage: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert croupier("init", "--data-dir", data, "--demo", "--demo-password",
                    PASSWORD).returncode == 0
    pin = keys.anchors_dir(data) / "ledger.key.pin"
    if damage == "deleted":
        pin.unlink()
        words = "is missing, though the ledger has 1 signed checkpoints"
    else:
        pin.write_text('{"id": 1, "hash": ', encoding="utf-8")
        words = "is not the pin croupier writes (not JSON): it was damaged or edited"
    done = croupier("audit", "verify", "--data-dir", data)
    assert done.returncode == 1 and "internal error" not in done.stderr, done.stderr
    assert f"pin: the pin file {pin}" in done.stdout and words in done.stdout
    said = serve_refuses(data)
    assert "refusing to serve" in said and words in said and "JSONDecodeError" not in said


# --- backup and restore -------------------------------------------------------------------

async def _bets(s: Server, stop: threading.Event, answers: list[int]) -> None:
    heads = {who: s.headers(who) for who in ("alice", "bob", "dealer")}
    async with httpx.AsyncClient(base_url=s.base, timeout=30) as client:

        async def bettor(who: str) -> None:
            while not stop.is_set():
                r = await client.post("/tables/craps-1/bets", json={
                    "wager": "field", "amount": "1"}, headers={
                    **heads[who], "Idempotency-Key": uuid.uuid4().hex})
                answers.append(r.status_code)

        async def dealer() -> None:
            while not stop.is_set():
                await asyncio.sleep(0.02)
                r = await client.post("/tables/craps-1/roll", json={}, headers={
                    **heads["dealer"], "Idempotency-Key": uuid.uuid4().hex})
                answers.append(r.status_code)

        await asyncio.gather(dealer(), bettor("alice"), bettor("bob"))


def _under_load(s: Server, copy: Callable[[], T]) -> T:
    """``copy()`` run while alice and bob bet and the dealer rolls; its result, once the
    bets went on past it (more than 20 answered after it began, every one accepted)."""
    for who in ("alice", "bob"):
        s.ok(who, "/tables/craps-1/buy-in", {"amount": "900"})
    s.ready_dice()
    answers: list[int] = []
    stop = threading.Event()
    loader = threading.Thread(target=lambda: asyncio.run(_bets(s, stop, answers)))
    loader.start()
    under_way(answers, 10)  # the bets are going on
    during = len(answers)
    try:
        made = copy()
        under_way(answers, during + 21)  # and went on past the copy
    finally:
        stop.set()
        loader.join(60)
    assert len(answers) > during + 20 and set(answers) <= {200}, set(answers)
    return made


def under_way(answers: list[int], count: int) -> None:
    """Wait (60 s at most) until ``count`` answers came back, instead of a fixed sleep."""
    deadline = time.monotonic() + 60
    while len(answers) < count and time.monotonic() < deadline:
        time.sleep(0.05)


def test_backup_under_load_restore_and_a_declared_recovery(tmp_path: Path) -> None:
    s = served(tmp_path)
    under_load, quiet = tmp_path / "under-load.db", tmp_path / "quiet.db"
    try:
        done = _under_load(s, lambda: croupier("backup", under_load, "--data-dir", s.data_dir))
        assert done.returncode == 0, done.stderr
        assert under_load.with_name("under-load.db.head").exists()
        assert croupier("backup", quiet, "--data-dir", s.data_dir).returncode == 0
        again = croupier("backup", quiet, "--data-dir", s.data_dir)
        assert again.returncode == 2 and "exists" in again.stderr
    finally:
        s.stop()
    data = s.data_dir
    # The quiet copy is the ledger as it stands: verified and installed.
    installed = croupier("restore", quiet, "--data-dir", data)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    assert list(data.glob("croupier.db.before-restore-*"))
    assert croupier("audit", "verify", "--data-dir", data).returncode == 0
    # The copy taken under load is older than the anchor: refused, the loss named.
    pin = json.loads((keys.anchors_dir(data) / "ledger.key.pin").read_text("utf-8"))
    anchor = json.loads(pin["checkpoint"]["heads"])["tables"]["craps-1"]
    stale = croupier("restore", under_load, "--data-dir", data)
    assert stale.returncode == 1, stale.stdout + stale.stderr
    assert f"the copy ends before the anchor (checkpoint {pin['id']}" in stale.stderr
    assert f"..{anchor[0]}" in stale.stderr and "--declare-recovery" in stale.stderr
    assert croupier("audit", "verify", "--data-dir", data).returncode == 0  # nothing changed
    pin = json.loads((keys.anchors_dir(data) / "ledger.key.pin").read_text("utf-8"))
    anchor = json.loads(pin["checkpoint"]["heads"])["tables"]["craps-1"]  # verify signed one
    # Declared: installed, and the house's chain records the gap per chain.
    declared = croupier("restore", under_load, "--data-dir", data, "--declare-recovery",
                        "test: the copy taken under load")
    assert declared.returncode == 0, declared.stdout + declared.stderr
    engine = store.make_engine(f"sqlite:///{data / 'croupier.db'}")
    with engine.connect() as conn:
        records = register.rows(conn, kinds=["recovery_declared"])
        copy_seq = conn.execute(sa.select(sa.func.max(store.events.c.seq)).where(
            store.events.c.table_id == "craps-1")).scalar_one()
    engine.dispose()
    assert len(records) == 1 and records[0]["actor"] == "operator"
    gap = records[0]["payload"]["gap"]
    assert gap["anchor"] == {"checkpoint": pin["id"], "hash": pin["hash"]}
    table = gap["chains"]["table craps-1"]
    assert table["anchor"] == anchor and table["copy"][0] == copy_seq < anchor[0]
    assert table["missing_seq"] == [copy_seq + 1, anchor[0]]
    assert croupier("audit", "verify", "--data-dir", data).returncode == 0
    s.start()  # the recovered ledger serves
    try:
        assert s.get("auditor", "/audit/verify").json()["ok"]
    finally:
        s.stop()


def test_a_tampered_copy_is_never_installed(tmp_path: Path) -> None:
    s = served(tmp_path)
    copy = tmp_path / "copy.db"
    try:
        s.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})
        assert croupier("backup", copy, "--data-dir", s.data_dir).returncode == 0
    finally:
        s.stop()
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE wallets SET balance_cents = balance_cents + 100 WHERE player='bob'")
    conn.close()
    before = (s.data_dir / "croupier.db").read_bytes()
    done = croupier("restore", copy, "--data-dir", s.data_dir)
    assert done.returncode == 1 and "the copy: " in done.stderr, done.stderr
    assert (s.data_dir / "croupier.db").read_bytes() == before


# --- PostgreSQL: the server's own tools ---------------------------------------------------

def test_postgres_pg_dump_under_load_and_pg_restore_checked_by_the_pin(tmp_path: Path) -> None:
    """docs/ledger.md's PostgreSQL backup: ``pg_dump`` while bets run (the bets go on); a dump
    restored with ``pg_restore`` after more events is caught by the pin, a dump of the ledger
    as it stands verifies."""
    url = postgres_url(" (pg_dump and pg_restore of a live PostgreSQL ledger)")
    reset_postgres(url)
    libpq = url.replace("postgresql+psycopg://", "postgresql://")
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    s = Server(data, url)
    s.start()
    under_load, quiet = tmp_path / "under-load.dump", tmp_path / "quiet.dump"
    try:
        dumped = _under_load(s, lambda: subprocess.run(
            ["pg_dump", "--format=custom", "--schema=public", f"--file={under_load}", libpq],
            capture_output=True, text=True, timeout=300))
        assert dumped.returncode == 0, dumped.stderr
    finally:
        s.stop()  # the shutdown checkpoint: the pin is beyond the dump taken under load
    assert subprocess.run(["pg_dump", "--format=custom", "--schema=public", f"--file={quiet}",
                           libpq],
                          capture_output=True, timeout=300).returncode == 0

    def restored(dump: Path) -> subprocess.CompletedProcess[str]:
        # The dump holds the ledger's schema whole (other tests' schemas share the database):
        # the schema goes, and the restore makes it again.
        engine = sa.create_engine(url)
        with engine.begin() as conn:
            conn.exec_driver_sql("DROP SCHEMA IF EXISTS public CASCADE")
        engine.dispose()
        loaded = subprocess.run(["pg_restore", "--no-owner", f"--dbname={libpq}", str(dump)],
                                capture_output=True, text=True, timeout=300)
        assert loaded.returncode == 0, loaded.stderr
        return croupier("audit", "verify", "--data-dir", data, "--database", url)

    stale = restored(under_load)
    assert stale.returncode == 1, stale.stdout + stale.stderr
    assert "the checkpoint pinned outside the database is missing or changed" in stale.stdout
    fresh = restored(quiet)
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
