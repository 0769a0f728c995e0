"""SQLite's WAL checkpoints run on their own thread: a commit never copies the log back."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.service import store
from croupier.service.checkpoints import WalCheckpoints


def _fill(engine: sa.Engine, rows: int) -> None:
    """Enough commits to take the log past SQLite's default 1,000-page automatic checkpoint."""
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS t (x BLOB)")
    for _ in range(rows):
        with engine.begin() as conn:
            conn.exec_driver_sql("INSERT INTO t VALUES (randomblob(8000))")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "ledger.db"


def test_connections_leave_checkpoints_to_the_thread(db: Path) -> None:
    engine = store.make_engine(f"sqlite:///{db}")
    checkpoints = WalCheckpoints(engine, every=3600)  # the thread never ticks in this test
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
        _fill(engine, 600)  # about 1,200 pages of log
        # No commit checkpointed: the main file holds none of the rows yet.
        assert db.stat().st_size < 100_000
        busy, frames, copied = checkpoints.checkpoint()
        assert busy == 0 and frames > 1000 and copied == frames
        assert db.stat().st_size > 600 * 8000
    finally:
        checkpoints.close()
        engine.dispose()


def test_without_it_a_commit_checkpoints(db: Path) -> None:
    """The behaviour the thread takes over: by default the commit past 1,000 pages copies."""
    engine = store.make_engine(f"sqlite:///{db}")
    try:
        _fill(engine, 600)
        assert db.stat().st_size > 100_000
    finally:
        engine.dispose()


def test_the_thread_checkpoints_and_close_empties_the_log(db: Path) -> None:
    engine = store.make_engine(f"sqlite:///{db}")
    checkpoints = WalCheckpoints(engine, every=0.05).start()
    try:
        _fill(engine, 300)
        deadline = time.monotonic() + 30
        while db.stat().st_size < 300 * 8000 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert db.stat().st_size >= 300 * 8000, "the thread copied nothing back in 30 s"
    finally:
        engine.dispose()
        checkpoints.close()
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    rows = sa.create_engine(f"sqlite:///{db}")
    with rows.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM t").scalar() == 300
    rows.dispose()


def test_only_a_sqlite_file(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="SQLite database file"):
        WalCheckpoints(sa.create_engine("sqlite://"))
