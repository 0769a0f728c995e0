"""What a route needs, as typed dependencies: the services, the user, their role, the key.

A route names its caller by the role it needs (``user: Dealer``); FastAPI resolves the bearer
token, then the role check, before the body is validated, so a caller without the role gets 403
whatever they sent. Role checks are here and nowhere else.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated

import sqlalchemy as sa
from fastapi import Depends, Header, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BeforeValidator

from croupier.service.api.clients import Proxies
from croupier.service.auth import Auth, Role, User
from croupier.service.commit import Committer
from croupier.service.errors import ApiError
from croupier.service.ledger import Ledger
from croupier.service.rng import Rng
from croupier.service.runner import Runner
from croupier.service.streaming import Hub
from croupier.service.tables import Tables
from croupier.service.throttle import LoginThrottle
from croupier.service.visibility import EVERY_EVENT


@dataclass
class Services:
    """The server's parts, built once by ``create_app`` and shared by every route."""

    engine: sa.Engine
    ledger: Ledger
    auth: Auth
    rng: Rng
    hub: Hub
    committer: Committer
    throttle: LoginThrottle
    tables: Tables
    runner: Runner
    proxies: Proxies


async def services(request: Request) -> Services:
    """The app's services (kept on ``app.state``)."""
    svc: Services = request.app.state.services
    return svc


Svc = Annotated[Services, Depends(services)]

_bearer = HTTPBearer(auto_error=False)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


async def current_user(svc: Svc, creds: Credentials) -> User:
    """The user of the bearer token (401 without a valid one)."""
    if creds is None:
        raise ApiError(401, "unauthorized", "log in first: Authorization: Bearer <token>")
    user = await svc.auth.user_for_async(creds.credentials)
    if user is None:
        raise ApiError(401, "unauthorized", "the token is unknown, expired or locked")
    return user


Current = Annotated[User, Depends(current_user)]


def allowed(user: User, roles: tuple[str, ...]) -> bool:
    """Whether ``user`` has one of ``roles``: the one test of every check below, and of the
    express lane's (:mod:`croupier.service.api.express`), which asks :data:`PLAYERS`."""
    return user.role in roles


def forbid_unless(user: User, roles: tuple[str, ...]) -> None:
    """403 unless ``user`` has one of ``roles`` (named in the answer, in the order given)."""
    if not allowed(user, roles):
        article = "an" if user.role[:1] in "aeiou" else "a"
        raise ApiError(403, "forbidden",
                       f"{article} {user.role} may not do this (needs {' or '.join(roles)})")


def require(*roles: str) -> Callable[[User], Awaitable[User]]:
    """A dependency: the current user, who must have one of ``roles``."""

    async def check(user: Current) -> User:
        forbid_unless(user, roles)
        return user

    return check


def self_or(*roles: str) -> Callable[[str, User], Awaitable[User]]:
    """A dependency: the current user, who must be the ``player`` named in the path or have one
    of ``roles``."""

    async def check(player: Annotated[str, Path(max_length=64)], user: Current) -> User:
        if user.username != player:
            forbid_unless(user, roles)
        return user

    return check


# Who may call what, named for the people who do it at a casino table.
PLAYER, DEALER, SUPERVISOR = Role.PLAYER, Role.DEALER, Role.SUPERVISOR
CASHIER, AUDITOR, ADMIN = Role.CASHIER, Role.AUDITOR, Role.ADMIN
PLAYERS = (PLAYER,)
COUPON_READERS = (CASHIER, SUPERVISOR, AUDITOR, ADMIN)
"""The staff who read every coupon (a player reads their own)."""

Admin = Annotated[User, Depends(require(ADMIN))]
UserReader = Annotated[User, Depends(require(ADMIN, AUDITOR))]
Player = Annotated[User, Depends(require(*PLAYERS))]
Dealer = Annotated[User, Depends(require(DEALER))]
Supervisor = Annotated[User, Depends(require(SUPERVISOR))]
EquipmentStaff = Annotated[User, Depends(require(ADMIN, SUPERVISOR))]
# Who proposes, approves (a second person) and withdraws a change of a house pay table, and
# who reads the changes.
PayTableStaff = Annotated[User, Depends(require(ADMIN, SUPERVISOR))]
PayTableReader = Annotated[User, Depends(require(ADMIN, SUPERVISOR, AUDITOR))]
# Who reads the house's reports (takings, the day's figures).
ReportReader = Annotated[User, Depends(require(ADMIN, AUDITOR, SUPERVISOR))]
DiceReader = Annotated[User, Depends(require(ADMIN, SUPERVISOR, AUDITOR, DEALER))]
# The staff who read a table's every event (:data:`croupier.service.visibility.EVERY_EVENT`).
RecallReader = Annotated[User, Depends(require(*EVERY_EVENT))]
AlertReader = Annotated[User, Depends(require(SUPERVISOR, AUDITOR, ADMIN))]
AlertRecordReader = Annotated[User, Depends(require(SUPERVISOR, DEALER, ADMIN, AUDITOR))]
AlertAcknowledger = Annotated[User, Depends(require(SUPERVISOR, DEALER, ADMIN))]
Verifier = Annotated[User, Depends(require(AUDITOR, SUPERVISOR, ADMIN))]
CouponIssuer = Annotated[User, Depends(require(CASHIER, SUPERVISOR))]
Staff = Annotated[User, Depends(require(ADMIN, SUPERVISOR, AUDITOR, DEALER, CASHIER))]
PlayerOrStaff = Annotated[User, Depends(self_or(ADMIN, AUDITOR, SUPERVISOR))]
PlayerOrOverseer = Annotated[User, Depends(self_or(SUPERVISOR, AUDITOR, ADMIN))]


@dataclass(frozen=True)
class Acting:
    """The caller of a route open to several roles whose action differs by who takes it (a
    shooter's own pick of the dice or the dealer's record of it; a late bet confirmed by the
    dealer or by the boxperson): the user, and the capacity they act in."""

    user: User
    as_player: bool
    as_dealer: bool


def acting(*roles: str) -> Callable[[User], Awaitable[Acting]]:
    """A dependency: the current user, who must have one of ``roles``, and their capacity."""

    async def check(user: Current) -> Acting:
        forbid_unless(user, roles)
        return Acting(user, as_player=user.role == PLAYER, as_dealer=user.role == DEALER)

    return check


LateConfirmer = Annotated[Acting, Depends(acting(DEALER, SUPERVISOR))]
DiceHandler = Annotated[Acting, Depends(acting(PLAYER, DEALER))]
DiceCaller = Annotated[Acting, Depends(acting(PLAYER, DEALER, SUPERVISOR))]


@dataclass(frozen=True)
class Reading:
    """Who reads records, and how much of them. ``own_only``: a player, who reads only their
    own (their coupons, the rounds they took part in); ``whole``: staff who read a record
    whole (:data:`~croupier.service.visibility.EVERY_EVENT`), where others see their part."""

    user: User
    own_only: bool
    whole: bool


async def coupon_reading(user: Current) -> Reading:
    """Every coupon for :data:`COUPON_READERS`, a player's own for a player, 403 else."""
    if user.role != PLAYER:
        forbid_unless(user, COUPON_READERS)
    return Reading(user, own_only=user.role == PLAYER, whole=user.role in EVERY_EVENT)


async def round_reading(user: Current) -> Reading:
    """A round's record: whole for the staff who read every event, a player's part of the
    rounds they took part in for a player, another's part for other staff."""
    return Reading(user, own_only=user.role == PLAYER, whole=user.role in EVERY_EVENT)


CouponReading = Annotated[Reading, Depends(coupon_reading)]
RoundReading = Annotated[Reading, Depends(round_reading)]

IdemKey = Annotated[str | None, Header(alias="Idempotency-Key", min_length=1, max_length=128)]
TableId = Annotated[str, Path(max_length=64)]
UserName = Annotated[str, Path(max_length=64)]


async def required_key(key: IdemKey = None) -> str:
    """The Idempotency-Key a money-moving request must carry (428 without one)."""
    if key is None:
        raise ApiError(428, "idempotency_key_required",
                       "a money-moving request needs an Idempotency-Key header")
    return key


Key = Annotated[str, Depends(required_key)]

def decimal_digits(value: object) -> object:
    """A number in a path or query as plain decimal digits (an optional minus): Python's
    ``int`` would also take ``1_0``, `` 1``, ``٣`` and pydantic ``1.0``, so two spellings would
    name one round, and a log or a cache keyed by the path would tell them apart.

    >>> decimal_digits("12"), decimal_digits(7)
    ('12', 7)
    >>> decimal_digits("1_0")
    Traceback (most recent call last):
    ...
    ValueError: a whole number in decimal digits, not '1_0'
    """
    if isinstance(value, str) and not _DIGITS.fullmatch(value):
        raise ValueError(f"a whole number in decimal digits, not {value[:20]!r}")
    return value


_DIGITS = re.compile(r"0|-?[1-9][0-9]{0,18}")
WHOLE = BeforeValidator(decimal_digits)
"""Marks an ``int`` read from a path or a query as decimal digits only."""

MOST = 2**31 - 1
"""The largest number a round, an event's place or a pending request is asked by: the most an
integer column holds on PostgreSQL (one more failed there with 500, out of range)."""
LateId = Annotated[int, Path(ge=1, le=MOST), WHOLE]
RoundNo = Annotated[int, Path(ge=1, le=MOST), WHOLE]


def known_query(*names: str) -> Callable[[Request], Awaitable[None]]:
    """A dependency: 422 naming the first query parameter that is not one of ``names`` (an
    unknown or misspelt parameter is refused, never silently ignored) or that is given more
    than once (one reader would take the first, another the last, as with a header)."""

    async def check(request: Request) -> None:
        query = request.query_params
        for name in query:
            if name not in names:
                expected = ", ".join(names) if names else "none"
                raise ApiError(422, "malformed", f"query.{name}: unknown query parameter; "
                               f"expected {expected}")
            if len(query.getlist(name)) > 1:
                raise ApiError(422, "malformed", f"query.{name}: given more than once; a "
                               "request names each parameter once")

    return check
