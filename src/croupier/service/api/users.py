"""``/users``: accounts, their roles, locking and unlocking (admin; auditors read).

Every change is a record of the users' chain (``service/people.py``) naming the admin who made
it; an account made or given a role here counts as made through that admin for the
two-person rules. Each change is checked under the users' lock: the admin must still be one,
and no change leaves no admin who can act.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter

from croupier.service.api import queries
from croupier.service.api.account_replies import Account, AccountChanged
from croupier.service.api.deps import Admin, Svc, UserName, UserReader
from croupier.service.api.models import NewRole, NewUser
from croupier.service.api.replies import answers
from croupier.service.auth import CLAUSE, acting_admin
from croupier.service.errors import ApiError
from croupier.service.install import password_problem

router = APIRouter(prefix="/users", tags=["admin"])


@router.post("", status_code=201, response_model=None,
             responses=answers(AccountChanged, 201))
def create_user(body: NewUser, user: Admin, svc: Svc) -> dict[str, Any]:
    problem = password_problem(body.username, body.password)
    if problem:
        raise ApiError(422, "malformed", f"password: {problem}")
    with svc.engine.begin() as conn:
        acting_admin(conn, user.username)
        if queries.user_exists(conn, body.username):
            raise ApiError(409, "exists", f"there is already a user {body.username!r}")
        created = svc.auth.create_user(conn, body.username, body.password, body.role,
                                       made_by=user.username, actor=user.username)
    return {"username": created.username, "role": created.role, "made_by": user.username}


@router.get("", response_model=None, responses=answers(list[Account]))
def list_users(user: UserReader, svc: Svc) -> list[dict[str, Any]]:
    with svc.engine.connect() as conn:
        rows = queries.users(conn)
    return [{"username": r.username, "role": r.role, "locked": r.locked,
             **_throttled(svc, r.username), "deleted": r.deleted_at is not None,
             "made_by": r.made_by} for r in rows]


def _throttled(svc: Svc, username: str) -> dict[str, Any]:
    """The log-in throttle's counts for an account (this process's): failures counted, until
    when (seconds since the epoch) only addresses with no recent failure are checked, and how
    many times the account has been guarded so."""
    failures, guarded_for, guards = svc.throttle.state(username)
    until = None if guarded_for is None else time.time() + guarded_for
    return {"failed_logins": failures, "locked_until": until, "lockouts": guards}


@router.post("/{username}/unlock", response_model=None, responses=answers(AccountChanged))
def unlock(username: UserName, user: Admin, svc: Svc) -> dict[str, Any]:
    found = svc.auth.set_locked(username, False, user.username)
    if not found:
        raise ApiError(404, "not_found", f"there is no user {username!r}")
    svc.throttle.clear(username)  # and its log-in throttle's counts, here
    return {"username": username, "locked": False}


@router.post("/{username}/lock", response_model=None, responses=answers(AccountChanged))
def lock(username: UserName, user: Admin, svc: Svc) -> dict[str, Any]:
    _not_yourself(username, user.username, "lock")
    found = svc.auth.set_locked(username, True, user.username)
    if not found:
        raise ApiError(404, "not_found", f"there is no user {username!r}")
    return {"username": username, "locked": True}


@router.delete("/{username}", response_model=None, responses=answers(AccountChanged))
def delete(username: UserName, user: Admin, svc: Svc) -> dict[str, Any]:
    """Delete an account: it cannot log in again and its sessions end at once (its records
    stay in the ledger). Refused (409) while it holds money, in its wallet or as chips or
    wagers at a table: the refusal names what it holds."""
    _not_yourself(username, user.username, "delete")
    found = svc.auth.delete(username, user.username)
    if not found:
        raise ApiError(404, "not_found", f"there is no user {username!r}")
    return {"username": username, "deleted": True}


@router.post("/{username}/role", response_model=None, responses=answers(AccountChanged))
def change_role(username: UserName, body: NewRole, user: Admin, svc: Svc) -> dict[str, Any]:
    """Give a staff account another role: it gains the role through this admin (the
    two-person rules count them as one person), and its sessions end."""
    _not_yourself(username, user.username, "change the role of")
    found = svc.auth.set_role(username, body.role, user.username)
    if not found:
        raise ApiError(404, "not_found", f"there is no user {username!r}")
    return {"username": username, "role": body.role, "made_by": user.username}


def _not_yourself(username: str, admin: str, verb: str) -> None:
    """An admin may not lock, delete or re-role their own account: another admin does that
    (and the last admin who can act is never removed, :func:`auth.delete_user`)."""
    if username == admin:
        raise ApiError(409, "refused", f"an admin may not {verb} their own account; another "
                       "admin does that", CLAUSE)
