"""A table's controls beyond the game: how its results come (RNG or physical entry), and
adjustments large enough to need a second person.

A table is ``rng`` (only the RNG decides: no one can enter a result) or ``physical`` (the
dealer enters what physical dice or a wheel showed; the RNG may stand in for them). The mode is
a record of the house's chain (``table_entry``, written in the transaction that opens the
table), so an edit of it is an audit finding; a table with no such record takes no entered
result (the RNG decides), so a record removed never opens the table to entered dice. Tables
opened before the mode was chained got their record when the ledger was upgraded (from the
row they had, ``physical`` where they had none, as they behaved). An adjustment of more
than :data:`ADJUSTMENT_LIMIT` waits, pending, for a
supervisor other than the one who asked for it.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.money import fmt
from croupier.service import register, store
from croupier.service.errors import ApiError

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


ENTRY_KIND = "table_entry"
ENTRIES = ("rng", "physical")


def entry_subject(table_id: str) -> str:
    return f"table:{table_id}"


def set_entry(conn: Connection, table_id: str, entry: str, actor: str) -> None:
    """Record a new table's entry mode in the house's chain (in the opening transaction)."""
    register.append(conn, ENTRY_KIND, entry_subject(table_id),
                    {"table": table_id, "entry": entry}, actor)


def entry(conn: Connection, table_id: str) -> str:
    """``rng`` or ``physical`` as the house's chain records it; ``rng`` (no entered result)
    where no record is found, see the module's notes."""
    found = register.latest(conn, (ENTRY_KIND,), entry_subject(table_id))
    mode = found["payload"].get("entry") if found is not None else None
    return str(mode) if mode in ENTRIES else "rng"


def entering(plan_fn: Any, table_id: str) -> Any:
    """``plan_fn`` (a roll or spin with a result entered by the dealer), refused at an RNG
    table, checked in the action's own transaction."""

    def plan(conn: Connection) -> Any:
        if entry(conn, table_id) == "rng":
            raise Refusal(f"table {table_id} is an RNG table: its results come only from the "
                          "RNG, and no result can be entered")
        return plan_fn(conn)

    return plan


def needs_second_person(amount: Decimal) -> bool:
    return abs(amount) > ADJUSTMENT_LIMIT


def request(conn: Connection, table_id: str, player: str, amount: Decimal, reason: str,
            by: str) -> dict[str, Any]:
    """Record a pending adjustment; its record."""
    result = conn.execute(pending_adjustments.insert().values(
        table_id=table_id, player=player, amount_cents=store.cents(amount), reason=reason,
        requested_by=by, requested_at=store.now(), status="pending"))
    pending_id = int(result.inserted_primary_key[0])  # type: ignore[index]
    return {"pending_adjustment": pending_id, "table": table_id, "player": player,
            "amount": fmt(amount), "reason": reason, "requested_by": by, "status": "pending",
            "reason_pending": f"an adjustment over {fmt(ADJUSTMENT_LIMIT)} needs a second "
                              "supervisor's approval"}


def approving(plan_fn: Any, pending_id: int, table_id: str, approver: str) -> Any:
    """``plan_fn`` (the adjustment) once pending adjustment ``pending_id`` is approved by
    someone other than who asked for it, in the same transaction (approved exactly once)."""

    def plan(conn: Connection) -> Any:
        row = pending(conn, table_id, pending_id, lock=True)
        if row is None:
            raise ApiError(404, "not_found", f"there is no adjustment {pending_id} pending at "
                           f"table {table_id!r}")
        if row.status != "pending":
            raise Refusal(f"adjustment {pending_id} is already {row.status}")
        if row.requested_by == approver:
            raise Refusal("an adjustment is approved by a second person, not by the "
                          "supervisor who asked for it")
        made = plan_fn(conn)
        done = conn.execute(pending_adjustments.update().where(
            pending_adjustments.c.id == pending_id,
            pending_adjustments.c.status == "pending").values(
            status="approved", decided_by=approver, decided_at=store.now()))
        if done.rowcount != 1:
            raise Refusal(f"adjustment {pending_id} is already decided")
        made.extra = {**made.extra, "approved_adjustment": pending_id}
        return made

    return plan


def pending(conn: Connection, table_id: str, pending_id: int, lock: bool = False) -> Any:
    """A pending adjustment's row; ``lock``: held (PostgreSQL) to the end of the transaction,
    so its status is checked under the lock that guards its decision."""
    query = sa.select(pending_adjustments).where(
        pending_adjustments.c.id == pending_id, pending_adjustments.c.table_id == table_id)
    return conn.execute(query.with_for_update() if lock else query).first()
