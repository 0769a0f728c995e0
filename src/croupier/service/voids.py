"""Voiding a decision: a mis-entered result corrected, or an RNG outcome's stakes returned.

What a void may do depends on where the outcome came from:

* **Entered** by the dealer (physical dice or a wheel): a void corrects a result entered
  wrongly. The entry and everything it settled no longer count (the events stay, listed in the
  ``void`` event), the table stands as before the entry, and the dealer enters the result
  the dice or the ball showed. One supervisor, with a reason.
* **Drawn** by the RNG: the outcome stands in the ledger (it is never drawn again), and so do
  the roll or spin itself and what it did to the table (the point, the shooter). A void returns
  every stake the outcome decided or moved to its player (its winnings are not paid, its loss
  not taken) and no later draw decides those stakes. It needs two people: a supervisor asks
  (``void_asked``), a second supervisor approves. Meanwhile the table takes nothing else (no
  chips leave it, no act lapses the void); a supervisor may withdraw the request instead.

Only the last decision is voided, and only before anything else happens at the table. Every
void is listed in the end-of-night report and watched (:mod:`croupier.service.void_watch`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.events import Event, Settled
from croupier.service import codec, coupons, people, rounds, store
from croupier.service import events as sv
from croupier.service.auth import User
from croupier.service.live import LiveTable
from croupier.service.plans import OUTCOME_CLAUSE, Plan
from croupier.service.rng import DrawSource
from croupier.service.void_watch import void_alerts

PlanFn = Callable[[Connection], Plan]

MONEY_KINDS = frozenset({"settle", "move", "coupon_out", "five_adjacent_moved"})
"""The events of a settlement an RNG outcome's void takes back (the roll or spin, the shooter
and the procedures stand)."""


def _drawn(row: Any) -> bool:
    """Whether the round's outcome was the RNG's (not entered by the dealer)."""
    draw = json.loads(row.draw) if row.draw else {}
    return bool(draw) and draw.get("source") != DrawSource.ENTERED


def void(user: User, live: LiveTable, reason: str) -> PlanFn:
    """A supervisor's void of the last decision: done at once for an entered result, asked
    (for a second supervisor's approval) for an RNG outcome."""
    def plan(conn: Connection) -> Plan:
        row = rounds.last_decided(conn, live)
        if row.last_seq != live.seq:
            raise Refusal(f"play has gone on since round {row.round} was decided: only the "
                          "last decision can be voided, before anything else happens at the "
                          "table", OUTCOME_CLAUSE)
        if _drawn(row):
            asked = sv.VoidAsked(int(row.round), reason, user.username)
            return Plan([asked], status=202, extra={
                "void_asked": row.round,
                "waiting": "the RNG's outcome stands: its stakes are returned once a second "
                           "supervisor approves (POST .../void/approve)"})
        outcome = json.loads(row.outcome)
        seqs = tuple(range(int(outcome["from_seq"]), row.last_seq + 1))
        voided = sv.Voided(row.round, seqs, reason, user.username)
        return Plan([voided, *void_alerts(live, voided)], rebuild=True,
                    extra={"voided_round": row.round})
    return plan


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
        row = rounds.last_decided(conn, live)
        if row.round != asked.decision:
            raise Refusal(f"the void asked was of round {asked.decision}, not the last decision",
                          OUTCOME_CLAUSE)
        outcome = json.loads(row.outcome)
        seqs, touched = _settlement(conn, live, int(outcome["from_seq"]), row.last_seq)
        voided = sv.Voided(row.round, seqs, asked.reason, asked.by, approved_by=user.username)
        return Plan([voided, *void_alerts(live, voided)], rebuild=True,
                    after_rebuild=lambda table: returned(table, touched),
                    extra={"voided_round": row.round})
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


def _settlement(conn: Connection, live: LiveTable, first: int, last: int,
                ) -> tuple[tuple[int, ...], set[tuple[str, str]]]:
    """The settlement's events from ``first`` to ``last`` (their seqs) and the wagers they
    decided or moved, by (player, key on the layout before the outcome)."""
    rows = conn.execute(sa.select(store.events.c.seq, store.events.c.kind,
                                  store.events.c.payload).where(
        store.events.c.table_id == live.id, store.events.c.seq >= first,
        store.events.c.seq <= last).order_by(store.events.c.seq)).all()
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
