"""Lossless JSON for events, so the ledger can store them and rebuild tables from them.

``Event.to_json`` is for people (tuples become lists); this codec tags what JSON cannot say
(decimals, tuples, frozensets) so that ``decode(encode(e)) == e``.

>>> from decimal import Decimal
>>> from croupier.events import BetMade
>>> e = BetMade("ann", "hop:1-3", "hop", Decimal("5"), qualifier=(1, 3), commission=Decimal(0))
>>> decode("craps", encode(e)) == e
True

A kind an earlier release wrote is read as the event it now is:

>>> decode("roulette", '{"type":"remove","f":{"player":"ann","wager":"red",'
...        '"returned":{"$d":"5"}}}')
BetTakenDown(player='ann', wager='red', amount=Decimal('5'), whole=True)

The request that produced an event (the digest of its caller, Idempotency-Key and request,
``request_digest``) is stored with it, beside its fields: chained with the event, never part
of the event itself (nor of its JSON in a replay result):

>>> text = encode(e, "ab12")
>>> decode("craps", text) == e, request_of(text), request_of(encode(e))
(True, 'ab12', None)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import fields
from decimal import Decimal
from typing import Any

from croupier.events import SHARED_EVENTS, BetTakenDown, Event, Opened
from croupier.games import GAMES
from croupier.service.audit.canonical import compact
from croupier.service.events import SERVICE_EVENTS

# One registry of the kinds a ledger holds. The shared and the service's events are read by
# kind alone; a game's own events by the table's family and kind (each game's opening is
# kind "table_opened" and says what that game's table opened with).
KINDS: dict[str, type[Event]] = {cls.kind: cls for cls in SHARED_EVENTS + SERVICE_EVENTS}
KINDS_BY_FAMILY: dict[tuple[str, str], type[Event]] = {
    (game.family, cls.kind): cls for game in GAMES.values() for cls in game.events}

Fields = dict[str, Any]


def _removed(f: Fields) -> Fields:
    """Roulette's ``remove`` (a whole wager taken back) as the shared take-down."""
    return {"player": f["player"], "wager": f["wager"], "amount": f["returned"], "whole": True}


def _void(f: Fields) -> Fields:
    """A void's round, stored as ``round`` before the field was named ``decision`` (an event's
    ``round`` is where it is recorded)."""
    return {("decision" if k == "round" else k): v for k, v in f.items()}


# The kinds earlier releases wrote that are now spelt otherwise: the kind each is read as and
# how its stored fields become that event's (old ledgers are never rewritten: their rows are
# chained and signed as they are).
ALIASES: dict[str, tuple[str, Callable[[Fields], Fields]]] = {
    "open": (Opened.kind, dict),  # craps's opening, before one kind served every game
    "remove": (BetTakenDown.kind, _removed),  # roulette's, before the shared take-down
    "void": ("void", _void),
}


def family(game: str) -> str:
    """The event family of a game: the craps games share the craps events."""
    return GAMES[game].family


_PLAIN = frozenset({str, int, bool, type(None)})
"""The types written as they are (most of an event's fields): looked up before the tags."""


def _tag(value: Any) -> Any:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Decimal):
        return {"$d": str(value)}
    if isinstance(value, tuple):
        return {"$t": [_tag(v) for v in value]}
    if isinstance(value, frozenset):
        return {"$f": [_tag(v) for v in sorted(value, key=repr)]}
    if isinstance(value, list):
        return [_tag(v) for v in value]
    if isinstance(value, dict):
        return {"$m": [[_tag(k), _tag(v)] for k, v in value.items()]}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise TypeError(f"cannot encode {type(value).__name__} in an event")


def _untag(value: Any) -> Any:
    if isinstance(value, dict):
        if "$d" in value:
            return Decimal(value["$d"])
        if "$t" in value:
            return tuple(_untag(v) for v in value["$t"])
        if "$f" in value:
            return frozenset(_untag(v) for v in value["$f"])
        if "$m" in value:
            return {_untag(k): _untag(v) for k, v in value["$m"]}
        raise ValueError(f"unknown tag in {value!r}")
    if isinstance(value, list):
        return [_untag(v) for v in value]
    return value


_NAMES: dict[type[Any], tuple[str, ...]] = {}
"""The field names of each event class, read once (``dataclasses.fields`` per event cost more
than the rest of its encoding)."""


def _names(kind: type[Any]) -> tuple[str, ...]:
    names = _NAMES.get(kind)
    if names is None:
        names = _NAMES[kind] = tuple(f.name for f in fields(kind))
    return names


def encode(event: Event, request: str | None = None) -> str:
    """The event as a JSON text: its kind and every field, tagged; with ``request``, the
    digest of the request that produced it (``request_digest``)."""
    body = {name: _tag(getattr(event, name)) for name in _names(type(event))}
    out: dict[str, Any] = {"type": event.kind, "f": body}
    if request is not None:
        out["r"] = request
    return compact(out)


def request_of(text: str) -> str | None:
    """The digest of the request that produced a stored event (None: it was produced without
    an Idempotency-Key, or recorded by a release that did not keep it)."""
    found = json.loads(text).get("r")
    return found if isinstance(found, str) else None


def request_digest(user_id: int, key: str, fingerprint: str) -> str:
    """What the chain records of a request made with an Idempotency-Key: the SHA-256 of its
    caller, its key and what it asked (``plans.fingerprint``), never the key itself. A retry
    of the same request by the same caller gives the same digest; the stored reply kept
    under the key is rebuilt and compared against it by the audit (``audit.requests``).

    >>> request_digest(3, "k-1", "f") == request_digest(3, "k-1", "f") != request_digest(4,
    ...     "k-1", "f")
    True
    """
    text = compact([user_id, key, fingerprint])
    return hashlib.sha256(text.encode()).hexdigest()


def decode(game: str, text: str) -> Event:
    """The event ``encode`` wrote, for a table of ``game``."""
    raw = json.loads(text)
    kind = raw["type"]
    body: Fields = {name: _untag(value) for name, value in raw["f"].items()}
    if kind in ALIASES:
        kind, upgrade = ALIASES[kind]
        body = upgrade(body)
    cls = KINDS.get(kind) or KINDS_BY_FAMILY[(family(game), kind)]
    return cls(**body)


def player_of(event: Event) -> str | None:
    """The player an event concerns, if any."""
    player = getattr(event, "player", None)
    return player if isinstance(player, str) else None
