"""The dice a craps table keeps: offered to the shooter, selected, passed, changed.

The stickperson offers at least five inspected dice from the table's cup to the shooter, who
selects two (13:47-20.25(e)3); a player may refuse the dice ((g)7), which then pass to the next
player; a change of dice called takes effect after the next decision ((g)8). Under the
profiles whose texts are silent the server runs the same procedures as the house's, citing
the reading ``replay contract: Table procedures`` (:func:`croupier.service.procedures.clauses.clause`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.engine import Connection

from croupier.craps.actions import PassDice
from croupier.errors import Refusal
from croupier.events import Event
from croupier.service import equipment, equipment_register, register
from croupier.service import events as sv
from croupier.service.auth import User
from croupier.service.cashier import require_player_at
from croupier.service.errors import ApiError
from croupier.service.plans import Plan
from croupier.service.procedures.clauses import clause

if TYPE_CHECKING:
    from croupier.service.live import LiveTable

PlanFn = Callable[[Connection], Plan]


class DiceDesk:
    """The dice at one table: offered, in play, a change called; and what may be done."""

    def __init__(self, live: LiveTable) -> None:
        self.live = live
        self.offered: tuple[str, ...] = ()
        self.in_play: tuple[str, ...] = ()
        self.change_called = False

    def fold(self, event: Event) -> bool:
        """Fold a dice event; whether it was one."""
        if isinstance(event, sv.DiceOffered):
            self.offered = event.serials
        elif isinstance(event, sv.DiceSelected):
            self.in_play, self.offered = event.serials, ()
        elif isinstance(event, sv.DiceChangeCalled):
            self.change_called = True
        elif isinstance(event, sv.DiceChanged):
            self.in_play, self.change_called = (), False
        else:
            return False
        return True

    def state(self) -> dict[str, Any]:
        return {"dice_in_play": list(self.in_play), "dice_offered": list(self.offered),
                "dice_change_called": self.change_called}

    def _clause(self, duty: str) -> str:
        return clause(self.live.profile, duty)

    def shooter(self) -> str:
        return str(self.live.table.state_json().get("shooter") or "")

    def next_after(self, player: str) -> str:
        """The player after ``player`` in the order around the table."""
        order = self.live.present()
        return order[(order.index(player) + 1) % len(order)]

    def pass_to(self, player: str) -> list[Event]:
        """The events of the dice passing to ``player`` (the game's own check)."""
        events: list[Event] = self.live.table.check(PassDice(player))
        return events

    def withdraw(self, serial: str) -> PlanFn:
        """A die taken out of play at once (its inspection failed): the dice in play go back
        to the cup if it is one of them, and new dice are offered."""
        def plan(conn: Connection) -> Plan:
            if serial in self.in_play:
                return Plan([sv.DiceChanged(self.in_play, self._clause("dice_spec"))])
            return Plan([])
        return plan

    def check_ready(self, conn: Connection) -> None:
        """Refuse a roll without a shooter or without two dice in play, or with a die the
        house's chain no longer puts in this table's cup (returned, cancelled or failed, through
        any node: the ledger, not this node's copy, says where a die is)."""
        shooter = self.shooter()
        if not shooter or shooter not in self.live.present():
            raise Refusal("there is no shooter: the dice are offered to the players in turn",
                          self._clause("offer"))
        if len(self.in_play) != 2:
            raise Refusal("no dice are in play: the stickperson offers at least five dice and "
                          "the shooter selects two", self._clause("dice_offer"))
        self.check_in_play(conn)

    def _out_of_play(self, conn: Connection, serials: tuple[str, ...]) -> bool:
        """Whether the house's chain has taken one of ``serials`` out of play at this table
        (returned, cancelled, failed: through any node, the ledger says where a die is)."""
        register.lock(conn)
        return any(equipment_register.in_play_check(conn, serial, self.live.id) is not None
                   for serial in serials)

    def after_decision(self, line_decided: bool) -> list[Event]:
        """A change of dice called takes effect once the line is decided."""
        if self.change_called and line_decided:
            return [sv.DiceChanged(self.in_play, self._clause("dice_change"))]
        return []

    # --- what the dealer, the shooter and the players do ------------------------------

    def offer(self, serials: list[str]) -> PlanFn:
        def plan(conn: Connection) -> Plan:
            offer_clause = self._clause("dice_offer")
            if len(set(serials)) != len(serials):
                raise ApiError(422, "malformed", "a die is listed twice")
            if len(serials) < equipment.DICE_OFFERED:
                raise Refusal(f"the stickperson offers at least five dice; {len(serials)} "
                              "offered", offer_clause)
            if self.in_play and not self._out_of_play(conn, self.in_play):
                # (Dice in play that their custody took out of the cup are no longer in play:
                # other dice are offered in their place.)
                raise Refusal("dice are in play: a change of dice takes place immediately "
                              "after the next decision", self._clause("dice_change"))
            shooter = self.shooter()
            if not shooter:
                raise Refusal("there is no player to offer the dice to", self._clause("offer"))
            for serial in serials:
                self._check_die(conn, serial, offer_clause)
            return Plan([sv.DiceOffered(tuple(serials), shooter, offer_clause)])
        return plan

    def _check_die(self, conn: Connection, serial: str, offer_clause: str) -> None:
        """Refuse a die its chained records keep from play here: not in this table's cup by
        its custody, or its latest inspection missing or failed."""
        why = equipment_register.in_play_check(conn, serial, self.live.id)
        if why == "cup":
            raise Refusal(f"die {serial} is not in this table's dice cup: its custody records "
                          "no issue of it here", self._clause("dice_cup"))
        if why == "uninspected":
            raise Refusal(f"die {serial} has no inspection record: it cannot be put in play",
                          self._clause("dice_spec"))
        if why == "failed":
            latest = equipment_register.latest_inspection(conn, serial) or {}
            failures = list(latest.get("failures") or ["failed"])
            raise Refusal(f"die {serial} failed its last inspection and cannot be put in play: "
                          f"{failures[0]}", self._clause("dice_spec"))

    def check_in_play(self, conn: Connection) -> None:
        """Refuse a throw with a die the chain has taken out of play (a failed inspection
        takes it from the cup at once): new dice are offered first. The house chain's lock
        is held to the end of the action, so a custody step through another node waits for
        it and then sees what it did."""
        register.lock(conn)
        for serial in self.in_play:
            self._check_die(conn, serial, self._clause("dice_offer"))

    def select(self, user: User, serials: list[str], by_shooter: bool) -> PlanFn:
        """The shooter's pick of two of the dice offered (``by_shooter``: the caller must be
        the shooter; the dealer may record the pick for them)."""
        def plan(conn: Connection) -> Plan:
            shooter = self.shooter()
            if by_shooter and user.username != shooter:
                raise ApiError(403, "forbidden", "only the shooter selects the dice")
            if not self.offered:
                raise Refusal("no dice have been offered", self._clause("dice_offer"))
            if len(set(serials)) != 2 or not set(serials) <= set(self.offered):
                raise Refusal("the shooter selects two of the dice offered",
                              self._clause("dice_offer"))
            for serial in serials:  # still in play's reach: not failed since it was offered
                self._check_die(conn, serial, self._clause("dice_offer"))
            return Plan([sv.DiceSelected(shooter, tuple(serials))])
        return plan

    def refuse(self, user: User) -> PlanFn:
        """The shooter refuses the dice in their turn: they pass to the next player."""
        def plan(conn: Connection) -> Plan:
            refuse_clause = self._clause("refuse")
            shooter = self.shooter()
            if user.username != shooter:
                raise Refusal(f"it is {shooter or 'nobody'}'s turn to shoot", refuse_clause)
            if self.live.table.live_state().get("hand_rolls", 0) > 0:
                raise Refusal("the shooter has begun to throw: the dice pass only on completion "
                              "of a decision", self._clause("pass_dice"))
            if len(self.live.present()) < 2:
                raise Refusal("there is no other player to pass the dice to", refuse_clause)
            return Plan([sv.ShootRefused(user.username, refuse_clause),
                         *self.pass_to(self.next_after(user.username))])
        return plan

    def pass_on(self, user: User, by_shooter: bool) -> PlanFn:
        """The dice passed to the next player in order: by the shooter, or the dealer, on
        completion of a decision ((g)6). A shooter who has not thrown in their turn passes
        them by refusing them ((g)7), which only they can do: the dealer never passes the dice
        over a player who has not refused them."""
        def plan(conn: Connection) -> Plan:
            shooter = self.shooter()
            if by_shooter and user.username != shooter:
                raise ApiError(403, "forbidden", "only the shooter (or the dealer) passes the dice")
            if len(self.live.present()) < 2 or shooter not in self.live.present():
                raise Refusal("there is no other player to pass the dice to",
                              self._clause("pass_dice"))
            passing = self.pass_to(self.next_after(shooter))
            if self.live.table.live_state().get("hand_rolls", 0) > 0:
                return Plan(passing)
            refuse_clause = self._clause("refuse")
            if not by_shooter:
                raise Refusal(f"{shooter} has not thrown in this turn: the dice pass over a "
                              "player only when that player refuses them", refuse_clause)
            return Plan([sv.ShootRefused(shooter, refuse_clause), *passing])
        return plan

    def change(self, user: User, by_player: bool) -> PlanFn:
        """A change of dice called (``by_player``: by a player, who must be at the table):
        the dice in play go back after the next decision."""
        def plan(conn: Connection) -> Plan:
            if by_player:
                require_player_at(self.live, user.username, self._clause("dice_change"))
            if not self.in_play:
                raise Refusal("no dice are in play", self._clause("dice_change"))
            if self.change_called:
                raise Refusal("a change of dice has already been called",
                              self._clause("dice_change"))
            return Plan([sv.DiceChangeCalled(user.username, self._clause("dice_change"))])
        return plan
