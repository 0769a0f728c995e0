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

    install.init(tmp_path, None, None, "admin", None, True, PASSWORD)
    engine = preflight.open_ledger(tmp_path, None)
    ledger = start_ledger(engine)
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
        assert verify.verify_ledger(ledger, checkpoint=False)["ok"]
    finally:
        engine.dispose()
    assert writers == ["in"]
