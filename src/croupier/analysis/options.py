"""Defaults and readers the analysis commands share: each game's default profile and the value
of a ``key=value`` table option given on the command line.

>>> default_rules("roulette")
'nj-casino-night'
>>> option_value("3"), option_value("half")
(3, 'half')
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from croupier.games import GAMES

DEFAULT_RULES = {name: played.default_profile for name, played in GAMES.items()}
"""The profile ``edge`` reads a game under when neither ``--rules`` nor an options file names
one: the fullest regulation that covers the game (the registry's ``default_profile``)."""


def default_rules(game: str) -> str:
    """The default profile of ``game``; for a name that is no game, the fullest profile (the
    caller's reader then names the game at fault)."""
    return DEFAULT_RULES.get(game, "nj-13-69f")


def option_value(text: str) -> Any:
    """A ``--option`` value: JSON where it parses (decimals exact), else the text itself."""
    try:
        return json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError:
        return text
