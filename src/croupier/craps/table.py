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

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, cast

from croupier.craps.actions import (
    Bet,
    Call,
    CrapsAction,
    DownOnWin,
    OffDuringPoint,
    PassDice,
    Roll,
    Sit,
    TakeDown,
)
from croupier.craps.config import CrapsConfig
from croupier.craps.events import (
    BetMade,
    BetTakenDown,
    CalledDownOnWin,
    CalledOffDuringPoint,
    CalledOn,
    Moved,
    PayTableApplied,
    Rolled,
    Seated,
    Settled,
    ShooterChanged,
    TableOpened,
)
from croupier.craps.felt import described
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
from croupier.errors import Refusal, Unsettleable
from croupier.events import ChipsIn, Event, Left, chips_moved
from croupier.money import ZERO, Odds, describe, fmt, is_multiple, to_decimal
from croupier.rules import CommissionTiming
from croupier.rules.citations import cite

_NO_CLAUSE = ""
# The texts set no table limits: a refusal for one cites the contract's reading.
LIMITS = "replay contract: Limits"


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
    accepted: tuple[tuple[str, str], ...] = ()
    """The pay-table entries it can be paid at, with the odds it was accepted at."""
    pays: Mapping[str, Odds] = field(default_factory=dict)
    """The same odds, read: what it is paid at, whatever the table's pay table becomes."""
    recorded_pays: bool = True
    """Whether its bet recorded the pays (a bet an earlier release recorded did not: it is
    accepted at the pay table in force when it was made)."""
    down_on_win: bool = False
    """Called "down on the win": its next win takes it down (table option down_on_win)."""
    off_for_point: bool = False
    """Called "off" for the rest of the point: not working until called on or the point is
    decided (table option off_during_point)."""

    @property
    def definition(self) -> WagerDef:
        return WAGERS[self.wager_id]

    @property
    def key(self) -> str:
        """The wager's one name on the layout: ``place_win:6``, ``come:9``, ``hop:1-3``."""
        return self.definition.key(self.qualifier, self.state)


def odds_key_of(flat: Wager) -> str | None:
    """The key of the odds that may stand behind ``flat`` (None if no odds stand behind it)."""
    odds = ODDS_BEHIND.get(flat.wager_id)
    if odds is None:
        return None
    if flat.definition.travels:
        # odds behind a come bet go on its number, once it has one
        return None if flat.state is None else odds.key(cast(int, flat.state), None)
    return odds.key(None, None)


def parent_key(odds: Wager) -> str | None:
    """The key of the flat bet the odds ``odds`` stand behind."""
    base = odds.definition.odds_of
    if base is None:
        return None
    return WAGERS[base].key(None, odds.state)


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
        self.opened = TableOpened((), "")
        self.events: list[Event] = []
        # A long-running holder that persists events itself (the server) turns this off.
        self.keep_log = True
        self._off_on_come_out = config.off_on_come_out
        self._wager_clauses = dict(config.rules.wagers)  # read on every bet: a plain dict
        # The pays a bet is accepted at, by its pay-table keys (for this pay table), and each
        # such snapshot read once: bets share them rather than each parsing its own.
        self._snapshots: dict[tuple[str, ...], tuple[tuple[str, str], ...]] = {}
        self._read: dict[tuple[tuple[str, str], ...], Mapping[str, Odds]] = {}
        # Releases before wagers kept their pays settled a wager at the pay table in force at
        # the roll; the audit asks for that reading of such wagers to re-derive what they
        # recorded (an honest ledger of theirs verifies).
        self.earlier_release_pays = False
        if events is None:
            # The first player listed shoots first; automated craps has no shooter.
            first = next(iter(players), "") if config.variant.shooter else ""
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
        fold = _FOLDS.get(type(event))
        if fold is None:
            self._apply_shared(event)
        else:
            fold(self, event)

    def _apply_opened(self, event: TableOpened) -> None:
        self.opened = event
        self.players = {name: PlayerState(amount) for name, amount in event.players}
        self.order = [name for name, _ in event.players]
        self.shooter = event.shooter

    def _apply_bet_made(self, event: BetMade) -> None:
        ps = self.players[event.player]
        commission = event.commission or ZERO
        ps.bankroll -= event.amount + commission
        self.house += commission
        key = (event.player, event.wager)
        existing = self.wagers.get(key)
        if existing is not None:
            existing.stake += event.amount
            existing.commission_paid += commission
            return
        accepted = (event.pays if event.pays is not None
                    else self.accepted_pays(WAGERS[event.wager_id], event.qualifier,
                                            event.state))
        self.wagers[key] = Wager(event.player, event.wager_id, event.qualifier,
                                 event.amount, event.state, commission_paid=commission,
                                 accepted=accepted, pays=self._odds_of(accepted),
                                 recorded_pays=event.pays is not None)

    def _apply_taken_down(self, event: BetTakenDown) -> None:
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

    def _apply_called_on(self, event: CalledOn) -> None:
        self.wagers[(event.player, event.wager)].called_on = event.on

    def _apply_down_on_win(self, event: CalledDownOnWin) -> None:
        self.wagers[(event.player, event.wager)].down_on_win = True

    def _apply_off_during_point(self, event: CalledOffDuringPoint) -> None:
        self.wagers[(event.player, event.wager)].off_for_point = event.off

    def _apply_seated(self, event: Seated) -> None:
        self.players[event.player].seated = event.seated

    def _apply_rolled(self, event: Rolled) -> None:
        self.hand_rolls += 1
        self.point = event.point_after
        line_decided = event.point_before != event.point_after or (
            event.point_before is None and event.total not in POINTS)
        for ps in self.players.values():
            ps.dont_come_blocked = False
            if line_decided:
                ps.dont_pass_blocked = False
        if event.point_before is not None and event.point_after is None:
            # The point is decided: a wager called off for it works again.
            for wager in self.wagers.values():
                wager.off_for_point = False

    def _apply_moved(self, event: Moved) -> None:
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

    def _apply_shooter_changed(self, event: ShooterChanged) -> None:
        self.shooter = event.shooter
        self.hand_rolls = 0

    def _apply_pay_table(self, event: PayTableApplied) -> None:
        self.config = self.config.with_pays(dict(event.pays))
        self._snapshots.clear()

    def _apply_shared(self, event: Event) -> None:
        """The events every game shares: chips in and out, joining and leaving, adjustments."""
        if isinstance(event, ChipsIn):
            if event.player not in self.players:
                self.players[event.player] = PlayerState(ZERO)
            if event.player not in self.order:
                self.order.append(event.player)
        moved = chips_moved(event)
        if moved is not None:
            player, to_player, to_house = moved
            self.players[player].bankroll += to_player
            self.house += to_house
        elif isinstance(event, Left):
            self.order.remove(event.player)
            if self.shooter == event.player:
                self.shooter = ""
        else:
            raise TypeError(f"not an event of a craps table: {event!r}")

    def _apply_settled(self, event: Settled) -> None:
        self.players[event.player].bankroll += event.returned + event.paid - event.commission
        self.house += event.taken + event.commission - event.paid
        key = (event.player, event.part_of or event.wager)
        wager = self.wagers[key]
        if event.stays_up:
            if wager.definition.commission and self.config.commission_timing(
                    wager.wager_id, wager.qualifier) is CommissionTiming.PLACEMENT:
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

    # --- queries (the Table interface, croupier.table) ---------------------------------

    def opening_json(self) -> dict[str, Any]:
        """The opening as the replay result lists it: ``"action": null`` and the kind ``open``
        that every release before the shared event vocabulary gave it (replay results are
        compared byte for byte across releases)."""
        return {"action": None, **self.opened.to_json(), "type": "open"}

    def event_json(self, event: Event) -> dict[str, Any]:
        """An event as the replay result lists it (craps's keep their own names)."""
        return event.to_json()

    def seats(self) -> list[str]:
        """The players at the table, in their order around it (clockwise)."""
        return list(self.order)

    def chips(self, player: str) -> Decimal:
        """The chips in ``player``'s hand (not on the layout)."""
        ps = self.players.get(player)
        return ps.bankroll if ps is not None else ZERO

    def layout(self) -> list[tuple[str, str, Decimal]]:
        """Every wager on the layout: (player, wager key, stake)."""
        return [(w.player, key, w.stake) for (_, key), w in self.wagers.items()]

    def seated(self) -> list[str]:
        """The players in a seat (where only seated players wager)."""
        return [p for p in self.order if self.players[p].seated]

    def has_seating(self) -> bool:
        return self.config.seated

    def live_state(self) -> dict[str, Any]:
        """The replay's state and the rolls of the shooter's hand so far (a fire bet is made
        only before the first)."""
        return {**self.state_json(), "hand_rolls": self.hand_rolls}

    def draw_ranges(self) -> tuple[int, ...]:
        return (6, 6)

    def outcome_from(self, indices: tuple[int, ...]) -> tuple[Any, ...]:
        """Two dice from two draws of six (index 0 is a one)."""
        return tuple(i + 1 for i in indices)

    def outcome_of(self, event: Event) -> tuple[Any, ...] | None:
        return tuple(event.dice) if isinstance(event, Rolled) else None

    def state_json(self) -> dict[str, Any]:
        """Where the game stands, as the replay result shows it."""
        return {"point": self.point, "shooter": self.shooter or None}

    def offer(self) -> dict[str, Any]:
        """What this table offers: wagers (with the clause permitting each), the pay table in
        force, the wagers off on the come-out, the clauses, limits and odds, the wagers each
        call its options take may be made on (none where the option is off), and what the
        page draws the felt and the legal moves from (:func:`croupier.craps.felt.described`)."""
        cfg, rules = self.config, self.config.rules
        ids = {d.id for d in cfg.offered()}
        calls = {option: [d.id for d in cfg.offered() if getattr(d, option)]
                 if getattr(cfg, option) else [] for option in ("down_on_win", "off_during_point")}
        return {
            "game": cfg.game, "profile": cfg.profile_id, "title": cfg.profile.title,
            "wagers": {k: v for k, v in rules.wagers.items() if k in ids},
            "pays": {k: str(v) for k, v in cfg.pays.items()},
            "off_on_come_out": sorted(cfg.off_on_come_out),
            "clauses": dict(rules.clauses),
            "unit": str(cfg.unit), "min_bet": str(cfg.min_bet),
            "max_bet": None if cfg.max_bet is None else str(cfg.max_bet),
            "vig": str(cfg.vig), "odds": None if cfg.odds is None else str(cfg.odds),
            "shooter": cfg.variant.shooter, "calls": calls, **described(cfg),
        }

    def on_table(self, player: str) -> Decimal:
        return sum((w.stake for w in self.wagers.values() if w.player == player), ZERO)

    def purses(self, players: Iterable[str]) -> dict[str, tuple[Decimal, Decimal]]:
        """Chips in hand and on the layout of each of ``players`` at the table (a player who
        has left is not: their state stays in ``players``, out of ``order``).

        >>> from croupier.rules import load_profile
        >>> t = CrapsTable(CrapsConfig.from_options(load_profile("nj-13-69f"), {}),
        ...                {"a": Decimal(100)})
        >>> _ = t.bet("a", "field", None, Decimal(5))
        >>> t.purses(["a", "b"])
        {'a': (Decimal('95'), Decimal('5'))}
        """
        found = {p: [s.bankroll, ZERO] for p in players
                 if (s := self.players.get(p)) and p in self.order}
        for w in self.wagers.values():
            if w.player in found:
                found[w.player][1] += w.stake
        return {p: (chips, on_table) for p, (chips, on_table) in found.items()}

    def wager(self, player: str, key: str) -> Wager | None:
        return self.wagers.get((player, key))

    def is_off(self, wager: Wager) -> bool:
        """Whether ``wager`` is inactive on the coming roll: off on the come-out and not called
        on, or called off for the rest of the point."""
        if self.point is not None:
            return wager.off_for_point
        return wager.wager_id in self._off_on_come_out and not wager.called_on

    def total_chips(self) -> Decimal:
        """Bankrolls + stakes down + the house result: constant over the life of the table."""
        return (sum((p.bankroll for p in self.players.values()), ZERO)
                + sum((w.stake for w in self.wagers.values()), ZERO) + self.house)

    def accepted_pays(self, d: WagerDef, qualifier: Qualifier, state: State,
                      ) -> tuple[tuple[str, str], ...]:
        """The pay-table entries a wager ``d`` made now can be paid at, with their odds now."""
        keys = d.pay_keys(qualifier, state)
        found = self._snapshots.get(keys)
        if found is None:
            pays = self.config.pays
            found = self._snapshots[keys] = tuple((k, str(pays[k])) for k in keys if k in pays)
        return found

    def _odds_of(self, accepted: tuple[tuple[str, str], ...]) -> Mapping[str, Odds]:
        found = self._read.get(accepted)
        if found is None:
            found = self._read[accepted] = {k: Odds.parse(text, k) for k, text in accepted}
        return found

    def unpayable(self) -> list[tuple[str, str, str]]:
        """The wagers on the layout whose stake their own pays cannot pay in the table unit
        (none, while every stake is checked at its pays when made or reduced)."""
        out: list[tuple[str, str, str]] = []
        unit = self.config.unit
        for wager in self.wagers.values():
            for stake, keys in self._stakes_and_keys(wager):
                for key in keys:
                    odds = wager.pays.get(key)
                    if odds is not None and not odds.pays_exactly_in(stake, unit):
                        out.append((wager.player, wager.key,
                                    f"{fmt(stake)} at {odds} is not a whole number of table "
                                    f"units of {fmt(unit)}"))
        return out

    @staticmethod
    def _stakes_and_keys(wager: Wager) -> list[tuple[Decimal, tuple[str, ...]]]:
        d = wager.definition
        if d.parts is None:
            return [(wager.stake, d.pay_keys(wager.qualifier, wager.state))]
        parts = d.parts(wager.qualifier)
        one = wager.stake / sum(p.units for p in parts)
        return [(one * p.units, WAGERS[p.wager].pay_keys(p.qualifier, None)) for p in parts]

    # --- actions: each checks completely, then commits its events ------------------------

    def check(self, action: CrapsAction) -> list[Event]:
        """The events ``action`` would bring, or the :class:`Refusal`; nothing changes."""
        if isinstance(action, Bet):
            return self.check_bet(action.player, action.wager, action.qualifier, action.amount,
                                  covered=action.covered)
        if isinstance(action, Roll):
            return self.check_roll(action.d1, action.d2)
        if isinstance(action, TakeDown):
            return self.check_take_down(action.player, action.wager, action.qualifier,
                                        action.amount)
        if isinstance(action, Call):
            return self.check_call(action.player, action.wager, action.qualifier, action.on)
        if isinstance(action, DownOnWin):
            return self.check_down_on_win(action.player, action.wager, action.qualifier)
        if isinstance(action, OffDuringPoint):
            return self.check_off_during_point(action.player, action.wager, action.qualifier)
        if isinstance(action, PassDice):
            return self.check_pass_dice(action.to)
        if isinstance(action, Sit):
            return self.check_seat(action.player, action.seated)
        raise TypeError(f"not a craps action: {action!r}")

    def act(self, action: CrapsAction) -> list[Event]:
        """Check ``action``, then fold its events in; a refusal changes nothing."""
        return self._commit(self.check(action))

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
        return self._wager_clauses.get(wager_id, _NO_CLAUSE)

    def check_offered(self, d: WagerDef) -> None:
        """Refuse a wager the profile does not permit or this table does not offer."""
        refusal = self.config.why_not_offered(d)
        if refusal is not None:
            raise refusal

    def check_bet(self, player: str, wager_id: str, qualifier: Qualifier, amount: Decimal,
                  *, covered: Decimal = ZERO) -> list[Event]:
        """The events of a bet, or the refusal. ``covered`` is the part of ``amount`` a match
        play coupon stands for (the house's, not in the player's hand)."""
        cfg = self.config
        d = WAGERS[wager_id]
        ps = self.players[player]
        if cfg.seated and not ps.seated:
            raise Refusal(f"{player} is not seated: only players seated at a {cfg.game} table "
                          "may place a wager", cfg.rules.clause("seating_clause"))
        refusal = cfg.why_not_offered(d)
        if refusal is not None:
            raise refusal
        clause = self._clause(wager_id)
        if d.travels and qualifier is not None:
            raise Refusal(f"a {d.name} is made in the {d.name.removesuffix(' Bet')} area and "
                          "travels to its number on the next roll; it cannot be made on a number",
                          clause)
        state = d.initial_state(qualifier, self.point)
        self._check_timing(d, player, qualifier, clause)
        key = d.key(qualifier, state)
        existing = self.wagers.get((player, key))
        if existing is not None:
            state = existing.state
        accepted = self.accepted_pays(d, qualifier, state)
        self._check_not_repriced(d, player, existing, accepted)
        if d.dont:
            self._check_dont_replaced(d, player, existing)
        total = amount + (existing.stake if existing is not None else ZERO)
        self.check_stake(d, qualifier, state, total)
        if d.odds_of is not None:
            self._check_odds_limit(d, player, state, total)
        commission = self._placement_commission(d, qualifier, total, existing)
        if amount + commission > ps.bankroll + covered:
            need = amount + commission
            raise Refusal(f"{player} has {fmt(ps.bankroll + covered)} in chips and the wager "
                          f"needs {fmt(need)}: no wager is taken on credit",
                          cite(cfg.profile_id, "chips"))
        return [BetMade(player, key, wager_id, amount, qualifier=qualifier, state=state,
                        commission=commission, pays=accepted)]

    def _check_dont_replaced(self, d: WagerDef, player: str, existing: Wager | None) -> None:
        """A don't bet reduced or removed is not replaced or increased until the next
        decision."""
        ps = self.players[player]
        dont_clause = self.config.rules.clause("dont_removal_clause")
        if existing is not None and existing.reduced:
            raise Refusal(f"a {d.name} may not be replaced or increased after it has been "
                          "reduced or removed", dont_clause)
        blocked = ps.dont_pass_blocked if d.id == "dont_pass" else ps.dont_come_blocked
        if existing is None and blocked:
            raise Refusal(f"{player} reduced or removed a {d.name}: it may not be replaced "
                          "until the next decision", dont_clause)

    def _placement_commission(self, d: WagerDef, qualifier: Qualifier, total: Decimal,
                              existing: Wager | None) -> Decimal:
        """The commission a bet pays when made (where the table collects it on placement):
        on the whole stake, less what the wager has paid already."""
        if (d.commission is None or self.config.commission_timing(d.id, qualifier)
                is not CommissionTiming.PLACEMENT):
            return ZERO
        paid = existing.commission_paid if existing is not None else ZERO
        return max(ZERO, self.commission_on(d, qualifier, total) - paid)

    def _check_not_repriced(self, d: WagerDef, player: str, existing: Wager | None,
                            accepted: tuple[tuple[str, str], ...]) -> None:
        """Refuse to add to a wager the pay table now prices otherwise than it was accepted
        at (its stake would be paid at two odds), and a travelling wager that would join one
        on its number (a come bet lands on the same number as an earlier one)."""
        standing = [existing] if existing is not None else []
        if d.travels:
            standing = [w for (p, _), w in self.wagers.items()
                        if p == player and w.wager_id == d.id]
        for wager in standing:
            if wager.accepted != accepted:
                was = ", ".join(f"{k} {v}" for k, v in wager.accepted)
                now = ", ".join(f"{k} {v}" for k, v in accepted)
                way_out = ("take it down and make it again at the new odds"
                           if wager.definition.removal is not Removal.NEVER and
                           (wager.definition.removal is not Removal.UNTIL_POINT
                            or wager.state is None)
                           else "make it once that wager is decided")
                raise Refusal(f"{player}'s {wager.definition.name} ({wager.key}) was accepted "
                              f"at {was}, and the house's pay table now pays {now}: nothing "
                              f"is added to it at other odds; {way_out}",
                              self.config.rules.clause("pays_clause"))

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
                    pays: Mapping[str, Odds] | None = None) -> None:
        """Refuse a stake the table cannot take: unit, limits, split into units, payable (at
        ``pays``, the odds a wager on the layout was accepted at, else the table's now)."""
        cfg = self.config
        unit = cfg.unit
        payable = cfg.rules.clause("payable_clause")
        if not is_multiple(stake, unit):
            raise Refusal(f"a stake of {fmt(stake)} is not a multiple of the table unit "
                          f"{fmt(unit)}", payable)
        if stake < cfg.min_bet:
            raise Refusal(f"a stake of {fmt(stake)} is below the table minimum "
                          f"{fmt(cfg.min_bet)}", LIMITS)
        if cfg.max_bet is not None and stake > cfg.max_bet:
            raise Refusal(f"a stake of {fmt(stake)} is above the table maximum "
                          f"{fmt(cfg.max_bet)}", LIMITS)
        minimum = cfg.minimum_commissioned(d.id)
        if minimum is not None and stake < minimum:
            clause = cfg.rules.clause(f"{d.id}_commission_clause")
            free = cfg.commission(d.id, qualifier, stake) == 0
            why = " (its commission would round down to nothing)" if free else ""
            raise Refusal(f"a {d.name} of {fmt(stake)} is below this table's minimum {d.id} "
                          f"bet of {fmt(minimum)}{why}", clause)
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
                self._check_payable(pd, part.qualifier, None, to_decimal(one * part.units),
                                    payable, pays)
        else:
            self._check_payable(d, qualifier, state, stake, payable, pays)

    def _check_payable(self, d: WagerDef, qualifier: Qualifier, state: State, stake: Decimal,
                       clause: str, pays: Mapping[str, Odds] | None = None) -> None:
        for key in d.pay_keys(qualifier, state):
            odds = (pays or self.config.pays).get(key) or self.config.pays[key]
            if not odds.pays_exactly_in(stake, self.config.unit):
                raise Refusal(f"a {d.name} of {fmt(stake)} cannot be paid at {odds} "
                              f"in the table unit {fmt(self.config.unit)}; the wager is not "
                              "accepted", clause)

    def _check_odds_limit(self, d: WagerDef, player: str, number: State, total: Decimal,
                          ) -> None:
        cfg = self.config
        flat_key = d.odds_of if d.timing is Timing.LINE_ODDS else f"{d.odds_of}:{number}"
        flat = self.wagers[(player, flat_key or "")]
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
        return self.config.commission(d.commission or "", qualifier, stake)

    def find(self, player: str, wager_id: str, qualifier: Qualifier, clause: str = "") -> Wager:
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
            found = self.wagers.get((player, d.key(qualifier, None)))
        if found is None:
            key = d.key(qualifier, qualifier if d.travels else None)
            raise Refusal(f"{player} has no {d.name} ({key}) on the layout", clause)
        return found

    def check_take_down(self, player: str, wager_id: str, qualifier: Qualifier,
                        amount: Decimal | None) -> list[Event]:
        cfg = self.config
        wager = self.find(player, wager_id, qualifier, cfg.rules.clause("removal_clause"))
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
                          f"{fmt(wager.stake)}", LIMITS)
        remaining = ZERO if whole else wager.stake - (amount or ZERO)
        if not whole:
            self.check_stake(d, wager.qualifier, wager.state, remaining, wager.pays)
        odds_key = odds_key_of(wager)
        odds = self.wagers.get((player, odds_key)) if odds_key else None
        if odds is not None:
            need = self._flat_needed(odds)
            if remaining < need:
                raise Refusal(f"the {odds.definition.name} of {fmt(odds.stake)} need a flat bet "
                              f"of at least {fmt(need)}: take the odds down first",
                              cfg.rules.clause("odds_clause"))
        taken = wager.stake if whole else (amount or ZERO)
        return [BetTakenDown(player, wager.key, taken, whole)]

    def _flat_needed(self, odds: Wager) -> Decimal:
        """The smallest flat bet that the odds ``odds`` may stand behind."""
        cfg = self.config
        d = odds.definition
        if d.lay_odds:
            multiple = cfg.lay_odds_limit_multiple()
            key = f"{d.id}:{odds.state}"
            wins = odds.pays.get(key, cfg.pays[key]).winnings(odds.stake)
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
        """"On" or "off" for come-out rolls; "on" on a wager called off for the point (table
        option off_during_point) brings it back on for the point, and does only that."""
        wager = self.find(player, wager_id, qualifier,
                          self.config.rules.clause("off_on_come_out_clause"))
        if on and self.point is not None and wager.off_for_point:
            return [CalledOffDuringPoint(player, wager.key, False)]
        if wager.wager_id not in self._off_on_come_out:
            word = "on" if on else "off"
            raise Refusal(f"a {wager.definition.name} cannot be called {word}: only wagers that "
                          "are inactive on the come out roll unless called on may be",
                          self.config.rules.clause("off_on_come_out_clause"))
        return [CalledOn(player, wager.key, on)]

    def check_down_on_win(self, player: str, wager_id: str, qualifier: Qualifier,
                          ) -> list[Event]:
        """A call "down on the win": the wager's next win takes it down with its win, no new
        commission collected. Refused (citing the reading) where the table option is off."""
        cfg = self.config
        clause = cite(cfg.profile_id, "down_on_win")
        d = WAGERS[wager_id]
        if not cfg.down_on_win:
            raise Refusal(f'this table takes no "down on the win" call (table option '
                          f"down_on_win): a winning {d.name} stays up, only its winnings paid, "
                          "until it loses or is taken down", clause)
        if not d.down_on_win:
            raise Refusal(f'a {d.name} cannot be called "down on the win": only '
                          f"{_callable(lambda w: w.down_on_win)} may be", clause)
        wager = self.find(player, wager_id, qualifier, clause)
        if wager.down_on_win:
            raise Refusal(f"{player}'s {d.name} ({wager.key}) is already called down on its "
                          "win", clause)
        return [CalledDownOnWin(player, wager.key)]

    def check_off_during_point(self, player: str, wager_id: str, qualifier: Qualifier,
                               ) -> list[Event]:
        """A call "off" while a point is established that takes effect at once: the wager
        does not work until it is called on again or the point is decided. Refused (citing
        the reading) where the table option is off."""
        cfg = self.config
        clause = cite(cfg.profile_id, "off_during_point")
        d = WAGERS[wager_id]
        if not cfg.off_during_point:
            raise Refusal("this table takes no call \"off\" for the rest of a point (table "
                          "option off_during_point): a wager called off while a point is "
                          "established keeps working until the point is decided", clause)
        if not d.off_during_point:
            raise Refusal(f'a {d.name} cannot be called "off" during a point: only '
                          f"{_callable(lambda w: w.off_during_point)} may be", clause)
        if self.point is None:
            raise Refusal('no point is established: on a come out roll a wager is called '
                          '"off" for the come out roll ("off")', clause)
        wager = self.find(player, wager_id, qualifier, clause)
        if wager.off_for_point:
            raise Refusal(f"{player}'s {d.name} ({wager.key}) is already off until it is "
                          "called on or the point is decided", clause)
        return [CalledOffDuringPoint(player, wager.key, True)]

    def check_seat(self, player: str, seated: bool) -> list[Event]:
        rules = self.config.rules
        if not self.config.seated:
            raise Refusal(f"seating applies at {', '.join(sorted(rules.seated_games))} only",
                          rules.clause("seating_clause"))
        ps = self.players[player]
        if seated and ps.seated:
            raise Refusal(f"{player} is already seated", rules.clause("seating_clause"))
        if not seated:
            if not ps.seated:
                raise Refusal(f"{player} is not seated", rules.clause("seating_clause"))
            if self.on_table(player) > 0:
                raise Refusal(f"{player} has a wager down and must remain seated until the "
                              "completion of the round of play", rules.clause("seating_clause"))
        return [Seated(player, seated)]

    def check_pass_dice(self, to: str) -> list[Event]:
        if not self.config.variant.shooter:
            raise Refusal(f"there is no shooter at {self.config.game}: a device throws the dice",
                          cite(self.config.profile_id, "pass_dice"))
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

    def _settle_parts(self, wager: Wager, d: WagerDef, d1: int, d2: int) -> list[Settled]:
        """A wager of several parts (the whirl) settled part by part, each its share of the
        stake."""
        assert d.parts is not None
        parts = d.parts(wager.qualifier)
        one = wager.stake / sum(p.units for p in parts)
        events = []
        for part in parts:
            pd = WAGERS[part.wager]
            outcome = pd.decide(part.qualifier, None, d1, d2)
            events.append(self._settle(wager, outcome, part_def=pd, part_stake=one * part.units))
        return events

    def check_roll(self, d1: int, d2: int) -> list[Event]:
        total = d1 + d2
        point = self.point
        events: list[Event] = [Rolled((d1, d2), total, point, point_after(point, total), d1 == d2,
                                      point is None)]
        losers: list[Event] = []
        winners: list[Event] = []
        moves: list[Event] = []
        decided: set[tuple[str, str]] = set()
        off_odds: list[Wager] = []
        off_rule = point is None
        off_ids = self._off_on_come_out
        for (player, key), wager in self.wagers.items():
            d = WAGERS[wager.wager_id]
            if off_rule and wager.wager_id in off_ids and not wager.called_on:
                if d.odds_of is not None:
                    off_odds.append(wager)
                continue
            if wager.off_for_point and not off_rule:
                continue  # called off for the rest of this point
            if d.parts is not None:
                for event in self._settle_parts(wager, d, d1, d2):
                    (winners if event.result == "win" else losers).append(event)
                continue
            outcome = d.decide(wager.qualifier, wager.state, d1, d2)
            if outcome is None:
                continue
            if isinstance(outcome, Move):
                to = d.key(wager.qualifier, outcome.state)
                moves.append(Moved(player, key, to, outcome.state))
                continue
            decided.add((player, key))
            event = self._settle(wager, outcome)
            (winners if event.result == "win" else losers).append(event)
        returns = _returned_odds(off_odds, decided)
        events.extend(losers + winners + returns + moves)
        if point is not None and total == 7 and self.config.variant.shooter:
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
            name, stake, part_of, stays_up = part_def.id, part_stake, wager.key, False
        else:
            name, stake, part_of, stays_up = wager.key, wager.stake, None, d.stays_up
        if isinstance(outcome, Lose):
            return Settled(wager.player, name, stake, "lose", taken=stake, part_of=part_of)
        assert isinstance(outcome, Win)
        # A wager is paid at the odds it was accepted at, whatever the pay table is now.
        pays = (self.config.pays if self.earlier_release_pays and not wager.recorded_pays
                else wager.pays)
        odds = pays.get(outcome.key) or self.config.pays[outcome.key]
        try:
            paid = odds.pays(stake)
        except ArithmeticError:
            what = wager.key if part_def is None else f"{wager.key} ({name})"
            raise Unsettleable(wager.player, wager.key, f"the {what} of {fmt(stake)} won at "
                               f"{odds}: {describe(odds.winnings(stake))} is not an exact amount "
                               "of money") from None
        commission = ZERO
        if wager.down_on_win and part_def is None:
            stays_up = False  # called down on the win: it comes down with this win
        if d.commission is not None and (stays_up or self.config.commission_timing(
                wager.wager_id, wager.qualifier) is CommissionTiming.WIN):
            # Collected at placement, it is paid again out of the winnings to stay up (a
            # wager coming down with its win pays none again); collected on the win, it comes
            # out of the winnings.
            commission = self.config.commission(d.commission, wager.qualifier, stake, pays)
        return Settled(wager.player, name, stake, "win", paid=paid,
                       returned=ZERO if stays_up else stake, commission=commission,
                       odds=str(odds), stays_up=stays_up, part_of=part_of)


def point_after(point: int | None, total: int) -> int | None:
    """The point after a roll of ``total``: a point number sets it on the come-out; the point
    or a seven decides it.

    >>> point_after(None, 6), point_after(6, 7), point_after(6, 8)
    (6, None, 6)
    """
    if point is None:
        return total if total in POINTS else None
    return None if total in (point, 7) else point


def _returned_odds(off_odds: list[Wager], decided: set[tuple[str, str]]) -> list[Event]:
    """Odds off on the come-out go back to the player when their flat bet is decided."""
    returns: list[Event] = []
    for odds in off_odds:
        parent = parent_key(odds)
        if parent is not None and (odds.player, parent) in decided:
            returns.append(Settled(odds.player, odds.key, odds.stake, "returned",
                                   returned=odds.stake))
    return returns


def _callable(may: Any) -> str:
    """The names of the wagers a call may be made on, from their definitions."""
    names = [w.name for w in WAGERS.values() if may(w)]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


# How each craps event folds into the table (the events every game shares: ``_apply_shared``).
_FOLDS: dict[type[Event], Callable[[CrapsTable, Any], None]] = {
    TableOpened: CrapsTable._apply_opened,
    BetMade: CrapsTable._apply_bet_made,
    BetTakenDown: CrapsTable._apply_taken_down,
    CalledOn: CrapsTable._apply_called_on,
    CalledDownOnWin: CrapsTable._apply_down_on_win,
    CalledOffDuringPoint: CrapsTable._apply_off_during_point,
    Seated: CrapsTable._apply_seated,
    Rolled: CrapsTable._apply_rolled,
    Settled: CrapsTable._apply_settled,
    Moved: CrapsTable._apply_moved,
    ShooterChanged: CrapsTable._apply_shooter_changed,
    PayTableApplied: CrapsTable._apply_pay_table,
}
