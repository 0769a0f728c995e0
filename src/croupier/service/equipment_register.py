"""The equipment register and the dice's chain of custody, kept in the house's chain.

Every item of gaming equipment (a table, a wheel, a ball, a layout, a set of dice) is
registered with a name, what it is and where it stands; its approvals (by whom, under which
reference) and inspections (passed or not, what was found) follow as records. A layout
records the optional wagers its design shows (``five_adjacent``: the wheel replica of
13:47-20.32(e)1ii; ``seven_numbers``: the area of (e)15ii); a roulette table offers those
wagers only where such a layout is placed at it, approved, in service and not failed at its
latest inspection (:func:`approved_layout_wagers`): the table opens with the engine's
``approved_layout`` option stated from the register (:func:`layout_options`).

A die's custody runs from receipt to cancellation: ``received`` (from its provider),
``stored`` (in the house's locked store), ``issued`` (to a table's dice cup, 13:47-20.25(e)2),
``returned`` (collected from the table, (e)5) and ``cancelled`` (taken out of use for good),
each a record with who did it and where. An issued die is in its table's cup (the only dice
the stickperson may offer, (e)3); a returned, stored or cancelled one is in no cup, and a
cancelled die can never be issued again.

A die is issued only after an inspection that passed: one registered for a table's cup is
received, and issued there when its first passing inspection is recorded; an inspection that
fails takes an issued die out of the cup at once (``returned``), and the table it was at stops
using it (``service/procedures/dice.py``). Inspections are records of the chain too
(``die_inspected``).

Nothing here is kept outside the chain: each item's state is the fold of its records
(:func:`fold_item`), a die's place and inspections are read from its records, so what the
register shows is what ``audit verify`` checked; the ``dice`` and ``inspections`` rows are
projections the audit rebuilds from the chain and compares (:func:`check_dice_projection`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.games import GAMES, Game
from croupier.rules import RouletteRules, load_profile
from croupier.service import controls, people, register, store
from croupier.service.audit.snapshot import Finding
from croupier.service.errors import ApiError
from croupier.service.procedures import clauses

LAYOUT_WAGERS = ("five_adjacent", "seven_numbers")
ITEM_KINDS = ("equipment_registered", "equipment_approved", "equipment_inspected",
              "equipment_placed", "equipment_retired")
CUSTODY_KIND = "dice_custody"
INSPECTED_KIND = "die_inspected"
STEPS = ("received", "stored", "issued", "returned", "cancelled")
# The steps a die may take from each step it stands at (None: not yet received).
NEXT: dict[str | None, tuple[str, ...]] = {
    None: ("received",),
    "received": ("stored", "issued", "cancelled"),
    "stored": ("issued", "cancelled"),
    "issued": ("returned",),
    "returned": ("stored", "issued", "cancelled"),
    "cancelled": (),
}
CLAUSE = "the house's equipment register (internal controls)"
"""What a refusal of the register's own rules cites (a second person's approval, one approval
each, nothing recorded of a retired item): the house's control over the equipment a table
plays with, as the fairness monitors' acknowledgements cite theirs."""
STEP_CLAUSES = {"issued": "N.J.A.C. 13:47-20.25(e)2", "returned": "N.J.A.C. 13:47-20.25(e)5"}


@dataclass(frozen=True)
class CustodyStep:
    """One step of a die's custody, as asked: the die, the step (one of :data:`STEPS`), the
    table whose dice cup it is issued to (only for ``issued``) and a note."""

    serial: str
    step: str
    table_id: str | None = None
    note: str = ""

    def payload(self) -> dict[str, Any]:
        """The step's record in the house's chain (``dice_custody``)."""
        return {"serial": self.serial, "step": self.step, "table": self.table_id,
                "note": self.note, "clause": STEP_CLAUSES.get(self.step, "")}

    def cup(self) -> str | None:
        """The table whose cup holds the die after this step: an issued die's, else none."""
        return self.table_id if self.step == "issued" else None


@dataclass
class Item:
    """An item of equipment as its records leave it."""

    id: str
    type: str
    description: str
    table: str | None
    wagers: list[str]
    registered_by: str
    approvals: list[dict[str, Any]] = field(default_factory=list)
    inspections: list[dict[str, Any]] = field(default_factory=list)
    retired: dict[str, Any] | None = None
    records: list[int] = field(default_factory=list)
    tables: set[str] = field(default_factory=set)
    """Every table it was ever placed at (the register follows those tables' equipment)."""

    @property
    def approved(self) -> bool:
        return bool(self.approvals)

    @property
    def in_service(self) -> bool:
        """Approved, not retired, and not failed at its latest inspection."""
        failed = bool(self.inspections) and not self.inspections[-1]["passed"]
        return self.approved and self.retired is None and not failed

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "type": self.type, "description": self.description,
                "table": self.table, "wagers": self.wagers, "registered_by": self.registered_by,
                "approved": self.approved, "approvals": self.approvals,
                "inspections": self.inspections, "retired": self.retired,
                "in_service": self.in_service, "records": self.records}


def subject(item_id: str) -> str:
    return f"equipment:{item_id}"


def fold_item(records: list[dict[str, Any]]) -> Item | None:
    """An item from its records (oldest first); None if it was never registered."""
    item: Item | None = None
    for r in records:
        item = _fold(item, r)
    return item


def _fold(item: Item | None, r: dict[str, Any]) -> Item | None:
    """The item as ``r`` (a record about it, payload decoded) leaves it after ``item``."""
    p, who, at = r["payload"], r["actor"], r["at"]
    if r["kind"] == "equipment_registered":
        item = Item(p["id"], p["type"], p["description"], p.get("table"),
                    list(p.get("wagers", [])), who)
    if item is not None:
        item.records.append(int(r["seq"]))
    if item is None:
        return None
    if r["kind"] == "equipment_approved":
        item.approvals.append({"by": who, "authority": p["authority"],
                               "reference": p["reference"], "at": at})
    elif r["kind"] == "equipment_inspected":
        item.inspections.append({"by": who, "passed": p["passed"],
                                 "findings": p["findings"], "at": at})
    elif r["kind"] == "equipment_placed":
        item.table = p.get("table")
    elif r["kind"] == "equipment_retired":
        item.retired = {"by": who, "reason": p["reason"], "at": at}
    if item.table is not None:
        item.tables.add(item.table)
    return item


def not_allowed(current: Item | None, kind: str, actor: str) -> str | None:
    """Why the register's own rules refuse a record ``kind`` by ``actor`` about an item its
    records leave at ``current`` (None: not registered), or None if they allow it: an id is
    registered once, nothing is recorded of an item not registered or retired, and one
    person approves an item once (a second approval by them would count as another's). The
    server decides by it under the writer lock, and the audit runs it again on the records
    (:func:`check_records`)."""
    if kind == "equipment_registered":
        return None if current is None else f"equipment {current.id} is already registered"
    if current is None:
        return "no equipment was registered under that id"
    if current.retired is not None:
        return f"equipment {current.id} was retired: nothing more is recorded"
    if kind == "equipment_approved" and actor in {a["by"] for a in current.approvals}:
        return f"{actor} has already recorded an approval of {current.id}"
    return None


def items(conn: Connection) -> list[Item]:
    """Every registered item, by id."""
    by_subject: dict[str, list[dict[str, Any]]] = {}
    for r in register.rows(conn, ITEM_KINDS):
        by_subject.setdefault(r["subject"], []).append(r)
    found = [fold_item(rs) for rs in by_subject.values()]
    return sorted((i for i in found if i is not None), key=lambda i: i.id)


def item(conn: Connection, item_id: str) -> Item | None:
    return fold_item(register.rows(conn, ITEM_KINDS, subject(item_id)))


def add_item(conn: Connection, actor: str, body: dict[str, Any]) -> Item:
    """Register a new item (refused if the id is taken, if the game played at the table it
    stands at uses no equipment of its kind, or a layout names no known wager)."""
    register.lock(conn)  # the checks below read the records: under the writer lock
    why = not_allowed(item(conn, body["id"]), "equipment_registered", actor)
    if why is not None:
        raise Refusal(why, CLAUSE)
    _fits(str(body["type"]), body.get("table"), _played_at(conn, body.get("table")))
    if body.get("wagers") and body["type"] != "layout":
        raise ApiError(422, "malformed", "body.wagers: only a layout shows optional wagers")
    wagers = list(body.get("wagers") or [])
    for i, wager in enumerate(wagers):
        if wager in wagers[:i]:  # as approved_layout: a wager named twice is malformed there
            raise ApiError(422, "malformed", f"body.wagers[{i}]: {wager} is named twice")
    register.append(conn, "equipment_registered", subject(body["id"]), body, actor)
    found = item(conn, body["id"])
    assert found is not None
    return found


def add_record(conn: Connection, actor: str, item_id: str, kind: str,
               payload: dict[str, Any]) -> Item:
    """An approval, inspection, placing or retirement of a registered item (a placing
    refused where the game played at its table uses no equipment of its kind)."""
    if kind == "equipment_approved":
        _second_person(conn, actor, item(conn, item_id))  # before the register's lock, in
        # the order a pay table change's approval takes the two locks
    register.lock(conn)  # the checks below read the records: under the writer lock
    current = item(conn, item_id)
    if current is None:
        raise ApiError(404, "not_found", f"there is no equipment {item_id}")
    why = not_allowed(current, kind, actor)
    if why is not None:
        raise Refusal(why, CLAUSE)
    if kind == "equipment_placed":
        _fits(current.type, payload.get("table"), _played_at(conn, payload.get("table")))
    register.append(conn, kind, subject(item_id), payload, actor)
    found = item(conn, item_id)
    assert found is not None
    return found


def _fits(kind: str, table_id: str | None, game: Game | None) -> None:
    """Refuse equipment of ``kind`` at ``table_id`` when ``game``, the game played there, uses
    none of that kind (a wheel at a craps table, dice at a roulette table): the register would
    otherwise say a table plays with equipment its game never uses. A table not yet opened
    (``game`` None) plays no game yet, and is not judged."""
    if table_id is None or game is None or kind in game.equipment:
        return
    raise Refusal(f"table {table_id} plays {game.name}, whose tables use no {kind} "
                  f"(they use: {', '.join(sorted(game.equipment))})", CLAUSE)


def _played_at(conn: Connection, table_id: str | None) -> Game | None:
    """The game played at ``table_id`` as the ledger has it, read under the writer lock (None:
    no table, or one not yet opened). A table opens under that lock too
    (:func:`fits_opening`), so one opened at the same moment as this record is judged by its
    game rather than as a table not yet opened."""
    if table_id is None:
        return None
    row = conn.execute(sa.select(store.tables.c.game).where(store.tables.c.id == table_id)
                       ).first()
    if row is None or register.latest(conn, (controls.ENTRY_KIND,),
                                      controls.entry_subject(table_id)) is None:
        return None  # a row no record of the house's chain opened is no table played at
    return GAMES.get(str(row.game))


def fits_opening(conn: Connection, table_id: str, game: str) -> None:
    """Refuse to open ``table_id`` for ``game`` while the register places at it equipment, not
    retired, of a kind the game uses none of. Equipment registered or placed at a table not
    yet opened is not judged (:func:`_fits`: no game is played there yet), so this is where it
    is: opened, the table would play a game whose tables never use it.

    Run in the opening's transaction: the register's writer lock is taken before the records
    are read and held until the table is written, so a placing at the same moment either
    committed before (and is read here) or waits and then finds the table open
    (:func:`_played_at`). The opening takes it after its own creation lock, which no writer
    of the register takes, so the two are always taken in one order."""
    played = GAMES.get(game)
    if played is None:
        return
    register.lock(conn)
    for it in items(conn):
        if it.table == table_id and it.retired is None and it.type not in played.equipment:
            raise Refusal(f"equipment {it.id} ({it.type}) is placed at table {table_id}, "
                          f"and {game} tables use no {it.type} (they use: "
                          f"{', '.join(sorted(played.equipment))}): it is moved or retired "
                          "before the table opens", CLAUSE)


def _second_person(conn: Connection, actor: str, it: Item | None) -> None:
    """Refuse ``actor``'s approval of ``it`` unless they are a person independent of whoever
    registered it (docs/two-person-rules.md): one person neither registers and approves the
    equipment a table plays with, nor puts a spare in service alone."""
    if it is None:
        return  # no such item: refused as such under the lock
    why = people.not_independent(conn, it.registered_by, actor)
    if why is not None:
        raise Refusal(f"equipment is approved by a second person, independent of the one who "
                      f"registered it ({it.registered_by}): {why}", CLAUSE)


def out_of_service_at(conn: Connection, table_id: str, kind: str) -> Item | None:
    """The item of type ``kind`` (a wheel, a ball) that keeps ``table_id`` from using one: the
    register has placed one there (now or before) and none in service is there now (a failed
    one moved away leaves the table without one, not free of the register). None when one is
    in service there, or none was ever placed there (a table whose equipment the register
    does not follow)."""
    ever = [i for i in items(conn) if i.type == kind and table_id in i.tables]
    if not ever or any(i.in_service and i.table == table_id for i in ever):
        return None
    # One out of service, or one moved away with none in service left: either way, none.
    return next((i for i in ever if i.table == table_id), ever[-1])


def why_out(it: Item, table_id: str) -> str:
    """Why ``it`` keeps ``table_id`` from using one of its kind, in words."""
    if it.table != table_id:
        return "was moved away, and none of its kind in service is placed there"
    if it.retired is not None:
        return "was retired"
    if it.inspections and not it.inspections[-1]["passed"]:
        return "failed its latest inspection"
    return "is not approved"


def approved_layout_wagers(conn: Connection, table_id: str) -> dict[str, str]:
    """The optional wagers an approved layout in service at ``table_id`` shows, each with the
    item that shows it."""
    out: dict[str, str] = {}
    for it in items(conn):
        if it.type == "layout" and it.table == table_id and it.in_service:
            for wager in it.wagers:
                out.setdefault(wager, it.id)
    return out


# --- the audit: each item's records decided again -----------------------------------------

def check_records(records: list[dict[str, Any]], since: float | None = None,
                  ) -> tuple[list[Finding], list[str]]:
    """Every record of the equipment register (``records``: the house's chain, payloads as
    stored) that the register's rules (:func:`not_allowed`), run again on the item as the
    records before it leave it, did not allow: an approval of an item not registered or
    retired, or a second by one person, and any other record of an item so. The server
    decides from these records under the chain's lock; a record edited for the moment of a
    decision and put back (an approval's actor, a retirement's kind) would leave the decision
    standing and nothing else to name it: the second person's check (``audit.second_persons``)
    reads who decided, not whether the item could be decided on. A record refused here is not
    folded, as the server would not have written it.

    The rules are the register's first release's, but on PostgreSQL the releases before the
    users' chain checked them outside the chain's lock, so two requests at once could both
    pass: a record made before ``since`` (when the users' chain began; None: no cut-off) that
    breaks them is noted (the second list), not named, so such a ledger still starts."""
    state: dict[str, Item | None] = {}
    findings: list[Finding] = []
    notes: list[str] = []
    for r, shown in register.readable(records, ITEM_KINDS):
        where, kind, seq = str(shown["subject"]), str(r["kind"]), int(r["seq"])
        current = state.get(where)
        why = not_allowed(current, kind, str(shown["actor"]))
        if why is None:
            try:
                state[where] = _fold(current, shown)
                continue
            except (KeyError, TypeError, AttributeError):
                why = "its payload does not say what such a record says"
        if since is not None and float(r["at"]) < since:
            notes.append(f"{register.WHERE}, record {seq}: {kind} of {where}: {why}; recorded "
                         "before the users' chain began, by a release that checked the "
                         "register outside its lock: noted, not a finding")
            continue
        findings.append(Finding(register.WHERE, seq, f"{kind} of {where}: {why}"))
    return findings, notes


# --- the dice's chain of custody ---------------------------------------------------------

def custody(conn: Connection, serial: str) -> list[dict[str, Any]]:
    """A die's custody records, oldest first."""
    return register.rows(conn, (CUSTODY_KIND,), f"die:{serial}")


def latest_inspection(conn: Connection, serial: str) -> dict[str, Any] | None:
    """The payload of the die's latest chained inspection (``passed``, ``failures``, ...), or
    None if none is recorded."""
    found = register.latest(conn, (INSPECTED_KIND,), f"die:{serial}")
    return None if found is None else dict(found["payload"])


def standing(die: Any, past: list[dict[str, Any]]) -> str | None:
    """The step a die stands at: its latest custody record's, except that a retired die is
    cancelled whatever its records say, and a die in a table's cup with no record at all (put
    there before custody was recorded) is issued: it is in play's reach, not newly received."""
    at: str | None = past[-1]["payload"]["step"] if past else None
    if die.retired:
        return "cancelled"
    if at is None and die.table_id is not None:
        return "issued"
    return at


def issued_to(conn: Connection, serial: str) -> str | None:
    """The table whose dice cup the die's custody records put it in (its latest step is
    ``issued`` there), or None: a die with no such record is in no cup by its custody."""
    return _issued_by(custody(conn, serial))


def _issued_by(past: list[dict[str, Any]]) -> str | None:
    """The table a die's custody records ``past`` leave it issued to, or None."""
    if not past or past[-1]["payload"]["step"] != "issued":
        return None
    table = past[-1]["payload"]["table"]
    return str(table) if table is not None else None


def cup_of(conn: Connection, serial: str) -> str | None:
    """The table whose dice cup holds the die, by its custody records (:func:`issued_to`);
    only a die with no custody record at all (put in a cup before custody was recorded) is
    where its ``dice`` row says. The row is a projection: a decision about a die in play
    reads the chain, since a row set to no cup would otherwise let a die in play leave it."""
    past = custody(conn, serial)
    if past:
        return _issued_by(past)
    row = conn.execute(sa.select(store.dice.c.table_id).where(
        store.dice.c.serial == serial)).first()
    return None if row is None or row.table_id is None else str(row.table_id)


def _clauses(die: Any, table_id: str | None, profiles: Mapping[str, str]) -> dict[str, str]:
    """What a refused step cites, under the profile of the table concerned (the one the die
    is issued to, else the one whose cup holds it): the dice cup duty and the dice's spec."""
    profile = profiles.get(table_id or die.table_id or "")
    if profile is None:
        return {}
    return {"cup": clauses.clause(profile, "dice_cup"),
            "spec": clauses.clause(profile, "dice_spec")}


def _check_step(conn: Connection, die: Any, step: str, table_id: str | None,
                profiles: Mapping[str, str]) -> None:
    """Refuse a step the die's standing does not allow, or an issue of a die not in spec."""
    serial = die.serial
    clauses = _clauses(die, table_id, profiles)
    at = standing(die, custody(conn, serial))
    if step not in NEXT[at]:
        allowed = ", ".join(NEXT[at]) or "nothing: it was cancelled"
        where = f" (in table {die.table_id}'s dice cup)" if at == "issued" else ""
        raise Refusal(f"die {serial} is {at or 'not yet received'}{where}: its "
                      f"next step may be {allowed}", clauses.get("cup", ""))
    if (step == "issued") != (table_id is not None):
        raise ApiError(422, "malformed", "body.table: a die is issued to a table, and only then "
                       "names one")
    if step == "issued":
        latest = latest_inspection(conn, serial)
        if latest is None or not latest["passed"]:
            state = "has no inspection record" if latest is None else "failed its last inspection"
            raise Refusal(f"die {serial} {state}: only a die whose latest "
                          "inspection passed goes into a table's dice cup",
                          clauses.get("spec", ""))


def custody_step(conn: Connection, actor: str, move: CustodyStep,
                 profiles: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Record one step of a die's custody; the die's ``dice`` row follows it (issued: in the
    table's cup; returned, stored: in no cup; cancelled: retired for good). A refused step
    records and changes nothing; it cites the clause of the profile of the table concerned, from
    ``profiles`` (each table's profile, by id)."""
    serial = move.serial
    register.lock(conn)  # the die's standing is read under the writer lock that records it
    die = conn.execute(sa.select(store.dice).where(store.dice.c.serial == serial)).first()
    if die is None:
        raise ApiError(404, "not_found", f"there is no die {serial}")
    _check_step(conn, die, move.step, move.table_id, profiles or {})
    row = register.append(conn, CUSTODY_KIND, f"die:{serial}", move.payload(), actor)
    values: dict[str, Any] = {"table_id": move.cup()}
    if move.step == "cancelled":
        values["retired"] = True
    conn.execute(store.dice.update().where(store.dice.c.serial == serial).values(**values))
    return register.shown(row)


def register_die(conn: Connection, actor: str, serial: str, set_name: str,
                 table_id: str | None) -> None:
    """Register a die: its row, and its receipt into the house's custody. Registered for a
    table's cup (``table_id``), it is issued there only once an inspection of it passes
    (:func:`inspect_die`): no die reaches a cup uninspected."""
    row = register.append(conn, CUSTODY_KIND, f"die:{serial}", {
        "serial": serial, "step": "received", "table": None, "note": "registered",
        "clause": "", "set": set_name, "for_table": table_id}, actor)
    conn.execute(store.dice.insert().values(
        serial=serial, set_name=set_name, table_id=None, retired=False,
        registered_at=row["at"]))


def inspect_die(conn: Connection, actor: str, serial: str, record: dict[str, Any],
                failures: list[str]) -> str | None:
    """Record an inspection of a die in the chain (and its projection row). One that passes
    issues a die registered for a table's cup and not yet issued; one that fails takes an
    issued die out of its cup at once. The table whose cup it left, if any."""
    register.lock(conn)
    row = register.append(conn, INSPECTED_KIND, f"die:{serial}", {
        "serial": serial, "passed": not failures, "failures": failures, "record": record},
        actor)
    conn.execute(store.inspections.insert().values(
        serial=serial, inspector=actor, record=json.dumps(record), passed=not failures,
        failures=json.dumps(failures), at=row["at"]))
    die = conn.execute(sa.select(store.dice).where(store.dice.c.serial == serial)).first()
    past = custody(conn, serial)
    at = standing(die, past) if die is not None else None
    if not failures and at == "received" and past[-1]["payload"].get("for_table"):
        table = str(past[-1]["payload"]["for_table"])
        _step(conn, actor, CustodyStep(serial, "issued", table, "issued to the cup it was "
                                       "registered for, once its inspection passed"))
        return None
    cup = issued_to(conn, serial)
    if failures and at == "issued" and cup is not None:
        _step(conn, actor, CustodyStep(serial, "returned", None, "failed its inspection: "
                                       f"taken out of the cup at once ({failures[0]})"))
        return cup
    return None


def _step(conn: Connection, actor: str, move: CustodyStep) -> None:
    """Record a step the register takes itself (after an inspection), unchecked."""
    register.append(conn, CUSTODY_KIND, f"die:{move.serial}", move.payload(), actor)
    conn.execute(store.dice.update().where(store.dice.c.serial == move.serial).values(
        table_id=move.cup()))


def in_play_check(conn: Connection, serial: str, table_id: str) -> str | None:
    """Why die ``serial`` may not be used at ``table_id`` by its chained records (in that
    table's cup by custody, its latest inspection passed), or None if it may."""
    if issued_to(conn, serial) != table_id:
        return "cup"
    latest = latest_inspection(conn, serial)
    if latest is None:
        return "uninspected"
    return None if latest["passed"] else "failed"


# --- the audit: the dice and inspections rows rebuilt from the chain ----------------------

def check_dice_projection(conn: Connection, records: list[dict[str, Any]]) -> list[Finding]:
    """The ``dice`` and ``inspections`` rows against the house's chain (``records``, by
    ``seq``): a die's cup and retirement are its custody's, each inspection row a chained
    inspection's, in order."""
    dice = [dict(r._mapping) for r in conn.execute(sa.select(store.dice))]
    inspections = [dict(r._mapping) for r in conn.execute(
        sa.select(store.inspections).order_by(store.inspections.c.id))]
    return check_dice_rows(records, dice, inspections)


def check_dice_rows(records: list[dict[str, Any]], dice_rows: list[dict[str, Any]],
                    inspection_rows: list[dict[str, Any]]) -> list[Finding]:
    """:func:`check_dice_projection` on rows (the database's, or a bundle's equipment
    section, which a regulator reads as the dice's records), inspections in ``id`` order."""
    steps: dict[str, list[dict[str, Any]]] = {}
    checks: dict[str, list[tuple[Any, ...]]] = {}
    for r in records:
        if r["kind"] == CUSTODY_KIND:
            steps.setdefault(r["subject"][4:], []).append(json.loads(r["payload"]))
        elif r["kind"] == INSPECTED_KIND:
            p = json.loads(r["payload"])
            checks.setdefault(r["subject"][4:], []).append(
                (r["actor"], bool(p["passed"]), list(p["failures"]), p.get("record")))
    findings: list[Finding] = []
    dice = {d["serial"]: d for d in dice_rows}
    for serial in sorted(set(dice) | set(steps)):
        where, die, past = f"die {serial}", dice.get(serial), steps.get(serial, [])
        if die is None or not past:
            findings.append(Finding(where, None, "the dice table holds it but the house's "
                                    "chain records no custody of it" if die is not None else
                                    "the house's chain records it but the dice table does "
                                    "not hold it"))
            continue
        last = past[-1]
        cup = last["table"] if last["step"] == "issued" else None
        if die["table_id"] != cup or bool(die["retired"]) != (last["step"] == "cancelled"):
            findings.append(Finding(where, None, (
                f"the dice table puts it in cup {die['table_id']!r} (retired "
                f"{bool(die['retired'])}); "
                f"its custody says {last['step']}" + (f" to {cup}" if cup else ""))))
    rows: dict[str, list[tuple[Any, ...]]] = {}
    for row in inspection_rows:
        rows.setdefault(row["serial"], []).append((row["inspector"], bool(row["passed"]),
                                                   json.loads(row["failures"]),
                                                   json.loads(row["record"])))
    for serial in sorted(set(rows) | set(checks)):
        held, chained = rows.get(serial, []), checks.get(serial, [])
        if held != chained:
            # Named by inspector, verdict and failures; the measurements are compared too.
            findings.append(Finding(f"die {serial}", None, (
                f"the inspections table holds {[c[:3] for c in held]}; the house's chain "
                f"records {[c[:3] for c in chained]}" + (
                    "" if [c[:3] for c in held] != [c[:3] for c in chained] else
                    ": the measurements recorded differ"))))
    return findings


# --- the layout a roulette table opens with -----------------------------------------------

def layout_options(conn: Connection, table_id: str, game: str, profile: str,
                   options: dict[str, Any]) -> dict[str, Any]:
    """A roulette table's options with its approved layout stated from the register: the
    engine's ``approved_layout`` option lists the wagers needing one (the profile's
    ``approved_layout_clauses``) that an approved layout in service at the table shows, so the
    engine takes those wagers only there. Options asking for a wager (or a layout) that no such
    layout shows are refused, citing the profile's clause for it.

    Read in the opening's transaction, under the register's lock (:func:`fits_opening`): a
    layout taken out of service meanwhile gives open tables a ``layout_withdrawn`` event, and
    a table not yet written would miss it and open stating a layout no longer there."""
    entry = GAMES.get(game)
    rules = entry.rules(load_profile(profile)) if entry is not None else None
    if not isinstance(rules, RouletteRules) or not rules.approved_layout_clauses:
        return options
    shown = approved_layout_wagers(conn, table_id)
    stated = options.get("approved_layout")
    claimed = set(stated) if isinstance(stated, list) else set()
    for wager, clause in sorted(rules.approved_layout_clauses.items()):
        if wager not in shown and (options.get(wager) is True or wager in claimed):
            raise Refusal(f"{wager.replace('_', ' ')} wagers are offered only on an approved "
                          f"layout that shows them: none is recorded in service at table "
                          f"{table_id}", clause)
    return {**options, "approved_layout": sorted(w for w in shown
                                                 if w in rules.approved_layout_clauses)}


DEMO_ITEMS = (
    {"id": "craps-table-1", "type": "table", "description": "craps table, high walled sides "
     "and an upright rail", "table": "craps-1"},
    {"id": "wheel-1", "type": "wheel", "description": "double-zero roulette wheel",
     "table": "roulette-1"},
    {"id": "ball-1", "type": "ball", "description": "roulette ball", "table": "roulette-1"},
    {"id": "layout-1", "type": "layout", "description": "roulette layout with a wheel replica "
     "and a seven numbers area", "table": "roulette-1", "wagers": list(LAYOUT_WAGERS)},
)


def demo_register(conn: Connection) -> None:
    """The demo's equipment: registered, approved and inspected (``croupier init --demo``)."""
    for body in DEMO_ITEMS:
        add_item(conn, "admin", dict(body))
        add_record(conn, "supervisor", str(body["id"]), "equipment_approved",
                   {"authority": "demo", "reference": "DEMO-ONLY"})  # a second person
        add_record(conn, "admin", str(body["id"]), "equipment_inspected",
                   {"passed": True, "findings": "demo equipment"})
