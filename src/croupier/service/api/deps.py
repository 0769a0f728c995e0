"""What a route needs, as typed dependencies: the services, the user, their role, the key.

A route names its caller by the role it needs (``user: Dealer``); FastAPI resolves the bearer
token, then the role check, before the body is validated, so a caller without the role gets 403
whatever they sent. Role checks are here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated

import sqlalchemy as sa
from fastapi import Depends, Header, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from croupier.service.api.clients import Proxies
from croupier.service.auth import Auth, User
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


def forbid_unless(user: User, roles: tuple[str, ...]) -> None:
    """403 unless ``user`` has one of ``roles`` (named in the answer, in the order given)."""
    if user.role not in roles:
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
Admin = Annotated[User, Depends(require("admin"))]
UserReader = Annotated[User, Depends(require("admin", "auditor"))]
Player = Annotated[User, Depends(require("player"))]
Dealer = Annotated[User, Depends(require("dealer"))]
Supervisor = Annotated[User, Depends(require("supervisor"))]
LateConfirmer = Annotated[User, Depends(require("dealer", "supervisor"))]
DiceHandler = Annotated[User, Depends(require("player", "dealer"))]
DiceCaller = Annotated[User, Depends(require("player", "dealer", "supervisor"))]
EquipmentStaff = Annotated[User, Depends(require("admin", "supervisor"))]
DiceReader = Annotated[User, Depends(require("admin", "supervisor", "auditor", "dealer"))]
# The staff who read a table's every event (:data:`croupier.service.visibility.EVERY_EVENT`).
RecallReader = Annotated[User, Depends(require(*EVERY_EVENT))]
AlertReader = Annotated[User, Depends(require("supervisor", "auditor", "admin"))]
AlertRecordReader = Annotated[User, Depends(require("supervisor", "dealer", "admin", "auditor"))]
AlertAcknowledger = Annotated[User, Depends(require("supervisor", "dealer", "admin"))]
Verifier = Annotated[User, Depends(require("auditor", "supervisor", "admin"))]
CouponIssuer = Annotated[User, Depends(require("cashier", "supervisor"))]
CouponReader = Annotated[User, Depends(require("cashier", "supervisor", "auditor", "admin"))]
Staff = Annotated[User, Depends(require("admin", "supervisor", "auditor", "dealer", "cashier"))]
PlayerOrStaff = Annotated[User, Depends(self_or("admin", "auditor", "supervisor"))]
PlayerOrOverseer = Annotated[User, Depends(self_or("supervisor", "auditor", "admin"))]

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

LateId = Annotated[int, Path(ge=1, le=2**31)]
RoundNo = Annotated[int, Path(ge=1, le=2**31)]


def known_query(*names: str) -> Callable[[Request], Awaitable[None]]:
    """A dependency: 422 naming the first query parameter that is not one of ``names`` (an
    unknown or misspelt parameter is refused, never silently ignored)."""

    async def check(request: Request) -> None:
        for name in request.query_params:
            if name not in names:
                expected = ", ".join(names) if names else "none"
                raise ApiError(422, "malformed", f"query.{name}: unknown query parameter; "
                               f"expected {expected}")

    return check
