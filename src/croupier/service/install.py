"""``croupier init``: a new ledger made on purpose, and the password policy.

``init`` creates the data folder (mode 0700) and the database, runs the migrations, creates the
signing key outside the database and its folder (``DATA_DIR-anchors/``, see ``audit.keys``)
and records it, and creates one admin whose
password meets the policy (given, or generated and printed once). With ``--demo`` it also
creates the demo: staff and players, wallets, a craps and a roulette table and inspected dice,
with generated passwords (or one given that meets the policy). Run on a ledger that exists
(one written by an older release, say) it upgrades it and adds the key if it has none, and
moves a key an older release kept inside the data folder (with its pin and retired keys) out
to the anchors folder; it never replaces or empties anything.

>>> password_problem("alice", "short")
'a password has at least 12 characters'
>>> password_problem("alice-the-player", "alice-the-player")
'a password is not the user name'
>>> password_problem("alice", "a long enough passphrase") is None
True
>>> name_problem("Ops Lead")
"'Ops Lead': a user name is a lower-case letter, then 1 to 31 lower-case letters, digits, '_' or '-'"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from croupier.service import preflight, store
from croupier.service.audit import chain, keys, seeding
from croupier.service.audit.keys import Signer

MIN_PASSWORD = 12


def password_problem(username: str, password: str) -> str | None:
    """Why ``password`` does not meet the policy, or None if it does."""
    if len(password) < MIN_PASSWORD:
        return f"a password has at least {MIN_PASSWORD} characters"
    if password.strip().lower() == username.lower():
        return "a password is not the user name"
    if len(set(password)) < 4:
        return "a password has at least 4 different characters"
    return None


def name_problem(username: str) -> str | None:
    """Why ``username`` is no account name the API takes (``api.models.NAME``: what
    ``POST /users`` and ``croupier users add`` hold a name to), or None if it is one. An
    account the command line made under any other name could not be named in the API's
    paths (``/users/{username}/...``): no admin could lock it, give it a role or reset it."""
    import re

    from croupier.service.api.models import NAME

    if re.fullmatch(NAME, username):
        return None
    return (f"{username!r}: a user name is a lower-case letter, then 1 to 31 lower-case "
            "letters, digits, '_' or '-'")


class InitError(Exception):
    """``init`` cannot go on; the message says why."""


@dataclass
class Initialised:
    """What ``init`` did, for the command to print."""

    created: bool
    key_path: Path
    key_created: bool
    key_id: str
    logins: dict[str, str] = field(default_factory=dict)
    demo: bool = False
    key_inside: bool = False
    test: bool = False
    """A test ledger (``--test-mode``): a seeded RNG may serve it."""


def _sqlite_url(data_dir: Path) -> str:
    preflight.private_files()
    data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = data_dir / preflight.DB_NAME
    if path.exists():
        preflight.sqlite_file(data_dir)  # an empty or damaged file is never taken over
    return f"sqlite:///{path.resolve()}"


def signer_for(engine: Engine, path: Path) -> tuple[Signer, bool]:
    """The ledger's key: loaded from ``path``, or created there when the ledger has none.
    A key file that belongs to another ledger is refused."""
    with engine.connect() as conn:
        known = {r.key_id for r in conn.execute(sa.select(store.ledger_keys.c.key_id))}
    if path.exists():
        signer = keys.load_key(path)
        if known and signer.key_id not in known:
            raise InitError(f"the key in {path} is not one of this ledger's keys")
        created = False
    elif known:
        raise InitError(f"this ledger's signing key is not at {path}: give its path with "
                        "--key-file (or CROUPIER_LEDGER_KEY); a ledger never gets a second "
                        "first key")
    else:
        signer, created = keys.create_key(path), True
    if signer.key_id not in known:
        with engine.begin() as conn:
            conn.execute(store.ledger_keys.insert().values(
                **keys.introduction(signer, None, store.now())))
    return signer, created


@dataclass(frozen=True)
class FirstUsers:
    """Who a new ledger starts with: an admin (``admin_password``; None: one is made and
    shown once), or with ``demo`` the demo's staff and players (``demo_password``; None: one
    each, shown once)."""

    admin: str = "admin"
    admin_password: str | None = None
    demo: bool = False
    demo_password: str | None = None


def init(data_dir: Path, database: str | None, key_file: Path | None,
         users: FirstUsers, test_mode: bool = False) -> Initialised:
    """Initialise (or upgrade and key) a ledger; see the module's docstring. ``test_mode``:
    a new ledger is made a test ledger (``audit.seeding``), which only it can be: on a ledger
    that exists, it is refused unless that ledger already is one."""
    # A ledger must not start with an admin no route names; one that init only upgrades
    # creates no admin, so an older command naming one is run again as it was.
    misnamed = None if users.demo else name_problem(users.admin)
    if misnamed and database is None and not (data_dir / preflight.DB_NAME).exists():
        raise _misnamed(misnamed)  # a new SQLite ledger: before its file is made
    for name, given in ((users.admin, users.admin_password),
                        ("demo users", users.demo_password)):
        problem = given is not None and password_problem(name, given)
        if problem:
            raise InitError(f"{problem} (the password given for {name})")
    url = database or _sqlite_url(data_dir)
    try:
        engine = store.make_engine(url)
    except ValueError as exc:  # a URL no ledger can live at
        raise InitError(str(exc)) from exc
    try:
        if misnamed and not preflight.initialised(engine):
            raise _misnamed(misnamed)  # before the schema is made (this only reads)
        store.upgrade(engine)
        path = keys.key_path(data_dir, key_file)
        if key_file is None and path == keys.legacy_key_path(data_dir):
            path = move_out(data_dir)
        # Before anything is made or recorded, the key's introduction too: a new database
        # refused here keeps no other ledger's key, so a key folder of its own still makes it.
        _reaches_pin(engine, path)
        signer, key_created = signer_for(engine, path)
        done = Initialised(False, path, key_created, signer.key_id, demo=users.demo,
                           key_inside=database is None and keys.inside(path, data_dir))
        writer = chain.Checkpointer(engine, signer, pin_path(path))
        try:
            # The writers' turn is taken before the ledger is made and kept until it is
            # signed: another process holding it past the bounded wait gave up after the
            # ledger and its admin were made, the admin's password (made here, shown once)
            # never shown, and the init run again only upgraded it, so nobody could log in.
            with writer.holding():
                _make_and_sign(engine, signer, writer, users, test_mode, done)
        except chain.BehindPin as exc:
            raise InitError(str(exc)) from None
        except chain.WriterBusy as exc:
            raise InitError(f"{exc}: no user was made and nothing signed; run croupier init "
                            "again once that process is done") from None
        return done
    finally:
        engine.dispose()


def _reaches_pin(engine: Engine, path: Path) -> None:
    """InitError unless the ledger holds the checkpoint pinned beside the key ``path`` (its
    checkpoint would be signed past it: :func:`chain.reaches_pin`); for a database no init
    made yet, saying that the pin is another ledger's."""
    with store.reading(engine) as conn:
        try:
            chain.reaches_pin(conn, pin_path(path))
            return
        except chain.BehindPin as exc:
            behind = exc
    if preflight.initialised(engine):
        raise InitError(str(behind))
    raise InitError(f"{behind}. This database is a new ledger, and the pin beside the key "
                    f"{path} is another ledger's: give the new ledger a key folder of its own "
                    "(--key-file, or another --data-dir), or move that key and pin aside if "
                    "their ledger is gone")


def _mode(engine: Engine, signer: Signer, test_mode: bool, new: bool) -> None:
    """A new ledger made a test ledger (its mark written first), or not; on a ledger that
    exists, ``test_mode`` refused unless it is one already (no ledger becomes one later)."""
    if not new:
        if test_mode and not seeding.is_test_ledger(engine, signer):
            raise InitError("this ledger was not made a test ledger, and no ledger becomes one "
                            "afterwards (a seeded RNG would then draw on a production "
                            "ledger): make a new one with croupier init --test-mode on an "
                            "empty data folder or database")
        return
    with engine.begin() as conn:
        if not test_mode:
            if seeding.begun_as_test(conn):  # an init --test-mode cut short
                raise InitError("this database was begun as a test ledger by croupier init "
                                "--test-mode, cut short: run that again, or make a production "
                                "ledger in an empty data folder or database")
            return
        try:
            seeding.mark(conn)
        except seeding.CannotMark as exc:
            raise InitError(str(exc)) from exc


def _misnamed(problem: str) -> InitError:
    return InitError(f"{problem} (the name given for the first admin, --admin)")


def _make_and_sign(engine: Engine, signer: Signer, writer: chain.Checkpointer,
                   users: FirstUsers, test_mode: bool, done: Initialised) -> None:
    """The ledger made (or upgraded) and its first checkpoint signed, under the turn."""
    if not preflight.initialised(engine):
        done.created = True
        _mode(engine, signer, test_mode, new=True)  # first: the checkpoint below signs it
        done.logins = _first_users(engine, users)
    else:
        _mode(engine, signer, test_mode, new=False)
    done.test = test_mode
    # Only the init that made the ledger signs as init: the mark counts under that
    # checkpoint alone. An older release's ledger has no checkpoint until this upgrade
    # signs its first, and a database writer could put a mark first in its unsigned house
    # chain beforehand; signed as init, it made the production ledger a test ledger.
    writer.write(seeding.INIT if done.created else seeding.UPGRADE)


def _first_users(engine: Engine, users: FirstUsers) -> dict[str, str]:
    from croupier.service import demo as demo_data
    from croupier.service.auth import Auth, new_password

    if users.demo:
        return demo_data.seed(engine, users.demo_password or None) or {}
    password = users.admin_password or new_password()
    with engine.begin() as conn:
        Auth(engine).create_user(conn, users.admin, password, "admin")
    return {users.admin: password} if users.admin_password is None else {}


def move_out(data_dir: Path) -> Path:
    """Move ``ledger.key``, its pin and any retired key from the data folder to the anchors
    folder (never over a file there); the key's new path."""
    target = keys.anchors_dir(data_dir)
    target.mkdir(parents=True, exist_ok=True, mode=0o700)
    for old in sorted(data_dir.glob(keys.KEY_NAME + "*")):
        new = target / old.name
        if new.exists():
            raise InitError(f"{old} would be moved out of the data folder to {new}, which "
                            "exists: move one of them by hand")
        old.rename(new)
    return target / keys.KEY_NAME


def pin_path(key_path: Path) -> Path:
    """The pin file of the latest checkpoint: beside the key, outside the database."""
    return key_path.with_name(key_path.name + ".pin")
