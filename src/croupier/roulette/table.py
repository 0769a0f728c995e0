"""The roulette table: actions in, events out, state folded from the events.

Every action is checked completely before anything changes (``check_*`` returns the events or
raises :class:`~croupier.errors.Refusal`); the table then folds the events into its state
(:meth:`RouletteTable.apply`), so the event log alone rebuilds it
(:meth:`RouletteTable.from_events`). The table knows the wheels, the layout and the wagers;
clauses, pay table and permitted wagers come from the rule profile.

>>> from decimal import Decimal as D
>>> table = RouletteTable.open("nj-casino-night", TableConfig(), {"ann": D(100)})
>>> _ = table.act(PlaceBet("ann", "split", (0, "00"), D(5)))
>>> [e.kind for e in table.act(Spin("00"))]
['crown', 'settle']
>>> table.bankrolls["ann"]
Decimal('185')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from croupier.errors import Refusal
from croupier.events import BetMade, BetTakenDown, ChipsIn, Event, Left, Settled, chips_moved
from croupier.money import Odds, describe, fmt, is_multiple, is_payable, to_decimal
from croupier.roulette.events import (
    Crowned,
    FifthMoved,
    LayoutWithdrawn,
    NoSpin,
    TableOpened,
)
from croupier.roulette.felt import described
from croupier.roulette.layout import Cover
from croupier.roulette.wagers import WAGERS, Qualifier, RouletteWager, decide
from croupier.roulette.wheel import WHEELS, Pocket, colour, label, pocket_key
from croupier.rules import RouletteRules, load_profile


@dataclass(frozen=True)
class TableConfig:
    """Table options of the replay contract, already checked; ``pays`` holds the overrides."""

    wheel: str = "double-zero"
    zero_rule: str = "full"
    five_adjacent: bool = True
    seven_numbers: bool = True
    unit: Decimal = Decimal(1)
    min_bet: Decimal | None = None
    max_bet: Decimal | None = None
    pays: Mapping[str, Odds] = field(default_factory=dict)
    approved_layout: tuple[str, ...] | None = None


@dataclass(frozen=True)
class PlaceBet:
    player: str
    wager: str
    qualifier: Qualifier
    amount: Decimal


@dataclass(frozen=True)
class RemoveBet:
    player: str
    wager: str
    qualifier: Qualifier


@dataclass(frozen=True)
class Spin:
    """The ball comes to rest in ``number``; the flags describe an irregular spin (20.32(m))."""

    number: Pocket
    revolutions: int | None = None
    same_direction: bool = False
    foreign_object: bool = False


Action = PlaceBet | RemoveBet | Spin


def _pockets(numbers: tuple[int | str, ...] | None) -> tuple[Pocket, ...]:
    """The numbers of a wager made at this table (the shared event types them loosely)."""
    return cast(tuple[Pocket, ...], numbers or ())


@dataclass
class Placed:
    """A wager on the layout."""

    player: str
    wager_id: str
    key: str
    numbers: tuple[Pocket, ...]
    stake: Decimal


class RouletteTable:
    """One roulette table: the players' chips, the wagers on the layout, the last number."""

    def __init__(self, opened: TableOpened) -> None:
        profile = load_profile(opened.profile)
        if profile.roulette is None:
            raise ValueError(f"{opened.profile} has no roulette rules")
        self.profile = profile
        self.rules: RouletteRules = profile.roulette
        self.opened = opened
        self.wheel = WHEELS[opened.wheel]
        self.earlier_release_pays = False  # a roulette table's pays never change
        self.pays = {key: Odds.parse(text, key) for key, text in opened.pays}
        self.bankrolls: dict[str, Decimal] = dict(opened.players)
        self.wagers: dict[tuple[str, str], Placed] = {}
        self.last_number: Pocket | None = None
        # The wagers whose approved layout was withdrawn since the opening, each with why.
        self.withdrawn: dict[str, LayoutWithdrawn] = {}
        # What the house has won (collected less paid): bankrolls + stakes + house is constant.
        self.house = Decimal(0)
        self.log: list[Event] = [opened]
        # A long-running holder that persists events itself (the server) turns this off.
        self.keep_log = True

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def open(
        cls, profile_id: str, config: TableConfig, players: Mapping[str, Decimal]
    ) -> RouletteTable:
        """A new table: the profile's minimum pay table with ``config.pays`` over it."""
        rules = load_profile(profile_id).roulette
        if rules is None:
            raise ValueError(f"{profile_id} has no roulette rules")
        pays = {**rules.pays, **config.pays}
        return cls(
            TableOpened(
                profile=profile_id,
                wheel=config.wheel,
                zero_rule=config.zero_rule,
                five_adjacent=config.five_adjacent,
                seven_numbers=config.seven_numbers,
                unit=config.unit,
                min_bet=config.min_bet if config.min_bet is not None else config.unit,
                max_bet=config.max_bet,
                pays=tuple((key, str(odds)) for key, odds in pays.items()),
                players=tuple(players.items()),
                approved_layout=config.approved_layout,
            )
        )

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> RouletteTable:
        """Rebuild a table from its event log (the first event opens it)."""
        it = iter(events)
        opened = next(it)
        if not isinstance(opened, TableOpened):
            raise ValueError("an event log starts with the table opening")
        table = cls(opened)
        for event in it:
            table.apply(event)
        return table

    # -- state ----------------------------------------------------------------------------

    def on_table(self, player: str) -> Decimal:
        return sum((w.stake for w in self.wagers.values() if w.player == player), Decimal(0))

    def purses(self, players: Iterable[str]) -> dict[str, tuple[Decimal, Decimal]]:
        """Chips in hand and on the layout of each of ``players`` at the table."""
        found = {p: [self.bankrolls[p], Decimal(0)] for p in players if p in self.bankrolls}
        for w in self.wagers.values():
            if w.player in found:
                found[w.player][1] += w.stake
        return {p: (chips, on_table) for p, (chips, on_table) in found.items()}

    def snapshot(self) -> dict[str, Any]:
        """Everything the table knows, for comparing two tables."""
        return {
            "bankrolls": dict(self.bankrolls),
            "wagers": {k: (w.wager_id, w.numbers, w.stake) for k, w in self.wagers.items()},
            "last_number": self.last_number,
            "house": self.house,
        }

    def apply(self, event: Event) -> None:
        """Fold one event into the state (the only place state changes)."""
        if isinstance(event, BetMade):
            self.bankrolls[event.player] -= event.amount
            slot = (event.player, event.wager)
            if slot in self.wagers:
                self.wagers[slot].stake += event.amount
            else:
                self.wagers[slot] = Placed(
                    event.player, event.wager_id, event.wager, _pockets(event.numbers),
                    event.amount
                )
        elif isinstance(event, BetTakenDown):
            # Roulette takes a wager down whole (the contract's remove), before the spin.
            del self.wagers[(event.player, event.wager)]
            self.bankrolls[event.player] += event.amount
        elif isinstance(event, Crowned):
            self.last_number = event.number
        elif isinstance(event, Settled):
            slot = (event.player, event.part_of or event.wager)
            placed = self.wagers[slot]
            placed.stake -= event.stake
            if placed.stake == 0:
                del self.wagers[slot]
            self.bankrolls[event.player] += event.returned + event.paid - event.commission
            self.house += event.taken + event.commission - event.paid
        elif isinstance(event, LayoutWithdrawn):
            self.withdrawn.update(dict.fromkeys(event.wagers, event))
        elif isinstance(event, (NoSpin, FifthMoved)):
            pass  # nothing changes hands: the wagers stay, or a fifth moves within a wager
        else:
            self._apply_shared(event)
        if self.keep_log:
            self.log.append(event)

    def _apply_shared(self, event: Event) -> None:
        """The events every game shares: chips in and out, joining and leaving, adjustments."""
        if isinstance(event, ChipsIn) and event.player not in self.bankrolls:
            self.bankrolls[event.player] = Decimal(0)
        moved = chips_moved(event)
        if moved is not None:
            player, to_player, to_house = moved
            self.bankrolls[player] += to_player
            self.house += to_house
        elif isinstance(event, Left):
            del self.bankrolls[event.player]
        else:
            raise TypeError(f"not a roulette event: {event!r}")

    def check(self, action: Action) -> list[Event]:
        """The events ``action`` would bring, or the :class:`Refusal`; nothing changes."""
        if isinstance(action, PlaceBet):
            return self.check_bet(action)
        if isinstance(action, RemoveBet):
            return self.check_remove(action)
        return self.check_spin(action)

    def act(self, action: Action) -> list[Event]:
        """Check an action, then fold its events in; a refusal changes nothing."""
        events = self.check(action)
        for event in events:
            self.apply(event)
        return events

    # -- the Table interface (croupier.table) ----------------------------------------------

    def seats(self) -> list[str]:
        """The players at the table, in the order they came."""
        return list(self.bankrolls)

    def chips(self, player: str) -> Decimal:
        return self.bankrolls.get(player, Decimal(0))

    def layout(self) -> list[tuple[str, str, Decimal]]:
        """Every wager on the layout: (player, wager key, stake)."""
        return [(w.player, w.key, w.stake) for w in self.wagers.values()]

    def seated(self) -> list[str]:
        return []  # roulette has no seating rule

    def has_seating(self) -> bool:
        return False

    def live_state(self) -> dict[str, Any]:
        return {**self.state_json(), "wheel": self.wheel.id}

    def draw_ranges(self) -> tuple[int, ...]:
        return (len(self.wheel.order),)

    def outcome_from(self, indices: tuple[int, ...]) -> tuple[Any, ...]:
        """The pocket at a draw's index, in the wheel's order."""
        return (self.wheel.order[indices[0]],)

    def outcome_of(self, event: Event) -> tuple[Any, ...] | None:
        """The pocket the ball came to rest in (also in a void pocket: "no spin" for the
        wagers, but an outcome of the wheel); None for a spin with no number."""
        if isinstance(event, Crowned):
            return (event.number,)
        if isinstance(event, NoSpin) and event.number is not None:
            return (event.number,)
        return None

    def unpayable(self) -> list[tuple[str, str, str]]:
        return []  # a roulette table's pay table never changes while it is open

    def state_json(self) -> dict[str, Any]:
        """Where the game stands, as the replay result shows it."""
        return {"last_number": self.last_number}

    def opening_json(self) -> dict[str, Any]:
        """The opening as the replay result lists it (roulette's carries no ``action``)."""
        return self.opened.to_json()

    def event_json(self, event: Event) -> dict[str, Any]:
        """An event as the replay result lists it: a wager taken back is ``remove`` with what
        was ``returned``, as roulette's own event said before the shared take-down."""
        if isinstance(event, BetTakenDown):
            return {"type": "remove", "player": event.player, "wager": event.wager,
                    "returned": fmt(event.amount)}
        return event.to_json()

    def offer(self) -> dict[str, Any]:
        """What this table offers: wagers (with the clause permitting each), the pay table in
        force, the clauses, limits, the zero rule, the wheel, and what the page draws the
        felt from (:func:`croupier.roulette.felt.described`)."""
        opened, wheel = self.opened, self.wheel
        wagers = dict(self.rules.wagers)
        for wager in WAGERS.values():
            if wager.offered_by is not None and not getattr(opened, wager.offered_by):
                wagers.pop(wager.id, None)
            if self._layout_lacks(wager.id):
                wagers.pop(wager.id, None)
        if "00" not in wheel.in_play:
            wagers.pop("first_five", None)
        return {
            "game": "roulette", "profile": self.profile.id, "title": self.profile.title,
            "wagers": wagers, "pays": {k: str(v) for k, v in self.pays.items()},
            "clauses": dict(self.rules.clauses), "unit": str(opened.unit),
            "min_bet": str(opened.min_bet),
            "max_bet": None if opened.max_bet is None else str(opened.max_bet),
            "zero_rule": opened.zero_rule,
            "wheel": {"id": wheel.id, "name": wheel.name, "layout": wheel.layout_id,
                      "order": list(wheel.order),
                      "in_play": sorted(wheel.in_play, key=_wheel_order)},
            **described(wheel, wagers, self.rules.wagers, self.pays,
                        self.rules.approved_layout_clauses),
        }

    # -- checks ---------------------------------------------------------------------------

    def _clause(self, name: str) -> str:
        return self.rules.clause(name)

    def _layout_lacks(self, wager_id: str) -> bool:
        """Whether ``wager_id`` needs an approved layout (the profile says so) that this table's
        approved layout does not provide for (a layout not stated is the contract's: it does)."""
        approved = self.opened.approved_layout
        return wager_id in self.withdrawn or (
            approved is not None and wager_id in self.rules.approved_layout_clauses
            and wager_id not in approved)

    def _wager(self, wager_id: str) -> RouletteWager:
        return WAGERS[wager_id]

    def check_bet(self, action: PlaceBet) -> list[Event]:
        """The events of placing ``action``, or the :class:`Refusal` saying why it is refused."""
        if action.player not in self.bankrolls:
            raise KeyError(action.player)
        wager = self._wager(action.wager)
        covered = self._cover(wager, action.qualifier)
        key = wager.key(action.qualifier)
        placed = self.wagers.get((action.player, key))
        total = action.amount + (placed.stake if placed else Decimal(0))
        self._check_stake(wager, action.amount, total)
        bankroll = self.bankrolls[action.player]
        if action.amount > bankroll:
            raise Refusal(
                f"{action.player} has {fmt(bankroll)} in chips and cannot wager "
                f"{fmt(action.amount)}: wagers are made with chips, not on credit",
                self._clause("placement_clause"),
            )
        # Five adjacent numbers keep the wheel's order (events show the neighbours in place).
        if wager.qualifier == "center" and isinstance(action.qualifier, (int, str)):
            numbers = self.wheel.neighbours(action.qualifier)
        else:
            numbers = tuple(sorted(covered, key=pocket_key))
        return [BetMade(action.player, key, wager.id, action.amount, numbers=numbers,
                        stake=total)]

    def _cover(self, wager: RouletteWager, qualifier: Qualifier) -> Cover:
        """The numbers the wager covers, or the refusal: permitted, offered, in play, formed."""
        wager_clause = self.rules.wagers.get(wager.id, "")
        if not self.rules.permits(wager.id):
            raise Refusal(
                f"{wager.name} is not a wager {self.profile.id} ({self.profile.title}) permits",
                self._clause("permitted_clause"),
            )
        if wager.offered_by is not None and not getattr(self.opened, wager.offered_by):
            raise Refusal(f"{wager.name} is not offered at this table", wager_clause)
        gone = self.withdrawn.get(wager.id)
        if gone is not None:
            raise Refusal(f"{wager.name} is taken only on a layout approved for it, and the "
                          f"layout that offered it here ({gone.item}) was taken out of "
                          f"service: {gone.reason}",
                          self.rules.approved_layout_clauses.get(wager.id, gone.clause))
        if self._layout_lacks(wager.id):
            raise Refusal(f"{wager.name} is taken only on a layout approved for it, and this "
                          "table's approved layout does not provide for it",
                          self.rules.approved_layout_clauses[wager.id])
        named: set[Pocket] = set()
        if isinstance(qualifier, tuple):
            named.update(qualifier)
        elif wager.qualifier == "center" and qualifier is not None:
            named.add(qualifier)
        self._check_in_play(named, wager)
        covered = wager.covers(qualifier, self.wheel)
        if covered is None:
            layout = self.wheel.layout_id.replace("-", " ")
            if isinstance(qualifier, tuple):
                what = f"the numbers {', '.join(str(n) for n in qualifier)} do not form"
                raise Refusal(f"{what} a {wager.name} wager on the {layout} layout", wager_clause)
            raise Refusal(f"there is no {wager.name} wager on the {layout} layout", wager_clause)
        self._check_in_play(covered, wager)
        return covered

    def _check_in_play(self, numbers: Iterable[Pocket], wager: RouletteWager) -> None:
        out = sorted(set(numbers) - self.wheel.in_play, key=pocket_key)
        if not out:
            return
        clause = self.rules.void_clauses.get(self.wheel.id, "")
        shown = label(tuple(out))
        if set(out) <= self.wheel.pockets:
            reason = (
                f"a {wager.name} wager covering {shown} is not taken on a {self.wheel.name}"
            )
        else:
            reason = f"there is no {shown} on a {self.wheel.name}"
        raise Refusal(reason, str(clause))

    def _check_stake(self, wager: RouletteWager, amount: Decimal, total: Decimal) -> None:
        unit = self.opened.unit
        wager_clause = self.rules.wagers.get(wager.id, "")
        if not is_multiple(amount, unit):
            raise Refusal(
                f"a stake of {fmt(amount)} is not a whole number of table units of {fmt(unit)}",
                self._clause("payable_clause"),
            )
        if not is_multiple(amount, unit * wager.parts):
            raise Refusal(
                f"a {wager.name} wager is {wager.parts} chips or a multiple thereof: "
                f"{fmt(amount)} is not a multiple of {fmt(unit * wager.parts)}",
                wager_clause,
            )
        part = total / wager.parts
        odds = self.pays[wager.pay_key]
        winnings = odds.winnings(part)
        if not is_payable(winnings, unit):
            raise Refusal(
                f"a {wager.name} wager of {fmt(total)} would win {describe(winnings)} at {odds}, "
                f"which cannot be paid in the table unit of {fmt(unit)}",
                self._clause("payable_clause"),
            )
        if wager.even_money and self.opened.zero_rule == "half" and not is_multiple(
            total / 2, unit
        ):
            raise Refusal(
                f"half of a {wager.name} wager of {fmt(total)} is lost on 0 or 00 and half "
                f"returned; {fmt(total / 2)} cannot be paid in the table unit of {fmt(unit)}",
                self._zero_rule_clause(),
            )
        if total < self.opened.min_bet:
            raise Refusal(
                f"a wager of {fmt(total)} is below the table minimum of "
                f"{fmt(self.opened.min_bet)}",
                self._clause("placement_clause"),
            )
        if self.opened.max_bet is not None and total > self.opened.max_bet:
            raise Refusal(
                f"a wager of {fmt(total)} is above the table maximum of "
                f"{fmt(self.opened.max_bet)}",
                self._clause("placement_clause"),
            )

    def _zero_rule_clause(self) -> str:
        return self.rules.zero_rule_clauses.get(self.wheel.id, "")

    def check_remove(self, action: RemoveBet) -> list[Event]:
        """Taking a whole wager back before the spin."""
        if action.player not in self.bankrolls:
            raise KeyError(action.player)
        key = self._wager(action.wager).key(action.qualifier)
        placed = self.wagers.get((action.player, key))
        if placed is None:
            raise Refusal(
                f"{action.player} has no {key} wager on the layout to take down",
                self._clause("placement_clause"),
            )
        return [BetTakenDown(action.player, key, placed.stake, whole=True)]

    def check_spin(self, spin: Spin) -> list[Event]:
        """A spin: "no spin" when irregular, else the crown, moves, losers, then winners."""
        if spin.number not in self.wheel.pockets:
            raise ValueError(f"there is no {spin.number} on a {self.wheel.name}")
        minimum = self.rules.minimum_revolutions
        if spin.same_direction:
            return [NoSpin("the ball was spun in the same direction as the wheel",
                           self._clause("same_direction_clause"))]
        if spin.revolutions is not None and spin.revolutions < minimum:
            return [NoSpin(f"the ball did not complete {minimum} revolutions around the track",
                           self._clause("revolutions_clause"))]
        if spin.foreign_object:
            return [NoSpin("a foreign object entered the wheel",
                           self._clause("foreign_object_clause"))]
        if spin.number in self.wheel.void:
            return [NoSpin(
                f"the ball came to rest in {spin.number} on a {self.wheel.name}; "
                "the spin is void and the wheel is spun again",
                self.rules.void_clauses.get(self.wheel.id, ""),
                spin.number,
            )]
        return self._settle(spin.number)

    def _settle(self, number: Pocket) -> list[Event]:
        settle_clause = self._clause("settlement_clause")
        crown: list[Event] = [Crowned(number, colour(number), self._clause("spin_clause"))]
        moves: list[Event] = []
        losers: list[Event] = []
        winners: list[Event] = []
        for placed in self.wagers.values():
            wager = self._wager(placed.wager_id)
            # A wager of several parts is settled as that many straights, one per number.
            if wager.parts > 1:
                part_stake = placed.stake / wager.parts
                parts = [(f"straight:{n}", frozenset({n}), part_stake) for n in placed.numbers]
                part_of: str | None = placed.key
            else:
                parts = [(placed.key, frozenset(placed.numbers), placed.stake)]
                part_of = None
            for key, covered, stake in parts:
                decision = decide(wager, covered, number, self.opened.zero_rule)
                if decision.outcome == "win":
                    assert decision.pay_key is not None
                    odds = self.pays[decision.pay_key]
                    paid = to_decimal(odds.winnings(stake))
                    if part_of is not None:
                        moves.append(FifthMoved(placed.player, placed.key, stake, key,
                                                self._clause("five_adjacent_clause")))
                    winners.append(Settled(placed.player, key, stake, "win", paid=paid,
                                           returned=stake, odds=str(odds), part_of=part_of,
                                           clause=settle_clause))
                elif decision.outcome == "lose_half":
                    half = stake / 2
                    losers.append(Settled(placed.player, key, stake, "lose_half", taken=half,
                                          returned=stake - half, part_of=part_of,
                                          clause=self._zero_rule_clause()))
                else:
                    losers.append(Settled(placed.player, key, stake, "lose", taken=stake,
                                          part_of=part_of, clause=settle_clause))
        # 20.32(j)3, (k), (l): crown, then the five adjacent fifth moved, then losers
        # collected, then winners paid.
        return crown + moves + losers + winners


def _wheel_order(pocket: Pocket) -> int:
    """00 first, then 0 to 36 (the order the browser table lists the pockets in play)."""
    return -1 if pocket == "00" else int(pocket)
