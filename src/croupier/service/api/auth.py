"""``/auth``: log in for a bearer token, log out, who am I, choose your own password."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from fastapi import APIRouter, Request

from croupier.service.api.account_replies import LoggedIn, LoggedOut, Me, PasswordChanged
from croupier.service.api.deps import Credentials, Current, Svc
from croupier.service.api.models import Login, NewPassword
from croupier.service.api.replies import answers
from croupier.service.auth import LoginFailed
from croupier.service.errors import ApiError
from croupier.service.install import password_problem

router = APIRouter(prefix="/auth", tags=["auth"])
LOGIN_FAILED = "wrong name or password, or the account is locked"
CHECKING = 2
"""Password checks (a log-in, a change of one's own password) running at once, each in a
thread of its own: argon2 runs one at a time anyway (``auth._VERIFIER``)."""
WAITING = 256
"""Password checks waiting for one of those threads (some seconds of argon2); past them a
log-in is answered 503 at once rather than queued without end."""
T = TypeVar("T")


class PasswordChecks:
    """The password checks of one server (a log-in, a change of one's own password): each
    runs on a thread of their own (at most :data:`CHECKING`), never in the threadpool every
    sync route shares. As a sync route a log-in waited there, so a flood of log-ins under
    unknown names (each a dummy argon2 check, queued on the one verifier thread) held all of
    its threads and stalled every bet as long as the queue lasted (300 log-ins: a buy-in took
    21 s). Past :data:`WAITING` waiting, a check is answered 503 at once."""

    def __init__(self) -> None:
        self.limiter = anyio.CapacityLimiter(CHECKING)
        self.asked = 0
        """Checks asked and not done (counted on the event loop, so a burst is counted whole
        before any of it waits)."""

    @classmethod
    def of(cls, request: Request) -> PasswordChecks:
        state = request.app.state
        checks: PasswordChecks | None = getattr(state, "password_checks", None)
        if checks is None:
            checks = state.password_checks = cls()
        return checks

    @contextlib.contextmanager
    def turn(self) -> Iterator[PasswordChecks]:
        """A place among the checks, or 503 with Retry-After when the queue is full (asked
        before the throttle counts a guess, so a refusal for the crowd costs the account
        nothing)."""
        if self.asked >= CHECKING + WAITING:
            raise ApiError(503, "busy", f"{WAITING} log-ins are waiting for their password "
                           "check: try again in a second", headers={"Retry-After": "1"})
        self.asked += 1
        try:
            yield self
        finally:
            self.asked -= 1

    async def run(self, check: Callable[..., T], *args: Any) -> T:
        """``check(*args)`` on one of the checks' threads."""
        return await anyio.to_thread.run_sync(check, *args, limiter=self.limiter)


@router.post("/login", response_model=None, responses={
    **answers(LoggedIn), 429: {"description": "throttled: wait Retry-After"}})
async def login(request: Request, body: Login, svc: Svc) -> dict[str, Any]:
    """A bearer token. Wrong guesses are throttled per account and client address, with
    back-off, and capped per account across every address (429 with ``Retry-After``); no
    account is locked for everyone by them, and the right password from an address with no
    recent failure at the account logs in at once (docs/login.md). An unknown name, a
    deleted or locked account and a wrong password answer alike."""
    with PasswordChecks.of(request).turn() as checks:
        address = _reserve(request, svc, body.username)
        try:
            token, user = await checks.run(svc.auth.login, body.username, body.password)
        except LoginFailed:
            raise ApiError(401, "unauthorized", LOGIN_FAILED) from None
    svc.throttle.succeeded(body.username, address)
    return {"token": token, "username": user.username, "role": user.role}


@router.post("/logout", response_model=None, responses=answers(LoggedOut))
def logout(user: Current, creds: Credentials, svc: Svc) -> dict[str, str]:
    """End this token's session, and close at once every stream it opened on this server
    (one on another node closes at that node's next check of the token)."""
    if creds is not None:
        svc.auth.logout(creds.credentials)
        svc.hub.end_token(creds.credentials)
    return {"status": "logged out"}


@router.post("/me/password", response_model=PasswordChanged,
             responses={429: {"description": "throttled: wait Retry-After"}})
async def change_password(request: Request, body: NewPassword, user: Current,
                          svc: Svc) -> dict[str, Any]:
    """Choose your own password (the one an admin chose when making the account is theirs as
    much as yours: until you choose your own, the two-person rules count your account as theirs,
    docs/two-person-rules.md). The current password is asked and its guesses throttled as log-ins
    are; every session of the account ends."""
    problem = password_problem(user.username, body.new) or (
        "the new password is the current one: choose another" if body.new == body.current
        else None)
    if problem:
        raise ApiError(422, "malformed", f"body.new: {problem}")
    with PasswordChecks.of(request).turn() as checks:
        address = _reserve(request, svc, user.username)
        if not await checks.run(svc.auth.change_own_password, user, body.current, body.new):
            raise ApiError(403, "forbidden", "body.current: not the account's password")
    svc.throttle.succeeded(user.username, address)
    return {"username": user.username, "changed": True}


@router.get("/me", response_model=None, responses=answers(Me))
def me(user: Current) -> dict[str, Any]:
    return {"username": user.username, "role": user.role}


def _reserve(request: Request, svc: Svc, username: str) -> str:
    """A guess of ``username``'s password from the request's address, counted by the log-in
    throttle (429 with ``Retry-After`` when it must wait); the address."""
    address = svc.proxies.of(request)
    verdict = svc.throttle.reserve(username, address)
    if not verdict.allowed:
        seconds = math.ceil(verdict.retry_after)
        raise ApiError(429, "too_many_attempts", f"{verdict.reason}: try again in "
                       f"{seconds} s", headers={"Retry-After": str(seconds)})
    return address
