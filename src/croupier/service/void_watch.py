"""Watching voids: a table, or a supervisor at it, voiding more decisions than chance allows.

A void is rare: a dealer's mis-entry corrected, or an RNG outcome's stakes returned after a
malfunction. A supervisor who voids often may be choosing outcomes, so every void is counted
against the table's recent decisions, and an alert (an ``integrity_alert`` event with the
monitor ``void_rate``, in the table's chain with the void that raised it) is raised when, among
the last :data:`WINDOW` decisions at a table,

* the table has :data:`TABLE_LIMIT` or more voided, or
* one supervisor asked for or approved :data:`PERSON_LIMIT` or more of them.

At an honest table voiding one decision in a thousand, the chance of three voids among a
hundred decisions is about 1.6 in 10,000, and of two by one supervisor about 4.7 in 1,000.

The counts are rebuilt from the table's events (decisions and ``void`` events), as the table is.
"""

from __future__ import annotations

from collections import deque
from decimal import Decimal
from typing import TYPE_CHECKING

from croupier.events import Event
from croupier.service import events as sv

if TYPE_CHECKING:
    from croupier.service.live import LiveTable

WINDOW = 100
TABLE_LIMIT = 3
PERSON_LIMIT = 2
MONITOR = "void_rate"


class VoidWatch:
    """A table's decisions and voids over its last :data:`WINDOW` decisions."""

    def __init__(self) -> None:
        self.decisions = 0
        self.voids: deque[tuple[int, tuple[str, ...]]] = deque()
        """(the decision count when voided, the supervisors involved) for recent voids."""

    def decided(self) -> None:
        self.decisions += 1
        while self.voids and self.voids[0][0] <= self.decisions - WINDOW:
            self.voids.popleft()

    def voided(self, event: sv.Voided) -> None:
        people = (event.by,) if event.approved_by is None else (event.by, event.approved_by)
        self.voids.append((self.decisions, people))

    def counts(self) -> tuple[int, dict[str, int]]:
        """The voids in the window, and each supervisor's share of them."""
        per: dict[str, int] = {}
        for _, people in self.voids:
            for person in set(people):
                per[person] = per.get(person, 0) + 1
        return len(self.voids), per


def void_alerts(live: LiveTable, event: sv.Voided) -> list[Event]:
    """The alerts a void about to be recorded at ``live`` raises (written with it)."""
    watch = VoidWatch()
    watch.decisions = live.void_watch.decisions
    watch.voids = deque(live.void_watch.voids)
    watch.voided(event)
    total, per = watch.counts()
    alerts: list[Event] = []
    if total >= TABLE_LIMIT:
        alerts.append(_alert(live.id, watch.decisions, total, TABLE_LIMIT,
                             f"{total} of the last {WINDOW} decisions at table {live.id} "
                             "voided"))
    involved = {event.by} | ({event.approved_by} if event.approved_by else set())
    for person in sorted(involved):
        if per.get(person, 0) >= PERSON_LIMIT:
            alerts.append(_alert(f"{live.id}:{person}", watch.decisions, per[person],
                                 PERSON_LIMIT, f"{person} took part in {per[person]} voids of "
                                 f"the last {WINDOW} decisions at table {live.id}"))
    return alerts


def _alert(set_id: str, at: int, count: int, limit: int, message: str) -> sv.IntegrityAlert:
    return sv.IntegrityAlert("voids", set_id, MONITOR, at, Decimal(count), Decimal(limit),
                             message)
