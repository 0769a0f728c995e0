"""Chips in and out at a table: a player's wallet to their place at the table and back.

A player joins a table with their first chips (last in the order around it; at craps the dice
are offered to the first player) and leaves it when they cash out everything with nothing on
the layout (a shooter passes the dice on, except while a point stands: the shooter throws until
the decision). Wagers are never cashed out; nobody buys in beyond the table's places.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.events import Event, taken_from_hand
from croupier.money import fmt
from croupier.rules.citations import cite
from croupier.service import cage, store
from croupier.service import events as sv
from croupier.service.auth import User
from croupier.service.ledger import Ledger
from croupier.service.live import LiveTable
from croupier.service.plans import Plan
from croupier.service.procedures.clauses import clause

PlanFn = Callable[[Connection], Plan]


def require_player_at(live: LiveTable, player: str, clause: str | None = None) -> None:
    """Refuse anything but a buy-in from a player without chips at the table, citing
    ``clause`` (by default the profile's clause on what a wager is made with: a wager without
    chips is credit)."""
    if player not in live.present():
        raise Refusal(f"{player} has no chips at table {live.id}: buy in through the cashier "
                      "first", cite(live.profile, "chips") if clause is None else clause)


def buy_in(ledger: Ledger, user: User, live: LiveTable, amount: Decimal) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        player = user.username
        present = live.present()
        # Where only seated players wager (mini-craps), the capacity is the seats.
        if (player not in present and len(present) >= live.capacity
                and not live.table.has_seating()):
            raise Refusal(f"there is no room at table {live.id} ({live.capacity} places)",
                          clause(live.profile, "room"))
        balance = ledger.wallet_balance(conn, player, lock=True)
        if store.cents(amount) > balance:
            raise Refusal(f"{player}'s wallet holds {fmt(store.dollars(balance))}: it cannot "
                          f"buy {fmt(amount)} in chips", cite(live.profile, "wallet"))
        require_unheld_wallet(conn, player, store.cents(amount), balance)
        events: list[Event] = [sv.ChipsIn(player, amount), *live.procedures.joined(player)]
        return Plan(events, wallet=[(player, -store.cents(amount), "buy_in")])
    return plan


def require_unheld_wallet(conn: Connection, player: str, cents: int, balance: int) -> None:
    """Refuse spending ``cents`` of ``player``'s wallet (of ``balance``) that a cash-out asked at
    the cage and not yet decided holds: the money asked in cash is not also bought in chips
    (a payment would then find it gone, or the request stand over money spent)."""
    held = cage.held(conn, player)
    if held > 0 and balance - cents < held:
        raise Refusal(f"{fmt(store.dollars(held))} of {player}'s wallet is held by a cash-out "
                      "asked at the cage and not yet paid: at most "
                      f"{fmt(store.dollars(max(balance - held, 0)))} can be spent until it is "
                      "paid, withdrawn or declined", cage.CLAUSE)


def require_unheld_chips(live: LiveTable, player: str, amount: Decimal) -> None:
    """Refuse a wager of ``amount`` that would put down chips an adjustment asked at ``live``
    holds (:func:`held_chips`): a held chip is neither cashed out nor wagered until the
    adjustment is decided, so a lost wager cannot dodge it. (For the wagers' plans.)"""
    held = held_chips(live, player)
    if held > 0 and live.chips(player) - amount < held:
        raise Refusal(f"{fmt(held)} of {player}'s chips are held while an adjustment taking "
                      "them back waits for a second supervisor: at most "
                      f"{fmt(max(live.chips(player) - held, Decimal(0)))} can be wagered until "
                      "it is decided", live.procedures.adjustment_clause())


def within_hold(live: LiveTable, player: str, events: list[Event]) -> list[Event]:
    """``events`` (a wager's, as checked), refused if what they take from ``player``'s hand,
    the commission paid as a wager is made included, would leave less than the chips held
    (:func:`require_unheld_chips` sees the stake alone, before the table prices the wager)."""
    if held_chips(live, player) > 0:
        require_unheld_chips(live, player, taken_from_hand(events, player))
    return events


def held_chips(live: LiveTable, player: str) -> Decimal:
    """The chips of ``player`` held at ``live``: what the adjustments asked there to take
    chips back from them, still waiting for a second supervisor, would take. They stay in
    hand (a player cannot dodge the adjustment by cashing them out first) until it is
    decided."""
    return sum((-asked.amount for asked in live.adjustments_asked.values()
                if asked.player == player and asked.amount < 0), Decimal(0))


def cash_out(user: User, live: LiveTable, amount: Decimal | None) -> PlanFn:
    def plan(conn: Connection) -> Plan:
        player = user.username
        require_player_at(live, player)
        chips = live.chips(player)
        out = chips if amount is None else amount
        if out > chips:
            raise Refusal(f"{player} has {fmt(chips)} in chips at the table (wagers on the layout "
                          f"are not cashed out): cannot cash out {fmt(out)}",
                          cite(live.profile, "wallet"))
        held = held_chips(live, player)
        if held > 0 and chips - out < held:
            raise Refusal(f"{fmt(held)} of {player}'s chips are held while an adjustment "
                          "taking them back waits for a second supervisor: at most "
                          f"{fmt(max(chips - held, Decimal(0)))} can be cashed out until it is "
                          "decided", live.procedures.adjustment_clause())
        events: list[Event] = [sv.ChipsOut(player, out)] if out > 0 else []
        leaving = out == chips and live.on_table(player) == 0
        if leaving:
            passed, leaving = live.procedures.leaving(player)
            events.extend(passed)
        if leaving:
            events.append(sv.Left(player))
        if not events:
            raise Refusal(f"{player} has no chips to cash out", cite(live.profile, "wallet"))
        wallet = [(player, store.cents(out), "cash_out")] if out > 0 else []
        return Plan(events, wallet=wallet, extra={"left": leaving})
    return plan
