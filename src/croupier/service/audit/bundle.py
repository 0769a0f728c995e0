"""The signed audit bundle: everything a regulator needs to check the ledger offline.

``croupier audit export FILE`` writes one canonical JSON file: the ledger's rows (tables with
their configuration, every event, wallets and their entries, seats, signed checkpoints, the
signing keys and their rotation records), the pay tables (the rule profiles the tables play),
the equipment records (dice and inspections), and the public key, signed with the ledger's key.
``croupier audit verify-bundle FILE`` needs nothing else: the file must be exactly canonical
(so no byte can change unnoticed), its signature must verify, and the whole audit of
``audit.verify`` must pass on its rows (chains, checkpoints, the replay of every outcome).
A regulator compares the key id printed with the one the house registered with them, or
passes that key with ``--public-key``. ``--since OLDER`` also checks that the bundle extends
exactly what an earlier bundle signed (``audit.anchor``).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from croupier.service import store
from croupier.service.audit import chain
from croupier.service.audit.canonical import canonical
from croupier.service.audit.keys import Signer, check_signature, key_id
from croupier.service.audit.snapshot import Finding, Snapshot, read
from croupier.service.audit.verify import Report, verify_snapshot

FORMAT = "croupier-audit-bundle/1"
_SNAPSHOT_FIELDS = ("tables", "events", "wallets", "entries", "seats", "rounds", "checkpoints",
                    "keys", "records", "user_records", "accounts", "pending")
# A bundle written before the house's chain, or the users' chain, has none of these.
_OPTIONAL_FIELDS = ("records", "user_records", "accounts", "pending")


def _profiles(snap: Snapshot) -> dict[str, str]:
    """The rule profiles (pay tables) the ledger's tables play, as their TOML text."""
    folder = resources.files("croupier.rules")
    return {p: folder.joinpath(f"{p}.toml").read_text(encoding="utf-8")
            for p in sorted({t["profile"] for t in snap.tables})}


def export(engine: Engine, signer: Signer, pin_path: Path | None, out: Path) -> dict[str, Any]:
    """Write the bundle to ``out`` (a fresh checkpoint first, so the bundle pins its end)."""
    latest = chain.Checkpointer(engine, signer, pin_path).write("export")
    with engine.connect() as conn:
        store.long_read(conn)
        snap = read(conn)
        equipment = {
            "dice": [dict(r._mapping) for r in conn.execute(sa.select(store.dice)
                                                             .order_by(store.dice.c.serial))],
            "inspections": [dict(r._mapping) for r in conn.execute(
                sa.select(store.inspections).order_by(store.inspections.c.id))]}
    body = {"format": FORMAT, "created_at": store.now(), "public_key": signer.public_hex,
            "key_id": signer.key_id,
            "ledger": {name: getattr(snap, name) for name in _SNAPSHOT_FIELDS},
            "pin": {"id": latest["id"], "hash": chain.checkpoint_hash(latest)},
            "pay_tables": _profiles(snap), "equipment": equipment}
    text = canonical({"body": body, "signature": signer.sign(canonical(body))})
    out.write_text(text, encoding="utf-8")
    return {"events": sum(len(v) for v in snap.events.values()), "key_id": signer.key_id,
            "checkpoint": latest["id"], "bytes": len(text.encode())}


def earlier(path: Path, public_hex: str | None = None) -> tuple[Snapshot | None, list[Finding]]:
    """The rows of an earlier bundle used as an anchor, once it verifies by itself; else the
    findings that say why it cannot anchor anything."""
    report, body = verify_bundle(path, public_hex)
    if report.findings:
        return None, [Finding(f"anchor {path.name}", None, f"the earlier bundle does not "
                              f"verify, so it anchors nothing: {f}") for f in report.findings]
    snap = _snapshot(body.get("ledger", {}))
    if snap is None:  # verify_bundle would have said so; kept for the type
        return None, [Finding(f"anchor {path.name}", None, "the ledger section is malformed")]
    return snap, []


def verify_bundle(path: Path, public_hex: str | None = None,
                  since: Snapshot | None = None) -> tuple[Report, dict[str, Any]]:
    """The audit of a bundle, offline; also what the bundle says about itself. ``since``: an
    earlier bundle's rows this one must extend."""
    report = Report()
    try:
        raw = path.read_bytes()
        doc = json.loads(raw)
        text = raw.decode("utf-8")
    except (OSError, ValueError) as exc:
        report.findings.append(Finding("bundle", None, f"cannot be read as JSON: {exc}"))
        return report, {}
    if not isinstance(doc, dict) or set(doc) != {"body", "signature"} \
            or not isinstance(doc["body"], dict) or doc["body"].get("format") != FORMAT:
        report.findings.append(Finding("bundle", None, f"not a {FORMAT} file"))
        return report, {}
    body = doc["body"]
    if canonical(doc) != text:
        report.findings.append(Finding("bundle", None, (
            "the file is not in its canonical form: it was edited after it was written")))
    anchor = public_hex or str(body.get("public_key", ""))
    if not check_signature(anchor, canonical(body), str(doc["signature"])):
        report.findings.append(Finding("bundle", None, (
            "the signature does not verify with key " + _safe_id(anchor))))
    if report.findings:  # nothing in an edited or unsigned bundle can be relied on
        return report, body
    snap = _snapshot(body.get("ledger", {}))
    if snap is None:
        report.findings.append(Finding("bundle", None, "the ledger section is malformed"))
        return report, body
    try:
        inner = verify_snapshot(snap, anchor, body.get("pin"), earlier=since)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        report.findings.append(Finding("bundle", None, f"the ledger section is malformed: {exc!r}"))
        return report, body
    report.findings.extend(inner.findings)
    report.findings.extend(_equipment(snap, body.get("equipment")))
    report.notes.extend(inner.notes)
    report.deposits, report.wallets, report.tables = inner.deposits, inner.wallets, inner.tables
    report.events = inner.events
    report.notes.extend(_pay_table_notes(body.get("pay_tables", {})))
    return report, body


def _equipment(snap: Snapshot, equipment: Any) -> list[Finding]:
    """The bundle's equipment section (the dice and their inspections, as the regulator reads
    them) against the house's chain it carries: it was exported from the ``dice`` and
    ``inspections`` rows, projections the live audit compares but the export does not, so a
    row edited before an export (a failed inspection taken out) was signed into the bundle
    and passed here. A bundle from before the house's chain has nothing to compare."""
    from croupier.service import equipment_register

    if not snap.records:
        return []
    try:
        found = equipment_register.check_dice_rows(snap.records, equipment["dice"],
                                                   equipment["inspections"])
    except (KeyError, TypeError, ValueError) as exc:
        return [Finding("bundle", None, f"the equipment section is malformed: {exc!r}")]
    return [Finding(f.where, f.seq, f"the bundle's equipment: {f.what}") for f in found]


def _safe_id(public_hex: str) -> str:
    try:
        return key_id(public_hex)
    except ValueError:
        return repr(public_hex[:20])


def _snapshot(ledger: dict[str, Any]) -> Snapshot | None:
    try:
        snap = Snapshot(**{name: ledger[name] for name in _SNAPSHOT_FIELDS
                           if name in ledger or name not in _OPTIONAL_FIELDS})
        snap.rounds = {k: int(v) for k, v in snap.rounds.items()}
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return snap


def _pay_table_notes(pay_tables: dict[str, str]) -> list[str]:
    """Whether the pay tables in the bundle are the ones this copy of croupier replays with."""
    folder = resources.files("croupier.rules")
    notes = []
    for profile, text in sorted(pay_tables.items()):
        try:
            here = folder.joinpath(f"{profile}.toml").read_text(encoding="utf-8")
        except (OSError, ValueError):
            here = None
        same = "the same as" if here == text else "DIFFERENT from"
        notes.append(f"pay table {profile}: {same} the one this croupier replays with")
    return notes
