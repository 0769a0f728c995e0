"""The same strategies played on the game's own tables (the engines), one action at a time.

:func:`play_on_tables` seats the players at a :class:`~croupier.craps.table.CrapsTable` (or a
:class:`~croupier.roulette.table.RouletteTable`), applies each strategy's rules through the
table's own actions (``bet``, ``take_down``, ``roll``; ``act``), and records every player's
chips in hand after every roll. Fed the same outcomes it must give exactly the kernel's
histories: the proof that the kernel plays the engine's game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, cast

from croupier.craps.events import Settled as CrapsSettled
from croupier.craps.events import ShooterChanged
from croupier.craps.table import CrapsTable
from croupier.craps.wagers import WAGERS, Removal, Timing, WagerDef
from croupier.dice import POINTS
from croupier.events import Settled
from croupier.roulette.table import PlaceBet, RouletteTable, Spin
from croupier.roulette.wagers import WAGERS as ROULETTE_WAGERS
from croupier.rules import CommissionTiming
from croupier.sim.compile import (
    ACTIVE,
    RUINED,
    STOP_LOSS,
    WIN_GOAL,
    Compiled,
    _odds_ratio,
    _qualifier,
    is_line_bet,
    odds_on_the_point,
    roulette_qualifier,
)
from croupier.sim.strategy import Bet, Strategy


@dataclass
class _Player:
    name: str
    strategy: Strategy
    start: Decimal
    levels: dict[str, int] = field(default_factory=dict)
    status: int = ACTIVE
    handstart: Decimal = Decimal(0)
    wagered: Decimal = Decimal(0)

    def level(self, bet: Bet) -> int:
        """The progression level the bet rule is at."""
        return self.levels.get(bet.progression, 0) if bet.progression else 0

    def amount(self, bet: Bet) -> Decimal:
        """The rule's amount at its current level."""
        lev = self.level(bet)
        return bet.amounts[min(lev, len(bet.amounts) - 1)]


@dataclass
class TableRun:
    """What the tables played: per-player histories, final amounts, stakes decided, statuses,
    rolls."""
    history: list[list[Decimal]]  # per player: chips in hand after every roll played
    final: list[Decimal]  # chips in hand plus wagers on the layout
    wagered: list[Decimal]
    status: list[int]
    rolls: int


def play_on_tables(compiled: Compiled, outcomes: Sequence[int], bankroll: Decimal,
                   ) -> TableRun:
    """Play ``outcomes`` (kernel outcome indexes) on the game's own table."""
    return seat(compiled, bankroll).run(outcomes)


def seat(compiled: Compiled, bankroll: Decimal) -> _Craps | _Roulette:
    """The compiled table's players (``p0``, ``p1``, ...) seated at the game's own table
    (dice or wheel) with ``bankroll`` each, ready to :meth:`run` outcomes."""
    names = [f"p{i}" for i in range(compiled.players)]
    players = [_Player(n, s, bankroll, handstart=bankroll)
               for n, s in zip(names, compiled.strategies, strict=True)]
    table = _Craps if compiled.craps_config is not None else _Roulette
    return table(compiled, players, bankroll)


class _Craps:
    def __init__(self, compiled: Compiled, players: list[_Player], bankroll: Decimal) -> None:
        assert compiled.craps_config is not None
        self.config = compiled.craps_config
        self.table = CrapsTable(self.config, {p.name: bankroll for p in players})
        self.players = players
        self.faces = compiled.outcome_faces
        self.short = False

    def bank(self, p: _Player) -> Decimal:
        """The player's chips in hand."""
        return self.table.players[p.name].bankroll

    def run(self, outcomes: Sequence[int]) -> TableRun:
        """Play the outcomes, each player deciding before every roll (spin)."""
        history: list[list[Decimal]] = [[] for _ in self.players]
        rolls = 0
        for o in outcomes:
            for p in self.players:
                self.decide(p)
            if all(p.status != ACTIVE and self.table.on_table(p.name) == 0 for p in self.players):
                break
            d1, d2 = cast(tuple[int, int], self.faces[o])
            events = self.table.roll(d1, d2)
            rolls += 1
            seven_out = any(isinstance(e, ShooterChanged) and e.reason == "seven-out"
                            for e in events)
            for p in self.players:
                self.progress(p, [e for e in events
                                  if isinstance(e, CrapsSettled) and e.player == p.name],
                              seven_out)
                if seven_out:
                    p.handstart = self.bank(p) + self.table.on_table(p.name)
            for i, p in enumerate(self.players):
                history[i].append(self.bank(p))
        return TableRun(history, [self.bank(p) + self.table.on_table(p.name)
                                      for p in self.players],
                            [p.wagered for p in self.players], [p.status for p in self.players],
                            rolls)

    def progress(self, p: _Player, settled: list[CrapsSettled], seven_out: bool) -> None:
        """Move the player's progressions after a roll's settlements."""
        labels = self.counted_labels(p)
        wins: set[str] = set()
        losses: set[str] = set()
        for e in settled:
            if e.result in ("win", "lose"):
                p.wagered += e.stake
            prog = labels.get(e.part_of or e.wager)
            if prog is None:
                continue
            if e.result == "win":
                wins.add(prog)
            elif e.result == "lose":
                losses.add(prog)
        for pdef in p.strategy.progressions:
            lev = p.levels.get(pdef.name, 0)
            if pdef.name in wins:
                lev = pdef.on_win[lev]
            elif pdef.name in losses:
                lev = pdef.on_lose[lev]
            if seven_out and pdef.seven_out_reset:
                lev = 0
            p.levels[pdef.name] = lev

    def counted_labels(self, p: _Player) -> dict[str, str]:
        """Wager labels whose wins and losses move a progression, with its name."""
        out: dict[str, str] = {}
        for bet in p.strategy.bets:
            if bet.progression is None or bet.kind == "odds":
                continue
            d = WAGERS[bet.wager]
            if bet.kind == "come":
                out[d.id] = bet.progression
                for n in POINTS:
                    out[f"{d.id}:{n}"] = bet.progression
            else:
                out[d.label(_qualifier(bet, d, bet.wager), None)] = bet.progression
        return out

    def removable(self, wager: Any) -> bool:
        """Whether the strategy may take ``wager`` down now."""
        d = wager.definition
        if d.removal is Removal.ANY_TIME:
            return True
        return d.removal is Removal.UNTIL_POINT and wager.state is None

    def mine(self, p: _Player) -> list[Any]:
        """The player's wagers on the layout."""
        return [w for (name, _), w in self.table.wagers.items() if name == p.name]

    def decide(self, p: _Player) -> None:
        """Apply the player's limits and rules before a roll (spin)."""
        if p.status != ACTIVE:
            return
        s = p.strategy
        bank = self.bank(p)
        down = self.table.on_table(p.name)
        worth = bank + down
        status = ACTIVE
        if s.stop_loss and worth <= p.start - s.stop_loss:
            status = STOP_LOSS
        elif s.win_goal and worth >= p.start + s.win_goal:
            status = WIN_GOAL
        if status != ACTIVE:
            p.status = status
            for w in list(self.mine(p)):
                if self.removable(w):
                    self.table.take_down(p.name, w.wager_id, w.qualifier if not
                                         w.definition.travels else w.state)
            return
        if s.shooter_loss_limit and worth <= p.handstart - s.shooter_loss_limit:
            return
        self.short = False
        for bet in s.bets:
            self.apply(p, bet)
        if self.short and self.table.on_table(p.name) == 0:
            p.status = RUINED

    def try_bet(self, p: _Player, wager_id: str, q: Any, amount: Decimal, total: Decimal,
                paid: Decimal) -> None:
        """Make the bet if the chips (and any commission due now) are there; else note the shortfall."""
        d = WAGERS[wager_id]
        commission = Decimal(0)
        if (d.commission is not None
                and self.config.commission_timing(d.id, q) is CommissionTiming.PLACEMENT):
            commission = max(Decimal(0), self.table.commission_on(d, q, total) - paid)
        if amount + commission > self.bank(p):
            self.short = True
            return
        self.table.bet(p.name, wager_id, q, amount)

    def apply(self, p: _Player, bet: Bet) -> None:
        """Apply one bet rule through the table's own actions."""
        point = self.table.point
        cond = (bet.when == "always" or (bet.when == "point_on" and point is not None)
                or (bet.when == "point_off" and point is None))
        if bet.kind == "fixed":
            self.apply_fixed(p, bet, cond)
        elif bet.kind == "come":
            if cond and point is not None:
                self.apply_come(p, bet)
        else:
            self.apply_odds(p, bet)

    def fixed_target(self, p: _Player, bet: Bet, q: Any, cond: bool) -> Decimal | None:
        """The stake a fixed rule wants on its wager now (None: the rule does nothing)."""
        if not cond:
            return Decimal(0) if bet.down_when_idle else None
        target = p.amount(bet)
        if bet.skip_point and self.table.point == q:
            return Decimal(0)
        if bet.skip_covered:
            pw = self.table.wagers.get((p.name, "pass"))
            if (pw is not None and pw.state == q) or (p.name, f"come:{q}") in self.table.wagers:
                return Decimal(0)
        return target

    def may_add(self, p: _Player, bet: Bet, d: WagerDef, new: bool) -> bool:
        """Whether the rule may add to (``new``: make) its wager: its limits on how many of
        the wager and of line bets are down, and the wager's own timing."""
        table = self.table
        mine = self.mine(p)
        if new and bet.max_same and sum(1 for x in mine if x.wager_id == d.id) >= bet.max_same:
            return False
        if new and bet.max_line and sum(
                1 for x in mine if is_line_bet(WAGERS[x.wager_id])) >= bet.max_line:
            return False
        if d.timing is Timing.COME_OUT and table.point is not None:
            return False
        if d.timing is Timing.POINT_ON and table.point is None:
            return False
        return not (d.timing is Timing.NEW_SHOOTER and table.hand_rolls > 0)

    def apply_fixed(self, p: _Player, bet: Bet, cond: bool) -> None:
        """Bring a fixed rule's wager to its target: add, or take down what may come down."""
        d = WAGERS[bet.wager]
        q = _qualifier(bet, d, bet.wager)
        w = self.table.wagers.get((p.name, d.label(q, None)))
        cur = w.stake if w is not None else Decimal(0)
        target = self.fixed_target(p, bet, q, cond)
        if target is None:
            return
        if target > cur:
            if self.may_add(p, bet, d, cur == 0):
                self.try_bet(p, d.id, q, target - cur, target,
                             w.commission_paid if w is not None else Decimal(0))
        elif target < cur and w is not None and self.removable(w):
            self.table.take_down(p.name, d.id, q, cur - target)

    def apply_come(self, p: _Player, bet: Bet) -> None:
        """Make a come bet while fewer than the rule's count stand on numbers."""
        table = self.table
        d = WAGERS[bet.wager]
        if (p.name, d.id) in table.wagers:
            return
        mine = self.mine(p)
        if sum(1 for x in mine if x.wager_id == d.id and x.state is not None) >= bet.count:
            return
        if bet.max_line and sum(1 for x in mine
                                if is_line_bet(WAGERS[x.wager_id])) >= bet.max_line:
            return
        amount = p.amount(bet)
        if amount == 0:
            return
        if amount > self.bank(p):
            self.short = True
            return
        table.bet(p.name, d.id, None, amount)

    def apply_odds(self, p: _Player, bet: Bet) -> None:
        """Odds behind every flat bet on a number, at the rule's multiple."""
        table = self.table
        d = WAGERS[bet.wager]
        base = d.odds_of or ""
        flats = [base] if odds_on_the_point(d) else [f"{base}:{n}" for n in POINTS]
        for flat_label in flats:
            flat = table.wagers.get((p.name, flat_label))
            if flat is None or flat.state is None:
                continue
            number = flat.state
            assert isinstance(number, int)
            target_f = Fraction(flat.stake) * _odds_ratio(bet, number, self.config, d)
            target = Decimal(target_f.numerator) / target_f.denominator
            q = None if odds_on_the_point(d) else number
            ow = table.wagers.get((p.name, d.id if q is None else f"{d.id}:{number}"))
            cur = ow.stake if ow is not None else Decimal(0)
            if target > cur:
                if target - cur <= self.bank(p):
                    table.bet(p.name, d.id, q, target - cur)
                else:
                    self.short = True
            elif target < cur:
                table.take_down(p.name, d.id, q, cur - target)


def _settle_progressions(p: _Player, events: Sequence[Any]) -> None:
    """Count player ``p``'s settled stakes as wagered and move each progression: up by a win of
    a wager it counts, else by a loss."""
    wins: set[str] = set()
    losses: set[str] = set()
    labels = {ROULETTE_WAGERS[b.wager].key(roulette_qualifier(b)): b.progression
              for b in p.strategy.bets if b.progression}
    for e in events:
        if not isinstance(e, Settled) or e.player != p.name:
            continue
        p.wagered += e.stake
        prog = labels.get(e.part_of or e.wager)
        if prog is not None:
            (wins if e.result == "win" else losses).add(prog)
    for prog_def in p.strategy.progressions:
        lev = p.levels.get(prog_def.name, 0)
        if prog_def.name in wins:
            lev = prog_def.on_win[lev]
        elif prog_def.name in losses:
            lev = prog_def.on_lose[lev]
        p.levels[prog_def.name] = lev


class _Roulette:
    def __init__(self, compiled: Compiled, players: list[_Player], bankroll: Decimal) -> None:
        assert compiled.roulette_config is not None
        self.table = RouletteTable.open(compiled.profile, compiled.roulette_config,
                                        {p.name: bankroll for p in players})
        self.players = players
        self.faces = compiled.outcome_faces

    def run(self, outcomes: Sequence[int]) -> TableRun:
        """Play the outcomes, each player deciding before every roll (spin)."""
        history: list[list[Decimal]] = [[] for _ in self.players]
        rolls = 0
        for o in outcomes:
            for p in self.players:
                self.decide(p)
            if all(p.status != ACTIVE and self.table.on_table(p.name) == 0 for p in self.players):
                break
            events = self.table.act(Spin(self.faces[o]))  # type: ignore[arg-type]
            rolls += 1
            for p in self.players:
                _settle_progressions(p, events)
            for i, p in enumerate(self.players):
                history[i].append(self.table.bankrolls[p.name])
        return TableRun(history, [self.table.bankrolls[p.name] + self.table.on_table(p.name)
                                      for p in self.players],
                            [p.wagered for p in self.players], [p.status for p in self.players],
                            rolls)

    def decide(self, p: _Player) -> None:
        """Apply the player's limits and rules before a roll (spin)."""
        if p.status != ACTIVE:
            return
        s = p.strategy
        bank = self.table.bankrolls[p.name]
        worth = bank + self.table.on_table(p.name)
        if s.stop_loss and worth <= p.start - s.stop_loss:
            p.status = STOP_LOSS
        elif s.win_goal and worth >= p.start + s.win_goal:
            p.status = WIN_GOAL
        if p.status != ACTIVE:
            return
        short = False
        for bet in s.bets:
            q = roulette_qualifier(bet)
            placed = self.table.wagers.get((p.name, ROULETTE_WAGERS[bet.wager].key(q)))
            cur = placed.stake if placed is not None else Decimal(0)
            amount = p.amount(bet) - cur
            if amount <= 0:
                continue
            if amount > self.table.bankrolls[p.name]:
                short = True
                continue
            self.table.act(PlaceBet(p.name, bet.wager, q, amount))
        if short and self.table.on_table(p.name) == 0:
            p.status = RUINED
