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

DEFAULT_RULES = {"craps": "nj-13-69f", "mini-craps": "nj-13-69f", "roulette": "nj-casino-night"}
"""The profile ``edge`` reads a game under when neither ``--rules`` nor an options file names
one: the fullest regulation that covers the game."""


def default_rules(game: str) -> str:
    """The default profile of ``game``; failing the table above, the first that covers it."""
    if game in DEFAULT_RULES:
        return DEFAULT_RULES[game]
    from croupier.rules import PROFILE_IDS, load_profile

    return next((p for p in PROFILE_IDS if load_profile(p).covers(game)), "nj-13-69f")


def option_value(text: str) -> Any:
    """A ``--option`` value: JSON where it parses (decimals exact), else the text itself."""
    try:
        return json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError:
        return text
