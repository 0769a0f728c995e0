"""Attacks on the signed checkpoints and the pin, over a real ``croupier serve`` on PostgreSQL.

Found (1): the checkpoint writer signed whatever the database held and moved the pin onto it,
without looking whether the checkpoint the pin named was still there. Someone who can write the
database but holds no key cut a ledger short while it was served (alice's last deposit, its
stored reply and the checkpoints that signed it deleted, her wallet put back as before): the
next timed checkpoint (at most 5 s after any other event, here bob's deposit) signed the ledger
so cut, numbered after the last checkpoint left, and pinned it; ``GET /audit/verify`` then
answered ok, the deposit gone without a trace. The pin exists to name exactly that (docs/
ledger.md: a ledger rolled back or cut short no longer reaches its pin). Now a writer signs
nothing while the pinned checkpoint is missing or changed, so the audit keeps naming it.

Found (3): on SQLite the server's timed checkpoint took the server's SQLite writer lock, then
waited without a bound for the writers' lock file beside the pin, which a command signing a
checkpoint (croupier audit verify, backup) holds while it numbers and pins. Such a command
stopped there (Ctrl-Z, SIGSTOP) stopped the server's signing for as long, and every deposit,
cash-out and coupon waited behind the writer lock: a deposit got no answer at all. Now the
timer waits for the lock file (10 s at most, then tries again at its next tick) before it takes
the writer lock, and every wait for the lock file is bounded.

Found (2): ``croupier init`` on a ledger that exists signed its checkpoint with reason ``init``
too, and on an older release's ledger (no checkpoint yet) that was checkpoint 1, the one a
test-ledger mark counts under. Between the migration (any ``croupier serve`` on it runs it,
then stops for want of a key) and the ``croupier init`` that keys it, a database writer put the
mark first in its house chain, unsigned so far, and rehashed the chain; the upgrade signed it
as init, and the production ledger became a test ledger: a seeded ``serve`` was accepted and
the audit called its seeded draws a test ledger's. Now only the init that makes a ledger signs
as init; an upgrade signs as ``upgrade``, under which a mark is named, never counted.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from croupier.service import register, store
from croupier.service.audit import chain, keys
from croupier.service.audit.canonical import canonical

from .conftest import Server, free_port, make_server
from .test_seeded_ledger import put_mark_first

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

RULE = "docs/ledger.md, The anchors: the key and the pin"


def pin_of(data: Path) -> dict[str, Any]:
    pin: dict[str, Any] = json.loads((keys.anchors_dir(data) / "ledger.key.pin").read_text())
    return pin


def signed_as_it_stands(engine: sa.Engine, data: Path, within: float = 6.5) -> None:
    """Wait (6.5 s at most: a tick every 2.5 s signs what moved) until the pin holds every
    chain's head as it stands."""
    deadline = time.monotonic() + within
    while True:
        with engine.connect() as conn:
            now = canonical(chain.heads(conn))
        if pin_of(data)["checkpoint"]["heads"] == now:
            return
        assert time.monotonic() < deadline, f"no timed checkpoint signed the last event in {within} s"
        time.sleep(0.2)


def deposit(s: Server, player: str, amount: str) -> str:
    r = s.post("admin", f"/wallets/{player}/deposits", {"amount": amount})
    assert r.status_code == 200, r.text
    balance: str = r.json()["balance"]
    return balance


def test_a_ledger_cut_short_while_served_is_not_signed_over(tmp_path: Path) -> None:
    """(docs/ledger.md, The anchors: the key and the pin) A database writer cuts alice's last
    deposit out of the served ledger with the checkpoints that signed it; other play goes on.
    The server signs no checkpoint over the cut, the pin stays on the checkpoint it named, and
    the audit names the ledger cut short."""
    s = make_server("postgresql", tmp_path)
    s.start()
    assert s.database is not None
    engine = sa.create_engine(s.database)
    try:
        before = deposit(s, "alice", "100")
        signed_as_it_stands(engine, tmp_path)
        after = deposit(s, "alice", "250")
        assert (float(after) - float(before)) == 250
        signed_as_it_stands(engine, tmp_path)
        pinned = pin_of(tmp_path)
        with engine.begin() as conn:
            last = conn.execute(sa.text(
                "SELECT id, hash FROM wallet_entries WHERE player = 'alice' ORDER BY id DESC "
                "LIMIT 2")).all()
            cut, kept = last[0], last[1]
            conn.execute(sa.text("DELETE FROM wallet_entries WHERE id = :i"), {"i": cut.id})
            conn.execute(sa.text(
                "UPDATE wallets SET balance_cents = balance_cents - 25000, chain_head = :h "
                "WHERE player = 'alice'"), {"h": kept.hash})
            conn.execute(sa.text("DELETE FROM idempotency WHERE body LIKE :b"),
                         {"b": f'%"{after}"%'})
            gone = [int(r.id) for r in conn.execute(sa.text("SELECT id, heads FROM checkpoints"))
                    if cut.hash in r.heads]
            assert gone and pinned["id"] in gone
            conn.execute(sa.text("DELETE FROM checkpoints WHERE id >= :i"), {"i": min(gone)})
        deposit(s, "bob", "7")  # the chains move on: a timed checkpoint is due
        time.sleep(6.5)  # within 5 s plus a tick: it would have signed by now
        assert pin_of(tmp_path) == pinned, "the pin was moved onto the ledger cut short"
        report = s.audit()
        assert not report["ok"], report
        assert any("pinned outside the database is missing or changed" in f["what"]
                   for f in report["findings"]), report["findings"]
        with engine.connect() as conn:
            signed = conn.execute(sa.text("SELECT count(*) FROM checkpoints")).scalar_one()
        assert signed == min(gone) - 1, "a checkpoint was signed over the cut"
        assert "no checkpoint signed" in (tmp_path / "server.log").read_text()
    finally:
        s.stop()
        engine.dispose()


def croupier(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("CROUPIER_DATABASE_URL", keys.KEY_ENV)}
    return subprocess.run([sys.executable, "-m", "croupier", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, env=env)


def test_a_mark_put_first_before_an_old_ledger_is_keyed_makes_no_test_ledger(
        tmp_path: Path) -> None:
    """(docs/ledger.md, The seeded RNG) ``ledger-v1`` (an older release's, no checkpoint):
    a serve migrates it and stops (no key yet); a database writer puts the test-ledger mark
    first in its house chain, every hash recomputed; the operator runs ``croupier init`` as
    told. The ledger stays a production ledger: a seeded serve is refused, and the audit names
    the mark."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    shutil.copy(FIXTURES / "ledger-v1" / "croupier.db", data / "croupier.db")
    unkeyed = croupier("serve", "--data-dir", data, "--port", str(free_port()))
    assert unkeyed.returncode == 2 and "signing key" in unkeyed.stderr, unkeyed.stderr
    engine = store.make_engine(f"sqlite:///{(data / 'croupier.db').resolve()}")
    try:
        with engine.begin() as conn:
            assert not conn.execute(sa.text("SELECT count(*) FROM checkpoints")).scalar()
            old = register.rows(conn)
            assert old  # the migration put the older release's records in the house chain
            put_mark_first(conn, old)
    finally:
        engine.dispose()
    keyed = croupier("init", "--data-dir", data)
    assert keyed.returncode == 0, keyed.stderr
    seeded = croupier("serve", "--data-dir", data, "--port", str(free_port()),
                      "--insecure-test-rng-seed", "7", "--test-mode", timeout=60)
    assert seeded.returncode == 2, (seeded.returncode, seeded.stdout, seeded.stderr)
    assert "refusing a seeded RNG" in seeded.stderr and "not a test ledger" in seeded.stderr
    done = croupier("audit", "verify", "--data-dir", data, "--json")
    report = json.loads(done.stdout)
    assert done.returncode == 1 and not report["ok"], report
    assert [f["seq"] for f in report["findings"] if f["where"] == "house records"
            and "a test-ledger mark that init did not make" in f["what"]] == [1], report
    assert not any("a test ledger (made with" in n for n in report["notes"]), report["notes"]


def test_init_beside_another_ledger_s_pin_is_refused_before_it_makes_anything(
        tmp_path: Path) -> None:
    """(docs/ledger.md, The anchors: the key and the pin) A new ledger made where another's
    key and pin still are (its database removed, the anchors folder kept) would have its
    checkpoint 1 signed past that pin: init refuses before it makes a user, saying whose pin it
    is and what to do; with the pin moved aside it makes the ledger, which verifies."""
    data = tmp_path / "data"
    assert croupier("init", "--data-dir", data).returncode == 0
    for name in data.glob("croupier.db*"):
        name.unlink()
    refused = croupier("init", "--data-dir", data)
    assert refused.returncode == 2, (refused.stdout, refused.stderr)
    assert "is missing from the ledger" in refused.stderr
    assert "the pin beside the key" in refused.stderr and "another ledger's" in refused.stderr
    engine = store.make_engine(f"sqlite:///{(data / 'croupier.db').resolve()}")
    try:
        with engine.connect() as conn:
            assert not conn.execute(sa.text("SELECT count(*) FROM users")).scalar()
            assert not conn.execute(sa.text("SELECT count(*) FROM checkpoints")).scalar()
    finally:
        engine.dispose()
    pin = keys.anchors_dir(data) / "ledger.key.pin"
    pin.rename(pin.with_name("old.pin"))
    assert croupier("init", "--data-dir", data).returncode == 0
    assert croupier("audit", "verify", "--data-dir", data).returncode == 0


def test_backup_export_and_rotation_of_a_ledger_cut_short_are_refused(tmp_path: Path) -> None:
    """(docs/ledger.md, The anchors: the key and the pin) The ledger's last checkpoint, the
    pinned one, deleted by a database writer: ``croupier backup`` signed its own checkpoint
    over the cut and pinned it (the audit passed after it, the copy too), and ``audit export``
    did the same. Both now refuse (exit 1, saying why), copy nothing, and leave the pin; so
    does ``audit rotate-key``, before it makes or moves a key."""
    data = tmp_path / "data"
    assert croupier("init", "--data-dir", data, "--demo", "--demo-password",
                    "correct horse battery staple").returncode == 0
    assert croupier("audit", "verify", "--data-dir", data).returncode == 0  # signs, pins
    pin = keys.anchors_dir(data) / "ledger.key.pin"
    pinned = pin.read_text()
    engine = store.make_engine(f"sqlite:///{(data / 'croupier.db').resolve()}")
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("DELETE FROM checkpoints WHERE id = :i"),
                         {"i": json.loads(pinned)["id"]})
    finally:
        engine.dispose()
    copy, bundle = tmp_path / "copy.db", tmp_path / "bundle.json"
    for done, out in ((croupier("backup", "--data-dir", data, copy), copy),
                      (croupier("audit", "export", "--data-dir", data, bundle), bundle)):
        assert done.returncode == 1, (done.stdout, done.stderr)
        assert "pinned outside the database" in done.stderr and "is missing" in done.stderr
        assert not out.exists()
    assert pin.read_text() == pinned
    key = pin.with_name("ledger.key")
    held = key.read_bytes()
    rotated = croupier("audit", "rotate-key", "--data-dir", data)
    assert rotated.returncode == 1 and "is missing" in rotated.stderr, rotated.stderr
    assert key.read_bytes() == held and not key.with_name("ledger.key.new").exists()
    assert pin.read_text() == pinned
    audited = croupier("audit", "verify", "--data-dir", data)
    assert audited.returncode == 1
    assert "the checkpoint pinned outside the database is missing or changed" in audited.stdout


HOLD_THE_TURN = """
import os, signal, sys
from pathlib import Path
from croupier.service import store
from croupier.service.audit import chain, keys
data = Path(sys.argv[1])
key = keys.key_path(data)
engine = store.make_engine(f"sqlite:///{(data / 'croupier.db').resolve()}")
writer = chain.Checkpointer(engine, keys.load_key(key), key.with_name("ledger.key.pin"))
with writer.one_writer():
    print("held", flush=True)
    os.kill(os.getpid(), signal.SIGSTOP)
"""


def test_a_command_stopped_in_its_checkpoint_holds_no_deposit_back(tmp_path: Path) -> None:
    """(docs/ledger.md, Signed checkpoints) A process signing a checkpoint on the SQLite
    ledger (as croupier audit verify does, with the server's own code) is stopped while it
    holds the writers' turn. Deposits go on being answered at once, and once it is gone the
    timer signs what waited."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    s = Server(data, None)
    s.start()
    holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_TURN, str(data)],
                              stdout=subprocess.PIPE, text=True)
    engine = sa.create_engine(f"sqlite:///{data / 'croupier.db'}")
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        deposit(s, "alice", "10")  # the chains move: the timer looks within 2.5 s
        moved = time.monotonic()
        time.sleep(3.5)
        for amount in ("11", "12"):
            started = time.monotonic()
            deposit(s, "alice", amount)
            assert time.monotonic() - started < 3, "a deposit waited behind the signing timer"
        time.sleep(max(0.0, moved + 13.5 - time.monotonic()))  # its wait is 10 s at most
        assert "no timed checkpoint signed" in (data / "server.log").read_text()
        holder.kill()
        holder.wait(10)
        signed_as_it_stands(engine, data, within=15)  # signing goes on once the turn is free
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait(10)
        s.stop()
        engine.dispose()
