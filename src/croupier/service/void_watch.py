"""Watching voids: a table, or a supervisor at it, voiding more decisions than chance allows.

A void is rare: a dealer's mis-entry corrected, or an RNG outcome's stakes returned after a
malfunction. A supervisor who voids often may be choosing outcomes (at a physical table a void
lets the dealer enter another result), so every void is counted, and an alert (an
``integrity_alert`` event with the monitor ``void_rate``, in the table's chain with the void
that raised it) is raised with each void once, since the table opened,

* the table has had :data:`TABLE_LIMIT` voids or more, or
* one supervisor has asked for or approved :data:`PERSON_LIMIT` or more of them: counted as a
  person, not an account (the voids every account that is one person with them took part in,
  :func:`croupier.service.people.one_person`), so two accounts of one admin's line share one
  count.

The counts have no window: a window of decisions could be padded with decisions nothing is
staked on (a few rolls cost nothing), and a night at a table has only a few hundred decisions,
among which an honest table voids none or one. The counts are rebuilt from the table's
``void`` events, as the table is.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from sqlalchemy.engine import Connection

from croupier.events import Event
from croupier.service import events as sv
from croupier.service import people

if TYPE_CHECKING:
    from croupier.service.live import LiveTable

TABLE_LIMIT = 3
PERSON_LIMIT = 2
MONITOR = "void_rate"


class VoidWatch:
    """A table's decisions and its voids, with the supervisors who took part in each."""

    def __init__(self) -> None:
        self.decisions = 0
        self.voids = 0
        self.by: dict[str, int] = {}
        self.parties: list[frozenset[str]] = []
        """The accounts that took part in each void, in order."""

    def decided(self) -> None:
        self.decisions += 1

    def voided(self, event: sv.Voided) -> None:
        self.voids += 1
        for person in _people(event):
            self.by[person] = self.by.get(person, 0) + 1
        self.parties.append(frozenset(_people(event)))

    def taken_part(self, line: set[str]) -> int:
        """The voids any of ``line`` (the accounts of one person) took part in."""
        return sum(1 for party in self.parties if party & line)


def _people(event: sv.Voided) -> set[str]:
    return {event.by} | ({event.approved_by} if event.approved_by else set())


def void_alerts(conn: Connection, live: LiveTable, event: sv.Voided) -> list[Event]:
    """The alerts a void about to be recorded at ``live`` raises (written with it). A
    supervisor's count is their person's: the voids of every account that is one person with
    them (read from the users' chain in ``conn``'s transaction)."""
    watch = live.void_watch
    total = watch.voids + 1
    alerts: list[Event] = []
    if total >= TABLE_LIMIT:
        alerts.append(_alert(live.id, watch.decisions, total, TABLE_LIMIT,
                             f"{total} decisions voided at table {live.id} in "
                             f"{watch.decisions} since it opened"))
    for person in sorted(_people(event)):
        line = people.one_person(conn, person)
        count = watch.taken_part(line) + 1
        if count >= PERSON_LIMIT:
            others = sorted((line - {person}) & set(watch.by))
            also = f" (with {', '.join(others)}, one person with them)" if others else ""
            alerts.append(_alert(f"{live.id}:{person}", watch.decisions, count, PERSON_LIMIT,
                                 f"{person}{also} took part in {count} voids at table "
                                 f"{live.id} in {watch.decisions} decisions"))
    return alerts


def _alert(set_id: str, at: int, count: int, limit: int, message: str) -> sv.IntegrityAlert:
    return sv.IntegrityAlert("voids", set_id, MONITOR, at, Decimal(count), Decimal(limit),
                             message)
