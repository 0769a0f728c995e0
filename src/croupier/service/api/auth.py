"""``/auth``: log in for a bearer token, log out, who am I."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from croupier.service.api.deps import Credentials, Current, Svc
from croupier.service.api.models import Login
from croupier.service.auth import LoginFailed
from croupier.service.errors import ApiError

router = APIRouter(prefix="/auth", tags=["auth"])
LOGIN_FAILED = "wrong name or password, or the account is locked for a while"


@router.post("/login")
def login(request: Request, body: Login, svc: Svc) -> dict[str, Any]:
    """A bearer token. Three wrong passwords lock the account for a while (30 s, doubling with
    each lock-out, at most an hour); too many failures from one address are refused (429). A
    locked account and an unknown name answer as a wrong password does."""
    address = request.client.host if request.client else ""
    if not svc.throttle.allows(address):
        raise ApiError(429, "too_many_attempts",
                       "too many failed log-ins from this address; try again in a minute")
    try:
        token, user = svc.auth.login(body.username, body.password)
    except LoginFailed:
        svc.throttle.failed(address)
        raise ApiError(401, "unauthorized", LOGIN_FAILED) from None
    return {"token": token, "username": user.username, "role": user.role}


@router.post("/logout")
def logout(user: Current, creds: Credentials, svc: Svc) -> dict[str, str]:
    """End this token's session, and close at once every stream it opened on this server
    (one on another node closes at that node's next check of the token)."""
    if creds is not None:
        svc.auth.logout(creds.credentials)
        svc.hub.end_token(creds.credentials)
    return {"status": "logged out"}


@router.get("/me")
def me(user: Current) -> dict[str, Any]:
    return {"username": user.username, "role": user.role}
