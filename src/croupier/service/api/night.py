"""What the end-of-night report reads beyond the tables' figures: the night's money (the cage,
the wallets, the seats, the house) and the fairness alerts, with their acknowledgements."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.service import codec, store
from croupier.service import events as sv
from croupier.service.api import queries
from croupier.service.night import cash_html, cash_json, now_text
from croupier.service.reconcile import Cash, reconcile


def cash(conn: Connection) -> Cash:
    """The night's money as the ledger holds it now."""
    entries = [(str(r.kind), int(r.amount_cents)) for r in conn.execute(
        sa.select(store.wallet_entries.c.kind, store.wallet_entries.c.amount_cents))]
    wallets = [int(v) for v in conn.execute(sa.select(store.wallets.c.balance_cents)).scalars()]
    seats = [(int(r.chips_cents), int(r.on_table_cents)) for r in conn.execute(
        sa.select(store.seats.c.chips_cents, store.seats.c.on_table_cents))]
    house = [int(v) for v in conn.execute(sa.select(store.tables.c.house_cents)).scalars()]
    return reconcile(entries, wallets, seats, house)


def alerts(svc: Any, conn: Connection, table_ids: list[str]) -> list[dict[str, Any]]:
    """Every fairness alert raised at the tables, oldest first per table, each with its
    acknowledgement (None if none yet)."""
    from croupier.service.alert_acks import acknowledgements

    acks = acknowledgements(svc, conn, table_ids)
    out: list[dict[str, Any]] = []
    for table_id in table_ids:
        live = svc.tables.find(table_id)
        for r in queries.events_of_kinds(conn, table_id, (sv.IntegrityAlert.kind,)):
            e = codec.decode(live.game.name, r.payload)
            out.append({"table": table_id, "seq": r.seq, "round": r.round, "at": r.at,
                        **e.to_json(), "acknowledged": acks.get((table_id, r.seq))})
    return out


def night_sections(svc: Any, table_ids: list[str], *, html: bool) -> Any:
    """The money (for the whole event) and the alerts, as HTML or as JSON fields."""
    whole = sorted(table_ids) == sorted(t.id for t in svc.tables)
    with store.reading(svc.engine) as conn:
        money = cash(conn)
        listed = alerts(svc, conn, table_ids)
    when = now_text()
    if html:
        return cash_html(money, listed, when, whole=whole)
    return {"made": when, "alerts": listed, **({"cash": cash_json(money)} if whole else {})}
