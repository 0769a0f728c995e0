"""Watching voids: a table, or a supervisor at it, voiding more decisions than chance allows.

A void is rare: a dealer's mis-entry corrected, or an RNG outcome's stakes returned after a
malfunction. A supervisor who voids often may be choosing outcomes (at a physical table a void
lets the dealer enter another result), so every void is counted, and an alert (an
``integrity_alert`` event with the monitor ``void_rate``, in the table's chain with the void
that raised it) is raised with each void once, since the table opened,

* the table has had :data:`TABLE_LIMIT` voids or more, or
* one supervisor has asked for or approved :data:`PERSON_LIMIT` or more of them.

The counts have no window: a window of decisions could be padded with decisions nothing is
staked on (a few rolls cost nothing), and a night at a table has only a few hundred decisions,
among which an honest table voids none or one. The counts are rebuilt from the table's
``void`` events, as the table is.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from croupier.events import Event
from croupier.service import events as sv

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

    def decided(self) -> None:
        self.decisions += 1

    def voided(self, event: sv.Voided) -> None:
        self.voids += 1
        for person in _people(event):
            self.by[person] = self.by.get(person, 0) + 1


def _people(event: sv.Voided) -> set[str]:
    return {event.by} | ({event.approved_by} if event.approved_by else set())


def void_alerts(live: LiveTable, event: sv.Voided) -> list[Event]:
    """The alerts a void about to be recorded at ``live`` raises (written with it)."""
    watch = live.void_watch
    total = watch.voids + 1
    alerts: list[Event] = []
    if total >= TABLE_LIMIT:
        alerts.append(_alert(live.id, watch.decisions, total, TABLE_LIMIT,
                             f"{total} decisions voided at table {live.id} in "
                             f"{watch.decisions} since it opened"))
    for person in sorted(_people(event)):
        count = watch.by.get(person, 0) + 1
        if count >= PERSON_LIMIT:
            alerts.append(_alert(f"{live.id}:{person}", watch.decisions, count, PERSON_LIMIT,
                                 f"{person} took part in {count} voids at table {live.id} in "
                                 f"{watch.decisions} decisions"))
    return alerts


def _alert(set_id: str, at: int, count: int, limit: int, message: str) -> sv.IntegrityAlert:
    return sv.IntegrityAlert("voids", set_id, MONITOR, at, Decimal(count), Decimal(limit),
                             message)
