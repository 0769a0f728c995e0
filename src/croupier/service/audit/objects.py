"""Database objects croupier never makes: a trigger, a view, a rule, or (PostgreSQL) a row
security policy.

The chains, checkpoints and projections the audit checks are rows; the schema around them is
not in any chain. A trigger written into the database (or into a backup before it is restored,
whose signed head covers the chains' rows only) acts on every later write, with no record of
its own: one that takes a cent from a wallet's row at each entry, or drops a stored reply, is
found only after it acted, and it goes on acting after every audit that named what it did. A
view or a rule standing in for a ledger table makes the server read, or write, other rows than
the audit reads; row security hides rows from the server's reads or the audit's. croupier's
migrations make none of them, so any one found is a finding: the audit names it, so the
server refuses to start on it and ``croupier restore`` refuses a copy holding one.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.service.audit.snapshot import Finding

WHERE = "database"

_SQLITE = sa.text("SELECT type, name, tbl_name FROM sqlite_master "
                  "WHERE type IN ('trigger', 'view') ORDER BY type, name")

# PostgreSQL: every schema of the search path, where the server's unqualified names are
# looked up (a view of a ledger table's name in a schema that comes first in the path would
# stand in for the table). A trigger is named with the table it is on; the internal ones are
# the foreign keys' own.
_POSTGRES = sa.text("""
    SELECT 'trigger' AS type, t.tgname AS name, c.relname AS tbl_name
      FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE NOT t.tgisinternal AND n.nspname = ANY (current_schemas(false))
    UNION ALL
    SELECT 'view', viewname, schemaname FROM pg_views
     WHERE schemaname = ANY (current_schemas(false))
    UNION ALL
    SELECT 'rule', rulename, tablename FROM pg_rules
     WHERE schemaname = ANY (current_schemas(false))
    UNION ALL
    SELECT 'policy', p.polname, c.relname
      FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = ANY (current_schemas(false))
    UNION ALL
    SELECT 'row security', c.relname, c.relname
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE (c.relrowsecurity OR c.relforcerowsecurity)
       AND n.nspname = ANY (current_schemas(false))
    ORDER BY 1, 2
""")


def check(conn: Connection) -> list[Finding]:
    """Every trigger, view, rule or row security policy in the database, each a finding."""
    dialect = conn.engine.dialect.name
    if dialect == "sqlite":
        found = conn.execute(_SQLITE).all()
    elif dialect == "postgresql":
        found = conn.execute(_POSTGRES).all()
    else:  # no other database is served (store.make_engine)
        return []
    return [Finding(WHERE, None, (
        f"{row.type} {row.name!r} {'in' if row.type == 'view' else 'on'} {row.tbl_name!r}: "
        "croupier makes no trigger, view, rule or row security, and one written into the "
        "database acts on what the server reads or writes with no record in any chain; drop "
        "it, then run croupier audit verify again"))
        for row in found]
