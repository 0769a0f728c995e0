"""Test ledgers, and the seeded draws only a test ledger may hold.

A seeded generator (``croupier serve --insecure-test-rng-seed N --test-mode``) makes every roll
and spin predictable. Whether a ledger may be served with one is decided once, when the ledger
is made: ``croupier init --test-mode`` (or ``croupier serve --demo --test-mode`` when it makes
the ledger) writes the *test-ledger mark* as the house chain's first record (kind
``test_ledger``, subject ``ledger``), before the first checkpoint, which ``init`` signs (reason
``init``). The mark counts there only: record 1 of the house's chain, under the signed head of
checkpoint 1, a checkpoint with reason ``init`` that a trusted key signed (only the ``init``
that makes a ledger signs with it; one that upgrades a ledger signs ``upgrade``, even as its
first checkpoint, so a mark a database writer put into an older ledger's unsigned house chain
before it was keyed is not vouched for). What vouches for it
lives outside the database: the key that signed checkpoint 1, and the pin beside it, whose
checkpoint links back to checkpoint 1.

Whoever can write the database but does not hold the key cannot make a ledger a test ledger:
a mark appended comes after the house head checkpoint 1 signed (an empty house chain, for a
ledger made without ``--demo``: checkpoint 1 signed none of it); a mark put in first changes
every hash of the house's chain, so checkpoint 1 (and every checkpoint after it, and the pin)
no longer matches. Either way the audit names the mark (:func:`check`) and the ledger stays a
production ledger: taking the mark away only makes a test ledger a production one, which
refuses a seeded generator (fail closed).

Every other ledger, one made before test ledgers existed included, is a *production ledger*:

- ``croupier serve`` refuses a seeded generator on it before it serves (:func:`require`), each
  node of a cluster at its own start;
- the audit names every draw in it that was not the operating system's secure generator's
  (its table, event and round): a seeded draw slipped in any other way, written in process or
  straight into the rows, is found there. A draw recorded before the ledger had any signed
  checkpoint (a release before checkpoints let any ledger be served with a seed, recorded as
  ``seeded:11``) is under the first checkpoint, which the upgrade that sealed it signed: it is
  noted, not found, as nothing later can put a draw there.

>>> mark_payload()
{'mode': 'test'}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from croupier.service import register, store
from croupier.service.audit.canonical import FORMAT
from croupier.service.audit.chain import Chains, checkpoint_message
from croupier.service.audit.keys import (
    Retired,
    Signer,
    check_signature,
    retirements,
    trusted_keys,
)
from croupier.service.audit.snapshot import Finding, Snapshot
from croupier.service.rng import DrawSource

KIND = "test_ledger"
"""The house record that marks a test ledger."""
SUBJECT = "ledger"
ACTOR = "operator"
"""Who the mark names: whoever ran ``croupier init --test-mode``."""
INIT = "init"
"""The reason of the checkpoint ``croupier init`` signs when it makes the ledger."""
UPGRADE = "upgrade"
"""... and when it upgrades or keys one that exists: a mark it finds is not one it made."""
SECURE = frozenset({DrawSource.OS.value})
"""The one generator a production ledger's draws come from."""

HOW = ("for tests, make a test ledger of its own: croupier init --test-mode (or croupier "
       "serve --demo --test-mode) on a new data folder or database")


def mark_payload() -> dict[str, Any]:
    """What the mark records."""
    return {"mode": "test"}


class NotATestLedger(ValueError):
    """A seeded generator was asked for on a production ledger; the message says why and what
    to do instead."""


class CannotMark(ValueError):
    """``init --test-mode`` on a ledger that is not, and cannot become, a test ledger."""


def mark(conn: Connection) -> None:
    """Write the mark as the house chain's first record (``init --test-mode`` on a new ledger,
    before the checkpoint it signs). Run again on a ledger whose first record is the mark (an
    ``init`` cut short before its checkpoint), it writes nothing; on a house chain that has
    records and does not start with the mark, it refuses: a mark anywhere but first is not a
    test ledger's."""
    register.lock(conn)
    if begun_as_test(conn):
        return
    if register.head(conn) is None:
        register.append(conn, KIND, SUBJECT, mark_payload(), ACTOR)
        return
    raise CannotMark("this database already holds house records, and a test ledger is marked "
                      "by its first one: make the test ledger in an empty folder or database")


def begun_as_test(conn: Connection) -> bool:
    """Whether the house chain's first record is the mark (a ledger not yet made, whose
    ``init --test-mode`` was cut short: finished without it, it would be a test ledger)."""
    first = register.rows(conn, limit=1)
    return bool(first) and _is_mark(first[0]["kind"], first[0]["payload"])


def _is_mark(kind: str, payload: Any) -> bool:
    if kind != KIND:
        return False
    try:
        shown = payload if isinstance(payload, Mapping) else json.loads(payload)
    except (TypeError, ValueError):
        return False
    return dict(shown) == mark_payload()


def _signed_first(first: Mapping[str, Any] | None, trusted: Mapping[str, str],
                  retired: Mapping[str, Retired]) -> dict[str, Any] | None:
    """The heads checkpoint 1 (``first``) signed, if it is the first of the chain of
    checkpoints and a trusted key signed it (a retired one only before its rotation); else
    None."""
    if first is None or int(first["id"]) != 1 or first["prev"] != FORMAT:
        return None
    public = trusted.get(first["key_id"])
    if public is None or not check_signature(public, checkpoint_message(dict(first)),
                                             first["signature"]):
        return None
    gone = retired.get(first["key_id"])
    if gone is not None and not gone.covers(1, float(first["at"])):
        return None
    try:
        heads = json.loads(first["heads"])
    except (TypeError, ValueError):
        return None
    return heads if isinstance(heads, dict) else None


def _covered(first: Mapping[str, Any] | None, hashes: Mapping[int, str],
             trusted: Mapping[str, str], retired: Mapping[str, Retired]) -> int:
    """How many records of the house's chain (recomputed as ``hashes``) ``init`` signed: the
    ``seq`` of the head checkpoint 1 signed, if it is ``init``'s checkpoint and that head is
    still the chain's; else 0."""
    heads = _signed_first(first, trusted, retired)
    if heads is None or first is None or first["reason"] != INIT:
        return 0
    head = heads.get("records")
    if not isinstance(head, list) or len(head) != 2:
        return 0
    seq, digest = head
    return int(seq) if hashes.get(int(seq)) == digest else 0


def judge(records: list[dict[str, Any]], hashes: Mapping[int, str],
          first: Mapping[str, Any] | None, trusted: Mapping[str, str],
          retired: Mapping[str, Retired]) -> tuple[bool, list[Finding]]:
    """Whether the house's chain ``records`` (recomputed as ``hashes``, seq -> hash) marks a
    test ledger, as checkpoint 1 (``first``) vouches for it; and every mark found anywhere
    else, named."""
    marks = [r for r in records if r["kind"] == KIND]
    if not marks:
        return False, []
    covered = _covered(first, hashes, trusted, retired)
    good = [r for r in marks if int(r["seq"]) == 1 and covered >= 1
            and _is_mark(r["kind"], r["payload"])]
    findings = [Finding(register.WHERE, int(r["seq"]), (
        "a test-ledger mark that init did not make: a ledger is a test ledger only when "
        "croupier init --test-mode made it one, with the mark as the house chain's first "
        "record under the signed init checkpoint (checkpoint 1); written afterwards it "
        "makes no test ledger, and the ledger is audited as a production ledger"))
        for r in marks if not good or r is not good[0]]
    return bool(good), findings


def check(snap: Snapshot, chains: Chains, trusted: Mapping[str, str],
          retired: Mapping[str, Retired]) -> tuple[list[Finding], list[str]]:
    """The audit's part: a mark that no test ledger's ``init`` made, and, on a production
    ledger, every draw not the operating system's secure generator's after the first signed
    checkpoint (each named with its table, event and round); what it notes."""
    first = snap.checkpoints[0] if snap.checkpoints else None
    test, findings = judge(snap.records, chains.records, first, trusted, retired)
    drawn = list(_draws(snap))
    if test:
        notes = ["a test ledger (made with croupier init --test-mode): never a casino floor's"]
        if drawn:
            notes.append(f"{len(drawn)} draws by a seeded generator, as a test ledger may hold")
        return findings, notes
    before = _before_first(first, chains, trusted, retired)
    old: dict[str, int] = {}
    for table_id, seq, round_no, source in drawn:
        if seq <= before.get(table_id, 0):
            old[table_id] = old.get(table_id, 0) + 1
            continue
        findings.append(Finding(f"table {table_id}", seq, (
            f"round {round_no}: an outcome drawn by {source!r}, not the operating system's "
            "secure generator, on a production ledger: a seeded generator makes every roll "
            "predictable, and only a test ledger (made with croupier init --test-mode) may "
            "hold its draws")))
    notes = []
    if old:
        where = ", ".join(f"{t} ({n})" for t, n in sorted(old.items()))
        notes.append(f"{sum(old.values())} draws by a seeded generator recorded before the "
                     f"ledger's first signed checkpoint, by a release that tied no generator "
                     f"to a ledger: {where}")
    return findings, notes


def _before_first(first: Mapping[str, Any] | None, chains: Chains,
                  trusted: Mapping[str, str], retired: Mapping[str, Retired],
                  ) -> dict[str, int]:
    """Each table's last event from before the ledger's first signed checkpoint: the head
    checkpoint 1 signed, where a trusted key signed it and it is still the recomputed chain's
    (else none: every draw is judged). With no checkpoint at all, every event is (the pin,
    kept outside, names checkpoints taken away)."""
    if first is None:
        return {t: max(hashes) for t, hashes in chains.tables.items()}
    heads = _signed_first(first, trusted, retired)
    signed = heads.get("tables") if heads is not None else None
    if not isinstance(signed, dict):
        return {}
    out: dict[str, int] = {}
    for table_id, head in signed.items():
        if isinstance(head, list) and len(head) == 2 \
                and chains.tables.get(table_id, {}).get(int(head[0])) == head[1]:
            out[table_id] = int(head[0])
    return out


def _draws(snap: Snapshot) -> Iterable[tuple[str, int, int, str]]:
    """Every draw not the secure generator's: its table, event, round and recorded source. An
    event whose payload cannot be read is the replay's to name."""
    for table_id, events in snap.events.items():
        for e in events:
            payload = e["payload"]
            if e["kind"] != "draw" and '"draw"' not in payload:
                continue
            try:
                raw = json.loads(payload)
                if raw.get("type") != "draw":
                    continue
                source = raw["f"]["source"]
            except (TypeError, ValueError, KeyError, AttributeError):
                continue
            if source not in SECURE:
                yield table_id, int(e["seq"]), int(e["round"]), str(source)


def read_test_mark(conn: Connection, signer: Signer | None) -> bool:
    """Whether the ledger on ``conn`` is a test ledger, trusting the keys from ``signer``
    (the key this process holds) back through their rotations, or, with none, the keys the
    ledger records. Only the house records checkpoint 1 signed are read."""
    cp = store.checkpoints
    first = conn.execute(sa.select(cp).where(cp.c.id == 1)).first()
    if first is None:
        return False
    row = dict(first._mapping)
    try:
        head = json.loads(row["heads"]).get("records") or (0, None)
        last = int(head[0])
    except (TypeError, ValueError, IndexError):
        return False
    house = store.house_records
    records = [dict(r._mapping) for r in conn.execute(
        sa.select(house).where(house.c.seq <= last).order_by(house.c.seq))]
    keys = [dict(r._mapping) for r in conn.execute(sa.select(store.ledger_keys))]
    if signer is not None:
        trusted, _ = trusted_keys(keys, signer.public_hex)
    else:
        trusted = {k["key_id"]: k["public_key"] for k in keys}
    hashes, broken = register.recompute(records)
    if broken:
        return False
    test, _ = judge(records, hashes, row, trusted, retirements(keys, trusted))
    return test


def is_test_ledger(engine: Engine, signer: Signer | None) -> bool:
    """Whether the ledger in ``engine`` is a test ledger (:func:`read_test_mark`)."""
    with engine.connect() as conn:
        return read_test_mark(conn, signer)


def require(engine: Engine, signer: Signer | None) -> None:
    """Refuse (:class:`NotATestLedger`) a seeded generator on a ledger that is not a test
    ledger: ``croupier serve`` asks before it serves, and the app again as it starts."""
    if is_test_ledger(engine, signer):
        return
    raise NotATestLedger(
        "refusing a seeded RNG (--insecure-test-rng-seed): it makes every roll predictable, "
        "and this ledger is not a test ledger (only croupier init --test-mode makes one, when "
        "it makes the ledger; a ledger made otherwise, or by a release before test ledgers, "
        "is a production ledger). Serve it without --insecure-test-rng-seed; " + HOW)
