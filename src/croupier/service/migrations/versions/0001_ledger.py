"""The ledger: users, tokens, wallets, tables, seats, events, rounds, idempotency, dice.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(64), nullable=False, unique=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("failed_logins", sa.Integer, nullable=False),
        sa.Column("locked", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_table(
        "wallets",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("balance_cents", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "wallet_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(64), nullable=False, index=True),
        sa.Column("amount_cents", sa.BigInteger, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(64)),
        sa.Column("seq", sa.Integer),
        sa.Column("balance_after_cents", sa.BigInteger, nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("profile", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("capacity", sa.Integer, nullable=False),
        sa.Column("house_cents", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("chips_cents", sa.BigInteger, nullable=False),
        sa.Column("on_table_cents", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("player", sa.String(64)),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_events_round", "events", ["table_id", "round"])
    op.create_table(
        "rounds",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("first_seq", sa.Integer, nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("outcome", sa.Text, nullable=False),
        sa.Column("draw", sa.Text, nullable=False),
        sa.Column("layout", sa.Text, nullable=False),
        sa.Column("before", sa.Text, nullable=False),
        sa.Column("after", sa.Text, nullable=False),
        sa.Column("decided_at", sa.Float, nullable=False),
        sa.Column("voided", sa.Text),
    )
    op.create_table(
        "round_players",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("decided_at", sa.Float, nullable=False),
    )
    op.create_index("ix_round_players_player", "round_players", ["player", "decided_at"])
    op.create_table(
        "idempotency",
        sa.Column("user_id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "dice",
        sa.Column("serial", sa.String(32), primary_key=True),
        sa.Column("set_name", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(64)),
        sa.Column("retired", sa.Boolean, nullable=False),
        sa.Column("registered_at", sa.Float, nullable=False),
    )
    op.create_table(
        "inspections",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("serial", sa.String(32), nullable=False, index=True),
        sa.Column("inspector", sa.String(64), nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("passed", sa.Boolean, nullable=False),
        sa.Column("failures", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for name in ("inspections", "dice", "idempotency", "round_players", "rounds", "events",
                 "seats", "tables", "wallet_entries", "wallets", "tokens", "users"):
        op.drop_table(name)
