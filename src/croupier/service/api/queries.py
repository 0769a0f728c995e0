"""The API's own reads and writes of the database (the ledger's are in ``ledger.py``).

Every statement a route runs is here, named for what it answers, so the routes hold no SQL.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Row

from croupier.service import register, store
from croupier.service.auth import login_state


def user_exists(conn: Connection, username: str) -> bool:
    return conn.execute(sa.select(store.users.c.id).where(
        store.users.c.username == username)).first() is not None


def users(conn: Connection) -> list[Row[Any]]:
    """Every account with its log-in state (lock-out, deletion)."""
    return list(conn.execute(
        sa.select(store.users, login_state.c.locked_until, login_state.c.lockouts,
                  login_state.c.deleted_at)
        .outerjoin(login_state, login_state.c.user_id == store.users.c.id)
        .order_by(store.users.c.id)).all())


def wallet_entries(conn: Connection, player: str, limit: int = 50) -> list[Row[Any]]:
    """A wallet's newest entries, newest first."""
    return list(conn.execute(sa.select(store.wallet_entries).where(
        store.wallet_entries.c.player == player).order_by(
        store.wallet_entries.c.id.desc()).limit(limit)).all())


def die_exists(conn: Connection, serial: str) -> bool:
    return conn.execute(sa.select(store.dice.c.serial).where(
        store.dice.c.serial == serial)).first() is not None


def dice_with_latest_inspection(conn: Connection,
                                ) -> list[tuple[Row[Any], dict[str, Any] | None]]:
    """Every die, by serial, with its latest inspection as the house's chain records it
    (``by``, ``at``, ``passed``, ``failures``; None if never inspected)."""
    out = []
    for die in conn.execute(sa.select(store.dice).order_by(store.dice.c.serial)).all():
        found = register.latest(conn, ("die_inspected",), f"die:{die.serial}")
        latest = None if found is None else {
            "by": found["actor"], "at": found["at"], "passed": bool(found["payload"]["passed"]),
            "failures": list(found["payload"]["failures"])}
        out.append((die, latest))
    return out


def events_after(conn: Connection, table_id: str, since: int, limit: int) -> list[Row[Any]]:
    """A table's events after sequence number ``since``, oldest first."""
    return list(conn.execute(sa.select(store.events).where(
        store.events.c.table_id == table_id, store.events.c.seq > since)
        .order_by(store.events.c.seq).limit(limit)).all())


def events_of_kinds(conn: Connection, table_id: str, kinds: tuple[str, ...]) -> list[Row[Any]]:
    return list(conn.execute(sa.select(store.events).where(
        store.events.c.table_id == table_id, store.events.c.kind.in_(kinds))
        .order_by(store.events.c.seq)).all())


def took_part(conn: Connection, table_id: str, round_no: int, player: str) -> bool:
    """Whether ``player`` had a part in the round (a wager, a settlement, a balance, an
    adjustment: any event naming them). A decided round lists its players (``round_players``,
    written with the decision); a round not yet decided has no such list, so its events are
    read: a player's part in the round under way is theirs to recall as any other. The list
    is a projection the audit rebuilds from the round's events and compares
    (``audit.replay.PlayersCheck``): a row added or taken away is named."""
    listed = conn.execute(sa.select(store.round_players.c.player).where(
        store.round_players.c.table_id == table_id,
        store.round_players.c.round == round_no,
        store.round_players.c.player == player)).first()
    if listed is not None:
        return True
    ev = store.events
    return conn.execute(sa.select(ev.c.seq).where(
        ev.c.table_id == table_id, ev.c.round == round_no, ev.c.player == player)
        .limit(1)).first() is not None
