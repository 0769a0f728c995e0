"""Pay-table compliance: a house's proposed pay table and options, checked against a profile.

A proposal is a JSON or TOML document::

    game = "craps"              # craps, mini-craps or roulette (default craps)
    rules = "nj-13-69f"         # the rule profile (required)
    table = "Table 7"           # a name for the report (default: the file name)
    wagers = ["pass", "fire"]   # optional: the wagers the house means to offer
    [options]                   # table options of the replay contract (vig, vig_collected, ...)
    [pays]                      # proposed payouts: {"field:12": "3 to 1"} (or options.pays)

Each pay-table entry gets its regulatory minimum, the proposed payout, the resulting house edge
(exact, from :mod:`croupier.analysis.exact`) and a verdict. Refused: a payout below the minimum
(13:69F-1.4(b), 19:47-1.4(b), 13:47-20.25(i)2) or so far above the wager's true odds that the
player's edge passes :data:`MAX_PLAYER_EDGE` (the regulations set the least a wager pays and
let the house pay more, even past the true odds as a promotion; a pay table that hands the
player more than a quarter of every wager is a slip of the keyboard, "999999 to 1" for "9 to
1", not a promotion), a commission over five percent (13:69F-1.5,
13:47-20.25(j), (k)), a wager or entry the profile does not permit, odds stated with "for"
(13:69F-1.4(a), 19:47-1.4(a), 13:47-20.25(i)1), and, across several tables, a wager paid
differently at two tables (payouts above the minimum must be uniform within the casino).

>>> report = check_documents([("t1", {"rules": "nj-13-69f", "pays": {"field:12": "3 to 1"}})])
>>> report.compliant, [e.edge for e in report.tables[0].entries if e.key == "field:12"]
(True, [Fraction(1, 36)])
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from croupier.analysis import exact
from croupier.analysis.family import analysis_of
from croupier.analysis.options import option_names, option_problems
from croupier.errors import Malformed
from croupier.games import GAMES, Game
from croupier.money import Odds
from croupier.reading import unknown_name
from croupier.rules import PROFILE_IDS, GameRules, Profile, load_profile
from croupier.rules.citations import cite

OK = "ok"
MAX_PLAYER_EDGE = Fraction(1, 4)
"""The most a pay table may give the player of each wager: past it an entry is refused as a
slip of the keyboard. A pay above the true odds short of it (place 6 at "10 to 7": the
player's edge 8/77) is the house's to offer and passes."""
REFUSED = "refused"

_FOR = re.compile(r"^\s*\d+\s+for\s+\d+\s*$", re.IGNORECASE)
_TOP_KEYS = ("game", "rules", "table", "options", "pays", "wagers")


@dataclass(frozen=True)
class Proposal:
    """One proposal, its header and shape checked: the game and profile, the table options
    (without the pays), the proposed entries as written and the wagers the house means to
    offer. Each family's analysis checks it (:meth:`FamilyAnalysis.check`)."""

    name: str
    game: Game
    profile: Profile
    options: dict[str, Any]
    pays: dict[str, str]
    wagers: list[str]


EdgeOf = Callable[[str, Mapping[str, Odds]], Fraction | None]
"""The house edge of the wager a pay-table entry prices, under a pay table (None: no wager
of its own prices the entry)."""


@dataclass
class Entry:
    """One line of the report."""

    table: str
    key: str
    minimum: str | None
    proposed: str | None
    edge: Fraction | None
    verdict: str
    reason: str = ""
    clause: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table, "key": self.key, "minimum": self.minimum,
            "proposed": self.proposed,
            "house_edge_exact": None if self.edge is None else exact.show_fraction(self.edge),
            "house_edge": None if self.edge is None else float(self.edge),
            "verdict": self.verdict, "reason": self.reason, "clause": self.clause,
        }


@dataclass
class TableReport:
    name: str
    game: str
    profile: str
    entries: list[Entry] = field(default_factory=list)
    effective: dict[str, Odds] = field(default_factory=dict)
    pays_clause: str = ""

    @property
    def compliant(self) -> bool:
        return all(e.verdict == OK for e in self.entries)


@dataclass
class Report:
    tables: list[TableReport]
    uniformity: list[Entry]

    @property
    def compliant(self) -> bool:
        return all(t.compliant for t in self.tables) and not self.uniformity

    def to_json(self) -> dict[str, Any]:
        return {
            "compliant": self.compliant,
            "tables": [{"table": t.name, "game": t.game, "rules": t.profile,
                        "compliant": t.compliant, "entries": [e.to_json() for e in t.entries]}
                       for t in self.tables],
            "uniformity": [e.to_json() for e in self.uniformity],
        }


def read_document(path: str) -> dict[str, Any]:
    """A proposal file, JSON or TOML (by extension; otherwise JSON, then TOML)."""
    try:
        text = Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise Malformed(path, f"cannot read: {exc}") from None
    loaders = ("toml", "json") if path.endswith(".toml") else ("json", "toml")
    errors = []
    for kind in loaders:
        try:
            doc = (json.loads(text, parse_float=Decimal) if kind == "json"
                   else tomllib.loads(text, parse_float=Decimal))
        except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
            errors.append(f"{kind}: {exc}")
            continue
        if not isinstance(doc, dict):
            raise Malformed(path, "a proposal must be an object (a JSON object or a TOML table)")
        return doc
    raise Malformed(path, "neither JSON nor TOML (" + "; ".join(errors) + ")")


class Problems(Malformed):
    """Every malformed value of one or more proposals, found in one pass (each names its file
    and place), so a house fixes its files once instead of once per error."""

    def __init__(self, problems: list[Malformed]) -> None:
        super().__init__("", "; ".join(str(p) for p in problems))
        self.problems = problems


def check_documents(docs: list[tuple[str, dict[str, Any]]]) -> Report:
    """Check each named proposal, then the uniformity of payouts across them.

    Raises :class:`Problems` listing every malformed value of every document.
    """
    problems: list[Malformed] = []
    tables = []
    for name, doc in docs:
        try:
            tables.append(_check_one(name, doc))
        except Problems as exc:
            problems += exc.problems
        except Malformed as exc:
            problems.append(_located(name, exc))
    if problems:
        raise Problems(problems)
    return Report(tables, _uniformity(tables))


def _located(name: str, exc: Malformed) -> Malformed:
    return Malformed(f"{name}: {exc.where}" if exc.where else name, exc.message)


def _read_pays(name: str, doc: dict[str, Any], options: dict[str, Any],
               problems: list[Malformed]) -> dict[str, str]:
    """The proposed entries (``options.pays`` then ``pays``); a bad entry is a problem."""
    pays_raw: dict[str, str] = {}
    for where, source in (("options.pays", options.pop("pays", {})), ("pays", doc.get("pays", {}))):
        if not isinstance(source, dict):
            problems.append(Malformed(f"{name}: {where}", "must be an object of pay-table entries"))
            continue
        for key, value in source.items():
            place = f"{name}: {where}.{key}"
            if not isinstance(value, str):
                problems.append(Malformed(place, 'odds must be written as "N to M"'))
                continue
            if not _FOR.match(value):  # "N for M" is a refusal the report shows, not malformed
                try:
                    Odds.parse(value, place)
                except Malformed as exc:
                    problems.append(exc)
                    continue
            pays_raw[key] = value
    return pays_raw


def _read_header(name: str, doc: dict[str, Any],
                 problems: list[Malformed]) -> tuple[str, Profile | None]:
    """The game and the profile, each checked; a problem for each that is wrong."""
    for key in doc:
        if key not in _TOP_KEYS:
            problems.append(unknown_name(key, _TOP_KEYS, "key", f"{name}: {key}"))
    game = doc.get("game", "craps")
    if not isinstance(game, str) or game not in GAMES:
        problems.append(unknown_name(game, GAMES, "game", f"{name}: game"))
        game = ""
    profile_id = doc.get("rules")
    if not isinstance(profile_id, str):
        problems.append(Malformed(f"{name}: rules", "the rule profile is required"))
        return game, None
    try:
        profile = load_profile(profile_id)
    except KeyError:
        problems.append(unknown_name(profile_id, PROFILE_IDS, "rule profile", f"{name}: rules"))
        return game, None
    if game and not profile.covers(game):
        problems.append(Malformed(f"{name}: game", f"{profile_id} does not cover {game}"))
        return game, None
    return game, profile


def _check_one(name: str, doc: dict[str, Any]) -> TableReport:
    problems: list[Malformed] = []
    game, profile = _read_header(name, doc, problems)
    options = doc.get("options", {})
    if not isinstance(options, dict):
        problems.append(Malformed(f"{name}: options", "must be an object"))
        options = {}
    options = dict(options)
    pays_raw = _read_pays(name, doc, options, problems)
    offered = doc.get("wagers", [])
    if not isinstance(offered, list) or not all(isinstance(w, str) for w in offered):
        problems.append(Malformed(f"{name}: wagers", "must be a list of wager ids"))
        offered = []
    if profile is not None and game:
        problems += _option_problems(name, game, profile, options)
    if problems:
        raise Problems(problems)
    assert profile is not None
    played = GAMES[game]
    return analysis_of(played).check(Proposal(name, played, profile, options, pays_raw, offered))


def _option_problems(name: str, game: str, profile: Profile,
                     options: dict[str, Any]) -> list[Malformed]:
    """Every malformed table option, each tried alone, then all together (for the options
    that are only wrong in company, as a maximum below the minimum)."""

    def attempt(subset: dict[str, Any]) -> Malformed | None:
        try:
            GAMES[game].open(profile, subset, {})
        except Malformed as exc:
            return _located(name, exc)
        return None

    # A name that is no option is named with the nearest one; the rest are tried.
    unknown = option_problems(game, options, f"{name}: options.{{key}}")
    options = {k: v for k, v in options.items() if k in option_names(game)}
    safe = analysis_of(GAMES[game]).refusable(profile, options)
    found = [e for e in (attempt({k: v}) for k, v in safe.items()) if e is not None]
    if not found and not unknown:
        together = attempt(safe)
        found = [] if together is None else [together]
    return unknown + found


def _parse_proposals(report: TableReport, rules: GameRules, profile: Profile,
                     minimums: dict[str, Odds], pays_raw: dict[str, str],
                     wager_of: Mapping[str, str]) -> dict[str, Odds]:
    """Verdicts for the wording and the entries themselves; the parseable proposals."""
    proposed: dict[str, Odds] = {}
    for key, text in pays_raw.items():
        if _FOR.match(text):
            report.entries.append(Entry(report.name, key, _show(minimums.get(key)), text, None,
                                        REFUSED, 'odds are stated with "to", never "for"',
                                        cite(profile.id, "odds_wording")))
            continue
        odds = Odds.parse(text, f"{report.name}: pays.{key}")
        if key not in minimums:
            base = wager_of.get(key, key.split(":")[0])
            reason = (f"{base} is not a wager {profile.id} permits" if not rules.permits(base)
                      else f"no such pay-table entry under {profile.id}")
            report.entries.append(Entry(report.name, key, None, text, None, REFUSED, reason,
                                        rules.clause("permitted_clause")))
            continue
        proposed[key] = odds
    return proposed


def check_entries(report: TableReport, proposal: Proposal, rules: GameRules,
                  minimums: dict[str, Odds], edge_of: EdgeOf, wager_of: Mapping[str, str],
                  ) -> None:
    """The entries every family's report has, after its own: each wager offered that the
    profile does not permit, each proposed entry worded with "for" or naming no entry of
    the pay table, then every entry of the pay table (``minimums``) with its house edge under
    the proposal and its verdict (refused below the minimum). ``wager_of`` names the wager
    of an entry whose wager is not its first word."""
    for wager_id in proposal.wagers:
        if not rules.permits(wager_id):
            report.entries.append(Entry(report.name, wager_id, None, None, None, REFUSED,
                                        f"{wager_id} is not a wager {proposal.profile.id} permits",
                                        rules.clause("permitted_clause")))
    proposed = _parse_proposals(report, rules, proposal.profile, minimums, proposal.pays,
                                wager_of)
    effective = {**minimums, **proposed}
    report.effective = effective
    for key, minimum in minimums.items():
        odds = proposed.get(key)
        edge = edge_of(key, effective)
        if odds is not None and odds.ratio < minimum.ratio:
            report.entries.append(Entry(report.name, key, str(minimum), str(odds), edge, REFUSED,
                                        f"{odds} is below the minimum payout {minimum}",
                                        report.pays_clause))
        elif odds is not None and edge is not None and edge < -MAX_PLAYER_EDGE:
            report.entries.append(Entry(report.name, key, str(minimum), str(odds), edge, REFUSED,
                                        f"{odds} pays so far above the wager's true odds that "
                                        f"the house edge would be {exact.show_fraction(edge)} "
                                        "(the player's, more than a quarter of every wager): "
                                        "a slip of the keyboard, not a pay a house offers",
                                        report.pays_clause))
        else:
            report.entries.append(Entry(report.name, key, str(minimum),
                                        str(odds) if odds is not None else None, edge, OK))


def _uniformity(tables: list[TableReport]) -> list[Entry]:
    """A wager paid differently at two tables of the same game (13:69F-1.4(b), 19:47-1.4(b),
    13:47-20.25(i)2: higher payouts must be uniform within the casino)."""
    out: list[Entry] = []
    for i, first in enumerate(tables):
        for second in tables[i + 1:]:
            if GAMES[first.game].family != GAMES[second.game].family:
                continue
            for key in sorted(first.effective.keys() & second.effective.keys()):
                a, b = first.effective[key], second.effective[key]
                if a.ratio != b.ratio:
                    out.append(Entry(f"{first.name} / {second.name}", key, None,
                                     f"{a} / {b}", None, REFUSED,
                                     f"{key} is paid {a} at {first.name} and {b} at "
                                     f"{second.name}: payouts must be uniform within the casino",
                                     first.pays_clause))
    return out


def _show(odds: Odds | None) -> str | None:
    return None if odds is None else str(odds)
