"""The ledger in the database: it only writes. Transactions, stored replies, hash-chained rows.

What to write is decided before the ledger is asked (:mod:`croupier.service.runner` plans
an action and folds its events into the table in memory); the ledger writes the events, each
chained to its table's last (``audit.canonical``), the wallet entries chained to their
wallet's, the seats and house results as the tables now stand, and the reply kept under its
idempotency key, in one transaction; on PostgreSQL a writer connection sends a batch's rows
and its ``COMMIT`` in one round trip. If the write fails, the runner rebuilds the table from
the database, so memory never runs ahead of the ledger.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from croupier.events import Event
from croupier.service import codec, limits, moves, register, store
from croupier.service.audit.canonical import (
    entry_text,
    event_text,
    genesis_of,
    link,
    table_genesis,
    wallet_genesis,
)
from croupier.service.auth import User, refuse_deleted
from croupier.service.errors import ApiError
from croupier.service.live import LiveTable
from croupier.service.plans import COMPACT, Job, Reply
from croupier.service.statements import Seats, Statements, Writes
from croupier.service.writers import WRITER, SqliteWriter, Writers

log = logging.getLogger("croupier.service")

Listener = Callable[[str, list[dict[str, Any]]], None]
"""Told each table's events once they are committed (the streams; the runner tells them)."""

_WRITES = "croupier.writes"
"""Where a transaction's pending rows wait on its connection (``Connection.info``)."""
_KNOWN = "croupier.known"
"""The stored replies a writer's transaction read at its start, for the keys of its actions:
(the keys asked for, their rows by (user id, key)) in ``Connection.info``."""
_HANDED = "croupier.handed"
"""The actions' rows the runner has handed to a transaction and the ledger has not yet staged
(:attr:`Began.handed`), in ``Connection.info``."""
_WRITTEN = "croupier.written"
"""The events a transaction has written so far, counted for the checkpoints once it commits."""


ONCE_TRIES = 3
"""How many times a request kept under its key (at the cage, a coupon issued) is tried when the
database ends its transaction for another's sake (a deadlock ends one of two)."""
_ONCE_LOCK = 0x6F6E6365  # "once": the class of the advisory locks on a request's key
_Known = tuple[set[tuple[int, str]], dict[tuple[int, str], Any], dict[str, tuple[str, int]]]
"""What a writer's transaction read at its start (``_KNOWN``): the keys asked for, their
stored replies, and the tables' events those requests already produced (by digest)."""


def _known(keys: list[tuple[int, str]], rows: list[list[Any]]) -> _Known:
    """What a transaction's first reads found of its actions' keys (``Statements.known_reads``:
    the stored replies, then the events their requests produced)."""
    if not keys:
        return set(), {}, {}
    found = {(int(r[0]), str(r[1])): tuple(r[2:]) for r in rows[0]}
    produced = {str(r[0]): (str(r[1]), int(r[2])) for r in rows[1]}
    return set(keys), found, produced


def _reply_missing(where: str) -> ApiError:
    """A retry of a request a chain says was done (``where``: the table's event, the wallet's
    entry or the house's record that carries the request's digest) whose stored reply is gone:
    it is not done again, and the audit names the missing reply (``audit.requests``)."""
    return ApiError(409, "idempotency_reply_missing", (
        f"this request was done already ({where}) but its stored reply is missing from the "
        "ledger; it is not done again. The audit names the missing reply"))


Kept = Reply | ApiError | None
"""What a transaction's first reads found under a job's idempotency key (:meth:`Ledger.stored`):
the reply kept, nothing, or the error that answers the job (its key kept for another request,
or its reply missing though its request was done)."""


@dataclasses.dataclass(frozen=True)
class Began:
    """A writing transaction as it begins: its connection; the digest of each job's request
    (``requests``, by the job's place among them; ``codec.request_digest``, None without an
    Idempotency-Key), which the chain records with the events it produces; what the
    transaction's first reads found under the jobs' keys (``kept``, by place; a job left out
    is looked up with :meth:`Ledger.stored` when it runs), so the runner need not ask again;
    and ``handed``, where the runner puts each action's rows (:class:`Handed`)."""

    conn: Connection
    requests: list[str | None]
    kept: dict[int, Kept]
    handed: list[Handed]


@dataclasses.dataclass(frozen=True)
class CageMove:
    """A move of money between ``player``'s wallet and the cage: ``cents`` in (negative: out),
    the wallet entry's ``kind`` (``service/moves.py``, which also words the reply from the
    entry) and the ``check`` of the balance before it (raising to refuse)."""

    player: str
    cents: int
    kind: str
    check: Callable[[int], None]


@dataclasses.dataclass
class Chained:
    """One action's events at a table as the ledger writes them: each with its place in the
    table's chain and who acted, all in one round, produced by one request (its digest,
    ``codec.request_digest``; None without an Idempotency-Key), stamped at one time (when the
    action began to be written, unless given)."""

    table_id: str
    round_no: int
    request: str | None
    events: list[tuple[int, Event, str]] = dataclasses.field(default_factory=list)
    """(seq, event, actor) in the order they were folded."""
    at: float = dataclasses.field(default_factory=time.time)


@dataclasses.dataclass(frozen=True)
class Keep:
    """A reply to keep under ``user``'s Idempotency-Key ``key`` for the request known by
    ``fp`` (:meth:`Ledger.remember`)."""

    user: User
    key: str | None
    fp: str
    reply: Reply


class StagingFailed(RuntimeError):
    """Rows handed to a transaction could not be staged: the transaction fails whole."""


@dataclasses.dataclass(frozen=True)
class Handed:
    """One action's rows as the runner hands them to its transaction (:attr:`Began.handed`):
    its events, its table's seats as it leaves them, its reply to keep under its key (already
    encoded, :meth:`Reply.encoded`). The ledger stages what was handed, in the order handed,
    before it stages or reads anything else of the transaction's and at the latest as the
    transaction ends, so each event is chained to its table's last in the order folded. Handing
    rows over as a value keeps the ledger out of each action's path: the transaction visits it
    once, at its end."""

    chained: Chained
    seats: Seats | None = None
    keep: Keep | None = None


@dataclasses.dataclass(frozen=True)
class WalletMove:
    """``delta`` cents into ``player``'s wallet (negative: out), of ``kind``, by ``actor``;
    at a table's event (``table_id``, ``seq``) or at the cage (both None)."""

    player: str
    delta: int
    kind: str
    actor: str
    table_id: str | None = None
    seq: int | None = None
    request: str | None = None
    """The digest of the request that made a move at the cage (``codec.request_digest``)."""


class Ledger:
    """The database the tables' actions are written to."""

    def __init__(self, db: Engine) -> None:
        self.db = db
        self.sql = Statements(db)  # the hot path's statements, in the driver's own SQL
        self.listeners: list[Listener] = []
        self._for_update = not store.is_sqlite(db)
        # SQLite has one writer at a time: writers queue on this lock in the process instead of
        # polling SQLite's busy handler (which sleeps up to 100 ms). PostgreSQL needs no such
        # lock: rows are locked (SELECT ... FOR UPDATE) and each table has its own lock.
        self.sqlite_lock: threading.Lock | None = (
            threading.Lock() if store.is_sqlite(db) else None)
        # The cage's transactions (a deposit, a cash-out, a coupon) queue on it on SQLite only.
        # On PostgreSQL the rows and advisory locks they take order them, across nodes as
        # within one: a process-wide lock there only made every cage request of the node wait
        # behind one that waited on the database (a wallet's row held by a stopped node).
        self._plain_lock: contextlib.AbstractContextManager[Any] = (
            self.sqlite_lock or contextlib.nullcontext())
        # PostgreSQL: connections kept for the group commit's transactions (``writers``).
        self._writers = None if store.is_sqlite(db) else Writers(db)
        self._sqlite_writer = SqliteWriter(db) if store.is_sqlite(db) else None
        # Cluster hook (croupier.service.cluster): checks this node's lease of the tables
        # inside every transaction that writes them, before anything is written (fencing).
        self.fence: Callable[[Connection, list[LiveTable]], None] | None = None
        # Each table's chain head: the hash of its last event (see ``audit.canonical``).
        self.heads: dict[str, str] = {}
        self.limits = limits.Limits.from_env()
        # Called after a commit that wrote events (the signed checkpoints, ``audit.chain``).
        self.after_commit: Callable[[int], None] | None = None

    # --- tables -------------------------------------------------------------------------

    @staticmethod
    def head_of(conn: Connection, row: Any) -> str:
        """The hash of a table's last event (its genesis when it has none)."""
        last = conn.execute(sa.select(store.events.c.hash).where(
            store.events.c.table_id == row.id).order_by(store.events.c.seq.desc()).limit(1)
            ).scalar()
        if last is not None:
            return str(last)
        return genesis_of(row._mapping)

    def write_table(self, conn: Connection, live: LiveTable) -> None:
        """A new table's row, and its chain begun."""
        text = json.dumps(live.options)
        conn.execute(store.tables.insert().values(
            id=live.id, game=live.game.name, profile=live.profile, options=text,
            capacity=live.capacity, house_cents=0, created_at=store.now()))
        self.heads[live.id] = table_genesis(live.id, live.game.name, live.profile, text,
                                            live.capacity)

    # --- transactions -------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self, lives: list[LiveTable], jobs: list[Job]) -> Iterator[Began]:
        """The writing transaction of ``jobs`` at ``lives``, its lease checked (cluster) before
        anything is written, its rows written (:meth:`flush`) when the caller's block ends
        without an error, then committed. Its first two queries read every stored reply of
        the jobs' idempotency keys and the events their requests produced, for the whole
        group at once (on PostgreSQL on a writer connection, with its ``BEGIN``, in one round
        trip); each job's request digest and what the reads found under its key are handed
        over with the connection (:class:`Began`). Once it has committed, the checkpoint
        writer counts the events it wrote (:meth:`committed`)."""
        keys = [(j.user.id, j.key) for j in jobs if j.key is not None]
        requests = [None if j.key is None else codec.request_digest(j.user.id, j.key, j.fp)
                    for j in jobs]
        digests = [r for r in requests if r is not None]
        reads = self.sql.known_reads(keys, digests) if keys else []
        if self._sqlite_writer is not None:
            with self._sqlite_writer.transaction() as conn:
                conn.info.pop(_WRITES, None)  # nothing left from an earlier transaction
                conn.info[_WRITTEN] = 0
                if self.fence is not None:
                    self.fence(conn, lives)
                rows = [self.sql.all(conn, sql, values) for sql, values in reads]
                conn.info[_KNOWN] = _known(keys, rows)
                handed = conn.info[_HANDED] = []
                try:
                    yield Began(conn, requests, self._kept(conn, jobs, requests), handed)
                    self.flush(conn, end=True)
                    written = conn.info.pop(_WRITTEN)
                finally:
                    conn.info.pop(_KNOWN, None)
                    conn.info.pop(_HANDED, None)
            self.committed(written)
            return
        assert self._writers is not None
        with self._writers.transaction(reads) as (conn, rows):
            conn.info.pop(_WRITES, None)
            conn.info[_WRITTEN] = 0
            conn.info[_KNOWN] = _known(keys, rows)
            handed = conn.info[_HANDED] = []
            try:
                if self.fence is not None:
                    self.fence(conn, lives)
                yield Began(conn, requests, self._kept(conn, jobs, requests), handed)
                self.flush(conn, end=True)
                written = conn.info.pop(_WRITTEN)
            finally:
                conn.info.pop(_KNOWN, None)
                conn.info.pop(_HANDED, None)
        self.committed(written)

    def _kept(self, conn: Connection, jobs: list[Job], requests: list[str | None],
              ) -> dict[int, Kept]:
        """What the transaction's first reads found under each job's key, by the job's place
        (:meth:`stored`'s answer: the reply kept, None, or the ApiError that answers the job).
        A job whose key an earlier job of the group has too is left out: it is looked up when
        it runs, after the earlier one may have kept its reply under the key."""
        kept: dict[int, Kept] = {}
        seen: set[tuple[int, str]] = set()
        for place, job in enumerate(jobs):
            if job.key is not None:
                if (job.user.id, job.key) in seen:
                    continue
                seen.add((job.user.id, job.key))
            try:
                kept[place] = self.stored(conn, job.user, job.key, job.fp, requests[place])
            except ApiError as exc:
                kept[place] = exc
        return kept

    def committed(self, count: int) -> None:
        """After a commit of ``count`` events: the checkpoint writer counts them
        (``audit.chain``). The streams (``listeners``) are told by the runner."""
        if count and self.after_commit is not None:
            try:
                self.after_commit(count)
            except Exception:  # the actions are committed: a late checkpoint is no failure
                log.exception("writing a checkpoint failed; the next one covers these events")

    # --- idempotency --------------------------------------------------------------------

    def stored(self, conn: Connection, user: User, key: str | None, fp: str,
               digest: str | None = None) -> Reply | None:
        """The reply kept under ``key`` (422 if it was kept for another request); ``digest``:
        the request's, when the caller has it (``Began.requests``)."""
        if key is None:
            return None
        pending = self._writes(conn) if conn.info.get(_HANDED) else conn.info.get(_WRITES)
        row = pending.stored_row(user.id, key) if pending is not None else None
        known: _Known | None = conn.info.get(_KNOWN)
        read_at_begin = row is None and known is not None and (user.id, key) in known[0]
        if read_at_begin:
            assert known is not None
            row = known[1].get((user.id, key))  # read with the transaction's BEGIN
        elif row is None:
            row = self.sql.one(conn, self.sql.select_stored, {"u": user.id, "k": key})
        if row is None:
            digest = digest or codec.request_digest(user.id, key, fp)
            done = (known[2].get(digest) if read_at_begin and known is not None
                    else self.sql.one(conn, self.sql.select_produced, {"r": digest}))
            if done is not None:
                raise _reply_missing(f"table {done[0]}, event {done[1]}")
            return None
        stored_fp, status, body = row
        if stored_fp != fp:
            raise ApiError(422, "idempotency_key_reused",
                           "this idempotency key was used for a different request")
        return Reply(int(status), json.loads(body), replayed=True, text=str(body))

    def peek(self, user: User, key: str | None, fp: str) -> Reply | None:
        """The reply kept under ``key``, read on its own."""
        if key is None:
            return None
        with self.db.connect() as conn:
            return self.stored(conn, user, key, fp)

    def remember(self, conn: Connection, user: User, key: str | None, fp: str,
                 reply: Reply, *, replace: bool = False) -> Reply:
        """Keep the reply under its idempotency key (``replace``: in place of the one kept
        while it was being settled); the reply with its encoded body."""
        if reply.text is None:  # encoded here, not by the service's Reply.encoded: the
            # ledger calls nothing back in the service
            reply = dataclasses.replace(reply, text=json.dumps(reply.body, separators=COMPACT))
        text = reply.text
        if key is not None and replace:
            self._writes(conn).replaced.append(
                {"u": user.id, "k": key, "status": reply.status, "body": text})
        elif key is not None:
            self._writes(conn).stored[(user.id, key)] = {
                "user_id": user.id, "key": key, "fingerprint": fp, "status": reply.status,
                "body": text, "at": store.now()}
        return reply

    def once(self, user: User, key: str | None, fp: str,
             act: Callable[[Connection, str | None], Reply]) -> Reply:
        """``act``'s reply, from a transaction of its own, kept under the idempotency key: a
        retry with the key gets the kept reply and ``act`` does not run again; the key sent
        with another request is refused (422). For a request that writes no table's events
        (a coupon issued): ``act`` is given the request's digest to record in the chained
        record it writes, from which the audit rebuilds the reply (``audit.requests``). A
        transaction the database ends to let another go on (the cage's wallet and the house
        chain taken in one order here and in another by a group of bets) is tried again, up to
        :data:`ONCE_TRIES` times in all: nothing of it stood."""
        for tries_left in range(ONCE_TRIES - 1, -1, -1):
            try:
                return self._once(user, key, fp, act)
            except sa.exc.DBAPIError as exc:
                if not store.worth_again(exc, tries_left):
                    raise
                log.warning("a request kept under its key, asked again: %s", exc)
        raise AssertionError("unreachable: the last try returns or raises")

    def _once(self, user: User, key: str | None, fp: str,
              act: Callable[[Connection, str | None], Reply]) -> Reply:
        with self._plain_lock, self.db.begin() as conn:
            if key is not None and self._for_update:
                # Another node shares no lock in this process: the same key sent to two nodes
                # at once waits here for the first to commit, then finds its reply (it read
                # none, went on to act and failed on the key's row: a 500, or a refusal of
                # what it had just done).
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:c, hashtext(:k))"),
                             {"c": _ONCE_LOCK, "k": f"{user.id}:{key}"})
            stored = self.kept(conn, user, key, fp)
            if stored is not None:
                return stored
            digest = None if key is None else codec.request_digest(user.id, key, fp)
            reply = self.remember(conn, user, key, fp, act(conn, digest))
            self.flush(conn)
            return reply

    def kept(self, conn: Connection, user: User, key: str | None, fp: str) -> Reply | None:
        """The reply kept under ``key`` for a request that writes no table's events (a move at
        the cage, a coupon issued). If it is gone but a chained record (a wallet's entry, a
        house record) carries the request's digest, the request was done: 409, never done
        again."""
        stored = self.stored(conn, user, key, fp)
        if stored is not None or key is None:
            return stored
        digest = codec.request_digest(user.id, key, fp)
        entries = store.wallet_entries.c
        entry = conn.execute(sa.select(entries.player, entries.id).where(
            entries.request == digest).limit(1)).first()
        record = register.made_by(conn, digest) if entry is None else None
        if entry is None and record is None:
            return None
        # The record and its reply commit together: a request with the same key that
        # committed between the two reads above (another node's) left its reply too.
        stored = self.stored(conn, user, key, fp)
        if stored is not None:
            return stored
        if entry is not None:
            raise _reply_missing(f"wallet {entry.player}, entry {entry.id}")
        assert record is not None
        raise _reply_missing(f"{register.WHERE}, record {record['seq']}")

    # --- wallets ------------------------------------------------------------------------

    def wallet_balance(self, conn: Connection, player: str, *, lock: bool = False) -> int:
        """A wallet's balance in cents; ``lock`` holds its row to the end of the transaction."""
        query = sa.select(store.wallets.c.balance_cents).where(store.wallets.c.player == player)
        if lock and self._for_update:
            query = query.with_for_update()
        value = conn.execute(query).scalar()
        if value is None:
            raise ApiError(404, "not_found", f"{player} has no wallet")
        return int(value)

    def move_wallet(self, conn: Connection, move: WalletMove) -> int:
        return move_wallet(conn, move, lock=self._for_update)

    def deposit(self, user: User, key: str | None, fp: str, player: str, amount: Decimal,
                ) -> Reply:
        """Chips bought at the cage: money into a player's wallet (an admin's act)."""
        cents = store.cents(amount)
        # Checked once the key's reply is looked up, never before: a deposit done under a
        # higher limit and asked again after the house lowered it gets its reply, not a
        # refusal telling the cage it was never made.
        return self.at_the_cage(user, key, fp, CageMove(
            player, cents, moves.DEPOSIT,
            lambda before: self.limits.check_deposit(cents, before)))

    def at_the_cage(self, user: User, key: str | None, fp: str, move: CageMove) -> Reply:
        """One move of money between a wallet and the cage (a deposit, a cash-out), kept under
        its Idempotency-Key.

        The stored reply is read again once the wallet's row is locked: a request with the
        same key on another node (which shares no lock with this one) may have committed
        meanwhile. A request with the same key for another wallet commits first or fails on
        the key's row; either way the answer is the stored reply (or 422 for another request),
        never a second move."""
        try:
            return self._at_the_cage(user, key, fp, move)
        except sa.exc.IntegrityError:  # the same key kept meanwhile by another transaction
            stored = self.peek(user, key, fp)
            if stored is None:
                raise
            return stored

    def _at_the_cage(self, user: User, key: str | None, fp: str, move: CageMove) -> Reply:
        with self._plain_lock, self.db.begin() as conn:
            stored = self.kept(conn, user, key, fp)
            if stored is not None:
                return stored
            before = self.wallet_balance(conn, move.player, lock=True)
            stored = self.kept(conn, user, key, fp) if self._for_update else None
            if stored is not None:
                return stored
            if move.cents > 0:
                refuse_deleted(conn, move.player, f"a {move.kind}")
            move.check(before)
            digest = None if key is None else codec.request_digest(user.id, key, fp)
            balance = self.move_wallet(conn, WalletMove(move.player, move.cents, move.kind,
                                                        user.username, request=digest))
            body = moves.reply_of({"player": move.player, "kind": move.kind,
                                   "amount_cents": move.cents, "balance_after_cents": balance})
            assert body is not None  # a move at the cage is of a kind moves.reply_of words
            reply = self.remember(conn, user, key, fp, Reply(200, body))
            self.flush(conn)
            return reply

    # --- rows ---------------------------------------------------------------------------

    def write(self, conn: Connection, chained: Chained, seats: Seats | None = None,
              keep: Keep | None = None) -> Reply | None:
        """One action's events at a table, each chained to the table's last, the seats and
        house result as the action leaves them, and its reply kept under its key (``keep``;
        the reply with its encoded body is returned): staged now, after whatever was handed
        before it (:class:`Handed`), to be written with the transaction (:meth:`flush`)."""
        return self._stage(conn, self._writes(conn), Handed(chained, seats, keep))

    def _stage(self, conn: Connection, writes: Writes, handed: Handed) -> Reply | None:
        chained, keep = handed.chained, handed.keep
        table_id, request = chained.table_id, chained.request
        head = self.heads[table_id]
        for seq, event, actor in chained.events:
            row = {"table_id": table_id, "seq": seq, "round": chained.round_no,
                   "kind": event.kind, "player": codec.player_of(event),
                   "payload": codec.encode(event, request), "actor": actor, "at": chained.at,
                   "request": request}
            row["hash"] = head = link(head, event_text(row))
            writes.events.append(row)
        self.heads[table_id] = head
        if handed.seats is not None:
            writes.seat(handed.seats)
        if keep is None:
            return None
        return self.remember(conn, keep.user, keep.key, keep.fp, keep.reply)

    def staged(self, conn: Connection) -> list[dict[str, Any]]:
        """The event rows this transaction has staged and not yet written."""
        return list(self._writes(conn).events)

    def _writes(self, conn: Connection) -> Writes:
        """The rows this transaction writes at its end (:meth:`flush`), with every action's
        rows handed to it so far staged first, in the order handed."""
        writes: Writes | None = conn.info.get(_WRITES)
        if writes is None:
            writes = conn.info[_WRITES] = Writes()
        handed: list[Handed] | None = conn.info.get(_HANDED)
        if handed:
            rows, handed[:] = list(handed), []
            try:
                for action in rows:
                    self._stage(conn, writes, action)
            except Exception as exc:
                # Staged while a later action is planned, a failure must not pass for that
                # action's own answer (a refusal, a 4xx) with the earlier rows dropped and the
                # rest committed: it fails the whole transaction.
                raise StagingFailed(f"staging the rows handed to the transaction failed: "
                                    f"{type(exc).__name__}") from exc
        return writes

    def flush(self, conn: Connection, end: bool = False) -> None:
        """Write the transaction's pending rows, one statement per kind (the events, the
        stored replies, each table's seats and house result), before it commits: a batch of
        bets costs a few round trips to the database rather than four per bet. ``end``: the
        transaction's last writes; a writer connection (PostgreSQL) sends them and its
        ``COMMIT`` in one round trip (:meth:`Writers.commit`)."""
        if conn.info.get(_HANDED):
            self._writes(conn)
        writes: Writes | None = conn.info.pop(_WRITES, None)
        statements = self.sql.writing(conn, writes) if writes is not None else []
        if writes is not None and _WRITTEN in conn.info:
            conn.info[_WRITTEN] += len(writes.events)
        known = conn.info.get(_KNOWN)
        if writes is not None and known is not None:  # a later action's key may be one of these
            for pair in writes.stored:
                known[0].add(pair)
                known[1][pair] = writes.stored_row(*pair)
        if end and conn.info.get(WRITER):
            Writers.commit(conn, statements)
            return
        for sql, rows in statements:
            self.sql.many(conn, sql, rows)


def move_wallet(conn: Connection, move: WalletMove, lock: bool = True) -> int:
    """Move ``move.delta`` cents in or out of a wallet with an entry chained to the wallet's
    last one; the balance after. ``lock`` holds the wallet's row (PostgreSQL); ``move.request``:
    the digest of the request that made a move at the cage, chained with the entry."""
    player = move.player
    query = sa.select(store.wallets.c.balance_cents, store.wallets.c.chain_head).where(
        store.wallets.c.player == player)
    row = conn.execute(query.with_for_update() if lock else query).first()
    if row is None:
        raise ApiError(404, "not_found", f"{player} has no wallet")
    balance = int(row.balance_cents) + move.delta
    if balance < 0:  # the plan checked this under the same lock: never reached
        raise RuntimeError("wallet would go below zero")
    entry = {"player": player, "amount_cents": move.delta, "kind": move.kind,
             "table_id": move.table_id, "seq": move.seq, "balance_after_cents": balance,
             "actor": move.actor, "at": store.now()}
    if move.request is not None:
        entry["request"] = move.request
    entry["hash"] = link(row.chain_head or wallet_genesis(player), entry_text(entry))
    conn.execute(store.wallets.update().where(store.wallets.c.player == player).values(
        balance_cents=balance, chain_head=entry["hash"]))
    conn.execute(store.wallet_entries.insert().values(**entry))
    return balance
