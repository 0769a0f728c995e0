"""The craps table: come-out and point, the shooter, the players' wagers. Actions in, events out.

Every action is checked completely before anything changes (``check_*`` computes the events or
raises :class:`Refusal`), then its events are folded into the table by :meth:`CrapsTable.apply`,
the only code that changes state. The event log alone therefore rebuilds the table.

>>> from decimal import Decimal
>>> from croupier.rules import load_profile
>>> table = CrapsTable(CrapsConfig.from_options(load_profile("nj-13-69f"), {}),
...                    {"alice": Decimal(100)})
>>> _ = table.bet("alice", "pass", None, Decimal(10))
>>> _ = table.roll(4, 2)
>>> table.point
6
>>> _ = table.bet("alice", "pass_odds", None, Decimal(50))
>>> _ = table.roll(5, 1)
>>> table.players["alice"].bankroll
Decimal('170')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import cast

from croupier.craps.config import CrapsConfig
from croupier.craps.events import (
    BetMade,
    BetTakenDown,
    CalledOn,
    Moved,
    Rolled,
    Seated,
    Settled,
    ShooterChanged,
    TableOpened,
)
from croupier.craps.wagers import (
    ODDS_BEHIND,
    WAGERS,
    Lose,
    Move,
    Outcome,
    Qualifier,
    Removal,
    State,
    Timing,
    WagerDef,
    Win,
)
from croupier.dice import POINTS
from croupier.errors import Refusal
from croupier.events import Event
from croupier.money import ZERO, describe, floor_to_unit, fmt, is_multiple, to_decimal
from croupier.rules.citations import cite

_NO_CLAUSE = ""


@dataclass
class PlayerState:
    bankroll: Decimal
    seated: bool = False
    # 13:69F-1.3(d): after a don't bet is reduced or removed, no new one until its window reopens.
    dont_pass_blocked: bool = False
    dont_come_blocked: bool = False


@dataclass
class Wager:
    """A wager on the layout."""

    player: str
    wager_id: str
    qualifier: Qualifier
    stake: Decimal
    state: State
    called_on: bool = False
    commission_paid: Decimal = ZERO
    reduced: bool = False

    @property
    def definition(self) -> WagerDef:
        return WAGERS[self.wager_id]

    @property
    def label(self) -> str:
        return self.definition.label(self.qualifier, self.state)


def odds_label(flat: Wager) -> str | None:
    """The label of the odds that may stand behind ``flat`` (None if no odds stand behind it)."""
    odds = ODDS_BEHIND.get(flat.wager_id)
    if odds is None:
        return None
    if flat.definition.travels:
        # odds behind a come bet go on its number, once it has one
        return None if flat.state is None else odds.label(cast(int, flat.state), None)
    return odds.label(None, None)


def parent_label(odds: Wager) -> str | None:
    """The label of the flat bet the odds ``odds`` stand behind."""
    base = odds.definition.odds_of
    if base is None:
        return None
    return WAGERS[base].label(None, odds.state)


class CrapsTable:
    """A craps (or mini-craps) table under one rule profile and its options."""

    def __init__(self, config: CrapsConfig, players: dict[str, Decimal],
                 *, events: Iterable[Event] | None = None) -> None:
        self.config = config
        self.players: dict[str, PlayerState] = {}
        self.order: list[str] = []
        self.wagers: dict[tuple[str, str], Wager] = {}
        self.point: int | None = None
        self.shooter: str = ""
        self.hand_rolls = 0
        self.house = ZERO
        self.events: list[Event] = []
        # A long-running holder that persists events itself (the server) turns this off.
        self.keep_log = True
        self._off_on_come_out = frozenset(config.rules.settings.get("off_on_come_out", []))
        if events is None:
            first = next(iter(players))
            self._commit([TableOpened(tuple(players.items()), first)])
        else:
            for event in events:
                self.apply(event)

    @classmethod
    def from_events(cls, config: CrapsConfig, events: Iterable[Event]) -> CrapsTable:
        """Rebuild a table from its event log."""
        return cls(config, {}, events=events)

    # --- folding events into state (the only place state changes) -----------------------

    def apply(self, event: Event) -> None:
        """Fold one event into the table."""
        if self.keep_log:
            self.events.append(event)
        if isinstance(event, TableOpened):
            self.players = {name: PlayerState(amount) for name, amount in event.players}
            self.order = [name for name, _ in event.players]
            self.shooter = event.shooter
        elif isinstance(event, BetMade):
            ps = self.players[event.player]
            ps.bankroll -= event.amount + event.commission
            self.house += event.commission
            key = (event.player, event.wager)
            existing = self.wagers.get(key)
            if existing is None:
                self.wagers[key] = Wager(event.player, event.wager_id, event.qualifier,
                                         event.amount, event.state,
                                         commission_paid=event.commission)
            else:
                existing.stake += event.amount
                existing.commission_paid += event.commission
        elif isinstance(event, BetTakenDown):
            key = (event.player, event.wager)
            wager = self.wagers[key]
            self.players[event.player].bankroll += event.amount
            wager.stake -= event.amount
            if wager.definition.dont:
                wager.reduced = True
                if wager.wager_id == "dont_pass":
                    self.players[event.player].dont_pass_blocked = True
                else:
                    self.players[event.player].dont_come_blocked = True
            if event.whole:
                del self.wagers[key]
        elif isinstance(event, CalledOn):
            self.wagers[(event.player, event.wager)].called_on = event.on
        elif isinstance(event, Seated):
            self.players[event.player].seated = event.seated
        elif isinstance(event, Rolled):
            self.hand_rolls += 1
            self.point = event.point_after
            line_decided = event.point_before != event.point_after or (
                event.point_before is None and event.total not in POINTS)
            for ps in self.players.values():
                ps.dont_come_blocked = False
                if line_decided:
                    ps.dont_pass_blocked = False
        elif isinstance(event, Settled):
            self._apply_settled(event)
        elif isinstance(event, Moved):
            key = (event.player, event.wager)
            wager = self.wagers.pop(key)
            wager.state = event.state
            target = (event.player, event.to)
            if target in self.wagers and target != key:
                joined = self.wagers[target]
                joined.stake += wager.stake
                joined.reduced = joined.reduced or wager.reduced
            else:
                self.wagers[target] = wager
        elif isinstance(event, ShooterChanged):
            self.shooter = event.shooter
            self.hand_rolls = 0
        else:  # pragma: no cover - every event type is handled above
            raise TypeError(f"unknown event {event!r}")

    def _apply_settled(self, event: Settled) -> None:
        self.players[event.player].bankroll += event.returned + event.paid - event.commission
        self.house += event.taken + event.commission - event.paid
        key = (event.player, event.part_of or event.wager)
        wager = self.wagers[key]
        if event.stays_up:
            if wager.definition.commission and self.config.vig_collected == "placement":
                # It paid its commission again, for the stake that stays up: that is now what
                # its commission stands at (an addition tops up from here).
                wager.commission_paid = event.commission
            return
        wager.stake -= event.returned + event.taken
        if wager.stake == 0:
            del self.wagers[key]

    def _commit(self, events: list[Event]) -> list[Event]:
        for event in events:
            self.apply(event)
        return events

    # --- queries ----------------------------------------------------------------------

    def on_table(self, player: str) -> Decimal:
        return sum((w.stake for w in self.wagers.values() if w.player == player), ZERO)

    def wager(self, player: str, label: str) -> Wager | None:
        return self.wagers.get((player, label))

    def is_off(self, wager: Wager) -> bool:
        """Whether ``wager`` is inactive on the coming roll (off on the come-out, not called on)."""
        return (self.point is None and wager.wager_id in self._off_on_come_out
                and not wager.called_on)

    def total_chips(self) -> Decimal:
        """Bankrolls + stakes down + the house result: constant over the life of the table."""
        return (sum((p.bankroll for p in self.players.values()), ZERO)
                + sum((w.stake for w in self.wagers.values()), ZERO) + self.house)

    # --- actions: each checks completely, then commits its events ------------------------

    def bet(self, player: str, wager_id: str, qualifier: Qualifier, amount: Decimal,
            ) -> list[Event]:
        return self._commit(self.check_bet(player, wager_id, qualifier, amount))

    def take_down(self, player: str, wager_id: str, qualifier: Qualifier,
                  amount: Decimal | None = None) -> list[Event]:
        return self._commit(self.check_take_down(player, wager_id, qualifier, amount))

    def call(self, player: str, wager_id: str, qualifier: Qualifier, on: bool) -> list[Event]:
        return self._commit(self.check_call(player, wager_id, qualifier, on))

    def roll(self, d1: int, d2: int) -> list[Event]:
        return self._commit(self.check_roll(d1, d2))

    def pass_dice(self, to: str) -> list[Event]:
        return self._commit(self.check_pass_dice(to))

    def seat(self, player: str, seated: bool) -> list[Event]:
        return self._commit(self.check_seat(player, seated))

    # --- checks ------------------------------------------------------------------------

    def _clause(self, wager_id: str) -> str:
        return self.config.rules.wagers.get(wager_id, _NO_CLAUSE)

    def check_offered(self, d: WagerDef) -> None:
        """Refuse a wager the profile does not permit or this table does not offer."""
        cfg, rules = self.config, self.config.rules
        if not rules.permits(d.id):
            raise Refusal(f"{d.name} ({d.id}) is not a permitted wager under {cfg.profile_id}",
                          rules.clause("permitted_clause"))
        if cfg.mini and d.id in rules.settings.get("craps_only", []):
            raise Refusal(f"the {d.name} is permitted only at the game of craps, "
                          "not at mini-craps", rules.clause("timing_clause"))
        if d.id == "six_seven_eight" and not cfg.six_seven_eight:
            raise Refusal("6-7-8 is not offered at this table (it is offered at the election "
                          "of the casino licensee)", self._clause(d.id))
        if d.odds_of is not None and cfg.odds is None:
            raise Refusal("this table offers no free odds (odds option \"none\")",
                          rules.clause("odds_clause"))

    def check_bet(self, player: str, wager_id: str, qualifier: Qualifier, amount: Decimal,
                  ) -> list[Event]:
        cfg = self.config
        d = WAGERS[wager_id]
        ps = self.players[player]
        if cfg.mini and not ps.seated:
            raise Refusal(f"{player} is not seated: only players seated at a mini-craps table "
                          "may place a wager", cfg.rules.clause("seating_clause"))
        self.check_offered(d)
        clause = self._clause(wager_id)
        if d.travels and qualifier is not None:
            raise Refusal(f"a {d.name} is made in the {d.name.removesuffix(' Bet')} area and "
                          "travels to its number on the next roll; it cannot be made on a number",
                          clause)
        state = d.initial_state(qualifier, self.point)
        self._check_timing(d, player, qualifier, clause)
        label = d.label(qualifier, state)
        existing = self.wagers.get((player, label))
        if existing is not None:
            state = existing.state
        if d.dont:
            dont_clause = cfg.rules.clause("dont_removal_clause")
            if existing is not None and existing.reduced:
                raise Refusal(f"a {d.name} may not be replaced or increased after it has been "
                              "reduced or removed", dont_clause)
            blocked = ps.dont_pass_blocked if d.id == "dont_pass" else ps.dont_come_blocked
            if existing is None and blocked:
                raise Refusal(f"{player} reduced or removed a {d.name}: it may not be replaced "
                              "until the next decision", dont_clause)
        total = amount + (existing.stake if existing is not None else ZERO)
        self.check_stake(d, qualifier, state, total)
        if d.odds_of is not None:
            self._check_odds_limit(d, player, state, total)
        commission = ZERO
        if d.commission is not None and cfg.vig_collected == "placement":
            paid = existing.commission_paid if existing is not None else ZERO
            commission = max(ZERO, self.commission_on(d, qualifier, total) - paid)
        if amount + commission > ps.bankroll:
            need = amount + commission
            raise Refusal(f"{player} has {fmt(ps.bankroll)} in chips and the wager needs "
                          f"{fmt(need)}: no wager is taken on credit")
        return [BetMade(player, label, wager_id, qualifier, state, amount, commission)]

    def _check_timing(self, d: WagerDef, player: str, qualifier: Qualifier, clause: str) -> None:
        timing = d.timing
        if timing is Timing.COME_OUT and self.point is not None:
            raise Refusal(f"a {d.name} is made only immediately prior to a come out roll; "
                          f"the point is {self.point}", clause)
        if timing is Timing.POINT_ON and self.point is None:
            raise Refusal(f"a {d.name} is made only after the come out roll, while a point "
                          "is established", clause)
        if timing is Timing.LINE_ODDS:
            flat = self.wagers.get((player, d.odds_of or ""))
            if flat is None or flat.state is None:
                flat_name = WAGERS[d.odds_of or ""].name
                raise Refusal(f"{d.name} are taken only while {player}'s {flat_name} stands on "
                              "a point", clause)
        if timing is Timing.COME_ODDS:
            flat_id = d.odds_of or ""
            if (player, f"{flat_id}:{qualifier}") not in self.wagers:
                raise Refusal(f"{d.name} on {qualifier} are taken only behind {player}'s "
                              f"{WAGERS[flat_id].name} standing on {qualifier}", clause)
        if timing is Timing.NEW_SHOOTER and self.hand_rolls > 0:
            raise Refusal(f"a {d.name} may only be made prior to the come out roll of a new "
                          "shooter", clause)

    def check_stake(self, d: WagerDef, qualifier: Qualifier, state: State, stake: Decimal,
                    ) -> None:
        """Refuse a stake the table cannot take: unit, limits, split into units, payable."""
        cfg = self.config
        unit = cfg.unit
        payable = cfg.rules.clause("payable_clause")
        if not is_multiple(stake, unit):
            raise Refusal(f"a stake of {fmt(stake)} is not a multiple of the table unit "
                          f"{fmt(unit)}", payable)
        if stake < cfg.min_bet:
            raise Refusal(f"a stake of {fmt(stake)} is below the table minimum "
                          f"{fmt(cfg.min_bet)}")
        if cfg.max_bet is not None and stake > cfg.max_bet:
            raise Refusal(f"a stake of {fmt(stake)} is above the table maximum "
                          f"{fmt(cfg.max_bet)}")
        if d.parts is not None:
            parts = d.parts(qualifier)
            units = sum(p.units for p in parts)
            one = Fraction(stake) / units
            if not is_multiple(one, unit):
                raise Refusal(f"a {d.name} is placed in units of {units}: {fmt(stake)} does not "
                              f"divide into {units} equal parts of whole table units",
                              self._clause(d.id))
            for part in parts:
                pd = WAGERS[part.wager]
                self._check_payable(pd, part.qualifier, None, to_decimal(one * part.units), payable)
        else:
            self._check_payable(d, qualifier, state, stake, payable)

    def _check_payable(self, d: WagerDef, qualifier: Qualifier, state: State, stake: Decimal,
                       clause: str) -> None:
        for key in d.pay_keys(qualifier, state):
            odds = self.config.pays[key]
            if not odds.pays_exactly_in(stake, self.config.unit):
                raise Refusal(f"a {d.name} of {fmt(stake)} cannot be paid at {odds} "
                              f"in the table unit {fmt(self.config.unit)}; the wager is not "
                              "accepted", clause)

    def _check_odds_limit(self, d: WagerDef, player: str, number: State, total: Decimal,
                          ) -> None:
        cfg = self.config
        flat_label = d.odds_of if d.timing is Timing.LINE_ODDS else f"{d.odds_of}:{number}"
        flat = self.wagers[(player, flat_label or "")]
        assert isinstance(number, int)
        if d.lay_odds:
            multiple = cfg.lay_odds_limit_multiple()
            assert multiple is not None
            wins = cfg.pays[f"{d.id}:{number}"].winnings(total)
            if wins > Fraction(multiple) * Fraction(flat.stake):
                raise Refusal(f"{d.name} of {fmt(total)} would win {describe(wins)}, more "
                              f"than {multiple} times the flat bet of {fmt(flat.stake)}",
                              cfg.rules.clause("odds_clause"))
        else:
            multiple = cfg.odds_limit_multiple(number)
            assert multiple is not None
            if Fraction(total) > Fraction(multiple) * Fraction(flat.stake):
                raise Refusal(f"{d.name} of {fmt(total)} are more than {multiple} times the "
                              f"flat bet of {fmt(flat.stake)}", cfg.rules.clause("odds_clause"))

    def commission_on(self, d: WagerDef, qualifier: Qualifier, stake: Decimal) -> Decimal:
        """A buy or lay bet's commission: the rate on its base, rounded down to the unit."""
        cfg = self.config
        base = cfg.commission_base(d.commission or "", qualifier, Fraction(stake))
        return floor_to_unit(base * Fraction(cfg.vig), cfg.unit)

    def find(self, player: str, wager_id: str, qualifier: Qualifier) -> Wager:
        """The player's wager an action names; for come bets a number picks one on the layout."""
        d = WAGERS[wager_id]
        if d.travels:
            if qualifier is not None:
                found = self.wagers.get((player, f"{wager_id}:{qualifier}"))
            else:
                found = self.wagers.get((player, wager_id))
                if found is None:
                    standing = [w for (p, _), w in self.wagers.items()
                                if p == player and w.wager_id == wager_id]
                    found = standing[0] if len(standing) == 1 else None
        else:
            found = self.wagers.get((player, d.label(qualifier, None)))
        if found is None:
            label = d.label(qualifier, qualifier if d.travels else None)
            raise Refusal(f"{player} has no {d.name} ({label}) on the layout")
        return found

    def check_take_down(self, player: str, wager_id: str, qualifier: Qualifier,
                        amount: Decimal | None) -> list[Event]:
        cfg = self.config
        wager = self.find(player, wager_id, qualifier)
        d = wager.definition
        if d.removal is Removal.NEVER:
            raise Refusal(f"a {d.name} may not be removed or reduced",
                          cfg.rules.clause("removal_clause"))
        if d.removal is Removal.UNTIL_POINT and wager.state is not None:
            raise Refusal(f"a {d.name} may not be removed or reduced after its point "
                          f"({wager.state}) is established", cfg.rules.clause("removal_clause"))
        whole = amount is None or amount == wager.stake
        if amount is not None and amount > wager.stake:
            raise Refusal(f"cannot take {fmt(amount)} down from a {d.name} of "
                          f"{fmt(wager.stake)}")
        remaining = ZERO if whole else wager.stake - (amount or ZERO)
        if not whole:
            self.check_stake(d, wager.qualifier, wager.state, remaining)
        odds_key = odds_label(wager)
        odds = self.wagers.get((player, odds_key)) if odds_key else None
        if odds is not None:
            need = self._flat_needed(odds)
            if remaining < need:
                raise Refusal(f"the {odds.definition.name} of {fmt(odds.stake)} need a flat bet "
                              f"of at least {fmt(need)}: take the odds down first",
                              cfg.rules.clause("odds_clause"))
        taken = wager.stake if whole else (amount or ZERO)
        return [BetTakenDown(player, wager.label, taken, whole)]

    def _flat_needed(self, odds: Wager) -> Decimal:
        """The smallest flat bet that the odds ``odds`` may stand behind."""
        cfg = self.config
        d = odds.definition
        if d.lay_odds:
            multiple = cfg.lay_odds_limit_multiple()
            wins = cfg.pays[f"{d.id}:{odds.state}"].winnings(odds.stake)
        else:
            multiple = cfg.odds_limit_multiple(int(odds.state))  # type: ignore[call-overload]
            wins = Fraction(odds.stake)
        if not multiple:
            return ZERO
        need = wins / Fraction(multiple)
        units = need / Fraction(cfg.unit)
        whole_units = -(-units.numerator // units.denominator)
        return Decimal(whole_units) * cfg.unit

    def check_call(self, player: str, wager_id: str, qualifier: Qualifier, on: bool,
                   ) -> list[Event]:
        wager = self.find(player, wager_id, qualifier)
        if wager.wager_id not in self._off_on_come_out:
            word = "on" if on else "off"
            raise Refusal(f"a {wager.definition.name} cannot be called {word}: only wagers that "
                          "are inactive on the come out roll unless called on may be",
                          self.config.rules.clause("off_on_come_out_clause"))
        return [CalledOn(player, wager.label, on)]

    def check_seat(self, player: str, seated: bool) -> list[Event]:
        rules = self.config.rules
        if not self.config.mini:
            raise Refusal("seating applies at mini-craps only", rules.clause("seating_clause"))
        ps = self.players[player]
        if seated and ps.seated:
            raise Refusal(f"{player} is already seated")
        if not seated:
            if not ps.seated:
                raise Refusal(f"{player} is not seated")
            if self.on_table(player) > 0:
                raise Refusal(f"{player} has a wager down and must remain seated until the "
                              "completion of the round of play", rules.clause("seating_clause"))
        return [Seated(player, seated)]

    def check_pass_dice(self, to: str) -> list[Event]:
        if self.point is not None:
            raise Refusal(f"the dice pass only on completion of a decision; the point is "
                          f"{self.point}", cite(self.config.profile_id, "pass_dice"))
        if to == self.shooter:
            return []
        events: list[Event] = []
        if self.hand_rolls > 0:
            events.extend(self._end_hand())
        events.append(ShooterChanged(to, "passed"))
        return events

    def _end_hand(self) -> list[Event]:
        """A shooter's hand ends without a seven-out: fire bets are settled for what was made."""
        losers: list[Event] = []
        winners: list[Event] = []
        for wager in self.wagers.values():
            hand_end = wager.definition.hand_end
            if hand_end is not None:
                event = self._settle(wager, hand_end(wager.state))
                (winners if event.result == "win" else losers).append(event)
        return losers + winners

    def check_roll(self, d1: int, d2: int) -> list[Event]:
        total = d1 + d2
        point = self.point
        if point is None:
            after = total if total in POINTS else None
        else:
            after = None if total in (point, 7) else point
        events: list[Event] = [Rolled((d1, d2), total, point, after, d1 == d2, point is None)]
        losers: list[Event] = []
        winners: list[Event] = []
        returns: list[Event] = []
        moves: list[Event] = []
        decided: set[tuple[str, str]] = set()
        off_odds: list[Wager] = []
        off_rule = point is None
        off_ids = self._off_on_come_out
        for (player, label), wager in self.wagers.items():
            d = WAGERS[wager.wager_id]
            if off_rule and wager.wager_id in off_ids and not wager.called_on:
                if d.odds_of is not None:
                    off_odds.append(wager)
                continue
            if d.parts is not None:
                parts = d.parts(wager.qualifier)
                one = wager.stake / sum(p.units for p in parts)
                for part in parts:
                    pd = WAGERS[part.wager]
                    outcome = pd.decide(part.qualifier, None, d1, d2)
                    event = self._settle(wager, outcome, part_def=pd,
                                         part_stake=one * part.units)
                    (winners if event.result == "win" else losers).append(event)
                continue
            outcome = d.decide(wager.qualifier, wager.state, d1, d2)
            if outcome is None:
                continue
            if isinstance(outcome, Move):
                to = d.label(wager.qualifier, outcome.state)
                moves.append(Moved(player, label, to, outcome.state))
                continue
            decided.add((player, label))
            event = self._settle(wager, outcome)
            (winners if event.result == "win" else losers).append(event)
        for odds in off_odds:
            parent = parent_label(odds)
            if parent is not None and (odds.player, parent) in decided:
                returns.append(Settled(odds.player, odds.label, odds.stake, "returned",
                                       returned=odds.stake))
        events.extend(losers + winners + returns + moves)
        if point is not None and total == 7:
            events.append(ShooterChanged(self._next_shooter(), "seven-out"))
        return events

    def _next_shooter(self) -> str:
        i = self.order.index(self.shooter)
        return self.order[(i + 1) % len(self.order)]

    def _settle(self, wager: Wager, outcome: Outcome, *, part_def: WagerDef | None = None,
                part_stake: Decimal | None = None) -> Settled:
        d = wager.definition
        if part_def is not None:
            assert part_stake is not None
            name, stake, part_of, stays_up = part_def.id, part_stake, wager.label, False
        else:
            name, stake, part_of, stays_up = wager.label, wager.stake, None, d.stays_up
        if isinstance(outcome, Lose):
            return Settled(wager.player, name, stake, "lose", taken=stake, part_of=part_of)
        assert isinstance(outcome, Win)
        odds = self.config.pays[outcome.key]
        paid = odds.pays(stake)
        commission = ZERO
        if d.commission is not None:
            # Collected at placement, it is paid again out of the winnings to stay up;
            # collected on the win, it comes out of the winnings.
            commission = self.commission_on(d, wager.qualifier, stake)
        return Settled(wager.player, name, stake, "win", paid=paid,
                       returned=ZERO if stays_up else stake, commission=commission,
                       odds=str(odds), stays_up=stays_up, part_of=part_of)


def copy_config(config: CrapsConfig, **changes: object) -> CrapsConfig:
    """A changed copy of ``config`` (for tests and tools)."""
    return replace(config, **changes)  # type: ignore[arg-type]
