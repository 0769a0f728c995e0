"""The stored replies (``idempotency``, a projection) against the requests the chains record.

Every event a request with an Idempotency-Key produced at a table records the request's digest
(its caller, key and what it asked: ``codec.request_digest``) in its chained payload. From the
events the audit rebuilds which request produced which events, and compares the replies kept
under the keys: a reply must show the table and the events its request produced, as the chain
holds them; a request that produced events must have its reply kept (else a retry is refused,
never done again, and the missing reply is named here); a reply kept under a key whose events
another request produced (a key or caller rewritten, a row moved) is named. Events an earlier
release recorded carry no digest: their replies are not compared (that is not a finding).

A request that writes no table's event records its digest in the chained record it writes
instead: a deposit in its wallet entry (so did a cash-out at the cage of an earlier release), a
cash-out asked, paid, withdrawn or declined at the cage and a coupon issued in its house
record. Its reply is rebuilt from that record (``moves.reply_of``, ``coupons.reply_of``) and
compared; a record whose reply is missing is named, as are events.

A refusal is never kept (it changes nothing and no chain records it: a retry is decided
again), so a refusal found kept was written outside the server and is named. A reply an
earlier release kept for a move at the cage records no request and is not compared.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.events import api_json
from croupier.service import cage, codec, coupons, moves, register, store
from croupier.service.audit.snapshot import Finding, Snapshot


@dataclass
class Produced:
    """The events one request produced, in order: where, and each row."""

    table: str
    rows: list[dict[str, Any]] = field(default_factory=list)


def produced(snap: Snapshot) -> tuple[dict[str, Produced], dict[tuple[str, int], str | None],
                                      list[Finding]]:
    """The requests the tables' chains record (by digest), the digest of every event (None:
    produced without a key, or recorded by an earlier release), and every event whose look-up
    column says otherwise than its chained payload."""
    by_digest: dict[str, Produced] = {}
    digests: dict[tuple[str, int], str | None] = {}
    findings: list[Finding] = []
    for table_id, rows in snap.events.items():
        for row in rows:
            digest = _digest_of(row["payload"])
            digests[(table_id, int(row["seq"]))] = digest
            if row.get("request") != digest:
                findings.append(Finding(f"table {table_id}", int(row["seq"]), (
                    f"the event's request column holds {row.get('request')!r}, its chained "
                    f"payload records {digest!r}")))
            if digest is not None:
                by_digest.setdefault(digest, Produced(table_id)).rows.append(row)
    return by_digest, digests, findings


@dataclass(frozen=True)
class Made:
    """A chained record a request made that is not a table's event: where it is (``where``,
    ``seq``), what it is, and the reply rebuilt from it."""

    where: str
    seq: int
    what: str
    status: int
    body: dict[str, Any] | None


def made_elsewhere(snap: Snapshot) -> tuple[dict[str, Made], list[Finding]]:
    """The requests the wallets' entries and the house's records record (by digest), and
    every house record whose look-up column says otherwise than its chained payload."""
    found: dict[str, Made] = {}
    for player, entries in snap.entries.items():
        for e in entries:
            if e.get("request") is not None:
                found[str(e["request"])] = Made(f"wallet {player}", int(e["id"]),
                                                f"{e['kind']} of entry {e['id']}", 200,
                                                moves.reply_of(e))
    findings: list[Finding] = []
    for r, record in register.readable(snap.records):
        payload = record["payload"]
        digest = payload.get("request") if isinstance(payload, dict) else None
        if r.get("request") != digest:
            findings.append(Finding(register.WHERE, int(r["seq"]), (
                f"the record's request column holds {r.get('request')!r}, its chained "
                f"payload records {digest!r}")))
        if isinstance(digest, str):
            worded = cage if r["kind"] in cage.KINDS else coupons
            found[digest] = Made(register.WHERE, int(r["seq"]), f"{r['kind']} of record "
                                 f"{r['seq']}", worded.status_of(record),
                                 worded.reply_of(record))
    return found, findings


def _digest_of(payload: str) -> str | None:
    try:
        return codec.request_of(payload)
    except ValueError:  # an unreadable event is named by the replay
        return None


def compare(snap: Snapshot, stored: list[dict[str, Any]]) -> list[Finding]:
    """The stored replies ``stored`` (rows of ``idempotency``) against the chains of ``snap``:
    what differs."""
    by_digest, digests, findings = produced(snap)
    elsewhere, more = made_elsewhere(snap)
    findings.extend(more)
    games = {t["id"]: t["game"] for t in snap.tables}
    for row in stored:
        where = f"stored reply of user {row['user_id']}, key {row['key']!r}"
        digest = codec.request_digest(int(row["user_id"]), str(row["key"]),
                                      str(row["fingerprint"]))
        try:
            body = json.loads(row["body"])
        except ValueError:
            findings.append(Finding(where, None, "its body is not JSON"))
            continue
        done = by_digest.pop(digest, None)
        made = elsewhere.pop(digest, None)
        if done is not None:
            findings.extend(_against(where, row, body, done, games.get(done.table)))
        elif made is not None:
            findings.extend(_against_record(where, row, body, made))
        elif int(row["status"]) >= 400:
            findings.append(Finding(where, None, (
                f"it keeps a refusal ({row['status']}), but a refusal is never kept (a retry "
                "is decided again): it was written outside the server")))
        else:
            findings.extend(_unclaimed(where, body, digests))
    for digest, made in elsewhere.items():
        findings.append(Finding(made.where, made.seq, (
            f"the {made.what} was made by a request whose stored reply is missing, or whose "
            "key, caller or request no longer match it (a retry is refused, not done again); "
            f"request {digest[:12]}")))
    for digest, done in by_digest.items():
        seqs = [int(r["seq"]) for r in done.rows]
        findings.append(Finding(f"table {done.table}", seqs[0], (
            f"events {_span(seqs)} were produced by a request whose stored reply is missing, or "
            "whose key, caller or request no longer match it (a retry is refused, not done "
            f"again); request {digest[:12]}")))
    return findings


def _against_record(where: str, row: dict[str, Any], body: Any, made: Made,
                    ) -> list[Finding]:
    """A stored reply against the record (a wallet's entry, a house record) its request
    made, and the reply rebuilt from it."""
    if int(row["status"]) == made.status and body == made.body:
        return []
    return [Finding(where, None, (
        f"it answers {row['status']} {json.dumps(body, sort_keys=True)}; its request made "
        f"the {made.what} ({made.where}), which gives {made.status} "
        f"{json.dumps(made.body, sort_keys=True)}"))]


def _shown_table(body: dict[str, Any]) -> str:
    """Which table a stored reply says its request acted at, in words (a reply of another
    kind names none)."""
    table = body.get("table")
    if isinstance(table, str):
        return f"table {table}"
    fields = ", ".join(sorted(str(k) for k in body)) or "nothing"
    return f"no table (a reply of another kind, with {fields})"


def _against(where: str, row: dict[str, Any], body: Any, done: Produced,
             game: str | None) -> list[Finding]:
    """A stored reply against the events its request produced."""
    seqs = [int(r["seq"]) for r in done.rows]
    if int(row["status"]) not in (200, 201, 202) or not isinstance(body, dict):
        return [Finding(where, None, (
            f"it answers {row['status']}, but its request produced events {_span(seqs)} at "
            f"table {done.table}"))]
    shown = body.get("events")
    if body.get("table") != done.table or not isinstance(shown, list):
        return [Finding(where, None, (
            f"it shows {_shown_table(body)}; its request produced events {_span(seqs)} "
            f"at table {done.table}"))]
    if game is None:
        return []  # a table the ledger does not list: named by the chains' check
    try:
        expected = json.loads(json.dumps([
            api_json(int(r["seq"]), int(r["round"]), codec.decode(game, r["payload"]))
            for r in done.rows]))
    except Exception:  # an event that cannot be read is named by the replay
        return []
    if shown == expected:
        return []
    shown_seqs = [e.get("seq") if isinstance(e, dict) else None for e in shown]
    if shown_seqs != seqs:
        return [Finding(where, None, (
            f"it shows events {shown_seqs} at table {done.table}; its request produced "
            f"{seqs}"))]
    for got, want in zip(shown, expected, strict=True):
        if got != want:
            return [Finding(where, None, (
                f"it shows event {want['seq']} at table {done.table} as {got}; the chain "
                f"holds {want}"))]
    return []


def _unclaimed(where: str, body: Any, digests: dict[tuple[str, int], str | None],
               ) -> list[Finding]:
    """A stored reply no request in the chains claims: fine if it shows no event (a refusal,
    a move at the cage) or only events recorded without a request (an earlier release's);
    named if it shows events the chain does not hold, or events another request produced."""
    if not isinstance(body, dict) or not isinstance(body.get("events"), list):
        return []
    table = body.get("table")
    for shown in body["events"]:
        seq = shown.get("seq") if isinstance(shown, dict) else None
        if not isinstance(seq, int) or not isinstance(table, str):
            continue
        if (table, seq) not in digests:
            return [Finding(where, None, (
                f"it shows event {seq} at table {table}, which the table's chain does not "
                "hold"))]
        if digests[(table, seq)] is not None:
            return [Finding(where, None, (
                f"it shows event {seq} at table {table}, which another request produced: "
                "its key, caller or request were changed"))]
    return []


def _span(seqs: list[int]) -> str:
    return str(seqs[0]) if len(seqs) == 1 else f"{seqs[0]}-{seqs[-1]}"


def check(conn: Connection, snap: Snapshot) -> list[Finding]:
    """The stored replies in ``conn`` against the chains of ``snap`` (read in the same
    transaction): what differs."""
    rows = [dict(r._mapping) for r in conn.execute(sa.select(store.idempotency).order_by(
        store.idempotency.c.user_id, store.idempotency.c.key))]
    return compare(snap, rows)
