"""The users' chain (``service/people.py``): accounts, roles and who made whom, hash-chained;
and pending adjustments asked in the tables' chains. An older ledger's chain starts with a
``genesis`` record listing its accounts as they stood (none of them made through the API, as
far as the ledger can say, so each counts as a person of their own); nothing before it changes.

Revision ID: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from croupier.service import people, store

    op.add_column("users", sa.Column("made_by", sa.String(64)))
    op.create_table(
        "user_records",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("subject", sa.String(64), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_user_records_subject", "user_records", ["subject"])
    # The solo adjustments a supervisor made for a player lately (``service/controls.py``):
    # only adjustment rows are indexed, so a bet's event costs nothing more.
    op.create_index("ix_events_adjustments", "events", ["player", "at"],
                    sqlite_where=sa.text("kind IN ('adjust', 'adjustment_approved')"),
                    postgresql_where=sa.text("kind IN ('adjust', 'adjustment_approved')"))
    conn = op.get_bind()
    found = conn.execute(sa.text(
        "SELECT u.username, u.role, u.locked, u.password_hash, s.deleted_at FROM users u "
        "LEFT JOIN login_state s ON s.user_id = u.id ORDER BY u.id")).all()
    accounts = [{"username": r[0], "role": r[1], "locked": bool(r[2]),
                 "deleted": r[4] is not None, "made_by": None,
                 "password": people.password_digest(str(r[3]))} for r in found]
    conn.execute(people.user_records.insert().values(**people.genesis_row(accounts,
                                                                          store.now())))


def downgrade() -> None:
    op.drop_index("ix_events_adjustments", table_name="events")
    op.drop_index("ix_user_records_subject", table_name="user_records")
    op.drop_table("user_records")
    op.drop_column("users", "made_by")
