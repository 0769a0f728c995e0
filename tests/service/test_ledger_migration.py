"""A ledger written by the previous release (schema 0001, no hashes)
still loads: migration 0002 seals its events and wallet entries as they stand, and ``croupier
init`` gives it a signing key, after which it verifies and any later edit is named."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from croupier.service import store
from croupier.service.audit import keys
from croupier.service.audit.verify import verify_ledger
from croupier.service.runner import Runner

from .ledgerkit import Kit


def _alembic(engine: sa.Engine, verb: str, revision: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location",
                        str(Path(store.__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        getattr(command, verb)(cfg, revision)


def test_an_old_ledger_is_sealed_and_keyed(tmp_path: Path) -> None:
    kit = Kit(tmp_path / "data")
    kit.play(20, 5)
    events = verify_ledger(kit.tables)["events"]
    # What the previous release left: schema 0001, no hash columns, no key, no checkpoints.
    _alembic(kit.engine, "downgrade", "0001")
    kit.engine.dispose()
    for name in ("ledger.key", "ledger.key.pin"):
        (keys.anchors_dir(tmp_path / "data") / name).unlink()
    engine = store.make_engine(kit.url)
    assert "hash" not in {c["name"] for c in sa.inspect(engine).get_columns("events")}
    store.upgrade(engine)  # migration 0002 seals what is there
    report = verify_ledger(Runner.over(engine).tables)
    assert report["ok"] and report["events"] == events, report["problems"]
    engine.dispose()
    env = {k: v for k, v in os.environ.items() if k != "CROUPIER_DATABASE_URL"}
    done = subprocess.run([sys.executable, "-m", "croupier", "init", "--data-dir",
                           str(tmp_path / "data")], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0 and "already initialised" in done.stdout, done.stderr
    assert "signing key" in done.stdout
    assert (keys.anchors_dir(tmp_path / "data") / "ledger.key").exists()
    assert not (tmp_path / "data" / "ledger.key").exists()  # the key is outside the folder
    engine = store.make_engine(kit.url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE events SET actor = 'mallory' WHERE table_id = 'craps-1' "
                             "AND seq = 7"))
    report = verify_ledger(Runner.over(engine).tables)
    engine.dispose()
    assert report["first"]["where"] == "table craps-1" and report["first"]["seq"] == 7
