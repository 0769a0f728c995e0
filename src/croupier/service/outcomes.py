"""Rolls and spins: the outcome recorded first, then settled.

An outcome is drawn by the RNG (the table says how many equally likely values each part takes,
:meth:`~croupier.table.Table.draw_ranges`, and what the draw's indices give) or entered by the
dealer (read by the game's reader as a transcript's ``roll`` or ``spin``). It is written on its
own (:meth:`~croupier.service.runner.Runner.run_outcome`) with what the family's procedures
record before it (late bets lapsing, the ball spun) and what the dealer declared of a spin; the
settlement is the table's answer to the family's decision action for it, with what follows a
decision (the stickperson's call, a change of dice due). A wager that cannot be settled exactly
halts the table instead (:mod:`croupier.service.halts`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import Connection

from croupier.errors import Refusal, Unsettleable
from croupier.events import Event
from croupier.service import coupons, halts, people, table_procedures
from croupier.service import events as sv
from croupier.service.auth import User
from croupier.service.live import LiveTable
from croupier.service.plans import OUTCOME_CLAUSE, Plan
from croupier.service.rng import Rng

PlanFn = Callable[[Connection], Plan]


def on_duty(user: User, live: LiveTable) -> list[Event]:
    """The record that ``user`` deals the table from now on, unless they already do."""
    if live.dealer == user.username:
        return []
    return [table_procedures.dealer_on_duty(user.username, live.id,
                                            live.procedures.dealer_clause())]


def no_more_bets(user: User, live: LiveTable) -> PlanFn:
    """The dealer's call: roulette's "No more bets"; at craps, the dice are in the air."""
    def plan(conn: Connection) -> Plan:
        if not live.betting_open:
            raise Refusal("betting is already closed", live.procedures.closed_clause())
        return Plan([*on_duty(user, live),
                     sv.BettingClosed(user.username, live.procedures.closed_clause())])
    return plan


def check_replacement(conn: Connection, user: User, live: LiveTable) -> None:
    """Refuse the outcome that replaces a voided entry if ``user`` is not a person
    independent of the supervisor who voided it (docs/two-person-rules.md): one supervisor
    voids an entered result alone, so a second person records what replaces it, and no one
    both strikes a result and puts another in its place."""
    voided = live.replacing
    if voided is None:
        return
    why = people.not_independent(conn, voided.by, user.username)
    if why is not None:
        raise Refusal(f"round {voided.decision}'s entered result was voided by {voided.by}: "
                      "the outcome that replaces it is recorded by a person independent of "
                      f"the one who voided it ({why})", OUTCOME_CLAUSE)


def check_no_own_wager(conn: Connection, user: User, live: LiveTable) -> None:
    """Refuse a result ``user`` enters where a player who is one person with them
    (:func:`people.one_person`: an account of their own line) has a wager on the layout
    (docs/two-person-rules.md): the dealer who says what the dice or the wheel showed does not
    decide their own wagers. Read only for an entered result (the bets pay nothing for it)."""
    players = {player for player, _, _ in live.table.layout()}
    if not players:
        return
    own = sorted(players & people.one_person(conn, user.username))
    if own:
        verb = "is" if len(own) == 1 else "are"
        raise Refusal(f"{user.username} may not enter the result at {live.id}: "
                      f"{', '.join(own)}, with a wager on the layout, {verb} one person with "
                      f"{user.username} (accounts of one line); a dealer independent of every "
                      "player with a wager enters it", OUTCOME_CLAUSE)


def record(user: User, live: LiveTable, rng: Rng, entered: Any,
           declared: dict[str, Any] | None = None) -> PlanFn:
    """The outcome, recorded before anything is settled: the RNG's (drawn once, however
    often the plan runs) or the one the dealer entered (``entered``: the game's action for
    it), with what the dealer declared of it (``declared``, for the RNG's; an entered
    action carries its own). Where an outcome is already recorded and waits, nothing is
    drawn: the request settles that one."""
    drawn: list[Any] = []  # this request's one draw, kept if its transaction is run again

    def plan(conn: Connection) -> Plan:
        if live.pending is not None:
            return Plan([])
        procedures = live.procedures
        procedures.check_outcome(conn, entered is not None)
        check_replacement(conn, user, live)
        if entered is None:
            procedures.check_drawn(declared or {})
            if not drawn:
                drawn.append(_draw_once(live, rng))
            said = declared or {}
            events = [*on_duty(user, live), *procedures.before_outcome(user, False, said),
                      drawn[0]]
        else:
            check_no_own_wager(conn, user, live)
            outcome, said = procedures.entered(entered)
            events = [*on_duty(user, live), *procedures.before_outcome(user, True, said),
                      sv.Entered(user.username, outcome)]
        if said.get("revolutions") is not None or any(
                said.get(flag) for flag in ("same_direction", "foreign_object")):
            events.append(sv.SpinDeclared(said.get("revolutions"),
                                          bool(said.get("same_direction")),
                                          bool(said.get("foreign_object"))))
        return Plan(events)
    return plan


def _draw_once(live: LiveTable, rng: Rng) -> sv.Drawn:
    """The RNG's outcome at ``live``: the one drawn before whose record failed to commit
    (:attr:`LiveTable.unrecorded`; no request draws again what another drew), else a new draw,
    kept there until its record commits."""
    ranges = tuple(live.table.draw_ranges())
    if live.unrecorded is not None and live.unrecorded[0] == ranges:
        return live.unrecorded[1]
    draw = rng.draw(ranges)
    # The event holds the plain string its record holds (and the codec's plain path writes),
    # as an event read back from the ledger does.
    event = sv.Drawn(draw.source.value, draw.raw, live.table.outcome_from(draw.outcome))
    live.unrecorded = (ranges, event, live.seq)
    return event


def settle(user: User, live: LiveTable) -> PlanFn:
    """The settlement of the outcome recorded and waiting: every wager, the coupons, and
    what follows a decision; or, where a wager cannot be settled exactly, the halt naming it."""
    def plan(conn: Connection) -> Plan:
        pending = live.pending
        if pending is None:
            return Plan([])  # settled already
        try:
            decided: list[Event] = live.table.check(live.procedures.decision(pending))
        except Unsettleable as exc:
            return halts.halt(live, exc)
        events = [*decided, *coupons.coupons_after(live, decided),
                  *live.procedures.after_decision(user, decided)]
        return Plan(events, decision=True)
    return plan
