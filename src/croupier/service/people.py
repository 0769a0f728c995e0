"""The users' chain: who holds an account, in which role, and who made them so.

Creating a user, changing their role, locking, unlocking, resetting a password, deleting and
restoring are records of a hash chain of their own (``user_records``), hashed like the house's
records (``service/register.py``) from :data:`GENESIS`; its head is signed in every checkpoint.
The ``users`` table (role, admin lock, who made the account, a digest of the password hash) and
the deletion mark in ``login_state`` are a projection of this chain: ``audit verify`` folds the
chain (:func:`fold`) and names every account whose row differs (:func:`check`). A ledger from
before the chain gets a ``genesis`` record listing its accounts as they stood (migration 0006).

Every record names who made the account or gave it its role (``made_by``): an admin, when it
was done through the API; nobody (``None``) when it was done at the command line by whoever
holds the data, so the account is an independent person. The two-person rules read these
links, and who chose each password last (:func:`hands`): see docs/two-person-rules.md.

>>> chain = [
...     {"kind": "genesis", "subject": "", "actor": "croupier", "payload": '{"users":[{'
...      '"username":"ann","role":"admin","locked":false,"deleted":false,"made_by":null,'
...      '"password":"x"}]}'},
...     {"kind": "created", "subject": "sam", "actor": "ann",
...      "payload": '{"role":"supervisor","made_by":"ann","password":"y"}'},
...     {"kind": "created", "subject": "sue", "actor": "ann",
...      "payload": '{"role":"supervisor","made_by":"ann","password":"z"}'}]
>>> people = fold(chain)
>>> people["sam"].made_by, people["ann"].made_by
('ann', None)
>>> held = hands(chain)
>>> held.why_one("sam", "ann") is not None, held.why_one("sam", "sue") is not None
(True, True)
>>> chain.append({"kind": "password_changed", "subject": "sue", "actor": "sue",
...               "payload": '{"password":"w"}'})
>>> hands(chain).why_one("sam", "sue") is None  # both still came from ann
False
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from croupier.service import store
from croupier.service.audit.canonical import FORMAT, canonical, link
from croupier.service.audit.snapshot import Finding, account_rows
from croupier.service.audit.snapshot import password_digest as password_digest
from croupier.service.errors import ApiError
from croupier.service.register import RecordChain, record_text

user_records = store.user_records

GENESIS = link(FORMAT, canonical({"users": "records"}))
"""Where the users' chain starts."""
WHERE = "users"
COMMAND_LINE = "command line"
"""The actor of a record made at the command line, by whoever holds the data."""
CLAUSE = "the house's user accounts (internal controls)"
"""What a refusal about accounts cites: the house's own control of who may act in its system
and who counts as a second person (no regulation's clause speaks to accounts)."""
SYSTEM_ACTORS = {
    "integrity-monitor": "a fairness monitor's alerts and the change of dice it calls",
    "croupier": "the server's own records (the users' chain's first record, a pay table "
                "change it stops)",
    "operator": "a recovery declared at the command line",
    "pay-table-schedule": "a scheduled pay table change applied",
    "system": "the system's own acts",
}
"""Names the ledger records as the actor of acts no account did: no account takes one, so a
record by an account never reads as the system's."""
_APPEND_LOCK = 0x75736572  # "user": orders every change of accounts on PostgreSQL
KINDS = ("genesis", "created", "role_changed", "locked", "unlocked", "password_reset",
         "password_changed", "deleted", "restored")


USERS = RecordChain(user_records, GENESIS, WHERE, _APPEND_LOCK)
"""The users' chain, hashed and appended as the house's is."""


def take_lock(conn: Connection) -> None:
    """Hold the users' lock to the end of ``conn``'s transaction (PostgreSQL; SQLite's write
    transaction is already the only one): every check of accounts made after it sees every
    change committed before, and no change commits until this transaction ends."""
    USERS.lock(conn)


def append(conn: Connection, kind: str, username: str, payload: Mapping[str, Any],
           actor: str) -> dict[str, Any]:
    """Append one record in ``conn``'s transaction (under the users' lock); its row."""
    return USERS.append(conn, kind, username, payload, actor)


def genesis_row(accounts: list[dict[str, Any]], at: float) -> dict[str, Any]:
    """The first record of a ledger's users' chain: its accounts as they stood."""
    row: dict[str, Any] = {"seq": 1, "kind": "genesis", "subject": "",
                           "payload": canonical({"users": accounts}), "actor": "croupier",
                           "at": at}
    row["hash"] = link(GENESIS, record_text(row))
    return row


def head(conn: Connection) -> list[Any] | None:
    """The chain's head ``[seq, hash]``, or None while it has no record."""
    return USERS.head(conn)


# --- the projection -------------------------------------------------------------------------

@dataclass(frozen=True)
class Person:
    """An account as its records leave it."""

    username: str
    role: str
    locked: bool
    deleted: bool
    made_by: str | None
    password: str


def fold(records: Iterable[Mapping[str, Any]]) -> dict[str, Person]:
    """Every account as the chain's records leave it, by name."""
    people: dict[str, Person] = {}
    for r in records:
        _step(people, r)
    return people


def _step(people: dict[str, Person], r: Mapping[str, Any]) -> None:
    """Fold one record into ``people``."""
    data = json.loads(r["payload"])
    name = str(r["subject"])
    if r["kind"] == "genesis":
        for a in data["users"]:
            people[a["username"]] = Person(a["username"], a["role"], bool(a["locked"]),
                                           bool(a["deleted"]), a["made_by"], a["password"])
    elif r["kind"] == "created":
        people[name] = Person(name, data["role"], False, False, data["made_by"],
                              data["password"])
    elif name in people:
        people[name] = _changed(people[name], str(r["kind"]), data)


def _changed(p: Person, kind: str, data: dict[str, Any]) -> Person:
    if kind == "role_changed":
        return replace(p, role=data["role"], made_by=data["made_by"])
    if kind in ("locked", "unlocked"):
        return replace(p, locked=kind == "locked")
    if kind == "password_reset":
        return replace(p, password=data["password"], locked=False)
    if kind == "password_changed":
        return replace(p, password=data["password"])
    if kind in ("deleted", "restored"):
        return replace(p, deleted=kind == "deleted")
    return p


@dataclass(frozen=True)
class Hands:
    """Who each account's acts can come from, by the users' chain: everyone who ever made it
    or gave it a role (a later role does not wipe an earlier maker), and who chose its password
    last (an admin through the API, until the account's holder chooses their own)."""

    makers: dict[str, set[str]]
    holder: dict[str, str]

    def lineage(self, name: str) -> set[str]:
        """Every account ``name`` came through, directly or in turn."""
        out: set[str] = set()
        todo = list(self.makers.get(name, ()))
        while todo:
            maker = todo.pop()
            if maker not in out:
                out.add(maker)
                todo.extend(self.makers.get(maker, ()))
        return out

    def why_one(self, a: str, b: str) -> str | None:
        """Why ``a`` and ``b`` are one person (None: two)."""
        for x, y in ((a, b), (b, a)):
            if x in self.lineage(y):
                return (f"{y}'s account or role came from {x} (made through the API by them, "
                        "or by an account they made): one person, not two")
        shared = sorted(self.lineage(a) & self.lineage(b))
        if shared:
            # Whoever made both can hold both: a password the holder "chooses" may be typed
            # by the maker, so only a maker outside the other's line makes a second person.
            return (f"{a} and {b} both came from {shared[0]} (made, or given their role, "
                    "through the API by them or by an account they made): one person, not two")
        held = {a: self.holder.get(a, a), b: self.holder.get(b, b)}
        for x, y in ((a, b), (b, a)):
            if held[x] == y:
                chosen = f"{x}'s password was last chosen by {y}"
            elif held[x] == held[y] != x:
                chosen = f"the passwords of {x} and {y} were both last chosen by {held[x]}"
            else:
                continue
            return (f"{chosen} (an account's holder sets their own, POST /me/password, to act "
                    "as a person of their own): one person, not two")
        return None


def hands(records: Iterable[Mapping[str, Any]]) -> Hands:
    """:class:`Hands` from the users' chain's records, in order."""
    held = Hands({}, {})
    for r in records:
        add_hand(held, r)
    return held


def add_hand(held: Hands, r: Mapping[str, Any]) -> None:
    """Fold the users' chain's next record ``r`` into ``held`` (the audit reads decisions
    against the chain as it grew, one record at a time, not folded again for each)."""
    makers, holder = held.makers, held.holder
    kind, name, actor = r["kind"], str(r["subject"]), str(r["actor"])
    data = json.loads(r["payload"])
    if kind == "genesis":
        for a in data["users"]:
            if a["made_by"] is not None:
                makers.setdefault(a["username"], set()).add(a["made_by"])
    if kind in ("created", "role_changed") and data.get("made_by") is not None:
        makers.setdefault(name, set()).add(data["made_by"])
    if kind in ("created", "password_reset", "password_changed"):
        # Chosen at the command line (by whoever holds the data) or by its holder: theirs.
        holder[name] = name if actor in (COMMAND_LINE, name) else actor


_PINS: dict[str, Path] = {}
"""Where the pin of each served ledger's last signed checkpoint lives (outside the database:
beside the key), by the database's URL (:func:`anchor`); a ledger with none (a tool, a test)
has its users' chain only checked to link."""


_CHECKED: dict[str, tuple[list[dict[str, Any]], dict[int, str]]] = {}
"""The users' chain last found to link, with its hashes, by the database's URL: records equal
to them, field by field, are not hashed again (an entered result checks the chain each time)."""


def anchor(engine: Engine, pin_path: Path | None) -> None:
    """Check the users' chain of the ledger in ``engine`` against the pin at ``pin_path``
    whenever it decides who counts as a second person (the server does, as it starts)."""
    if pin_path is not None:
        _PINS[str(engine.url)] = pin_path


def trusted(conn: Connection) -> list[dict[str, Any]]:
    """The users' chain's records, once checked to be the chain: each links to the one
    before, and the head the last signed checkpoint pinned outside the database is still in
    it. Who counts as a second person is decided from these records, and a record edited in
    the database for the moment of one approval (an account's maker taken out), then put
    back, would leave the audit nothing to find: so an edit is refused here, when it would
    decide, not only named by the next audit. A chain rewritten with its hashes recomputed
    links, and is caught by the pin for every record up to the last checkpoint (written at
    most seconds after any change). Refused (409) with where the chain fails."""
    url = str(conn.engine.url)
    # The pin first, as the audit reads it (audit.chain.PinRead): a checkpoint is pinned once
    # committed, so the chain read after it holds its head. Read the other way round, a log-in
    # (which reads without the users' lock) could find an account made, signed and pinned
    # between the two reads: a head not in the chain it read, and refuse a chain that holds.
    pinned = _pinned_head(_PINS.get(url))
    chain = records(conn)
    checked = _CHECKED.get(url)
    findings: list[Finding] = []
    if checked is not None and checked[0] == chain:
        hashes = checked[1]  # the very records checked before: no hashing again
    else:
        hashes, findings = recompute(chain)
        if not findings:
            _CHECKED[url] = (chain, hashes)
    problem = findings[0].what if findings else None
    where = findings[0].seq if findings else None
    if problem is None and pinned is not None and hashes.get(pinned[0]) != pinned[1]:
        problem = ("it no longer holds the head the last signed checkpoint pinned outside "
                   "the database: a record was changed, removed or its hashes rewritten")
        where = pinned[0]
    if problem is not None:
        raise ApiError(409, "refused", f"the users' chain does not hold at record {where} "
                       f"({problem}): no one is counted a second person, nor one person "
                       "with anyone, from it until croupier audit verify has been run and "
                       "the chain put right", CLAUSE)
    return chain


def _pinned_head(path: Path | None) -> tuple[int, str] | None:
    """The users' chain's head ``(seq, hash)`` as the checkpoint pinned at ``path`` signed
    it, or None when there is no pin (yet) or the checkpoint signed no users' chain. A pin
    that cannot be read is refused as a chain that does not hold: without it, no edit could
    be told."""
    if path is None or not path.exists():
        return None
    try:
        pin = json.loads(path.read_text(encoding="utf-8"))
        heads = pin["checkpoint"]["heads"]
        users = (json.loads(heads) if isinstance(heads, str) else heads).get("users")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise ApiError(409, "refused", f"the pin file {path} cannot be read: no one is "
                       "counted a second person until it is put back", CLAUSE) from None
    return None if users is None else (int(users[0]), str(users[1]))


def not_independent(conn: Connection, proposer: str, approver: str) -> str | None:
    """Why ``approver`` may not be the second person to ``proposer``'s act (None: they may):
    the same person, one who came into being or gained a role through the other, or two
    accounts whose passwords the same person chose last (:class:`Hands`, read from the users'
    chain). Read under the users' lock, so an account made or re-roled at the same moment is
    seen."""
    take_lock(conn)
    if proposer == approver:
        return f"{approver} asked for it; a second person approves"
    return hands(trusted(conn)).why_one(proposer, approver)


def own_account(conn: Connection, staff: str, player: str) -> str | None:
    """Why ``player``'s account is ``staff``'s own, one person with them by :class:`Hands`
    (None: it is not): the house's money handed to a player (an adjustment, a match play
    coupon) is never handed by, or approved by, the player themselves under another name."""
    take_lock(conn)
    return hands(trusted(conn)).why_one(staff, player)


def one_person(conn: Connection, name: str) -> set[str]:
    """Every account that is one person with ``name`` by :class:`Hands` (``name`` included),
    read from the users' chain under the users' lock: what a limit on one person counts."""
    take_lock(conn)
    chain = trusted(conn)
    held = hands(chain)
    return {name} | {other for other in fold(chain) if held.why_one(name, other) is not None}


# --- the rows as they stand, and the audit's comparison -------------------------------------

def rows(conn: Connection) -> list[dict[str, Any]]:
    """The accounts as the ``users`` table (and the deletion marks) hold them, in the form
    :func:`check` compares: a password as its digest."""
    return account_rows(conn)


def people(conn: Connection) -> dict[str, Person]:
    """Every account as it stands (the rows: the projection the audit checks)."""
    return {r["username"]: Person(**r) for r in rows(conn)}


def chained(conn: Connection, username: str) -> Person | None:
    """``username``'s account as the users' chain leaves it (the chain's first record and the
    account's own), or None if the chain records no such account: what a log-in trusts, so an
    account row edited in the database logs no one in (``auth.Auth.login``)."""
    try:
        chain = trusted(conn)  # the whole chain: a record edited for one log-in opens none
    except ApiError:
        return None  # refused as a row that differs from the chain: the log says to audit
    # Only the first record and the account's own are folded: they alone make its account,
    # and decoding every account's records at each log-in took as long as reading them.
    return fold(r for r in chain if r["subject"] in ("", username)).get(username)


def records(conn: Connection) -> list[dict[str, Any]]:
    return [dict(r._mapping) for r in conn.execute(
        sa.select(user_records).order_by(user_records.c.seq))]


def recompute(chain: list[dict[str, Any]]) -> tuple[dict[int, str], list[Finding]]:
    """Every hash of the chain by ``seq`` and the first record out of place or changed (named
    by kind and account only: a payload holds a password's digest), and the first whose
    payload cannot be read: folded, it stopped the audit and every two-person decision with
    an internal error, and written with its hash recomputed (after the last checkpoint) it
    would otherwise pass :func:`trusted`'s check, which now refuses it."""
    hashes, findings = USERS.recompute(chain, lambda r: f"{r['kind']} {r['subject']}")
    for r in chain:
        if not _is_readable(r):
            findings.append(Finding(WHERE, int(r["seq"]), (
                f"the record ({r['kind']} {r['subject']}) cannot be read: its payload is not "
                "the JSON object croupier writes")))
            break
    return hashes, findings


def _is_readable(r: Mapping[str, Any]) -> bool:
    try:
        return isinstance(json.loads(r["payload"]), dict)
    except (ValueError, TypeError):
        return False


def readable(chain: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The chain's records whose payload can be read, for the audit's folds (one that cannot
    is named by :func:`recompute`)."""
    return [r for r in chain if _is_readable(r)]


def check(chain: list[dict[str, Any]], accounts: list[dict[str, Any]]) -> list[Finding]:
    """Each account as the ``users`` table holds it against the chain's fold: every one that
    differs, or that one has and the other has not, is named."""
    folded = fold(chain)
    findings: list[Finding] = []
    held = {a["username"]: Person(**a) for a in accounts}
    for name in sorted(set(folded) | set(held)):
        want, got = folded.get(name), held.get(name)
        where = f"user {name}"
        if want is None:
            findings.append(Finding(where, None, "the account is in the users table but in no "
                                    "record of the users' chain: it was added to the database"))
        elif got is None:
            findings.append(Finding(where, None, "the users' chain records this account and "
                                    "the users table has no row for it"))
        elif got != want:
            what = ", ".join(f"{f} is {getattr(got, f)!r} where the chain says "
                             f"{getattr(want, f)!r}" if f != "password" else
                             "the password hash is not the one the chain recorded"
                             for f in ("role", "locked", "deleted", "made_by", "password")
                             if getattr(got, f) != getattr(want, f))
            findings.append(Finding(where, None, what))
    return findings


# --- acts of accounts that could not act ---------------------------------------------------

ENDED_GRACE = 60.0
"""Seconds after an account is locked or deleted in which its acts are not named: a request
whose token was checked just before the lock ended its sessions may still be written just
after it."""

Act = tuple[str, int, str, float]
"""An act as a chain records it: where (a table, a wallet, the house's records), which record,
the actor's name and when."""


def ended_spans(chain: Iterable[Mapping[str, Any]]) -> dict[str, list[tuple[float, float]]]:
    """When each account could not act, by the users' chain: the spans (from, to) it was
    locked by an admin or deleted (``to`` is infinite while it still is)."""
    people: dict[str, Person] = {}
    since: dict[str, float] = {}
    spans: dict[str, list[tuple[float, float]]] = {}
    for r in chain:
        at = float(r["at"])
        names = [a["username"] for a in json.loads(r["payload"])["users"]] \
            if r["kind"] == "genesis" else [str(r["subject"])]
        _step(people, r)
        for name in names:
            p = people.get(name)
            if p is None:
                continue
            if (p.locked or p.deleted) and name not in since:
                since[name] = at
            elif not (p.locked or p.deleted) and name in since:
                spans.setdefault(name, []).append((since.pop(name), at))
    for name, start in since.items():
        spans.setdefault(name, []).append((start, float("inf")))
    return spans


def acts_while_ended(chain: list[dict[str, Any]], acts: Iterable[Act]) -> list[Finding]:
    """Every account that acted (as the other chains record it) more than
    :data:`ENDED_GRACE` seconds into a span the users' chain had it locked or deleted, named
    once with its first such act. Locking and deleting end an account's sessions, and a
    log-in checks the chain, so no token of it is left to act with; a session row put back
    in the database (with the account's row unlocked for the moment) is one, and this is its
    trace."""
    spans = ended_spans(chain)
    named: dict[str, Finding] = {}
    for where, seq, actor, at in acts:
        if actor in named or actor not in spans:
            continue
        for start, end in spans[actor]:
            if start + ENDED_GRACE < at < end:
                named[actor] = Finding(where, seq, (
                    f"{actor} acted here (at {at}), though the users' chain had locked or "
                    f"deleted the account since {start}: it had no session left to act with; "
                    "a session was put back in the database"))
                break
    return [named[name] for name in sorted(named)]
