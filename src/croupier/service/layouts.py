"""A roulette table's approved layout taken out of service while the table is open.

A table opens with the optional wagers (five adjacent numbers, the seven numbers area) that an
approved layout in service at it shows (``equipment_register.layout_options``). When that
layout fails an inspection, is retired or is taken from the table, the house's chain records
it, and the table is then given a ``layout_withdrawn`` event (:func:`withdrawal`): the table's
own fold takes those wagers off, so from then on they are refused citing the profile's clause
for them, and the audit's replay of the table's chain reaches the same state. Wagers already
on the layout were made on an approved layout and are settled as made.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.games import GAMES
from croupier.roulette.events import LayoutWithdrawn
from croupier.rules import RouletteRules, load_profile
from croupier.service.equipment_register import approved_layout_wagers, items
from croupier.service.live import LiveTable
from croupier.service.plans import Plan, PlanFn


@functools.cache
def layout_clauses(game: str, profile: str) -> Mapping[str, str]:
    """The wagers ``game`` takes under ``profile`` only on an approved layout, each with the
    clause that says so (none where the profile asks no layout). Read once per game and
    profile: a bet asks it, and a profile's text does not change while the server runs."""
    rules = GAMES[game].rules(load_profile(profile))
    found = rules.approved_layout_clauses if isinstance(rules, RouletteRules) else {}
    return MappingProxyType(dict(found))


def needing_layout(live: LiveTable) -> dict[str, str]:
    """The wagers ``live`` offers now that need an approved layout, each with the clause
    that says so (none at a table whose profile asks no layout)."""
    clauses = layout_clauses(live.game.name, live.profile)
    if not clauses:
        return {}
    offered = live.table.offer()["wagers"]
    return {w: c for w, c in clauses.items() if w in offered}


def withdrawal(live: LiveTable, item_id: str, reason: str) -> PlanFn:
    """The plan that takes off, at ``live``, every wager it offers that no approved layout in
    service there shows any more (read from the house's chain in the action's transaction,
    under the table's lock); no event if there is none."""

    def plan(conn: Connection) -> Plan:
        needing = needing_layout(live)
        shown = approved_layout_wagers(conn, live.id) if needing else {}
        gone = sorted(w for w in needing if w not in shown)
        if not gone:
            return Plan([])
        return Plan([LayoutWithdrawn(tuple(gone), item_id, reason, needing[gone[0]])])

    return plan


def require_layout(conn: Connection, live: LiveTable, wager: str) -> None:
    """Refuse ``wager`` at ``live`` if it needs an approved layout (the profile says so) and
    the register, read in the bet's own transaction, shows none in service there that shows
    it, at a table whose layouts the register follows (one was placed there). The table's
    ``layout_withdrawn`` event follows the register's record in a transaction of its own
    (:func:`withdrawal`): a failure or a crash between the two left the table taking the
    wager with no approved layout for it."""
    clause = layout_clauses(live.game.name, live.profile).get(wager)
    if clause is None:
        return
    if wager in approved_layout_wagers(conn, live.id):
        return
    if not any(it.type == "layout" and live.id in it.tables for it in items(conn)):
        return  # a table whose layout the register does not follow: the table's option rules
    raise Refusal(f"{wager.replace('_', ' ')} wagers are taken only on an approved layout "
                  f"that shows them: none is in service at table {live.id}", clause)
