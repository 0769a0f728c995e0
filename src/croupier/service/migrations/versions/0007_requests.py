"""Each event records the request that produced it: the digest of its caller, Idempotency-Key
and request in its payload (chained), and a copy in a column of its own, indexed, so that a
retry whose stored reply is missing is still known (``Ledger.stored``) and the audit can
rebuild which key produced which events (``audit.requests``). Events an older release wrote
have none: nothing before this migration changes.

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("events", sa.Column("request", sa.String(64)))
    op.create_index("ix_events_request", "events", ["request"],
                    sqlite_where=sa.text("request IS NOT NULL"),
                    postgresql_where=sa.text("request IS NOT NULL"))
    # A ledger an older release wrote has no event that records its request; one taken down
    # to an earlier schema and up again does: the column is filled from the payloads.
    from croupier.service import codec

    conn = op.get_bind()
    found = conn.execute(sa.text(
        "SELECT table_id, seq, payload FROM events WHERE payload LIKE :r"), {"r": '%"r":"%'})
    rows = [{"t": t, "s": s, "r": codec.request_of(p)} for t, s, p in found]
    rows = [r for r in rows if r["r"] is not None]
    if rows:
        conn.execute(sa.text("UPDATE events SET request = :r WHERE table_id = :t AND seq = :s"),
                     rows)


def downgrade() -> None:
    op.drop_index("ix_events_request", table_name="events")
    op.drop_column("events", "request")
