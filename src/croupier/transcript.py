"""The replay contract (``shared/spec/transcript.md``): a JSON transcript in, a JSON result out.

Money is read without binary floating point (JSON numbers are parsed as Decimal) and written
as strings with two decimals. A malformed transcript raises :class:`Malformed` naming the place.

>>> result = replay_text('{"game": "craps", "rules": "nj-13-69f", "players": {"a": 100},'
...                      ' "actions": [{"player": "a", "bet": "pass", "amount": 10},'
...                      ' {"roll": [3, 4]}]}')
>>> result["players"]["a"]
{'bankroll': '110.00', 'on_table': '0.00'}
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from croupier.errors import Malformed
from croupier.money import parse_amount, show_json
from croupier.rules import PROFILE_IDS, Profile, load_profile
from croupier.transcript_common import is_comment_key

GAMES = ("craps", "mini-craps", "roulette")
TOP_LEVEL_KEYS = ("game", "rules", "options", "players", "actions")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def load_json(text: str) -> Any:
    """Parse JSON with every non-integer number as an exact Decimal."""
    try:
        return json.loads(text, parse_float=Decimal, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise Malformed(
            "transcript", f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except ValueError as exc:
        raise Malformed("transcript", f"not valid JSON: {exc}") from None


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


def read_header(doc: Any) -> tuple[str, Profile]:
    """Check the top level and return the game and the profile."""
    if not isinstance(doc, dict):
        raise Malformed("transcript", "must be a JSON object")
    for key in doc:
        if key not in TOP_LEVEL_KEYS and not is_comment_key(key):
            raise Malformed(
                key, f"not a top-level key of a transcript (expected {', '.join(TOP_LEVEL_KEYS)})"
            )
    game = doc.get("game")
    if game not in GAMES:
        raise Malformed("game", f"unknown game {show_json(game)}; expected one of {', '.join(GAMES)}")
    rules = doc.get("rules")
    if rules not in PROFILE_IDS:
        raise Malformed(
            "rules", f"unknown rules {show_json(rules)}; expected one of {', '.join(PROFILE_IDS)}"
        )
    profile = load_profile(rules)
    if not profile.covers(game):
        raise Malformed("game", f"{game} is not a game that {rules} ({profile.title}) covers")
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise Malformed("options", "must be an object")
    actions = doc.get("actions", [])
    if not isinstance(actions, list):
        raise Malformed("actions", "must be a list")
    return game, profile


def replay(doc: Any) -> dict[str, Any]:
    """Play a parsed transcript through the engine and return the result object."""
    game, profile = read_header(doc)
    if game == "roulette":
        from croupier.roulette.replay import replay_roulette

        return replay_roulette(doc, profile)
    from croupier.craps.replay import replay_craps

    return replay_craps(doc, profile, mini=(game == "mini-craps"))


def replay_text(text: str) -> dict[str, Any]:
    return replay(load_json(text))
