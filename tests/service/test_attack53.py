"""Attacks on croupier restore's hold of the checkpoint writers' turn (docs/ledger.md,
Backups and restores)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.service import backup
from croupier.service.audit import chain

from .test_attack37 import _backed_up


def test_a_checkpoint_signed_between_the_restores_check_and_its_turn_installs_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(docs/ledger.md, Backups and restores) croupier restore compares the copy with the pin
    and then takes the writers' turn. A croupier audit verify (or backup) on the same ledger
    that signs in between moves the pin onto a checkpoint the copy lacks: the restore installed
    the copy and then could not sign it (BehindPin escaped as a traceback), leaving the copy
    installed, unsigned and behind the pin. Now the pin is read again under the turn and the
    restore refuses with nothing installed."""
    kit, data, signer, pin, copy = _backed_up(tmp_path, bob="5")
    ledger = data / "croupier.db"
    holding = chain.Checkpointer.holding

    @contextlib.contextmanager
    def signed_first(self: chain.Checkpointer) -> Iterator[None]:
        # Another process's audit signs the live ledger just before the restore's turn.
        chain.Checkpointer(kit.engine, signer, pin).write("verify")
        with holding(self):
            yield

    monkeypatch.setattr(chain.Checkpointer, "holding", signed_first)
    kit.engine.dispose()
    before = ledger.read_bytes()
    pinned = pin.read_text(encoding="utf-8")
    done = backup.restore(copy, data, signer, pin, None)
    kit.engine.dispose()
    assert not done.installed and done.problems, done
    assert any("pin" in p for p in done.problems), done.problems
    assert pin.read_text(encoding="utf-8") != pinned  # the audit's checkpoint was pinned
    assert ledger.read_bytes() != before  # ... in the live ledger, which stays in place
    assert not list(data.glob("*.before-restore-*")), "the copy was installed"
    assert chain.read_pin(pin) is not None
    with kit.engine.connect() as conn:
        chain.reaches_pin(conn, pin)  # the ledger in place still holds the pinned checkpoint
    kit.engine.dispose()


def test_a_second_restore_in_the_same_second_keeps_the_first_replaced_ledger(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(docs/ledger.md, Backups and restores) the database a restore replaces is kept beside
    the restored one. A restore stopped after it installed the copy (kill -9 before it signed)
    and run again at once, within the same second, named its kept file as the first had and
    replaced it: the ledger that held what the copy lacks (alice's deposit, the declared gap)
    was gone. Each replaced ledger is now kept under a name of its own."""
    import time

    from croupier.service import store

    kit, data, signer, pin, copy = _backed_up(tmp_path, bob="5")
    kit.deposit("alice", "7")
    chain.Checkpointer(kit.engine, signer, pin).write("verify")
    kit.engine.dispose()
    monkeypatch.setattr(time, "time", lambda: 1_796_000_000.0)
    first = backup.restore(copy, data, signer, pin, "test: the disk was lost")
    second = backup.restore(copy, data, signer, pin, "test: the disk was lost")
    assert first.installed and second.installed, (first, second)
    assert first.kept is not None and second.kept is not None
    assert first.kept != second.kept and first.kept.exists() and second.kept.exists()
    engine = store.make_engine(f"sqlite:///{first.kept.resolve()}")
    try:
        with engine.connect() as conn:
            alice = conn.execute(store.wallets.select().where(
                store.wallets.c.player == "alice")).first()
    finally:
        engine.dispose()
    assert alice is not None and alice.balance_cents >= 700, "alice's deposit was lost"


def test_init_while_the_turn_is_busy_leaves_no_admin_whose_password_was_never_shown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(docs/ledger.md, the signing key and its pin) croupier init without --admin-password
    makes the admin's password and shows it once. While another process held the checkpoint
    writers' turn past the bounded wait, init made the ledger and its admin, then gave up on
    signing: the password was never shown, and the init the error asks for only upgraded the
    ledger (no admin made, none shown), so nobody could log in. Now the turn is taken before
    the ledger is made: the busy init makes nothing and the one run again shows the login."""
    import fcntl
    import os

    from croupier.service import install
    from croupier.service.audit import keys

    data = tmp_path / "data"
    path = keys.key_path(data, None)
    path.parent.mkdir(parents=True)
    monkeypatch.setattr(chain, "WRITER_WAIT_SECONDS", 0.3)
    holder = os.open(install.pin_path(path).with_name("ledger.key.pin.lock"),
                     os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        with pytest.raises(install.InitError):
            install.init(data, None, None, install.FirstUsers())
    finally:
        os.close(holder)
    done = install.init(data, None, None, install.FirstUsers())
    assert done.created and "admin" in done.logins, done
    assert install.pin_path(path).exists()


def test_a_held_turn_is_the_holding_thread_s_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While one thread holds the writers' turn (``Checkpointer.holding``, as a restore
    does), another thread's checkpoint through the same writer waits for the turn as any
    other writer does, and gives up after the bounded wait: it slipped in under the held turn
    and signed."""
    import threading

    kit, _, signer, pin, _ = _backed_up(tmp_path)
    monkeypatch.setattr(chain, "WRITER_WAIT_SECONDS", 0.3)
    writer = chain.Checkpointer(kit.engine, signer, pin)
    outcome: list[BaseException | dict[str, object]] = []

    def other() -> None:
        try:
            outcome.append(writer.write("other thread"))
        except chain.WriterBusy as exc:
            outcome.append(exc)

    try:
        with writer.holding():
            thread = threading.Thread(target=other)
            thread.start()
            thread.join(10)
            assert len(outcome) == 1 and isinstance(outcome[0], chain.WriterBusy), outcome
            assert writer.write("holder")["reason"] == "holder"  # the holder's own still does
    finally:
        kit.engine.dispose()
