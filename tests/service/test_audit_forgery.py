"""Forgeries made by hand in the database, each kept consistent (balances
adjusted to match), are found by the start-up audit, and ``croupier serve`` refuses to serve:
a deposit of 1000 made 10000; a losing $1 settlement rewritten as "win, paid 500" with the
seat and the house adjusted; on PostgreSQL a deposit made 50000 larger. A forger who also
recomputes the hash chains is caught by the signed checkpoints and by the replay."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.service import store
from croupier.service.audit import verify
from croupier.service.audit.canonical import entry_text, event_text, link, table_genesis, wallet_genesis
from croupier.service.audit.keys import key_path, load_key
from croupier.service.runner import Runner

from .conftest import PG_ENV, free_port, reset_postgres
from .ledgerkit import Kit


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite ledger of 40 craps rounds; each test forges a copy of it."""
    kit = Kit(tmp_path_factory.mktemp("forgery") / "data")
    kit.play(40, 5)
    kit.engine.dispose()
    return kit.data_dir


@pytest.fixture
def copy(built: Path, tmp_path: Path) -> Path:
    shutil.copytree(built, tmp_path / "data")
    shutil.copytree(key_path(built).parent, key_path(tmp_path / "data").parent)  # its anchors
    return tmp_path / "data"


def serve_refuses(data_dir: Path, database: str | None = None) -> str:
    """Start ``croupier serve`` on the ledger: it must refuse (exit 3); what it says."""
    cmd = [sys.executable, "-m", "croupier", "serve", "--port", str(free_port()),
           "--data-dir", str(data_dir)] + (["--database", database] if database else [])
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "CROUPIER_DATABASE_URL": ""})
    assert done.returncode == 3, (done.returncode, done.stdout, done.stderr)
    assert "refusing to serve" in done.stderr
    return done.stderr


def sql(engine: sa.Engine, statement: str, **params: Any) -> None:
    with engine.begin() as conn:
        conn.execute(sa.text(statement), params)


def forge_deposit(engine: sa.Engine, player: str, extra_cents: int) -> int:
    """Make the player's first deposit ``extra_cents`` larger, every later balance and the
    wallet adjusted to match; the entry's id."""
    with engine.connect() as conn:
        first = conn.execute(sa.text("SELECT id FROM wallet_entries WHERE player = :p AND "
                                     "kind = 'deposit' ORDER BY id LIMIT 1"), {"p": player}).one()
    sql(engine, "UPDATE wallet_entries SET amount_cents = amount_cents + :x WHERE id = :i",
        x=extra_cents, i=first.id)
    sql(engine, "UPDATE wallet_entries SET balance_after_cents = balance_after_cents + :x "
        "WHERE player = :p AND id >= :i", x=extra_cents, p=player, i=first.id)
    sql(engine, "UPDATE wallets SET balance_cents = balance_cents + :x WHERE player = :p",
        x=extra_cents, p=player)
    return int(first.id)


def forge_settlement(engine: sa.Engine) -> int:
    """A losing $1 settlement of alice's rewritten as "win, paid 500", her seat and the house
    adjusted to match; its seq."""
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT seq, payload FROM events WHERE table_id = 'craps-1' "
                                    "AND kind = 'settle' ORDER BY seq")).all()
    seq, payload = next((r.seq, json.loads(r.payload)) for r in rows
                        if json.loads(r.payload)["f"]["result"] == "lose")
    f = payload["f"]
    assert f["stake"] == {"$d": "1"} and f["taken"] == {"$d": "1"}
    f.update(result="win", paid={"$d": "500"}, taken={"$d": "0"}, returned={"$d": "1"})
    sql(engine, "UPDATE events SET payload = :p WHERE table_id = 'craps-1' AND seq = :s",
        p=json.dumps(payload, separators=(",", ":")), s=seq)
    sql(engine, "UPDATE seats SET chips_cents = chips_cents + 50100 WHERE player = 'alice'")
    sql(engine, "UPDATE tables SET house_cents = house_cents - 50100 WHERE id = 'craps-1'")
    return int(seq)


def rehash(engine: sa.Engine) -> None:
    """What a forger who knows the chain's rules does: recompute every hash."""
    with engine.begin() as conn:
        for t in conn.execute(sa.select(store.tables)).all():
            head = table_genesis(t.id, t.game, t.profile, t.options, t.capacity)
            for e in conn.execute(sa.select(store.events).where(
                    store.events.c.table_id == t.id).order_by(store.events.c.seq)).all():
                head = link(head, event_text(e._mapping))
                conn.execute(store.events.update().where(store.events.c.table_id == t.id,
                             store.events.c.seq == e.seq).values(hash=head))
        for w in conn.execute(sa.select(store.wallets)).all():
            head = wallet_genesis(w.player)
            for e in conn.execute(sa.select(store.wallet_entries).where(
                    store.wallet_entries.c.player == w.player).order_by(
                    store.wallet_entries.c.id)).all():
                head = link(head, entry_text(e._mapping))
                conn.execute(store.wallet_entries.update().where(
                    store.wallet_entries.c.id == e.id).values(hash=head))
            conn.execute(store.wallets.update().where(store.wallets.c.player == w.player)
                         .values(chain_head=head))


def audit(data_dir: Path) -> dict[str, Any]:
    engine = store.make_engine(f"sqlite:///{data_dir / 'croupier.db'}")
    verify.configure(load_key(key_path(data_dir)), key_path(data_dir).with_name("ledger.key.pin"))
    try:
        return verify.verify_ledger(Runner.over(engine).tables, checkpoint=False)
    finally:
        verify.configure(None, None)
        engine.dispose()


def test_deposit_of_1000_made_10000_refuses_to_serve(copy: Path) -> None:
    engine = store.make_engine(f"sqlite:///{copy / 'croupier.db'}")
    entry = forge_deposit(engine, "alice", 900_000)  # the demo's $1000 deposit made $10000
    engine.dispose()
    said = serve_refuses(copy)
    assert f"wallet alice, entry {entry}: its hash does not match its contents" in said


def test_losing_settlement_rewritten_as_win_refuses_to_serve(copy: Path) -> None:
    engine = store.make_engine(f"sqlite:///{copy / 'croupier.db'}")
    seq = forge_settlement(engine)
    engine.dispose()
    said = serve_refuses(copy)
    assert f"table craps-1, event {seq}: its hash does not match its contents" in said


def test_rehashed_forgeries_are_caught_by_checkpoints_and_replay(copy: Path) -> None:
    engine = store.make_engine(f"sqlite:///{copy / 'croupier.db'}")
    seq = forge_settlement(engine)
    forge_deposit(engine, "bob", 900_000)
    rehash(engine)
    engine.dispose()
    report = audit(copy)
    problems = "\n".join(report["problems"])
    # The replay derives the settlement from the recorded roll and names the forged event.
    assert (f"table craps-1, event {seq}: settle: result: recorded 'win', the engine gives "
            "'lose'") in problems
    # The signed checkpoint no longer matches the rewritten chains.
    assert "wallet bob: checkpoint" in problems and "table craps-1, event" in problems
    assert not report["ok"]


def test_postgres_deposit_plus_50000_refuses_to_serve(tmp_path: Path) -> None:
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI"):
            pytest.fail(f"{PG_ENV} is not set in CI")
        pytest.skip(f"{PG_ENV} is not set")
    reset_postgres(url)
    kit = Kit(tmp_path / "data", url)
    kit.play(10, 2)
    entry = forge_deposit(kit.engine, "alice", 5_000_000)
    kit.engine.dispose()
    said = serve_refuses(tmp_path / "data", url)
    assert f"wallet alice, entry {entry}: its hash does not match its contents" in said
