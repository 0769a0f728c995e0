"""Reading roulette table options and actions (a transcript's or a request's) into checked values.

Everything the input gets wrong in itself is :class:`Malformed` and names the place; whether
the rules allow an action is the table's to say.

>>> read_action({"player": "ann", "bet": "dozen", "dozen": 2, "amount": 10}, "a", {"ann"},
...             "double-zero")
PlaceBet(player='ann', wager='dozen', qualifier=2, amount=Decimal('10'))
>>> read_action({"player": "ann", "bet": "dozen", "column": 2, "amount": 10}, "a", {"ann"},
...             "double-zero")
Traceback (most recent call last):
...
croupier.errors.Malformed: a.column: dozen takes no column; it takes dozen
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from croupier.errors import Malformed
from croupier.money import Odds, fmt, parse_amount, show_json
from croupier.reading import check_keys, did_you_mean
from croupier.roulette.table import Action, PlaceBet, RemoveBet, Spin, TableConfig
from croupier.roulette.wagers import INDEX_DOMAIN, WAGERS, Qualifier, RouletteWager
from croupier.roulette.wheel import WHEELS, Pocket, is_pocket
from croupier.rules import Profile, RouletteRules
from croupier.rules.citations import cite

ZERO_RULES = ("full", "half")
OPTION_KEYS = (
    "wheel", "zero_rule", "five_adjacent", "seven_numbers", "unit", "min_bet", "max_bet", "pays",
    "approved_layout",
)  # fmt: skip
QUALIFIER_KEYS = ("numbers", "center", "column", "dozen")
SPIN_FLAGS = ("revolutions", "same_direction", "foreign_object")


def read_options(raw: dict[str, Any], profile: Profile) -> TableConfig:
    """The ``options`` object, every option checked; malformed ones name ``options.KEY``."""
    rules = _rules(profile)
    for key in raw:
        if key not in OPTION_KEYS:
            raise Malformed(f"options.{key}", f"unknown roulette option; expected one of "
                            f"{', '.join(OPTION_KEYS)}")
    wheel = raw.get("wheel", "double-zero")
    if not isinstance(wheel, str) or wheel not in WHEELS:
        raise Malformed("options.wheel", f"unknown wheel {show_json(wheel)}; expected one of "
                        f"{', '.join(WHEELS)}")
    zero_rule = raw.get("zero_rule", "full")
    if not isinstance(zero_rule, str) or zero_rule not in ZERO_RULES:
        raise Malformed("options.zero_rule", f"unknown zero rule {show_json(zero_rule)}; "
                        f"expected one of {', '.join(ZERO_RULES)}")
    if zero_rule == "half" and not WHEELS[wheel].half_rule:
        clause = rules.zero_rule_clauses.get(wheel, "")
        raise Malformed("options.zero_rule", f'"half" is not allowed on a {WHEELS[wheel].name}: '
                        f"even-money wagers are lost on 0 ({clause})")
    flags = {}
    for name in ("five_adjacent", "seven_numbers"):
        value = raw.get(name, True)
        if not isinstance(value, bool):
            raise Malformed(f"options.{name}", f"must be true or false: {show_json(value)}")
        flags[name] = value
    unit = parse_amount(raw.get("unit", "1"), "options.unit")
    # null means the default, as at craps: the unit for the minimum, no maximum
    min_bet = (parse_amount(raw["min_bet"], "options.min_bet")
               if raw.get("min_bet") is not None else None)
    max_bet = (parse_amount(raw["max_bet"], "options.max_bet")
               if raw.get("max_bet") is not None else None)
    if max_bet is not None and max_bet < (min_bet if min_bet is not None else unit):
        raise Malformed("options.max_bet", f"the maximum {fmt(max_bet)} is below the minimum")
    return TableConfig(
        wheel=wheel,
        zero_rule=zero_rule,
        five_adjacent=flags["five_adjacent"],
        seven_numbers=flags["seven_numbers"],
        unit=unit,
        min_bet=min_bet,
        max_bet=max_bet,
        pays=_read_pays(raw.get("pays", {}), rules, profile.id),
        approved_layout=_read_approved_layout(raw.get("approved_layout"), rules, profile.id),
    )


def _read_approved_layout(raw: Any, rules: RouletteRules, profile_id: str,
                          ) -> tuple[str, ...] | None:
    """``approved_layout``: the wagers needing an approved layout (the profile's
    ``approved_layout_clauses``) that this table's layout provides for; null: not stated."""
    if raw is None:
        return None
    where = "options.approved_layout"
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise Malformed(where, f"must be a list of wager ids: {show_json(raw)}")
    needing = list(rules.approved_layout_clauses)
    for i, wager_id in enumerate(raw):
        if wager_id not in needing:
            raise Malformed(f"{where}[{i}]", f"{show_json(wager_id)} is no wager {profile_id} "
                            f"offers only on an approved layout; expected one of "
                            f"{', '.join(needing) or '(none)'}")
    return tuple(sorted(set(raw)))


def _rules(profile: Profile) -> RouletteRules:
    if profile.roulette is None:
        raise Malformed("rules", f"{profile.id} has no roulette rules")
    return profile.roulette


def _read_pays(raw: Any, rules: RouletteRules, profile_id: str) -> dict[str, Odds]:
    if not isinstance(raw, dict):
        raise Malformed("options.pays", "must be an object of pay-table entries")
    pays: dict[str, Odds] = {}
    for key, text in raw.items():
        where = f"options.pays.{key}"
        if key not in rules.pays:
            raise Malformed(where, f"no such pay-table entry; expected one of "
                            f"{', '.join(rules.pays)}")
        odds = Odds.parse(text, where, cite(profile_id, "odds_wording"))
        minimum = rules.pays[key]
        if odds.ratio < minimum.ratio:
            raise Malformed(where, f"{odds} is below the minimum payout of {minimum} "
                            f"({rules.clause('pays_clause')})")
        pays[key] = odds
    return pays


def _read_pocket(value: Any, where: str) -> Pocket:
    if not is_pocket(value):
        raise Malformed(where, f"not a roulette number: {show_json(value)}")
    return "00" if value == "00" else int(value)


def _read_qualifier(raw: dict[str, Any], wager: RouletteWager, where: str) -> Qualifier:
    for key in QUALIFIER_KEYS:
        if key in raw and key != wager.qualifier:
            takes = f"; it takes {wager.qualifier}" if wager.qualifier else ""
            raise Malformed(f"{where}.{key}", f"{wager.id} takes no {key}{takes}")
    kind = wager.qualifier
    if kind is None:
        return None
    if kind not in raw:
        raise Malformed(f"{where}.{kind}", f"missing: {wager.id} needs its {kind}")
    value = raw[kind]
    if kind == "numbers":
        if not isinstance(value, list):
            raise Malformed(f"{where}.numbers", f"must be a list of roulette numbers: "
                            f"{show_json(value)}")
        numbers: list[Pocket] = []
        for j, item in enumerate(value):
            numbers.append(_read_pocket(item, f"{where}.numbers[{j}]"))
        return tuple(numbers)
    if kind == "center":
        return _read_pocket(value, f"{where}.center")
    if isinstance(value, bool) or not isinstance(value, int) or value not in INDEX_DOMAIN:
        raise Malformed(f"{where}.{kind}", f"not a {kind} (1 to 3): {show_json(value)}")
    return value


def _read_player(raw: dict[str, Any], players: Collection[str], where: str) -> str:
    player = raw.get("player")
    if not isinstance(player, str) or player not in players:
        raise Malformed(f"{where}.player", f"not a player at this table: {show_json(player)}")
    return player


def _read_wager(value: Any, where: str) -> RouletteWager:
    if not isinstance(value, str) or value not in WAGERS:
        raise Malformed(where, f"unknown roulette wager {show_json(value)}"
                        f"{did_you_mean(value, WAGERS)}")
    return WAGERS[value]


def _check_keys(raw: dict[str, Any], allowed: set[str], where: str, what: str) -> None:
    check_keys(raw, allowed, where, f"roulette {what}")


def read_action(raw: Any, where: str, players: Collection[str], wheel: str) -> Action:
    """One action of the transcript, checked for form (not for the rules)."""
    if not isinstance(raw, dict):
        raise Malformed(where, "an action must be an object")
    if "reduce" in raw:
        raise Malformed(f"{where}.reduce", "roulette has no reduce (only bet, remove and spin)")
    kinds = [k for k in ("bet", "remove", "spin") if k in raw]
    if len(kinds) != 1:
        raise Malformed(where, "a roulette action is exactly one of bet, remove or spin")
    kind = kinds[0]
    if kind == "spin":
        _check_keys(raw, {"spin", *SPIN_FLAGS}, where, "spin")
        number = _read_pocket(raw["spin"], f"{where}.spin")
        if number not in WHEELS[wheel].pockets:
            raise Malformed(f"{where}.spin", f"there is no {number} on a {WHEELS[wheel].name}")
        revolutions = raw.get("revolutions")
        if revolutions is not None and (
            isinstance(revolutions, bool) or not isinstance(revolutions, int) or revolutions < 0
        ):
            raise Malformed(f"{where}.revolutions",
                            f"not a number of revolutions: {show_json(revolutions)}")
        flags = {}
        for flag in ("same_direction", "foreign_object"):
            value = raw.get(flag, False)
            if not isinstance(value, bool):
                raise Malformed(f"{where}.{flag}", f"must be true or false: {show_json(value)}")
            flags[flag] = value
        return Spin(number, revolutions, flags["same_direction"], flags["foreign_object"])
    wager = _read_wager(raw[kind], f"{where}.{kind}")
    base = {"player", kind} | ({"amount"} if kind == "bet" else set())
    _check_keys(raw, base | set(QUALIFIER_KEYS), where, kind)
    player = _read_player(raw, players, where)
    qualifier = _read_qualifier(raw, wager, where)
    if kind == "remove":
        return RemoveBet(player, wager.id, qualifier)
    amount = parse_amount(raw.get("amount"), f"{where}.amount")
    return PlaceBet(player, wager.id, qualifier, amount)
