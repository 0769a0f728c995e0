"""The evidence the traceability matrix weighs: what the rule profiles say (the only place the
analysis reads profiles' clause data), what ``readings.toml`` declares, and which tests carry
``@pytest.mark.clause(...)`` markers (read by parsing the test files, never by running them).

>>> cites = profile_citations()
>>> ("nj-13-69f", "craps.wagers.pass", "N.J.A.C. 13:69F-1.2(a)1") in cites
True
>>> [c for p, k, c in cites if p == "nj-19-47" and k == "craps.removal_clause"]
['replay contract: Removal']
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from croupier.analysis.regtext import clause_ids
from croupier.errors import Refusal
from croupier.games import FAMILIES, GAMES
from croupier.rules import PROFILE_IDS, CrapsRules, GameRules, RouletteRules, load_profile
from croupier.rules.citations import CONTRACT, load_annotations, load_readings
from croupier.rules.profile import LateBetConfirmation


def _is_citation(value: str) -> bool:
    return value.startswith(CONTRACT) or "N.J.A.C." in value


def _section_citations(family: str, rules: GameRules) -> Iterator[tuple[str, str]]:
    """``(key, citation)`` for each clause a profile section names besides its wagers': its
    ``*_clause`` settings, then (craps) who confirms a late bet at each game, (roulette) the
    clauses it names by wheel and by wager, in the file's order."""
    for key, clause in rules.clauses.items():
        yield f"{family}.{key}", clause
    if isinstance(rules, CrapsRules):
        for confirmation in rules.late_bet_confirmations:
            for game in sorted(confirmation.games):
                yield f"{family}.late_bet_confirmations.{game}", confirmation.clause
    if isinstance(rules, RouletteRules):
        for name, by_key in (("void_clauses", rules.void_clauses),
                             ("zero_rule_clauses", rules.zero_rule_clauses),
                             ("approved_layout_clauses", rules.approved_layout_clauses)):
            for key, clause in by_key.items():
                yield f"{family}.{name}.{key}", clause


def profile_citations() -> list[tuple[str, str, str]]:
    """``(profile, key, citation)`` for every clause or contract reading a profile names: each
    permitted wager's clause and each ``*_clause`` setting (``craps.removal_clause``)."""
    out: list[tuple[str, str, str]] = []
    for pid in PROFILE_IDS:
        for family in FAMILIES:
            view = game_view(pid, family)
            if view is None:
                continue
            for wager, clause in view.rules.wagers.items():
                out.append((pid, f"{family}.wagers.{wager}", clause))
            out.extend((pid, key, clause) for key, clause in
                       _section_citations(family, view.rules) if _is_citation(clause))
    return out


@dataclass(frozen=True)
class GameView:
    """What the analysis reads of one game's rules under one profile (its only reader)."""

    profile: str
    rules: GameRules

    @property
    def craps(self) -> CrapsRules | None:
        """The rules as craps rules, where they are (the settings only craps has)."""
        return self.rules if isinstance(self.rules, CrapsRules) else None

    @property
    def roulette(self) -> RouletteRules | None:
        """The rules as roulette rules, where they are."""
        return self.rules if isinstance(self.rules, RouletteRules) else None

    def permits(self, wager: str) -> bool:
        return self.rules.permits(wager)

    def wager_clause(self, wager: str) -> str:
        return str(self.rules.wagers[wager])

    def cite(self, key: str) -> str:
        """The citation a profile setting holds (``removal_clause`` ...), or ``""``."""
        return self.rules.clause(key)

    def pays(self) -> list[tuple[str, str]]:
        """``(pay-table key, odds as stated)`` for every minimum payout the profile lists."""
        return [(key, str(odds)) for key, odds in self.rules.pays.items()]


def game_view(profile: str, game: str) -> GameView | None:
    """The rules of ``game`` (a game or a family's name) under ``profile``; None if the
    profile has none for it."""
    rules = GAMES[game].rules(load_profile(profile))
    return None if rules is None else GameView(profile, rules)


def late_bets_by_game(profile: str) -> list[tuple[str, bool, LateBetConfirmation | Refusal]]:
    """For each game of the craps family the profile covers: whether a shooter throws there,
    and who confirms a wager made while the dice are in the air, or the refusal (what the game
    registry answers the server, :meth:`croupier.games.Game.late_bet`)."""
    loaded = load_profile(profile)
    out: list[tuple[str, bool, LateBetConfirmation | Refusal]] = []
    for name in loaded.games:
        played = GAMES[name]
        if not isinstance(played.rules(loaded), CrapsRules):
            continue
        try:
            out.append((name, played.has_shooter, played.late_bet(loaded)))
        except Refusal as refusal:
            out.append((name, played.has_shooter, refusal))
    return out


def profile_summary(profile: str) -> tuple[str, tuple[str, ...]]:
    """A profile's title and the games it covers."""
    loaded = load_profile(profile)
    return loaded.title, tuple(loaded.games)


def readings() -> dict[str, dict[str, Any]]:
    """Clause (or ``replay contract: ...``) -> its declared status, reading or record, code:
    the readings (``rules/readings.toml``) and the live server's records
    (``rules/records.toml``), each clause in one of them."""
    return load_annotations()


def citations_by_duty() -> dict[str, dict[str, str]]:
    """Profile -> duty -> the clause its refusal cites (duties no profile key covers)."""
    return dict(load_readings()["citations"])


# --- test markers ----------------------------------------------------------------------------


def _marker_clauses(node: ast.AST) -> list[str]:
    """Clauses (and contract readings) named by ``pytest.mark.clause(...)`` inside ``node``."""
    out: list[str] = []
    for sub in ast.walk(node):
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
                and sub.func.attr == "clause" and isinstance(sub.func.value, ast.Attribute)
                and sub.func.value.attr == "mark"):
            for arg in sub.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    if arg.value.startswith(CONTRACT):
                        out.append(arg.value)
                    else:
                        out.extend(clause_ids(arg.value))
    return out


def marker_refs(tests: Path) -> list[tuple[str, str]]:
    """``(clause, test id)`` for every test carrying a ``clause`` marker (parsed, not run)."""
    out: list[tuple[str, str]] = []
    for path in sorted(tests.rglob("test_*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        rel = path.relative_to(tests.parent).as_posix()
        module_marks: list[str] = []
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
                module_marks.extend(_marker_clauses(node.value))
        for node, prefix, inherited in _tests_in(tree.body, rel, module_marks):
            marks = inherited + [c for d in node.decorator_list for c in _marker_clauses(d)]
            out.extend((clause, f"{prefix}::{node.name}") for clause in dict.fromkeys(marks))
    return out


def _tests_in(body: Iterable[ast.stmt], prefix: str, inherited: list[str],
              ) -> Iterator[tuple[ast.FunctionDef | ast.AsyncFunctionDef, str, list[str]]]:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            yield node, prefix, inherited
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            marks = inherited + [c for d in node.decorator_list for c in _marker_clauses(d)]
            yield from _tests_in(node.body, f"{prefix}::{node.name}", marks)
