"""Which of a table's events each role may see: one rule for the stream, the event list and
recall.

The table's staff who read its records (dealer, supervisor, auditor, admin) see every event.
Anyone else (a player, a cashier) sees the table's public events, what everyone standing at
the table sees (the rolls and spins, the shooter, the calls, the voids, the procedures), and
a player also their own part: their chips in and out, wagers, settlements, coupons, calls
and adjustments. Never another player's part (a late bet waiting included), nor a fairness
monitor's alert or its acknowledgement (a supervisor's matter, ``GET /tables/{id}/alerts``).

An event concerns a player when it names one (its ``player`` field), except the shooter's acts
in turn, done in everyone's sight (:data:`SHOOTERS_ACTS`: the dice selected, a refusal to
shoot). Two public events carry
other people's parts, which are taken out rather than the event hidden: a table's opening
lists each player's starting chips (only the viewer's own are kept), and a halt names the
wager that could not be settled (the halt is kept, its wager and reason are not).

>>> bet = {"type": "bet", "player": "bob", "wager": "field", "amount": "5.00"}
>>> view("dealer", "dan", bet) == bet, view("player", "alice", bet)
(True, None)
>>> view("player", "bob", bet) == bet
True
>>> view("player", "alice", {"type": "roll", "dice": [3, 4]})
{'type': 'roll', 'dice': [3, 4]}
>>> view("cashier", "cash", {"type": "integrity_alert", "monitor": "chi2"}) is None
True
>>> view("player", "alice", {"type": "procedure", "name": "alert_acknowledged"}) is None
True
>>> view("player", "alice", {"type": "table_halted", "player": "bob", "wager": "field",
...                          "reason": "r", "outcome_seq": 9, "clause": "c"})
{'type': 'table_halted', 'outcome_seq': 9, 'clause': 'c'}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from croupier.service.auth import Role

EVERY_EVENT = (Role.DEALER, Role.SUPERVISOR, Role.AUDITOR, Role.ADMIN)
"""The roles that see every event of a table (the table's staff who read its records)."""

STAFF_ONLY = frozenset({"integrity_alert"})
"""Kinds naming no player that only :data:`EVERY_EVENT` roles see: a fairness monitor's
alarm is for the supervisor, who decides what follows (the dice change it calls is public)."""

STAFF_PROCEDURES = frozenset({"alert_acknowledged"})
"""Procedures (``procedure`` events, by name) only :data:`EVERY_EVENT` roles see: a fairness
alert's acknowledgement carries the supervisor's words about the alert, which is theirs."""

SHOOTERS_ACTS = frozenset({"dice_selected", "shoot_refused"})
"""Kinds naming a player that every role sees: the shooter's acts at the table."""

# A public event with another person's part in it: the fields taken out for anyone else.
_PRIVATE_FIELDS = {"table_halted": ("player", "wager", "reason")}

Item = dict[str, Any]


def view(role: str, username: str, event: Item) -> Item | None:
    """``event`` (as the API shows it: ``type`` and its fields) as ``username`` in ``role`` may
    see it, or None if they may not see it at all."""
    if role in EVERY_EVENT:
        return event
    kind = event.get("type")
    if kind in STAFF_ONLY or (kind == "procedure" and event.get("name") in STAFF_PROCEDURES):
        return None
    player = event.get("player")
    if player is not None and player != username and kind not in SHOOTERS_ACTS:
        private = _PRIVATE_FIELDS.get(str(kind))
        if private is None:
            return None
        return {k: v for k, v in event.items() if k not in private}
    if isinstance(event.get("players"), list):  # an opening: each player's starting chips
        return {**event, "players": [p for p in event["players"]
                                     if isinstance(p, list) and p[:1] == [username]]}
    return event


def views(role: str, username: str, events: Iterable[Item]) -> list[Item]:
    """The events ``username`` in ``role`` may see, in order, each as they may see it."""
    out: list[Item] = []
    for event in events:
        seen = view(role, username, event)
        if seen is not None:
            out.append(seen)
    return out


def table_view(role: str, username: str, state: Item) -> Item:
    """A table's state (``GET /tables/{id}``) as ``username`` in ``role`` may see it, by the
    rule the events follow: the staff all of it; anyone else the table and their own chips
    and wagers, never another player's (a halt without whose wager it stopped at), and the
    last decision as its event is seen."""
    if role in EVERY_EVENT:
        return state
    shown = {**state, "players": {p: b for p, b in state.get("players", {}).items()
                                  if p == username},
             "layout": [w for w in state.get("layout", []) if w.get("player") == username]}
    if isinstance(state.get("late_bets"), list):  # another's late bet is their wager
        shown["late_bets"] = [b for b in state["late_bets"]
                              if isinstance(b, dict) and b.get("player") == username]
    decision = state.get("decision")
    if isinstance(decision, dict):
        shown["decision"] = view(role, username, decision)
    halted = state.get("halted")
    if isinstance(halted, dict):
        private = _PRIVATE_FIELDS["table_halted"]
        shown["halted"] = {k: v for k, v in halted.items() if k not in private}
    return shown
