"""A table as the server runs it: the game's table, the family's procedures around it, and
where the table stands in its rounds.

The game's table (:class:`~croupier.table.Table`) decides every wager; the server speaks to it
only through that protocol. The procedures the server runs around a table (the dice and the
shooter, late bets, the ball spun; :mod:`croupier.service.procedures`) are the family's, found
through the game registry. :meth:`LiveTable.fold` folds any stored event: the table's own and
the shared ones into the table, the family's into its procedures, and the outcomes, halts and
voids that every game shares into the table's place in its rounds.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from croupier.events import CouponIn, CouponOut, Event, Opened, PayTableApplied
from croupier.games import GAMES, Game
from croupier.money import fmt
from croupier.rules import load_profile
from croupier.service import events as sv
from croupier.service.monitoring import TableMonitors
from croupier.service.procedures import Procedures, procedures_for
from croupier.service.table_procedures import DEALER_ON_DUTY
from croupier.service.void_watch import VoidWatch
from croupier.table import Table, fold_in

if TYPE_CHECKING:
    from croupier.integrity import Alert


_KEEPS_A_VOID = frozenset({sv.VoidAsked.kind, sv.AdjustmentAsked.kind, "layout_withdrawn"})
"""The events after which a void asked still waits: another ask, and what moves no chips."""


@dataclass(frozen=True)
class PendingOutcome:
    """An outcome recorded (drawn by the RNG or entered by the dealer) and not yet settled:
    until it is, the table takes no other action, and no roll or spin draws again."""

    seq: int
    """The outcome's own event (``draw`` or ``entered``)."""
    event: sv.Drawn | sv.Entered
    declared: sv.SpinDeclared | None = None
    """What the dealer declared of the spin, recorded with the outcome."""

    @property
    def outcome(self) -> tuple[Any, ...]:
        return tuple(self.event.outcome)


def empty_table(game: Game, profile: str, options: dict[str, Any]) -> Table:
    """An empty table (no players yet) of ``game`` under ``profile`` and ``options``."""
    table = game.open(load_profile(profile), options, {})
    table.keep_log = False  # the ledger keeps the events; memory stays flat however long we run
    return table


class LiveTable:
    """One table: the game's table, its procedures, the lock that serialises its actions, and
    where its rounds are."""

    def __init__(self, table_id: str, game: str, profile: str, options: dict[str, Any],
                 capacity: int | None) -> None:
        self.id = table_id
        self.game: Game = GAMES[game]
        self.profile = profile
        self.options = options
        self.capacity = capacity or self.game.default_capacity
        self.lock = threading.Lock()
        self.table: Table = empty_table(self.game, profile, options)
        self.seq = 0
        self.round = 1
        self.round_first_seq = 1
        self.participants: set[str] = set()
        self.betting_open = True
        self.coupons: dict[tuple[str, str], Decimal] = {}
        # The outcome recorded and not yet settled; the halt that stops play until a
        # supervisor resolves it; a void of the last decision waiting for a second person.
        self.pending: PendingOutcome | None = None
        self.halted: sv.TableHalted | None = None
        self.void_asked: sv.VoidAsked | None = None
        self.replacing: sv.Voided | None = None
        """The void of an entered result whose replacement is not recorded yet: the next
        outcome is recorded by a person independent of the supervisor who voided it."""
        self.adjustments_asked: dict[int, sv.AdjustmentAsked] = {}
        """The adjustments asked and not yet approved, by number (from the chain)."""
        self.dealer = ""
        """The dealer dealing the table (its last ``dealer_on_duty`` record)."""
        # What the ledger holds (None: not read yet), so a write touches only what changed.
        self.seat_rows: set[str] | None = None
        self.house_written: int | None = None
        self.procedures: Procedures = procedures_for(self)
        # The fairness monitors observe each decided roll or spin as it is folded; the alerts
        # the last fold raised wait in ``raised`` for the ledger to record them.
        self.monitors = TableMonitors(table_id, self.procedures.wheel())
        self.raised: list[Alert] = []
        self.void_watch = VoidWatch()
        self.decided: tuple[int, int, Event] | None = None
        """The last decision folded (a roll, a spin, a "no spin"; never a voided one): its seq,
        round and event, so a page opened mid-session shows it before the next one."""
        self.ahead = False
        """Whether the table in memory may hold what the ledger does not: a write failed and
        so did the rebuild from the ledger after it (the database away). The next action at
        the table rebuilds it before anything else (``Runner._locks``), as does a route that
        shows it (``Tables.read``); until then its chips, its chain's head and its outcome
        waiting are not the ledger's."""
        self.unrecorded: tuple[tuple[int, ...], sv.Drawn, int] | None = None
        """An outcome the RNG drew whose record was not committed (its transaction failed),
        with the ranges it was drawn over and the table's last seq when it was drawn (its
        record, if the database did commit it, comes after): the next draw over the same
        ranges at this table is this one, so no outcome is drawn again. Kept through a rebuild
        from the ledger, which holds no trace of it; cleared once an outcome's record commits,
        or once a rebuild finds it recorded."""

    # --- what the table knows ---------------------------------------------------------

    def present(self) -> list[str]:
        """The players at the table, in their order around it (clockwise)."""
        return self.table.seats()

    def chips(self, player: str) -> Decimal:
        return self.table.chips(player)

    def on_table(self, player: str) -> Decimal:
        return self.table.on_table(player)

    @property
    def house(self) -> Decimal:
        return self.table.house

    def layout(self) -> list[dict[str, Any]]:
        """The wagers on the layout: player, wager, stake."""
        return [{"player": player, "wager": key, "stake": fmt(stake)}
                for player, key, stake in self.table.layout()]

    def balances(self) -> dict[str, dict[str, str]]:
        return {p: {"chips": fmt(self.chips(p)), "on_table": fmt(self.on_table(p))}
                for p in self.present()}

    def state(self) -> dict[str, Any]:
        """The table as the API shows it."""
        out: dict[str, Any] = {
            "id": self.id, "game": self.game.name, "profile": self.profile,
            "options": self.options, "capacity": self.capacity, "round": self.round,
            "seq": self.seq, "betting_open": self.betting_open, "dealer": self.dealer or None,
            "players": self.balances(),
            "layout": self.layout(),
            "void_asked": (None if self.void_asked is None else
                           {"round": self.void_asked.decision, "by": self.void_asked.by,
                            "reason": self.void_asked.reason}),
            "halted": (None if self.halted is None else
                       {"player": self.halted.player, "wager": self.halted.wager,
                        "reason": self.halted.reason, "outcome_seq": self.halted.outcome_seq}),
            "decision": (None if self.decided is None else
                         {"seq": self.decided[0], "round": self.decided[1],
                          **self.decided[2].to_json()}),
        }
        out.update(self.table.live_state())
        out.update(self.procedures.state())
        if self.table.has_seating():
            out["seated"] = self.table.seated()
        return out

    # --- folding ------------------------------------------------------------------------

    def fold(self, event: Event, seq: int, round_no: int) -> None:
        """Fold one stored event (the table's, a shared one or the server's) into the table."""
        due: list[Event] = []
        self.note(event, seq, round_no, due)
        fold_in(self.table, due)

    def note(self, event: Event, seq: int, round_no: int, due: list[Event]) -> None:
        """Fold ``event`` into where the table stands, its procedures and its coupons; an
        event for the game's table is appended to ``due``, to be folded into it with the
        action's others in one call (:func:`croupier.table.answer`). Nothing noted here reads
        the game's table but the server's own events, so before one of them the events due
        are folded in (and ``due`` emptied)."""
        self.seq = seq
        player = getattr(event, "player", None)
        if isinstance(player, str):
            self.participants.add(player)
        if event.kind not in _KEEPS_A_VOID:
            # A void waits until it is approved or withdrawn (the runner takes nothing else
            # meanwhile but a layout's wagers taken off, which moves no chips); either event
            # ends it, as any other did in ledgers from before that.
            self.void_asked = None
        if isinstance(event, sv.SERVICE_EVENTS):
            fold_in(self.table, due)
            due.clear()
            self._fold_service(event, seq)
            return
        if isinstance(event, Opened):
            return  # the table was opened from the same options
        due.append(event)
        if isinstance(event, CouponIn):
            self.coupons[(event.player, event.wager)] = event.amount
        elif isinstance(event, CouponOut):
            self.coupons.pop((event.player, event.wager), None)
        elif self.procedures.fold_decision(event):
            self.betting_open = True
            self.pending = None
            self.void_watch.decided()
            self.decided = (seq, round_no, event)
            self.raised.extend(self.monitors.observe(event, self.procedures.dice_set()))
        elif isinstance(event, PayTableApplied):
            self.options = {**self.options, "pays": dict(event.pays)}

    def end_round(self, next_seq: int) -> None:
        self.round += 1
        self.round_first_seq = next_seq
        self.participants = set()

    def _fold_service(self, event: Event, seq: int) -> None:
        """The server's own events: outcomes, halts, voids and betting closed here, the
        family's procedures in its procedures; they never change the game's table."""
        if self._fold_outcome(event, seq):
            return
        if isinstance(event, sv.AdjustmentAsked):
            self.adjustments_asked[event.pending] = event
        elif isinstance(event, sv.ADJUSTMENT_DECIDED):
            self.adjustments_asked.pop(event.pending, None)
        elif isinstance(event, sv.Procedure) and event.name == DEALER_ON_DUTY:
            self.dealer = event.by
        else:
            # ShootRefused and the records change nothing here; a void is applied by
            # rebuilding the table without the voided events.
            self.procedures.fold(event)

    def _fold_outcome(self, event: Event, seq: int) -> bool:
        """An outcome waiting to be settled, a halt, a void asked or made, betting closed:
        whether ``event`` was one of them."""
        if isinstance(event, (sv.Drawn, sv.Entered)):
            self.pending = PendingOutcome(seq, event)
            self.replacing = None
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
            # A void approved by a second supervisor (an RNG outcome's) replaces nothing.
            self.replacing = event if event.approved_by is None else None
        elif isinstance(event, sv.BettingClosed):
            self.betting_open = False
        else:
            return False
        return True

    def outcome_committed(self) -> None:
        """After an outcome's transaction commits: if the outcome waiting is the RNG's draw
        kept as not recorded, it is recorded now, and the next roll or spin draws afresh."""
        kept, pending = self.unrecorded, self.pending
        if kept is not None and pending is not None and pending.event is kept[1]:
            self.unrecorded = None

    def replace_with(self, other: LiveTable) -> None:
        """Take over ``other``'s state (after a rebuild), keeping this table's lock and the
        outcome drawn and not recorded (the ledger has no trace of it). If the ledger does hold
        it (the database committed its record but the commit was never answered), it is the
        outcome waiting there, and the next roll or spin draws afresh: drawn again, it would
        be the one everyone was just shown."""
        lock, unrecorded = self.lock, self.unrecorded
        self.__dict__.update(other.__dict__)
        pending = self.pending
        if (unrecorded is not None and pending is not None
                and pending.event.to_json() == unrecorded[1].to_json()):
            unrecorded = None
        self.lock, self.unrecorded = lock, unrecorded
        self.procedures.live = self
