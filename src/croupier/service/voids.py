"""Voiding a decision: a mis-entered result corrected, or an RNG outcome's stakes returned.

What a void may do depends on where the outcome came from:

* **Entered** by the dealer (physical dice or a wheel): a void corrects a result entered
  wrongly. The entry and everything it settled no longer count (the events stay, listed in the
  ``void`` event), the table stands as before the entry, and the dealer enters the result
  the dice or the ball showed. One supervisor, with a reason. Until then betting is closed
  (the result is at rest for all to see) and no late bet is taken.
* **Drawn** by the RNG: the outcome stands in the ledger (it is never drawn again), and so do
  the roll or spin itself and what it did to the table (the point, the shooter). A void returns
  every stake the outcome decided or moved to its player (its winnings are not paid, its loss
  not taken) and no later draw decides those stakes. It needs two people: a supervisor asks
  (``void_asked``), a second supervisor approves. Meanwhile the table takes nothing else (no
  chips leave it, no act lapses the void); a supervisor may withdraw the request instead.

Only the last decision is voided, and only before anything else happens at the table. Every
void is listed in the end-of-night report and watched (:mod:`croupier.service.void_watch`).

A void decides from the table's hash chain, never from the ``rounds`` rows (a projection kept
for recall, which the audit only compares after the fact): the round, its outcome's own event
and source, and the events the void takes back are read from the event rows of the last decided
round (found through the round's index, so a void reads one round, not the ledger), each
checked to link to the event before it (:func:`last_decision`). A round whose events do not
link, or that records no outcome, is not voided.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.events import Event, Settled
from croupier.service import codec, coupons, people, store
from croupier.service import events as sv
from croupier.service.audit.canonical import event_text, genesis_of, link
from croupier.service.auth import User
from croupier.service.live import LiveTable
from croupier.service.plans import OUTCOME_CLAUSE, Plan
from croupier.service.rng import DrawSource
from croupier.service.void_watch import void_alerts

PlanFn = Callable[[Connection], Plan]

MONEY_KINDS = frozenset({"settle", "move", "coupon_out", "five_adjacent_moved"})
"""The events of a settlement an RNG outcome's void takes back (the roll or spin, the shooter
and the procedures stand)."""


def _drawn(outcome: sv.Drawn | sv.Entered) -> bool:
    """Whether a round's outcome was the RNG's (not entered by the dealer)."""
    return isinstance(outcome, sv.Drawn) and outcome.source != DrawSource.ENTERED


@dataclass(frozen=True)
class LastDecision:
    """The table's last decision as its chained events record it."""

    round: int
    outcome: sv.Drawn | sv.Entered
    """The outcome's own event: drawn by the RNG or entered by the dealer."""
    from_seq: int
    """That event's place in the chain: a void takes back nothing before it."""
    last_seq: int
    """The round's last event."""
    rows: Sequence[Any]
    """The round's event rows from ``from_seq`` to ``last_seq``."""
    closed: bool = False
    """Whether betting was closed in the round before its outcome ("no more bets" called)."""


_ROUND = sa.select(store.events).where(
    store.events.c.table_id == sa.bindparam("t"), store.events.c.round == sa.bindparam("r"))
"""A round's event rows, through the index on (table, round): put in order here, since asked
to order them by seq SQLite would walk the table's every event in the primary key instead."""
_VOIDS = sa.select(store.events.c.payload).where(
    store.events.c.table_id == sa.bindparam("t"), store.events.c.round == sa.bindparam("r"),
    store.events.c.kind == sv.Voided.kind)
_HASH = sa.select(store.events.c.hash).where(
    store.events.c.table_id == sa.bindparam("t"), store.events.c.seq == sa.bindparam("s"))
_OUTCOMES = frozenset({sv.Drawn.kind, sv.Entered.kind})


def last_decision(conn: Connection, live: LiveTable) -> LastDecision:
    """The table's last decision, not voided, read from its chained events (a refusal if there
    is none, or if the round's events do not link in the table's chain)."""
    last = live.round - 1
    rows = sorted(conn.execute(_ROUND, {"t": live.id, "r": last}).all(),
                  key=lambda r: int(r.seq)) if last > 0 else []
    if not rows:
        raise Refusal("there is no decision to void", OUTCOME_CLAUSE)
    # A void is recorded in the round after the one it voids (the table's round then).
    for (payload,) in conn.execute(_VOIDS, {"t": live.id, "r": last + 1}):
        event = codec.decode(live.game.name, payload)
        if isinstance(event, sv.Voided) and event.decision == last:
            raise Refusal(f"round {last} is already void", OUTCOME_CLAUSE)
    broken = _unlinked(conn, live, rows)
    if broken is not None:
        raise Refusal(f"round {last} is not voided: {broken}, so the table's hash chain does "
                      "not vouch for what the void would decide from; nothing is voided until "
                      "the audit (croupier audit verify) has looked at the ledger",
                      OUTCOME_CLAUSE)
    found: tuple[int, sv.Drawn | sv.Entered] | None = None
    for row in rows:
        if row.kind in _OUTCOMES:
            event = codec.decode(live.game.name, row.payload)
            if isinstance(event, (sv.Drawn, sv.Entered)):
                found = (int(row.seq), event)
    if found is None:
        raise Refusal(f"round {last}'s events record no outcome drawn or entered: there is "
                      "no outcome to void", OUTCOME_CLAUSE)
    first, outcome = found
    closed = any(r.kind == sv.BettingClosed.kind and r.seq < first for r in rows)
    return LastDecision(last, outcome, first, int(rows[-1].seq),
                        [r for r in rows if r.seq >= first], closed)


def _unlinked(conn: Connection, live: LiveTable, rows: Sequence[Any]) -> str | None:
    """Where the round's event ``rows`` (in order) stop linking, each to the one before it
    (the first to the event before the round, or the table's genesis), as the ledger chained
    them (``audit.canonical``); None if every hash holds."""
    first = int(rows[0].seq)
    if first == 1:
        table = conn.execute(sa.select(store.tables).where(store.tables.c.id == live.id)).one()
        head = genesis_of(table._mapping)
    else:
        before = conn.execute(_HASH, {"t": live.id, "s": first - 1}).scalar()
        if before is None:
            return f"event {first - 1}, before the round's first, is missing"
        head = str(before)
    for expected, row in enumerate(rows, start=first):
        if row.seq != expected:
            return f"event {expected} is missing from the round"
        head = link(head, event_text(row._mapping))
        if row.hash != head:
            return (f"event {row.seq}'s hash does not match its contents and the event "
                    "before it")
    return None


def void(user: User, live: LiveTable, reason: str) -> PlanFn:
    """A supervisor's void of the last decision: done at once for an entered result, asked
    (for a second supervisor's approval) for an RNG outcome."""
    def plan(conn: Connection) -> Plan:
        last = last_decision(conn, live)
        if last.last_seq != live.seq:
            raise Refusal(f"play has gone on since round {last.round} was decided: only the "
                          "last decision can be voided, before anything else happens at the "
                          "table", OUTCOME_CLAUSE)
        if _drawn(last.outcome):
            asked = sv.VoidAsked(last.round, reason, user.username)
            return Plan([asked], status=202, extra={
                "void_asked": last.round,
                "waiting": "the RNG's outcome stands: its stakes are returned once a second "
                           "supervisor approves (POST .../void/approve)"})
        seqs = tuple(range(last.from_seq, last.last_seq + 1))
        voided = sv.Voided(last.round, seqs, reason, user.username)
        return Plan([voided, *void_alerts(conn, live, voided), *_held(user, live, last)],
                    rebuild=True, extra={"voided_round": last.round})
    return plan


def _held(user: User, live: LiveTable, last: LastDecision) -> list[Event]:
    """Betting closed by the void of an entered result, unless it was closed before the
    outcome: the dice (or the ball) are at rest showing the result the dealer is about to
    enter, so a wager made, taken down or called on or off now would be made knowing it
    (past-posting). The layout stands as it was when they were thrown until what showed is
    entered (the next outcome opens betting again)."""
    if last.closed:
        return []
    return [sv.BettingClosed(user.username, live.procedures.closed_clause())]


def approve(user: User, live: LiveTable) -> PlanFn:
    """A second supervisor's approval of the void asked of an RNG outcome."""
    def plan(conn: Connection) -> Plan:
        asked = live.void_asked
        if asked is None:
            raise Refusal("no void waits for approval at this table (play went on, or none "
                          "was asked)", OUTCOME_CLAUSE)
        why = people.not_independent(conn, asked.by, user.username)
        if why is not None:
            raise Refusal("the void of an RNG outcome is approved by a second supervisor, "
                          f"independent of the one who asked: {why}", OUTCOME_CLAUSE)
        last = last_decision(conn, live)
        if last.round != asked.decision:
            raise Refusal(f"the void asked was of round {asked.decision}, not the last decision",
                          OUTCOME_CLAUSE)
        if not _drawn(last.outcome):
            raise Refusal(f"round {last.round}'s result was entered by the dealer: its void "
                          "is one supervisor's, not approved as an RNG outcome's",
                          OUTCOME_CLAUSE)
        seqs, touched = _settlement(live, last.rows)
        voided = sv.Voided(last.round, seqs, asked.reason, asked.by, approved_by=user.username)
        return Plan([voided, *void_alerts(conn, live, voided)], rebuild=True,
                    after_rebuild=lambda table: returned(table, touched),
                    extra={"voided_round": last.round})
    return plan


WITHDRAWN = "void_withdrawn"
"""The procedure a supervisor records on withdrawing a void asked of an RNG outcome."""


def withdraw(user: User, live: LiveTable) -> PlanFn:
    """A supervisor withdraws the void asked of an RNG outcome: the outcome and its settlement
    stand, and play goes on. One person suffices: a withdrawal moves no money."""
    def plan(conn: Connection) -> Plan:
        asked = live.void_asked
        if asked is None:
            raise Refusal("no void waits at this table to be withdrawn", OUTCOME_CLAUSE)
        return Plan([sv.Procedure(WITHDRAWN, user.username,
                                  f"the void of round {asked.decision} asked by {asked.by} is "
                                  "withdrawn: its outcome and settlement stand", OUTCOME_CLAUSE)])
    return plan


def _settlement(live: LiveTable, rows: Sequence[Any],
                ) -> tuple[tuple[int, ...], set[tuple[str, str]]]:
    """The settlement's events among the round's event ``rows`` (their seqs) and the wagers
    they decided or moved, by (player, key on the layout before the outcome)."""
    seqs: list[int] = []
    touched: set[tuple[str, str]] = set()
    for r in rows:
        if r.kind not in MONEY_KINDS:
            continue
        seqs.append(int(r.seq))
        event = codec.decode(live.game.name, r.payload)
        player = codec.player_of(event)
        key = getattr(event, "part_of", None) or getattr(event, "wager", None)
        if player and isinstance(key, str):
            touched.add((player, key))
    return tuple(seqs), touched


def returned(live: LiveTable, touched: set[tuple[str, str]]) -> list[Event]:
    """Each wager in ``touched`` that stands on the layout returned whole to its player (and
    a match play coupon on it to the house)."""
    events: list[Event] = [Settled(p, key, stake, "returned", returned=stake,
                                   clause=OUTCOME_CLAUSE)
                           for p, key, stake in live.table.layout() if (p, key) in touched]
    return events + coupons.coupons_after(live, events)
