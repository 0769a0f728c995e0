"""The replay contract: a JSON transcript in, a JSON result out (``croupier replay``).

Money is read without binary floating point (JSON numbers are parsed as Decimal) and written
as strings with two decimals. A malformed transcript raises :class:`Malformed` naming the place.
The same loop plays every game: the game's reader turns each action into a typed value and the
table (:class:`croupier.table.Table`) checks and plays it.

>>> result = replay_text('{"game": "craps", "rules": "nj-13-69f", "players": {"a": 100},'
...                      ' "actions": [{"player": "a", "bet": "pass", "amount": 10},'
...                      ' {"roll": [3, 4]}]}')
>>> result["players"]["a"]
{'bankroll': '110.00', 'on_table': '0.00'}
"""

from __future__ import annotations

from decimal import localcontext
from typing import Any

from croupier.errors import Malformed, Refusal
from croupier.games import Game, game
from croupier.money import fmt, show_json
from croupier.reading import (
    actions_of,
    did_you_mean,
    is_comment_key,
    load_json,
    read_players,
    refusal_json,
)
from croupier.rules import PROFILE_IDS, Profile, load_profile

TOP_LEVEL_KEYS = ("game", "rules", "options", "players", "actions")


def read_header(doc: Any) -> tuple[Game, Profile]:
    """Check the top level and return the game and the profile."""
    if not isinstance(doc, dict):
        raise Malformed("transcript", "must be a JSON object")
    for key in doc:
        if key not in TOP_LEVEL_KEYS and not is_comment_key(key):
            raise Malformed(
                key, f"not a top-level key of a transcript (expected {', '.join(TOP_LEVEL_KEYS)})"
                f"{did_you_mean(key, TOP_LEVEL_KEYS)}")
    played = game(doc.get("game"))
    rules = doc.get("rules")
    if rules not in PROFILE_IDS:
        raise Malformed(
            "rules", f"unknown rules {show_json(rules)}; expected one of {', '.join(PROFILE_IDS)}"
            f"{did_you_mean(rules, PROFILE_IDS)}")
    profile = load_profile(rules)
    if not profile.covers(played.name):
        raise Malformed("game", f"{played.name} is not a game that {rules} ({profile.title}) "
                        "covers")
    if not isinstance(doc.get("options", {}), dict):
        raise Malformed("options", "must be an object")
    if not isinstance(doc.get("actions", []), list):
        raise Malformed("actions", "must be a list")
    return played, profile


MONEY_DIGITS = 120
"""Significant digits of the decimal arithmetic a replay runs under. Python's default, 28, is
reached by a long enough transcript: a stake may be just under 10**16 and a pay-table entry
up to 1,000,000 to 1, so each action can add some 10**22 to a bankroll, and after about 10**5
such wins the cents were rounded away and the result could not be written (InvalidOperation,
an internal error). A stake grows by at most 10**16 an action, so a bankroll stays below
10**22 times the square of the number of actions: 120 digits hold any transcript a machine
can store."""


def replay(doc: Any) -> dict[str, Any]:
    """Play a parsed transcript through the engine and return the result object."""
    with localcontext() as exact:
        exact.prec = MONEY_DIGITS
        return _replay(doc)


def _replay(doc: Any) -> dict[str, Any]:
    played, profile = read_header(doc)
    players = read_players(doc)
    table = played.open(profile, doc.get("options", {}), players)
    events: list[dict[str, Any]] = [table.opening_json()]
    rejected: list[dict[str, Any]] = []
    for index, raw in enumerate(actions_of(doc)):
        action = played.read_action(raw, f"actions[{index}]", players, table)
        try:
            done = table.act(action)
        except Refusal as refusal:
            rejected.append(refusal_json(index, refusal))
            continue
        events.extend({"action": index, **table.event_json(event)} for event in done)
    return {
        "players": {name: {"bankroll": fmt(table.chips(name)),
                           "on_table": fmt(table.on_table(name))} for name in players},
        "rejected": rejected,
        "state": table.state_json(),
        "events": events,
    }


def replay_text(text: str) -> dict[str, Any]:
    return replay(load_json(text))
