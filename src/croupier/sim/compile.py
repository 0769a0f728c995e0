"""Strategies compiled into the kernel's integer tables, and checked against the table's rules.

Nothing about a wager is retyped here. For every wager a strategy may have on the layout (a
*slot*: ``pass``, ``come:6``, ``place_win:8``, ``red``, ...) the wager's own decision function
(:mod:`croupier.craps.wagers`, :mod:`croupier.roulette.wagers`) is enumerated over every state
the wager can be in and every outcome (the 36 rolls of two dice, or the wheel's pockets) into
lookup tables: what happens (nothing, decided, moves), whether it won, the new state and the
slot it moves to, and what comes back to the player as a ratio ``numerator / denominator``
built from the table's pay table. The table's point follows the pass line's own decision.

Every amount a strategy can ask for is first put to a scratch reference table
(:class:`croupier.craps.table.CrapsTable` / :class:`croupier.roulette.table.RouletteTable`):
a wager the rule profile refuses stops the compile with the :class:`Refusal`'s reason.

Money in the tables is integer cents.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from croupier.craps.config import CrapsConfig
from croupier.craps.table import CrapsTable
from croupier.craps.wagers import PASS, WAGERS, Lose, Move, Removal, Timing, WagerDef, Win
from croupier.dice import HOPS, OUTCOMES, POINTS
from croupier.errors import Malformed, Refusal
from croupier.games import game as game_entry
from croupier.money import Odds
from croupier.reading import unknown_name
from croupier.roulette.reading import read_options
from croupier.roulette.table import PlaceBet, RouletteTable, TableConfig
from croupier.roulette.wagers import WAGERS as ROULETTE_WAGERS
from croupier.roulette.wagers import decide as roulette_decide
from croupier.roulette.wheel import WHEELS, Pocket, pocket_key
from croupier.rules import CommissionBase, CommissionTiming, load_profile
from croupier.sim.strategy import Bet, Strategy

I64 = npt.NDArray[np.int64]
BIG = Decimal(10) ** 9

# rule kinds, timings, statuses (shared with the kernel)
FIXED, COME, ODDS = 0, 1, 2
T_ANY, T_COME_OUT, T_POINT_ON, T_NEW_SHOOTER = 0, 1, 2, 3
ACTIVE, RUINED, STOP_LOSS, WIN_GOAL = 0, 1, 2, 3
STATUS_NAMES = ("played out", "ruined", "stop-loss", "win goal")
POINT_INDEX: dict[int | None, int] = {None: 0, **{n: i + 1 for i, n in enumerate(POINTS)}}

# The per-slot integers (PlayerTables.slot_int; ``parent`` and ``ctr`` pad with -1, none), a
# rule's integers (the kernel's ``r*`` arrays) and the per-(slot, state) tables.
SLOT_INTS = ("stays", "off", "parent", "commission_kind", "commission_num", "commission_den",
             "placement", "timing", "group", "line", "ctr")
RULE_INTS = ("kind", "slot", "when", "skip_point", "skip_covered", "covering_pass",
             "covering_pass_state", "covering_come", "down", "count", "maxsame", "maxline", "ctr")
SLOT_TABLES = ("res", "won", "cn", "cd", "nxt", "dst", "remove", "point_of_state")


class StrategyRefused(Exception):
    """A strategy asks for a wager the table's rule profile refuses."""

    def __init__(self, strategy: str, index: int, bet: Bet, refusal: Refusal) -> None:
        self.strategy, self.index, self.bet, self.refusal = strategy, index, bet, refusal
        super().__init__(f"strategy {strategy!r}, bets[{index}] ({bet.describe()}): refused: "
                         f"{refusal}")


def cents(amount: Decimal | Fraction) -> int:
    """``amount`` dollars as integer cents (refused unless a whole number of cents)."""
    value = Fraction(amount) * 100
    if value.denominator != 1:
        raise Malformed("amount", f"{amount} is not a whole number of cents")
    return int(value)


@dataclass
class Slot:
    """A wager the player may have on the layout (``come:6``) and the states it can be in."""
    label: str
    wager: str
    qualifier: Any
    states: list[Any] = field(default_factory=list)


@dataclass
class PlayerTables:
    """One player's compiled slots and rules (before padding into the table's arrays)."""

    slots: list[Slot]
    res: list[list[list[int]]]
    won: list[list[list[int]]]
    cn: list[list[list[int]]]
    cd: list[list[list[int]]]
    nxt: list[list[list[int]]]
    dst: list[list[list[int]]]
    slot_int: dict[str, list[int]]
    remove: list[list[int]]
    point_of_state: list[list[int]]
    odds_state: list[list[int]]
    rules: list[dict[str, Any]]
    counters: list[tuple[list[int], list[int], int]]
    scalars: dict[str, int]


@dataclass
class Compiled:
    """Everything the kernel needs for one table of players, as numpy arrays."""

    game: str
    profile: str
    strategies: list[Strategy]
    n_outcomes: int
    arrays: dict[str, npt.NDArray[Any]]
    outcome_faces: list[tuple[int, int]] | list[Pocket]
    craps_config: CrapsConfig | None = None
    roulette_config: TableConfig | None = None

    @property
    def players(self) -> int:
        """How many players (strategies) sit at the table."""
        return len(self.strategies)


# --- craps --------------------------------------------------------------------------------


CALL_OPTIONS = ("down_on_win", "off_during_point")
"""Table options that only let a player make a call ("down on the win", "off" during a
point): strategies make no calls, so a strategy naming one is refused rather than ignored."""


def craps_config(strategy: Strategy, profile_id: str | None) -> CrapsConfig:
    """The craps table the strategy plays at: the profile (``profile_id``, else the strategy's, else
    its game's default, the registry's) with the strategy's table options."""
    profile = load_profile(profile_id or strategy.rules or game_entry(strategy.game).default_profile)
    if profile.craps is None:
        raise Malformed("rules", f"{profile.id} does not cover craps")
    try:
        config = CrapsConfig.from_options(profile, dict(strategy.table))
    except Malformed as exc:
        raise exc.under(f"{strategy.name}.table") from None
    for option in CALL_OPTIONS:
        if getattr(config, option):
            raise Malformed(f"{strategy.name}.table.{option}", "a table option for a call a "
                            "player makes at the table; no strategy rule makes that call, so "
                            "the simulator does not take it")
    return config



def odds_on_the_point(d: WagerDef) -> bool:
    """Whether odds of kind ``d`` stand behind a bet on the table's point (pass, don't pass),
    not behind come bets on their own numbers: the wager definitions say so, the flat bet
    does not travel."""
    return d.odds_of is not None and not WAGERS[d.odds_of].travels


def is_line_bet(d: WagerDef) -> bool:
    """A right-way bet that odds stand behind (pass, come): what a rule's ``max_line``
    counts."""
    return not d.dont and any(w.odds_of == d.id for w in WAGERS.values())


def _qualifier(bet: Bet, d: WagerDef, where: str) -> Any:
    if d.qualifier == "number":
        if bet.number not in d.domain:
            raise Malformed(f"{where}.number", f"{d.name} needs a number, one of "
                            f"{', '.join(str(x) for x in d.domain)}")
        return bet.number
    if d.qualifier == "dice":
        if bet.dice not in HOPS:
            raise Malformed(f"{where}.dice", f"{d.name} needs two dice, e.g. [1, 3]")
        return bet.dice
    if bet.number is not None or bet.dice is not None:
        raise Malformed(where, f"a {d.name} takes no number")
    return None


def _dice_for(total: int) -> tuple[int, int]:
    return next(o for o in OUTCOMES if o[0] + o[1] == total and o[0] != o[1]) \
        if total not in (2, 12) else (total // 2, total // 2)


def _odds_ratio(bet: Bet, number: int, config: CrapsConfig, d: WagerDef) -> Fraction:
    """Odds stake per unit of flat stake on ``number``."""
    m = bet.multiple
    if m == "3-4-5":
        from croupier.craps.config import THREE_FOUR_FIVE, THREE_FOUR_FIVE_LAY

        mult = Fraction(THREE_FOUR_FIVE_LAY if d.lay_odds else THREE_FOUR_FIVE[number])
        if d.lay_odds:  # laid odds winning up to 6x: stake = wins * stake/win
            odds = config.pays[f"{d.id}:{number}"]
            return mult * Fraction(odds.stake, odds.win)
        return mult
    if isinstance(m, dict):
        if number not in m:
            return Fraction(0)
        mult = Fraction(m[number])
    else:
        assert isinstance(m, Decimal)
        mult = Fraction(m)
    if bet.win_multiple:
        if not d.lay_odds:
            raise Malformed(bet.wager, "win_multiple is for laid odds (don't pass / don't come)")
        odds = config.pays[f"{d.id}:{number}"]
        return mult * Fraction(odds.stake, odds.win)
    return mult


def _check_craps(strategy: Strategy, config: CrapsConfig) -> None:
    """Put every wager and amount the strategy can ask for to a scratch reference table."""
    for i, bet in enumerate(strategy.bets):
        where = f"{strategy.name}.bets[{i}]"
        d = WAGERS.get(bet.wager)
        if d is None:
            raise unknown_name(bet.wager, WAGERS, "craps wager", f"{where}.wager",
                               "croupier wagers lists them")
        scratch = CrapsTable(config, {"p": BIG})
        try:
            scratch.check_offered(d)
        except Refusal as exc:
            raise StrategyRefused(strategy.name, i, bet, exc) from None
        if bet.kind == "odds":
            _check_odds(strategy, i, bet, d, config)
            continue
        q = _qualifier(bet, d, where)
        for amount in sorted(set(bet.amounts)):
            if amount == 0:
                continue
            try:
                scratch.check_stake(d, q, None, amount)
            except Refusal as exc:
                raise StrategyRefused(strategy.name, i, bet, exc) from None


def _flat_amounts(strategy: Strategy, flat_id: str) -> list[Decimal]:
    found = sorted({a for b in strategy.bets if b.wager == flat_id for a in b.amounts if a > 0})
    return found


def _check_odds(strategy: Strategy, i: int, bet: Bet, d: WagerDef, config: CrapsConfig) -> None:
    flat_id = d.odds_of or ""
    flats = _flat_amounts(strategy, flat_id)
    if not flats:
        raise Malformed(f"{strategy.name}.bets[{i}]", f"odds need a {flat_id} rule to stand behind")
    for flat in flats:
        for number in POINTS:
            ratio = _odds_ratio(bet, number, config, d)
            target = Fraction(flat) * ratio
            if target == 0:
                continue
            if (target * 100).denominator != 1:
                raise Malformed(f"{strategy.name}.bets[{i}]",
                                f"odds of {float(target):.4f} behind {flat} on {number} are not "
                                "a whole number of cents")
            t = CrapsTable(config, {"p": BIG})
            try:
                if odds_on_the_point(d):
                    t.bet("p", flat_id, None, flat)
                    t.roll(*_dice_for(number))
                    t.check_bet("p", d.id, None, Decimal(target.numerator) / target.denominator)
                else:
                    other = 10 if number == 4 else 4
                    t.bet("p", "pass", None, max(flat, config.min_bet))
                    t.roll(*_dice_for(other))
                    t.bet("p", flat_id, None, flat)
                    t.roll(*_dice_for(number))
                    t.check_bet("p", d.id, number, Decimal(target.numerator) / target.denominator)
            except Refusal as exc:
                raise StrategyRefused(strategy.name, i, bet, exc) from None


def _craps_slots(strategy: Strategy) -> list[Slot]:
    """Every slot the strategy's bets can put a wager in, with every state it can reach (a
    come bet travels from the come box to its number), in settling order."""
    book = _SlotBook()
    for bet in strategy.bets:
        book.place(bet)
    book.travel()
    return book.in_settling_order()


class _SlotBook:
    """The slots found so far, in the order found, and the states still to follow."""

    def __init__(self) -> None:
        self.labels: dict[str, Slot] = {}
        self.order: list[str] = []
        self.queue: list[tuple[str, Any]] = []

    def slot(self, label: str, wager: str, q: Any) -> Slot:
        if label not in self.labels:
            self.labels[label] = Slot(label, wager, q)
            self.order.append(label)
        return self.labels[label]

    def add_state(self, label: str, state: Any) -> None:
        s = self.labels[label]
        if state not in s.states:
            s.states.append(state)
            self.queue.append((label, state))

    def place(self, bet: Bet) -> None:
        """The slots one of the strategy's bets starts in (an odds bet: one per point, or one
        on the table's point)."""
        d = WAGERS[bet.wager]
        if bet.kind == "odds":
            on_point = odds_on_the_point(d)
            for n in POINTS:
                lab = d.id if on_point else f"{d.id}:{n}"
                self.slot(lab, d.id, None if on_point else n)
                self.add_state(lab, n)
            return
        q = _qualifier(bet, d, bet.wager)
        lab = d.label(q, None)
        self.slot(lab, d.id, q)
        self.add_state(lab, d.initial_state(q, None))

    def travel(self) -> None:
        """Follow every state to the states (and, for a travelling bet, the slots) the dice
        can move it to."""
        while self.queue:
            lab, state = self.queue.pop(0)
            s = self.labels[lab]
            d = WAGERS[s.wager]
            if d.parts is not None:
                continue
            for d1, d2 in OUTCOMES:
                out = d.decide(s.qualifier, state, d1, d2)
                if isinstance(out, Move):
                    to = d.label(s.qualifier, out.state) if d.travels else lab
                    self.slot(to, d.id, s.qualifier)
                    self.add_state(to, out.state)

    def _rank(self, label: str) -> int:
        # odds first (they look at their flat bet before it is settled), boxes last
        s = self.labels[label]
        d = WAGERS[s.wager]
        if d.odds_of is not None:
            return 0
        if d.travels and s.states == [None]:
            return 2
        return 1

    def in_settling_order(self) -> list[Slot]:
        order = self.order
        return [self.labels[lab]
                for lab in sorted(order, key=lambda lab: (self._rank(lab), order.index(lab)))]


Outcome = tuple[int, int, Fraction, int, int]


def _craps_outcome(k: int, state: Any, dice: tuple[int, int], slots: list[Slot],
                   index: dict[str, int], pays: Any) -> Outcome:
    """What slot ``k`` in ``state`` does on ``dice``: (0 nothing, 1 decided, 2 moves; won; the
    credit per unit of stake; the state and slot it moves to)."""
    s = slots[k]
    d = WAGERS[s.wager]
    d1, d2 = dice

    def ratio(key: str, stays: bool) -> Fraction:
        odds: Odds = pays[key]
        return Fraction(odds.win, odds.stake) + (0 if stays else 1)

    if d.parts is not None:  # a bet of several parts (the whirl): each part's share
        parts = d.parts(s.qualifier)
        units = sum(p.units for p in parts)
        win, credit = 0, Fraction(0)
        for part in parts:
            out = WAGERS[part.wager].decide(part.qualifier, None, d1, d2)
            if isinstance(out, Win):
                win = 1
                credit += Fraction(part.units, units) * ratio(out.key, False)
        return 1, win, credit, 0, k
    out = d.decide(s.qualifier, state, d1, d2)
    if isinstance(out, Win):
        return 1, 1, ratio(out.key, d.stays_up), 0, k
    if isinstance(out, Lose):
        return 1, 0, Fraction(0), 0, k
    if isinstance(out, Move):
        to_slot = index[d.label(s.qualifier, out.state) if d.travels else s.label]
        return 2, 0, Fraction(0), slots[to_slot].states.index(out.state), to_slot
    return 0, 0, Fraction(0), 0, k


def _removable(d: WagerDef, state: Any) -> int:
    """Whether a strategy may take the wager down in ``state``."""
    if d.removal is Removal.ANY_TIME:
        return 1
    if d.removal is Removal.UNTIL_POINT:
        return 1 if state is None else 0
    return 0  # don't bets and fire bets are never taken down by a strategy


def _craps_tables(slots: list[Slot], index: dict[str, int], pays: Any,
                  tables: PlayerTables) -> None:
    """Fill the per-(slot, state, outcome) tables and the per-(slot, state) ones."""
    for k, s in enumerate(slots):
        d = WAGERS[s.wager]
        per_state = [[_craps_outcome(k, state, dice, slots, index, pays) for dice in OUTCOMES]
                     for state in s.states]
        tables.res.append([[o[0] for o in row] for row in per_state])
        tables.won.append([[o[1] for o in row] for row in per_state])
        tables.cn.append([[o[2].numerator for o in row] for row in per_state])
        tables.cd.append([[o[2].denominator for o in row] for row in per_state])
        tables.nxt.append([[o[3] for o in row] for row in per_state])
        tables.dst.append([[o[4] for o in row] for row in per_state])
        tables.remove.append([_removable(d, state) for state in s.states])
        tables.point_of_state.append([POINT_INDEX[st] if isinstance(st, int) or st is None else 0
                              for st in s.states])
        tables.odds_state.append([s.states.index(n) if n in s.states else -1
                              for n in (None, *POINTS)])


def _craps_slot_ints(slots: list[Slot], index: dict[str, int],
                     config: CrapsConfig) -> dict[str, list[int]]:
    """Per slot: stays up after a win, off on the come-out and the bet it stands behind,
    commission kind, base and whether it is collected when the bet is made (the table's
    ``vig_collected``, bet by bet ``vig_on_win``), timing, group (one per wager) and line bet;
    no progression."""
    off = config.off_on_come_out
    wager_ids = sorted({s.wager for s in slots})
    timings = {Timing.COME_OUT: T_COME_OUT, Timing.POINT_ON: T_POINT_ON,
               Timing.NEW_SHOOTER: T_NEW_SHOOTER}
    ints: dict[str, list[int]] = {name: [] for name in SLOT_INTS}
    for s in slots:
        d = WAGERS[s.wager]
        parent = -1
        if d.odds_of is not None:
            plabel = d.odds_of if odds_on_the_point(d) else f"{d.odds_of}:{s.qualifier}"
            parent = index.get(plabel, -1)
        commission_kind, commission_num, commission_den, placement = 0, 0, 1, 0
        if d.commission is not None:
            commission_kind = 1
            placement = int(config.commission_timing(d.id, s.qualifier)
                            is CommissionTiming.PLACEMENT)
            if d.commission == "lay" and config.rules.lay_commission_base is CommissionBase.WIN:
                commission_kind = 2
                odds = config.pays[f"lay:{s.qualifier}"]
                commission_num, commission_den = odds.win, odds.stake
        for name, value in (("stays", int(d.stays_up)), ("off", int(d.id in off)),
                            ("parent", parent), ("commission_kind", commission_kind),
                            ("commission_num", commission_num),
                            ("commission_den", commission_den), ("placement", placement),
                            ("timing", timings.get(d.timing, T_ANY)),
                            ("group", wager_ids.index(d.id)),
                            ("line", int(is_line_bet(d))), ("ctr", -1)):
            ints[name].append(value)
    return ints


def _enumerate_craps(strategy: Strategy, config: CrapsConfig) -> PlayerTables:
    """Slots, states and the generated transition and payoff tables for one craps player."""
    slots = _craps_slots(strategy)
    index = {s.label: k for k, s in enumerate(slots)}
    counters, rules = _compile_rules(strategy, slots, index, config)
    vig = Fraction(config.vig)
    scalars = {"vn": vig.numerator, "vd": vig.denominator, "unit": cents(config.unit)}
    tables = PlayerTables(slots, [], [], [], [], [], [], _craps_slot_ints(slots, index, config),
                          [], [], [], rules, counters, scalars)
    _craps_tables(slots, index, config.pays, tables)
    for rule in rules:
        for k in rule["counted"]:
            tables.slot_int["ctr"][k] = rule["ctr"]
    return tables


def _compile_rules(strategy: Strategy, slots: list[Slot], index: dict[str, int],
                   config: CrapsConfig | None) -> tuple[list[tuple[list[int], list[int], int]],
                                                       list[dict[str, Any]]]:
    """The strategy's progressions (next level on a win, on a loss, reset on a seven-out) and
    its bet rules as the kernel's integers, in order."""
    counter_names: list[str] = []
    counters: list[tuple[list[int], list[int], int]] = []
    for prog in strategy.progressions:
        counter_names.append(prog.name)
        counters.append((list(prog.on_win), list(prog.on_lose), int(prog.seven_out_reset)))
    rules: list[dict[str, Any]] = []
    when_code = {"always": 0, "point_on": 1, "point_off": 2}
    for bet in strategy.bets:
        ctr = counter_names.index(bet.progression) if bet.progression is not None else -1
        nlev = len(counters[ctr][0]) if ctr >= 0 else 1
        amounts = [cents(a) for a in bet.amounts] or [0]
        amounts += [amounts[-1]] * (nlev - len(amounts))
        rule: dict[str, Any] = {
            "kind": FIXED, "slot": -1, "when": when_code[bet.when], "skip_point": 0,
            "skip_covered": int(bet.skip_covered), "covering_pass": -1,
            "covering_pass_state": -1, "covering_come": -1,
            "down": int(bet.down_when_idle), "count": bet.count, "maxsame": bet.max_same,
            "maxline": bet.max_line, "ctr": ctr, "amounts": amounts, "pairs": [],
            "muln": [0] * 7, "muld": [1] * 7, "counted": [],
        }
        if config is None:  # a wheel game: every rule is a wager made before the spin
            q = roulette_qualifier(bet)
            label = ROULETTE_WAGERS[bet.wager].key(q)
            rule["slot"] = index[label]
            rule["counted"] = [rule["slot"]]
        elif bet.kind == "odds":
            _odds_rule(rule, bet, index, config)
        elif bet.kind == "come":
            _come_rule(rule, bet, index)
        else:
            _fixed_rule(rule, bet, slots, index)
        rules.append(rule)
    return counters, rules


def _odds_rule(rule: dict[str, Any], bet: Bet, index: dict[str, int],
               config: CrapsConfig) -> None:
    """An odds rule: its multiple per point number and the (flat, odds) slot pairs."""
    d = WAGERS[bet.wager]
    rule["kind"] = ODDS
    for ni, n in enumerate(POINTS, start=1):
        r = _odds_ratio(bet, n, config, d)
        rule["muln"][ni], rule["muld"][ni] = r.numerator, r.denominator
    base = d.odds_of or ""
    if odds_on_the_point(d):
        if base in index:
            rule["pairs"].append((index[base], index[d.id]))
    else:
        for n in POINTS:
            f, o = f"{base}:{n}", f"{d.id}:{n}"
            if f in index and o in index:
                rule["pairs"].append((index[f], index[o]))


def _come_rule(rule: dict[str, Any], bet: Bet, index: dict[str, int]) -> None:
    """A come rule: the box it bets in and the numbers its bets travel to."""
    d = WAGERS[bet.wager]
    rule["kind"] = COME
    rule["slot"] = index[d.id]
    fam = [index[f"{d.id}:{n}"] for n in POINTS if f"{d.id}:{n}" in index]
    rule["pairs"] = [(k, k) for k in fam]
    rule["counted"] = [rule["slot"], *fam]


def _fixed_rule(rule: dict[str, Any], bet: Bet, slots: list[Slot], index: dict[str, int]) -> None:
    """A fixed rule: its slot, and the point or the player's own bets that make it skip."""
    d = WAGERS[bet.wager]
    q = _qualifier(bet, d, bet.wager)
    rule["slot"] = index[d.label(q, None)]
    rule["counted"] = [rule["slot"]]
    if (bet.skip_point or bet.skip_covered) and (not isinstance(q, int) or q not in POINTS):
        raise Malformed(bet.wager, "skip_point and skip_covered need a point number")
    if bet.skip_point:
        rule["skip_point"] = POINT_INDEX[q]
    if bet.skip_covered:
        if "pass" in index:
            rule["covering_pass"] = index["pass"]
            rule["covering_pass_state"] = slots[index["pass"]].states.index(q)
        if f"come:{q}" in index:
            rule["covering_come"] = index[f"come:{q}"]


# --- roulette -----------------------------------------------------------------------------


def roulette_qualifier(bet: Bet) -> Any:
    """The roulette wager's qualifier from the bet rule (numbers, a number or none)."""
    w = ROULETTE_WAGERS.get(bet.wager)
    if w is None:
        raise unknown_name(bet.wager, ROULETTE_WAGERS, "roulette wager", bet.wager,
                           "croupier wagers lists them")
    if w.qualifier == "numbers":
        if bet.numbers is None:
            raise Malformed(bet.wager, f"a {w.name} wager needs numbers = [...]")
        return tuple(bet.numbers)
    if w.qualifier is not None:
        if bet.number is None:
            raise Malformed(bet.wager, f"a {w.name} wager needs a number")
        return bet.number
    return None


def roulette_config(strategy: Strategy, profile_id: str | None) -> tuple[str, TableConfig]:
    """The roulette profile id and table options the strategy plays under."""
    profile = load_profile(profile_id or strategy.rules or game_entry(strategy.game).default_profile)
    if profile.roulette is None:
        raise Malformed("rules", f"{profile.id} does not cover roulette")
    try:
        return profile.id, read_options(dict(strategy.table), profile)
    except Malformed as exc:
        raise exc.under(f"{strategy.name}.table") from None


def _enumerate_roulette(strategy: Strategy, profile_id: str, config: TableConfig,
                        pockets: list[Pocket]) -> PlayerTables:
    scratch = RouletteTable.open(profile_id, config, {"p": BIG})
    slots = _roulette_slots(strategy, scratch)
    index = {s.label: k for k, s in enumerate(slots)}
    res, won, cn, cd, nxt, dst = [], [], [], [], [], []
    for k, s in enumerate(slots):
        per_pocket = [_roulette_credit(s, pocket, scratch, config) for pocket in pockets]
        res.append([[1] * len(pockets)])
        won.append([[win for win, _ in per_pocket]])
        cn.append([[credit.numerator for _, credit in per_pocket]])
        cd.append([[credit.denominator for _, credit in per_pocket]])
        nxt.append([[0] * len(pockets)])
        dst.append([[k] * len(pockets)])
    n = len(slots)
    slot_int = {"stays": [0] * n, "off": [0] * n, "parent": [-1] * n, "commission_kind": [0] * n,
                "commission_num": [0] * n, "commission_den": [1] * n, "placement": [0] * n,
                "timing": [T_ANY] * n,
                "group": list(range(n)), "line": [0] * n, "ctr": [-1] * n}
    counters, rules = _compile_rules(strategy, slots, index, None)
    for rule in rules:
        for k in rule["counted"]:
            slot_int["ctr"][k] = rule["ctr"]
    scalars = {"vn": 0, "vd": 1, "unit": cents(config.unit)}
    return PlayerTables(slots, res, won, cn, cd, nxt, dst, slot_int, [[1]] * n, [[0]] * n,
                        [[-1] * 7] * n, rules, counters, scalars)


def _roulette_slots(strategy: Strategy, scratch: RouletteTable) -> list[Slot]:
    """One slot per distinct wager of the strategy's bets, each amount it may stake checked
    against the table (a refusal names the bet)."""
    slots: dict[str, Slot] = {}
    for i, bet in enumerate(strategy.bets):
        q = roulette_qualifier(bet)
        for amount in sorted(set(bet.amounts) - {0}):
            try:
                scratch.check_bet(PlaceBet("p", bet.wager, q, amount))
            except Refusal as exc:
                raise StrategyRefused(strategy.name, i, bet, exc) from None
        label = ROULETTE_WAGERS[bet.wager].key(q)
        slots.setdefault(label, Slot(label, bet.wager, q, [None]))
    return list(slots.values())


def _roulette_credit(s: Slot, pocket: Pocket, scratch: RouletteTable,
                     config: TableConfig) -> tuple[int, Fraction]:
    """Whether slot ``s`` wins when the ball lands in ``pocket`` and what it gives back per unit
    of stake (a bet of several parts: each part's share; half back under the zero rule)."""
    w = ROULETTE_WAGERS[s.wager]
    cover = w.covers(s.qualifier, WHEELS[config.wheel])
    assert cover is not None  # checked by check_bet
    parts = [frozenset({n}) for n in cover] if w.parts > 1 else [cover]
    share = Fraction(1, len(parts))
    credit, win = Fraction(0), 0
    for covered in parts:
        dec = roulette_decide(w, covered, pocket, config.zero_rule)
        if dec.outcome == "win":
            assert dec.pay_key is not None
            odds = scratch.pays[dec.pay_key]
            credit += share * (1 + Fraction(odds.win, odds.stake))
            win = 1
        elif dec.outcome == "lose_half":
            credit += share * Fraction(1, 2)
    return win, credit


def roulette_pockets(config: TableConfig) -> list[Pocket]:
    """The pockets in play on the table's wheel, in outcome-index order."""
    wheel = WHEELS[config.wheel]
    return sorted(wheel.in_play, key=pocket_key)


# --- the whole table ----------------------------------------------------------------------


def compile_table(strategies: Sequence[Strategy], profile_id: str | None = None) -> Compiled:
    """Check and compile the strategies of the players at one table (first one's options)."""
    if not strategies:
        raise Malformed("STRATEGY", "no strategy")
    game = strategies[0].game
    if any(s.game != game for s in strategies):
        raise Malformed("STRATEGY", "all players at a table play the same game")
    for s in strategies:
        if len(s.progressions) > 8:
            raise Malformed(s.name, "at most eight progressions per strategy")
    _one_table(strategies, profile_id)
    compiler = _dice_players if game_entry(game).uses_dice else _wheel_players
    prof, config, rconfig, faces, players = compiler(strategies, profile_id)
    arrays = _pack(players, strategies, len(faces), game)
    return Compiled(game, prof, list(strategies), len(faces), arrays, faces, config, rconfig)


def _one_table(strategies: Sequence[Strategy], profile_id: str | None) -> None:
    """The players share one table, the first's: another player's strategy may leave its rule
    profile and table options out, but not name others (they would not be played)."""
    first = strategies[0]
    for s in strategies[1:]:
        if s.table and s.table != first.table:
            raise Malformed(f"{s.name}.table", f"the players sit at one table, with the first "
                            f"player's options ({first.name}); give the same or none")
        table_rules = first.rules or game_entry(first.game).default_profile
        if profile_id is None and s.rules is not None and \
                load_profile(s.rules).id != load_profile(table_rules).id:
            raise Malformed(f"{s.name}.rules", f"the players sit at one table, under the "
                            f"first player's rules ({first.name}: {table_rules}); give the "
                            "same, none, or --rules for all")


_Players = tuple[str, CrapsConfig | None, TableConfig | None, list[Any], list[PlayerTables]]


def _dice_players(strategies: Sequence[Strategy], profile_id: str | None) -> _Players:
    """Each player's tables at a dice table: its outcomes are the 36 ordered pairs."""
    config = craps_config(strategies[0], profile_id)
    players = []
    for s in strategies:
        _check_craps(s, config)
        players.append(_enumerate_craps(s, config))
    return config.profile_id, config, None, list(OUTCOMES), players


def _wheel_players(strategies: Sequence[Strategy], profile_id: str | None) -> _Players:
    """Each player's tables at a wheel: its outcomes are the wheel's pockets."""
    prof, rconfig = roulette_config(strategies[0], profile_id)
    faces: list[Any] = roulette_pockets(rconfig)
    players = [_enumerate_roulette(s, prof, rconfig, faces) for s in strategies]
    return prof, None, rconfig, faces, players


def point_tables(n_outcomes: int, game: str) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """The table's point after each outcome, and whether it is a seven-out: from PASS.decide."""
    pt = np.zeros((7, n_outcomes), dtype=np.int8)
    seven = np.zeros((7, n_outcomes), dtype=np.int8)
    if not game_entry(game).uses_dice:  # a wheel has no point
        return pt, seven
    for p_i, point in enumerate((None, *POINTS)):
        for o, (d1, d2) in enumerate(OUTCOMES):
            out = PASS.decide(None, point, d1, d2)
            if isinstance(out, Move):
                pt[p_i, o] = POINT_INDEX[cast(int, out.state)]
            elif out is None:
                pt[p_i, o] = p_i
            else:
                pt[p_i, o] = 0
                seven[p_i, o] = int(point is not None and isinstance(out, Lose))
    return pt, seven


@dataclass(frozen=True)
class _Shape:
    """The padded sizes of a table's arrays: the widest player fixes each."""

    players: int
    slots: int
    states: int
    rules: int
    counters: int
    levels: int
    pairs: int
    outcomes: int

    @classmethod
    def of(cls, players: list[PlayerTables], n_out: int) -> _Shape:
        return cls(
            players=len(players),
            slots=max(len(p.slots) for p in players),
            states=max(len(s.states) for p in players for s in p.slots),
            rules=max(len(p.rules) for p in players),
            counters=max(1, max(len(p.counters) for p in players)),
            levels=max([1] + [len(c[0]) for p in players for c in p.counters]
                       + [len(r["amounts"]) for p in players for r in p.rules]),
            pairs=max(1, max(len(r["pairs"]) for p in players for r in p.rules)),
            outcomes=n_out,
        )


def _empty_arrays(z: _Shape) -> dict[str, npt.NDArray[Any]]:
    """Every array the kernel reads, at its padded shape, filled with what "nothing" means."""
    P, S, NS, R, C, L, J, n_out = (z.players, z.slots, z.states, z.rules, z.counters, z.levels,
                                   z.pairs, z.outcomes)
    a: dict[str, npt.NDArray[Any]] = {
        "nslots": np.zeros(P, np.int64), "nrules": np.zeros(P, np.int64),
        "nctr": np.zeros(P, np.int64), "nstates": np.ones((P, S), np.int64),
        "res": np.zeros((P, S, NS, n_out), np.int8), "won": np.zeros((P, S, NS, n_out), np.int8),
        "cn": np.zeros((P, S, NS, n_out), np.int64), "cd": np.ones((P, S, NS, n_out), np.int64),
        "nxt": np.zeros((P, S, NS, n_out), np.int16), "dst": np.zeros((P, S, NS, n_out), np.int16),
        "remove": np.zeros((P, S, NS), np.int8), "point_of_state": np.zeros((P, S, NS), np.int8),
        "odds_state": np.full((P, S, 7), -1, np.int8),
        "rcovering_pass": np.full((P, R), -1, np.int64),
        "rcovering_pass_state": np.full((P, R), -1, np.int64),
        "rcovering_come": np.full((P, R), -1, np.int64), "rctr": np.full((P, R), -1, np.int64),
        "ramt": np.zeros((P, R, L), np.int64),
        "rnpair": np.zeros((P, R), np.int64), "rflat": np.zeros((P, R, J), np.int64),
        "rodds": np.zeros((P, R, J), np.int64), "rmuln": np.zeros((P, R, 7), np.int64),
        "rmuld": np.ones((P, R, 7), np.int64),
        "winnext": np.zeros((P, C, L), np.int64), "losenext": np.zeros((P, C, L), np.int64),
        "reset7": np.zeros((P, C), np.int64),
        "stoploss": np.zeros(P, np.int64), "wingoal": np.zeros(P, np.int64),
        "shooterlim": np.zeros(P, np.int64),
        "vn": np.zeros(P, np.int64), "vd": np.ones(P, np.int64), "unit": np.ones(P, np.int64),
    }
    for name in RULE_INTS:
        a.setdefault("r" + name, np.zeros((P, R), np.int64))
    for name in SLOT_INTS:
        a[name] = np.full((P, S), -1 if name in ("parent", "ctr") else 0, np.int64)
    a["commission_den"][:] = 1
    return a


def _pack_slots(a: dict[str, npt.NDArray[Any]], p: int, pt: PlayerTables) -> None:
    """Player ``p``'s per-slot tables into the padded arrays."""
    for k, s in enumerate(pt.slots):
        n_st = len(s.states)
        a["nstates"][p, k] = n_st
        for name in SLOT_TABLES:
            a[name][p, k, :n_st] = getattr(pt, name)[k]
        a["odds_state"][p, k] = pt.odds_state[k]
        for name, values in pt.slot_int.items():
            a[name][p, k] = values[k]


def _pack_rules(a: dict[str, npt.NDArray[Any]], p: int, pt: PlayerTables) -> None:
    """Player ``p``'s bet rules and progression counters into the padded arrays."""
    for r, rule in enumerate(pt.rules):
        for name in RULE_INTS:
            a["r" + name][p, r] = rule[name]
        amounts = rule["amounts"]
        a["ramt"][p, r, :len(amounts)] = amounts
        a["ramt"][p, r, len(amounts):] = amounts[-1]
        a["rnpair"][p, r] = len(rule["pairs"])
        for j, (f, o) in enumerate(rule["pairs"]):
            a["rflat"][p, r, j], a["rodds"][p, r, j] = f, o
        a["rmuln"][p, r] = rule["muln"]
        a["rmuld"][p, r] = rule["muld"]
    for c, (on_win, on_lose, reset) in enumerate(pt.counters):
        a["winnext"][p, c, :len(on_win)] = on_win
        a["losenext"][p, c, :len(on_lose)] = on_lose
        a["reset7"][p, c] = reset


def _pack_limits(a: dict[str, npt.NDArray[Any]], p: int, pt: PlayerTables,
                 strat: Strategy) -> None:
    """Player ``p``'s limits (in cents, 0: none) and the table's scalars."""
    a["stoploss"][p] = cents(strat.stop_loss) if strat.stop_loss else 0
    a["wingoal"][p] = cents(strat.win_goal) if strat.win_goal else 0
    a["shooterlim"][p] = cents(strat.shooter_loss_limit) if strat.shooter_loss_limit else 0
    for name, value in pt.scalars.items():
        a[name][p] = value


def _pack(players: list[PlayerTables], strategies: Sequence[Strategy], n_out: int,
          game: str) -> dict[str, npt.NDArray[Any]]:
    """The players' tables padded into one set of arrays (the widest player fixes the shapes),
    with the table's point and seven-out tables."""
    a = _empty_arrays(_Shape.of(players, n_out))
    for p, (pt, strat) in enumerate(zip(players, strategies, strict=True)):
        a["nslots"][p], a["nrules"][p] = len(pt.slots), len(pt.rules)
        a["nctr"][p] = len(pt.counters)
        _pack_slots(a, p, pt)
        _pack_rules(a, p, pt)
        _pack_limits(a, p, pt, strat)
    pt_arr, seven = point_tables(n_out, game)
    a["pt"], a["seven"] = pt_arr, seven
    return a
