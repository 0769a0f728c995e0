"""``/auth``: log in for a bearer token, log out, who am I."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from croupier.service.api.deps import Credentials, Current, Svc
from croupier.service.api.models import Login
from croupier.service.auth import LoginFailed
from croupier.service.ledger import ApiError

router = APIRouter(prefix="/auth", tags=["auth"])


@router.post("/login")
def login(body: Login, svc: Svc) -> dict[str, Any]:
    """A bearer token. Three failed logins in a row lock the account (an admin unlocks)."""
    try:
        token, user = svc.auth.login(body.username, body.password)
    except LoginFailed as exc:
        if exc.locked:
            raise ApiError(423, "locked", "the account is locked after three failed logins; "
                           "an admin unlocks it") from None
        raise ApiError(401, "unauthorized", "wrong name or password") from None
    return {"token": token, "username": user.username, "role": user.role}


@router.post("/logout")
def logout(user: Current, creds: Credentials, svc: Svc) -> dict[str, str]:
    if creds is not None:
        svc.auth.logout(creds.credentials)
    return {"status": "logged out"}


@router.get("/me")
def me(user: Current) -> dict[str, Any]:
    return {"username": user.username, "role": user.role}
