"""What each action at a table does: the checks around the engine's, and the events it writes.

Each function returns a ``plan(conn) -> Plan`` for :meth:`Ledger.run`; a plan raises
:class:`~croupier.errors.Refusal` (nothing changes) or returns the events. The engine decides
the wagers; these functions add who may act, chips in and out, and the table's procedures.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.craps.events import Rolled, ShooterChanged
from croupier.craps.reading import read_qualifier, read_wager
from croupier.craps.table import CrapsTable
from croupier.craps.wagers import WAGERS as CRAPS_WAGERS
from croupier.errors import Malformed, Refusal, Unsettleable
from croupier.events import CouponIn, Event
from croupier.money import fmt
from croupier.roulette.reading import read_action
from croupier.roulette.table import PlaceBet, RemoveBet, Spin
from croupier.rules.citations import cite
from croupier.service import (
    coupons,
    equipment,
    equipment_register,
    halts,
    procedures,
    store,
    table_procedures,
)
from croupier.service import events as sv
from croupier.service.auth import User
from croupier.service.errors import ApiError
from croupier.service.ledger import Ledger, Plan
from croupier.service.live import LiveTable, line_decided
from croupier.service.rng import Rng

PlanFn = Callable[[Connection], Plan]


def _require_player_at(live: LiveTable, player: str) -> None:
    if player not in live.present():
        raise Refusal(f"{player} has no chips at table {live.id}: buy in through the cashier "
                      "first", cite(live.profile, "chips"))  # a wager without chips is credit


def _craps_wager(spec: dict[str, Any]) -> tuple[str, Any]:
    d = read_wager(spec.get("wager"), "wager")
    raw = {k: v for k, v in spec.items() if k in ("number", "dice") and v is not None}
    return d.id, read_qualifier(d, raw, "body")


def _roulette_action(live: LiveTable, verb: str, player: str, spec: dict[str, Any]) -> Any:
    raw: dict[str, Any] = {verb: spec.get("wager"), "player": player}
    for key in ("numbers", "center", "column", "dozen"):
        if spec.get(key) is not None:
            raw[key] = spec[key]
    if verb == "bet":
        raw["amount"] = spec.get("amount")
    return read_action(raw, "body", live.present(), live.roulette().wheel.id)


# --- the cashier --------------------------------------------------------------------------

def buy_in(ledger: Ledger, user: User, live: LiveTable, amount: Decimal) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        player = user.username
        present = live.present()
        # Where only seated players wager (mini-craps), the capacity is the seats.
        if (player not in present and len(present) >= live.capacity
                and not live.engine.has_seating()):
            raise Refusal(f"there is no room at table {live.id} ({live.capacity} places)",
                          procedures.clause(live.profile, "room"))
        balance = ledger.wallet_balance(conn, player, lock=True)
        if store.cents(amount) > balance:
            raise Refusal(f"{player}'s wallet holds {fmt(store.dollars(balance))}: it cannot "
                          f"buy {fmt(amount)} in chips")
        events: list[Event] = [sv.ChipsIn(player, amount)]
        if live.spec.has_shooter and not live.craps().shooter:
            events.append(ShooterChanged(player, "the dice are offered to the first player"))
        return Plan(events, wallet=[(player, -store.cents(amount), "buy_in")])
    return plan


def cash_out(ledger: Ledger, user: User, live: LiveTable, amount: Decimal | None) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        player = user.username
        _require_player_at(live, player)
        chips = live.chips(player)
        out = chips if amount is None else amount
        if out > chips:
            raise Refusal(f"{player} has {fmt(chips)} in chips at the table (wagers on the layout "
                          f"are not cashed out): cannot cash out {fmt(out)}")
        events: list[Event] = [sv.ChipsOut(player, out)] if out > 0 else []
        leaving = out == chips and live.on_table(player) == 0
        engine = live.engine
        if leaving and live.spec.has_shooter and live.craps().shooter == player:
            assert isinstance(engine, CrapsTable)
            if engine.point is not None:
                leaving = False  # the shooter throws until a decision; the chips still go out
            else:
                others = [p for p in engine.order if p != player]
                if others:
                    events.extend(engine.check_pass_dice(_next_in_order(engine, player)))
        if leaving:
            events.append(sv.Left(player))
        if not events:
            raise Refusal(f"{player} has no chips to cash out")
        wallet = [(player, store.cents(out), "cash_out")] if out > 0 else []
        return Plan(events, wallet=wallet, extra={"left": leaving})
    return plan


def _next_in_order(engine: CrapsTable, player: str) -> str:
    order = engine.order
    return order[(order.index(player) + 1) % len(order)]


# --- wagers -------------------------------------------------------------------------------

def bet(user: User, live: LiveTable, spec: dict[str, Any], amount: Decimal,
        coupon: bool) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        player = user.username
        _require_player_at(live, player)
        engine = live.engine
        if isinstance(engine, CrapsTable):
            return _craps_bet(live, engine, player, spec, amount, coupon)
        if coupon:
            raise Refusal(f"match play coupons are not accepted at {live.game} under "
                          f"{live.profile}", live.roulette().rules.clause("permitted_clause"))
        if not live.betting_open:
            raise Refusal('the dealer has called "No more bets"', live.closed_clause())
        action = _roulette_action(live, "bet", player, {**spec, "amount": fmt(amount)})
        assert isinstance(action, PlaceBet)
        return Plan(live.roulette().check_bet(action))
    return plan


def _craps_bet(live: LiveTable, engine: CrapsTable, player: str, spec: dict[str, Any],
               amount: Decimal, coupon: bool) -> Plan:
    wager_id, qualifier = _craps_wager(spec)
    if coupon:
        return _coupon_bet(live, engine, player, wager_id, amount)
    if live.betting_open:
        return Plan(engine.check_bet(player, wager_id, qualifier, amount))
    # Where the profile permits late bets (13:69F-1.3(a)), a wager made while the dice are in
    # the air stands only when the dealer and the boxperson (floorperson at mini-craps)
    # confirm it; elsewhere all bets are made before the dice are thrown (13:47-20.25(h)1).
    procedures.check_late_bet(live.profile)
    engine.check_bet(player, wager_id, qualifier, amount)
    late_id = live.next_late
    return Plan([sv.LateBetAsked(late_id, player, wager_id, qualifier, amount,
                                 procedures.late_bet_clause(live.profile, live.game))],
                status=202, extra={"late_bet": late_id})


def _coupon_bet(live: LiveTable, engine: CrapsTable, player: str, wager_id: str,
                amount: Decimal) -> Plan:
    """Chips of ``amount`` with a match play coupon of the same value: a stake of twice it."""
    rules = engine.config.rules
    if not rules.coupon_wagers:
        raise Refusal(f"match play coupons are not accepted under {engine.config.profile_id}",
                      rules.clause("permitted_clause"))
    coupon_clause = rules.clause("coupon_clause")
    if wager_id not in rules.coupon_wagers:
        names = " or ".join(CRAPS_WAGERS[w].name for w in sorted(rules.coupon_wagers))
        raise Refusal(f"match play coupons are accepted only for {names} wagers", coupon_clause)
    if not live.betting_open:
        raise Refusal("a match play coupon is not taken while the dice are in the air",
                      procedures.dice_out_clause(live.profile))
    if (player, wager_id) in engine.wagers:
        raise Refusal(f"a match play coupon is put down with a new {wager_id} wager, not added "
                      "to one already on the layout", coupon_clause)
    # The engine checks the whole stake (chips and coupon) as one wager with the coupon's
    # value in hand (``covered``); the coupon's value comes from the house, the chips from the
    # player: the coupon's event goes first, then the wager.
    made = engine.check_bet(player, wager_id, None, amount * 2, covered=amount)
    return Plan([CouponIn(player, wager_id, amount, coupon_clause), *made])


def take_down(user: User, live: LiveTable, spec: dict[str, Any], amount: Decimal | None,
              ) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        player = user.username
        _require_player_at(live, player)
        engine = live.engine
        if isinstance(engine, CrapsTable):
            wager_id, qualifier = _craps_wager(spec)
            if not live.betting_open:
                raise Refusal("a wager is not removed or reduced while the dice are in the air",
                              engine.config.rules.clause("removal_clause"))
            if (player, wager_id) in live.coupons and amount is not None:
                raise Refusal("a wager with a match play coupon is taken down whole, "
                              "not reduced", engine.config.rules.clause("coupon_clause"))
            events = engine.check_take_down(player, wager_id, qualifier, amount)
            return Plan(events + coupons.coupons_after(live, events))
        if amount is not None:
            raise Malformed("amount", "roulette wagers are taken down whole (no reduce)")
        if not live.betting_open:
            raise Refusal('the dealer has called "No more bets"', live.closed_clause())
        action = _roulette_action(live, "remove", player, spec)
        assert isinstance(action, RemoveBet)
        return Plan(live.roulette().check_remove(action))
    return plan


def call(user: User, live: LiveTable, spec: dict[str, Any], on: bool) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        player = user.username
        _require_player_at(live, player)
        engine = _craps_only(live)
        wager_id, qualifier = _craps_wager(spec)
        return Plan(engine.check_call(player, wager_id, qualifier, on))
    return plan


def seat(user: User, live: LiveTable, seated: bool) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        player = user.username
        _require_player_at(live, player)
        engine = _craps_only(live)
        if seated and engine.config.seated:
            taken = len(engine.seated())
            if taken >= live.capacity and not engine.players[player].seated:
                raise Refusal(f"all {live.capacity} seats at this {live.game} table are taken",
                              engine.config.rules.clause("seating_clause"))
        return Plan(engine.check_seat(player, seated))
    return plan


def _craps_only(live: LiveTable) -> CrapsTable:
    if not isinstance(live.engine, CrapsTable):
        raise ApiError(422, "malformed", f"not an action at {live.game}")
    return live.engine


def _dice_table(live: LiveTable) -> CrapsTable:
    """A table whose dice the service keeps and passes around (not a device's)."""
    engine = _craps_only(live)
    if not live.spec.uses_dice:
        raise ApiError(422, "malformed", f"at {live.game} a device throws the dice: they are "
                       "not offered, selected, passed or changed")
    return engine


# --- the dealer ---------------------------------------------------------------------------

def no_more_bets(user: User, live: LiveTable) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        if not live.betting_open:
            raise Refusal("betting is already closed")
        return Plan([sv.BettingClosed(user.username, live.closed_clause())])
    return plan


def confirm_late(user: User, live: LiveTable, late_id: int) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        bet = live.late.get(late_id)
        if bet is None:
            raise ApiError(404, "not_found", f"there is no late bet {late_id} waiting")
        role = procedures.confirming_role(live.game, user.role)
        if role in bet.confirmed:
            raise Refusal(f"the {role} has already confirmed late bet {late_id}; the other "
                          "confirmation is still needed",
                          procedures.late_bet_clause(live.profile, live.game))
        events: list[Event] = [sv.LateBetConfirmed(late_id, user.username, role)]
        if len(bet.confirmed) == 1:
            events.extend(live.craps().check_bet(bet.player, bet.wager, bet.qualifier, bet.amount))
        return Plan(events)
    return plan


def roll(user: User, live: LiveTable, rng: Rng, dice: tuple[int, int] | None) -> PlanFn:
    """The roll's outcome: the RNG's dice (drawn once, however often the plan runs) or the
    dice the dealer entered, recorded before anything is settled. Where an outcome is already
    recorded and waits, nothing is drawn: the request settles that one."""
    drawn: list[Any] = []  # this request's one draw, kept if its transaction is run again

    def plan(conn: Connection) -> Plan:
        if live.pending is not None:
            return Plan([])
        engine = _craps_only(live)
        if dice is not None and not live.spec.dealer_enters_results:
            raise Refusal(f"at {live.game} a device throws the dice: the RNG decides every "
                          "roll and no result is entered")
        if live.spec.has_shooter and (not engine.shooter or engine.shooter not in engine.order):
            raise Refusal("there is no shooter: the dice are offered to the players in turn",
                          procedures.clause(live.profile, "offer"))
        if live.spec.uses_dice and len(live.in_play) != 2:
            raise Refusal("no dice are in play: the stickperson offers at least five dice and "
                          "the shooter selects two", procedures.clause(live.profile, "dice_offer"))
        other = procedures.confirming_role(live.game, "supervisor")
        events: list[Event] = [sv.LateBetLapsed(b.late_id, f"not confirmed by the dealer and the "
                                                f"{other} before the dice came to rest")
                               for b in live.late.values()]
        if dice is not None:
            return Plan([*events, sv.Entered(user.username, dice)])
        if not drawn:
            drawn.append(rng.dice())
        draw = drawn[0]
        return Plan([*events, sv.Drawn(draw.source, draw.raw, draw.outcome)])
    return plan


def settle_roll(user: User, live: LiveTable) -> PlanFn:
    """The settlement of the roll recorded and waiting: every wager, the coupons, the
    stickperson's call, a change of dice called for; or, where a wager cannot be settled
    exactly, the halt that names it."""
    def plan(conn: Connection) -> Plan:
        pending = live.pending
        if pending is None:
            return Plan([])  # settled already
        engine = _craps_only(live)
        d1, d2 = pending.outcome
        try:
            rolled = engine.check_roll(d1, d2)
        except Unsettleable as exc:
            return halts.halt(live, exc)
        events: list[Event] = [*rolled, *coupons.coupons_after(live, rolled)]
        if live.spec.uses_dice:  # a stickperson handles the dice (not a device's)
            events.extend(table_procedures.stick_call(user.username, rolled))
        first = rolled[0]
        assert isinstance(first, Rolled)
        if live.change_called and line_decided(first):
            events.append(sv.DiceChanged(live.in_play,
                                         procedures.clause(live.profile, "dice_change")))
        return Plan(events, decision=True)
    return plan


def spin(user: User, live: LiveTable, rng: Rng, number: Any, revolutions: int | None,
         same_direction: bool, foreign_object: bool) -> PlanFn:
    """The spin's outcome: the RNG's pocket (drawn once) or the number the dealer entered,
    with what the dealer declared of the spin, recorded before anything is settled."""
    drawn: list[Any] = []

    def plan(conn: Connection) -> Plan:
        if live.pending is not None:
            return Plan([])
        if live.is_craps:
            raise ApiError(422, "malformed", "not an action at craps")
        table = live.roulette()
        if live.betting_open:
            raise Refusal('the dealer calls "No more bets" while the ball is still rotating, '
                          "before it comes to rest", live.closed_clause())
        events: list[Event] = []
        if number is None:
            if not drawn:
                drawn.append(rng.pocket(table.wheel.order))
            draw = drawn[0]
            events.append(sv.Drawn(draw.source, draw.raw, draw.outcome))
        else:
            raw = read_action({"spin": number}, "body", {}, table.wheel.id)
            assert isinstance(raw, Spin)
            events.append(table_procedures.ball_spun(user.username, revolutions, same_direction))
            events.append(sv.Entered(user.username, (raw.number,)))
        if revolutions is not None or same_direction or foreign_object:
            events.append(sv.SpinDeclared(revolutions, same_direction, foreign_object))
        return Plan(events)
    return plan


def settle_spin(user: User, live: LiveTable) -> PlanFn:
    """The settlement of the spin recorded and waiting (or the halt that names a wager that
    cannot be settled exactly)."""
    def plan(conn: Connection) -> Plan:
        pending = live.pending
        if pending is None:
            return Plan([])
        declared = pending.declared or sv.SpinDeclared(None, False, False)
        spun = Spin(pending.outcome[0], declared.revolutions, declared.same_direction,
                    declared.foreign_object)
        try:
            return Plan(live.roulette().check_spin(spun), decision=True)
        except Unsettleable as exc:
            return halts.halt(live, exc)
    return plan


# --- the dice -----------------------------------------------------------------------------

def _die_status(conn: Connection, serial: str) -> tuple[Any, Any]:
    die = conn.execute(sa.select(store.dice).where(store.dice.c.serial == serial)).first()
    latest = conn.execute(sa.select(store.inspections).where(
        store.inspections.c.serial == serial).order_by(store.inspections.c.id.desc())
        .limit(1)).first()
    return die, latest


def offer_dice(user: User, live: LiveTable, serials: list[str]) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        engine = _dice_table(live)
        clause = procedures.clause(live.profile, "dice_offer")
        if len(set(serials)) != len(serials):
            raise ApiError(422, "malformed", "a die is listed twice")
        if len(serials) < equipment.DICE_OFFERED:
            raise Refusal(f"the stickperson offers at least five dice; {len(serials)} offered",
                          clause)
        if live.in_play:
            raise Refusal("dice are in play: a change of dice takes place immediately after "
                          "the next decision", procedures.clause(live.profile, "dice_change"))
        if not engine.shooter:
            raise Refusal("there is no player to offer the dice to",
                          procedures.clause(live.profile, "offer"))
        for serial in serials:
            die, latest = _die_status(conn, serial)
            if die is None or die.table_id != live.id or die.retired:
                raise Refusal(f"die {serial} is not in this table's dice cup", clause)
            if equipment_register.issued_to(conn, serial) != live.id:
                raise Refusal(f"die {serial} has no custody record of its issue to this "
                              "table's dice cup: it cannot be put in play",
                              procedures.clause(live.profile, "dice_cup"))
            if latest is None:
                raise Refusal(f"die {serial} has no inspection record: it cannot be put in play",
                              procedures.clause(live.profile, "dice_spec"))
            if not latest.passed:
                failures = json.loads(latest.failures)
                raise Refusal(f"die {serial} failed its last inspection and cannot be put in "
                              f"play: {failures[0]}", procedures.clause(live.profile, "dice_spec"))
        return Plan([sv.DiceOffered(tuple(serials), engine.shooter, clause)])
    return plan


def select_dice(user: User, live: LiveTable, serials: list[str]) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        engine = _dice_table(live)
        if user.role == "player" and user.username != engine.shooter:
            raise ApiError(403, "forbidden", "only the shooter selects the dice")
        if not live.offered:
            raise Refusal("no dice have been offered", procedures.clause(live.profile, "dice_offer"))
        if len(set(serials)) != 2 or not set(serials) <= set(live.offered):
            raise Refusal("the shooter selects two of the dice offered",
                          procedures.clause(live.profile, "dice_offer"))
        return Plan([sv.DiceSelected(engine.shooter, tuple(serials))])
    return plan


def refuse_dice(user: User, live: LiveTable) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        engine = _dice_table(live)
        clause = procedures.clause(live.profile, "refuse")
        if user.username != engine.shooter:
            raise Refusal(f"it is {engine.shooter or 'nobody'}'s turn to shoot", clause)
        if engine.hand_rolls > 0:
            raise Refusal("the shooter has begun to throw: the dice pass only on completion of a "
                          "decision", procedures.clause(live.profile, "pass_dice"))
        if len(engine.order) < 2:
            raise Refusal("there is no other player to pass the dice to", clause)
        nxt = _next_in_order(engine, user.username)
        return Plan([sv.ShootRefused(user.username, clause), *engine.check_pass_dice(nxt)])
    return plan


def pass_dice(user: User, live: LiveTable) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        engine = _dice_table(live)
        if user.role == "player" and user.username != engine.shooter:
            raise ApiError(403, "forbidden", "only the shooter (or the dealer) passes the dice")
        if len(engine.order) < 2 or engine.shooter not in engine.order:
            raise Refusal("there is no other player to pass the dice to",
                          procedures.clause(live.profile, "pass_dice"))
        events = engine.check_pass_dice(_next_in_order(engine, engine.shooter))
        return Plan(events)
    return plan


def change_dice(user: User, live: LiveTable) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        _dice_table(live)
        if user.role == "player":
            _require_player_at(live, user.username)
        if not live.in_play:
            raise Refusal("no dice are in play")
        if live.change_called:
            raise Refusal("a change of dice has already been called")
        return Plan([sv.DiceChangeCalled(user.username,
                                         procedures.clause(live.profile, "dice_change"))])
    return plan


# --- the supervisor -----------------------------------------------------------------------

def adjust(user: User, live: LiveTable, player: str, amount: Decimal, reason: str) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        _require_player_at(live, player)
        if amount == 0:
            raise ApiError(422, "malformed", "an adjustment moves a non-zero amount")
        if live.chips(player) + amount < 0:
            raise Refusal(f"{player} has {fmt(live.chips(player))} in chips: cannot take back "
                          f"{fmt(-amount)}")
        return Plan([sv.Adjusted(player, amount, reason, user.username)])
    return plan
