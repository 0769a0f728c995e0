"""Command-line recovery for whoever holds the server's data: unlock an account, reset a
password (``croupier users unlock NAME``, ``croupier users reset-password NAME``), working on
the ledger directly, so a casino whose admins are all locked out is not locked out itself.
The account rules themselves (lock-outs, sessions) are ``auth``'s."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from croupier.service import auth


def unlock(engine: Engine, username: str) -> bool:
    """Unlock an account and clear its failed logins; False if there is no such user."""
    with engine.begin() as conn:
        return auth.unlock_user(conn, username)


def reset_password(engine: Engine, username: str, password: str) -> bool:
    """A new password (its policy checked by the caller); the account unlocked and every
    session it had ended. False if there is no such user."""
    with engine.begin() as conn:
        return auth.reset_password(conn, username, password)
