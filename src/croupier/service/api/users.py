"""``/users``: accounts, their roles, locking and unlocking (admin; auditors read)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter

from croupier.service.api import queries
from croupier.service.api.deps import Admin, Svc, UserName, UserReader
from croupier.service.api.models import NewUser
from croupier.service.auth import ActorGone
from croupier.service.errors import ApiError
from croupier.service.install import password_problem

router = APIRouter(prefix="/users", tags=["admin"])


@router.post("", status_code=201)
def create_user(body: NewUser, user: Admin, svc: Svc) -> dict[str, Any]:
    problem = password_problem(body.username, body.password)
    if problem:
        raise ApiError(422, "malformed", f"password: {problem}")
    with svc.engine.begin() as conn:
        if queries.user_exists(conn, body.username):
            raise ApiError(409, "exists", f"there is already a user {body.username!r}")
        created = svc.auth.create_user(conn, body.username, body.password, body.role)
    return {"username": created.username, "role": created.role}


@router.get("")
def list_users(user: UserReader, svc: Svc) -> list[dict[str, Any]]:
    with svc.engine.connect() as conn:
        rows = queries.users(conn)
    return [{"username": r.username, "role": r.role, "locked": r.locked,
             **_throttled(svc, r.username), "deleted": r.deleted_at is not None} for r in rows]


def _throttled(svc: Svc, username: str) -> dict[str, Any]:
    """The log-in throttle's counts for an account (this process's): failures counted, until
    when (seconds since the epoch) only addresses with no recent failure are checked, and how
    many times the account has been guarded so."""
    failures, guarded_for, guards = svc.throttle.state(username)
    until = None if guarded_for is None else time.time() + guarded_for
    return {"failed_logins": failures, "locked_until": until, "lockouts": guards}


@router.post("/{username}/unlock")
def unlock(username: UserName, user: Admin, svc: Svc) -> dict[str, Any]:
    if not svc.auth.set_locked(username, False):
        raise ApiError(404, "not_found", f"there is no user {username!r}")
    svc.throttle.clear(username)  # and its log-in throttle's counts, here
    return {"username": username, "locked": False}


@router.post("/{username}/lock")
def lock(username: UserName, user: Admin, svc: Svc) -> dict[str, Any]:
    _not_yourself(username, user.username, "lock")
    if not _as_admin(lambda: svc.auth.set_locked(username, True, by=user.username)):
        raise ApiError(404, "not_found", f"there is no user {username!r}")
    return {"username": username, "locked": True}


@router.delete("/{username}")
def delete(username: UserName, user: Admin, svc: Svc) -> dict[str, Any]:
    """Delete an account: it cannot log in again and its sessions end at once (its records
    stay in the ledger)."""
    _not_yourself(username, user.username, "delete")
    if not _as_admin(lambda: svc.auth.delete(username, by=user.username)):
        raise ApiError(404, "not_found", f"there is no user {username!r}")
    return {"username": username, "deleted": True}


def _as_admin(change: Callable[[], bool]) -> bool:
    """``change`` (a lock or delete), refused if its admin lost the role meanwhile."""
    try:
        return change()
    except ActorGone as exc:
        raise ApiError(409, "refused", str(exc)) from None


def _not_yourself(username: str, admin: str, verb: str) -> None:
    """An admin may not lock or delete their own account: the last admin doing so would leave
    nobody to manage users and tables (a deleted account cannot be recovered from the data)."""
    if username == admin:
        raise ApiError(409, "refused", f"an admin may not {verb} their own account; another "
                       "admin does that")
