"""A craps table's options, validated against its rule profile when the table is made.

>>> from croupier.rules import load_profile
>>> cfg = CrapsConfig.from_options(load_profile("nj-13-69f"), {"pays": {"field:12": "3 to 1"}})
>>> str(cfg.pays["field:12"]), cfg.odds
('3 to 1', '3-4-5')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from croupier.craps.wagers import DONT_BAR, WAGERS, WagerDef
from croupier.dice import POINTS
from croupier.errors import Malformed, Refusal
from croupier.money import Odds, floor_to_unit, parse_amount, show_json
from croupier.rules import CommissionBase, CommissionTiming, CrapsRules, Profile
from croupier.rules.citations import cite

MAX_VIG = Decimal("0.05")
MAX_VIG_PLACES = 8
VIG_PLACE = Decimal(1).scaleb(-MAX_VIG_PLACES)
THREE_FOUR_FIVE = {4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5}
THREE_FOUR_FIVE_LAY = 6

# Besides these, an option named by a wager elects whether the table offers it (6-7-8).
OPTION_KEYS = (
    "unit", "min_bet", "max_bet", "odds", "vig", "vig_collected", "fire_pay_table", "pays",
    "vig_on_win", "min_buy", "min_lay", "place_lose_off_on_come_out", "down_on_win",
    "off_during_point",
)
COMMISSION_WAGERS = ("buy", "lay")
COMMISSION_TIMINGS = tuple(CommissionTiming)


@dataclass(frozen=True)
class CrapsVariant:
    """What sets a game of the craps family apart (the game registry names each one)."""

    game: str = "craps"
    full_game: bool = True
    """The game of craps itself, where the craps-only wagers (the fire bet) are offered."""
    shooter: bool = True
    """A player throws the dice (automated craps: a device does, and there is no shooter)."""


CRAPS = CrapsVariant()


@dataclass(frozen=True)
class CrapsConfig:
    """Everything that fixes how a craps table plays: the profile and the table's options."""

    profile: Profile
    rules: CrapsRules
    variant: CrapsVariant = CRAPS
    unit: Decimal = Decimal(1)
    min_bet: Decimal = Decimal(1)
    max_bet: Decimal | None = None
    odds: Decimal | str | None = None  # None: no free odds; "3-4-5"; or N times the flat bet
    vig: Decimal = Decimal("0.05")
    vig_collected: CommissionTiming = CommissionTiming.PLACEMENT
    fire_pay_table: str = "A"
    declined: frozenset[str] = frozenset()
    """Wagers the profile leaves to the licensee's election that this table does not offer."""
    seated: bool = False
    """Whether only seated players wager here (the profile's seating rule for this game)."""
    pays: dict[str, Odds] = field(default_factory=dict)
    vig_on_win: frozenset[str] = frozenset()
    """Buy and lay bets (``buy:4``, ``lay:10``) whose commission is collected only when they
    win, at a table that otherwise collects it when the bet is made (13:69F-1.5(a), (b))."""
    min_buy: Decimal | None = None
    min_lay: Decimal | None = None
    """The smallest buy and lay bets the table takes (so that the commission, rounded down to
    the unit, is not nothing); None: the table minimum."""
    place_lose_off: bool = False
    """Whether "All place bets shall be inactive on any come out roll" is read of place bets
    to lose too (the profile's ``all_place_bets``), not only of place bets to win."""
    down_on_win: bool = False
    """Whether a player may call a place, buy or lay bet "down on the win": it comes down with
    its next win, paying no new commission (off: it stays up, the replay contract's reading)."""
    off_during_point: bool = False
    """Whether a wager called "off" during a point stops working until it is called on again
    or the point is decided (off: it keeps working, the replay contract's reading)."""

    @property
    def off_on_come_out(self) -> frozenset[str]:
        """The wagers inactive on a come-out roll unless called on, at this table."""
        if self.place_lose_off:
            return self.rules.off_on_come_out | self.rules.all_place_bets
        return self.rules.off_on_come_out

    def commission_timing(self, wager_id: str, qualifier: object) -> CommissionTiming:
        """When the commission of this buy or lay bet is collected: at ``placement`` or on the
        ``win``.

        >>> from croupier.rules import load_profile
        >>> cfg = CrapsConfig.from_options(load_profile("nj-13-69f"), {"vig_on_win": ["buy:4"]})
        >>> cfg.commission_timing("buy", 4), str(cfg.commission_timing("buy", 5))
        (<CommissionTiming.WIN: 'win'>, 'placement')
        """
        if (self.vig_collected is CommissionTiming.WIN
                or f"{wager_id}:{qualifier}" in self.vig_on_win):
            return CommissionTiming.WIN
        return CommissionTiming.PLACEMENT

    def commission(self, commission: str, qualifier: object, stake: Decimal,
                   pays: Mapping[str, Odds] | None = None) -> Decimal:
        """A buy or lay bet's commission: the rate on its base, rounded down to the unit
        (``pays``: the odds the bet was accepted at, if not the table's now)."""
        base = self.commission_base(commission, qualifier, Fraction(stake), pays)
        return floor_to_unit(base * Fraction(self.vig), self.unit)

    def minimum_commissioned(self, wager_id: str) -> Decimal | None:
        """The table's minimum buy (or lay) bet, if it sets one."""
        return self.min_buy if wager_id == "buy" else self.min_lay if wager_id == "lay" else None

    @property
    def profile_id(self) -> str:
        return self.profile.id

    @property
    def game(self) -> str:
        return self.variant.game


    @classmethod
    def from_options(cls, profile: Profile, options: dict[str, Any],
                     variant: CrapsVariant = CRAPS) -> CrapsConfig:
        rules = profile.craps
        if rules is None:  # pragma: no cover - every profile covers craps
            raise Malformed("rules", f"{profile.id} does not cover craps")
        if rules.dont_bar != DONT_BAR:  # pragma: no cover - a profile the engine cannot play
            raise Malformed("rules", f"{profile.id} bars {rules.dont_bar} for the don't bets; "
                            f"the engine plays the bar on {DONT_BAR}")
        for key in options:
            if key not in OPTION_KEYS and key not in WAGERS:
                raise Malformed(f"options.{key}", "unknown craps table option")

        unit = parse_amount(options.get("unit", "1"), "options.unit")
        # null means the default, as if the option were absent
        min_bet = (parse_amount(options["min_bet"], "options.min_bet")
                   if options.get("min_bet") is not None else unit)
        max_bet = (parse_amount(options["max_bet"], "options.max_bet")
                   if options.get("max_bet") is not None else None)
        if max_bet is not None and max_bet < min_bet:
            raise Malformed("options.max_bet", f"below the minimum bet {min_bet}")

        odds = _parse_odds(options.get("odds", rules.default_odds))

        vig = _read_vig(profile, options.get("vig", "0.05"))

        raw_collected = options.get("vig_collected", CommissionTiming.PLACEMENT)
        if not isinstance(raw_collected, str) or raw_collected not in COMMISSION_TIMINGS:
            raise Malformed("options.vig_collected",
                            f'must be "placement" or "win": {show_json(raw_collected)}')
        vig_collected = CommissionTiming(raw_collected)
        if vig_collected not in rules.vig_collected:
            raise Malformed(
                "options.vig_collected",
                f"{profile.id} has commission paid at the time of making the bet "
                f"({rules.clause('buy_commission_clause')}, {rules.clause('lay_commission_clause')})",
            )

        fire_table = options.get("fire_pay_table", "A")
        if fire_table not in ("A", "B"):
            raise Malformed("options.fire_pay_table", f'must be "A" or "B": {show_json(fire_table)}')

        declined = _declined(profile, options)
        vig_on_win = _read_vig_on_win(profile, options.get("vig_on_win", []), vig_collected)
        min_buy, min_lay = (_read_minimum(profile, options, name, max_bet)
                            for name in ("buy", "lay"))
        place_lose_off = _read_place_lose_off(profile, options)
        down_on_win, off_during_point = (_read_flag(options, name)
                                         for name in ("down_on_win", "off_during_point"))

        pays = _read_pays(profile, variant, fire_table, options.get("pays", {}))

        return cls(profile=profile, rules=rules, variant=variant, unit=unit, min_bet=min_bet,
                   max_bet=max_bet, odds=odds, vig=vig, vig_collected=vig_collected,
                   fire_pay_table=fire_table, declined=declined, pays=pays,
                   seated=variant.game in rules.seated_games, vig_on_win=vig_on_win,
                   min_buy=min_buy, min_lay=min_lay, place_lose_off=place_lose_off,
                   down_on_win=down_on_win, off_during_point=off_during_point)

    def with_pays(self, overrides: Mapping[str, str]) -> CrapsConfig:
        """This table under the override table ``overrides`` (the whole of it: an entry it does
        not name pays the profile's minimum), checked as the ``pays`` option is.

        >>> from croupier.rules import load_profile
        >>> cfg = CrapsConfig.from_options(load_profile("nj-13-69f"), {})
        >>> str(cfg.with_pays({"place_win:6": "10 to 7"}).pays["place_win:6"])
        '10 to 7'
        """
        return replace(self, pays=_read_pays(self.profile, self.variant, self.fire_pay_table,
                                             dict(overrides)))

    def why_not_offered(self, d: WagerDef) -> Refusal | None:
        """Why this table does not offer ``d`` (not permitted, craps only, not elected, no free
        odds), or None if it does: the one place that decides what a craps table offers."""
        rules = self.rules
        if not rules.permits(d.id):
            return Refusal(f"{d.name} ({d.id}) is not a permitted wager under {self.profile_id}",
                           rules.clause("permitted_clause"))
        if not self.variant.full_game and d.id in rules.craps_only:
            return Refusal(f"the {d.name} is permitted only at the game of craps, "
                           f"not at {self.game}", rules.clause("timing_clause"))
        if d.id in self.declined:
            return Refusal(f"{d.name} is not offered at this table (it is offered at the "
                           "election of the casino licensee)", rules.wagers.get(d.id, ""))
        if d.odds_of is not None and self.odds is None:
            return Refusal("this table offers no free odds (odds option \"none\")",
                           rules.clause("odds_clause"))
        return None

    def offered(self) -> list[WagerDef]:
        """Every wager this table offers, in the order of the definitions."""
        return [d for d in WAGERS.values() if self.why_not_offered(d) is None]

    def commission_base(self, commission: str, qualifier: object, stake: Fraction,
                        pays: Mapping[str, Odds] | None = None) -> Fraction:
        """What a buy or lay bet's commission is a share of: its stake, or, for lay where the
        profile says so (13:47-20.25(k)), what it could win."""
        if commission == "lay" and self.rules.lay_commission_base is CommissionBase.WIN:
            return (pays or self.pays)[f"lay:{qualifier}"].winnings(stake)
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


def _read_pays(profile: Profile, variant: CrapsVariant, fire_table: str, overrides: Any,
               ) -> dict[str, Odds]:
    """The table's pay table: the profile's minimums (the fire pay table chosen, no free odds
    or craps-only wagers where the table has none) with the table's ``pays`` over them."""
    rules = profile.craps
    assert rules is not None
    pays = dict(rules.pays)
    if variant.full_game and fire_table in rules.fire_tables:
        pays.update(rules.fire_tables[fire_table])
    if not rules.free_odds:
        pays = {k: v for k, v in pays.items() if "_odds" not in k}
    if not variant.full_game:
        pays = {k: v for k, v in pays.items() if k.split(":")[0] not in rules.craps_only}
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
                f"({_minimum_clause(profile, key)})",
            )
        pays[key] = proposed
    return pays


# The pay-table entries whose minimum another clause than the profile's payout table sets:
# the fire bet's tables (13:69F-1.4(e)), the true odds of buy and lay bets (13:69F-1.5(a), (b);
# 13:47-20.25(j), (k)) and the free odds.
_MINIMUM_CLAUSES = {"fire": "fire_pays_clause", "buy": "buy_commission_clause",
                    "lay": "lay_commission_clause", "pass_odds": "odds_clause",
                    "dont_pass_odds": "odds_clause", "come_odds": "odds_clause",
                    "dont_come_odds": "odds_clause"}


def _minimum_clause(profile: Profile, key: str) -> str:
    """The clause that sets the minimum payout of pay-table entry ``key``."""
    rules = profile.craps
    assert rules is not None
    own = _MINIMUM_CLAUSES.get(key.split(":")[0])
    return (rules.clause(own) if own else "") or rules.clause("pays_clause")


def _read_vig(profile: Profile, vig_raw: Any) -> Decimal:
    """The commission rate: a decimal from 0 to five percent."""
    rules = profile.craps
    assert rules is not None
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
    # The commission is worked out as an exact fraction of the rate: "1e-999999999999999999"
    # would make a denominator of 10**999999999999999999 and never finish. No casino posts a
    # rate finer than a millionth of a percent.
    if vig != vig.quantize(VIG_PLACE):
        raise Malformed("options.vig", f"a commission rate has at most {MAX_VIG_PLACES} decimal "
                        f"places: {show_json(vig_raw)}")
    return vig


def _read_vig_on_win(profile: Profile, raw: Any,
                     vig_collected: CommissionTiming) -> frozenset[str]:
    """``vig_on_win``: the buy and lay bets (``"buy:4"``) whose commission is collected only
    on a win, each named once; only where the profile lets commission wait for the win."""
    rules = profile.craps
    assert rules is not None
    where = "options.vig_on_win"
    if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
        raise Malformed(where, f'must be a list of bets such as "buy:4": {show_json(raw)}')
    allowed = [f"{w}:{n}" for w in COMMISSION_WAGERS if rules.permits(w) for n in POINTS]
    for i, key in enumerate(raw):
        if key not in allowed:
            raise Malformed(f"{where}[{i}]", f"not a buy or lay bet {profile.id} permits: "
                            f"{show_json(key)}; expected one of {', '.join(allowed)}")
        if raw.index(key) != i:
            raise Malformed(f"{where}[{i}]", f"{key} is named twice")
    if raw and CommissionTiming.WIN not in rules.vig_collected:
        raise Malformed(where, f"{profile.id} has commission paid at the time of making the bet "
                        f"({rules.clause('buy_commission_clause')}, "
                        f"{rules.clause('lay_commission_clause')})")
    if raw and vig_collected is CommissionTiming.WIN:
        raise Malformed(where, 'the table collects every commission on the win already '
                        '(vig_collected "win"); vig_on_win names the exceptions to "placement"')
    return frozenset(raw)


def _read_minimum(profile: Profile, options: dict[str, Any], wager_id: str,
                  max_bet: Decimal | None) -> Decimal | None:
    """``min_buy`` or ``min_lay``: an amount, where the profile permits the wager, that the
    table maximum leaves room for (a minimum above it would refuse every such wager)."""
    rules = profile.craps
    assert rules is not None
    name = f"min_{wager_id}"
    if options.get(name) is None:
        return None
    if not rules.permits(wager_id):
        raise Malformed(f"options.{name}", f"{profile.id} permits no {wager_id} bets "
                        f"({rules.clause('permitted_clause')})")
    minimum = parse_amount(options[name], f"options.{name}")
    if max_bet is not None and minimum > max_bet:
        raise Malformed(f"options.{name}", f"above the table maximum {max_bet}: no {wager_id} "
                        "bet could be made")
    return minimum


def _read_place_lose_off(profile: Profile, options: dict[str, Any]) -> bool:
    """``place_lose_off_on_come_out``: the other reading of "All place bets shall be inactive
    on any come out roll", where the profile's text leaves it open (``all_place_bets``)."""
    rules = profile.craps
    assert rules is not None
    value = options.get("place_lose_off_on_come_out", False)
    if not isinstance(value, bool):
        raise Malformed("options.place_lose_off_on_come_out",
                        f"must be true or false: {show_json(value)}")
    if value and not rules.all_place_bets:
        raise Malformed("options.place_lose_off_on_come_out",
                        f"under {profile.id} place bets to lose work on the come out roll "
                        f"({rules.clause('off_on_come_out_clause')}: every other wager is on)")
    return value


def _read_flag(options: dict[str, Any], name: str) -> bool:
    """A true/false table option whose default, false, is the replay contract's reading."""
    value = options.get(name, False)
    if not isinstance(value, bool):
        raise Malformed(f"options.{name}", f"must be true or false: {show_json(value)}")
    return value


def _declined(profile: Profile, options: dict[str, Any]) -> frozenset[str]:
    """The wagers left to the licensee's election (the profile's ``optional``) that this table
    does not offer: each is a true/false option named by the wager, offered by default."""
    rules = profile.craps
    assert rules is not None
    declined: set[str] = set()
    for key, value in options.items():
        if key not in WAGERS:
            continue
        if not isinstance(value, bool):
            raise Malformed(f"options.{key}", "must be true or false")
        if key not in rules.optional:
            if value:
                raise Malformed(f"options.{key}",
                                f"{WAGERS[key].name} is not a permitted wager under {profile.id} "
                                f"({rules.clause('permitted_clause')})")
            continue
        if not value:
            declined.add(key)
    return frozenset(declined)


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
