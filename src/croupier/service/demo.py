"""The demo ``croupier init --demo`` creates (never a production start): users, wallets, a
craps and a roulette table, dice. Every demo password is generated unless one is given (the
policy applies to it)."""

from __future__ import annotations

from decimal import Decimal

import sqlalchemy as sa

from croupier.service import controls, equipment, equipment_register, store
from croupier.service.auth import Auth, Role
from croupier.service.ledger import Ledger, WalletMove, move_wallet
from croupier.service.tables import Opening, Tables

DEMO_USERS = (("admin", "admin"), ("dealer", "dealer"), ("supervisor", "supervisor"),
              ("floor", "supervisor"), ("auditor", "auditor"), ("alice", "player"),
              ("bob", "player"))
"""The demo's people: ``floor`` is a second supervisor (a floorperson), so a demo night can
meet the rules that need two people (a void of an RNG outcome, a large adjustment)."""
DEMO_WALLET = Decimal(1000)
DEMO_TABLES = (("craps-1", "craps", "nj-13-69f"), ("roulette-1", "roulette", "nj-casino-night"))
DEMO_DICE = 8


def seed(engine: sa.Engine, password: str | None = None) -> dict[str, str] | None:
    """Create the demo if the database has no users; the logins created (name -> password)."""
    from croupier.service.auth import new_password

    auth = Auth(engine)
    tables = Tables(Ledger(engine))
    with engine.begin() as conn:
        if conn.execute(sa.select(sa.func.count()).select_from(store.users)).scalar():
            return None
        logins: dict[str, str] = {}
        for name, role in DEMO_USERS:
            logins[name] = password or new_password()
            auth.create_user(conn, name, logins[name], role)
            if role == Role.PLAYER:
                move_wallet(conn, WalletMove(name, store.cents(DEMO_WALLET), "deposit", "demo"))
        for table_id, game, profile in DEMO_TABLES:
            tables.create(conn, Opening(table_id, game, profile, {}, "admin",
                                        controls.EntryMode.PHYSICAL))
        record = equipment.passing_record()
        for i in range(1, DEMO_DICE + 1):
            serial = f"NJ-{i:04d}"
            equipment_register.register_die(conn, "admin", serial, "demo set A", "craps-1")
            equipment_register.inspect_die(conn, "admin", serial, record, [])
        equipment_register.demo_register(conn)
    return logins
