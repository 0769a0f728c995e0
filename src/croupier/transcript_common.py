"""Pieces of the replay contract shared by the craps and roulette readers."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from croupier.errors import Malformed, Refusal
from croupier.money import show_json


def action_verb(action: Any, verbs: tuple[str, ...], where: str) -> str:
    """The one verb an action object carries (``bet``, ``roll``, ...)."""
    if not isinstance(action, dict):
        raise Malformed(where, "an action must be a JSON object")
    present = [v for v in verbs if v in action]
    if not present:
        raise Malformed(where, f"no action: expected one of {', '.join(verbs)}")
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
    return key.startswith("_") or key in ("comment", "note", "description")


def check_keys(action: dict[str, Any], allowed: set[str], where: str, verb: str) -> None:
    """An action carries only its own fields (and comments): anything else is malformed."""
    for key in action:
        if key not in allowed and not is_comment_key(key):
            raise Malformed(f"{where}.{key}", f"not a field of a {verb} action")


def read_player(value: Any, players: dict[str, Decimal], where: str) -> str:
    if not isinstance(value, str):
        raise Malformed(where, f"not a player's name: {show_json(value)}")
    if value not in players:
        raise Malformed(where, f"{show_json(value)} is not listed in players")
    return value


def refusal_json(index: int, refusal: Refusal) -> dict[str, Any]:
    reason = refusal.reason + (f" ({refusal.clause})" if refusal.clause else "")
    return {"index": index, "reason": reason, "clause": refusal.clause}
