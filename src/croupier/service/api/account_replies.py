"""What the service's own resources answer (``/health``, ``/auth``, ``/users``, ``/tables``
and a table's state, ``/web/offer``), as models for ``/docs``.

As :mod:`croupier.service.api.replies`, each documents a reply the route builds as a dict and
sends as it is (``response_model=None``, the model named in ``responses``), and
``tests/service/test_replies.py`` reads real answers back through these models, field by
field. Money is a decimal string, never a binary float.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from croupier.service.api.replies import Chips, Documented, EventShown


class Health(Documented):
    status: str = Field(examples=["ok"])
    database: str = Field(description="the database's dialect: ``sqlite`` or ``postgresql``")
    rng: str = Field(description="the kind of generator (``os``; a test seed is never shown)")
    tables: int = Field(description="the tables this node serves")


class LoggedIn(Documented):
    token: str = Field(description="the bearer token for ``Authorization``")
    username: str
    role: str


class LoggedOut(Documented):
    status: str = Field(examples=["logged out"])


class PasswordChanged(Documented):
    """The holder's own password is set: every session of the account has ended."""

    username: str
    changed: bool = Field(description="always true: log in again with the new password")


class Me(Documented):
    username: str
    role: str


class Account(Documented):
    """An account as ``GET /users`` lists it, with this node's log-in throttle's counts."""

    username: str
    role: str
    locked: bool
    failed_logins: int
    locked_until: float | None = Field(description="seconds since the epoch until which only "
                                       "addresses with no recent failure are checked")
    lockouts: int = Field(description="times the account has been guarded so")
    deleted: bool
    made_by: str | None = Field(description="the admin through whom it was made")


class AccountChanged(Documented):
    """An account made, locked, unlocked, deleted or given a role: the fields it changed."""

    username: str
    role: str | None = Field(default=None, description="made or given a role")
    made_by: str | None = Field(default=None, description="made or given a role: the admin")
    locked: bool | None = Field(default=None, description="locked or unlocked")
    deleted: bool | None = Field(default=None, description="deleted: true")


class TableListed(Documented):
    id: str
    game: str
    profile: str
    players: int = Field(description="players present")
    capacity: int
    entry: str = Field(description="how results come: ``rng`` or ``physical``")


class Wagered(Documented):
    player: str
    wager: str = Field(description="the wager's key on the layout (``place_win:6``)")
    stake: str


class VoidAsked(Documented):
    round: int
    by: str
    reason: str


class Halted(Documented):
    player: str | None = Field(default=None, description="staff only")
    wager: str | None = Field(default=None, description="staff only")
    reason: str
    outcome_seq: int


class LateBetWaiting(Documented):
    id: int
    player: str
    wager: str
    qualifier: Any = Field(description="the wager's number or numbers, if any")
    amount: str
    confirmed_by: dict[str, str] = Field(description="who has confirmed it, by duty")


class TableState(Documented):
    """A table as ``GET /tables/{id}`` shows it to the caller (a player sees only their own
    chips and wagers). The fields after ``decision`` are the game's own: craps's point and
    shooter, roulette's last number and wheel, the dice and late bets where kept."""

    id: str
    game: str
    profile: str
    options: dict[str, Any] = Field(description="the table's options, as opened")
    capacity: int
    round: int
    seq: int = Field(description="the table's last event")
    betting_open: bool
    dealer: str | None
    players: dict[str, Chips]
    layout: list[Wagered]
    void_asked: VoidAsked | None
    halted: Halted | None
    decision: EventShown | None = Field(description="the last roll or spin")
    entry: str = Field(description="``rng`` or ``physical``")
    point: int | None = Field(default=None, description="craps")
    shooter: str | None = Field(default=None, description="craps")
    hand_rolls: int | None = Field(default=None, description="craps: rolls of this hand")
    last_number: str | int | None = Field(default=None, description="roulette")
    wheel: str | None = Field(default=None, description="roulette: the wheel's id")
    late_bets: list[LateBetWaiting] | None = Field(default=None)
    dice_in_play: list[str] | None = Field(default=None)
    dice_offered: list[str] | None = Field(default=None)
    dice_change_called: bool | None = Field(default=None)
    seated: list[str] | None = Field(default=None, description="where only seated players "
                                     "wager (mini-craps)")


class Offer(Documented):
    """What a table offers under a profile and options (``GET /web/offer``): the wagers and
    the clause permitting each, the pay table, and what the page draws the felt and the legal
    moves from. The fields after ``pays`` are the game's own."""

    game: str
    profile: str
    title: str
    wagers: dict[str, str] = Field(description="each wager offered and its clause")
    pays: dict[str, str] = Field(description="the pay table in force, by pay key")
    off_on_come_out: list[str] | None = None
    clauses: dict[str, str] | None = None
    unit: str | None = None
    min_bet: str | None = None
    max_bet: str | None = None
    vig: str | None = None
    odds: str | None = None
    shooter: bool | None = None
    calls: dict[str, list[str]] | None = None
    defs: dict[str, dict[str, Any]] | None = Field(default=None, description="each wager's "
                                                   "definition, by id")
    spots: dict[str, dict[str, Any]] | None = Field(default=None, description="each spot of "
                                                    "the felt, by key")
    points: list[int] | None = None
    zero_rule: str | None = Field(default=None, description="roulette: how an even-money "
                                  "wager fares on a zero")
    wheel: dict[str, Any] | None = Field(default=None, description="roulette: the wheel")
    boxes: list[dict[str, Any]] | None = Field(default=None, description="roulette: the "
                                               "layout's number boxes")
