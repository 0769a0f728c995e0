"""The house's own chain: records that belong to no one table (equipment, dice custody, pay
table changes), hashed like the tables' events so that ``audit verify`` names any edit.

Each record is a row of ``house_records``: ``seq`` (1, 2, ...), ``kind``, ``subject`` (what it
is about: an item of equipment, a die's serial, a game and profile), ``payload`` (canonical
JSON), ``actor`` and ``at``. Its hash is ``SHA-256(previous hash + "\\n" + canonical form)``
as for events (``audit.canonical``), the chain starting from :data:`GENESIS`. Records are
appended one writer at a time (SQLite: the write transaction; PostgreSQL: an advisory lock),
so two never take the same ``seq``; the chain's head is signed in every checkpoint.

>>> text = record_text({"seq": 1, "kind": "k", "subject": "s", "payload": "{}", "actor": "a",
...                     "at": 1.5})
>>> text
'{"actor":"a","at":"1.5","kind":"k","payload":"{}","seq":1,"subject":"s"}'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.service import store
from croupier.service.audit.canonical import FORMAT, canonical, link
from croupier.service.audit.snapshot import Finding

house_records = store.house_records

GENESIS = link(FORMAT, canonical({"house": "records"}))
"""Where the house's chain starts."""
WHERE = "house records"
_APPEND_LOCK = 0x686F7573  # "hous": orders the writers of the house chain on PostgreSQL


def record_text(row: Any) -> str:
    """The canonical form of a house record row."""
    return canonical({"seq": row["seq"], "kind": row["kind"], "subject": row["subject"],
                      "payload": row["payload"], "actor": row["actor"],
                      "at": float(row["at"])})


@dataclass(frozen=True)
class RecordChain:
    """A chain of records (``seq``, ``kind``, ``subject``, ``payload``, ``actor``, ``at``,
    ``hash``) in ``table``, hashed from ``genesis`` and appended one writer at a time (SQLite:
    the write transaction; PostgreSQL: the advisory lock ``lock_key``). The house's chain is
    one; the users' chain (``service/people.py``) another."""

    table: sa.Table
    genesis: str
    where: str
    lock_key: int

    def lock(self, conn: Connection) -> None:
        """Hold the chain's writer lock to the end of ``conn``'s transaction (SQLite: its
        ``BEGIN IMMEDIATE`` already holds the only writer lock). A writer that decides from
        the records takes it *before* it reads them, so that no other writer can record
        something in between that would change the answer."""
        if conn.dialect.name != "sqlite":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": self.lock_key})

    def wait_for_room(self, conn: Connection, subject: str, kind: str, most: int,
                      seconds: int) -> tuple[int, int]:
        """How many ``kind`` records about ``subject`` the last ``seconds`` hold, and, once
        that is ``most`` or more, the seconds until the oldest of them leaves the window (0:
        there is room now). A cap on what one account may make the chain grow by."""
        c = self.table.c
        since = store.now() - seconds
        count, oldest = conn.execute(sa.select(sa.func.count(), sa.func.min(c.at)).where(
            c.subject == subject, c.kind == kind, c.at > since)).one()
        return int(count), (max(1, int(oldest - since) + 1) if count >= most else 0)

    def head(self, conn: Connection) -> list[Any] | None:
        """The chain's head ``[seq, hash]``, or None while it has no record."""
        last = conn.execute(sa.select(self.table.c.seq, self.table.c.hash).order_by(
            self.table.c.seq.desc()).limit(1)).first()
        return None if last is None else [int(last.seq), str(last.hash)]

    def append(self, conn: Connection, kind: str, subject: str, payload: Mapping[str, Any],
               actor: str, at: float | None = None) -> dict[str, Any]:
        """Append one record in ``conn``'s transaction; the row written (with its hash).
        ``at``: when it happened, if not now (a record an upgrade carries over). A payload's
        ``request`` (the digest of the request that made the record, ``codec.request_digest``)
        is chained with it and copied to a column for look-up, where the chain has one."""
        self.lock(conn)  # taken again in the same transaction: a no-op
        last = self.head(conn)
        row: dict[str, Any] = {
            "seq": 1 if last is None else last[0] + 1, "kind": kind, "subject": subject,
            "payload": canonical(dict(payload)), "actor": actor,
            "at": store.now() if at is None else float(at)}
        row["hash"] = link(self.genesis if last is None else last[1], record_text(row))
        if payload.get("request") is not None and "request" in self.table.c:
            row["request"] = payload["request"]
        conn.execute(self.table.insert().values(**row))
        return row

    def recompute(self, records: list[dict[str, Any]],
                  describe: Callable[[dict[str, Any]], str] = lambda r: f"{r['kind']} "
                  f"{r['subject']}, {r['payload']}") -> tuple[dict[int, str], list[Finding]]:
        """Every hash of the chain by ``seq`` (0: the genesis) and the first record whose
        hash differs from its contents (``describe`` says which) or whose ``seq`` is out of
        place."""
        hashes = {0: self.genesis}
        current = self.genesis
        findings: list[Finding] = []
        for expected, r in enumerate(records, start=1):
            current = link(current, record_text(r))
            hashes[int(r["seq"])] = current
            if findings:
                continue
            if r["seq"] != expected:
                findings.append(Finding(self.where, int(r["seq"]), (
                    f"expected record {expected} here: records are missing or renumbered")))
            elif r["hash"] != current:
                findings.append(Finding(self.where, int(r["seq"]), (
                    f"its hash does not match its contents ({describe(r)})")))
        return hashes, findings


HOUSE = RecordChain(house_records, GENESIS, WHERE, _APPEND_LOCK)
"""The house's chain."""


def lock(conn: Connection) -> None:
    """Hold the house chain's writer lock (:meth:`RecordChain.lock`): a writer that decides
    from the records (is this change still proposed? a coupon still issued? a die's latest
    inspection?) takes it before it reads them."""
    HOUSE.lock(conn)


def append(conn: Connection, kind: str, subject: str, payload: dict[str, Any],
           actor: str, at: float | None = None) -> dict[str, Any]:
    """Append one record to the house's chain in ``conn``'s transaction; the row written (a
    payload's ``request`` is copied to a column for look-up: :meth:`RecordChain.append`)."""
    return HOUSE.append(conn, kind, subject, payload, actor, at)


def made_by(conn: Connection, request: str) -> dict[str, Any] | None:
    """The record the request of digest ``request`` made (payload decoded), or None."""
    row = conn.execute(sa.select(house_records).where(
        house_records.c.request == request).limit(1)).first()
    return None if row is None else shown(dict(row._mapping))


def rows(conn: Connection, kinds: Iterable[str] | None = None, subject: str | None = None,
         after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
    """The records (of ``kinds``, about ``subject``, after ``seq`` ``after``), oldest first,
    payloads decoded."""
    query = sa.select(house_records).where(house_records.c.seq > after).order_by(
        house_records.c.seq).limit(limit)
    if kinds is not None:
        query = query.where(house_records.c.kind.in_(list(kinds)))
    if subject is not None:
        query = query.where(house_records.c.subject == subject)
    return [shown(dict(r._mapping)) for r in conn.execute(query)]


def shown(row: Mapping[str, Any]) -> dict[str, Any]:
    """A record as the API shows it: its payload decoded, its hash kept."""
    return {**row, "payload": json.loads(row["payload"])}


def readable(records: Iterable[Mapping[str, Any]], kinds: Iterable[str] | None = None,
             ) -> Iterator[tuple[Mapping[str, Any], dict[str, Any]]]:
    """Each record (of ``kinds``, if given) with what it shows (:func:`shown`), for the audit's
    folds: a record whose payload cannot be read is passed over, as the chain's own check
    names it.

    >>> rows = [{"kind": "a", "payload": '{"x": 1}'}, {"kind": "a", "payload": "{"},
    ...         {"kind": "b", "payload": "{}"}]
    >>> [view["payload"] for _, view in readable(rows, {"a"})]
    [{'x': 1}]
    """
    wanted = None if kinds is None else frozenset(kinds)
    for record in records:
        if wanted is not None and record["kind"] not in wanted:
            continue
        try:
            view = shown(record)
        except ValueError:
            continue
        yield record, view


def latest(conn: Connection, kinds: Iterable[str], subject: str) -> dict[str, Any] | None:
    """The newest record of ``kinds`` about ``subject`` (payload decoded), or None."""
    row = conn.execute(sa.select(house_records).where(
        house_records.c.kind.in_(list(kinds)), house_records.c.subject == subject)
        .order_by(house_records.c.seq.desc()).limit(1)).first()
    return None if row is None else shown(dict(row._mapping))


def head(conn: Connection) -> list[Any] | None:
    """The house chain's head ``[seq, hash]``, or None while the house has no record."""
    return HOUSE.head(conn)


def recompute(records: list[dict[str, Any]]) -> tuple[dict[int, str], list[Finding]]:
    """Every hash of the house's chain by ``seq`` and the first record out of place."""
    return HOUSE.recompute(records)
