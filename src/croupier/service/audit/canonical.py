"""The ledger's canonical form and its hash chains.

Every stored record that moves money or changes a table is hashed in a canonical JSON form:
keys sorted, no whitespace, UTF-8, money as decimal strings with two places ("10.00"), times
as Python's shortest float text ("1764504000.123"), and an event's payload as the codec's text
exactly as stored. Each record's hash is SHA-256 over the previous hash (hex), a newline and
the record's canonical form, so changing, removing or reordering any record changes every hash
after it. There is one chain per table (over its events by ``seq``, starting from a hash of the
table's configuration) and one per wallet (over its entries in the order they were written,
starting from a hash of the player's name).

>>> canonical({"b": 1, "a": [Decimal("1.5"), None]})
'{"a":["1.5",null],"b":1}'
>>> link("0" * 64, "{}") == link("0" * 64, "{}"), len(link("0" * 64, "{}"))
(True, 64)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

FORMAT = "croupier-ledger-v1"


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(value: Any) -> str:
    """``value`` as canonical JSON (sorted keys, no whitespace, decimals and floats as text)."""
    return _ENCODER.encode(_plain(value))


def link(previous: str, text: str) -> str:
    """The hash of a record whose canonical form is ``text``, after ``previous``."""
    return hashlib.sha256(f"{previous}\n{text}".encode()).hexdigest()


def money(cents: int) -> str:
    """Whole cents as a decimal string with two places (exact for any integer)."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}{whole}.{part:02d}"


def table_genesis(table_id: str, game: str, profile: str, options: str, capacity: int) -> str:
    """Where a table's chain starts: its configuration (options as their stored JSON text)."""
    return link(FORMAT, canonical({"table": table_id, "game": game, "profile": profile,
                                   "options": options, "capacity": capacity}))


def genesis_of(row: Mapping[Any, Any]) -> str:
    """Where the chain of the table stored as ``row`` (a ``tables`` row's mapping) starts."""
    return table_genesis(row["id"], row["game"], row["profile"], row["options"],
                         row["capacity"])


def wallet_genesis(player: str) -> str:
    """Where a wallet's chain starts."""
    return link(FORMAT, canonical({"wallet": player}))


def event_text(row: Any) -> str:
    """The canonical form of a stored event row (``table_id, seq, round, kind, player,
    payload, actor, at``)."""
    # Every value is already plain (str, int or None) but the time: built directly, as this
    # runs for every event written.
    return _ENCODER.encode({"table": row["table_id"], "seq": row["seq"], "round": row["round"],
                            "kind": row["kind"], "player": row["player"],
                            "payload": row["payload"], "actor": row["actor"],
                            "at": repr(float(row["at"]))})


def entry_text(row: Any) -> str:
    """The canonical form of a wallet entry row; with the request that made it (a move at the
    cage under an Idempotency-Key) when it records one, so that an entry written before
    entries recorded requests hashes as it did."""
    text = {"player": row["player"], "amount": money(row["amount_cents"]),
            "kind": row["kind"], "table": row["table_id"], "seq": row["seq"],
            "balance_after": money(row["balance_after_cents"]),
            "actor": row["actor"], "at": repr(float(row["at"]))}
    if row.get("request") is not None:
        text["request"] = row["request"]
    return _ENCODER.encode(text)
