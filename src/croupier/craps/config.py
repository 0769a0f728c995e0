"""A craps table's options, validated against its rule profile when the table is made.

>>> from croupier.rules import load_profile
>>> cfg = CrapsConfig.from_options(load_profile("nj-13-69f"), {"pays": {"field:12": "3 to 1"}})
>>> str(cfg.pays["field:12"]), cfg.odds
('3 to 1', '3-4-5')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from croupier.errors import Malformed
from croupier.money import Odds, parse_amount, show_json
from croupier.rules import GameRules, Profile
from croupier.rules.citations import cite

MAX_VIG = Decimal("0.05")
THREE_FOUR_FIVE = {4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5}
THREE_FOUR_FIVE_LAY = 6

OPTION_KEYS = (
    "unit", "min_bet", "max_bet", "odds", "vig", "vig_collected", "fire_pay_table",
    "six_seven_eight", "pays",
)


@dataclass(frozen=True)
class CrapsConfig:
    """Everything that fixes how a craps table plays: the profile and the table's options."""

    profile: Profile
    rules: GameRules
    mini: bool = False
    unit: Decimal = Decimal(1)
    min_bet: Decimal = Decimal(1)
    max_bet: Decimal | None = None
    odds: Decimal | str | None = None  # None: no free odds; "3-4-5"; or N times the flat bet
    vig: Decimal = Decimal("0.05")
    vig_collected: str = "placement"
    fire_pay_table: str = "A"
    six_seven_eight: bool = True
    pays: dict[str, Odds] = field(default_factory=dict)

    @property
    def profile_id(self) -> str:
        return self.profile.id

    @classmethod
    def from_options(cls, profile: Profile, options: dict[str, Any], *, mini: bool = False,
                     ) -> CrapsConfig:
        rules = profile.craps
        if rules is None:  # pragma: no cover - every profile covers craps
            raise Malformed("rules", f"{profile.id} does not cover craps")
        for key in options:
            if key not in OPTION_KEYS:
                raise Malformed(f"options.{key}", "unknown craps table option")

        unit = parse_amount(options.get("unit", "1"), "options.unit")
        # null means the default, as if the option were absent
        min_bet = (parse_amount(options["min_bet"], "options.min_bet")
                   if options.get("min_bet") is not None else unit)
        max_bet = (parse_amount(options["max_bet"], "options.max_bet")
                   if options.get("max_bet") is not None else None)
        if max_bet is not None and max_bet < min_bet:
            raise Malformed("options.max_bet", f"below the minimum bet {min_bet}")

        odds = _parse_odds(options.get("odds", rules.settings.get("default_odds", "none")))

        vig_raw = options.get("vig", "0.05")
        if isinstance(vig_raw, float):
            vig_raw = repr(vig_raw)  # an in-process caller's float: read its JSON text exactly
        if isinstance(vig_raw, bool) or not isinstance(vig_raw, (int, str, Decimal)):
            raise Malformed("options.vig", f"not a decimal rate: {show_json(vig_raw)}")
        try:
            vig = Decimal(str(vig_raw))
        except ArithmeticError:
            raise Malformed("options.vig", f"not a decimal rate: {show_json(vig_raw)}") from None
        if not vig.is_finite() or vig < 0:
            raise Malformed("options.vig", f"not a commission rate: {show_json(vig_raw)}")
        if vig > MAX_VIG:
            clause = rules.clause("buy_commission_clause") or rules.clause("pays_clause")
            raise Malformed(
                "options.vig",
                f"commission {vig_raw} is over five percent, which {profile.id} forbids ({clause})",
            )

        vig_collected = options.get("vig_collected", "placement")
        if vig_collected not in ("placement", "win"):
            raise Malformed("options.vig_collected",
                            f'must be "placement" or "win": {show_json(vig_collected)}')
        allowed = rules.settings.get("vig_collected", ["placement", "win"])
        if vig_collected not in allowed:
            raise Malformed(
                "options.vig_collected",
                f"{profile.id} has commission paid at the time of making the bet "
                f"({rules.clause('buy_commission_clause')}, {rules.clause('lay_commission_clause')})",
            )

        fire_table = options.get("fire_pay_table", "A")
        fire_tables: dict[str, dict[str, str]] = rules.settings.get("fire_tables", {})
        if fire_table not in ("A", "B"):
            raise Malformed("options.fire_pay_table", f'must be "A" or "B": {show_json(fire_table)}')

        six_seven_eight = options.get("six_seven_eight", "six_seven_eight" in rules.wagers)
        if not isinstance(six_seven_eight, bool):
            raise Malformed("options.six_seven_eight", "must be true or false")
        if six_seven_eight and "six_seven_eight" not in rules.wagers:
            raise Malformed("options.six_seven_eight",
                            f"6-7-8 is not a permitted wager under {profile.id} "
                            f"({rules.clause('permitted_clause')})")

        pays = dict(rules.pays)
        if "fire" in rules.wagers and not mini and fire_table in fire_tables:
            for key, text in fire_tables[fire_table].items():
                pays[key] = Odds.parse(text, f"options.fire_pay_table.{key}")
        if not rules.settings.get("free_odds", False):
            pays = {k: v for k, v in pays.items() if "_odds" not in k}
        if mini:
            pays = {k: v for k, v in pays.items()
                    if k.split(":")[0] not in rules.settings.get("craps_only", [])}
        overrides = options.get("pays", {})
        if not isinstance(overrides, dict):
            raise Malformed("options.pays", "must be an object of pay-table entries")
        for key, text in overrides.items():
            where = f"options.pays.{key}"
            if key not in pays:
                raise Malformed(where, f"no such pay-table entry under {profile.id}")
            proposed = Odds.parse(text, where, cite(profile.id, "odds_wording"))
            if proposed.ratio < pays[key].ratio:
                raise Malformed(
                    where,
                    f"{proposed} is below the minimum payout {pays[key]} "
                    f"({rules.clause('pays_clause')})",
                )
            pays[key] = proposed

        return cls(profile=profile, rules=rules, mini=mini, unit=unit, min_bet=min_bet,
                   max_bet=max_bet, odds=odds, vig=vig, vig_collected=vig_collected,
                   fire_pay_table=fire_table, six_seven_eight=six_seven_eight, pays=pays)

    def commission_base(self, commission: str, qualifier: object, stake: Fraction) -> Fraction:
        """What a buy or lay bet's commission is a share of: its stake, or, for lay where the
        profile says so (13:47-20.25(k)), what it could win."""
        if commission == "lay" and self.rules.settings.get("lay_commission_base") == "win":
            return self.pays[f"lay:{qualifier}"].winnings(stake)
        return stake

    def odds_limit_multiple(self, number: int) -> Decimal | None:
        """How many times the flat bet the odds on ``number`` may be (taken odds)."""
        if self.odds is None:
            return None
        if self.odds == "3-4-5":
            return Decimal(THREE_FOUR_FIVE[number])
        assert isinstance(self.odds, Decimal)
        return self.odds

    def lay_odds_limit_multiple(self) -> Decimal | None:
        """How many times the flat bet laid odds may win."""
        if self.odds is None:
            return None
        if self.odds == "3-4-5":
            return Decimal(THREE_FOUR_FIVE_LAY)
        assert isinstance(self.odds, Decimal)
        return self.odds


def _parse_odds(value: Any) -> Decimal | str | None:
    where = "options.odds"
    if value == "none":
        return None
    if value == "3-4-5":
        return "3-4-5"
    if isinstance(value, bool) or not isinstance(value, (int, str, Decimal)):
        raise Malformed(where, f'must be "none", a number or "3-4-5": {show_json(value)}')
    try:
        return parse_amount(value, where)
    except Malformed:
        raise Malformed(where, f'must be "none", a number or "3-4-5": {show_json(value)}') from None
