"""Checkpoints are signed every so many events while serving, a ledger
cut short or rolled back no longer reaches the checkpoint pinned outside the database, and
``GET /audit/verify`` on a running server names an edit made under it."""

from __future__ import annotations

import json
import threading
import time
from decimal import Decimal
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.service import cashier, store
from croupier.service.audit import chain, snapshot, verify
from croupier.service.audit.keys import key_path, load_key
from croupier.service.audit.snapshot import Snapshot
from croupier.service.audit.ticker import Ticker
from croupier.service.audit.verify import verify_ledger
from croupier.service.ledger import Ledger
from croupier.service.tables import Tables
from serverkit import fresh_schema, postgres_url

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


def _checkpoints(engine: sa.Engine) -> list[str]:
    with engine.connect() as conn:
        return [r[0] for r in conn.execute(sa.text("SELECT reason FROM checkpoints ORDER BY id"))]


def test_a_commit_never_waits_on_another_processs_checkpoint(tmp_path: Path) -> None:
    """A checkpoint falls due while another process holds the checkpoint writers' lock (a
    cluster node stopped in the middle of writing one): the actions whose commits made it due
    are answered at once, and the checkpoint is signed on the ticker's thread once the lock is
    free. Before, a commit that made one due wrote it itself and waited as long as the other
    process held the lock; and while the ticker waited there, every commit's count waited on
    the writer's own lock behind it. A node that took over a stalled node's table so answered
    nothing (tests/cluster/test_nodes.py, past its 20 s, in CI)."""
    url = fresh_schema(postgres_url(": the checkpoint writers' lock is PostgreSQL's"))
    kit = Kit(tmp_path / "data", url)
    key = key_path(kit.data_dir)
    verify.configure(load_key(key), key.with_name("ledger.key.pin"), every=3)
    writer = verify.writer(kit.engine, load_key(key))
    kit.ledger.after_commit = writer.count
    ticker = Ticker(writer, within=3600).start()  # only woken by a checkpoint falling due
    stalled = sa.create_engine(url)
    try:
        with stalled.connect() as conn:
            conn.execute(sa.text("SELECT pg_advisory_lock(:k)"), {"k": chain._WRITE_LOCK})
            conn.commit()
            before = len(_checkpoints(kit.engine))
            playing = threading.Thread(target=kit.play, args=(3, 0))
            playing.start()
            playing.join(8)
            assert not playing.is_alive(), "a commit waited on the other process's checkpoint"
            assert len(_checkpoints(kit.engine)) == before
            conn.execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": chain._WRITE_LOCK})
            conn.commit()
        deadline = time.monotonic() + 20
        while "every" not in _checkpoints(kit.engine)[before:]:
            assert time.monotonic() < deadline, "the due checkpoint was never signed"
            time.sleep(0.05)
    finally:
        ticker.close()
        verify.configure(None, None)
        stalled.dispose()
        kit.engine.dispose()
    fresh = store.make_engine(url)
    try:
        assert verify_ledger(Tables(Ledger(fresh)), checkpoint=False)["ok"]
    finally:
        fresh.dispose()


def test_a_checkpoint_writer_waits_a_bounded_time(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """While another process holds the writers' lock, a checkpoint gives up after
    WRITER_WAIT_SECONDS (nothing signed, said so) and an audit says it signed none."""
    url = fresh_schema(postgres_url(": the checkpoint writers' lock is PostgreSQL's"))
    kit = Kit(tmp_path / "data", url)
    key = key_path(kit.data_dir)
    verify.configure(load_key(key), key.with_name("ledger.key.pin"))
    monkeypatch.setattr(chain, "WRITER_WAIT_SECONDS", 1)
    stalled = sa.create_engine(url)
    try:
        with stalled.connect() as conn:
            conn.execute(sa.text("SELECT pg_advisory_lock(:k)"), {"k": chain._WRITE_LOCK})
            conn.commit()
            before = _checkpoints(kit.engine)
            started = time.monotonic()
            with pytest.raises(chain.WriterBusy, match="none was signed"):
                chain.Checkpointer(kit.engine, load_key(key), None).write("every")
            assert time.monotonic() - started < 5
            report = verify_ledger(kit.tables)
            assert report["ok"], report["problems"]
            assert any("no checkpoint signed" in n for n in report["notes"]), report["notes"]
            assert _checkpoints(kit.engine) == before
    finally:
        verify.configure(None, None)
        stalled.dispose()
        kit.engine.dispose()


def test_a_timer_does_not_sign_again_what_a_backup_just_signed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The timer looked (the chains had moved), then a backup signed its checkpoint and copied
    the ledger, then the timer signed the same heads again: the pin named a checkpoint the copy
    lacked, and the quiet copy was refused as older than the anchor (seen in CI). The timer now
    looks again under the writers' lock and signs nothing."""
    kit = Kit(tmp_path / "data")
    key = key_path(kit.data_dir)
    pin = key.with_name("ledger.key.pin")
    try:
        kit.play(2, 0)
        ticker = Ticker(chain.Checkpointer(kit.engine, load_key(key), pin), within=3600)
        backup = chain.Checkpointer(kit.engine, load_key(key), pin)
        looked = ticker.unsigned

        def looked_then_a_backup_signed() -> bool:
            moved = looked()
            backup.write("backup")
            return moved

        monkeypatch.setattr(ticker, "unsigned", looked_then_a_backup_signed)
        assert ticker.tick() is False and ticker.signed == 0
        reasons = _checkpoints(kit.engine)
        assert reasons[-1] == "backup" and "timer" not in reasons
        with kit.engine.connect() as conn:
            last = conn.execute(sa.text("SELECT max(id) FROM checkpoints")).scalar_one()
        assert chain.read_pin(pin)["id"] == last  # type: ignore[index]
        monkeypatch.undo()
        craps = kit.tables.all["craps-1"]  # the chains move: the timer signs
        kit.act("bob", "craps-1", cashier.buy_in(kit.ledger, kit.users["bob"], craps,
                                                 Decimal(10)))
        assert ticker.tick() is True and _checkpoints(kit.engine)[-1] == "timer"
    finally:
        kit.engine.dispose()


def test_an_audit_whose_checkpoint_finds_the_ledger_cut_short_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ledger as the audit read it reached the pin; by the time it signs, a database
    writer had deleted the pinned checkpoint. The audit answers with that as a finding (the
    checkpoint is refused, nothing signed), where the refusal escaped it as an error (500)."""
    kit = Kit(tmp_path / "data")
    key = key_path(kit.data_dir)
    verify.configure(load_key(key), key.with_name("ledger.key.pin"))
    pinned = json.loads(key.with_name("ledger.key.pin").read_text())["id"]
    real_read = verify.read

    def read_then_cut(conn: sa.Connection) -> Snapshot:
        snap = real_read(conn)
        with kit.engine.begin() as writer:  # another connection: the database writer
            writer.execute(store.checkpoints.delete().where(store.checkpoints.c.id == pinned))
        return snap

    monkeypatch.setattr(verify, "read", read_then_cut)
    try:
        before = _checkpoints(kit.engine)
        report = verify_ledger(kit.tables)
        assert not report["ok"]
        assert any("no checkpoint signed" in p and "missing" in p
                   for p in report["problems"]), report["problems"]
        assert len(_checkpoints(kit.engine)) == len(before) - 1  # the cut one; none signed
    finally:
        verify.configure(None, None)
        kit.engine.dispose()
