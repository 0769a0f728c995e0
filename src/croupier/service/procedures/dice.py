"""The dice a craps table keeps: offered to the shooter, selected, passed, changed.

The stickperson offers at least five inspected dice from the table's cup to the shooter, who
selects two (13:47-20.25(e)3); a player may refuse the dice ((g)7), which then pass to the next
player; a change of dice called takes effect after the next decision ((g)8). Under the
profiles whose texts are silent the server runs the same procedures as the house's, citing
the reading ``replay contract: Table procedures`` (:func:`croupier.service.procedures.clauses.clause`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.craps.actions import PassDice
from croupier.errors import Refusal
from croupier.events import Event
from croupier.service import equipment, equipment_register, store
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

    def check_ready(self, conn: Connection) -> None:
        """Refuse a roll without a shooter or without two dice in play, or with a die the
        ledger's custody records no longer put in this table's cup (returned or cancelled
        through any node: the ledger, not this node's copy, says where a die is)."""
        shooter = self.shooter()
        if not shooter or shooter not in self.live.present():
            raise Refusal("there is no shooter: the dice are offered to the players in turn",
                          self._clause("offer"))
        if len(self.in_play) != 2:
            raise Refusal("no dice are in play: the stickperson offers at least five dice and "
                          "the shooter selects two", self._clause("dice_offer"))
        gone = self._out_of_cup(conn, self.in_play)
        if gone is not None:
            raise Refusal(f"{gone}: it cannot be thrown; the stickperson offers other dice",
                          self._clause("dice_cup"))

    def _out_of_cup(self, conn: Connection, serials: tuple[str, ...]) -> str | None:
        """Why one of ``serials`` is not in this table's cup by the ledger, or None. Each die's
        row is held (FOR SHARE) to the end of the transaction, so a custody step on another
        node waits for this action and then sees what it did."""
        query = sa.select(store.dice).where(store.dice.c.serial.in_(serials)).order_by(
            store.dice.c.serial).with_for_update(read=True)
        dice = {d.serial: d for d in conn.execute(query)}
        for serial in serials:
            die = dice.get(serial)
            if die is None or die.table_id != self.live.id or die.retired:
                return f"die {serial} is not in this table's dice cup"
            if equipment_register.issued_to(conn, serial) != self.live.id:
                return (f"die {serial} has no custody record of its issue to this table's dice "
                        "cup")
        return None

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
            if self.in_play and self._out_of_cup(conn, self.in_play) is None:
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
        die = conn.execute(sa.select(store.dice).where(store.dice.c.serial == serial)
                           .with_for_update(read=True)).first()  # held, as in _out_of_cup
        latest = conn.execute(sa.select(store.inspections).where(
            store.inspections.c.serial == serial).order_by(store.inspections.c.id.desc())
            .limit(1)).first()
        table_id = self.live.id
        if die is None or die.table_id != table_id or die.retired:
            raise Refusal(f"die {serial} is not in this table's dice cup", offer_clause)
        if equipment_register.issued_to(conn, serial) != table_id:
            raise Refusal(f"die {serial} has no custody record of its issue to this table's "
                          "dice cup: it cannot be put in play", self._clause("dice_cup"))
        if latest is None:
            raise Refusal(f"die {serial} has no inspection record: it cannot be put in play",
                          self._clause("dice_spec"))
        if not latest.passed:
            failures = json.loads(latest.failures)
            raise Refusal(f"die {serial} failed its last inspection and cannot be put in play: "
                          f"{failures[0]}", self._clause("dice_spec"))

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
            gone = self._out_of_cup(conn, tuple(serials))
            if gone is not None:
                raise Refusal(f"{gone}: it cannot be put in play", self._clause("dice_cup"))
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
                require_player_at(self.live, user.username)
            if not self.in_play:
                raise Refusal("no dice are in play")
            if self.change_called:
                raise Refusal("a change of dice has already been called")
            return Plan([sv.DiceChangeCalled(user.username, self._clause("dice_change"))])
        return plan
