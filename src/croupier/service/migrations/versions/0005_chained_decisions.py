"""Every record that decides is chained: a table's entry mode, match play coupons and their
log, dice inspections, and a die's receipt come into the house's chain.

An older ledger's rows are carried into the chain as they stand, each record with the time
and the person its row names: one ``table_entry`` per table (from ``table_controls``,
``physical`` where a table had no row, as it behaved), each coupon's issue and its redemption
or void, each inspection of a die, and a first custody step for a die with none (``issued`` to the cup
it was in if its latest inspection passed, else ``received``, in no cup). ``table_controls``
is dropped: the chain holds the mode.

Revision ID: 0005
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from alembic import op

from croupier.money import fmt
from croupier.service import register

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_MOVED = "carried into the chain from the row an earlier release kept"


def _rows(conn: sa.Connection, sql: str) -> list[Any]:
    return list(conn.execute(sa.text(sql)).mappings())


def upgrade() -> None:
    conn = op.get_bind()
    entries = {r["table_id"]: r["entry"] for r in _rows(conn, "SELECT * FROM table_controls")}
    for t in _rows(conn, "SELECT id, created_at FROM tables ORDER BY created_at, id"):
        register.append(conn, "table_entry", f"table:{t['id']}",
                        {"table": t["id"], "entry": entries.get(t["id"], "physical"),
                         "note": _MOVED}, "upgrade", t["created_at"])
    _coupons(conn)
    _dice(conn)
    op.drop_table("table_controls")


def _coupons(conn: sa.Connection) -> None:
    logs: dict[str, list[Any]] = {}
    for r in _rows(conn, "SELECT * FROM coupon_log ORDER BY id"):
        logs.setdefault(r["serial"], []).append(r)
    for c in _rows(conn, "SELECT * FROM coupons ORDER BY issued_at, serial"):
        serial, log = c["serial"], logs.get(c["serial"], [])
        issued = next((r for r in log if r["action"] == "issued"), None)
        face = fmt(Decimal(int(c["face_cents"])) / 100)
        register.append(conn, "coupon_issued", f"coupon:{serial}", {
            "serial": serial, "player": c["player"], "face_value": face,
            "wagers": sorted(json.loads(c["wagers"])), "expires_at": repr(float(c["expires_at"])),
            "table": issued["table_id"] if issued is not None else None, "note": _MOVED},
            c["issued_by"], c["issued_at"])
        closed = next((r for r in log if r["action"] in ("redeemed", "voided")), None)
        detail = json.loads(closed["detail"]) if closed is not None else {}
        if c["status"] == "redeemed":
            register.append(conn, "coupon_redeemed", f"coupon:{serial}", {
                "serial": serial, "table": c["table_id"], "round": c["round"],
                "wager": detail.get("wager"), "amount": detail.get("amount"), "note": _MOVED},
                c["closed_by"], c["closed_at"])
        elif c["status"] == "void":
            register.append(conn, "coupon_voided", f"coupon:{serial}", {
                "serial": serial, "reason": c["void_reason"], "note": _MOVED},
                c["closed_by"], c["closed_at"])
    # The log becomes the projection of those records, one row each.
    conn.execute(sa.text("DELETE FROM coupon_log"))
    for r in _rows(conn, "SELECT * FROM house_records WHERE kind LIKE 'coupon_%' ORDER BY seq"):
        p = json.loads(r["payload"])
        action = r["kind"].split("_", 1)[1]
        detail = {k: v for k, v in p.items() if k not in ("serial", "note", "table", "round",
                                                          "expires_at")}
        conn.execute(sa.text(
            "INSERT INTO coupon_log (serial, action, actor, table_id, round, detail, at) "
            "VALUES (:s, :a, :who, :t, :r, :d, :at)"),
            {"s": p["serial"], "a": action, "who": r["actor"],
             "t": p.get("table"), "r": p.get("round"),
             "d": json.dumps(detail, sort_keys=True), "at": r["at"]})


def _dice(conn: sa.Connection) -> None:
    for i in _rows(conn, "SELECT * FROM inspections ORDER BY id"):
        failures = json.loads(i["failures"])
        register.append(conn, "die_inspected", f"die:{i['serial']}", {
            "serial": i["serial"], "passed": bool(i["passed"]), "failures": failures,
            "record": json.loads(i["record"]), "note": _MOVED}, i["inspector"], i["at"])
    latest = {i["serial"]: bool(i["passed"])
              for i in _rows(conn, "SELECT serial, passed FROM inspections ORDER BY id")}
    held = {r["subject"] for r in _rows(
        conn, "SELECT DISTINCT subject FROM house_records WHERE kind = 'dice_custody'")}
    for d in _rows(conn, "SELECT * FROM dice ORDER BY serial"):
        if f"die:{d['serial']}" in held:
            continue
        # A die in a cup stays there only if its latest inspection passed (no die is issued
        # uninspected); any other is received, in no cup.
        cup = d["table_id"] if not d["retired"] and latest.get(d["serial"]) else None
        step = "cancelled" if d["retired"] else ("issued" if cup else "received")
        note = (f"in table {d['table_id']}'s dice cup when custody began to be recorded"
                if d["table_id"] else "registered") + f"; {_MOVED}"
        register.append(conn, "dice_custody", f"die:{d['serial']}", {
            "serial": d["serial"], "step": step, "table": cup, "note": note, "clause": "",
            "set": d["set_name"]}, "upgrade", d["registered_at"])
        conn.execute(sa.text("UPDATE dice SET table_id = :t WHERE serial = :s"),
                     {"t": cup, "s": d["serial"]})


def downgrade() -> None:
    conn = op.get_bind()
    op.create_table(
        "table_controls",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("entry", sa.String(16), nullable=False),
    )
    latest: dict[str, str] = {}
    for r in _rows(conn, "SELECT * FROM house_records WHERE kind = 'table_entry' ORDER BY seq"):
        p = json.loads(r["payload"])
        latest[p["table"]] = p["entry"]
    for table_id, entry in latest.items():
        conn.execute(sa.text("INSERT INTO table_controls (table_id, entry) VALUES (:t, :e)"),
                     {"t": table_id, "e": entry})
