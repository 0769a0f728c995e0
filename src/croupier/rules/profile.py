"""Loading a regulation's rule profile from its TOML file into typed, frozen values.

Every setting a profile may hold is a field below; a setting or clause name the loader does
not know is an error when the profile is loaded, and :meth:`GameRules.clause` refuses a name
that is not a clause of the game, so a typo never reads as "no clause".

>>> p = load_profile("nj-13-69f")
>>> p.covers("mini-craps"), p.covers("roulette")
(True, False)
>>> str(p.craps.pays["place_win:6"])
'7 to 6'
>>> p.craps.late_bets, load_profile("nj-casino-night").craps.late_bets
(True, False)
>>> p.craps.late_bet_confirmation("mini-craps").by, p.craps.late_bet_confirmation("automated-craps")
(('dealer', 'floorperson'), None)
>>> p.craps.clause("odds_clase")
Traceback (most recent call last):
...
croupier.rules.profile.ProfileError: no clause named 'odds_clase' at craps; did you mean 'odds_clause'?
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, ClassVar

from croupier.money import Odds

PROFILE_IDS = ("nj-casino-night", "nj-19-47", "nj-13-69f")

CRAPS_CLAUSES = frozenset({
    "permitted_clause", "pays_clause", "payable_clause", "removal_clause",
    "dont_removal_clause", "timing_clause", "off_on_come_out_clause", "odds_clause",
    "buy_commission_clause", "lay_commission_clause", "seating_clause", "late_bet_clause",
    "coupon_clause", "fire_pays_clause",
})
ROULETTE_CLAUSES = frozenset({
    "permitted_clause", "pays_clause", "payable_clause", "placement_clause", "spin_clause",
    "five_adjacent_clause", "settlement_clause", "same_direction_clause", "revolutions_clause",
    "foreign_object_clause", "no_more_bets_clause", "valid_spin_clause",
})


class CommissionBase(StrEnum):
    """What a lay bet's commission is a share of (the profile's ``lay_commission_base``)."""

    STAKE = "stake"
    """The amount wagered."""
    WIN = "win"
    """What the bet could win (13:47-20.25(k))."""


class CommissionTiming(StrEnum):
    """When a buy or lay bet's commission is collected (the profile's ``vig_collected``, a
    table's option of that name and its ``vig_on_win``). A member is its string: it compares
    equal to, and is written to JSON and TOML as, ``"placement"`` or ``"win"``."""

    PLACEMENT = "placement"
    """When the bet is made."""
    WIN = "win"
    """Only when the bet wins."""


COMMISSION_BASES = tuple(CommissionBase)
COMMISSION_TIMINGS = tuple(CommissionTiming)


class ProfileError(ValueError):
    """A profile file that does not say what the loader can read."""


def _suggest(name: str, known: frozenset[str] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


@dataclass(frozen=True)
class LateBetConfirmation:
    """Who confirms a wager made while the dice are in the air, at the games named, as the
    clause names them (13:69F-1.3(a)1: "In craps, by the dealer and a boxperson")."""

    games: frozenset[str]
    by: tuple[str, ...]
    """The confirmers, as the clause names them: the dealer and a supervisor."""
    clause: str

    @property
    def supervisor(self) -> str:
        """The confirmer besides the dealer (boxperson, floorperson): the role a supervisor's
        confirmation is recorded under."""
        return next(who for who in self.by if who != "dealer")


@dataclass(frozen=True)
class GameRules:
    """One game's rules under a profile: permitted wagers (id -> clause), minimum pays, clauses."""

    game: str
    wagers: Mapping[str, str]
    pays: Mapping[str, Odds]
    clauses: Mapping[str, str]

    KNOWN_CLAUSES: ClassVar[frozenset[str]] = frozenset()

    def clause(self, name: str) -> str:
        """The clause ``name`` (``"odds_clause"``); "" when the regulation has none for it.

        A name that is no clause of the game at all is a programming error, not "no clause".
        """
        if name not in self.KNOWN_CLAUSES:
            raise ProfileError(f"no clause named {name!r} at {self.game}"
                               + _suggest(name, self.KNOWN_CLAUSES))
        return self.clauses.get(name, "")

    def permits(self, wager_id: str) -> bool:
        return wager_id in self.wagers


@dataclass(frozen=True)
class CrapsRules(GameRules):
    """Craps under a profile: every per-profile decision the engine and the server make."""

    KNOWN_CLAUSES: ClassVar[frozenset[str]] = CRAPS_CLAUSES

    off_on_come_out: frozenset[str] = frozenset()
    """Wagers inactive on the come-out roll unless called on."""
    free_odds: bool = False
    default_odds: str = "none"
    lay_commission_base: CommissionBase = CommissionBase.STAKE
    """What a lay bet's commission is a share of: its ``stake`` or what it could ``win``."""
    vig_collected: tuple[CommissionTiming, ...] = COMMISSION_TIMINGS
    """When buy and lay commission may be collected: at ``placement``, on the ``win``."""
    craps_only: frozenset[str] = frozenset()
    """Wagers permitted only at the game of craps itself (not mini- or automated craps)."""
    optional: frozenset[str] = frozenset()
    """Wagers offered at the election of the casino licensee (a table option)."""
    dont_bar: int = 12
    """The come-out total on which a don't pass or don't come bet stands (neither wins)."""
    seated_games: frozenset[str] = frozenset()
    """Games at which only seated players may wager."""
    late_bets: bool = False
    """Whether a wager may be made after the dice are thrown, with confirmation."""
    late_bet_confirmations: tuple[LateBetConfirmation, ...] = ()
    """Who confirms a late bet, game by game, as the late-bet clause names them; a game named
    by none takes no late bet (automated craps under 13:69F-1.3(a))."""
    coupon_wagers: frozenset[str] = frozenset()
    """Wagers a match play coupon may be put with (none: coupons are not accepted)."""
    fire_tables: Mapping[str, Mapping[str, Odds]] = field(default_factory=dict)
    all_place_bets: frozenset[str] = frozenset()
    """Wagers a table may also turn off on the come-out (``place_lose_off_on_come_out``)
    where the text's "All place bets shall be inactive" may be read of every place bet."""

    def late_bet_confirmation(self, game: str) -> LateBetConfirmation | None:
        """Who confirms a late bet at ``game`` (None: the profile names no one there)."""
        return next((c for c in self.late_bet_confirmations if game in c.games), None)


@dataclass(frozen=True)
class RouletteRules(GameRules):
    """Roulette under a profile."""

    KNOWN_CLAUSES: ClassVar[frozenset[str]] = ROULETTE_CLAUSES

    minimum_revolutions: int = 0
    void_clauses: Mapping[str, str] = field(default_factory=dict)
    """Why 00 is out of play, by wheel."""
    zero_rule_clauses: Mapping[str, str] = field(default_factory=dict)
    """What even-money wagers do on a zero, by wheel."""
    approved_layout_clauses: Mapping[str, str] = field(default_factory=dict)
    """Wagers offered only on a layout approved for them, with the clause requiring it."""


@dataclass(frozen=True)
class Profile:
    id: str
    title: str
    games: tuple[str, ...]
    craps: CrapsRules | None
    roulette: RouletteRules | None

    def covers(self, game: str) -> bool:
        return game in self.games


def _strings(raw: Any, where: str) -> frozenset[str]:
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise ProfileError(f"{where}: must be a list of names")
    return frozenset(raw)


def _table(raw: Any, where: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise ProfileError(f"{where}: must be a table")
    return raw


def _common(game: str, raw: dict[str, Any], known: frozenset[str], where: str,
            ) -> tuple[dict[str, Any], dict[str, str]]:
    """The wagers, pays and clauses, and the remaining settings (each one checked by name)."""
    pays = {key: Odds.parse(text, f"{where}.pays.{key}")
            for key, text in _table(raw.get("pays", {}), f"{where}.pays").items()}
    clauses: dict[str, str] = {}
    rest: dict[str, Any] = {}
    for key, value in raw.items():
        if key in ("wagers", "pays"):
            continue
        if key.endswith("_clause"):
            if key not in known:
                raise ProfileError(f"{where}.{key}: unknown clause" + _suggest(key, known))
            clauses[key] = str(value)
        else:
            rest[key] = value
    common = {"game": game, "wagers": MappingProxyType(dict(raw.get("wagers", {}))),
              "pays": MappingProxyType(pays), "clauses": MappingProxyType(clauses)}
    return common, rest


def _check_settings(rest: dict[str, Any], cls: type[GameRules], where: str) -> None:
    allowed = {f.name for f in fields(cls)} - {f.name for f in fields(GameRules)}
    for key in rest:
        if key not in allowed:
            raise ProfileError(f"{where}.{key}: unknown setting"
                               + _suggest(key, tuple(allowed | cls.KNOWN_CLAUSES)))


# The craps settings that are sets of wager (or game) ids, and those of one plain type.
_CRAPS_ID_SETS = ("off_on_come_out", "craps_only", "optional", "seated_games", "coupon_wagers",
                  "all_place_bets")
_CRAPS_SCALARS: tuple[tuple[str, type], ...] = (
    ("free_odds", bool), ("late_bets", bool), ("default_odds", str),
    ("lay_commission_base", str), ("dont_bar", int))


def _craps_rules(raw: dict[str, Any], where: str) -> CrapsRules:
    common, rest = _common("craps", raw, CRAPS_CLAUSES, where)
    _check_settings(rest, CrapsRules, where)
    rules = CrapsRules(**common, **_craps_settings(rest, where))
    _check_craps_rules(rules, where)
    return rules


def _craps_settings(rest: dict[str, Any], where: str) -> dict[str, Any]:
    """A craps profile's own settings, each read and checked for form."""
    settings: dict[str, Any] = {}
    for name in _CRAPS_ID_SETS:
        if name in rest:
            settings[name] = _strings(rest[name], f"{where}.{name}")
    for name, kind in _CRAPS_SCALARS:
        if name in rest:
            if not isinstance(rest[name], kind):
                raise ProfileError(f"{where}.{name}: must be a {kind.__name__}")
            settings[name] = rest[name]
    base = settings.get("lay_commission_base", CommissionBase.STAKE)
    if base not in COMMISSION_BASES:
        raise ProfileError(f"{where}.lay_commission_base: one of {', '.join(COMMISSION_BASES)}")
    settings["lay_commission_base"] = CommissionBase(base)
    if "vig_collected" in rest:
        settings["vig_collected"] = _vig_collected(rest["vig_collected"], where)
    if "late_bet_confirmations" in rest:
        settings["late_bet_confirmations"] = _confirmations(rest["late_bet_confirmations"],
                                                            f"{where}.late_bet_confirmations")
    if "fire_tables" in rest:
        settings["fire_tables"] = _fire_tables(rest["fire_tables"], where)
    return settings


def _vig_collected(raw: Any, where: str) -> tuple[CommissionTiming, ...]:
    """``vig_collected``: when the table collects a commission (the timings it allows)."""
    timings = tuple(sorted(_strings(raw, f"{where}.vig_collected")))
    if not set(timings) <= set(COMMISSION_TIMINGS):
        raise ProfileError(f"{where}.vig_collected: only {', '.join(COMMISSION_TIMINGS)}")
    return tuple(CommissionTiming(t) for t in timings)


def _fire_tables(raw: Any, where: str) -> MappingProxyType[str, MappingProxyType[str, Odds]]:
    """``[fire_tables.NAME]`` of the profile at ``where``: each a pay table of the fire bet
    (points made: odds)."""
    tables = _table(raw, f"{where}.fire_tables")
    return MappingProxyType({
        name: MappingProxyType({key: Odds.parse(text, f"{where}.fire_tables.{name}.{key}")
                                for key, text in _table(entries, where).items()})
        for name, entries in tables.items()})


def _check_craps_rules(rules: CrapsRules, where: str) -> None:
    """What a craps profile's settings must agree on: the wagers they name are permitted, and
    late bets and coupons come with their clauses and confirmers."""
    for name in ("off_on_come_out", "craps_only", "optional", "coupon_wagers", "all_place_bets"):
        unknown = getattr(rules, name) - set(rules.wagers)
        if unknown:
            raise ProfileError(f"{where}.{name}: not permitted wagers: {', '.join(sorted(unknown))}")
    if rules.late_bets and not rules.clause("late_bet_clause"):
        raise ProfileError(f"{where}.late_bets: a profile permitting late bets cites the clause")
    if rules.late_bets != bool(rules.late_bet_confirmations):
        raise ProfileError(f"{where}.late_bet_confirmations: a profile permitting late bets "
                           "names who confirms them, and only such a profile does")
    if rules.coupon_wagers and not rules.clause("coupon_clause"):
        raise ProfileError(f"{where}.coupon_wagers: a profile accepting coupons cites the clause")


def _confirmations(raw: Any, where: str) -> tuple[LateBetConfirmation, ...]:
    """``[[late_bet_confirmations]]``: each with its ``games``, who confirms (``by``, the
    dealer and one other) and the ``clause``; no game named twice."""
    if not isinstance(raw, list):
        raise ProfileError(f"{where}: must be a list of tables")
    out: list[LateBetConfirmation] = []
    for i, entry in enumerate(raw):
        at = f"{where}[{i}]"
        entry = _table(entry, at)
        if set(entry) != {"games", "by", "clause"}:
            raise ProfileError(f"{at}: holds games, by and clause, and nothing else")
        by = entry["by"]
        if (not isinstance(by, list) or len(set(by)) != 2 or len(by) != 2
                or not all(isinstance(x, str) for x in by) or "dealer" not in by):
            raise ProfileError(f"{at}.by: the dealer and one other confirm a late bet")
        if not isinstance(entry["clause"], str) or not entry["clause"].startswith("N.J.A.C."):
            raise ProfileError(f"{at}.clause: a clause of the text")
        games = _strings(entry["games"], f"{at}.games")
        if any(games & c.games for c in out):
            raise ProfileError(f"{at}.games: a game's confirmers are named once")
        out.append(LateBetConfirmation(games, tuple(by), entry["clause"]))
    return tuple(out)


def _roulette_rules(raw: dict[str, Any], where: str) -> RouletteRules:
    common, rest = _common("roulette", raw, ROULETTE_CLAUSES, where)
    _check_settings(rest, RouletteRules, where)
    settings: dict[str, Any] = {}
    if "minimum_revolutions" in rest:
        if not isinstance(rest["minimum_revolutions"], int):
            raise ProfileError(f"{where}.minimum_revolutions: must be an int")
        settings["minimum_revolutions"] = rest["minimum_revolutions"]
    for name in ("void_clauses", "zero_rule_clauses", "approved_layout_clauses"):
        if name in rest:
            table = _table(rest[name], f"{where}.{name}")
            settings[name] = MappingProxyType({k: str(v) for k, v in table.items()})
    return RouletteRules(**common, **settings)


PROFILE_KEYS = frozenset({"id", "title", "games", "craps", "roulette"})


def parse_profile(raw: dict[str, Any]) -> Profile:
    """A profile from its parsed TOML; :class:`ProfileError` names anything unknown."""
    for key in raw:
        if key not in PROFILE_KEYS:
            raise ProfileError(f"{key}: unknown profile key" + _suggest(key, PROFILE_KEYS))
    where = str(raw.get("id", "profile"))
    craps = _craps_rules(_table(raw["craps"], "craps"), f"{where}.craps") if "craps" in raw else None
    roulette = (_roulette_rules(_table(raw["roulette"], "roulette"), f"{where}.roulette")
                if "roulette" in raw else None)
    profile = Profile(id=raw["id"], title=raw["title"], games=tuple(raw["games"]), craps=craps,
                      roulette=roulette)
    for confirmation in craps.late_bet_confirmations if craps is not None else ():
        strange = confirmation.games - set(profile.games)
        if strange:
            raise ProfileError(f"{where}.craps.late_bet_confirmations: not games the profile "
                               f"covers: {', '.join(sorted(strange))}")
    return profile


@cache
def load_profile(profile_id: str) -> Profile:
    """The profile named ``profile_id``; KeyError if there is none."""
    if profile_id not in PROFILE_IDS:
        raise KeyError(profile_id)
    text = resources.files("croupier.rules").joinpath(f"{profile_id}.toml").read_text("utf-8")
    return parse_profile(tomllib.loads(text))
