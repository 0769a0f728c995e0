"""The ledger: every action's events written in one transaction with the state they change.

An action runs under its table's lock: the idempotency key is looked up, the engine checks the
action (a :class:`~croupier.errors.Refusal` changes nothing), the events are folded into the
table in memory and written to the database together with the seats, wallets, house result,
round record and the stored response, in ONE transaction. If the write fails, the table is
rebuilt from the database, so memory never runs ahead of the ledger.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from croupier.craps.events import Rolled, ShooterChanged
from croupier.errors import Malformed, Refusal
from croupier.events import Event
from croupier.money import ZERO, fmt
from croupier.roulette.events import Crowned, NoSpin
from croupier.service import codec, limits, monitoring, store
from croupier.service import events as sv
from croupier.service.audit.canonical import entry_text, event_text, link, table_genesis, wallet_genesis
from croupier.service.auth import User
from croupier.service.errors import ApiError
from croupier.service.live import LiveTable, PendingOutcome
from croupier.service.statements import Statements, Writes
from croupier.service.writers import WRITER, Writers

log = logging.getLogger("croupier.service")

OUTCOME_CLAUSE = "replay contract: Outcomes"
"""The reading cited for what follows an outcome: recorded first, never drawn again, settled
before anything else; a settlement that cannot be made halts the table; voids."""


def refusal_body(refusal: Refusal) -> dict[str, Any]:
    return {"error": {"code": "refused", "reason": refusal.reason, "clause": refusal.clause}}


def held_up(live: LiveTable, phase: str) -> None:
    """Refuse an action a table cannot take now: while it is halted, anything but the
    supervisor's resolution; while an outcome waits to be settled, anything but that
    settlement (no wager is made on an outcome already known, no outcome drawn again)."""
    halted = live.halted
    if halted is not None and phase != "resolve":
        raise Refusal(f"table {live.id} is halted: {halted.reason}. Play resumes when a "
                      "supervisor resolves the halt", halted.clause)
    if live.pending is not None and phase == "act":
        raise Refusal(f"the outcome {list(live.pending.outcome)} recorded at event "
                      f"{live.pending.seq} is being settled: nothing else is done at table "
                      f"{live.id} until it is", OUTCOME_CLAUSE)


@dataclass
class Plan:
    """What an action does: its events, wallet moves (player, cents), and how to answer.

    ``rebuild``: the table is rebuilt from the ledger after these events (a void), and then
    ``after_rebuild(table)`` gives the events that follow them (the stakes a void returns)."""

    events: list[Event]
    wallet: list[tuple[str, int, str]] = field(default_factory=list)
    decision: bool = False
    rebuild: bool = False
    status: int = 200
    extra: dict[str, Any] = field(default_factory=dict)
    after_rebuild: Callable[[LiveTable], list[Event]] | None = None


@dataclass(frozen=True)
class Reply:
    status: int
    body: dict[str, Any]
    replayed: bool = False
    text: str | None = field(default=None, compare=False)
    """The body as stored for a replay (JSON), sent as it is rather than encoded again."""


Listener = Callable[[str, list[dict[str, Any]]], None]


@dataclass(frozen=True)
class Job:
    """One action waiting for a group commit (:meth:`Ledger.run_batch`). ``phase`` says what
    it may do while an outcome waits to be settled: an ordinary action (``act``) nothing, the
    settlement (``settle``) settle it, a supervisor's resolution (``resolve``) end a halt."""

    user: User
    live: LiveTable
    key: str | None
    fp: str
    plan_fn: Callable[[Connection], Plan]
    phase: str = "act"
    settle: Callable[[Connection], Plan] | None = None
    """An outcome's settlement: ``plan_fn`` records the outcome and commits it, then this
    settles it in a transaction of its own (:meth:`Ledger.run_outcome`)."""


def fingerprint(method: str, path: str, body: Any) -> str:
    text = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def event_json(seq: int, round_no: int, event: Event) -> dict[str, Any]:
    return {"seq": seq, "round": round_no, **event.to_json()}


_WRITES = "croupier.writes"
"""Where a transaction's pending rows wait on its connection (``Connection.info``)."""
_KNOWN = "croupier.known"
"""The stored replies a writer's transaction read at its start, for the keys of its actions:
(the keys asked for, their rows by (user id, key)) in ``Connection.info``."""
_EVENTS_AFTER = sa.select(store.events.c.seq, store.events.c.round, store.events.c.payload,
                          store.events.c.hash).where(
    store.events.c.table_id == sa.bindparam("t"), store.events.c.seq > sa.bindparam("s"),
).order_by(store.events.c.seq)
_LAST_ROUND = sa.select(sa.func.max(store.rounds.c.round)).where(
    store.rounds.c.table_id == sa.bindparam("t"))
_HOUSE = sa.select(store.tables.c.house_cents).where(store.tables.c.id == sa.bindparam("t"))
_SEATS = sa.select(store.seats.c.player, store.seats.c.chips_cents,
                   store.seats.c.on_table_cents).where(store.seats.c.table_id == sa.bindparam("t"))


class Ledger:
    """The tables in memory and their ledger in the database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sql = Statements(engine)  # the hot path's statements, in the driver's own SQL
        self.tables: dict[str, LiveTable] = {}
        self.listeners: list[Listener] = []
        self._for_update = not store.is_sqlite(engine)
        # SQLite has one writer at a time: writers queue on this lock in the process instead of
        # polling SQLite's busy handler (which sleeps up to 100 ms). PostgreSQL needs no such
        # lock: rows are locked (SELECT ... FOR UPDATE) and each table has its own lock.
        self._sqlite_lock: threading.Lock | None = (
            threading.Lock() if store.is_sqlite(engine) else None)
        self._plain_lock = self._sqlite_lock or threading.Lock()
        # PostgreSQL: connections kept for the group commit's transactions (``writers``).
        self._writers = None if store.is_sqlite(engine) else Writers(engine)
        # Cluster hook (croupier.service.cluster): checks this node's lease of the tables
        # inside every transaction that writes them, before anything is written (fencing).
        self.fence: Callable[[Connection, list[LiveTable]], None] | None = None
        # Each table's chain head: the hash of its last event (see ``audit.canonical``).
        self.heads: dict[str, str] = {}
        self.limits = limits.Limits.from_env()
        # Called after a commit that wrote events (the signed checkpoints, ``audit.chain``).
        self.after_commit: Callable[[int], None] | None = None

    # --- loading ------------------------------------------------------------------------

    def load(self) -> None:
        """Rebuild every table from its event log."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(store.tables).order_by(store.tables.c.created_at)).all()
            for row in rows:
                self.tables[row.id] = self._rebuild(conn, row)
                self.heads[row.id] = self._head(conn, row)

    @staticmethod
    def _head(conn: Connection, row: Any) -> str:
        """The hash of a table's last event (its genesis when it has none)."""
        last = conn.execute(sa.select(store.events.c.hash).where(
            store.events.c.table_id == row.id).order_by(store.events.c.seq.desc()).limit(1)
            ).scalar()
        if last is not None:
            return str(last)
        return table_genesis(row.id, row.game, row.profile, row.options, row.capacity)

    def _rebuild(self, conn: Connection, row: Any) -> LiveTable:
        stored = conn.execute(
            sa.select(store.events.c.seq, store.events.c.round, store.events.c.payload)
            .where(store.events.c.table_id == row.id).order_by(store.events.c.seq)).all()
        last_round = conn.execute(sa.select(sa.func.max(store.rounds.c.round)).where(
            store.rounds.c.table_id == row.id)).scalar()
        return rebuild_table(row, [(r.seq, r.round, r.payload) for r in stored], last_round)

    def create_table(self, conn: Connection, table_id: str, game: str, profile: str,
                     options: dict[str, Any], capacity: int | None) -> LiveTable:
        """A new table (the options checked by the engine: Malformed if not)."""
        live = LiveTable(table_id, game, profile, options, capacity)
        text = json.dumps(options)
        conn.execute(store.tables.insert().values(
            id=table_id, game=game, profile=profile, options=text,
            capacity=live.capacity, house_cents=0, created_at=store.now()))
        self.heads[table_id] = table_genesis(table_id, game, profile, text, live.capacity)
        return live

    def table(self, table_id: str) -> LiveTable:
        live = self.tables.get(table_id)
        if live is None:
            raise ApiError(404, "not_found", f"there is no table {table_id!r}")
        return live

    # --- idempotency --------------------------------------------------------------------

    def _stored(self, conn: Connection, user: User, key: str | None, fp: str) -> Reply | None:
        if key is None:
            return None
        pending = conn.info.get(_WRITES)
        row = pending.stored_row(user.id, key) if pending is not None else None
        known: tuple[set[tuple[int, str]], dict[tuple[int, str], Any]] | None = (
            conn.info.get(_KNOWN))
        if row is None and known is not None and (user.id, key) in known[0]:
            row = known[1].get((user.id, key))  # read with the transaction's BEGIN
        elif row is None:
            row = self.sql.one(conn, self.sql.select_stored, {"u": user.id, "k": key})
        if row is None:
            return None
        stored_fp, status, body = row
        if stored_fp != fp:
            raise ApiError(422, "idempotency_key_reused",
                           "this idempotency key was used for a different request")
        return Reply(int(status), json.loads(body), replayed=True, text=str(body))

    def _remember(self, conn: Connection, user: User, key: str | None, fp: str,
                  reply: Reply, *, replace: bool = False) -> Reply:
        """Store the reply under its idempotency key (``replace``: in place of the one stored
        while it was being settled); the reply with its encoded body."""
        text = json.dumps(reply.body, separators=(",", ":"))
        if key is not None and replace:
            self._writes(conn).replaced.append(
                {"u": user.id, "k": key, "status": reply.status, "body": text})
        elif key is not None:
            self._writes(conn).stored[(user.id, key)] = {
                "user_id": user.id, "key": key, "fingerprint": fp, "status": reply.status,
                "body": text, "at": store.now()}
        return dataclasses.replace(reply, text=text)

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

    def _move_wallet(self, conn: Connection, player: str, delta: int, kind: str,
                     table_id: str | None, seq: int | None, actor: str) -> int:
        return move_wallet(conn, player, delta, kind, table_id, seq, actor,
                           lock=self._for_update)

    def deposit(self, user: User, key: str | None, fp: str, player: str, amount: Decimal,
                ) -> Reply:
        """Chips bought at the cage: money into a player's wallet (an admin's act)."""
        self.limits.check_deposit(store.cents(amount), 0)  # early: before any lock or query
        with self._plain_lock, self.engine.begin() as conn:
            stored = self._stored(conn, user, key, fp)
            if stored is not None:
                return stored
            before = self.wallet_balance(conn, player, lock=True)
            self.limits.check_deposit(store.cents(amount), before)
            balance = self._move_wallet(conn, player, store.cents(amount), "deposit", None, None,
                                        user.username)
            reply = Reply(200, {"player": player, "balance": fmt(store.dollars(balance))})
            reply = self._remember(conn, user, key, fp, reply)
            self._flush(conn)
            return reply

    # --- running an action --------------------------------------------------------------

    def run(self, user: User, live: LiveTable, key: str | None, fp: str,
            plan_fn: Callable[[Connection], Plan], phase: str = "act") -> Reply:
        """Run one action on ``live`` under its lock, in one transaction."""
        job = Job(user, live, key, fp, plan_fn, phase)
        with live.lock, self._sqlite_lock or contextlib.nullcontext():
            published: list[dict[str, Any]] = []
            try:
                with self._transaction([live], [job]) as conn:
                    attempt = self._attempt(conn, job)
                    if isinstance(attempt, Exception):
                        raise attempt
                    reply, published, _ = attempt
                    self._flush(conn, end=True)
            except BaseException:
                self._reload(live)
                raise
        for listener in self.listeners:
            listener(live.id, published)
        self._committed(len(published))
        return reply

    def _outcomes_apart(self, jobs: list[Job]) -> list[Reply | Exception]:
        """:meth:`run_batch` with the rolls and spins among ``jobs`` run on their own."""
        answers: dict[int, Reply | Exception] = {}
        plain = [j for j in jobs if j.settle is None]
        for j, result in zip(plain, self.run_batch(plain) if plain else [], strict=True):
            answers[id(j)] = result
        for j in jobs:
            if j.settle is not None:
                try:
                    answers[id(j)] = self.run_outcome(j)
                except Exception as exc:
                    answers[id(j)] = exc
        return [answers[id(j)] for j in jobs]

    def run_outcome(self, job: Job) -> Reply:
        """A roll or spin: the outcome (``job.plan_fn``: drawn or entered) committed first, in a
        transaction of its own, then settled (``job.settle``) in the next. Nothing that fails
        in the settlement can take the outcome back: a wager that cannot be settled exactly
        halts the table (its plan says so), and any other failure halts it too, recorded in a
        third transaction, with the outcome still waiting to be settled.

        The idempotency key is kept with the outcome (a 202 naming the event it waits at,
        ``settling``) and then with the settlement (the whole reply). A retry of a request
        whose outcome still waits settles it; of one whose outcome another request settled,
        answers the 202; never draws again."""
        assert job.settle is not None
        live = job.live
        with live.lock, self._sqlite_lock or contextlib.nullcontext():
            recorded = self._peek(job)
            if recorded is None:
                try:
                    recorded = self._commit_step(job, remember=False, provisional=True)
                except sa.exc.IntegrityError:  # the same key stored meanwhile elsewhere
                    recorded = self._peek(job)
                    if recorded is None:
                        raise
            settling = recorded.body.get("settling") if recorded.status == 202 else None
            if settling is None or live.pending is None or live.pending.seq != settling:
                return recorded  # refused, answered before, or settled by another request
            return self._settle_step(job, recorded)

    def _peek(self, job: Job) -> Reply | None:
        """The reply stored under the job's key, read on its own (None: none is)."""
        if job.key is None:
            return None
        with self.engine.connect() as conn:
            return self._stored(conn, job.user, job.key, job.fp)

    def _settle_step(self, job: Job, recorded: Reply) -> Reply:
        """The settlement of the outcome ``recorded``, with the whole reply kept under the
        key in the same transaction."""
        assert job.settle is not None
        live, user = job.live, job.user
        settle = Job(user, live, None, job.fp, job.settle, "outcome")
        try:
            with self._transaction([live], [settle]) as conn:
                attempt = self._attempt(conn, settle, remember=False)
                if isinstance(attempt, Exception):
                    raise attempt
                settled, published, _ = attempt
                body = {**recorded.body, **settled.body,
                        "events": recorded.body["events"] + settled.body["events"]}
                body.pop("settling", None)
                reply = self._remember(conn, user, job.key, job.fp,
                                       Reply(settled.status, body), replace=True)
                self._flush(conn, end=True)
        except BaseException as exc:
            self._reload(live)
            self._halt_after(user, live, exc)
            raise
        self._publish(live, published)
        return reply

    def _commit_step(self, job: Job, *, remember: bool, provisional: bool = False) -> Reply:
        """One transaction of :meth:`run_outcome` (the table's and SQLite's locks held);
        ``provisional``: the outcome's reply is kept under the key as waiting (202)."""
        try:
            with self._transaction([job.live], [job]) as conn:
                attempt = self._attempt(conn, job, remember=remember)
                if isinstance(attempt, Exception):
                    raise attempt
                reply, published, _ = attempt
                pending = job.live.pending
                if provisional and reply.status == 200 and pending is not None:
                    reply = self._remember(conn, job.user, job.key, job.fp, Reply(
                        202, {**reply.body, "settling": pending.seq}))
                self._flush(conn, end=True)
        except BaseException:
            self._reload(job.live)
            raise
        self._publish(job.live, published)
        return reply

    def _publish(self, live: LiveTable, published: list[dict[str, Any]]) -> None:
        for listener in self.listeners:
            listener(live.id, published)
        self._committed(len(published))

    def _halt_after(self, user: User, live: LiveTable, exc: BaseException) -> None:
        """Record that the settlement of the outcome waiting at ``live`` failed: the table
        halts (the outcome stays recorded, waiting); if even that cannot be written, the
        outcome still waits, and the table takes nothing else until it is settled."""
        pending = live.pending
        if pending is None:
            return
        reason = (f"the settlement of the outcome {list(pending.outcome)} failed "
                  f"({type(exc).__name__}); the outcome stands and waits to be settled")
        event = sv.TableHalted(pending.seq, "", "", reason, OUTCOME_CLAUSE)
        try:
            self._commit_step(Job(user, live, None, "", lambda conn: Plan([event]),
                                  "outcome"), remember=False)
        except Exception:
            log.exception("recording the halt of table %s failed", live.id)

    def _committed(self, events: int) -> None:
        """After a commit: the checkpoint writer counts the events written (``audit.chain``)."""
        if events and self.after_commit is not None:
            try:
                self.after_commit(events)
            except Exception:  # the actions are committed: a late checkpoint is no failure
                log.exception("writing a checkpoint failed; the next one covers these events")

    def run_batch(self, jobs: list[Job]) -> list[Reply | Exception]:
        """Group commit: run several actions in ONE transaction, each answered (a reply, or the
        error it raises before writing anything) only once that transaction has committed.

        Each action sees the ones before it (same transaction, tables folded in memory). If
        anything else fails, nothing of the batch is kept: its tables are rebuilt from the
        ledger and each action is run again on its own (:meth:`run`). A roll or spin is never
        part of a group: its outcome is committed on its own first (:meth:`run_outcome`)."""
        if any(job.settle is not None for job in jobs):
            return self._outcomes_apart(jobs)
        if len(jobs) == 1:
            job = jobs[0]
            try:
                return [self.run(job.user, job.live, job.key, job.fp, job.plan_fn, job.phase)]
            except Exception as exc:
                return [exc]
        lives = sorted({id(j.live): j.live for j in jobs}.values(), key=lambda t: t.id)
        attempts: list[tuple[Reply, list[dict[str, Any]], LiveTable] | Exception] = []
        failed = False
        with contextlib.ExitStack() as held:
            # Table locks in one order, then SQLite's writer lock (as :meth:`run` takes them).
            for live in lives:
                held.enter_context(live.lock)
            if self._sqlite_lock is not None:
                held.enter_context(self._sqlite_lock)
            try:
                with self._transaction(lives, jobs) as conn:
                    attempts = [self._attempt(conn, job) for job in jobs]
                    self._flush(conn, end=True)
            except Exception:
                failed = True
                for live in lives:
                    self._reload(live)
        if failed:
            out: list[Reply | Exception] = []
            for job in jobs:
                try:
                    out.append(self.run(job.user, job.live, job.key, job.fp, job.plan_fn,
                                        job.phase))
                except Exception as exc:
                    out.append(exc)
            return out
        results: list[Reply | Exception] = []
        for attempt in attempts:
            if isinstance(attempt, Exception):
                results.append(attempt)
                continue
            reply, published, live = attempt
            for listener in self.listeners:
                listener(live.id, published)
            self._committed(len(published))
            results.append(reply)
        return results

    @contextlib.contextmanager
    def _transaction(self, lives: list[LiveTable], jobs: list[Job]) -> Iterator[Connection]:
        """The writing transaction of ``jobs`` at ``lives``, its lease checked (cluster) before
        anything is written; the caller ends it with ``_flush(conn, end=True)``. On PostgreSQL
        it runs on a writer connection whose ``BEGIN`` also reads every stored reply of the
        jobs' idempotency keys (one round trip for both)."""
        if self._writers is None:
            with self.engine.begin() as conn:
                conn.info.pop(_WRITES, None)  # nothing left from an earlier transaction
                if self.fence is not None:
                    self.fence(conn, lives)
                yield conn
            return
        keys = [(j.user.id, j.key) for j in jobs if j.key is not None]
        reads: list[tuple[str, Mapping[str, Any]]] = [(self.sql.select_stored_many, {
            "u": [u for u, _ in keys], "k": [k for _, k in keys]})] if keys else []
        with self._writers.transaction(reads) as (conn, rows):
            conn.info.pop(_WRITES, None)
            found = {(int(r[0]), str(r[1])): tuple(r[2:]) for r in rows[0]} if keys else {}
            conn.info[_KNOWN] = (set(keys), found)
            try:
                if self.fence is not None:
                    self.fence(conn, lives)
                yield conn
            finally:
                conn.info.pop(_KNOWN, None)

    def _attempt(self, conn: Connection, job: Job, *, remember: bool = True,
                 ) -> tuple[Reply, list[dict[str, Any]], LiveTable] | Exception:
        """One action of a batch. An error its checks raise (before it writes anything) is
        its answer; any other error fails the whole batch. ``remember``: the reply is kept
        under the job's idempotency key (a refusal always is)."""
        user, live, key, fp = job.user, job.live, job.key, job.fp
        try:
            stored = self._stored(conn, user, key, fp)
            if stored is not None:
                return stored, [], live
            held_up(live, job.phase)
            plan = self._within_limits(job.plan_fn(conn))
        except Refusal as refusal:
            reply = Reply(409, refusal_body(refusal))
            return self._remember(conn, user, key, fp, reply), [], live
        except (ApiError, Malformed) as exc:
            return exc
        reply, published = self._write(conn, user, live, plan)
        if not remember:
            return reply, published, live
        return self._remember(conn, user, key, fp, reply), published, live

    def _within_limits(self, plan: Plan) -> Plan:
        """The plan, if every adjustment in it is within the limit (a Refusal if not)."""
        for event in plan.events:
            if isinstance(event, sv.Adjusted):
                self.limits.check_adjustment(store.cents(event.amount))
        return plan

    def _reload(self, live: LiveTable) -> None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(store.tables).where(store.tables.c.id == live.id)).first()
            if row is not None:
                live.replace_with(self._rebuild(conn, row))
                self.heads[live.id] = self._head(conn, row)

    def catch_up(self, live: LiveTable) -> None:
        """Bring a table this node already has in memory up to the ledger (a cluster node
        taking a table over): fold only the events written since ``live.seq``, rather than
        rebuilding the table from its first event. Falls back to the full rebuild when a void
        is among them (a void rebuilds without the voided events) or when the result does not
        match the seats and house result the ledger holds."""
        with self.engine.connect() as conn:
            caught_up = self._fold_since(conn, live)
        if not caught_up:
            self._reload(live)

    def _fold_since(self, conn: Connection, live: LiveTable) -> bool:
        """Fold the table's events after ``live.seq``; False if a full rebuild is needed."""
        rows = conn.execute(_EVENTS_AFTER, {"t": live.id, "s": live.seq}).all()
        decoded = [(r.seq, r.round, codec.decode(live.game.name, r.payload)) for r in rows]
        if any(isinstance(e, sv.Voided) for _, _, e in decoded):
            return False
        for seq, round_no, event in decoded:
            if round_no != live.round:  # the rounds decided meanwhile
                live.round, live.round_first_seq, live.participants = round_no, seq, set()
            live.fold(event, seq, round_no)
        last_round = conn.execute(_LAST_ROUND, {"t": live.id}).scalar()
        if last_round is not None and last_round >= live.round:  # the last one was decided
            live.round, live.round_first_seq, live.participants = last_round + 1, live.seq + 1, set()
        live.raised = []  # recorded when they were raised
        live.seat_rows, live.house_written = None, None  # written by another node since
        if rows:
            self.heads[live.id] = str(rows[-1].hash)
        if self._matches_ledger(conn, live):
            return True
        log.warning("table %s did not catch up with its ledger: rebuilt", live.id)
        return False

    @staticmethod
    def _matches_ledger(conn: Connection, live: LiveTable) -> bool:
        """Whether the table's chips, wagers and house result are the ledger's."""
        house = conn.execute(_HOUSE, {"t": live.id}).scalar()
        seats = {r.player: (int(r.chips_cents), int(r.on_table_cents))
                 for r in conn.execute(_SEATS, {"t": live.id})}
        if house is None or int(house) != store.cents(live.house):
            return False
        return all(seats.get(p) == (store.cents(live.chips(p)), store.cents(live.on_table(p)))
                   for p in live.present())

    def _write(self, conn: Connection, user: User, live: LiveTable, plan: Plan,
               ) -> tuple[Reply, list[dict[str, Any]]]:
        before = live.balances() if plan.decision else {}
        layout = live.layout() if plan.decision else []
        pending = live.pending  # the outcome this plan settles, if it settles one
        round_no = live.round
        first_seq = pending.seq if pending is not None else live.seq + 1
        rows: list[dict[str, Any]] = []
        out: list[dict[str, Any]] = []
        touched: set[str] = set()
        at = store.now()
        folding = [not plan.rebuild]  # a rebuild folds the plan's events from the ledger

        def add(event: Event, actor: str) -> None:
            seq = live.seq + 1
            if folding[0]:
                live.fold(event, seq, round_no)
            live.seq = seq
            player = codec.player_of(event)
            if player:
                touched.add(player)
            row = {"table_id": live.id, "seq": seq, "round": round_no, "kind": event.kind,
                   "player": player, "payload": codec.encode(event), "actor": actor, "at": at}
            row["hash"] = self.heads[live.id] = link(self.heads[live.id], event_text(row))
            rows.append(row)
            out.append(event_json(seq, round_no, event))

        live.raised = []
        for event in plan.events:
            add(event, user.username)
        # A fairness monitor's alert is written with the roll or spin that raised it, with
        # what it calls for at the table (at craps a change of dice).
        raised, live.raised = live.raised, []
        for alert in raised:
            add(monitoring.alert_event(alert), monitoring.MONITOR_ACTOR)
        if raised:
            for event in live.procedures.after_alerts():
                add(event, monitoring.MONITOR_ACTOR)
        self._writes(conn).events.extend(rows)
        if plan.rebuild:
            self._flush(conn)  # the rebuild reads this action's events back
            row = conn.execute(sa.select(store.tables).where(store.tables.c.id == live.id)).one()
            live.replace_with(self._rebuild(conn, row))
            touched = set(live.present()) | {p for p in self._seat_players(conn, live.id)}
            if plan.after_rebuild is not None:
                folding[0] = True
                written = len(rows)
                for event in plan.after_rebuild(live):
                    add(event, user.username)
                self._writes(conn).events.extend(rows[written:])
        for player, delta, kind in plan.wallet:
            self._move_wallet(conn, player, delta, kind, live.id, live.seq, user.username)
        if plan.decision:
            touched |= {w["player"] for w in layout} | set(live.present())
        self._writes(conn).seat(live, touched)
        if plan.decision:
            self._write_round(conn, live, round_no, first_seq, plan, before, layout, at,
                              pending)
            live.end_round(live.seq + 1)
        body: dict[str, Any] = {"table": live.id, "round": round_no, "events": out, **plan.extra}
        if user.role == "player" and user.username in live.present():
            body["you"] = {"chips": fmt(live.chips(user.username)),
                           "on_table": fmt(live.on_table(user.username))}
        return Reply(plan.status, body), out

    def _seat_players(self, conn: Connection, table_id: str) -> list[str]:
        return [r.player for r in conn.execute(sa.select(store.seats.c.player).where(
            store.seats.c.table_id == table_id))]

    @staticmethod
    def _writes(conn: Connection) -> Writes:
        """The rows this transaction writes at its end (:meth:`_flush`)."""
        writes: Writes = conn.info.setdefault(_WRITES, Writes())
        return writes

    def _flush(self, conn: Connection, end: bool = False) -> None:
        """Write the transaction's pending rows, one statement per kind (the events, the
        stored replies, each table's seats and house result), before it commits: a batch of
        bets costs a few round trips to the database rather than four per bet. ``end``: the
        transaction's last writes; a writer connection (PostgreSQL) sends them and its
        ``COMMIT`` in one round trip (:meth:`Writers.commit`)."""
        writes: Writes | None = conn.info.pop(_WRITES, None)
        statements = self._statements(conn, writes) if writes is not None else []
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

    def _statements(self, conn: Connection, writes: Writes,
                    ) -> list[tuple[str, Sequence[Mapping[str, Any]]]]:
        """The statements that write ``writes``, each with its rows of values."""
        out: list[tuple[str, Sequence[Mapping[str, Any]]]] = [
            (self.sql.insert_events, writes.events),
            (self.sql.insert_stored, list(writes.stored.values())),
            (self.sql.update_stored, writes.replaced)]
        for live, players in writes.seats.values():
            out.extend(self._seat_writes(conn, live, players))
        return [(sql, rows) for sql, rows in out if rows]

    def _seat_writes(self, conn: Connection, live: LiveTable, players: Iterable[str],
                     ) -> list[tuple[str, Sequence[Mapping[str, Any]]]]:
        """The rows of a table's seats of ``players`` and of its house result, as they stand."""
        players = sorted(players)
        if live.seat_rows is None:
            live.seat_rows = set(self._seat_players(conn, live.id))
        new = [p for p in players if p not in live.seat_rows]
        old = [p for p in players if p in live.seat_rows]
        out: list[tuple[str, Sequence[Mapping[str, Any]]]] = [
            (self.sql.insert_seats, [
                {"table_id": live.id, "player": p, "chips_cents": store.cents(live.chips(p)),
                 "on_table_cents": store.cents(live.on_table(p))} for p in new]),
            (self.sql.update_seats, [
                {"t": live.id, "p": p, "c": store.cents(live.chips(p)),
                 "o": store.cents(live.on_table(p))} for p in old])]
        live.seat_rows.update(new)  # a failed transaction rebuilds the table (and this)
        house = store.cents(live.house)
        if house != live.house_written:
            out.append((self.sql.update_house, [{"t": live.id, "h": house}]))
            live.house_written = house
        return out

    def _write_round(self, conn: Connection, live: LiveTable, round_no: int, first_seq: int,
                     plan: Plan, before: dict[str, Any], layout: list[dict[str, Any]],
                     at: float, pending: PendingOutcome | None) -> None:
        outcome: dict[str, Any] = {"from_seq": first_seq}
        draw: dict[str, Any] = {}
        for event in [*([pending.event] if pending is not None else []), *plan.events]:
            if isinstance(event, Rolled):
                outcome.update(kind="roll", dice=list(event.dice), total=event.total,
                               point_before=event.point_before, point_after=event.point_after)
            elif isinstance(event, Crowned):
                outcome.update(kind="spin", number=event.number, colour=event.colour)
            elif isinstance(event, NoSpin):
                outcome.update(kind="no_spin", reason=event.reason, clause=event.clause,
                               number=event.number)
            elif isinstance(event, sv.Drawn):
                draw = {"source": event.source, "raw": list(event.raw),
                        "outcome": list(event.outcome)}
            elif isinstance(event, sv.Entered):
                draw = {"source": "entered", "by": event.by, "outcome": list(event.outcome)}
            elif isinstance(event, ShooterChanged):
                outcome["shooter_after"] = event.shooter
        conn.execute(store.rounds.insert().values(
            table_id=live.id, round=round_no, first_seq=live.round_first_seq,
            last_seq=live.seq, outcome=json.dumps(outcome), draw=json.dumps(draw),
            layout=json.dumps(layout), before=json.dumps(before),
            after=json.dumps(live.balances()), decided_at=at, voided=None))
        players = live.participants | {w["player"] for w in layout}
        if players:
            conn.execute(store.round_players.insert(), [
                {"table_id": live.id, "round": round_no, "player": p, "decided_at": at}
                for p in sorted(players)])


def move_wallet(conn: Connection, player: str, delta: int, kind: str, table_id: str | None,
                seq: int | None, actor: str, lock: bool = True) -> int:
    """Move ``delta`` cents in or out of a wallet with an entry chained to the wallet's last
    one; the balance after. ``lock`` holds the wallet's row (PostgreSQL)."""
    query = sa.select(store.wallets.c.balance_cents, store.wallets.c.chain_head).where(
        store.wallets.c.player == player)
    row = conn.execute(query.with_for_update() if lock else query).first()
    if row is None:
        raise ApiError(404, "not_found", f"{player} has no wallet")
    balance = int(row.balance_cents) + delta
    if balance < 0:  # the plan checked this under the same lock: never reached
        raise RuntimeError("wallet would go below zero")
    entry = {"player": player, "amount_cents": delta, "kind": kind, "table_id": table_id,
             "seq": seq, "balance_after_cents": balance, "actor": actor, "at": store.now()}
    entry["hash"] = link(row.chain_head or wallet_genesis(player), entry_text(entry))
    conn.execute(store.wallets.update().where(store.wallets.c.player == player).values(
        balance_cents=balance, chain_head=entry["hash"]))
    conn.execute(store.wallet_entries.insert().values(**entry))
    return balance


Decoded = list[tuple[int, int, Event]]
"""A table's events as (seq, round, event), in order."""
BeforeFold = Callable[[LiveTable, int, Decoded], None]
"""Called with the table, an event's position in the list and the list, before each fold."""


def rebuild_table(row: Any, stored: Iterable[tuple[int, int, str]], last_round: int | None,
                  before_fold: BeforeFold | None = None) -> LiveTable:
    """A table rebuilt from its configuration row and its stored events ``(seq, round,
    payload)``: every event not voided is folded in order (voided ones only advance ``seq``).
    ``before_fold`` lets the audit re-derive what an event records before it is folded."""
    options = json.loads(row.options, parse_float=Decimal)
    live = LiveTable(row.id, row.game, row.profile, options, row.capacity)
    decoded: Decoded = [(seq, rnd, codec.decode(row.game, payload))
                        for seq, rnd, payload in stored]
    voided = {s for _, _, e in decoded if isinstance(e, sv.Voided) for s in e.seqs}
    for i, (seq, round_no, event) in enumerate(decoded):
        if seq in voided:
            live.seq = seq
            continue
        if before_fold is not None:
            before_fold(live, i, decoded)
        live.fold(event, seq, round_no)
    live.round = (last_round or 0) + 1
    live.raised = []  # recorded when they were raised
    live.participants = set()
    first = [(s, e) for s, r, e in decoded if r == live.round]
    live.round_first_seq = first[0][0] if first else live.seq + 1
    for _, event in first:
        player = codec.player_of(event)
        if player:
            live.participants.add(player)
    return live


def zero_if_none(value: Decimal | None) -> Decimal:
    return value if value is not None else ZERO
