"""Recomputing the hash chains, and the signed checkpoints that pin them.

A checkpoint records each chain's head (a table's last event ``seq`` and hash, a wallet's last
hash), the hash of the checkpoint before it, and the key that signs it; the signature covers
its canonical form. Checkpoints are written every :data:`EVERY` events, at most
``croupier serve``'s ``--checkpoint-within`` seconds (5) after any event not yet signed, at a
clean shutdown, at every verification (start-up included) and by ``croupier init``. The latest
checkpoint (its id, hash and the signed row itself) is also kept in a pin file next to the key
(outside the database and its folder), so a ledger rolled back or cut short (events, entries
or checkpoints deleted from the end) no longer reaches its pin. Once a ledger has a
checkpoint, a pin file that is missing or cannot be read is a finding of its own.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from croupier.service import people, register, store
from croupier.service.audit.canonical import (
    FORMAT,
    canonical,
    entry_text,
    event_text,
    genesis_of,
    link,
    wallet_genesis,
)
from croupier.service.audit.keys import Retired, Signer, check_signature
from croupier.service.audit.snapshot import Finding, Snapshot

log = logging.getLogger("croupier.service")

EVERY = 1000
"""Events between two checkpoints written while serving."""


@dataclass
class Chains:
    """The recomputed chains: every hash of each table (seq -> hash) and wallet (the set)."""

    tables: dict[str, dict[int, str]] = field(default_factory=dict)
    wallets: dict[str, set[str]] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    records: dict[int, str] = field(default_factory=dict)
    """The house's chain (``service/register.py``): seq -> hash."""
    users: dict[int, str] = field(default_factory=dict)
    """The users' chain (``service/people.py``): seq -> hash."""


def recompute(snap: Snapshot) -> Chains:
    """Every chain recomputed from its records; the first record of each whose stored hash
    differs from the recomputed one, or whose place in the order is wrong, is named."""
    out = Chains()
    for t in snap.tables:
        head = genesis_of(t)
        hashes = out.tables[t["id"]] = {0: head}
        flagged = False
        for expected, e in enumerate(snap.events.get(t["id"], []), start=1):
            head = link(head, event_text(e))
            hashes[e["seq"]] = head
            if flagged:
                continue
            if e["seq"] != expected:
                what = f"expected event {expected} here: events are missing or renumbered"
            elif e["hash"] != head:
                what = f"its hash does not match its contents ({e['kind']}, {e['payload']})"
            else:
                continue
            out.findings.append(Finding(f"table {t['id']}", e["seq"], what))
            flagged = True
    for w in snap.wallets:
        head = wallet_genesis(w["player"])
        seen = out.wallets[w["player"]] = {head}
        flagged = False
        for e in snap.entries.get(w["player"], []):
            head = link(head, entry_text(e))
            seen.add(head)
            if e["hash"] != head and not flagged:
                out.findings.append(Finding(f"wallet {w['player']}", e["id"], (
                    f"its hash does not match its contents ({e['kind']} "
                    f"{e['amount_cents']} cents, balance after {e['balance_after_cents']})")))
                flagged = True
        if (w["chain_head"] or wallet_genesis(w["player"])) != head and not flagged:
            out.findings.append(Finding(f"wallet {w['player']}", None,
                                        "the wallet's chain head is not its last entry's hash"))
    out.records, found = register.recompute(snap.records)
    out.findings.extend(found)
    out.users, found = people.recompute(snap.user_records)
    out.findings.extend(found)
    return out


def checkpoint_message(row: dict[str, Any]) -> str:
    """What a checkpoint's signature covers."""
    return canonical({"id": row["id"], "at": float(row["at"]), "heads": row["heads"],
                      "prev": row["prev"], "key_id": row["key_id"], "reason": row["reason"]})


def checkpoint_hash(row: dict[str, Any]) -> str:
    return link(FORMAT, checkpoint_message(row))


def check_checkpoints(snap: Snapshot, chains: Chains, trusted: dict[str, str],
                      pin: dict[str, Any] | None, retired: dict[str, Retired] | None = None,
                      ) -> list[Finding]:
    """Each checkpoint signed by a trusted key (a retired key only before its rotation),
    linked to the one before, and every head it signed still in the recomputed chains; the
    pinned checkpoint present and unchanged."""
    findings: list[Finding] = []
    prev = FORMAT
    by_id: dict[int, str] = {}
    for c in snap.checkpoints:
        where = f"checkpoint {c['id']}"
        public = trusted.get(c["key_id"])
        gone = (retired or {}).get(c["key_id"])
        if public is None:
            findings.append(Finding(where, None, f"signed by key {c['key_id']}, not a trusted key"))
        elif not check_signature(public, checkpoint_message(c), c["signature"]):
            findings.append(Finding(where, None, "its signature does not verify"))
        elif gone is not None and not gone.covers(int(c["id"]), float(c["at"])):
            until = (f"checkpoint {gone.last_checkpoint}" if gone.last_checkpoint is not None
                     else "its rotation")
            findings.append(Finding(where, None, (
                f"signed by key {c['key_id']}, which was retired after {until} (rotated to "
                f"{gone.by}): a retired key signs nothing after its rotation")))
        if c["prev"] != prev:
            findings.append(Finding(where, None, "it does not follow the checkpoint before it"))
        prev = by_id[c["id"]] = checkpoint_hash(c)
        findings.extend(_heads_found(where, json.loads(c["heads"]), chains))
    if pin is not None and by_id.get(int(pin["id"])) != pin["hash"]:
        findings.append(Finding(f"checkpoint {pin['id']}", None, (
            "the checkpoint pinned outside the database is missing or changed: the ledger was "
            "rolled back, cut short or rewritten")))
    return findings


def _heads_found(where: str, heads: dict[str, Any], chains: Chains) -> list[Finding]:
    findings: list[Finding] = []
    for table_id, (seq, digest) in heads.get("tables", {}).items():
        got = chains.tables.get(table_id, {}).get(int(seq))
        if got != digest:
            findings.append(Finding(f"table {table_id}", int(seq), (
                f"{where} signed this table's chain up to here and it no longer matches: an "
                f"event up to {seq} was changed, removed or its hashes rewritten")))
    for player, digest in heads.get("wallets", {}).items():
        if digest not in chains.wallets.get(player, set()):
            findings.append(Finding(f"wallet {player}", None, (
                f"{where} signed this wallet's chain and it no longer holds that point: an "
                "entry was changed, removed or its hashes rewritten")))
    if "records" in heads:
        seq, digest = heads["records"]
        if chains.records.get(int(seq)) != digest:
            findings.append(Finding(register.WHERE, int(seq), (
                f"{where} signed the house's chain up to here and it no longer matches: a "
                "record was changed, removed or its hashes rewritten")))
    if "users" in heads:
        seq, digest = heads["users"]
        if chains.users.get(int(seq)) != digest:
            findings.append(Finding(people.WHERE, int(seq), (
                f"{where} signed the users' chain up to here and it no longer matches: a "
                "record was changed, removed or its hashes rewritten")))
    return findings


def heads(conn: Connection) -> dict[str, Any]:
    """Every chain's head as it stands."""
    # One short query per table (its last event by the primary key), not one scan of them all:
    # the timed checkpoints read this every few seconds.
    ev = store.events
    last = sa.select(ev.c.seq, ev.c.hash).where(ev.c.table_id == sa.bindparam("t")) \
        .order_by(ev.c.seq.desc()).limit(1)
    tables: dict[str, list[Any]] = {}
    for t in conn.execute(sa.select(store.tables)).all():
        row = conn.execute(last, {"t": t.id}).first()
        tables[t.id] = [row.seq, row.hash] if row is not None else [
            0, genesis_of(t._mapping)]
    wallets = {w.player: w.chain_head or wallet_genesis(w.player)
               for w in conn.execute(sa.select(store.wallets)).all()}
    out: dict[str, Any] = {"tables": tables, "wallets": wallets}
    house = register.head(conn)
    if house is not None:  # a ledger without house records signs what it always signed
        out["records"] = house
    users = people.head(conn)
    if users is not None:
        out["users"] = users
    return out


_WRITE_LOCK = 0x63686B70  # "chkp": the advisory lock that orders checkpoint writers


class KeyRetired(Exception):
    """This process's key was rotated away (by ``croupier audit rotate-key``, while it ran):
    it signs nothing more; started again, it loads the new key."""


def retired_by(conn: Connection, signer: Signer) -> str | None:
    """The key that ``signer``'s was rotated to, if a rotation it signed itself (as the old
    key) is recorded; else None. Only the key's holder signs its rotation: a row written
    into ``ledger_keys`` by anyone else does not stop it signing."""
    for row in conn.execute(sa.select(store.ledger_keys.c.key_id, store.ledger_keys.c.record,
                                      store.ledger_keys.c.signatures)):
        record = json.loads(row.record)
        if record.get("previous") == signer.key_id and check_signature(
                signer.public_hex, row.record, json.loads(row.signatures).get("old") or ""):
            return str(row.key_id)
    return None


WRITER_WAIT_SECONDS = 10
"""How long a checkpoint writer waits for another process's checkpoint (PostgreSQL) before it
gives up this once (:class:`WriterBusy`)."""


class WriterBusy(Exception):
    """Another process has been writing a checkpoint for longer than :data:`WRITER_WAIT_SECONDS`
    (stalled, say): nothing was signed this time."""


class BehindPin(Exception):
    """The checkpoint the pin names is not in the database as pinned (the ledger was rolled
    back, cut short or rewritten), or the pin cannot be read: nothing is signed, since a
    checkpoint signed now would sign the ledger as it stands and move the pin onto it, and the
    audit would pass what it exists to refuse. The message says which, in plain words."""


class Checkpointer:
    """Writes signed checkpoints with one key, and pins the latest outside the database."""

    def __init__(self, engine: Engine, signer: Signer, pin_path: Path | None,
                 every: int = EVERY) -> None:
        self.engine = engine
        self.signer = signer
        self.pin_path = pin_path
        self.every = every
        self._pending = 0
        self._count_lock = threading.Lock()
        self._lock = threading.Lock()
        self._held: tuple[int, Callable[[], bool]] | None = None
        """The turn :meth:`holding` holds, with the thread holding it (only its writes use it)."""
        self.on_due: Callable[[], None] | None = None
        """Set by a thread that signs on its own (``audit.ticker``): a checkpoint that falls
        due is handed to it, so the commit that counted it never waits on another process's
        checkpoint (a cluster node stalled while it held the writers' lock)."""

    def count(self, events: int) -> None:
        """``events`` more were committed: a checkpoint once :attr:`every` have been."""
        with self._count_lock:
            self._pending += events
            due = self._pending >= self.every
            if due:
                self._pending = 0
        if not due:
            return
        if self.on_due is not None:
            self.on_due()
        else:
            self.write("every")

    def write(self, reason: str, past_pin: bool = False) -> dict[str, Any]:
        """A new checkpoint of every chain's head, signed and pinned; its row.
        :class:`BehindPin` if the pinned checkpoint is not in the database as pinned, unless
        ``past_pin`` (a restore whose gap was checked against the pin and declared)."""
        row = self._write(reason, if_moved=False, past_pin=past_pin)
        assert row is not None
        return row

    def write_if_moved(self, reason: str) -> dict[str, Any] | None:
        """A new checkpoint, as :meth:`write`, only if some chain moved since the latest one
        (read under the writers' lock, so a checkpoint another process signed meanwhile, a
        backup's, is seen); its row, or None. A timer that looked first and wrote after
        signed the same heads again after a backup had copied the ledger: the pin then named
        a checkpoint the copy lacks, and the copy could not be restored."""
        return self._write(reason, if_moved=True)

    def turn_free(self) -> None:
        """Wait (at most :data:`WRITER_WAIT_SECONDS`, then :class:`WriterBusy`) until no other
        process holds the writers' turn, holding nothing meanwhile: the server's timer looks
        before it takes its SQLite writer lock, so a command stopped while it holds the turn
        keeps no request of the server waiting behind that lock. (On PostgreSQL the turn is
        freed by the database once its holder stops: nothing to wait for here.)"""
        if store.is_sqlite(self.engine):
            with self.one_writer():
                pass  # taken and let go at once: only the wait was wanted

    def _lock_file(self) -> Path:
        assert self.pin_path is not None
        return self.pin_path.with_name(self.pin_path.name + ".lock")

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """Hold the writers' turn across more than a checkpoint: the checkpoints written
        inside are written under it (:class:`WriterBusy` on entering, if another process holds
        it past the bounded wait, before anything inside is done). A restore installs its copy
        and signs it under one turn, so a busy turn leaves nothing installed and unsigned."""
        with self.one_writer() as still_held:
            self._held = (threading.get_ident(), still_held)
            try:
                yield
            finally:
                self._held = None

    def _turn(self) -> contextlib.AbstractContextManager[Callable[[], bool]]:
        """The writers' turn for one checkpoint: the one :meth:`holding` holds in this thread,
        else its own (another thread's write waits for the turn as any other writer does)."""
        held = self._held
        if held is not None and held[0] == threading.get_ident():
            return contextlib.nullcontext(held[1])
        return self.one_writer()

    def _write(self, reason: str, if_moved: bool, past_pin: bool = False,
               ) -> dict[str, Any] | None:
        with self._lock, self._turn() as still_held:
            with self.engine.begin() as conn:
                # A node of a cluster still running through a rotation holds the old key: a
                # checkpoint it signed after the rotation failed the audit for good.
                successor = retired_by(conn, self.signer)
                if successor is not None:
                    raise KeyRetired(f"key {self.signer.key_id} was rotated to {successor}: "
                                     "this process signs no checkpoint with it; restart it "
                                     "with the new key")
                if not past_pin:
                    reaches_pin(conn, self.pin_path)
                last = conn.execute(sa.select(store.checkpoints).order_by(
                    store.checkpoints.c.id.desc()).limit(1)).first()
                now = canonical(heads(conn))
                if if_moved and last is not None and last.heads == now:
                    return None
                row: dict[str, Any] = {
                    "id": (last.id + 1) if last is not None else 1, "at": store.now(),
                    "heads": now,
                    "prev": checkpoint_hash(dict(last._mapping)) if last is not None else FORMAT,
                    "key_id": self.signer.key_id, "reason": reason}
                row["signature"] = self.signer.sign(checkpoint_message(row))
                conn.execute(store.checkpoints.insert().values(**row))
            # Pinned after the commit (a pin never names a checkpoint that is not there) and
            # before the next writer numbers one: the pin only ever moves forward. A writer
            # stopped for longer than the writers' lock outlives its holder may find another
            # has numbered and pinned a later one meanwhile: it leaves the pin to that one.
            if still_held():
                self._pin(row)
            else:
                log.warning("checkpoint %d is signed but not pinned: this process lost the "
                            "writers' lock while it was stopped; the next checkpoint is", row["id"])
        return row

    @contextlib.contextmanager
    def one_writer(self) -> Iterator[Callable[[], bool]]:
        """Several processes (cluster nodes) may write checkpoints on one PostgreSQL and pin
        them in one shared folder: one at a time, from numbering to pinning. SQLite's write
        lock already orders the commits; its one process's lock orders the pins. Yields
        ``still_held()``: whether the block still holds the writers' turn.

        On PostgreSQL the turn is an advisory lock a process stopped while holding it gives up
        by itself (:func:`store.held_lock`): a session's lock, as it was, kept every other
        node from signing for as long as the stop lasted."""
        if store.is_sqlite(self.engine):
            if self.pin_path is None:
                yield lambda: True
                return
            # The server and a command (croupier audit verify) may both sign: one lock file
            # beside the pin orders them.
            fd = os.open(self._lock_file(), os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                _flock_within(fd, WRITER_WAIT_SECONDS)
                yield lambda: True
            finally:
                os.close(fd)  # closing the file releases its lock
            return
        with contextlib.ExitStack() as turn:
            try:
                still_held = turn.enter_context(
                    store.held_lock(self.engine, _WRITE_LOCK, WRITER_WAIT_SECONDS))
            except store.LockBusy:
                raise WriterBusy(f"another process has been writing a checkpoint for over "
                                 f"{WRITER_WAIT_SECONDS} s: none was signed this time") from None
            yield still_held

    def _pin(self, row: dict[str, Any]) -> None:
        if self.pin_path is None:
            return
        # A temporary file of this process's own: nodes sharing a key folder never write
        # into each other's (the replace is atomic; the pin is any checkpoint still present).
        tmp = self.pin_path.with_name(f"{self.pin_path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(pin_text(row))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.pin_path)


def _flock_within(fd: int, seconds: float) -> None:
    """Take the lock file's lock (``fd``), waiting at most ``seconds`` for another process
    that holds it; :class:`WriterBusy` after that. A command stopped while it held the lock
    (Ctrl-Z on croupier audit verify or backup) keeps it as long as it is stopped: waited for
    without a bound, the server's signing thread stopped for as long, holding the server's
    SQLite writer lock, and every deposit, cash-out and coupon waited behind it."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise WriterBusy(f"another process has held the checkpoint writers' lock file "
                                 f"for over {seconds} s (stopped, say): none was signed this "
                                 "time") from None
            time.sleep(0.05)


def reaches_pin(conn: Connection, pin_path: Path | None) -> None:
    """:class:`BehindPin` unless the checkpoint pinned at ``pin_path`` is in the database
    unchanged (none pinned yet passes). Read under the writers' lock: every writer pins before
    the next numbers one, so an honest ledger always holds the pinned checkpoint (a writer that
    lost the lock before pinning leaves the pin on an earlier one, still there). A database
    writer who deleted the checkpoints after a point, and rows after it, had the next timed
    checkpoint sign the ledger so cut short and pin it: the audit then passed it."""
    try:
        pin = read_pin(pin_path)
    except PinError as exc:
        raise BehindPin(f"{exc}: no checkpoint is signed until the pin is put back from its "
                        "copy") from None
    if pin is None:
        return  # no pin yet (a new ledger, a new key folder); the audit names a lost one
    row = conn.execute(sa.select(store.checkpoints).where(
        store.checkpoints.c.id == int(pin["id"]))).first()
    if row is None or checkpoint_hash(dict(row._mapping)) != pin["hash"]:
        raise BehindPin(
            f"checkpoint {pin['id']}, pinned outside the database ({pin_path}), is "
            f"{'missing from' if row is None else 'changed in'} the ledger: it was rolled "
            "back, cut short or rewritten, and no checkpoint is signed over it (run croupier "
            "audit verify)")


def pin_text(row: dict[str, Any]) -> str:
    """A pin file's text: the checkpoint's id and hash, and the signed row itself (so the
    heads it signed are known without the database: ``croupier restore`` names a gap)."""
    return canonical({"id": row["id"], "hash": checkpoint_hash(row),
                      "checkpoint": {k: row[k] for k in _PINNED}})


_PINNED = ("id", "at", "heads", "prev", "key_id", "reason", "signature")


class PinError(Exception):
    """The pin file exists and cannot be read as a pin; the message says how, in plain words."""


def read_pin(path: Path | None) -> dict[str, Any] | None:
    """The pinned checkpoint (``id``, ``hash`` and, from this release on, ``checkpoint``), or
    None when there is no pin file; PinError when there is one that is not a pin."""
    if path is None or not path.exists():
        return None
    try:
        pin = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise PinError(f"the pin file {path} cannot be read ({exc})") from None
    except ValueError:
        raise PinError(f"the pin file {path} is not the pin croupier writes (not JSON): it "
                       "was damaged or edited") from None
    if not isinstance(pin, dict) or not isinstance(pin.get("id"), int) \
            or not isinstance(pin.get("hash"), str):
        raise PinError(f"the pin file {path} is not the pin croupier writes (no checkpoint id "
                       "and hash): it was damaged or edited")
    return pin


class PinRead:
    """The pin as read before the ledger is: a checkpoint is pinned only once committed, so
    a snapshot taken after reading the pin holds the pinned checkpoint however many are
    signed meanwhile (read the other way round, a checkpoint signed between the two reads
    would look like a ledger cut short)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.pin: dict[str, Any] | None = None
        self.error: PinError | None = None
        try:
            self.pin = read_pin(path)
        except PinError as exc:
            self.error = exc


def pin_findings(path: Path | PinRead | None, snap: Snapshot
                 ) -> tuple[dict[str, Any] | None, list[Finding]]:
    """The pin at ``path`` (or read before ``snap`` was) and, once the ledger has a
    checkpoint, a finding in plain words when the pin is missing or malformed (without it an
    older copy of the ledger would pass)."""
    got = path if isinstance(path, PinRead) else PinRead(path)
    path, pin = got.path, got.pin
    if path is None:
        return None, []
    if got.error is not None:
        return None, [Finding("pin", None, (
            f"{got.error}. Without the last signed head the ledger cannot be told from an older "
            "copy or one cut short; put back the pin from its copy (or check against a "
            "bundle: croupier audit verify --anchor BUNDLE)"))]
    if pin is None and snap.checkpoints:
        return None, [Finding("pin", None, (
            f"the pin file {path} (the last signed head, kept outside the database) is "
            f"missing, though the ledger has {len(snap.checkpoints)} signed checkpoints: an "
            "older copy of the ledger, or one cut short, would pass unnoticed; put back the "
            "pin from its copy (or check against a bundle: croupier audit verify --anchor "
            "BUNDLE)"))]
    return pin, []
