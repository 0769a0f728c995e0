"""An earlier bundle as an anchor: the ledger (or a newer bundle) must extend exactly what it
signed.

A bundle the regulator exported earlier holds the signed checkpoints and every chain as they
stood. Someone who holds the signing key can rewrite history and sign it again, and the
rewritten ledger verifies by itself; it cannot change the copy the regulator keeps. So
``croupier audit verify --anchor BUNDLE`` and ``croupier audit verify-bundle NEWER --since
OLDER`` compare: every checkpoint of the earlier bundle must be here with the same signed
contents (one signed twice with different contents is named), and every chain's head in the
earlier bundle (a table's last event, a wallet's last entry, the house's last record) must
still be in the recomputed chain here, at the same place with the same hash.
"""

from __future__ import annotations

import json
from typing import Any

from croupier.service.audit.chain import Chains, checkpoint_hash
from croupier.service.audit.snapshot import Finding, Snapshot


def extends(earlier: Snapshot, snap: Snapshot, chains: Chains) -> list[Finding]:
    """What of ``earlier`` the rows of ``snap`` (recomputed as ``chains``) do not extend."""
    return _checkpoints(earlier, snap) + _heads(earlier, chains)


def note(earlier: Snapshot) -> str:
    """What the comparison was against."""
    latest = earlier.checkpoints[-1]["id"] if earlier.checkpoints else None
    events = sum(len(v) for v in earlier.events.values())
    return (f"compared with an earlier bundle: {len(earlier.checkpoints)} checkpoints (the "
            f"latest {latest}), {events} events, {len(earlier.wallets)} wallets")


def _checkpoints(earlier: Snapshot, snap: Snapshot) -> list[Finding]:
    here = {int(c["id"]): c for c in snap.checkpoints}
    findings: list[Finding] = []
    for old in earlier.checkpoints:
        where = f"checkpoint {old['id']}"
        new = here.get(int(old["id"]))
        if new is None:
            findings.append(Finding(where, None, (
                "signed in the earlier bundle and missing here: the ledger was rolled back "
                "or cut short")))
        elif checkpoint_hash(new) != checkpoint_hash(old):
            findings.append(Finding(where, None, (
                f"signed twice with different contents: the earlier bundle's (key "
                f"{old['key_id']}, {_changed(old, new)}) and this one's (key {new['key_id']}): "
                "history was rewritten and signed again")))
    return findings


def _changed(old: dict[str, Any], new: dict[str, Any]) -> str:
    """Which chains' signed heads differ between two versions of one checkpoint."""
    try:
        a, b = json.loads(old["heads"]), json.loads(new["heads"])
    except (TypeError, ValueError):
        return "heads unreadable"
    names = [f"table {t}" for t in sorted(set(a.get("tables", {})) | set(b.get("tables", {})))
             if a.get("tables", {}).get(t) != b.get("tables", {}).get(t)]
    names += [f"wallet {w}" for w in sorted(set(a.get("wallets", {})) | set(b.get("wallets", {})))
              if a.get("wallets", {}).get(w) != b.get("wallets", {}).get(w)]
    if a.get("records") != b.get("records"):
        names.append("house records")
    return "heads that differ: " + ", ".join(names) if names else "same heads, other fields"


def _heads(earlier: Snapshot, chains: Chains) -> list[Finding]:
    findings: list[Finding] = []
    for table_id, events in earlier.events.items():
        if not events:
            continue
        last = events[-1]
        if chains.tables.get(table_id, {}).get(int(last["seq"])) != last["hash"]:
            findings.append(Finding(f"table {table_id}", int(last["seq"]), (
                "the earlier bundle holds this table's chain up to here and this ledger does "
                "not extend it: an event up to here was changed or removed")))
    for wallet in earlier.wallets:
        head = wallet.get("chain_head")
        if head and head not in chains.wallets.get(wallet["player"], set()):
            findings.append(Finding(f"wallet {wallet['player']}", None, (
                "the earlier bundle holds this wallet's chain up to its head and this ledger "
                "does not extend it: an entry was changed or removed")))
    if earlier.records:
        last = earlier.records[-1]
        if chains.records.get(int(last["seq"])) != last["hash"]:
            findings.append(Finding("house records", int(last["seq"]), (
                "the earlier bundle holds the house's chain up to here and this ledger does "
                "not extend it: a record was changed or removed")))
    return findings
