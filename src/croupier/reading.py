"""Reading what a person sends (a transcript's actions, a request's body) into checked values.

Shared by every game's reader (:mod:`croupier.craps.reading`, :mod:`croupier.roulette.reading`)
and used alike by ``croupier replay`` and the server. A malformed input raises
:class:`~croupier.errors.Malformed` naming the place, and where a name is close to one that
exists, the message asks "did you mean ...".

>>> check_keys({"player": "a", "bet": "hop", "dise": [1, 3]}, {"player", "bet", "dice"},
...            "actions[0]", "bet")
Traceback (most recent call last):
...
croupier.errors.Malformed: actions[0].dise: not a field of a bet action; did you mean "dice"?
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from croupier.errors import Malformed, Refusal
from croupier.money import parse_amount, show_json

ANNOTATION_KEYS = ("comment", "note", "description")


def did_you_mean(value: object, known: Iterable[str]) -> str:
    """``; did you mean "x"?`` for the closest of ``known`` to ``value``, or ``""``."""
    if not isinstance(value, str):
        return ""
    close = difflib.get_close_matches(value, sorted(known), n=1, cutoff=0.6)
    return f'; did you mean "{close[0]}"?' if close else ""


LISTED_AT_MOST = 12
"""A refusal lists every name it expected when there are at most this many."""


def unknown_name(value: object, known: Iterable[str], what: str, where: str,
                 listing: str = "") -> Malformed:
    """The error for ``value`` that is no ``what`` of ``known``: the names expected (or, for a
    long list, ``listing``: where to find them) and the nearest name, as :func:`did_you_mean`.
    The command line reads every name through this and :func:`check_name` (a strategy, a rule
    profile, a game, a wager, a table option, a pay-table entry, a command, an option).

    >>> print(unknown_name("nj-13-96f", ["nj-13-69f", "nj-19-47"], "rule profile", "--rules"))
    --rules: unknown rule profile "nj-13-96f"; expected one of nj-13-69f, nj-19-47; did you mean "nj-13-69f"?
    """
    names = list(known)
    shown = show_json(value) if isinstance(value, str) else repr(value)
    if listing or len(names) > LISTED_AT_MOST:
        expected = f"; {listing}" if listing else ""
    else:
        expected = f"; expected one of {', '.join(names)}"
    return Malformed(where, f"unknown {what} {shown}{expected}{did_you_mean(value, names)}")


def check_name(value: object, known: Iterable[str], what: str, where: str,
               listing: str = "") -> str:
    """``value`` when it is one of ``known``; else :func:`unknown_name`'s error.

    >>> check_name("craps", ("craps", "roulette"), "game", "--game")
    'craps'
    >>> check_name("crasp", ("craps", "roulette"), "game", "--game")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    croupier.errors.Malformed: --game: unknown game "crasp"; ...; did you mean "craps"?
    """
    names = list(known)
    if isinstance(value, str) and value in names:
        return value
    raise unknown_name(value, names, what, where, listing)


INT_DIGITS = 4000
"""Integers longer than this are read as Decimal: Python refuses to make an int of more than
4300 digits (sys.get_int_max_str_digits), which failed the whole parse with an interpreter's
hint; a JSON number that long is well formed, and the reader of its place says what is
wrong with it (an amount too large, not a die)."""


def _integer(text: str) -> int | Decimal:
    return int(text) if len(text) <= INT_DIGITS else Decimal(text)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


class _Object(dict[str, Any]):
    """A JSON object as parsed, remembering the first key it was given twice."""

    twice: str | None = None


def _object(pairs: list[tuple[str, Any]]) -> _Object:
    obj = _Object()
    for key, value in pairs:
        if key in obj and obj.twice is None:
            obj.twice = key
        obj[key] = value
    return obj


def _lone_surrogate(text: str) -> str | None:
    """The first lone surrogate in ``text`` (JSON's \\ud800 escape makes one: no character, and
    no name a result or a report can be written with), as its escape; or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"\\u{ord(text[exc.start]):04x}"
    return None


def _first_problem(value: Any, where: str) -> tuple[str, str] | None:
    """The place and the fault of the first key given twice in one object (JSON leaves its
    meaning open: which of two amounts would be meant?) or the first key or string that is not
    Unicode text (a lone surrogate), or None. Iterative: nesting is already bounded."""
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        node, place = stack.pop()
        if isinstance(node, _Object):
            if node.twice is not None:
                return (f"{place}.{node.twice}" if place else node.twice,
                        "a key given twice in one object")
            for key in node:
                bad = _lone_surrogate(key)
                if bad is not None:
                    return (place or "transcript",
                            f"a key is not valid Unicode text (a lone surrogate, {bad})")
            stack.extend((v, f"{place}.{k}" if place else k)
                         for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((v, f"{place}[{i}]") for i, v in reversed(list(enumerate(node))))
        elif isinstance(node, str):
            bad = _lone_surrogate(node)
            if bad is not None:
                return place, f"not valid Unicode text (a lone surrogate, {bad})"
    return None


def load_json(text: str) -> Any:
    """Parse JSON with every non-integer number as an exact Decimal.

    A key given twice in one object is malformed, named by its place; so are a lone surrogate
    in a key or a string, and nesting deeper than the parser's recursion limit (no transcript
    nests more than a few levels).
    """
    try:
        doc = json.loads(text, parse_float=Decimal, parse_int=_integer,
                         parse_constant=_reject_constant, object_pairs_hook=_object)
    except json.JSONDecodeError as exc:
        raise Malformed(
            "transcript", f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise Malformed("transcript", "not valid JSON: nested too deeply") from None
    except ValueError as exc:
        raise Malformed("transcript", f"not valid JSON: {exc}") from None
    problem = _first_problem(doc, "")
    if problem is not None:
        raise Malformed(*problem)
    return doc


def read_players(doc: dict[str, Any]) -> dict[str, Decimal]:
    """The ``players`` object: name -> starting bankroll, in table order."""
    raw = doc.get("players")
    if not isinstance(raw, dict) or not raw:
        raise Malformed("players", "must be an object naming at least one player")
    players: dict[str, Decimal] = {}
    for name, value in raw.items():
        if not name:
            raise Malformed("players", "a player's name may not be empty")
        players[name] = parse_amount(value, f"players.{name}")
    return players


def action_verb(action: Any, verbs: tuple[str, ...], where: str) -> str:
    """The one verb an action object carries (``bet``, ``roll``, ...)."""
    if not isinstance(action, dict):
        raise Malformed(where, "an action must be a JSON object")
    present = [v for v in verbs if v in action]
    if not present:
        unknown = [k for k in action if not is_comment_key(k) and k != "player"]
        hint = did_you_mean(unknown[0], verbs) if unknown else ""
        raise Malformed(where, f"no action: expected one of {', '.join(verbs)}{hint}")
    if len(present) > 1:
        raise Malformed(where, f"more than one action: {', '.join(present)}")
    return present[0]


def actions_of(doc: dict[str, Any]) -> list[Any]:
    """The ``actions`` list, which the contract requires (it may be empty).

    Read after the options and players, so that a transcript with a bad option names the option.
    """
    actions = doc.get("actions")
    if not isinstance(actions, list):
        raise Malformed("actions", "required: the list of actions (it may be empty)")
    return actions


def is_comment_key(key: str) -> bool:
    """Keys a person may add to annotate an action; they are ignored."""
    return key.startswith("_") or key in ANNOTATION_KEYS


def check_keys(action: dict[str, Any], allowed: set[str], where: str, verb: str) -> None:
    """An action carries only its own fields (and comments): anything else is malformed."""
    for key in action:
        if key not in allowed and not is_comment_key(key):
            raise Malformed(f"{where}.{key}",
                            f"not a field of a {verb} action{did_you_mean(key, allowed)}")


def read_player(value: Any, players: Iterable[str], where: str) -> str:
    """A player's name that must be one of ``players``."""
    if not isinstance(value, str):
        raise Malformed(where, f"not a player's name: {show_json(value)}")
    if value not in players:
        raise Malformed(where, f"{show_json(value)} is not listed in players")
    return value


def refusal_json(index: int, refusal: Refusal) -> dict[str, Any]:
    """A refused action as the replay result lists it."""
    reason = refusal.reason + (f" ({refusal.clause})" if refusal.clause else "")
    return {"index": index, "reason": reason, "clause": refusal.clause}


WAGER_FIELDS = ("number", "dice", "numbers", "center", "column", "dozen")
"""The fields of a request's body that say which wager of its kind it means (a game reads
its own)."""


def body_action(verb: str, body: Mapping[str, Any], player: str,
                amount: Decimal | str | None = None) -> dict[str, Any]:
    """A request's body naming a wager (``wager``, its qualifier, ``amount``) as the
    transcript's action: the wager under ``verb``, the player the caller is.

    >>> body_action("bet", {"wager": "hop", "dice": [3, 1], "coupon": "c-1"}, "ann", "5")
    {'bet': 'hop', 'player': 'ann', 'dice': [3, 1], 'amount': '5'}
    """
    raw: dict[str, Any] = {verb: body.get("wager"), "player": player}
    raw.update((k, body[k]) for k in WAGER_FIELDS if body.get(k) is not None)
    if amount is not None:
        raw["amount"] = amount
    return raw

