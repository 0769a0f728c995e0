"""The server's controls: log-in lock-outs that expire, deleted users, house-issued match play
coupons and their log, each table's result entry and pending adjustments.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "login_state",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("locked_until", sa.Float),
        sa.Column("lockouts", sa.Integer, nullable=False),
        sa.Column("deleted_at", sa.Float),
    )
    op.create_table(
        "coupons",
        sa.Column("serial", sa.String(32), primary_key=True),
        sa.Column("player", sa.String(64), nullable=False, index=True),
        sa.Column("face_cents", sa.BigInteger, nullable=False),
        sa.Column("wagers", sa.Text, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("issued_by", sa.String(64), nullable=False),
        sa.Column("issued_at", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(64)),
        sa.Column("round", sa.Integer),
        sa.Column("closed_by", sa.String(64)),
        sa.Column("closed_at", sa.Float),
        sa.Column("void_reason", sa.Text),
    )
    op.create_table(
        "coupon_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("serial", sa.String(32), nullable=False, index=True),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(64)),
        sa.Column("round", sa.Integer),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "table_controls",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("entry", sa.String(16), nullable=False),
    )
    op.create_table(
        "pending_adjustments",
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


def downgrade() -> None:
    for name in ("pending_adjustments", "table_controls", "coupon_log", "coupons",
                 "login_state"):
        op.drop_table(name)
