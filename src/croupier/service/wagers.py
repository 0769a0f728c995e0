"""A player's wagers at a live table: made, taken down or reduced, called on or off, called
down on the win or off for the point; a seat taken or left.

Each request is read as the game's own action and checked by the table: a bet in one call
(:meth:`croupier.games.Game.take`, the server's own checks of it passed in as a
:class:`~croupier.games.Vetting`), the other requests through
:func:`croupier.service.reading.game_action` and :meth:`croupier.table.Table.check`. Around it
the server's procedures say whether it may be made now: betting closed (a late bet waits for
two people where the profile and the game take one; :mod:`croupier.service.procedures.late_bets`),
a match play coupon put down with it, the seats of a mini-craps table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.events import taken_from_hand
from croupier.games import Vetting
from croupier.money import parse_amount
from croupier.rules import load_profile
from croupier.service import acting, coupons, layouts
from croupier.service.acting import Asked, Desk, Steps
from croupier.service.auth import User
from croupier.service.cashier import held_chips, require_player_at, require_unheld_chips
from croupier.service.limits import Limits
from croupier.service.live import LiveTable
from croupier.service.plans import Plan, Reply
from croupier.service.procedures import clauses
from croupier.service.reading import game_action

PlanFn = Callable[[Connection], Plan]


def _clause(live: LiveTable, name: str) -> str:
    rules = live.game.rules(load_profile(live.profile))
    return rules.clause(name) if rules is not None else ""


async def place(desk: Desk, asked: Asked) -> Reply:
    """A player's bet, asked over HTTP (``asked.body``: the bet's fields, as JSON), run at its
    table (:func:`acting.run`); with a match play coupon (``coupon``: its serial) where the
    table's profile takes them. Its amount is read once, with the rest of the wager, by the
    game's reader, and held to the house's limit on a wager (:meth:`Limits.check_wager`)."""
    body, user = asked.body or {}, asked.user
    serial = body.get("coupon")
    limits = desk.ledger.limits

    def make(live: LiveTable) -> PlanFn:
        if serial is None:
            return bet(user, live, body, limits)
        clauses.check_coupons(live.profile, live.game.name)

        def plan(conn: Connection) -> Plan:
            # Read before the wager, as the coupon is redeemed with it: named as the reader
            # names it; held to the house's limit in the plan, once the key's reply is looked
            # up, so a coupon wager asked again after the house lowered it gets its reply.
            amount = parse_amount(body.get("amount"), "body.amount")
            limits.check_wager(amount)
            return coupons.redeeming(bet(user, live, body, limits, coupon=True),
                                     coupons.Redemption(serial, user.username, body["wager"],
                                                        amount), live)(conn)
        return plan

    return await acting.run(desk, asked, Steps(make))


def bet(user: User, live: LiveTable, body: Mapping[str, Any], limits: Limits, *,
        coupon: bool = False) -> PlanFn:
    """A wager (``coupon``: chips put down with a match play coupon of the same value, a
    stake of twice the body's ``amount``). Where nothing is checked after the table's check
    (no coupon, no chips held), the table folds the wager in and answers in the same call."""
    def plan(conn: Connection) -> Plan:
        held = held_chips(live, user.username)
        taken = live.game.take(live.table, "bet", body, user.username,
                               _vetting(conn, user, live, limits, coupon, held))
        events = taken.events
        if events is None and coupon:
            events = coupons.coupon_bet(live, taken.action)
        if events is not None:
            if held > 0:  # the stake and what the table charged with it (a commission)
                require_unheld_chips(live, user.username, taken_from_hand(events, user.username))
            return Plan(events, answered=taken.answer)
        late = live.procedures.late
        if late is None:
            raise Refusal('the dealer has called "No more bets"',
                          live.procedures.closed_clause())
        return late.ask(taken.action)
    return plan


def _vetting(conn: Connection, user: User, live: LiveTable, limits: Limits, coupon: bool,
             held: Decimal) -> Vetting:
    """The server's checks of a wager around the game's reading and the table's check, in
    this order: the player is at the table (before the body is read); the amount is within the
    house's limit on a wager and puts down no chips an adjustment holds (only an amount
    above what both pass for certain is put to them; while chips are held, every amount is);
    then the table's check; then, for a wager the profile takes only on an approved layout,
    one is in service (the register read in the bet's transaction). The table checks the
    wager unless it comes with a coupon or betting is closed (a late bet); it folds it in and
    answers too unless a coupon or held chips are checked after it."""
    player = user.username

    def vet(action: Any) -> None:
        limits.check_wager(action.amount)
        require_unheld_chips(live, player, action.amount)

    up_to = (Decimal("-Infinity") if held > 0
             else Decimal(limits.most_wager).scaleb(-2))
    checked = not coupon and live.betting_open
    at = (live.seq + 1, live.round) if checked and held == 0 else None
    return Vetting(checked, up_to, lambda: require_player_at(live, player), vet,
                   layouts.layout_clauses(live.game.name, live.profile).keys(),
                   lambda action: layouts.require_layout(conn, live, action.wager), at)


def take_down(user: User, live: LiveTable, body: Mapping[str, Any],
              amount: Decimal | None) -> PlanFn:
    """A wager removed (``amount`` None) or reduced by ``amount``."""
    def plan(conn: Connection) -> Plan:
        player = user.username
        require_player_at(live, player)
        verb, said = ("remove", None) if amount is None else ("reduce", str(amount))
        action = game_action(live, verb, body, player, said)
        if not live.betting_open:
            raise live.procedures.removal_closed()
        if amount is not None and (player, action.wager) in live.coupons:
            raise Refusal("a wager with a match play coupon is taken down whole, not reduced",
                          _clause(live, "coupon_clause"))
        events = live.table.check(action)
        return Plan(events + coupons.coupons_after(live, events))
    return plan


def call(user: User, live: LiveTable, body: Mapping[str, Any], verb: str) -> PlanFn:
    """A call on a wager: ``on`` or ``off`` for come-out rolls, ``down_on_win``,
    ``off_during_point`` (the game's reader and table say which wagers take which)."""
    def plan(conn: Connection) -> Plan:
        player = user.username
        require_player_at(live, player)
        action = game_action(live, verb, body, player)
        if not live.betting_open:
            raise Refusal(f"no wager is called {verb.replace('_', ' ')} once betting is closed",
                          live.procedures.closed_clause())
        return Plan(live.table.check(action))
    return plan


def seat(user: User, live: LiveTable, seated: bool) -> PlanFn:
    """A seat taken (or left) where only seated players wager (mini-craps, 13:69F-1.3(f))."""
    def plan(conn: Connection) -> Plan:
        player = user.username
        require_player_at(live, player)
        verb = "sit" if seated else "stand"
        action = live.game.read_action({verb: True, "player": player}, "body", live.present(),
                                       live.table)
        table = live.table
        if (seated and table.has_seating() and player not in table.seated()
                and len(table.seated()) >= live.capacity):
            raise Refusal(f"all {live.capacity} seats at this {live.game.name} table are taken",
                          _clause(live, "seating_clause"))
        return Plan(table.check(action))
    return plan
