"""``/paytables``: the house's pay table per game and profile, and its scheduled changes.

An admin or supervisor proposes a change (the whole ``pays`` table, when it takes effect, why);
a second admin or supervisor approves it; either may withdraw it while it is proposed (once
approved it stands: the house keeps the old table by a change back to it, approved in turn).
Each is checked as ``croupier check`` checks a proposal. Auditors read.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import Field

from croupier.service import paytable_changes as schedule
from croupier.service import paytables
from croupier.service.api.deps import MOST, WHOLE, PayTableReader, PayTableStaff, Svc
from croupier.service.api.models import Body, Reason
from croupier.service.api.record_replies import HousePayTable, PayTableChange
from croupier.service.api.replies import answers
from croupier.service.errors import ApiError

router = APIRouter(prefix="/paytables", tags=["pay tables"])
ChangeId = Annotated[int, Path(ge=1, le=MOST), WHOLE]
ODDS = r"^[0-9]{1,6} (to|for) [0-9]{1,6}$"


class NewChange(Body):
    game: str = Field(max_length=32, examples=["craps"])
    profile: str = Field(max_length=32, examples=["nj-13-69f"])
    pays: dict[Annotated[str, Field(max_length=48)],
               Annotated[str, Field(pattern=ODDS)]] = Field(
        max_length=64, examples=[{"field:12": "3 to 1"}],
        description="the whole override table from the effective time on")
    effective: str = Field(max_length=40, examples=["2026-12-01T18:00:00Z"],
                           description="ISO 8601 with its offset from UTC")
    reason: Reason


class Withdrawal(Body):
    reason: Reason


@router.post("/changes", status_code=201, response_model=None,
             responses=answers(PayTableChange, 201))
def propose(body: NewChange, user: PayTableStaff, svc: Svc) -> dict[str, Any]:
    """Propose a change of the house's pay table for a game and profile."""
    from croupier.rules import PROFILE_IDS

    if body.profile not in PROFILE_IDS:
        raise ApiError(422, "malformed", f"body.profile: unknown profile {body.profile!r}")
    with svc.engine.begin() as conn:
        return schedule.propose(conn, user.username, schedule.Proposal(
            body.game, body.profile, dict(body.pays), body.effective, body.reason)).json()


@router.post("/changes/{change_id}/approve", response_model=None,
             responses=answers(PayTableChange))
def approve(change_id: ChangeId, user: PayTableStaff, svc: Svc) -> dict[str, Any]:
    """A second person approves the change (checked again)."""
    with svc.engine.begin() as conn:
        return schedule.approve(conn, user.username, change_id).json()


@router.post("/changes/{change_id}/withdraw", response_model=None,
             responses=answers(PayTableChange))
def withdraw(change_id: ChangeId, body: Withdrawal, user: PayTableStaff,
             svc: Svc) -> dict[str, Any]:
    """Withdraw a change not yet approved (an approved one stands)."""
    with svc.engine.begin() as conn:
        return schedule.withdraw(conn, user.username, change_id, body.reason).json()


@router.get("/changes", response_model=None, responses=answers(list[PayTableChange]))
def changes(user: PayTableReader, svc: Svc) -> list[dict[str, Any]]:
    """Every change, newest first."""
    now = time.time()
    with svc.engine.connect() as conn:
        found = schedule.changes(conn)
    return [c.json(now) for c in sorted(found.values(), key=lambda c: -c.id)]


@router.get("", response_model=None, responses=answers(list[HousePayTable]))
def house(user: PayTableReader, svc: Svc) -> list[dict[str, Any]]:
    """The house's pay table for each game and profile its tables play, where it comes from,
    and the tables that pay it."""
    seen = sorted({(t.game.name, t.profile) for t in svc.tables
                   if t.game.house_pay_table})
    out = []
    with svc.engine.connect() as conn:
        for game, profile in seen:
            pays, source = paytables.house_pays(conn, game, profile)
            tables = {t.id: t.options.get("pays", {}) == (pays or {})
                      for t in svc.tables
                      if (t.game.name, t.profile) == (game, profile)}
            out.append({"game": game, "profile": profile, "pays": pays or {},
                        "source": source or "the profile's minimums", "tables": tables})
    return out
