"""Users, roles, argon2 password hashes, bearer tokens, and log-in lock-outs that expire.

Roles: ``player`` (their own wagers and chips), ``dealer`` (runs the game: rolls, spins, calls
"no more bets", moves the dice), ``supervisor`` (the boxperson: voids with a reason, confirms
late bets, compensating entries, inspects equipment, issues match play coupons), ``cashier``
(issues and voids match play coupons), ``auditor`` (reads everything, changes nothing) and
``admin`` (users, tables, wallets' deposits, equipment).

Log-in is built so that guessing can neither lock the casino out nor be raced:

* guesses are throttled per account *and* client address together, with back-off, and capped
  per account across every address (:mod:`croupier.service.throttle`); no account is ever
  locked for everyone by wrong guesses, and the right password from an address with no recent
  failure at that account logs in at once (docs/login.md: the attacker model);
* the argon2 check runs outside every transaction, one at a time on a low-priority thread
  (:data:`_VERIFIER`), so a flood of log-ins neither holds the ledger's write lock nor takes
  every core from betting;
* an admin's lock, a deleted account, an unknown name and a wrong password answer alike
  (:class:`LoginFailed`);
* a token is checked against the database on every request: locking, deleting or resetting
  a user ends their sessions at once (their tokens are deleted), in this process or any other;
* a log-in trusts the users' chain, not the ``users`` row alone: the row's password, role, lock
  and deletion must be what the chain records (``people.chained``), so a password or role
  written into the database, even for a moment, logs no one in;
* a token names the account, the role and the expiry it was issued for, and is stored as its
  HMAC under a key derived from the ledger's signing key (:attr:`Auth.session_key`, kept outside
  the database): whoever can write the database can neither make a session (a row they insert
  matches no token) nor move one to another account or role (the row found must be the one
  the token names). Rotating the key ends every session.

>>> h = hash_password("correct horse")
>>> verify_password(h, "correct horse"), verify_password(h, "wrong")
(True, False)
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import os
import re
import secrets
import threading
import time
import urllib.parse
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy.engine import Connection, Engine
from starlette.concurrency import run_in_threadpool

from croupier.errors import Refusal
from croupier.money import fmt
from croupier.service import people, store, tokens
from croupier.service.errors import ApiError

if TYPE_CHECKING:
    from croupier.service.audit.keys import Signer

CLAUSE = people.CLAUSE
"""What a refusal to make, re-role, lock, unlock or delete an account cites: the house's own
control of who may act in its system (no regulation's clause speaks to accounts)."""


class Role(StrEnum):
    """The roles a user may have. Who may do what with a role is decided by the API's
    dependencies (``croupier.service.api.deps``); a rule of the role itself is said here."""

    PLAYER = "player"
    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    CASHIER = "cashier"
    AUDITOR = "auditor"
    ADMIN = "admin"

    @property
    def has_wallet(self) -> bool:
        """A player's account holds a wallet and a player's records, so it keeps its role.

        >>> Role.PLAYER.has_wallet, Role("dealer").has_wallet
        (True, False)
        """
        return self is Role.PLAYER


ROLES = tuple(Role)
TOKEN_SECONDS = 12 * 3600
PASSWORD_CHANGES = 10
"""The most times an account's holder changes their own password in :data:`CHANGES_SECONDS`.
Each change is a record of the users' chain, which every two-person check reads whole: a
player changing theirs in a loop added some twenty records a second, and at 20,000 records an
adjustment took 0.75 s (on SQLite in the event loop, where every table waited for it)."""
CHANGES_SECONDS = 24 * 3600
MAX_SESSIONS = 32
"""The most sessions an account holds at once: a log-in past it ends the account's oldest.
Sessions were never ended by time, only looked up by it: one account logging in in a loop
(some 40 a second) added a row a log-in for good, millions a day."""
_SESSIONS_LOCK = 0x73657373  # "sess": the class of the advisory locks on an account's sessions
SESSIONS = "croupier-sessions-v1"
"""The purpose the session key is derived for from the signing key (``Signer.derive``)."""
log = logging.getLogger("croupier.service")

# Interactive logins: argon2id with a modest memory cost so a login takes tens of milliseconds.
_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


def _lower_priority() -> None:
    """Run this thread at the lowest CPU priority (Linux sets niceness per thread), so that
    password checks use what the game leaves over."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


# Password checks run one at a time on one low-priority thread: a flood of log-ins queues
# here instead of taking every core from the tables.
_VERIFIER = ThreadPoolExecutor(1, thread_name_prefix="argon2", initializer=_lower_priority)

login_state = sa.Table(
    "login_state", store.metadata,
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("locked_until", sa.Float),
    sa.Column("lockouts", sa.Integer, nullable=False),
    sa.Column("deleted_at", sa.Float),
)


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    """Whether ``password`` matches; checked on the password thread (see :data:`_VERIFIER`)."""
    return _VERIFIER.submit(_verify, password_hash, password).result()


def _verify(password_hash: str, password: str) -> bool:
    try:
        return _HASHER.verify(password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def token_hash(token: str, key: bytes | None = None) -> str:
    """What a token is stored as: its HMAC-SHA256 under the session ``key`` (derived from the
    ledger's signing key, :data:`SESSIONS`), or its SHA-256 where there is none (a tool, a
    test). A copy of the database logs nobody in, and a row written into it matches no token
    unless its writer also holds the key.

    >>> token_hash("t") != token_hash("t", b"k") == token_hash("t", b"k")
    True
    """
    if key is None:
        return hashlib.sha256(token.encode()).hexdigest()
    return hmac.new(key, token.encode(), hashlib.sha256).hexdigest()


def session_key(signer: Signer | None) -> bytes | None:
    """The key a server seals its tokens with: derived from the ledger's signing key it holds
    (``croupier serve`` always holds one), so it lives outside the database; None without one
    (a tool, a test), which keeps plain SHA-256."""
    return None if signer is None else signer.derive(SESSIONS)


def new_token(user_id: int, username: str, role: str, expires: int) -> str:
    """A bearer token naming what it was issued for: ``ID.ROLE.EXPIRY.NAME.SECRET``. The name
    is there because the id alone is only a row's: the row an id finds names the account, and
    a row given another account's name (or two rows swapping theirs) would make a session act
    under that name, a second person to its own holder's requests. The secret is URL-safe
    base64, without a dot, so the name is everything between the expiry and the last dot.
    The name is percent-encoded (:func:`token_name`): a header carries ASCII, and an account
    name need not be (an older release's ``croupier init --admin`` took any name)."""
    return f"{user_id}.{role}.{expires}.{token_name(username)}.{secrets.token_urlsafe(32)}"


def token_name(username: str) -> str:
    """``username`` as a token carries it: percent-encoded UTF-8, so ASCII without a space
    (a name of letters, digits, ``_``, ``-`` and ``.`` is itself). One name, one spelling: a
    ``%`` of the name is encoded too, so no other name is carried alike.

    >>> [token_name(n) for n in ("dan", "ops.lead", "josé", "50%")]
    ['dan', 'ops.lead', 'jos%C3%A9', '50%25']
    """
    return urllib.parse.quote(username, safe="")


_NUMBER = re.compile(r"[0-9]{1,19}")
"""An id or an expiry as a token writes it: ASCII digits only, so ``int`` never fails on one."""


def bound(token: str, found: tuple[Any, ...], now: float) -> bool:
    """Whether ``found`` (the account's id, name and role), read under ``token``, is what the
    token was issued for: that account, by that name, in that role, before that expiry. A
    row moved to another account, an account given a role or a name behind the chain's
    back, or a row made to outlive its token is no session.

    >>> bound("7.dealer.2000.dan.x", (7, "dan", "dealer"), 1000.0)
    True
    >>> [bound(t, (7, "dan", "admin"), 1000.0) for t in (
    ...     "7.dealer.2000.dan.x", "8.admin.2000.dan.x", "7.admin.999.dan.x",
    ...     "7.admin.2000.eve.x", "7.admin.2000.x", "opaque")]
    [False, False, False, False, False, False]
    """
    parts = token.split(".", 3)
    if len(parts) != 4 or not (_NUMBER.fullmatch(parts[0]) and _NUMBER.fullmatch(parts[2])):
        return False
    name, dot, _ = parts[3].rpartition(".")
    return (int(parts[0]) == int(found[0]) and bool(dot) and name == token_name(str(found[1]))
            and parts[1] == str(found[2]) and int(parts[2]) > now)


@dataclass(frozen=True)
class User:
    id: int
    username: str
    role: str


class LoginFailed(Exception):
    """The log-in failed: wrong name or password, or the account is locked or deleted by an
    admin (not told apart)."""

    def __init__(self) -> None:
        super().__init__("wrong name or password, or the account is locked")


_USER_BY_TOKEN = (
    sa.select(store.users.c.id, store.users.c.username, store.users.c.role)
    .join(store.tokens, store.tokens.c.user_id == store.users.c.id)
    .outerjoin(login_state, login_state.c.user_id == store.users.c.id)
    .where(store.tokens.c.token_hash == sa.bindparam("h"),
           store.tokens.c.expires_at > sa.bindparam("now"),
           store.users.c.locked == sa.false(), login_state.c.deleted_at.is_(None)))


class Auth:
    """Log-ins and token look-ups (always from the database: no cache outlives a revocation)."""

    def __init__(self, engine: Engine, session_key: bytes | None = None) -> None:
        self.engine = engine
        self.session_key = session_key
        """The key tokens are sealed with (:func:`token_hash`): the server's is derived from
        the ledger's signing key, outside the database (``app.create_app``)."""
        self.revoked: list[Callable[[str], None]] = []
        """Called with a username whose sessions just ended (open streams close)."""
        # The look-up every request makes, on connections of its own (:mod:`.tokens`).
        self._lookup = tokens.TokenLookup(engine, _USER_BY_TOKEN)
        self._async_lookup = (None if store.is_sqlite(engine)
                              else tokens.AsyncTokenLookup(engine, _USER_BY_TOKEN))

    def token_hash(self, token: str) -> str:
        """What ``token`` is stored as at this server (:func:`token_hash` under its key)."""
        return token_hash(token, self.session_key)

    def create_user(self, conn: Connection, username: str, password: str, role: str, *,
                    made_by: str | None = None, actor: str = people.COMMAND_LINE) -> User:
        """A new account, recorded in the users' chain: ``made_by`` is the admin who made it
        through the API (None: made at the command line, an independent person)."""
        if role not in ROLES:
            raise ValueError(role)
        if username in people.SYSTEM_ACTORS:
            raise Refusal(f"{username!r} is the name the ledger records as the actor of "
                          f"{people.SYSTEM_ACTORS[username]}: an account takes another name",
                          CLAUSE)
        hashed = hash_password(password)
        result = conn.execute(store.users.insert().values(
            username=username, role=role, password_hash=hashed, made_by=made_by,
            failed_logins=0, locked=False, created_at=store.now()))
        user_id = int(result.inserted_primary_key[0])  # type: ignore[index]
        if Role(role).has_wallet:
            conn.execute(store.wallets.insert().values(player=username, balance_cents=0))
        people.append(conn, "created", username, {
            "role": role, "made_by": made_by, "password": people.password_digest(hashed)}, actor)
        return User(user_id, username, role)

    def login(self, username: str, password: str) -> tuple[str, User]:
        """A new bearer token, or :class:`LoginFailed` (the same for every reason). The caller
        throttles the guesses first (:class:`~croupier.service.throttle.LoginThrottle`)."""
        row, held = self._account(username)
        if row is None:
            verify_password(_DUMMY_HASH, password)  # the same time as a real check
            raise LoginFailed()
        if not verify_password(row.password_hash, password):
            raise LoginFailed()
        if not _as_chained(row, held):
            log.error("log-in as %s refused: the users table's row (password, role, lock or "
                      "deletion) is not what the users' chain records; run croupier audit "
                      "verify", username)
            raise LoginFailed()
        expires = int(store.now()) + TOKEN_SECONDS
        token = new_token(int(row.id), str(row.username), str(row.role), expires)
        with self.engine.begin() as conn:
            _make_room(conn, int(row.id))
            conn.execute(store.tokens.insert().values(
                token_hash=self.token_hash(token), user_id=row.id, expires_at=float(expires)))
        return token, User(row.id, row.username, row.role)

    def _account(self, username: str) -> tuple[Any, people.Person | None]:
        """The account that may log in as ``username`` (None if the name is unknown, deleted
        or locked by an admin), and the account as the users' chain leaves it."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(store.users.c.id, store.users.c.username, store.users.c.role,
                          store.users.c.password_hash)
                .outerjoin(login_state, login_state.c.user_id == store.users.c.id)
                .where(store.users.c.username == username, store.users.c.locked == sa.false(),
                       login_state.c.deleted_at.is_(None))).first()
            # The users' chain is read and checked whether the name is known or not: the
            # check of a long chain takes time, which would tell which names are accounts.
            held = people.chained(conn, username)
            return row, (held if row is not None else None)

    def user_for(self, token: str) -> User | None:
        """The user a bearer token belongs to, or None (unknown, expired, locked, deleted)."""
        now = time.time()
        found = self._lookup.row(self.token_hash(token), now)
        if found is None:  # that path is busy or failed: through the pool
            with self.engine.connect() as conn:
                row = conn.execute(_USER_BY_TOKEN, {"h": self.token_hash(token),
                                                    "now": now}).first()
            found = tuple(row) if row is not None else False
        return _user(token, found, now)

    async def user_for_async(self, token: str) -> User | None:
        """:meth:`user_for` from the event loop: on PostgreSQL without blocking it."""
        if self._async_lookup is None:  # SQLite answers in microseconds
            return self.user_for(token)
        now = time.time()
        found = await self._async_lookup.row(self.token_hash(token), now)
        if found is None:
            return await run_in_threadpool(self.user_for, token)
        return _user(token, found, now)

    def logout(self, token: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(store.tokens.delete().where(store.tokens.c.token_hash == self.token_hash(token)))

    def set_locked(self, username: str, locked: bool, actor: str | None = None) -> bool:
        """Lock (ending every session) or unlock (clearing guesses and any lock-out) an account,
        as admin ``actor`` (None: the command line); :class:`~croupier.errors.Refusal` if that would
        leave no admin."""
        with self.engine.begin() as conn:
            if actor is not None:
                acting_admin(conn, actor)
            if not locked:
                _not_deleted(conn, username)  # unlocking would not let it log in
            found = set_locked(conn, username, locked, actor or people.COMMAND_LINE)
        if locked and found:
            self._ended(username)
        return found

    def delete(self, username: str, actor: str | None = None) -> bool:
        """Delete an account as admin ``actor``: it can no longer log in and its sessions end
        at once (its records stay, for the ledger's sake); :class:`~croupier.errors.Refusal` if it is
        the last admin."""
        with self.engine.begin() as conn:
            if actor is not None:
                acting_admin(conn, actor)
            found = delete_user(conn, username, actor or people.COMMAND_LINE)
        if found:
            self._ended(username)
        return found

    def set_role(self, username: str, role: str, actor: str) -> bool:
        """Give ``username`` another role as admin ``actor`` (who is then recorded as the one
        it gained the role through); :class:`~croupier.errors.Refusal` if that would leave no admin."""
        with self.engine.begin() as conn:
            acting_admin(conn, actor)
            found = set_role(conn, username, role, actor, made_by=actor)
        if found:
            self._ended(username)
        return found

    def change_own_password(self, user: User, current: str, new: str) -> bool:
        """The account's holder chooses their own password (False: ``current`` is not its
        password; nothing changes). Recorded in the users' chain as the holder's own act, so
        the two-person rules count the account as a person of its own from then on; every
        session of the account ends (log in again with the new password)."""
        # Checking and hashing take argon2's time: both happen before the write transaction,
        # so no bet waits behind them; the transaction then makes sure the password checked is
        # still the account's.
        with self.engine.connect() as conn:
            _changes_left(conn, user.username)  # before argon2's time is spent on it
        checked = self._password_hash(user.id)
        if checked is None or not verify_password(checked, current):
            return False
        hashed = hash_password(new)
        with self.engine.begin() as conn:
            people.take_lock(conn)
            _changes_left(conn, user.username)  # under the lock: changes at once count too
            if _password_hash_in(conn, user.id) != checked:
                return False
            conn.execute(store.users.update().where(store.users.c.id == user.id).values(
                password_hash=hashed))
            _end_sessions(conn, user.id)
            people.append(conn, "password_changed", user.username,
                          {"password": people.password_digest(hashed)}, user.username)
        self._ended(user.username)
        return True

    def _password_hash(self, user_id: int) -> str | None:
        with self.engine.connect() as conn:
            return _password_hash_in(conn, user_id)

    def _ended(self, username: str) -> None:
        for callback in self.revoked:
            callback(username)


def _make_room(conn: Connection, user_id: int) -> None:
    """Before the account's new session: end its expired ones, and its oldest past
    :data:`MAX_SESSIONS` - 1 (a stream opened with one closes at its next check of the token).

    The account is locked first, to the end of the log-in's transaction (SQLite: its ``BEGIN
    IMMEDIATE`` already is the only writer; PostgreSQL: an advisory lock on the account), so
    that log-ins at once each count the sessions the one before left: each trimmed to 31 of
    the same sessions and added its own, past the cap. An advisory lock keyed by the account
    and taken by nothing else waits for no other lock, so it orders no other writer."""
    if conn.dialect.name != "sqlite":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:c, :k)"),
                     {"c": _SESSIONS_LOCK, "k": user_id})
    t = store.tokens.c
    conn.execute(store.tokens.delete().where(t.user_id == user_id,
                                             t.expires_at <= store.now()))
    newest = (sa.select(t.token_hash).where(t.user_id == user_id)
              .order_by(t.expires_at.desc()).limit(MAX_SESSIONS - 1))
    conn.execute(store.tokens.delete().where(t.user_id == user_id,
                                             t.token_hash.not_in(newest.scalar_subquery())))


def _changes_left(conn: Connection, username: str) -> None:
    """429 with ``Retry-After`` if ``username`` has changed their own password
    :data:`PASSWORD_CHANGES` times in the last :data:`CHANGES_SECONDS` (read from the users'
    chain, the account's own records only)."""
    count, wait = people.USERS.wait_for_room(conn, username, "password_changed",
                                             PASSWORD_CHANGES, CHANGES_SECONDS)
    if wait:
        raise ApiError(429, "too_many_changes", f"{username} has changed their password "
                       f"{count} times in the last {CHANGES_SECONDS // 3600} hours, the most "
                       f"an account does: try again in {wait} s", CLAUSE,
                       headers={"Retry-After": str(wait)})


def _password_hash_in(conn: Connection, user_id: int) -> str | None:
    row = conn.execute(sa.select(store.users.c.password_hash).where(
        store.users.c.id == user_id)).first()
    return None if row is None else str(row.password_hash)


def _user(token: str, found: tokens.Found, now: float) -> User | None:
    """The user a look-up found under ``token``, if it is the one the token names."""
    if not found or not bound(token, found, now):
        return None
    return User(int(found[0]), str(found[1]), str(found[2]))


def _as_chained(row: Any, held: people.Person | None) -> bool:
    """Whether the account row a log-in read is what the users' chain records: its password,
    its role, neither locked nor deleted."""
    if held is None:
        return False
    recorded = (held.password, held.role, held.locked, held.deleted)
    return recorded == (people.password_digest(row.password_hash), row.role, False, False)


# --- recovery for whoever holds the server's data (``croupier users ...``) ------------------

def _ensure_state(conn: Connection, user_id: int) -> None:
    if conn.execute(sa.select(login_state.c.user_id).where(
            login_state.c.user_id == user_id)).first() is None:
        conn.execute(login_state.insert().values(user_id=user_id, lockouts=0))


def _end_sessions(conn: Connection, user_id: int) -> None:
    conn.execute(store.tokens.delete().where(store.tokens.c.user_id == user_id))


def _account(conn: Connection, username: str) -> Any:
    """The account's row with its deletion mark, or None if there is no such user."""
    return conn.execute(sa.select(store.users.c.id, store.users.c.role, store.users.c.locked,
                                  login_state.c.deleted_at)
                        .outerjoin(login_state, login_state.c.user_id == store.users.c.id)
                        .where(store.users.c.username == username)).first()


def _active_admins(conn: Connection) -> set[str]:
    """The admins who can act: neither locked by an admin nor deleted."""
    return {str(r.username) for r in conn.execute(
        sa.select(store.users.c.username)
        .outerjoin(login_state, login_state.c.user_id == store.users.c.id)
        .where(store.users.c.role == Role.ADMIN.value, store.users.c.locked == sa.false(),
               login_state.c.deleted_at.is_(None)))}


def acting_admin(conn: Connection, actor: str) -> None:
    """Take the users' lock and check that ``actor`` is still an admin who can act: a request
    checked before another admin's change committed is judged as things now stand."""
    people.take_lock(conn)
    if actor not in _active_admins(conn):
        raise Refusal(f"{actor} is no longer an admin who can act (locked, deleted or "
                             "given another role since this request began)", CLAUSE)


def _keep_an_admin(conn: Connection, username: str, what: str) -> None:
    """Refuse a change that would leave no admin who can act (under the users' lock, so two
    admins removing each other at once leave one)."""
    people.take_lock(conn)
    admins = _active_admins(conn)
    if username in admins and len(admins) == 1:
        raise Refusal(f"{username} is the last admin who can act: {what} would leave "
                             "nobody to manage users and tables (make or restore another "
                             "admin first)", CLAUSE)


def set_locked(conn: Connection, username: str, locked: bool,
               actor: str = people.COMMAND_LINE) -> bool:
    """Lock or unlock ``username`` in ``conn``'s transaction; False if there is no such user.
    Locking ends every session; unlocking clears the guesses and any lock-out (tokens from
    before the lock stay ended). Recorded in the users' chain."""
    row = _account(conn, username)
    if row is None:
        return False
    if locked:
        _keep_an_admin(conn, username, "locking them")
    conn.execute(store.users.update().where(store.users.c.id == row.id)
                 .values(locked=locked, failed_logins=0))
    _ensure_state(conn, row.id)
    conn.execute(login_state.update().where(login_state.c.user_id == row.id)
                 .values(locked_until=None, lockouts=0))
    if locked:
        _end_sessions(conn, row.id)
    people.append(conn, "locked" if locked else "unlocked", username, {}, actor)
    return True


def holdings(conn: Connection, username: str) -> list[str]:
    """What ``username`` holds, in words: the money in their wallet and the chips and wagers
    at each table (the ledger's rows, written with the events and entries that moved them);
    empty if nothing. On PostgreSQL the wallet's row is held to the end of the transaction,
    so no move at the cage and no buy-in commits in between."""
    w = store.wallets.c
    query = sa.select(w.balance_cents).where(w.player == username)
    balance = conn.execute(query if conn.dialect.name == "sqlite"
                           else query.with_for_update()).scalar()
    held = [f"{fmt(store.dollars(int(balance)))} in the wallet"] if balance else []
    seat = store.seats.c
    for r in conn.execute(sa.select(seat.table_id, seat.chips_cents, seat.on_table_cents).where(
            seat.player == username, (seat.chips_cents > 0) | (seat.on_table_cents > 0))
            .order_by(seat.table_id)):
        held.append(f"{fmt(store.dollars(int(r.chips_cents)))} in chips and "
                    f"{fmt(store.dollars(int(r.on_table_cents)))} in wagers at table "
                    f"{r.table_id}")
    return held


def delete_user(conn: Connection, username: str, actor: str) -> bool:
    """Mark ``username`` deleted and end its sessions; False if there is no such user. A
    :class:`~croupier.errors.Refusal` names what they still hold (:func:`holdings`)."""
    row = _account(conn, username)
    if row is None:
        return False
    if row.deleted_at is not None:
        raise Refusal(f"{username} is already deleted", CLAUSE)
    _keep_an_admin(conn, username, "deleting them")
    held = holdings(conn, username)
    if held:
        raise Refusal(f"{username} holds {'; '.join(held)}: an account is deleted only once "
                      "it holds nothing (cash out the chips at each table, then the wallet at "
                      "the cage)", CLAUSE)
    _ensure_state(conn, row.id)
    conn.execute(login_state.update().where(login_state.c.user_id == row.id)
                 .values(deleted_at=store.now()))
    _end_sessions(conn, row.id)
    people.append(conn, "deleted", username, {}, actor)
    return True


def set_role(conn: Connection, username: str, role: str, actor: str,
             made_by: str | None) -> bool:
    """Give ``username`` ``role``; ``made_by`` is who it gains the role through (None: the
    command line). False if there is no such user."""
    if role not in ROLES:
        raise Refusal(f"there is no role {role!r}", CLAUSE)
    row = _account(conn, username)
    if row is None:
        return False
    if Role(row.role).has_wallet or Role(role).has_wallet:
        raise Refusal("a player's account keeps its role (its wallet and records are a "
                             "player's); make a new account instead", CLAUSE)
    if role != Role.ADMIN:
        _keep_an_admin(conn, username, f"making them {role}")
    conn.execute(store.users.update().where(store.users.c.id == row.id).values(
        role=role, made_by=made_by))
    _end_sessions(conn, row.id)  # a session carries the role it was opened with
    people.append(conn, "role_changed", username, {"role": role, "made_by": made_by}, actor)
    return True


def restore_user(conn: Connection, username: str) -> bool:
    """Undelete ``username`` (for ``croupier users restore``); False if there is no such user.
    :class:`~croupier.errors.Refusal` if it is not deleted."""
    row = _account(conn, username)
    if row is None:
        return False
    if row.deleted_at is None:
        raise Refusal(f"{username} is not deleted", CLAUSE)
    conn.execute(login_state.update().where(login_state.c.user_id == row.id)
                 .values(deleted_at=None))
    people.append(conn, "restored", username, {}, people.COMMAND_LINE)
    return True


def refuse_deleted(conn: Connection, player: str, what: str) -> None:
    """Refuse ``what`` (money or a coupon for ``player``) if ``player``'s account is deleted: an
    account is deleted only once it holds nothing (:func:`delete_user`), and nothing is put in
    it afterwards, where no one can spend it or ask for it (until ``croupier users restore``).
    Read after the caller holds the player's wallet row, which a deletion holds as it reads
    what the account holds: of a deletion and a deposit at once, one is refused."""
    if _is_deleted(conn, player):
        raise Refusal(f"{player}'s account is deleted: {what} is not put in it (restore it "
                      f"first: croupier users restore {player})", CLAUSE)


def _is_deleted(conn: Connection, username: str) -> bool:
    row = _account(conn, username)
    return row is not None and row.deleted_at is not None


def _not_deleted(conn: Connection, username: str) -> None:
    if _is_deleted(conn, username):
        raise Refusal(f"{username} is deleted: a deleted account cannot log in, "
                             f"whatever its password; restore it first (croupier users "
                             f"restore {username})", CLAUSE)


def unlock_user(conn: Connection, username: str) -> bool:
    """Unlock ``username`` (for ``croupier users unlock``); False if there is no such user,
    :class:`~croupier.errors.Refusal` if it is deleted (unlocking would not let it log in)."""
    _not_deleted(conn, username)
    return set_locked(conn, username, False)


def reset_password(conn: Connection, username: str, password: str) -> bool:
    """Give ``username`` a new password, unlock it and end its sessions (for ``croupier users
    reset-password``); False if there is no such user, :class:`~croupier.errors.Refusal` if it is
    deleted."""
    _not_deleted(conn, username)
    row = _account(conn, username)
    if row is None:
        return False
    hashed = hash_password(password)
    conn.execute(store.users.update().where(store.users.c.id == row.id).values(
        password_hash=hashed, locked=False, failed_logins=0))
    _ensure_state(conn, row.id)
    conn.execute(login_state.update().where(login_state.c.user_id == row.id)
                 .values(locked_until=None, lockouts=0))
    _end_sessions(conn, row.id)
    people.append(conn, "password_reset", username,
                  {"password": people.password_digest(hashed)}, people.COMMAND_LINE)
    return True


_DUMMY_HASH = hash_password("not a password anyone has")


def new_password() -> str:
    """A generated password (about 96 bits)."""
    return secrets.token_urlsafe(12)
