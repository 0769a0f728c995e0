"""The audit: the hash chains, the signed checkpoints, and the whole ledger replayed.

``verify_ledger`` is what the server runs before it serves, what ``GET /audit/verify`` answers
and what ``croupier audit verify`` prints; ``verify_snapshot`` does the work on rows, so an
exported bundle is checked by the same code. Every finding names where it is (a table and the
``seq`` of its event, or a wallet and its entry) and what differs; ``first`` is the first one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sqlalchemy.engine import Engine

from croupier.service import store
from croupier.service.audit import (
    chain,
    objects,
    projections,
    replay,
    requests,
    second_persons,
    seeding,
)
from croupier.service.audit.keys import Signer, retirements, trusted_keys
from croupier.service.audit.snapshot import Finding, Snapshot, read
from croupier.service.people import Act

if TYPE_CHECKING:
    from croupier.service.ledger import Ledger
    from croupier.service.live import LiveTable
    from croupier.service.tables import Tables


@dataclass
class Trust:
    """The signing key the process holds (None: verify against the keys the ledger records)
    and the pin file of the latest checkpoint."""

    signer: Signer | None = None
    pin_path: Path | None = None
    checkpoint_every: int = chain.EVERY


TRUST = Trust()


def configure(signer: Signer | None, pin_path: Path | None,
              every: int = chain.EVERY) -> None:
    """Give this process its key (``croupier serve`` and the audit commands do)."""
    TRUST.signer, TRUST.pin_path, TRUST.checkpoint_every = signer, pin_path, every


@dataclass
class Report:
    findings: list[Finding] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    deposits: int = 0
    wallets: int = 0
    tables: int = 0
    events: int = 0

    def json(self) -> dict[str, Any]:
        return {"ok": not self.findings, "problems": [str(f) for f in self.findings],
                "first": self.findings[0].json() if self.findings else None,
                "findings": [f.json() for f in self.findings[:100]], "notes": self.notes,
                "events": self.events, "deposits": _fmt(self.deposits),
                "wallets": _fmt(self.wallets), "tables": _fmt(self.tables)}


T = TypeVar("T")

UNREADABLE = (ValueError, TypeError, KeyError, AttributeError, IndexError)
"""What decoding a cell the database holds raises when it is not what croupier wrote there
(text that is not JSON, a JSON value of another shape, a word in a number's column)."""


def _read(findings: list[Finding], where: str, check: Callable[[], T], empty: object) -> T:
    """``check()``, or ``empty`` with a finding at ``where`` when a row it decodes cannot be
    read: one cell written into the database stopped the whole audit with an internal error
    (``GET /audit/verify`` answered 500), naming nothing, this change or any other."""
    try:
        return check()
    except UNREADABLE as exc:
        findings.append(Finding(where, None, (
            f"a row cannot be read ({type(exc).__name__}: {str(exc)[:200]}): croupier never "
            "writes it so; the audit of this part stopped there")))
        return cast(T, empty)  # the shape ``check`` returns, empty


def _fmt(cents: int) -> str:
    from croupier.service.audit.canonical import money

    return money(cents)


def verify_snapshot(snap: Snapshot, anchor_hex: str | None, pin: dict[str, Any] | None,
                    memory: dict[str, LiveTable] | None = None,
                    earlier: Snapshot | None = None) -> Report:
    """Everything checked on the rows of ``snap``; ``anchor_hex`` is the trusted public key
    (None: trust the keys the ledger records, which only a key file or a bundle's given key
    can vouch for); ``earlier``, the rows of an earlier bundle that this ledger must extend
    exactly (``audit.anchor``)."""
    report = Report(events=sum(len(v) for v in snap.events.values()))
    chains: chain.Chains | None = _read(report.findings, "chains",
                                        lambda: chain.recompute(snap), None)
    if chains is None:
        return report  # nothing else is checked against chains that cannot be recomputed
    report.findings.extend(chains.findings)
    _projections(snap, report)
    if anchor_hex is None:
        report.notes.append("no signing key given: checkpoints checked against the keys the "
                            "ledger records")
        trusted = {k["key_id"]: k["public_key"] for k in snap.keys}
    else:
        trusted, key_problems = _read(report.findings, "keys",
                                      lambda: trusted_keys(snap.keys, anchor_hex), ({}, []))
        report.findings.extend(Finding("keys", None, p) for p in key_problems)
    if snap.checkpoints:
        report.notes.append(f"{len(snap.checkpoints)} signed checkpoints, the latest "
                            f"{snap.checkpoints[-1]['id']}")
    retired = _read(report.findings, "keys", lambda: retirements(snap.keys, trusted), {})
    report.findings.extend(_read(report.findings, "checkpoints", lambda: chain.check_checkpoints(
        snap, chains, trusted, pin, retired), []))
    # A test ledger's mark where init did not put it, and on any other ledger every draw a
    # seeded generator made (the start refuses one; this finds one slipped in another way).
    found, notes = _read(report.findings, "seeding", lambda: seeding.check(
        snap, chains, trusted, retired), ([], []))
    report.findings.extend(found)
    report.notes.extend(notes)
    if earlier is not None:
        from croupier.service.audit import anchor

        report.findings.extend(_read(report.findings, "anchor", lambda: anchor.extends(
            earlier, snap, chains), []))
        report.notes.append(anchor.note(earlier))
    moved = _replay(snap, report, memory or {})
    wallet_findings, report.wallets, report.deposits = _read(
        report.findings, "wallets", lambda: replay.check_wallets(snap), ([], 0, 0))
    report.findings.extend(wallet_findings)
    report.findings.extend(_read(report.findings, "wallets",
                                 lambda: replay.check_transfers(snap, moved), []))
    if report.wallets + report.tables != report.deposits:
        report.findings.append(Finding("ledger", None, (
            f"chips do not balance: wallets {report.wallets} + tables {report.tables} cents "
            f"!= deposits {report.deposits}")))
    return report


def _acts(snap: Snapshot) -> Iterator[Act]:
    """Every act the chains record with its actor and time: the tables' events, the
    wallets' entries, the house's and the users' records."""
    for table_id, rows in snap.events.items():
        yield from ((f"table {table_id}", int(r["seq"]), str(r["actor"]), float(r["at"]))
                    for r in rows)
    for player, entries in snap.entries.items():
        yield from ((f"wallet {player}", int(e["id"]), str(e["actor"]), float(e["at"]))
                    for e in entries)
    for where, records in (("house records", snap.records), ("users", snap.user_records)):
        yield from ((where, int(r["seq"]), str(r["actor"]), float(r["at"])) for r in records)


def _projections(snap: Snapshot, report: Report) -> None:
    """The tables rebuilt from the chains and compared: the equipment register's decisions
    run again on its records, the accounts from the users' chain, the pending adjustments
    from the tables' chains, each table's opening from the house's chain, the cage's
    cash-outs from the house's chain against the wallets' (a bundle from before the users'
    chain has none of them but the register's)."""
    from croupier.service import cage, controls, equipment_register, paytable_changes, people

    out = report.findings
    # The upgrade that began the users' chain (a ledger without one: every record is older).
    since = _read(out, "users", lambda: float(snap.user_records[0]["at"])
                  if snap.user_records else math.inf, math.inf)
    found, notes = _read(out, "house records", lambda: equipment_register.check_records(
        snap.records, since), ([], []))
    out.extend(found)
    report.notes.extend(notes)
    if not snap.user_records:
        return
    out.extend(_read(out, "tables", lambda: controls.check_opened(snap.tables, snap.records), []))
    out.extend(_read(out, "house records", lambda: paytable_changes.check_records(
        snap.records, since), []))
    # Folded, the users' chain is read from its records that can be read (one that cannot is
    # named by the chain's check, people.recompute).
    users = people.readable(snap.user_records)
    out.extend(_read(out, "users", lambda: people.check(users, snap.accounts), []))
    out.extend(_read(out, "users", lambda: people.acts_while_ended(users, _acts(snap)), []))
    out.extend(_read(out, "users", lambda: second_persons.check(users, snap), []))
    found, notes = _read(out, "adjustments", lambda: controls.check(
        snap.events, snap.pending, since), ([], []))
    out.extend(found)
    report.notes.extend(notes)
    found, notes = _read(out, "cage", lambda: cage.check(snap.records, snap.entries), ([], []))
    out.extend(found)
    report.notes.extend(notes)


def _replay(snap: Snapshot, report: Report, memory: dict[str, LiveTable],
            ) -> dict[str, dict[str, int]]:
    """Every table replayed; the chips each player moved to each table (net cents)."""
    moved: dict[str, dict[str, int]] = {}
    for t in snap.tables:
        where = f"table {t['id']}"
        done = _read(report.findings, where, partial(
            replay.replay_table, t, snap.events.get(t["id"], []),
            None if snap.round_rows is None else snap.round_rows.get(t["id"], {}),
            None if snap.round_players is None else snap.round_players.get(t["id"], {})), None)
        if done is None:
            continue
        report.findings.extend(done.findings)
        live = done.live
        if live is None:
            continue
        moved[t["id"]] = done.moved
        seat_findings, total = _read(report.findings, where, partial(
            replay.check_seats, t, live, snap.seats), ([], 0))
        report.findings.extend(seat_findings)
        report.tables += total
        mem = memory.get(t["id"])
        if mem is not None and mem.seq == live.seq and mem.balances() != live.balances():
            report.findings.append(Finding(f"table {t['id']}", None,
                                           "memory differs from the ledger"))
    return moved


def verify_ledger(tables: Tables, checkpoint: bool = True,
                  earlier: Snapshot | None = None) -> dict[str, Any]:
    """The audit of a running ledger and its tables in memory (a consistent read); a signed
    checkpoint after it when it passes and this process holds the key. ``earlier``: an
    earlier bundle's rows the ledger must extend (``croupier audit verify --anchor``)."""
    ledger = tables.ledger
    attach(ledger)
    engine = ledger.db
    # SQLite: a plain BEGIN, a snapshot of the log that holds no lock against the bets.
    options: dict[str, Any] = ({store.READ_ONLY: True} if store.is_sqlite(engine)
                               else {"isolation_level": "REPEATABLE READ"})
    pinned = chain.PinRead(TRUST.pin_path)  # first: see PinRead
    with engine.connect().execution_options(**options) as conn:
        store.long_read(conn)  # the process checks what it read between its reads
        projected: list[Finding] = []
        snap = _read(projected, "ledger", lambda: read(conn), None)
        if snap is None:  # rows that cannot even be read into the audit's snapshot
            return Report(findings=projected).json()
        projected.extend(_read(projected, "dice, inspections and coupons",
                               lambda: projections.check(conn, snap.records), []))
        projected.extend(_read(projected, "stored replies",
                               lambda: requests.check(conn, snap), []))
        projected.extend(objects.check(conn))
    signer = TRUST.signer
    pin, pin_problems = chain.pin_findings(pinned, snap)
    report = verify_snapshot(snap, signer.public_hex if signer else None, pin, tables.all,
                             earlier)
    report.findings[:0] = pin_problems
    report.findings.extend(projected)
    if checkpoint and signer is not None and not report.findings:
        try:
            row = writer(engine, signer).write("verify")
        except chain.WriterBusy as exc:  # the ledger is as verified; the next one signs it
            report.notes.append(f"no checkpoint signed: {exc}")
        except chain.BehindPin as exc:
            # The ledger as read reached the pin; as it stood when signing, it did not: it was
            # cut short or rewritten in between, which is a finding, not a failure to answer.
            report.findings.append(Finding("pin", None, f"no checkpoint signed: {exc}"))
        else:
            report.notes.append(f"checkpoint {row['id']} signed by key {row['key_id']}")
    return report.json()


_WRITERS: dict[tuple[int, str], chain.Checkpointer] = {}


def writer(engine: Engine, signer: Signer) -> chain.Checkpointer:
    """The one checkpoint writer of an engine and key in this process (so two never number a
    checkpoint alike)."""
    key = (id(engine), signer.key_id)
    if key not in _WRITERS:
        _WRITERS[key] = chain.Checkpointer(engine, signer, TRUST.pin_path, TRUST.checkpoint_every)
    return _WRITERS[key]


def attach(ledger: Ledger) -> None:
    """Have the ledger write a signed checkpoint every so many events (needs the key)."""
    if ledger.after_commit is None and TRUST.signer is not None:
        ledger.after_commit = writer(ledger.db, TRUST.signer).count
