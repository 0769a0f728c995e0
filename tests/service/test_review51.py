"""Review of the day's changes to the signed checkpoints and the pin.

Found (1): ``croupier init`` on a new database beside another ledger's key and pin (its
database removed, the anchors folder kept) is refused, as it should be, and names two ways on:
a key folder of its own (``--key-file``) or that key and pin moved aside. But the refusal came
after init had recorded the old ledger's key in the new database (``ledger_keys``), so both
ways were then refused too ("this ledger's signing key is not at ...: a ledger never gets a
second first key"): the refused init changed the database, and the new ledger could not be made
without deleting it again (on PostgreSQL, dropping the database). Now the pin is checked before
any key is recorded.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import sqlalchemy as sa

from croupier.service import install, store
from croupier.service.audit import keys

RULE = "docs/ledger.md, The anchors: the key and the pin"
PASSWORD = "a long passphrase"


def _users() -> install.FirstUsers:
    return install.FirstUsers(admin_password=PASSWORD)


def _keys_recorded(data: Path) -> int:
    engine = store.make_engine(f"sqlite:///{(data / 'croupier.db').resolve()}")
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text("SELECT count(*) FROM ledger_keys")).scalar() or 0)
    finally:
        engine.dispose()


@pytest.mark.parametrize("way", ["key folder of its own", "old key and pin moved aside"])
def test_init_refused_beside_another_ledger_s_pin_records_no_key(tmp_path: Path,
                                                                  way: str) -> None:
    """(docs/ledger.md, The anchors: the key and the pin) The refusal changes nothing, so
    either way it names then makes the new ledger."""
    data = tmp_path / "data"
    install.init(data, None, None, _users())
    for name in data.glob("croupier.db*"):
        name.unlink()
    with pytest.raises(install.InitError, match="another ledger's"):
        install.init(data, None, None, _users())
    assert _keys_recorded(data) == 0, f"a refused init recorded a key ({RULE})"
    if way == "key folder of its own":
        own = tmp_path / "own-anchors"
        own.mkdir(mode=0o700)
        done = install.init(data, None, own / "ledger.key", _users())
    else:
        anchors = keys.anchors_dir(data)
        os.replace(anchors, anchors.with_name("old-anchors"))
        done = install.init(data, None, None, _users())
    assert done.created and done.key_created
    assert _keys_recorded(data) == 1


def test_rotate_key_while_another_holds_the_writers_turn_leaves_nothing_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(docs/ledger.md, The anchors: the key and the pin) ``croupier audit rotate-key`` while
    another process holds the checkpoint writers' turn (a ``croupier audit verify`` stopped
    while it signed) gives up after the bounded wait: it made the new key first and left it
    staged (``ledger.key.new``), and every later rotation was refused on that file, never
    made again. Now nothing is made until the turn is held: the key and pin are as they were,
    and the next rotation, with the turn free, is done."""
    import fcntl

    from croupier.service.audit import chain, rotation

    data = tmp_path / "data"
    done = install.init(data, None, None, _users())
    path = done.key_path
    key_text, pin_text = path.read_bytes(), install.pin_path(path).read_text()
    engine = store.make_engine(f"sqlite:///{(data / 'croupier.db').resolve()}")
    monkeypatch.setattr(chain, "WRITER_WAIT_SECONDS", 0.3)
    try:
        old = keys.load_key(path)
        holder = os.open(install.pin_path(path).with_name("ledger.key.pin.lock"),
                         os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            fcntl.flock(holder, fcntl.LOCK_EX)
            with pytest.raises(chain.WriterBusy):
                rotation.rotate(engine, old, path)
        finally:
            os.close(holder)
        assert not path.with_name("ledger.key.new").exists(), "a staged key was left behind"
        assert path.read_bytes() == key_text
        assert install.pin_path(path).read_text() == pin_text
        _, new, _ = rotation.rotate(engine, old, path)
        assert keys.load_key(path).key_id == new.key_id != old.key_id
    finally:
        engine.dispose()


def test_init_while_another_holds_the_writers_turn_says_what_to_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``croupier init`` while another process holds the checkpoint writers' turn beside the
    key gives up after the bounded wait: it says so, and what to do, as an init error (exit
    2), where the wait's error escaped as a traceback. The turn is taken before the ledger is
    made: run again with the turn free, it makes the ledger and signs it as init."""
    import fcntl

    from croupier.service.audit import chain

    data = tmp_path / "data"
    path = keys.key_path(data, None)
    path.parent.mkdir(parents=True)
    monkeypatch.setattr(chain, "WRITER_WAIT_SECONDS", 0.3)
    holder = os.open(install.pin_path(path).with_name("ledger.key.pin.lock"),
                     os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        with pytest.raises(install.InitError, match="nothing signed; run croupier init again"):
            install.init(data, None, None, _users())
    finally:
        os.close(holder)
    done = install.init(data, None, None, _users())
    assert done.created and install.pin_path(path).exists()


def test_restore_while_another_holds_the_writers_turn_installs_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(docs/ledger.md, Backups and restores) ``croupier restore`` takes the checkpoint
    writers' turn before it installs the copy and keeps it until the copy is signed. While
    another process holds the turn past the bounded wait it gives up before anything is
    installed: the ledger it would replace is as it was. It installed the copy and then gave up
    on signing it, leaving it unsigned (and, with a declared gap past the pin, unsigned for
    good). With the turn free, the same restore installs and signs."""
    import fcntl

    from croupier.service import backup
    from croupier.service.audit import chain

    from .test_attack37 import _backed_up

    kit, data, signer, pin, copy = _backed_up(tmp_path, bob="5")
    kit.engine.dispose()
    ledger = data / "croupier.db"
    before = ledger.read_bytes()
    monkeypatch.setattr(chain, "WRITER_WAIT_SECONDS", 0.3)
    holder = os.open(pin.with_name(pin.name + ".lock"), os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        with pytest.raises(chain.WriterBusy):
            backup.restore(copy, data, signer, pin, None)
    finally:
        os.close(holder)
    assert ledger.read_bytes() == before, "the copy was installed while the turn was busy"
    assert not list(data.glob("*.restoring*"))
    done = backup.restore(copy, data, signer, pin, None)
    assert done.installed and done.checkpoint, done
