"""What the analysis asks of a family of games, one implementation per family.

The exact analysis is not the same at every game: a craps wager is a chain over the dice with
its commission, its odds behind a point and its fire pay tables; a roulette wager is decided by
one spin of a wheel. Each family's module (:mod:`croupier.analysis.craps`,
:mod:`croupier.analysis.roulette`) implements :class:`FamilyAnalysis`; the game registry names
the module (:attr:`croupier.games.Game.analysis`), so no caller asks which game a table plays.

>>> from croupier.games import GAMES
>>> analysis_of(GAMES["mini-craps"]).title
'Craps, mini-craps and automated craps'
>>> opened = open_table("roulette", "nj-casino-night", {"wheel": "single-zero"})
>>> straight = opened.analysis.edges(opened)[0]
>>> straight.wager, straight.house_edge
('straight', Fraction(1, 37))
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol

from croupier.errors import Malformed
from croupier.games import Game, game
from croupier.rules import Profile, load_profile
from croupier.table import Table

if TYPE_CHECKING:
    from croupier.analysis.compliance import Proposal, TableReport
    from croupier.analysis.exact import WagerAnalysis


@dataclass(frozen=True)
class OpenedTable:
    """A table of one game as the analysis opens it: its game and the family's analysis, the
    profile and options it is read under, and the table itself, opened empty with them."""

    game: Game
    analysis: FamilyAnalysis
    profile: Profile
    options: Mapping[str, Any]
    table: Table


class FamilyAnalysis(Protocol):
    """The analysis of the games of one family."""

    title: str
    """The family's heading in the wager reference (docs/wagers.md)."""

    def edges(self, opened: OpenedTable, stake: Decimal | None = None) -> list[WagerAnalysis]:
        """Every wager the table offers, analysed exactly (``croupier edge``); at ``stake``,
        as the table really takes that stake, each row noting why the table would refuse it."""

    def edge_notes(self, opened: OpenedTable) -> dict[str, list[str]]:
        """Notes by wager id on what the figures do not show (where the profile departs from
        common practice, what the calls the table takes do to a wager)."""

    def pay_entries(self, profile: Profile) -> tuple[str, ...]:
        """Every pay-table entry ``profile`` has for the family (a proposal may raise any;
        whether a table pays one is the table's say)."""

    def refusable(self, profile: Profile, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` without those a proposal's report shows as refusals rather than as
        malformed (a commission over the maximum, a wager the profile does not permit)."""

    def check(self, proposal: Proposal) -> TableReport:
        """A proposed pay table and options checked entry by entry (``croupier check``)."""

    def wager_rows(self) -> list[dict[str, Any]]:
        """The family's wagers as the wager reference lists them (``croupier wagers``)."""


def analysis_of(played: Game) -> FamilyAnalysis:
    """The analysis of ``played``'s family, from the module its registry entry names."""
    module = importlib.import_module(played.analysis)
    found: FamilyAnalysis = module.ANALYSIS
    return found


def open_table(game_name: str, profile_id: str, options: Mapping[str, Any]) -> OpenedTable:
    """A table of ``game_name`` under ``profile_id`` with ``options``, opened for analysis.

    Malformed for a game or profile that is none, a profile that does not cover the game, or
    options the profile does not allow (naming ``options.KEY``).
    """
    played = game(game_name)
    try:
        profile = load_profile(profile_id)
    except KeyError:
        raise Malformed("rules", f"unknown rule profile {profile_id!r}") from None
    if not profile.covers(played.name):
        raise Malformed("game", f"{profile_id} does not cover {played.name}")
    table = played.open(profile, options, {})
    return OpenedTable(played, analysis_of(played), profile, options, table)
