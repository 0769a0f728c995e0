"""A table as the service runs it: the engine's table plus the procedures around it.

The engine (:class:`~croupier.craps.table.CrapsTable` or
:class:`~croupier.roulette.table.RouletteTable`) decides every wager; this wrapper folds the
service's own events (chips in and out, "no more bets", late bets, dice offered and selected)
and knows where the table is in its rounds. :meth:`LiveTable.fold` folds any event.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from croupier.craps.events import PayTableApplied, Rolled
from croupier.craps.table import CrapsTable
from croupier.dice import POINTS
from croupier.events import CouponIn, CouponOut, Event, Opened
from croupier.games import GAME_NAMES, REGISTRY, Game
from croupier.integrity.dice import dice_bank
from croupier.integrity.model import MonitorConfig
from croupier.money import fmt
from croupier.roulette.events import Crowned, NoSpin
from croupier.roulette.table import RouletteTable
from croupier.rules import load_profile
from croupier.service import events as sv
from croupier.service.monitoring import TableMonitors
from croupier.service.void_watch import VoidWatch
from croupier.table import Table

if TYPE_CHECKING:
    from croupier.integrity import Alert

GAMES = GAME_NAMES  # the names the server opens tables of
DEFAULT_CAPACITY = {name: g.default_capacity for name, g in REGISTRY.items()}
@dataclass(frozen=True)
class PendingOutcome:
    """An outcome recorded (drawn by the RNG or entered by the dealer) and not yet settled:
    until it is, the table takes no other action, and no roll or spin draws again."""

    seq: int
    """The outcome's own event (``draw`` or ``entered``)."""
    event: sv.Drawn | sv.Entered
    declared: sv.SpinDeclared | None = None
    """What the dealer declared of the spin (roulette), recorded with the outcome."""

    @property
    def outcome(self) -> tuple[Any, ...]:
        return tuple(self.event.outcome)


@dataclass
class LateBet:
    """A wager offered while the dice were in the air, waiting for its confirmations."""

    late_id: int
    player: str
    wager: str
    qualifier: Any
    amount: Decimal
    confirmed: dict[str, str] = field(default_factory=dict)  # role -> who


def make_engine_table(game: str, profile: str, options: dict[str, Any]) -> Table:
    """An empty engine table (no players yet) for ``game`` under ``profile`` and ``options``."""
    table = REGISTRY[game].open(load_profile(profile), options, {})
    table.keep_log = False  # the ledger keeps the events; memory stays flat however long we run
    return table


class LiveTable:
    """One table: the engine, the lock that serialises its actions, and where its rounds are."""

    def __init__(self, table_id: str, game: str, profile: str, options: dict[str, Any],
                 capacity: int) -> None:
        self.id = table_id
        self.game = game
        self.spec: Game = REGISTRY[game]
        self.profile = profile
        self.options = options
        self.capacity = capacity
        self.lock = threading.Lock()
        self.engine: Table = make_engine_table(game, profile, options)
        self.seq = 0
        self.round = 1
        self.round_first_seq = 1
        self.participants: set[str] = set()
        self.betting_open = True
        self.late: dict[int, LateBet] = {}
        self.next_late = 1
        self.offered: tuple[str, ...] = ()
        self.in_play: tuple[str, ...] = ()
        self.change_called = False
        self.coupons: dict[tuple[str, str], Decimal] = {}
        # The outcome recorded and not yet settled; the halt that stops play until a
        # supervisor resolves it; a void of the last decision waiting for a second person.
        self.pending: PendingOutcome | None = None
        self.halted: sv.TableHalted | None = None
        self.void_asked: sv.VoidAsked | None = None
        # What the ledger holds (None: not read yet), so a write touches only what changed.
        self.seat_rows: set[str] | None = None
        self.house_written: int | None = None
        # The fairness monitors observe each decided roll or spin as it is folded; the alerts
        # the last fold raised wait in ``raised`` for the ledger to record them.
        self.monitors = TableMonitors(table_id, getattr(self.engine, "wheel", None))
        if isinstance(self.engine, CrapsTable):
            # The dice monitors' thresholds are calibrated once per process (tens of ms): now,
            # while the table is opened or rebuilt, rather than inside its first roll's
            # transaction with every bet queued behind it.
            dice_bank(MonitorConfig())
        self.raised: list[Alert] = []
        self.void_watch = VoidWatch()

    # --- what the table knows ---------------------------------------------------------

    @property
    def is_craps(self) -> bool:
        return isinstance(self.engine, CrapsTable)

    def craps(self) -> CrapsTable:
        assert isinstance(self.engine, CrapsTable)
        return self.engine

    def roulette(self) -> RouletteTable:
        assert isinstance(self.engine, RouletteTable)
        return self.engine

    def closed_clause(self) -> str:
        """The clause that governs wagers once betting is closed, from the table's profile:
        late bets with confirmation where it permits them, else bets before the throw (craps);
        "No more bets" (roulette)."""
        if isinstance(self.engine, CrapsTable):
            rules = self.engine.config.rules
            return rules.clause("late_bet_clause" if rules.late_bets else "timing_clause")
        return self.roulette().rules.clause("no_more_bets_clause")

    def present(self) -> list[str]:
        """The players at the table, in their order around it (clockwise)."""
        return self.engine.seats()

    def chips(self, player: str) -> Decimal:
        return self.engine.chips(player)

    def on_table(self, player: str) -> Decimal:
        return self.engine.on_table(player)

    @property
    def house(self) -> Decimal:
        return self.engine.house

    def layout(self) -> list[dict[str, Any]]:
        """The wagers on the layout: player, wager, stake."""
        return [{"player": player, "wager": key, "stake": fmt(stake)}
                for player, key, stake in self.engine.layout()]

    def balances(self) -> dict[str, dict[str, str]]:
        return {p: {"chips": fmt(self.chips(p)), "on_table": fmt(self.on_table(p))}
                for p in self.present()}

    def state(self) -> dict[str, Any]:
        """The table as the API shows it."""
        out: dict[str, Any] = {
            "id": self.id, "game": self.game, "profile": self.profile, "options": self.options,
            "capacity": self.capacity, "round": self.round, "seq": self.seq,
            "betting_open": self.betting_open, "players": self.balances(),
            "layout": self.layout(),
            "late_bets": [self.late_json(b) for b in self.late.values()],
            "void_asked": (None if self.void_asked is None else
                           {"round": self.void_asked.round, "by": self.void_asked.by,
                            "reason": self.void_asked.reason}),
            "halted": (None if self.halted is None else
                       {"player": self.halted.player, "wager": self.halted.wager,
                        "reason": self.halted.reason, "outcome_seq": self.halted.outcome_seq}),
        }
        out.update(self.engine.live_state())
        if self.spec.uses_dice:
            out.update(dice_in_play=list(self.in_play), dice_offered=list(self.offered),
                       dice_change_called=self.change_called)
        if self.engine.has_seating():
            out["seated"] = self.engine.seated()
        return out

    @staticmethod
    def late_json(bet: LateBet) -> dict[str, Any]:
        q = bet.qualifier
        return {"id": bet.late_id, "player": bet.player, "wager": bet.wager,
                "qualifier": list(q) if isinstance(q, tuple) else q,
                "amount": fmt(bet.amount), "confirmed_by": dict(bet.confirmed)}

    # --- folding ------------------------------------------------------------------------

    def fold(self, event: Event, seq: int, round_no: int) -> None:
        """Fold one stored event (the engine's, a shared one or the service's) into the table."""
        self.seq = seq
        player = getattr(event, "player", None)
        if isinstance(player, str):
            self.participants.add(player)
        if not isinstance(event, sv.VoidAsked):
            self.void_asked = None  # a void waits only while nothing else happens
        if isinstance(event, sv.SERVICE_EVENTS):
            self._fold_service(event, seq)
            return
        if isinstance(event, Opened):
            return  # the engine table was opened from the same options
        self.engine.apply(event)
        if isinstance(event, CouponIn):
            self.coupons[(event.player, event.wager)] = event.amount
        elif isinstance(event, CouponOut):
            self.coupons.pop((event.player, event.wager), None)
        elif isinstance(event, (Rolled, Crowned, NoSpin)):
            self.betting_open = True
            self.late.clear()
            self.pending = None
            self.void_watch.decided()
            self.raised.extend(self.monitors.observe(event, self.in_play))
        elif isinstance(event, PayTableApplied):
            self.options = {**self.options, "pays": dict(event.pays)}

    def end_round(self, next_seq: int) -> None:
        self.round += 1
        self.round_first_seq = next_seq
        self.participants = set()

    def _fold_service(self, event: Event, seq: int) -> None:
        """The service's own procedures: they change what the service knows, never the engine."""
        if isinstance(event, (sv.Drawn, sv.Entered)):
            self.pending = PendingOutcome(seq, event)
        elif isinstance(event, sv.SpinDeclared) and self.pending is not None:
            self.pending = PendingOutcome(self.pending.seq, self.pending.event, event)
        elif isinstance(event, sv.TableHalted):
            self.halted = event
        elif isinstance(event, sv.HaltResolved):
            self.halted = None
        elif isinstance(event, sv.VoidAsked):
            self.void_asked = event
        elif isinstance(event, sv.Voided):
            self.void_watch.voided(event)
        elif isinstance(event, sv.BettingClosed):
            self.betting_open = False
        elif isinstance(event, sv.LateBetAsked):
            self.late[event.late_id] = LateBet(event.late_id, event.player, event.wager,
                                               event.qualifier, event.amount)
            self.next_late = max(self.next_late, event.late_id + 1)
        elif isinstance(event, sv.LateBetConfirmed):
            bet = self.late.get(event.late_id)
            if bet is not None:
                bet.confirmed[event.role] = event.by
                if len(bet.confirmed) == 2:
                    del self.late[event.late_id]
        elif isinstance(event, sv.LateBetLapsed):
            self.late.pop(event.late_id, None)
        else:
            self._fold_dice(event)

    def _fold_dice(self, event: Event) -> None:
        if isinstance(event, sv.DiceOffered):
            self.offered = event.serials
        elif isinstance(event, sv.DiceSelected):
            self.in_play = event.serials
            self.offered = ()
        elif isinstance(event, sv.DiceChangeCalled):
            self.change_called = True
        elif isinstance(event, sv.DiceChanged):
            self.in_play = ()
            self.change_called = False
        # ShootRefused and Voided record what happened; they change nothing here (a void is
        # applied by rebuilding the table without the voided events).

    def replace_with(self, other: LiveTable) -> None:
        """Take over ``other``'s state (after a rebuild), keeping this table's lock."""
        lock = self.lock
        self.__dict__.update(other.__dict__)
        self.lock = lock


def line_decided(event: Rolled) -> bool:
    """Whether a roll decided the pass line (a "decision" in 13:47-20.25(g)8)."""
    if event.point_before is None:
        return event.total not in POINTS
    return event.point_after is None
