"""The audit's read of a SQLite ledger holds no write lock: the bets go on while it reads.

It took ``BEGIN IMMEDIATE`` like every transaction, so for the whole read of the ledger (0.7 s
at 38,000 events) every commit waited, in the event loop; two auditors verifying in turn
brought a table from 570 bets/s to 7, with bets waiting up to 5 s.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

PASSWORD = "audit-read-pass-1"


def test_a_writer_gets_in_while_the_audit_reads(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from croupier.service import install, preflight
    from croupier.service.app import start_ledger
    from croupier.service.audit import verify

    install.init(tmp_path, None, None, install.FirstUsers(demo=True, demo_password=PASSWORD))
    engine = preflight.open_ledger(tmp_path, None)
    tables = start_ledger(engine)
    real_read = verify.read
    writers: list[str] = []

    def read(conn: Any) -> Any:
        snap = real_read(conn)  # the read's transaction is open here
        other = sqlite3.connect(str(tmp_path / preflight.DB_NAME), timeout=0,
                                isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # what a bet's commit starts with
            other.execute("ROLLBACK")
            writers.append("in")
        finally:
            other.close()
        return snap

    monkeypatch.setattr(verify, "read", read)
    try:
        assert verify.verify_ledger(tables, checkpoint=False)["ok"]
    finally:
        engine.dispose()
    assert writers == ["in"]


def _writer_gets_in(db: Path) -> bool:
    other = sqlite3.connect(str(db), timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # what a bet's commit starts with
        other.execute("ROLLBACK")
        return True
    except sqlite3.OperationalError:  # database is locked
        return False
    finally:
        other.close()


def test_a_read_connection_takes_no_write_lock_where_an_ordinary_one_does(
        tmp_path: Path) -> None:
    import sqlalchemy as sa

    from croupier.service import store

    db = tmp_path / "x.db"
    engine = store.make_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE t (x)")
    try:
        with store.reading(engine) as conn:
            conn.execute(sa.text("SELECT count(*) FROM t")).scalar()  # its transaction is open
            assert _writer_gets_in(db)
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT count(*) FROM t")).scalar()
            assert not _writer_gets_in(db)
    finally:
        engine.dispose()


def test_recall_reads_without_holding_the_bets_back(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from fastapi.testclient import TestClient

    from croupier.service import install, preflight, recall
    from croupier.service.app import create_app
    from croupier.service.audit import keys
    from croupier.service.audit import verify as audit
    from croupier.service.rng import make_rng

    # A test ledger: the app refuses a seeded RNG on any other.
    install.init(tmp_path, None, None, install.FirstUsers(demo=True, demo_password=PASSWORD),
                 test_mode=True)
    engine = preflight.open_ledger(tmp_path, None)
    key_path = keys.key_path(tmp_path, None)
    audit.configure(keys.load_key(key_path), install.pin_path(key_path))
    real = recall.rounds_list
    seen: list[bool] = []

    def rounds_list(conn: Any, table_id: str, limit: int) -> Any:
        found = real(conn, table_id, limit)  # the recall's transaction is open here
        seen.append(_writer_gets_in(tmp_path / preflight.DB_NAME))
        return found

    monkeypatch.setattr(recall, "rounds_list", rounds_list)
    with TestClient(create_app(engine, make_rng(3, True))) as client:
        token = client.post("/auth/login", json={"username": "dealer",
                                                 "password": PASSWORD}).json()["token"]
        r = client.get("/tables/craps-1/rounds", headers={"Authorization": f"Bearer {token}"})
    engine.dispose()
    assert r.status_code == 200, r.text
    assert seen == [True]
