"""Checkpoints are signed every so many events while serving, a ledger
cut short or rolled back no longer reaches the checkpoint pinned outside the database, and
``GET /audit/verify`` on a running server names an edit made under it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.service.audit import chain, snapshot, verify
from croupier.service.audit.keys import key_path, load_key
from croupier.service.audit.snapshot import Snapshot
from croupier.service.audit.verify import verify_ledger
from croupier.service.ledger import Ledger
from croupier.service.tables import Tables

from .conftest import Server
from .ledgerkit import Kit


def test_checkpoints_while_serving_and_the_pin(tmp_path: Path) -> None:
    kit = Kit(tmp_path / "data")
    key = key_path(kit.data_dir)
    verify.configure(load_key(key), key.with_name("ledger.key.pin"), every=25)
    try:
        assert verify_ledger(kit.tables)["ok"]  # attaches the checkpoint writer
        kit.play(30, 0)
        with kit.engine.connect() as conn:
            reasons = [r[0] for r in conn.execute(sa.text("SELECT reason FROM checkpoints"))]
        assert reasons.count("every") >= 3, reasons
        assert verify_ledger(kit.tables)["ok"]
        # Cut short: the table's events from a few before the head the last checkpoint but
        # one signed are removed, with the last checkpoint (as a rollback to an older copy
        # would): the checkpoint that stays signed events that are gone.
        with kit.engine.begin() as conn:
            heads = conn.execute(sa.text("SELECT heads FROM checkpoints ORDER BY id DESC LIMIT 2"
                                         )).all()[-1][0]
            signed = json.loads(heads)["tables"]["craps-1"][0]
            assert signed > 10
            conn.execute(sa.text("DELETE FROM events WHERE table_id = 'craps-1' AND seq > :s"),
                         {"s": signed - 5})
            conn.execute(sa.text("DELETE FROM checkpoints WHERE id = (SELECT max(id) FROM "
                                 "checkpoints)"))
        fresh = Tables(Ledger(kit.engine))
        report = verify.verify_ledger(fresh, checkpoint=False)
        problems = "\n".join(report["problems"])
        assert "pinned outside the database is missing" in problems
        assert "table craps-1, event" in problems and "no longer matches" in problems
    finally:
        verify.configure(None, None)
        kit.engine.dispose()


def test_verify_endpoint_names_an_edit_under_a_running_server(sqlite_server: Server) -> None:
    s = sqlite_server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    s.ok("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    s.ok("dealer", "/tables/craps-1/roll", {})
    assert s.get("auditor", "/audit/verify").json()["ok"]
    engine = sa.create_engine(f"sqlite:///{s.data_dir / 'croupier.db'}")
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE events SET payload = replace(payload, '\"5\"', '\"50\"') "
                             "WHERE table_id = 'craps-1' AND kind = 'bet'"))
        seq = conn.execute(sa.text("SELECT min(seq) FROM events WHERE table_id = 'craps-1' "
                                   "AND kind = 'bet'")).scalar()
    engine.dispose()
    report = s.get("auditor", "/audit/verify").json()
    assert not report["ok"]
    assert report["first"]["where"] == "table craps-1" and report["first"]["seq"] == seq


def test_a_checkpoint_signed_while_verify_reads_is_no_finding(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another writer (a node's timer, a second node) signs and pins a checkpoint after the
    audit's snapshot is taken: the pin the audit compares is the one read before its snapshot,
    so the newer checkpoint is no "cut short" (it was, in a cluster under load)."""
    kit = Kit(tmp_path / "data")
    key = key_path(kit.data_dir)
    pin = key.with_name("ledger.key.pin")
    verify.configure(load_key(key), pin, every=1000)
    other = chain.Checkpointer(kit.engine, load_key(key), pin)
    real_read = snapshot.read

    def read_then_another_signs(conn: sa.Connection) -> Snapshot:
        snap = real_read(conn)
        other.write("every")  # after the snapshot, before the audit looks at the pin
        return snap

    try:
        assert verify_ledger(kit.tables)["ok"]
        kit.play(5, 0)
        monkeypatch.setattr(verify, "read", read_then_another_signs)
        report = verify_ledger(kit.tables, checkpoint=False)
        assert report["ok"], report["problems"]
        monkeypatch.undo()
        # The pin moved on to the newer checkpoint, and a fresh audit holds it.
        with kit.engine.connect() as conn:
            last = conn.execute(sa.text("SELECT max(id), count(*) FROM checkpoints")).one()
        assert last[1] >= 2 and chain.read_pin(pin) is not None
        assert chain.read_pin(pin)["id"] == last[0]  # type: ignore[index]
        assert verify_ledger(kit.tables, checkpoint=False)["ok"]
    finally:
        verify.configure(None, None)
        kit.engine.dispose()
