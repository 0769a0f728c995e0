"""Running the actions at the tables: planned under the table's lock, folded, written, answered.

An action runs under its table's lock (and SQLite's writer lock): its idempotency key is
looked up, the table is asked whether it can take an action now (a halt, an outcome waiting),
the action is planned (the table checks it; a :class:`~croupier.errors.Refusal` changes
nothing and is the answer), its events are folded into the table in memory, and the ledger
writes them with the wallets, seats, the round they decide and the reply, in ONE transaction.
If the write fails, the table is rebuilt from the ledger, so memory never runs ahead of it.

Actions that arrive together are committed together (:meth:`Runner.run_batch`, the group
commit of :mod:`croupier.service.commit`); a roll or spin is never part of a group: its outcome
is committed on its own before it is settled (:meth:`Runner.run_outcome`).
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.errors import Malformed, Refusal
from croupier.events import Event
from croupier.service import codec, monitoring, rounds, store
from croupier.service import events as sv
from croupier.service.auth import User
from croupier.service.errors import ApiError
from croupier.service.ledger import Began, Chained, Handed, Keep, Ledger, WalletMove
from croupier.service.live import LiveTable
from croupier.service.plans import OUTCOME_CLAUSE, Job, Plan, Reply, refusal_body
from croupier.service.statements import Seats, seat_players
from croupier.service.tables import Tables
from croupier.table import Answer, answer

log = logging.getLogger("croupier.service")

SETTLE_TRIES = 3
"""How many times a settlement the database ended to let another transaction go on is tried
before its table halts (a deadlock ends one of two; the next try finds the other done)."""

Attempt = tuple[Reply, list[dict[str, Any]], LiveTable] | Exception
"""What one action of a batch came to: its reply, the events published, its table; or the
error its checks raised before it wrote anything."""


def held_up(live: LiveTable, phase: str) -> None:
    """Refuse an action a table cannot take now: while it is halted, anything but the
    supervisor's resolution; while an outcome waits to be settled, anything but that
    settlement (no wager is made on an outcome already known, no outcome drawn again); while
    a void of the RNG's outcome waits for its second supervisor, anything but its approval or
    withdrawal and what must be done whatever waits (a layout's wagers taken off), so no
    chips leave and no act lapses the void before it is decided."""
    halted = live.halted
    if halted is not None and phase != "resolve":
        raise Refusal(f"table {live.id} is halted: {halted.reason}. Play resumes when a "
                      "supervisor resolves the halt", halted.clause)
    if live.pending is not None and phase in ("act", "void"):
        raise Refusal(f"the outcome {list(live.pending.outcome)} recorded at event "
                      f"{live.pending.seq} is being settled: nothing else is done at table "
                      f"{live.id} until it is", OUTCOME_CLAUSE)
    if live.void_asked is not None and phase not in ("void", "resolve"):
        asked = live.void_asked
        raise Refusal(f"{asked.by} asked to void round {asked.decision}'s outcome: nothing "
                      f"else is done at table {live.id} until a second supervisor approves "
                      "it or a supervisor withdraws it", OUTCOME_CLAUSE)


class RefusedAfterWriting(Refusal):
    """A refusal raised by a plan that had already written to the database (a pending row
    marked, a record appended): raised through the transaction, which is then rolled back
    (and the group's other actions run again on their own), and answered as the refusal it
    is. A refused action leaves nothing behind, whatever its plan wrote before refusing."""


@dataclass
class _Action:
    """One action's events as they are folded: what the ledger writes of them (``chained``),
    what the reply and the streams show, and the players they concern."""

    live: LiveTable
    chained: Chained
    placed: list[tuple[int, int, Event]] = field(default_factory=list)
    """Each event folded, with its place in the chain and its round: shown once all are."""
    touched: set[str] = field(default_factory=set)
    due: list[Event] = field(default_factory=list)
    """The events noted for the game's table and not yet folded into it: the answer folds
    them in (:func:`croupier.table.answer`), so the table is handed the action once."""


class Runner:
    """The actions at the tables, run through the ledger."""

    def __init__(self, ledger: Ledger, tables: Tables) -> None:
        self.ledger = ledger
        self.tables = tables

    @classmethod
    def over(cls, db: sa.Engine) -> Runner:
        """A runner over the ledger in ``db`` with its tables loaded."""
        ledger = Ledger(db)
        tables = Tables(ledger)
        tables.load()
        return cls(ledger, tables)

    def _locks(self, lives: list[LiveTable]) -> contextlib.ExitStack:
        """The tables' locks in one order, then SQLite's writer lock; a table whose rebuild
        after a failed write failed too is rebuilt now, before anything is planned from it
        (if that fails again, nothing is done: the error is the answer). Planned from memory
        ahead of the ledger, an action would write the failed one's chips with its own seats
        and chain its events after ones the ledger never got."""
        held = contextlib.ExitStack()
        with contextlib.ExitStack() as taking:
            for live in sorted(lives, key=attrgetter("id")) if len(lives) > 1 else lives:
                taking.enter_context(live.lock)
            if self.ledger.sqlite_lock is not None:
                taking.enter_context(self.ledger.sqlite_lock)
            for live in lives:
                if live.ahead:
                    self.tables.reload(live)
            held.push(taking.pop_all())
        return held

    # --- one action, and a group of them ----------------------------------------------

    def run(self, job: Job) -> Reply:
        """Run one action under its table's lock, in one transaction."""
        if job.settle is not None:
            return self.run_outcome(job)
        with self._locks([job.live]):
            reply, published = self._commit(job, remember=True)
        self._committed(job.live.id, published)
        return reply

    def run_batch(self, jobs: list[Job]) -> list[Reply | Exception]:
        """Group commit: run several actions in ONE transaction, each answered (a reply, or the
        error it raises before writing anything) only once that transaction has committed.

        Each action sees the ones before it (same transaction, tables folded in memory). If
        anything else fails, nothing of the batch is kept: its tables are rebuilt from the
        ledger and each action is run again on its own. A roll or spin among them is run on
        its own, in its place: the actions before it are committed together before it, the
        ones after it together after it."""
        results: list[Reply | Exception] = []
        group: list[Job] = []
        for job in jobs:
            if job.settle is None:
                group.append(job)
                continue
            results += self._run_group(group)
            group = []
            results.append(self._answer(job))
        return results + self._run_group(group)

    def _run_group(self, jobs: list[Job]) -> list[Reply | Exception]:
        """Actions that are not outcomes, in one transaction (see :meth:`run_batch`)."""
        if not jobs:
            return []
        lives = [jobs[0].live] if len(jobs) == 1 else list(
            {id(j.live): j.live for j in jobs}.values())
        try:
            attempts = self._together(lives, jobs)
        except Exception as exc:
            # A key's row failing on one kept meanwhile (another node, which shares no lock
            # with this one: the transaction's first reads found nothing) is no answer: run
            # on its own, the job finds that reply and is answered as any retry is.
            if len(jobs) == 1 and not isinstance(exc, sa.exc.IntegrityError):
                return [exc]
            if store.sqlstate(exc) == store.LOCK_NOT_AVAILABLE:
                # A lock waited for in vain is the group's, not one action's: each run again
                # alone would wait as long again, in turn, under the table's lock. Every one
                # is answered busy (nothing written) and retried by its client with its key.
                return [exc for _ in jobs]
            return [self._answer(job) for job in jobs]
        results: list[Reply | Exception] = []
        for attempt in attempts:
            if isinstance(attempt, Exception):
                results.append(attempt)
                continue
            reply, published, live = attempt
            self._committed(live.id, published)
            results.append(reply)
        return results

    def _together(self, lives: list[LiveTable], jobs: list[Job]) -> list[Attempt]:
        """The jobs' attempts in one transaction, committed; if it fails, the tables are
        rebuilt from the ledger and the error raised. A lone job's error rolls back its
        transaction, as :meth:`_commit` does."""
        with self._locks(lives):
            try:
                with self.ledger.transaction(lives, jobs) as began:
                    attempts = [self._attempt(began, job, place, remember=True)
                                for place, job in enumerate(jobs)]
                    if len(jobs) == 1 and isinstance(attempts[0], Exception):
                        raise attempts[0]
            except BaseException:
                # Every table is marked ahead before any is rebuilt: a rebuild that fails ends
                # the loop, and a table left unmarked would run the group's actions again on
                # its own from memory holding what the ledger never got.
                for live in lives:
                    live.ahead = True
                for live in lives:
                    self.tables.reload(live)
                raise
        return attempts

    def _committed(self, live_id: str, published: list[dict[str, Any]]) -> None:
        """After a commit: the streams are told the events (the ledger's listeners; the
        ledger has counted what it wrote for its checkpoints)."""
        for listener in self.ledger.listeners:
            listener(live_id, published)

    def _answer(self, job: Job) -> Reply | Exception:
        try:
            return self.run(job)
        except Exception as exc:
            return exc

    def _commit(self, job: Job, *, remember: bool) -> tuple[Reply, list[dict[str, Any]]]:
        """One action in one transaction (the locks held); the table is rebuilt if it fails."""
        try:
            with self.ledger.transaction([job.live], [job]) as began:
                attempt = self._attempt(began, job, 0, remember=remember)
                if isinstance(attempt, Exception):
                    raise attempt
                reply, published, _ = attempt
        except BaseException:
            self.tables.reload(job.live)
            raise
        return reply, published

    # --- an outcome ----------------------------------------------------------------------

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
        live = job.live
        with self._locks([live]):
            recorded = self.ledger.peek(job.user, job.key, job.fp)
            if recorded is None:
                try:
                    recorded = self._record(job)
                except sa.exc.IntegrityError:  # the same key kept meanwhile elsewhere
                    recorded = self.ledger.peek(job.user, job.key, job.fp)
                    if recorded is None:
                        raise
            settling = recorded.body.get("settling") if recorded.status == 202 else None
            if settling is None or live.pending is None or live.pending.seq != settling:
                return recorded  # refused, answered before, or settled by another request
            return self._settle(job, recorded)

    def _record(self, job: Job) -> Reply:
        """The outcome committed, its reply kept under the key as waiting (202)."""
        try:
            with self.ledger.transaction([job.live], [job]) as began:
                conn = began.conn
                attempt = self._attempt(began, job, 0, remember=False)
                if isinstance(attempt, Exception):
                    raise attempt
                reply, published, _ = attempt
                pending = job.live.pending
                if reply.status == 200 and pending is not None:
                    reply = self.ledger.remember(conn, job.user, job.key, job.fp, Reply(
                        202, {**reply.body, "settling": pending.seq}))
        except BaseException:
            self.tables.reload(job.live)
            raise
        job.live.outcome_committed()
        self._committed(job.live.id, published)
        return reply

    def _settle(self, job: Job, recorded: Reply) -> Reply:
        """The settlement of the outcome ``recorded``, with the whole reply kept under the key
        in the same transaction. Refused (the table halted since: a retry while its halt
        stands), it is answered and not kept: the key keeps the 202 naming the outcome, which
        a retry once the halt is resolved is answered. A transaction the database ended only
        to let another go on (a deadlock) is tried again, up to :data:`SETTLE_TRIES` times in
        all, before the table halts: nothing of it stood, and the outcome still waits."""
        for tries_left in range(SETTLE_TRIES - 1, -1, -1):
            try:
                return self._settle_once(job, recorded)
            except BaseException as exc:
                self.tables.reload(job.live)
                if store.worth_again(exc, tries_left):
                    log.warning("settling table %s again: %s", job.live.id, exc)
                    continue
                self._halt_after(job.user, job.live, exc)
                raise
        raise AssertionError("unreachable: the last try returns or raises")

    def _settle_once(self, job: Job, recorded: Reply) -> Reply:
        assert job.settle is not None
        live, user = job.live, job.user
        settle = Job(user, live, None, job.fp, job.settle, "outcome")
        with self.ledger.transaction([live], [settle]) as began:
            attempt = self._attempt(began, settle, 0, remember=False,
                                    request=_request_of(job))
            if isinstance(attempt, Exception):
                raise attempt
            settled, published, _ = attempt
            if settled.status == 409:
                return settled
            body = {**recorded.body, **settled.body,
                    "events": recorded.body["events"] + settled.body["events"]}
            body.pop("settling", None)
            reply = self.ledger.remember(began.conn, user, job.key, job.fp,
                                         Reply(settled.status, body), replace=True)
        self._committed(live.id, published)
        return reply

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
            _, published = self._commit(Job(user, live, None, "", lambda conn: Plan([event]),
                                             "outcome"), remember=False)
            self._committed(live.id, published)
        except Exception:
            log.exception("recording the halt of table %s failed", live.id)

    # --- planning and writing one action ---------------------------------------------------

    def _attempt(self, began: Began, job: Job, place: int, *, remember: bool,
                 request: str | None = None) -> Attempt:
        """One action: its stored reply, else its plan folded and written. An error its checks
        raise before it writes anything is its answer; raised after its plan wrote, or any other
        error, it fails the transaction (rolled back; a group's other actions run again on their
        own) and is then the answer. ``remember``: the reply is kept under the job's key. A
        refusal is never kept: it changes nothing and no chain records it, so a retry is decided
        again (and the audit names any refusal found kept). Its events record the request that
        produced them (``request``, else the job's own), so the audit can compare the reply kept
        under the key with them. ``place``: the job's among those of the transaction
        ``began``, whose first reads found what was kept under its key."""
        user, live, key, fp, conn = job.user, job.live, job.key, job.fp, began.conn
        wrote = conn.info.get(store.WROTE, 0)
        try:
            stored = (began.kept[place] if place in began.kept
                      else self.ledger.stored(conn, user, key, fp, began.requests[place]))
            if isinstance(stored, ApiError):
                raise stored
            if stored is not None:
                return stored, [], live
            held_up(live, job.phase)
            plan = self._within_limits(job.plan_fn(conn), live)
        except Refusal as refusal:
            if conn.info.get(store.WROTE, 0) != wrote:
                raise RefusedAfterWriting(refusal.reason, refusal.clause) from refusal
            return Reply(409, refusal_body(refusal)), [], live
        except (ApiError, Malformed) as exc:
            if conn.info.get(store.WROTE, 0) != wrote:
                raise  # through the transaction, which takes back what the plan wrote
            return exc
        reply, published = self._write(began, job, plan, request or began.requests[place],
                                       remember)
        return reply, published, live

    def _within_limits(self, plan: Plan, live: LiveTable) -> Plan:
        """The plan, if every adjustment in it is within the limit (a Refusal if not, citing
        the table's clause for adjustments, as the route's and the approval's own checks)."""
        for event in plan.events:
            if isinstance(event, sv.Adjusted):
                self.ledger.limits.check_adjustment(store.cents(event.amount),
                                                    live.procedures.adjustment_clause())
        return plan

    def _write(self, began: Began, job: Job, plan: Plan, request: str | None,
               remember: bool) -> tuple[Reply, list[dict[str, Any]]]:
        """Fold the plan's events into the table and hand them to the ledger's transaction
        ``began``, with the wallet moves, the seats, the round a decision ends, and the reply
        (kept under the job's key if ``remember``)."""
        user, live, conn, handed = job.user, job.live, began.conn, began.handed
        before = rounds.Before.of(live) if plan.decision else None
        action = _Action(live, Chained(live.id, live.round, request))
        live.raised = []
        if plan.rebuild:
            self._rebuild(conn, action, plan, user)
        else:
            _fold(action, plan.events, user.username)
            if live.raised:
                _fold_alerts(action)
        if before is not None:  # a decision concerns everyone at the table, and on its layout
            action.touched |= {w["player"] for w in before.layout}
        # One call to the table for the rest of the action: its events folded in, then what
        # it shows of them (the events, the seats, your chips); unless it made that call as
        # it checked the action.
        shown = plan.answered or answer(live.table, action.placed, action.touched,
                                        user.username, due=action.due,
                                        everyone=before is not None)
        action.due = []
        for player, delta, kind in plan.wallet:
            self.ledger.move_wallet(conn, WalletMove(player, delta, kind, user.username,
                                                     live.id, live.seq))
        seats = Seats(live, shown.seats, live.table.house)
        reply = Reply(plan.status, _body(action, plan, shown))
        if remember:
            reply = reply.encoded()
        # Handed over, not written: the ledger stages the action's rows with the next thing
        # it stages of this transaction, or as the transaction ends (``Handed``).
        handed.append(Handed(action.chained, seats,
                             Keep(user, job.key, job.fp, reply) if remember else None))
        if before is not None:
            rounds.record(conn, live, before, plan.events, action.chained.at)
        return reply, shown.events

    def _rebuild(self, conn: Connection, action: _Action, plan: Plan, user: User) -> None:
        """A void: the table rebuilt from the ledger with the plan's events written, then the
        events that follow the rebuild (the stakes returned) folded as they are written."""
        live, chained = action.live, action.chained
        _fold(action, plan.events, user.username, apply=False)
        for event in plan.events:
            if isinstance(event, sv.Voided):
                rounds.mark_voided(conn, live.id, event.decision, event)
        self.ledger.write(conn, chained)
        self.ledger.flush(conn)  # the rebuild reads this action's events back
        self.tables.reload_in(conn, live)
        action.touched = set(live.present()) | set(seat_players(conn, live.id))
        action.chained = Chained(live.id, chained.round_no, chained.request, at=chained.at)
        if plan.after_rebuild is not None:
            _fold(action, plan.after_rebuild(live), user.username)


def _request_of(job: Job) -> str | None:
    """The digest the chain records of ``job``'s request (None without an Idempotency-Key):
    for a settlement, which its outcome's request produced in a transaction before its own."""
    return None if job.key is None else codec.request_digest(job.user.id, job.key, job.fp)


def _fold(action: _Action, events: list[Event], actor: str, *, apply: bool = True) -> None:
    """Fold ``events`` into the table (``apply``: else only their places in its chain are
    taken, for a void that rebuilds it), each as the ledger writes it and the reply shows it;
    the game's own wait in ``action.due`` for the answer to fold them in."""
    live, chained = action.live, action.chained
    round_no, placed, shown = chained.round_no, chained.events, action.placed
    for event in events:
        seq = live.seq + 1
        if apply:
            live.note(event, seq, round_no, action.due)
        live.seq = seq
        placed.append((seq, event, actor))
        shown.append((seq, round_no, event))
        player = getattr(event, "player", None)
        if isinstance(player, str):
            action.touched.add(player)


def _fold_alerts(action: _Action) -> None:
    """A fairness monitor's alert is written with the roll or spin that raised it, with
    what it calls for at the table (at craps a change of dice)."""
    live = action.live
    alerts: list[Event] = [monitoring.alert_event(a) for a in live.raised]
    _fold(action, alerts, monitoring.MONITOR_ACTOR)
    _fold(action, live.procedures.after_alerts(), monitoring.MONITOR_ACTOR)
    live.raised = []


def _body(action: _Action, plan: Plan, shown: Answer) -> dict[str, Any]:
    """The reply: the table, the round, the events written, what the plan adds, and for a
    player at the table their chips."""
    body: dict[str, Any] = {"table": action.live.id, "round": action.chained.round_no,
                            "events": shown.events, **plan.extra}
    if shown.you is not None:
        body["you"] = shown.you
    return body
