"""The tables in memory, each rebuilt from its events in the ledger.

A table is never anything but the fold of its stored events (:func:`rebuild_table`): the
server rebuilds every table when it starts, a table again after a write fails (so memory never
runs ahead of the ledger) or after a void (without the voided events), and a cluster node
taking a table over folds only the events written since it last saw it (:meth:`Tables.catch_up`).
Where its rounds stand comes from the same events (:func:`next_round`), not the ``rounds`` rows.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.events import Event
from croupier.service import codec, controls, store
from croupier.service import events as sv
from croupier.service.errors import ApiError
from croupier.service.ledger import Ledger
from croupier.service.live import LiveTable

log = logging.getLogger("croupier.service")

_EVENTS_AFTER = sa.select(store.events.c.seq, store.events.c.round, store.events.c.payload,
                          store.events.c.hash).where(
    store.events.c.table_id == sa.bindparam("t"), store.events.c.seq > sa.bindparam("s"),
).order_by(store.events.c.seq)
_HOUSE = sa.select(store.tables.c.house_cents).where(store.tables.c.id == sa.bindparam("t"))
_SEATS = sa.select(store.seats.c.player, store.seats.c.chips_cents,
                   store.seats.c.on_table_cents).where(store.seats.c.table_id == sa.bindparam("t"))


@dataclass(frozen=True)
class Opening:
    """A table to open: its id, game, rule profile, options (as given, before the house's pay
    table is put in them), who opens it (``by``), how its results come (``entry``) and its
    capacity (None: the game's default)."""

    table_id: str
    game: str
    profile: str
    options: dict[str, Any]
    by: str
    entry: controls.EntryMode = controls.EntryMode.RNG
    capacity: int | None = None


class Tables:
    """Every table the server runs, by id."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.all: dict[str, LiveTable] = {}

    def __contains__(self, table_id: object) -> bool:
        return table_id in self.all

    def __iter__(self) -> Iterator[LiveTable]:
        return iter(list(self.all.values()))

    def find(self, table_id: str) -> LiveTable:
        """The table ``table_id`` (404 if there is none)."""
        live = self.all.get(table_id)
        if live is None:
            raise ApiError(404, "not_found", f"there is no table {table_id!r}")
        return live

    def known(self, table_id: str) -> LiveTable | None:
        """The table ``table_id`` as this node has it, loaded from the ledger first when it was
        opened by another node since this one started; None if the ledger has no such table,
        or no record of the house's chain opened it (:func:`opened`)."""
        live = self.all.get(table_id)
        if live is not None:
            return live
        with self.ledger.db.connect() as conn:
            row = conn.execute(sa.select(store.tables).where(store.tables.c.id == table_id)
                               ).first()
            if row is None or not opened(conn, [table_id]):
                return None
            if table_id not in self.all:
                self.add(self.rebuilt(conn, row))
                self.ledger.heads[table_id] = self.ledger.head_of(conn, row)  # its chain's head
        return self.all[table_id]

    def load(self) -> None:
        """Rebuild every table a record of the house's chain opened from its event log."""
        with self.ledger.db.connect() as conn:
            store.long_read(conn)  # every table folded between two reads
            rows = conn.execute(sa.select(store.tables).order_by(store.tables.c.created_at)).all()
            served = opened(conn, [row.id for row in rows])
            for row in rows:
                if row.id not in served:
                    log.error("table %s is not served: no record of the house's chain opened "
                              "it (table_entry), so its row, with the pays and limits its chain "
                              "starts from, was added to the database by no one who opened it; "
                              "the audit names it", row.id)
                    continue
                self.all[row.id] = self.rebuilt(conn, row)
                self.ledger.heads[row.id] = self.ledger.head_of(conn, row)

    def create(self, conn: Connection, opening: Opening) -> LiveTable:
        """A new table, written in ``conn``'s transaction (the options checked by the game's
        table: Malformed if not) with the record of the house's chain that opens it
        (``table_entry``: who opens it, how its results come), so that no caller writes a row
        this node or another would not serve (:func:`opened`); it is served once added
        (:meth:`add`)."""
        live = LiveTable(opening.table_id, opening.game, opening.profile, opening.options,
                         opening.capacity)
        self.ledger.write_table(conn, live)
        controls.set_entry(conn, opening.table_id, opening.entry, opening.by)
        return live

    def add(self, live: LiveTable) -> None:
        self.all[live.id] = live

    @staticmethod
    def rebuilt(conn: Connection, row: Any) -> LiveTable:
        """The table of ``row`` as its stored events leave it."""
        stored = conn.execute(
            sa.select(store.events.c.seq, store.events.c.round, store.events.c.payload)
            .where(store.events.c.table_id == row.id).order_by(store.events.c.seq)).all()
        return rebuild_table(row, [(r.seq, r.round, r.payload) for r in stored])

    def reload(self, live: LiveTable) -> None:
        """Rebuild ``live`` from the ledger in place (after a write failed). Until the rebuild
        is done the table is marked ahead of the ledger (:attr:`LiveTable.ahead`): if it fails
        too (the database still away), the next action at the table rebuilds it first."""
        live.ahead = True
        with self.ledger.db.connect() as conn:
            self.reload_in(conn, live)

    def reload_in(self, conn: Connection, live: LiveTable) -> None:
        row = conn.execute(sa.select(store.tables).where(store.tables.c.id == live.id)).first()
        if row is not None:
            rebuilt, head = self.rebuilt(conn, row), self.ledger.head_of(conn, row)
            live.replace_with(rebuilt)
            self.ledger.heads[live.id] = head
            if live.unrecorded is not None and _holds_draw(conn, live, *live.unrecorded[1:]):
                # Recorded and settled since (another node settled it on the request's
                # retry): no longer waiting, so replace_with could not tell it was recorded.
                live.unrecorded = None
        live.ahead = False

    @contextlib.contextmanager
    def read(self, live: LiveTable) -> Iterator[LiveTable]:
        """``live`` under its lock, for a route that shows it, as the ledger holds it: a table
        marked ahead (a write failed, then its rebuild) is rebuilt first, as the next action
        at it would be (``Runner._locks``). If the rebuild fails again: 503 busy, with
        Retry-After, rather than chips or an outcome the ledger does not hold."""
        with live.lock:
            if live.ahead:
                try:
                    self.reload(live)
                except Exception:
                    log.exception("table %s: its rebuild from the ledger failed again", live.id)
                    raise ApiError(503, "busy", f"table {live.id} is being brought back to what "
                                   "the ledger holds after a write failed: try again shortly",
                                   headers={"Retry-After": "1"}) from None
            yield live

    def catch_up(self, live: LiveTable) -> None:
        """Bring a table this node already has in memory up to the ledger (a cluster node
        taking a table over): fold only the events written since ``live.seq``, rather than
        rebuilding the table from its first event. Falls back to the full rebuild when a void
        is among them (a void rebuilds without the voided events) or when the result does not
        match the seats and house result the ledger holds."""
        if live.ahead:  # what it holds past the ledger is no base to fold onto
            self.reload(live)
            return
        with self.ledger.db.connect() as conn:
            caught_up = self._fold_since(conn, live)
        if not caught_up:
            self.reload(live)

    def catch_up_in(self, conn: Connection, live: LiveTable) -> None:
        """:meth:`catch_up` reading through ``conn`` (in its transaction), for a copy that may
        be behind (a table another node serves); a copy with every event the ledger has of the
        table (the holder's) is left as it is."""
        if live.ahead:
            self.reload_in(conn, live)
            return
        last = conn.execute(sa.select(sa.func.max(store.events.c.seq)).where(
            store.events.c.table_id == live.id)).scalar()
        if last is None or int(last) <= live.seq:
            return
        if not self._fold_since(conn, live):
            self.reload_in(conn, live)

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
        decided = live.decided[1] if live.decided is not None else None
        if decided is not None and decided >= live.round:  # the last one was decided
            live.round, live.round_first_seq, live.participants = decided + 1, live.seq + 1, set()
        live.raised = []  # recorded when they were raised
        live.seat_rows, live.house_written = None, None  # written by another node since
        if rows:
            self.ledger.heads[live.id] = str(rows[-1].hash)
        if _matches_ledger(conn, live):
            return True
        log.warning("table %s did not catch up with its ledger: rebuilt", live.id)
        return False


def _holds_draw(conn: Connection, live: LiveTable, drawn: sv.Drawn, since: int) -> bool:
    """Whether the table's chain records ``drawn`` (a draw kept as not recorded, whose commit
    may have been done though never answered) after ``since``, its last seq when it was
    drawn: an earlier draw with the same raw bytes is another draw."""
    rows = conn.execute(sa.select(store.events.c.payload).where(
        store.events.c.table_id == live.id, store.events.c.kind == drawn.kind,
        store.events.c.seq > since))
    return any(codec.decode(live.game.name, r.payload).to_json() == drawn.to_json()
               for r in rows)


def _matches_ledger(conn: Connection, live: LiveTable) -> bool:
    """Whether the table's chips, wagers and house result are the ledger's."""
    house = conn.execute(_HOUSE, {"t": live.id}).scalar()
    seats = {r.player: (int(r.chips_cents), int(r.on_table_cents))
             for r in conn.execute(_SEATS, {"t": live.id})}
    if house is None or int(house) != store.cents(live.house):
        return False
    return all(seats.get(p) == (store.cents(live.chips(p)), store.cents(live.on_table(p)))
               for p in live.present())


Decoded = list[tuple[int, int, Event]]
"""A table's events as (seq, round, event), in order."""
BeforeFold = Callable[[LiveTable, int, Decoded], None]
"""Called with the table, an event's position in the list and the list, before each fold."""


def opened(conn: Connection, table_ids: list[str]) -> set[str]:
    """Which of ``table_ids`` a record of the house's chain opened (``table_entry``, written
    in the transaction that opens a table; the upgrade gave one to every older table): the
    tables the server serves. A ``tables`` row alone is no one's act."""
    subjects = {controls.entry_subject(t): t for t in table_ids}
    found = conn.execute(sa.select(store.house_records.c.subject).where(
        store.house_records.c.kind == controls.ENTRY_KIND,
        store.house_records.c.subject.in_(list(subjects))))
    return {subjects[str(subject)] for (subject,) in found}


def rebuild_table(row: Any, stored: Iterable[tuple[int, int, str]],
                  before_fold: BeforeFold | None = None) -> LiveTable:
    """A table rebuilt from its configuration row and its stored events ``(seq, round,
    payload)``: every event not voided is folded in order (voided ones only advance ``seq``).
    ``before_fold`` lets the audit re-derive what an event records before it is folded.

    The round under way comes from the same chained events, never from the ``rounds`` rows
    (a projection): :func:`next_round`."""
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
    live.round = next_round(decoded, live)
    live.raised = []  # recorded when they were raised
    live.participants = set()
    first = [(s, e) for s, r, e in decoded if r == live.round]
    live.round_first_seq = first[0][0] if first else live.seq + 1
    for _, event in first:
        player = codec.player_of(event)
        if player:
            live.participants.add(player)
    return live


def next_round(decoded: Decoded, live: LiveTable) -> int:
    """The number of the round under way at a table rebuilt from ``decoded`` (``live``, every
    event not voided folded): the highest round its events were recorded in, or the one after
    it once that round is decided (its last decision folded was recorded in it). A decision
    voided afterwards still used its number: its void is recorded in the round after it, so
    the highest round is then that one. Every number a decision used is in the chain, so a
    ``rounds`` row deleted or added cannot make the table reuse or skip one."""
    highest = max((r for _, r, _ in decoded), default=0)
    decided = live.decided[1] if live.decided is not None else 0
    return max(highest, decided + 1, 1)
