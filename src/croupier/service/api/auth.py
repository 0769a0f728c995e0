"""``/auth``: log in for a bearer token, log out, who am I, choose your own password."""

from __future__ import annotations

import math
from typing import Any

from fastapi import APIRouter, Request

from croupier.service.api.account_replies import LoggedIn, LoggedOut, Me, PasswordChanged
from croupier.service.api.deps import Credentials, Current, Svc
from croupier.service.api.lanes import PASSWORD_CHECKS
from croupier.service.api.models import Login, NewPassword
from croupier.service.api.replies import answers
from croupier.service.auth import LoginFailed
from croupier.service.errors import ApiError
from croupier.service.install import password_problem

router = APIRouter(prefix="/auth", tags=["auth"])
LOGIN_FAILED = "wrong name or password, or the account is locked"


@router.post("/login", response_model=None, responses={
    **answers(LoggedIn), 429: {"description": "throttled: wait Retry-After"}})
async def login(request: Request, body: Login, svc: Svc) -> dict[str, Any]:
    """A bearer token. Wrong guesses are throttled per account and client address, with
    back-off, and capped per account across every address (429 with ``Retry-After``); no
    account is locked for everyone by them, and the right password from an address with no
    recent failure at the account logs in at once (docs/login.md). An unknown name, a
    deleted or locked account and a wrong password answer alike."""
    with PASSWORD_CHECKS.of(request).turn() as checks:
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
    are; every session of the account ends. At most 10 changes in 24 hours (429 after)."""
    problem = password_problem(user.username, body.new) or (
        "the new password is the current one: choose another" if body.new == body.current
        else None)
    if problem:
        raise ApiError(422, "malformed", f"body.new: {problem}")
    with PASSWORD_CHECKS.of(request).turn() as checks:
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
