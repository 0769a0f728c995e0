"""A move at the cage and a coupon issued record the request that made them, as a table's
events do (0007): the digest of the caller, Idempotency-Key and request, chained with the
wallet entry (a column of the entry, in its hash when present) or the house record (its
payload; the column is a copy for look-up). A retry whose stored reply is missing is then
known and not done again, and the audit rebuilds each stored reply from its record.

Refusals are no longer kept under a key (a refusal changes nothing, so a retry is decided
again): the refusals an older release kept are removed, so that the audit can name any kept
reply no chained record claims. Entries and records written before this migration record no
request and hash as they did.

Revision ID: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_TABLES = ("wallet_entries", "house_records")


def upgrade() -> None:
    for table in _TABLES:
        op.add_column(table, sa.Column("request", sa.String(64)))
        op.create_index(f"ix_{table}_request", table, ["request"],
                        sqlite_where=sa.text("request IS NOT NULL"),
                        postgresql_where=sa.text("request IS NOT NULL"))
    op.get_bind().execute(sa.text("DELETE FROM idempotency WHERE status >= 400"))


def downgrade() -> None:
    for table in _TABLES:
        op.drop_index(f"ix_{table}_request", table_name=table)
        op.drop_column(table, "request")
