"""The house's own hash chain: the equipment register, the dice's chain of custody and the
scheduled pay table changes (``service/register.py``). An older ledger gets the table empty:
its chain starts at its genesis and nothing before it changes.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "house_records",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("subject", sa.String(96), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_house_records_subject", "house_records", ["subject"])


def downgrade() -> None:
    op.drop_index("ix_house_records_subject", table_name="house_records")
    op.drop_table("house_records")
