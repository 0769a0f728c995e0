"""Users, roles, argon2 password hashes, bearer tokens and lock-out after three failed logins.

Roles: ``player`` (their own wagers and chips), ``dealer`` (runs the game: rolls, spins, calls
"no more bets", moves the dice), ``supervisor`` (the boxperson: voids with a reason, confirms
late bets, compensating entries, inspects equipment), ``auditor`` (reads everything, changes
nothing) and ``admin`` (users, tables, wallets' deposits, equipment).

>>> h = hash_password("correct horse")
>>> verify_password(h, "correct horse"), verify_password(h, "wrong")
(True, False)
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from dataclasses import dataclass

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy.engine import Connection, Engine

from croupier.service import store

ROLES = ("player", "dealer", "supervisor", "auditor", "admin")
MAX_FAILED_LOGINS = 3
TOKEN_SECONDS = 12 * 3600

# Interactive logins: argon2id with a modest memory cost so a login takes tens of milliseconds.
_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    try:
        return _HASHER.verify(password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def token_hash(token: str) -> str:
    """Tokens are stored only as their SHA-256: a copy of the database logs nobody in."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class User:
    id: int
    username: str
    role: str


class LoginFailed(Exception):
    """Wrong name or password, or the account is locked (``locked``)."""

    def __init__(self, locked: bool) -> None:
        super().__init__("locked" if locked else "bad credentials")
        self.locked = locked


class Auth:
    """Logins and token look-ups, with tokens cached in memory after their first use."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._cache: dict[str, tuple[User, float]] = {}
        self._lock = threading.Lock()

    def create_user(self, conn: Connection, username: str, password: str, role: str) -> User:
        if role not in ROLES:
            raise ValueError(role)
        result = conn.execute(store.users.insert().values(
            username=username, role=role, password_hash=hash_password(password),
            failed_logins=0, locked=False, created_at=store.now()))
        user_id = int(result.inserted_primary_key[0])  # type: ignore[index]
        if role == "player":
            conn.execute(store.wallets.insert().values(player=username, balance_cents=0))
        return User(user_id, username, role)

    def login(self, username: str, password: str) -> tuple[str, User]:
        """A new bearer token; three failed logins in a row lock the account."""
        failure: LoginFailed | None = None
        with self.engine.begin() as conn:
            row = conn.execute(sa.select(store.users).where(
                store.users.c.username == username)).first()
            if row is None:
                verify_password(_DUMMY_HASH, password)  # same time as a real check
                failure = LoginFailed(False)
            elif row.locked:
                failure = LoginFailed(True)
            elif not verify_password(row.password_hash, password):
                # The failed count is committed with the refusal (no exception in here).
                failed = row.failed_logins + 1
                conn.execute(store.users.update().where(store.users.c.id == row.id).values(
                    failed_logins=failed, locked=failed >= MAX_FAILED_LOGINS))
                failure = LoginFailed(failed >= MAX_FAILED_LOGINS)
            else:
                if row.failed_logins:
                    conn.execute(store.users.update().where(store.users.c.id == row.id)
                                 .values(failed_logins=0))
                token = secrets.token_urlsafe(32)
                conn.execute(store.tokens.insert().values(
                    token_hash=token_hash(token), user_id=row.id,
                    expires_at=store.now() + TOKEN_SECONDS))
                user = User(row.id, row.username, row.role)
        if failure is not None:
            if failure.locked:
                self._forget(username)
            raise failure
        return token, user

    def user_for(self, token: str) -> User | None:
        """The user a bearer token belongs to, or None (unknown, expired or locked)."""
        key = token_hash(token)
        cached = self._cache.get(key)
        if cached is not None and cached[1] > store.now():
            return cached[0]
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(store.users.c.id, store.users.c.username, store.users.c.role,
                          store.users.c.locked, store.tokens.c.expires_at)
                .join(store.tokens, store.tokens.c.user_id == store.users.c.id)
                .where(store.tokens.c.token_hash == key)).first()
        if row is None or row.locked or row.expires_at <= store.now():
            return None
        user = User(row.id, row.username, row.role)
        with self._lock:
            self._cache[key] = (user, float(row.expires_at))
        return user

    def logout(self, token: str) -> None:
        key = token_hash(token)
        with self._lock:
            self._cache.pop(key, None)
        with self.engine.begin() as conn:
            conn.execute(store.tokens.delete().where(store.tokens.c.token_hash == key))

    def set_locked(self, username: str, locked: bool) -> bool:
        """Lock or unlock an account (an admin's unlock also clears the failed count)."""
        with self.engine.begin() as conn:
            result = conn.execute(store.users.update().where(
                store.users.c.username == username).values(locked=locked, failed_logins=0))
            found = result.rowcount > 0
        if locked:
            self._forget(username)
        return found

    def _forget(self, username: str) -> None:
        """Drop a user's cached tokens (they are checked against the database again)."""
        with self._lock:
            self._cache = {k: v for k, v in self._cache.items() if v[0].username != username}


_DUMMY_HASH = hash_password("not a password anyone has")
