"""Command-line recovery for whoever holds the server's data: unlock an account, reset a
password (``croupier users unlock NAME``, ``croupier users reset-password NAME``), working on
the ledger directly, so a casino whose admins are all locked out is not locked out itself."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from croupier.service import store
from croupier.service.auth import Auth, hash_password


def unlock(engine: Engine, username: str) -> bool:
    """Unlock an account and clear its failed logins; False if there is no such user."""
    return Auth(engine).set_locked(username, False)


def reset_password(engine: Engine, username: str, password: str) -> bool:
    """A new password (its policy checked by the caller); the account unlocked and every
    session it had ended. False if there is no such user."""
    with engine.begin() as conn:
        row = conn.execute(sa.select(store.users.c.id).where(
            store.users.c.username == username)).first()
        if row is None:
            return False
        conn.execute(store.users.update().where(store.users.c.id == row.id).values(
            password_hash=hash_password(password)))
        conn.execute(store.tokens.delete().where(store.tokens.c.user_id == row.id))
    return unlock(engine, username)
