"""Defaults and readers the analysis commands share: each game's default profile, the value
of a ``key=value`` table option given on the command line, and the names those commands read
(a game, a rule profile, a table option, a pay-table entry), each checked by
:func:`croupier.reading.check_name` so that a misspelt one is refused with the nearest name.

>>> default_rules("roulette")
'nj-casino-night'
>>> option_value("3"), option_value("half")
(3, 'half')
>>> check_options("craps", {"vigg": "0.04"}, "--option {key}")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
croupier.errors.Malformed: --option vigg: unknown craps table option "vigg"; ...; did you mean "vig"?
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from croupier.analysis.family import analysis_of
from croupier.errors import Malformed
from croupier.games import GAME_NAMES, GAMES
from croupier.reading import check_name, unknown_name
from croupier.rules import PROFILE_IDS, load_profile

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


def check_game(name: object, where: str = "--game") -> str:
    """``name`` if it is a game; else malformed, with the nearest game."""
    return check_name(name, GAME_NAMES, "game", where)


def check_rules(name: object, where: str = "--rules") -> str:
    """``name`` if it is a rule profile; else malformed, with the nearest (``croupier rules``
    lists them)."""
    return check_name(name, PROFILE_IDS, "rule profile", where)


def option_names(game: str) -> tuple[str, ...]:
    """The table options a table of ``game`` reads; where a table option elects a wager (at
    craps), also each wager's id (whether the table offers it)."""
    played = GAMES[game]
    return played.option_keys + (tuple(played.wager_names) if played.elects_wagers else ())


def pay_names(game: str, rules: str) -> tuple[str, ...]:
    """Every pay-table entry ``rules`` has for ``game``'s family (at craps with each fire pay
    table's entries); whether a table pays one is the table's say."""
    return analysis_of(GAMES[game]).pay_entries(load_profile(rules))


def option_problems(game: str, options: dict[str, Any], where: str) -> list[Malformed]:
    """An error for each name in ``options`` that is no table option of ``game``, with the
    nearest name, at ``where`` (a format with ``{key}``)."""
    known = option_names(game)
    played = GAMES[game]
    listing = (f"expected one of {', '.join(played.option_keys)}, or a wager's id "
               "(croupier wagers)") if played.elects_wagers else ""
    what = f"{played.family} table option"
    return [unknown_name(key, known, what, where.format(key=key), listing)
            for key in options if key not in known]


def check_options(game: str, options: dict[str, Any], where: str) -> None:
    """Every name in ``options`` a table option of ``game``; else malformed (the first), with
    the nearest name, at ``where`` (a format with ``{key}``)."""
    problems = option_problems(game, options, where)
    if problems:
        raise problems[0]


def check_table(game: str, table: Mapping[str, Any], name: str) -> None:
    """A strategy's table options (its ``[table]``): each name checked as :func:`check_options`
    does, placed where the engine would place it (``NAME.table.options.KEY``)."""
    check_options(game, dict(table), f"{name}.table.options.{{key}}")


def check_pays(game: str, rules: str, pays: dict[str, Any], where: str) -> None:
    """Every key of ``pays`` a pay-table entry of ``rules`` for ``game``; malformed, with the
    nearest entry, at ``where`` (a format with ``{key}``)."""
    known = pay_names(game, rules)
    for key in pays:
        check_name(key, known, "pay-table entry", where.format(key=key),
                   f"{rules}'s are listed by croupier wagers")
