"""Uniform pay tables: every craps table of one game and profile pays the same odds.

N.J.A.C. 13:69F-1.4(b), 19:47-1.4(b) and 13:47-20.25(i)2 let a house pay more than the listed
odds only if what it pays is uniform within the casino (or the casino-night event). The house
keeps one pay table per game and profile: the scheduled change in effect for them
(``service/paytable_changes.py``), else the one its tables already pay, else the profile's
own. A new table takes it at creation (:func:`open_table`); a table whose own ``pays``
would price any entry differently is refused, citing the profile's own clause (the first
table too: its pays would become the house's on one admin's word, where a change needs a
second person). A roulette table, under a text with no uniform pay rule and with no change
of its pays, pays the profile's odds (an admin alone opened one paying a straight at 3500 to
1). Creation is serialised (a lock in the process and, on PostgreSQL, an advisory lock held by the
transaction that writes the table; SQLite's write transaction is already exclusive), and the
house's table is read inside that transaction, so tables created at once, or while a change
takes effect, each get exactly one pay table. A table open when a change takes effect takes
it at its next round boundary (:func:`take_due_change`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import uuid
from dataclasses import replace
from typing import Any

import sqlalchemy as sa
from fastapi.concurrency import run_in_threadpool
from sqlalchemy.engine import Connection, Engine

from croupier.errors import Refusal
from croupier.games import GAMES, Game
from croupier.money import Odds
from croupier.rules import load_profile
from croupier.service import controls, equipment_register, store
from croupier.service import paytable_changes as schedule
from croupier.service.auth import User
from croupier.service.commit import Committer
from croupier.service.live import LiveTable, empty_table
from croupier.service.plans import Job, Plan
from croupier.service.tables import Opening as Opening  # what open_table takes, named here
from croupier.service.tables import Tables

log = logging.getLogger("croupier.service")
_CREATE_LOCK = threading.Lock()
_CREATE_ADVISORY = 0x7061797A  # "payz": orders table creation across processes (PostgreSQL)
SCHEDULE_USER = User(0, schedule.HOUSE, "system")


def _pays(game: Game, profile: str, options: dict[str, Any]) -> dict[str, Odds]:
    """The pay table a table of ``game`` with ``options`` pays (the table's own offer)."""
    offered = empty_table(game, profile, options).offer()["pays"]
    return {key: Odds.parse(text, key) for key, text in offered.items()}


def _differs(table_id: str, game: Game, profile: str, mine: dict[str, Any],
             house: dict[str, Any], where: str) -> None:
    """Refuse ``mine`` (a table's options) if it prices an entry otherwise than ``house``."""
    new, kept = _pays(game, profile, mine), _pays(game, profile, house)
    for key in sorted(new.keys() & kept.keys()):
        if new[key].ratio != kept[key].ratio:
            rules = game.rules(load_profile(profile))
            raise Refusal(f"{key} would pay {new[key]} at table {table_id} but pays "
                          f"{kept[key]} {where}: the odds paid are uniform within the casino",
                          rules.clause("pays_clause") if rules is not None else "")


def _above_the_profile(table_id: str, game: Game, profile: str,
                       options: dict[str, Any]) -> None:
    """Refuse the first table of a game and profile (any table of a game without a house pay
    table, roulette) whose own ``pays`` price an entry otherwise than the profile: its pay
    table would be paid on one admin's word, where a change of it needs a second person
    (:mod:`.paytable_changes`). The house pays more than the profile only by a change
    proposed and approved by two people."""
    new = _pays(game, profile, options)
    least = _pays(game, profile, {**options, "pays": {}})
    for key in sorted(new.keys() & least.keys()):
        if new[key].ratio != least[key].ratio:
            rules = game.rules(load_profile(profile))
            how = ("only by a pay table change a second person approves (POST "
                   "/paytables/changes), never by opening a table" if game.house_pay_table
                   else f"at a {game.name} table never: each pays the profile's odds, as no "
                   "change of them has a second person's approval")
            raise Refusal(f"{key} would pay {new[key]} at table {table_id}, where {profile} "
                          f"pays {least[key]}: the house pays other odds than the profile's "
                          f"{how}", rules.clause("pays_clause") if rules is not None else "")


def house_pays(conn: Connection, game: str, profile: str) -> tuple[dict[str, Any] | None, str]:
    """The house's pay table (an ``options.pays`` object) for ``game`` and ``profile`` and
    where it comes from; None when the house has none yet."""
    change = schedule.due(schedule.changes(conn), game, profile, time.time())
    if change is not None:
        return dict(change.pays), f"under the house's pay table (change {change.id})"
    row = _first_table(conn, game, profile)
    if row is None:
        return None, ""
    pays = json.loads(row.options).get("pays", {})
    return (pays if isinstance(pays, dict) else {}), f"at table {row.id}"


def open_table(tables: Tables, opening: Opening) -> LiveTable:
    """Create a table that takes the house's pay table (refused if its own ``pays`` differ),
    with the record of the house's chain that opens it (``table_entry``: who opened it, how
    its results come) in the same transaction: the server serves no table without one
    (:meth:`Tables.load`). A Refusal raised inside is re-raised outside the transaction (so
    nothing is written)."""
    table_id, game, profile = opening.table_id, opening.game, opening.profile
    refused: Refusal | None = None
    db = tables.ledger.db
    with _CREATE_LOCK, db.begin() as conn:
        if not store.is_sqlite(db):
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _CREATE_ADVISORY})
        if conn.execute(sa.select(store.tables.c.id).where(
                store.tables.c.id == table_id)).first() is not None:
            raise LookupError(table_id)
        try:
            # Under the register's lock to the commit: no placing, and no layout taken out of
            # service, slips in between.
            equipment_register.fits_opening(conn, table_id, game)
            options = equipment_register.layout_options(conn, table_id, game, profile,
                                                        opening.options)
            options = _with_house_pays(conn, table_id, game, profile, options)
        except Refusal as exc:
            refused = exc
        if refused is None:
            live = tables.create(conn, replace(opening, options=options))
    if refused is not None:
        raise refused
    return live


def _with_house_pays(conn: Connection, table_id: str, game: str, profile: str,
                     options: dict[str, Any]) -> dict[str, Any]:
    played = GAMES[game]
    empty_table(played, profile, options)  # the options checked as the table's (Malformed)
    if not played.house_pay_table:
        # Roulette: 13:47-20.32 has no uniform pay rule, and no change of a table's pays has
        # a second person's approval, so a table opened by one admin pays the profile's odds
        # (it paid whatever its opener wrote: a straight at 3500 to 1).
        if "pays" in options:
            _above_the_profile(table_id, played, profile, options)
        return options
    house, where = house_pays(conn, game, profile)
    if house is None:
        if "pays" in options:
            _above_the_profile(table_id, played, profile, options)
        return options
    if "pays" in options:
        _differs(table_id, played, profile, options, {**options, "pays": house}, where)
    first = _first_options(conn, game, profile)
    if first is not None:
        # An option choosing among the profile's pay tables (the fire bet's table A or B,
        # 13:69F-1.4(e)) is the house's choice too: a table opened choosing the other paid
        # other odds than every table before it, on one admin's word.
        _differs(table_id, played, profile, {**options, "pays": house},
                 {**first, "pays": house}, "at the house's tables (its first table's choice)")
    return {**options, "pays": house}


def _first_table(conn: Connection, game: str, profile: str) -> Any:
    """The row (id, options) of the house's first table of ``game`` and ``profile``: the first
    the house's chain opened (its earliest ``table_entry`` record), None while there is none.
    Neither a ``tables`` row alone (no one's act: the server does not serve it) nor its
    ``created_at`` (in no chain) says which table is first: either, written into the
    database, would set the pays of every table opened after it without a second person."""
    t, hr = store.tables.c, store.house_records.c
    opened = (sa.select(sa.func.min(hr.seq))
              .where(hr.kind == controls.ENTRY_KIND,
                     hr.subject == sa.literal(controls.entry_subject("")) + t.id)
              .scalar_subquery())
    return conn.execute(sa.select(t.id, t.options)
                        .where(t.game == game, t.profile == profile, opened.is_not(None))
                        .order_by(opened, t.id).limit(1)).first()


def _first_options(conn: Connection, game: str, profile: str) -> dict[str, Any] | None:
    """The options of the house's first table of ``game`` and ``profile`` (None: none yet)."""
    row = _first_table(conn, game, profile)
    if row is None:
        return None
    options = json.loads(row.options)
    return options if isinstance(options, dict) else None


_refreshing: dict[int, asyncio.Future[Any]] = {}


async def _refreshed(engine: Engine) -> None:
    """Read the changes once for every request that finds them stale at the same moment: the
    requests of a busy table each started a read of their own in a thread of their own, each
    taking a pooled connection (past the pool, a new one each time)."""
    read = _refreshing.get(id(engine))
    if read is None or read.done():
        read = _refreshing[id(engine)] = asyncio.ensure_future(
            run_in_threadpool(schedule.cached, engine))
    await asyncio.shield(read)  # a client that leaves does not cancel the others' read


async def take_due_change(engine: Engine, committer: Committer, live: LiveTable) -> None:
    """Before an action at ``live``: if a change of its pay table is in effect and the table
    stands between rounds, apply it (checked once more first) as a ``pay_table_applied``
    event; mid-round it waits for the round's end. No query while nothing is due."""
    if not schedule.fresh(engine):  # the once-a-second read, off the event loop
        await _refreshed(engine)
    change = schedule.pending(engine, live)
    if change is None or not schedule.at_boundary(live):
        return
    problems = await run_in_threadpool(schedule.last_check, change)
    if problems:
        with engine.begin() as conn:
            schedule.refuse_at_last_check(conn, change, problems)
        return

    def plan(conn: Connection) -> Plan:
        # Under the table's lock: still between rounds, and not taken meanwhile.
        if not schedule.at_boundary(live) or live.options.get("pays", {}) == change.pays:
            return Plan([])
        # The wagers on the layout keep the pays they were accepted at; each must still be
        # payable at them (it was checked so when made): if one is not, the table keeps its
        # pay table rather than take a change over a layout it could not settle.
        unpayable = live.table.unpayable()
        if unpayable:
            player, wager, why = unpayable[0]
            log.error("table %s keeps its pay table: %s's %s cannot be paid (%s)", live.id,
                      player, wager, why)
            return Plan([])
        return Plan([schedule.applied_event(change)])

    await committer.run(Job(SCHEDULE_USER, live, None, uuid.uuid4().hex, plan))
