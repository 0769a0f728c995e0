"""Command-line recovery for whoever holds the server's data: unlock an account, reset a
password, restore a deleted account, add an account (``croupier users unlock | reset-password
| restore | add NAME``), working on the ledger directly, so a casino whose admins are all
locked out or deleted is not locked out itself. Each is a record of the users' chain made by
the command line (``service/people.py``): an account added or restored here is a person of
their own for the two-person rules. The account rules themselves are ``auth``'s.

Each answers what is now true: an account that still cannot log in afterwards (deleted) is
refused with the reason (:class:`croupier.errors.Refusal`), never reported done.
"""

from __future__ import annotations

from sqlalchemy.engine import Engine

from croupier.errors import Refusal
from croupier.service import auth, people
from croupier.service.api import queries


def unlock(engine: Engine, username: str) -> bool:
    """Unlock an account and clear its failed logins; False if there is no such user."""
    with engine.begin() as conn:
        people.take_lock(conn)
        return auth.unlock_user(conn, username)


def reset_password(engine: Engine, username: str, password: str) -> bool:
    """A new password (its policy checked by the caller); the account unlocked and every
    session it had ended. False if there is no such user."""
    with engine.begin() as conn:
        people.take_lock(conn)
        return auth.reset_password(conn, username, password)


def restore(engine: Engine, username: str) -> bool:
    """A deleted account back (unlocked, its password as it was); False if there is no such
    user."""
    with engine.begin() as conn:
        people.take_lock(conn)
        if not auth.restore_user(conn, username):
            return False
        auth.set_locked(conn, username, False)
        return True


def add(engine: Engine, username: str, password: str, role: str) -> None:
    """A new account made at the command line (an independent person); a Refusal if
    the name is taken."""
    with engine.begin() as conn:
        people.take_lock(conn)
        if queries.user_exists(conn, username):
            raise Refusal(f"there is already a user {username!r}")
        auth.Auth(engine).create_user(conn, username, password, role)
