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

import orjson

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
_COMPACT = json.JSONEncoder(separators=(",", ":"))

# orjson writes the texts below in a fraction of the standard library's time (every event
# written is encoded twice: its stored payload and its canonical form), and, for the values
# they are given (strings, integers, None, lists and string-keyed dicts), the very same
# characters. Anything else makes it raise rather than write its own form (a dataclass, a
# datetime, a subclass of str or int, an integer past 64 bits, a lone surrogate), and the
# standard library writes (or refuses) it as it always has.
_PLAIN_ONLY = (orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
               | orjson.OPT_PASSTHROUGH_SUBCLASS)
_SORTED = _PLAIN_ONLY | orjson.OPT_SORT_KEYS


def sorted_text(value: Any) -> str:
    """A plain ``value`` (no floats, no decimals) as canonical JSON: ``_ENCODER``'s text.

    >>> sorted_text({"b": "ñ", "a": [1, None]}) == _ENCODER.encode({"b": "ñ", "a": [1, None]})
    True
    """
    try:
        return orjson.dumps(value, option=_SORTED).decode()
    except TypeError:
        return _ENCODER.encode(value)


def compact(value: Any) -> str:
    """A plain ``value`` (no floats, no decimals) as ``json.dumps(value, separators=(",",
    ":"))`` writes it: ASCII, any other character escaped. orjson's text is taken when it is
    that already (printable ASCII and control characters it escapes alike); one holding
    another character, or DEL, which only the standard library escapes, is written by it.

    >>> compact({"a": [1, None]}), [compact(t) == json.dumps(t) for t in ("ñ", "\x7f")]
    ('{"a":[1,null]}', [True, True])
    """
    try:
        out = orjson.dumps(value, option=_PLAIN_ONLY)
    except TypeError:
        return _COMPACT.encode(value)
    if out.isascii() and b"\x7f" not in out:
        return out.decode("ascii")
    return _COMPACT.encode(value)


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
    return sorted_text({"table": row["table_id"], "seq": row["seq"], "round": row["round"],
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
    return sorted_text(text)
