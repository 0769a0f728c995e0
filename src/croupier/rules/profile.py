"""Loading a regulation's rule profile from its TOML file.

>>> p = load_profile("nj-13-69f")
>>> p.covers("mini-craps"), p.covers("roulette")
(True, False)
>>> str(p.craps.pays["place_win:6"])
'7 to 6'
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from croupier.money import Odds

PROFILE_IDS = ("nj-casino-night", "nj-19-47", "nj-13-69f")


@dataclass(frozen=True)
class GameRules:
    """One game's rules under a profile: permitted wagers (id -> clause), minimum pays, clauses."""

    wagers: dict[str, str]
    pays: dict[str, Odds]
    settings: dict[str, Any] = field(default_factory=dict)

    def clause(self, name: str, default: str = "") -> str:
        value = self.settings.get(name, default)
        return str(value)

    def permits(self, wager_id: str) -> bool:
        return wager_id in self.wagers


@dataclass(frozen=True)
class Profile:
    id: str
    title: str
    games: tuple[str, ...]
    craps: GameRules | None
    roulette: GameRules | None

    def covers(self, game: str) -> bool:
        return game in self.games


def _game_rules(raw: dict[str, Any]) -> GameRules:
    pays = {key: Odds.parse(text, key) for key, text in raw.get("pays", {}).items()}
    settings = {k: v for k, v in raw.items() if k not in ("wagers", "pays")}
    return GameRules(wagers=dict(raw.get("wagers", {})), pays=pays, settings=settings)


@cache
def load_profile(profile_id: str) -> Profile:
    """The profile named ``profile_id``; KeyError if there is none."""
    if profile_id not in PROFILE_IDS:
        raise KeyError(profile_id)
    text = resources.files("croupier.rules").joinpath(f"{profile_id}.toml").read_text("utf-8")
    raw = tomllib.loads(text)
    return Profile(
        id=raw["id"],
        title=raw["title"],
        games=tuple(raw["games"]),
        craps=_game_rules(raw["craps"]) if "craps" in raw else None,
        roulette=_game_rules(raw["roulette"]) if "roulette" in raw else None,
    )
