"""``/auth``: log in for a bearer token, log out, who am I."""

from __future__ import annotations

import math
from typing import Any

from fastapi import APIRouter, Request

from croupier.service.api.account_replies import LoggedIn, LoggedOut, Me
from croupier.service.api.deps import Credentials, Current, Svc
from croupier.service.api.models import Login
from croupier.service.api.replies import answers
from croupier.service.auth import LoginFailed
from croupier.service.errors import ApiError

router = APIRouter(prefix="/auth", tags=["auth"])
LOGIN_FAILED = "wrong name or password, or the account is locked"


@router.post("/login", response_model=None, responses={
    **answers(LoggedIn), 429: {"description": "throttled: wait Retry-After"}})
def login(request: Request, body: Login, svc: Svc) -> dict[str, Any]:
    """A bearer token. Wrong guesses are throttled per account and client address, with
    back-off, and capped per account across every address (429 with ``Retry-After``); no
    account is locked for everyone by them, and the right password from an address with no
    recent failure at the account logs in at once (docs/login.md). An unknown name, a
    deleted or locked account and a wrong password answer alike."""
    address = svc.proxies.of(request)
    verdict = svc.throttle.reserve(body.username, address)
    if not verdict.allowed:
        seconds = math.ceil(verdict.retry_after)
        raise ApiError(429, "too_many_attempts", f"{verdict.reason}: try again in "
                       f"{seconds} s", headers={"Retry-After": str(seconds)})
    try:
        token, user = svc.auth.login(body.username, body.password)
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


@router.get("/me", response_model=None, responses=answers(Me))
def me(user: Current) -> dict[str, Any]:
    return {"username": user.username, "role": user.role}
