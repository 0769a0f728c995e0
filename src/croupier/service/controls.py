"""A table's controls beyond the game: how its results come (RNG or physical entry), and
adjustments large enough to need a second person.

A table is ``rng`` (only the RNG decides: no one can enter a result) or ``physical`` (the
dealer enters what physical dice or a wheel showed; the RNG may stand in for them, by design:
a roll or spin asked without a result is drawn, recorded as the RNG's and voided only by two
supervisors, docs/procedures.md). The mode is
a record of the house's chain (``table_entry``, written in the transaction that opens the
table), so an edit of it is an audit finding; a table with no such record takes no entered
result (the RNG decides), so a record removed never opens the table to entered dice. Tables
opened before the mode was chained got their record when the ledger was upgraded (from the
row they had, ``physical`` where they had none, as they behaved).

An adjustment of more than :data:`ADJUSTMENT_LIMIT`, or one that would take what one
supervisor moved for one player alone in :data:`ADJUSTMENT_PERIOD` past it, waits, pending,
for a second supervisor independent of the one who asked (docs/two-person-rules.md); the one
who asked may withdraw it, another supervisor may decline it. Asking, approving, withdrawing
and declining are events of the table's chain (``adjustment_asked``, ``adjustment_approved``
before the ``adjust`` that moves the chips, ``adjustment_withdrawn``, ``adjustment_declined``);
``pending_adjustments`` is their projection, which the audit rebuilds and compares
(:func:`check`).
"""

from __future__ import annotations

import hashlib
import json
from decimal import Decimal
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.money import fmt
from croupier.service import events as sv
from croupier.service import people, register, store
from croupier.service.audit.snapshot import Finding
from croupier.service.errors import ApiError
from croupier.service.plans import OUTCOME_CLAUSE

ADJUSTMENT_LIMIT = Decimal("100.00")

pending_adjustments = sa.Table(
    "pending_adjustments", store.metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("player", sa.String(64), nullable=False),
    sa.Column("amount_cents", sa.BigInteger, nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("requested_by", sa.String(64), nullable=False),
    sa.Column("requested_at", sa.Float, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("decided_by", sa.String(64)),
    sa.Column("decided_at", sa.Float),
)


class EntryMode(StrEnum):
    """How a table's results come, as its ``table_entry`` record says (``entry``). A member is
    its string in the record, the API's bodies and replies."""

    RNG = "rng"
    """Only the RNG decides: no one can enter a result."""
    PHYSICAL = "physical"
    """The dealer enters what physical dice or a wheel showed (the RNG may stand in)."""


ENTRY_KIND = "table_entry"
ENTRIES = tuple(EntryMode)


def entry_subject(table_id: str) -> str:
    return f"table:{table_id}"


def set_entry(conn: Connection, table_id: str, entry: EntryMode, actor: str) -> None:
    """Record a new table's entry mode in the house's chain (in the opening transaction)."""
    register.append(conn, ENTRY_KIND, entry_subject(table_id),
                    {"table": table_id, "entry": entry}, actor)


def check_opened(tables: list[dict[str, Any]], records: list[dict[str, Any]]) -> list[Finding]:
    """Every table against the house's chain: a table is opened in the transaction that
    records its entry mode (``table_entry``; the upgrade gave one to every older table), so a
    table no such record names was added to the database by no one who opened it. Its chain
    starts from its own row, so it links; its pays and limits, which decide what it pays,
    are named here rather than trusted."""
    opened = {r["subject"] for r in records if r["kind"] == ENTRY_KIND}
    return [Finding(f"table {t['id']}", None, (
        "no record of the house's chain opened it (table_entry): its row was added to the "
        "database, and the pays and limits its chain starts from are no one's"))
        for t in tables if entry_subject(t["id"]) not in opened]


def entry(conn: Connection, table_id: str) -> EntryMode:
    """``rng`` or ``physical`` as the house's chain records it; ``rng`` (no entered result)
    where no record is found, or a record says neither, see the module's notes."""
    found = register.latest(conn, (ENTRY_KIND,), entry_subject(table_id))
    mode = found["payload"].get("entry") if found is not None else None
    return EntryMode(mode) if isinstance(mode, str) and mode in ENTRIES else EntryMode.RNG


def entering(plan_fn: Any, table_id: str) -> Any:
    """``plan_fn`` (a roll or spin with a result entered by the dealer), refused at an RNG
    table, checked in the action's own transaction."""

    def plan(conn: Connection) -> Any:
        if entry(conn, table_id) is EntryMode.RNG:
            raise Refusal(f"table {table_id} is an RNG table: its results come only from the "
                          "RNG, and no result can be entered", OUTCOME_CLAUSE)
        return plan_fn(conn)

    return plan


ADJUSTMENT_PERIOD = 24 * 3600
"""The period over which one supervisor's adjustments for one player add up (seconds): past
:data:`ADJUSTMENT_LIMIT` in it, the next one needs a second supervisor."""
_ALONE_KINDS = ("adjust", "adjustment_approved")
# Written as the partial index's own predicate (``ix_events_adjustments``), literally, so that
# SQLite and PostgreSQL both read the index rather than every event.
_ADJUSTMENT_ROWS = sa.text("kind IN ('adjust', 'adjustment_approved')")


def moved_alone(conn: Connection, staged: list[dict[str, Any]], supervisor: str,
                player: str, now: float) -> int:
    """The cents (either way) ``supervisor`` moved for ``player`` at any table in the last
    :data:`ADJUSTMENT_PERIOD` without a second person: their ``adjust`` events less those that
    followed an approval (an ``adjustment_approved`` by them), ``staged`` (this transaction's
    rows not yet written) included. "Their": the supervisor's, and those of every account that
    is one person with them (:func:`people.one_person`), so two accounts of one person share
    one limit. On PostgreSQL the player is locked first, so two requests at two tables at
    once (by any accounts) are counted one after the other."""
    if conn.dialect.name != "sqlite":
        pair = hashlib.sha256(f"adjust\n{player}".encode()).digest()
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"),
                     {"k": int.from_bytes(pair[:8], "big", signed=True)})
    line = people.one_person(conn, supervisor)
    ev = store.events
    rows = [dict(r._mapping) for r in conn.execute(
        sa.select(ev.c.kind, ev.c.payload).where(
            ev.c.player == player, _ADJUSTMENT_ROWS, ev.c.at > now - ADJUSTMENT_PERIOD,
            ev.c.actor.in_(sorted(line))))]
    rows += [r for r in staged if r["kind"] in _ALONE_KINDS and r["player"] == player
             and r["actor"] in line]
    total = 0
    for r in rows:
        amount = abs(store.cents(Decimal(json.loads(r["payload"])["f"]["amount"]["$d"])))
        total += amount if r["kind"] == "adjust" else -amount
    return total


def needs_second_person(amount: Decimal, moved_cents: int = 0) -> bool:
    """Whether an adjustment of ``amount`` needs a second supervisor, when the one asking has
    already moved ``moved_cents`` alone for the player in the period.

    >>> needs_second_person(Decimal("100")), needs_second_person(Decimal("-100.01"))
    (False, True)
    >>> needs_second_person(Decimal("60"), 5000)
    True
    """
    return store.cents(abs(amount)) + moved_cents > store.cents(ADJUSTMENT_LIMIT)


def request(conn: Connection, table_id: str, player: str, amount: Decimal, reason: str,
            by: str) -> sv.AdjustmentAsked:
    """Number a pending adjustment (its row, a projection of the event returned, which the
    caller records in the table's chain)."""
    result = conn.execute(pending_adjustments.insert().values(
        table_id=table_id, player=player, amount_cents=store.cents(amount), reason=reason,
        requested_by=by, requested_at=store.now(), status="pending"))
    pending_id = int(result.inserted_primary_key[0])  # type: ignore[index]
    return sv.AdjustmentAsked(pending_id, player, amount, reason, by)


def asked_reply(asked: sv.AdjustmentAsked, table_id: str, moved_cents: int) -> dict[str, Any]:
    """What the reply adds for an adjustment left pending."""
    alone = store.cents(abs(asked.amount)) <= store.cents(ADJUSTMENT_LIMIT)
    why = (f"{asked.by} (with the accounts that are one person with them) has moved "
           f"{fmt(store.dollars(moved_cents))} for {asked.player} alone in the last "
           f"{ADJUSTMENT_PERIOD // 3600} hours; past {fmt(ADJUSTMENT_LIMIT)} a second "
           "supervisor approves" if alone else
           f"an adjustment over {fmt(ADJUSTMENT_LIMIT)} needs a second supervisor's approval")
    return {"pending_adjustment": asked.pending, "table": table_id, "player": asked.player,
            "amount": fmt(asked.amount), "reason": asked.reason, "requested_by": asked.by,
            "status": "pending", "reason_pending": why}


def approve(conn: Connection, live_asked: dict[int, sv.AdjustmentAsked], table_id: str,
            pending_id: int, approver: str, clause: str) -> sv.AdjustmentAsked:
    """The adjustment asked, once checked that ``approver`` may approve it (a second person,
    independent of who asked) and marked approved (exactly once); the caller records the
    approval and the adjustment in the table's chain in the same transaction. A refusal
    cites ``clause`` (the table's clause for adjustments)."""
    row = pending(conn, table_id, pending_id, lock=True)
    if row is None:
        raise ApiError(404, "not_found", f"there is no adjustment {pending_id} pending at "
                       f"table {table_id!r}")
    if row.status != "pending":
        raise Refusal(f"adjustment {pending_id} is already {row.status}", clause)
    asked = live_asked.get(pending_id)
    if asked is None:
        raise Refusal(f"adjustment {pending_id} is in no record of the table's chain (asked "
                      "before pending adjustments were chained): ask for it again", clause)
    why = people.not_independent(conn, asked.by, approver)
    if why is not None:
        raise Refusal(f"adjustment {pending_id} needs a second person: {why}", clause)
    done = conn.execute(pending_adjustments.update().where(
        pending_adjustments.c.id == pending_id,
        pending_adjustments.c.status == "pending").values(
        status="approved", decided_by=approver, decided_at=store.now()))
    if done.rowcount != 1:
        raise Refusal(f"adjustment {pending_id} is already decided", clause)
    return asked


CLOSED = {"adjustment_withdrawn": "withdrawn", "adjustment_declined": "declined"}
"""The status a pending adjustment's row takes on each event that closes it unapproved."""


def close(conn: Connection, table_id: str, pending_id: int, by: str, status: str,
          clause: str) -> None:
    """Mark pending adjustment ``pending_id`` ``status`` (withdrawn or declined) by ``by``,
    exactly once; the caller checked who may and records the event that says so in the
    table's chain in the same transaction. A refusal cites ``clause`` (the table's clause for
    adjustments)."""
    row = pending(conn, table_id, pending_id, lock=True)
    if row is not None and row.status != "pending":
        raise Refusal(f"adjustment {pending_id} is already {row.status}", clause)
    done = conn.execute(pending_adjustments.update().where(
        pending_adjustments.c.id == pending_id, pending_adjustments.c.table_id == table_id,
        pending_adjustments.c.status == "pending").values(
        status=status, decided_by=by, decided_at=store.now()))
    if done.rowcount != 1:
        raise Refusal(f"adjustment {pending_id} is already decided", clause)


def pending(conn: Connection, table_id: str, pending_id: int, lock: bool = False) -> Any:
    """A pending adjustment's row; ``lock``: held (PostgreSQL) to the end of the transaction,
    so its status is checked under the lock that guards its decision."""
    query = sa.select(pending_adjustments).where(
        pending_adjustments.c.id == pending_id, pending_adjustments.c.table_id == table_id)
    return conn.execute(query.with_for_update() if lock else query).first()


def expected_rows(events: dict[str, list[dict[str, Any]]]) -> dict[int, dict[str, Any]]:
    """The pending adjustments' rows as the tables' chains leave them, by number."""
    out: dict[int, dict[str, Any]] = {}
    for table_id, rows in events.items():
        for e in rows:
            if e["kind"] not in ("adjustment_asked", "adjustment_approved", *CLOSED):
                continue
            f = json.loads(e["payload"])["f"]
            if e["kind"] == "adjustment_asked":
                out[int(f["pending"])] = {
                    "table_id": table_id, "player": f["player"],
                    "amount_cents": store.cents(Decimal(f["amount"]["$d"])),
                    "reason": f["reason"], "requested_by": f["by"], "status": "pending",
                    "decided_by": None}
            elif int(f["pending"]) in out:
                out[int(f["pending"])].update(status=CLOSED.get(e["kind"], "approved"),
                                              decided_by=f["by"])
    return out


def asked_twice(events: dict[str, list[dict[str, Any]]]) -> list[Finding]:
    """Every number the tables' chains record asked more than once. A number is its row's,
    given once (no code deletes a row): the same number asked again means the first's row
    was deleted from the database and the number given to the next request (SQLite gives
    the highest deleted number again), which, rebuilt by number, hid the deletion; the
    first request can no longer be decided, its number finding the other's row."""
    first: dict[int, str] = {}
    findings: list[Finding] = []
    for table_id, rows in events.items():
        for e in rows:
            if e["kind"] != "adjustment_asked":
                continue
            number = int(json.loads(e["payload"])["f"]["pending"])
            where = f"table {table_id}, event {e['seq']}"
            if number in first:
                findings.append(Finding(f"pending adjustment {number}", None, (
                    f"asked twice in the tables' chains ({first[number]}, and {where}): a "
                    "number is given once, so the first's row was deleted from the database "
                    "and its number given again")))
            else:
                first[number] = where
    return findings


def check(events: dict[str, list[dict[str, Any]]], rows: list[dict[str, Any]],
          chained_since: float | None) -> tuple[list[Finding], list[str]]:
    """The ``pending_adjustments`` rows against the tables' chains: each row must be what
    its events say, and every adjustment asked must have its row. A row with no event asked
    before ``chained_since`` (the upgrade that began chaining them) is only noted."""
    want = expected_rows(events)
    findings: list[Finding] = asked_twice(events)
    legacy = 0
    for row in rows:
        where = f"pending adjustment {row['id']}"
        expected = want.pop(int(row["id"]), None)
        if expected is None:
            if chained_since is not None and row["requested_at"] <= chained_since:
                legacy += 1
            else:
                findings.append(Finding(where, None, "no table's chain records it asked: it "
                                        "was added to the database"))
            continue
        differs = [k for k, v in expected.items() if row[k] != v]
        if differs:
            findings.append(Finding(where, None, "its row differs from the table's chain in "
                                    + ", ".join(f"{k} ({row[k]!r}, chained {expected[k]!r})"
                                                for k in differs)))
    findings.extend(Finding(f"pending adjustment {n}", None, "the table's chain records it "
                            "asked and there is no row for it") for n in sorted(want))
    notes = [f"{legacy} pending adjustments were recorded before they were chained (not "
             "covered; they can no longer be approved)"] if legacy else []
    return findings, notes
