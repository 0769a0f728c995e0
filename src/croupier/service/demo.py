"""The demo a first start creates: users, wallets, a craps and a roulette table, dice."""

from __future__ import annotations

import json
import secrets
from decimal import Decimal

import sqlalchemy as sa

from croupier.service import equipment, store
from croupier.service.auth import Auth
from croupier.service.ledger import Ledger

DEMO_USERS = (("admin", "admin"), ("dealer", "dealer"), ("supervisor", "supervisor"),
              ("auditor", "auditor"), ("alice", "player"), ("bob", "player"))
DEMO_WALLET = Decimal(1000)
DEMO_TABLES = (("craps-1", "craps", "nj-13-69f"), ("roulette-1", "roulette", "nj-casino-night"))
DEMO_DICE = 8


def seed(engine: sa.Engine, password: str | None = None) -> dict[str, str] | None:
    """Create the demo if the database has no users; the logins created (name -> password)."""
    auth = Auth(engine)
    ledger = Ledger(engine)
    with engine.begin() as conn:
        if conn.execute(sa.select(sa.func.count()).select_from(store.users)).scalar():
            return None
        logins: dict[str, str] = {}
        for name, role in DEMO_USERS:
            logins[name] = password or secrets.token_urlsafe(9)
            auth.create_user(conn, name, logins[name], role)
            if role == "player":
                cents = store.cents(DEMO_WALLET)
                conn.execute(store.wallets.update().where(store.wallets.c.player == name)
                             .values(balance_cents=cents))
                conn.execute(store.wallet_entries.insert().values(
                    player=name, amount_cents=cents, kind="deposit", table_id=None, seq=None,
                    balance_after_cents=cents, actor="demo", at=store.now()))
        for table_id, game, profile in DEMO_TABLES:
            ledger.create_table(conn, table_id, game, profile, {}, None)
        record = equipment.passing_record()
        for i in range(1, DEMO_DICE + 1):
            serial = f"NJ-{i:04d}"
            conn.execute(store.dice.insert().values(
                serial=serial, set_name="demo set A", table_id="craps-1", retired=False,
                registered_at=store.now()))
            conn.execute(store.inspections.insert().values(
                serial=serial, inspector="admin", record=json.dumps(record), passed=True,
                failures="[]", at=store.now()))
    return logins
