"""``/coupons``: match play coupons the house issues (cashier or supervisor) and voids."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import Field

from croupier.money import parse_amount
from croupier.service import coupons, store
from croupier.service.api.deps import CouponIssuer, CouponReading, Key, Svc
from croupier.service.api.errors import reply
from croupier.service.api.models import NewCoupon, VoidCoupon
from croupier.service.api.replies import Documented
from croupier.service.errors import ApiError
from croupier.service.plans import Reply, fingerprint
from croupier.service.procedures import clauses

router = APIRouter(prefix="/coupons", tags=["cashier"])
Serial = Annotated[str, Path(max_length=32)]


class Coupon(Documented):
    """A match play coupon as the house's records keep it (13:69F-1.3(b)); times are seconds
    since the epoch."""

    serial: str = Field(examples=["MP-0123456789AB"])
    player: str
    face_value: str = Field(examples=["10.00"])
    wagers: list[str] = Field(examples=[["dont_pass", "pass"]])
    expires_at: float
    issued_by: str
    issued_at: float
    status: str = Field(description="``issued``, ``redeemed`` or ``void``")
    table: str | None = Field(description="the table it was issued for or redeemed at")
    round: int | None = Field(description="the round it was redeemed in")
    closed_by: str | None
    closed_at: float | None
    void_reason: str | None
    clause: str


@router.post("", status_code=201, response_model=Coupon)
def issue(request: Request, body: NewCoupon, user: CouponIssuer, key: Key,
          svc: Svc) -> Response:
    """Issue a match play coupon to a named player: serial, face value, expiry, wagers. Like
    every request that hands out money it carries an Idempotency-Key: a retry gets the coupon
    the first one issued, never a second coupon."""
    face = parse_amount(body.face_value, "face_value")
    svc.ledger.limits.check_coupon(store.cents(face))
    if body.table is not None:
        live = svc.tables.find(body.table)
        clauses.check_coupons(live.profile, live.game.name)
    fp = fingerprint("POST", request.url.path, body.model_dump())
    asked = coupons.Asked(body.player, face, list(body.wagers), body.expires_in_days, body.table)
    return reply(svc.ledger.once(user, key, fp, lambda conn, request: Reply(201, coupons.issue(
        conn, user.username, asked, request))))


@router.get("", response_model=None, responses={200: {"model": list[Coupon]}})
def listing(reading: CouponReading, svc: Svc) -> list[dict[str, Any]]:
    """Every coupon (staff), or the player's own."""
    with svc.engine.connect() as conn:
        return coupons.listing(conn, reading.user.username if reading.own_only else None)


@router.get("/{serial}", response_model=None, responses={200: {"model": Coupon}})
def one(serial: Serial, reading: CouponReading, svc: Svc) -> dict[str, Any]:
    with svc.engine.connect() as conn:
        found = coupons.get(conn, serial)
    if found is None or (reading.own_only and found["player"] != reading.user.username):
        raise ApiError(404, "not_found", f"there is no coupon {serial}")
    return found


@router.post("/{serial}/void", response_model=None, responses={200: {"model": Coupon}})
def void(serial: Serial, body: VoidCoupon, user: CouponIssuer, svc: Svc) -> dict[str, Any]:
    """Void an issued coupon, with a reason (a redeemed one cannot be)."""
    try:
        with svc.engine.begin() as conn:
            return coupons.void(conn, user.username, serial, body.reason)
    except LookupError:
        raise ApiError(404, "not_found", f"there is no coupon {serial}") from None
