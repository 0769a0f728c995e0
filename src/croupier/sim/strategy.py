"""Betting strategies as data (a TOML file) and as a small typed Python API.

A strategy is an ordered list of *bet rules*, each saying which wager the player wants up and
how much, plus optional *progressions* (press, regress, martingale, ...) and session limits.
Before every roll (or spin) each rule is applied in order:

* a **fixed** rule (``pass``, ``dont_pass``, ``place_win`` 6, ``field``, ``hop`` 1-3, ``red``,
  ...) brings the player's wager to its target amount: it bets the difference when the wager
  is below the target and may be made now, and takes the difference down when it is above
  the target and the wager may be reduced;
* a **come** rule (``come`` or ``dont_come``) makes a new come bet while fewer than ``count``
  of the player's come bets stand on numbers;
* an **odds** rule (``pass_odds``, ``come_odds``, ``dont_pass_odds``, ``dont_come_odds``)
  keeps odds of ``multiple`` times the flat bet (``win_multiple``: laid odds winning that many
  times the flat bet) behind every flat bet standing on a number.

A rule's amount is ``amounts[level]``, where the level is kept by a progression: after a roll
in which one of the progression's wagers won, the level becomes ``on_win[level]``; after one in
which they only lost, ``on_lose[level]``; a seven-out resets it when ``seven_out_reset``.

>>> s = Strategy.from_toml('''
... name = "demo"
... [[bets]]
... wager = "pass"
... amount = "10"
... [[bets]]
... wager = "pass_odds"
... multiple = 2
... ''')
>>> [b.wager for b in s.bets], s.bets[0].amounts
(['pass', 'pass_odds'], (Decimal('10'),))
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from croupier.errors import Malformed
from croupier.games import FAMILIES
from croupier.games import game as game_entry
from croupier.money import parse_amount
from croupier.reading import check_name, unknown_name
from croupier.rules import PROFILE_IDS
from croupier.sim.roulette_progressions import expand as expand_named_progressions

When = Literal["always", "point_on", "point_off"]
WHENS: tuple[str, ...] = ("always", "point_on", "point_off")
ODDS_WAGERS = ("pass_odds", "come_odds", "dont_pass_odds", "dont_come_odds")
COME_WAGERS = ("come", "dont_come")
Multiple = Decimal | str | dict[int, Decimal]


@dataclass(frozen=True)
class Progression:
    """A level kept between rolls: the next level after a winning and after a losing roll."""

    name: str
    on_win: tuple[int, ...]
    on_lose: tuple[int, ...]
    seven_out_reset: bool = False

    def __post_init__(self) -> None:
        n = len(self.on_win)
        if n == 0 or len(self.on_lose) != n:
            raise Malformed(f"progressions.{self.name}",
                            "on_win and on_lose must list the next level for every level")
        for seq in (self.on_win, self.on_lose):
            if any(not 0 <= x < n for x in seq):
                raise Malformed(f"progressions.{self.name}", f"levels run 0 to {n - 1}")


@dataclass(frozen=True)
class Bet:
    """One bet rule (see the module documentation for what each kind does)."""

    wager: str
    amounts: tuple[Decimal, ...] = ()
    number: int | str | None = None
    dice: tuple[int, int] | None = None
    numbers: tuple[int | str, ...] | None = None
    when: When = "always"
    skip_point: bool = False
    skip_covered: bool = False
    down_when_idle: bool = False
    count: int = 1
    max_same: int = 0
    max_line: int = 0
    multiple: Multiple | None = None
    win_multiple: bool = False
    progression: str | None = None

    @property
    def kind(self) -> str:
        """``odds``, ``come`` or ``fixed``: how the rule is applied."""
        if self.wager in ODDS_WAGERS:
            return "odds"
        if self.wager in COME_WAGERS:
            return "come"
        return "fixed"

    def describe(self) -> str:
        """The rule in a few words, for messages."""
        what = self.wager
        if self.number is not None:
            what += f" {self.number}"
        if self.dice is not None:
            what += f" {self.dice[0]}-{self.dice[1]}"
        if self.numbers is not None:
            what += " " + "-".join(str(n) for n in self.numbers)
        if self.amounts:
            what += " $" + "/".join(str(a) for a in self.amounts)
        if self.multiple is not None:
            what += f" x{self.multiple}"
        return what


@dataclass(frozen=True)
class Strategy:
    """A player's whole plan: bet rules, progressions, session limits and table options."""

    name: str
    bets: tuple[Bet, ...]
    game: Literal["craps", "roulette"] = "craps"
    description: str = ""
    progressions: tuple[Progression, ...] = ()
    stop_loss: Decimal | None = None
    win_goal: Decimal | None = None
    shooter_loss_limit: Decimal | None = None
    rules: str | None = None
    table: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_toml(cls, text: str, where: str = "strategy") -> Strategy:
        """A strategy from a strategy file's text (``where`` names it in errors)."""
        try:
            raw = tomllib.loads(text, parse_float=Decimal)  # money read exactly
        except tomllib.TOMLDecodeError as exc:
            raise Malformed(where, f"not TOML: {exc}") from None
        return cls.from_dict(raw, where)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], where: str = "strategy") -> Strategy:
        """A strategy from parsed TOML, checked key by key."""
        raw = expand_named_progressions(raw, where)  # martingale, ... as levels
        known = {"name", "game", "description", "bets", "progressions", "stop_loss",
                 "win_goal", "shooter_loss_limit", "rules", "table"}
        for key in raw:
            if key not in known:
                raise unknown_name(key, sorted(known), "strategy key", f"{where}.{key}")
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise Malformed(f"{where}.name", "a strategy needs a name")
        game = raw.get("game", "craps")
        # A strategy is written for a family's first game.
        check_name(game, FAMILIES, "game", f"{where}.game")
        progs = _progressions(raw, where)
        bets = _bets(raw, where, progs)
        table = raw.get("table", {})
        if not isinstance(table, dict):
            raise Malformed(f"{where}.table", "must be a table of table options")
        rules = raw.get("rules")
        if rules is not None:
            check_name(rules, PROFILE_IDS, "rule profile", f"{where}.rules")
        strategy = cls(
            name=name, bets=tuple(bets), game=game, description=str(raw.get("description", "")),
            progressions=tuple(progs),
            stop_loss=_opt_amount(raw, "stop_loss", where),
            win_goal=_opt_amount(raw, "win_goal", where),
            shooter_loss_limit=_opt_amount(raw, "shooter_loss_limit", where),
            rules=rules, table=dict(table),
        )
        strategy.check_shape()
        return strategy

    def check_shape(self) -> None:
        """Structural checks that need no table (the table's rules are checked on compiling)."""
        names = {p.name for p in self.progressions}
        if len(names) != len(self.progressions):
            raise Malformed(self.name, "two progressions share a name")
        at_wheel = not game_entry(self.game).uses_dice
        for i, bet in enumerate(self.bets):
            where = f"{self.name}.bets[{i}]"
            if bet.kind == "odds":
                if bet.multiple is None:
                    raise Malformed(where, "an odds rule needs a multiple")
            elif not bet.amounts:
                raise Malformed(where, "a bet rule needs an amount (or amounts)")
            self._check_levels(bet, where)
            if at_wheel and (bet.kind != "fixed" or bet.when != "always"):
                raise Malformed(where, "roulette rules are fixed wagers made before each spin")

    def _check_levels(self, bet: Bet, where: str) -> None:
        """A bet's amounts against its progression: one amount without one, at most one per
        level with one."""
        if bet.progression is None:
            if len(bet.amounts) > 1:
                raise Malformed(where, "several amounts need a progression")
            return
        prog = next((p for p in self.progressions if p.name == bet.progression), None)
        if prog is None:
            raise Malformed(where, f"no progression named {bet.progression!r}")
        if len(bet.amounts) > len(prog.on_win):
            raise Malformed(where, "more amounts than the progression has levels")

    def progression(self, name: str) -> Progression:
        """The progression named ``name``."""
        return next(p for p in self.progressions if p.name == name)


def _progressions(raw: Mapping[str, Any], where: str) -> list[Progression]:
    """The strategy's named progressions."""
    raw_progs = raw.get("progressions", {})
    if not isinstance(raw_progs, dict):
        raise Malformed(f"{where}.progressions", "must be a table of named progressions")
    return [_progression(pname, body, f"{where}.progressions.{pname}")
            for pname, body in raw_progs.items()]


def _bets(raw: Mapping[str, Any], where: str, progs: list[Progression]) -> list[Bet]:
    """The strategy's bet rules, in order; a bet's own progression (its on_win and on_lose)
    is added to ``progs``."""
    bets_raw = raw.get("bets", [])
    if not isinstance(bets_raw, list) or not bets_raw:
        raise Malformed(f"{where}.bets", "a strategy needs at least one [[bets]] rule")
    bets: list[Bet] = []
    for i, body in enumerate(bets_raw):
        bet, prog = _bet(body, f"{where}.bets[{i}]", i)
        bets.append(bet)
        if prog is not None:
            progs.append(prog)
    return bets


def _opt_amount(raw: Mapping[str, Any], key: str, where: str) -> Decimal | None:
    if raw.get(key) is None:
        return None
    return parse_amount(_money_text(raw[key]), f"{where}.{key}")


def _money_text(value: Any) -> Any:
    if isinstance(value, float):
        return repr(value)
    return value


def _progression(name: str, body: Any, where: str) -> Progression:
    if not isinstance(body, dict):
        raise Malformed(where, "a progression is a table with on_win and on_lose")
    on_win, on_lose = body.get("on_win"), body.get("on_lose")
    for key, seq in (("on_win", on_win), ("on_lose", on_lose)):
        if not isinstance(seq, list) or not all(isinstance(x, int) for x in seq):
            raise Malformed(f"{where}.{key}", "must be a list of level numbers")
    assert isinstance(on_win, list) and isinstance(on_lose, list)
    return Progression(name, tuple(on_win), tuple(on_lose),
                       bool(body.get("seven_out_reset", False)))


_BET_KEYS = {"wager", "amount", "amounts", "number", "dice", "numbers", "when", "skip_point",
             "skip_covered", "down_when_idle", "count", "max_same", "max_line",
             "multiple", "win_multiple", "progression", "on_win", "on_lose", "seven_out_reset"}


def _bet(body: Any, where: str, index: int) -> tuple[Bet, Progression | None]:
    if not isinstance(body, dict):
        raise Malformed(where, "a bet rule is a table")
    for key in body:
        if key not in _BET_KEYS:
            raise unknown_name(key, sorted(_BET_KEYS), "bet rule key", f"{where}.{key}")
    wager = body.get("wager")
    if not isinstance(wager, str):
        raise Malformed(f"{where}.wager", "names the wager id, e.g. \"pass\"")
    amounts = _bet_amounts(body, where)
    when = body.get("when", "always")
    if when not in WHENS:
        raise Malformed(f"{where}.when", f"must be one of {', '.join(WHENS)}")
    dice, numbers = _bet_dice(body, where), _bet_numbers(body, where)
    multiple: Multiple | None = None
    if "multiple" in body:
        multiple = _multiple(body["multiple"], f"{where}.multiple")
    progression, prog = _bet_progression(body, where, index)
    bet = Bet(
        wager=wager, amounts=amounts, number=body.get("number"), dice=dice, numbers=numbers,
        when=when, skip_point=bool(body.get("skip_point", False)),
        skip_covered=bool(body.get("skip_covered", False)),
        down_when_idle=bool(body.get("down_when_idle", False)),
        count=int(body.get("count", 1)), max_same=int(body.get("max_same", 0)),
        max_line=int(body.get("max_line", 0)), multiple=multiple,
        win_multiple=bool(body.get("win_multiple", False)), progression=progression,
    )
    return bet, prog


def _bet_amounts(body: dict[str, Any], where: str) -> tuple[Decimal, ...]:
    """A bet rule's ``amount``, or its ``amounts`` (one per progression level, zero allowed)."""
    if "amount" in body and "amounts" in body:
        raise Malformed(where, "give amount or amounts, not both")
    if "amount" in body:
        return (parse_amount(_money_text(body["amount"]), f"{where}.amount"),)
    if "amounts" not in body:
        return ()
    raw_amounts = body["amounts"]
    if not isinstance(raw_amounts, list) or not raw_amounts:
        raise Malformed(f"{where}.amounts", "must be a list of amounts")
    return tuple(parse_amount(_money_text(a), f"{where}.amounts[{i}]", allow_zero=True)
                 for i, a in enumerate(raw_amounts))


def _bet_dice(body: dict[str, Any], where: str) -> tuple[int, int] | None:
    """A bet rule's two dice faces (a hop bet's), lower first."""
    dice = body.get("dice")
    if dice is None:
        return None
    if (not isinstance(dice, list) or len(dice) != 2
            or not all(isinstance(x, int) and 1 <= x <= 6 for x in dice)):
        raise Malformed(f"{where}.dice", "two dice faces, e.g. [1, 3]")
    return (min(dice), max(dice))


def _bet_numbers(body: dict[str, Any], where: str) -> tuple[Any, ...] | None:
    """A bet rule's ``numbers`` (read against the wager when compiled)."""
    numbers = body.get("numbers")
    if numbers is None:
        return None
    if not isinstance(numbers, list):
        raise Malformed(f"{where}.numbers", "a list of numbers")
    return tuple(numbers)


def _bet_progression(body: dict[str, Any], where: str,
                     index: int) -> tuple[str | None, Progression | None]:
    """The progression a bet rule names, or its own (from its ``on_win`` and ``on_lose``,
    named ``bets[index]``) with it."""
    progression = body.get("progression")
    if "on_win" in body or "on_lose" in body:
        if progression is not None:
            raise Malformed(where, "name a shared progression or give on_win/on_lose, not both")
        name = f"bets[{index}]"
        return name, _progression(name, body, where)
    if "seven_out_reset" in body:
        raise Malformed(f"{where}.seven_out_reset", "belongs to a progression")
    return progression, None


def _multiple(value: Any, where: str) -> Multiple:
    if value == "3-4-5":
        return "3-4-5"
    if isinstance(value, dict):
        out: dict[int, Decimal] = {}
        for k, v in value.items():
            try:
                number = int(k)
            except ValueError:
                raise Malformed(where, f"{k!r} is not a point number") from None
            out[number] = parse_amount(_money_text(v), f"{where}.{k}")
        return out
    return parse_amount(_money_text(value), where)
