"""Hash chains: events and wallet entries get a hash; checkpoints and signing keys get tables.

The ledger written by the previous release has no hashes: this migration seals it, computing
each table's chain over its events and each wallet's chain over its entries as they stand at
migration time. What the ledger held before that moment is trusted as the old start-up check
left it; from the first signed checkpoint after the migration, every change is evident.

Revision ID: 0002
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from croupier.service.audit.canonical import (
    entry_text,
    event_text,
    link,
    table_genesis,
    wallet_genesis,
)

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("events", sa.Column("hash", sa.String(64)))
    op.add_column("wallet_entries", sa.Column("hash", sa.String(64)))
    op.add_column("wallets", sa.Column("chain_head", sa.String(64)))
    op.create_table(
        "checkpoints",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("heads", sa.Text, nullable=False),
        sa.Column("prev", sa.String(64), nullable=False),
        sa.Column("key_id", sa.String(32), nullable=False),
        sa.Column("signature", sa.Text, nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
    )
    op.create_table(
        "ledger_keys",
        sa.Column("key_id", sa.String(32), primary_key=True),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("signatures", sa.Text, nullable=False),
    )
    conn = op.get_bind()
    _seal_tables(conn)
    _seal_wallets(conn)


def _rows(conn: Any, sql: str, **params: Any) -> list[Any]:
    return [r._mapping for r in conn.execute(sa.text(sql), params)]


def _seal_tables(conn: Any) -> None:
    for t in _rows(conn, "SELECT id, game, profile, options, capacity FROM tables"):
        head = table_genesis(t["id"], t["game"], t["profile"], t["options"], t["capacity"])
        for e in _rows(conn, "SELECT table_id, seq, round, kind, player, payload, actor, at "
                             "FROM events WHERE table_id = :t ORDER BY seq", t=t["id"]):
            head = link(head, event_text(e))
            conn.execute(sa.text("UPDATE events SET hash = :h WHERE table_id = :t AND seq = :s"),
                         {"h": head, "t": t["id"], "s": e["seq"]})


def _seal_wallets(conn: Any) -> None:
    for w in _rows(conn, "SELECT player FROM wallets"):
        head = wallet_genesis(w["player"])
        for e in _rows(conn, "SELECT id, player, amount_cents, kind, table_id, seq, "
                             "balance_after_cents, actor, at FROM wallet_entries "
                             "WHERE player = :p ORDER BY id", p=w["player"]):
            head = link(head, entry_text(e))
            conn.execute(sa.text("UPDATE wallet_entries SET hash = :h WHERE id = :i"),
                         {"h": head, "i": e["id"]})
        conn.execute(sa.text("UPDATE wallets SET chain_head = :h WHERE player = :p"),
                     {"h": head, "p": w["player"]})


def downgrade() -> None:
    op.drop_table("ledger_keys")
    op.drop_table("checkpoints")
    with op.batch_alter_table("wallets") as batch:
        batch.drop_column("chain_head")
    with op.batch_alter_table("wallet_entries") as batch:
        batch.drop_column("hash")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("hash")
