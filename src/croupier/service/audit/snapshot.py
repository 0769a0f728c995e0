"""Everything the audit reads, as plain rows: from the database, or from an exported bundle."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.service import store


@dataclass(frozen=True)
class Finding:
    """One thing the audit found wrong: where (a table or a wallet), which record, what."""

    where: str
    seq: int | None
    what: str

    def __str__(self) -> str:
        at = f", event {self.seq}" if self.seq is not None and self.where.startswith("table") \
            else (f", entry {self.seq}" if self.seq is not None else "")
        return f"{self.where}{at}: {self.what}"

    def json(self) -> dict[str, Any]:
        return {"where": self.where, "seq": self.seq, "what": self.what}


@dataclass
class Snapshot:
    """The ledger's rows (each a dict of its columns)."""

    tables: list[dict[str, Any]] = field(default_factory=list)
    events: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    wallets: list[dict[str, Any]] = field(default_factory=list)
    entries: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    seats: list[dict[str, Any]] = field(default_factory=list)
    rounds: dict[str, int] = field(default_factory=dict)
    """Each table's last round number as the ``rounds`` rows have it (carried in a bundle; the
    replay takes a table's rounds from its events)."""
    checkpoints: list[dict[str, Any]] = field(default_factory=list)
    keys: list[dict[str, Any]] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    """The house's own chain (``service/register.py``), by ``seq``."""
    round_rows: dict[str, dict[int, dict[str, Any]]] | None = None
    """Each table's rounds as recall shows them (a projection the replay rebuilds and
    compares; None for a bundle, which does not carry them)."""
    round_players: dict[str, dict[int, set[str]]] | None = None
    """Each table's decided rounds and the players ``round_players`` lets look each up (a
    projection the replay rebuilds and compares; None for a bundle, which does not carry it)."""
    user_records: list[dict[str, Any]] = field(default_factory=list)
    """The users' chain (``service/people.py``), by ``seq``."""
    accounts: list[dict[str, Any]] = field(default_factory=list)
    """The accounts as the users table holds them (its projection, a password as a digest)."""
    pending: list[dict[str, Any]] = field(default_factory=list)
    """The pending adjustments' rows (a projection of the tables' chains)."""


def _all(conn: Connection, query: Any) -> list[dict[str, Any]]:
    return [dict(r._mapping) for r in conn.execute(query)]


def read(conn: Connection) -> Snapshot:
    """The ledger as it stands (one read transaction)."""
    snap = Snapshot()
    snap.tables = _all(conn, sa.select(store.tables).order_by(store.tables.c.created_at,
                                                              store.tables.c.id))
    for row in _all(conn, sa.select(store.events).order_by(store.events.c.table_id,
                                                           store.events.c.seq)):
        snap.events.setdefault(row["table_id"], []).append(row)
    snap.wallets = _all(conn, sa.select(store.wallets).order_by(store.wallets.c.player))
    for row in _all(conn, sa.select(store.wallet_entries).order_by(store.wallet_entries.c.id)):
        snap.entries.setdefault(row["player"], []).append(row)
    snap.seats = _all(conn, sa.select(store.seats))
    snap.rounds = {r["table_id"]: int(r["last"] or 0) for r in _all(conn, sa.select(
        store.rounds.c.table_id, sa.func.max(store.rounds.c.round).label("last"))
        .group_by(store.rounds.c.table_id))}
    snap.round_rows = {}
    for row in _all(conn, sa.select(store.rounds.c.table_id, store.rounds.c.round,
                                    store.rounds.c.outcome, store.rounds.c.after,
                                    store.rounds.c.before, store.rounds.c.draw,
                                    store.rounds.c.layout, store.rounds.c.voided)):
        snap.round_rows.setdefault(row["table_id"], {})[int(row["round"])] = row
    snap.round_players = {}
    for row in _all(conn, sa.select(store.round_players.c.table_id, store.round_players.c.round,
                                    store.round_players.c.player)):
        snap.round_players.setdefault(row["table_id"], {}).setdefault(
            int(row["round"]), set()).add(row["player"])
    snap.checkpoints = _all(conn, sa.select(store.checkpoints).order_by(store.checkpoints.c.id))
    snap.keys = _all(conn, sa.select(store.ledger_keys))
    snap.records = _all(conn, sa.select(store.house_records).order_by(store.house_records.c.seq))
    snap.user_records = _all(conn, sa.select(store.user_records).order_by(
        store.user_records.c.seq))
    snap.accounts = account_rows(conn)
    snap.pending = _all(conn, sa.text("SELECT * FROM pending_adjustments ORDER BY id"))
    return snap


def password_digest(password_hash: str) -> str:
    """What the users' chain records of a password: the SHA-256 of its argon2 hash (never the
    hash, which a bundle handed to a regulator would then carry)."""
    return hashlib.sha256(password_hash.encode()).hexdigest()


def account_rows(conn: Connection) -> list[dict[str, Any]]:
    """The accounts as the ``users`` table and the deletion marks hold them, in the form the
    audit compares with the users' chain (``service/people.py``): a password as its digest."""
    found = conn.execute(sa.text(
        "SELECT u.username, u.role, u.locked, u.made_by, u.password_hash, s.deleted_at "
        "FROM users u LEFT JOIN login_state s ON s.user_id = u.id ORDER BY u.id")).all()
    return [{"username": r.username, "role": r.role, "locked": bool(r.locked),
             "deleted": r.deleted_at is not None, "made_by": r.made_by,
             "password": password_digest(r.password_hash)} for r in found]
