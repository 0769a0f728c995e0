"""``/coupons``: match play coupons the house issues (cashier or supervisor) and voids."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response
from pydantic import Field
from sqlalchemy.engine import Connection

from croupier.money import parse_amount
from croupier.service import coupons, store
from croupier.service.api.deps import WHOLE, CouponIssuer, CouponReading, Key, Svc, known_query
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
    status: str = Field(description="``pending`` (over the limit one person issues alone: it "
                        "waits for a second person's approval), ``issued``, ``redeemed`` or "
                        "``void``")
    approved_by: str | None = Field(description="the second person who approved it (None: "
                                    "issued by one person, within their limit)")
    table: str | None = Field(description="the table it was issued for or redeemed at")
    round: int | None = Field(description="the round it was redeemed in")
    closed_by: str | None
    closed_at: float | None
    void_reason: str | None
    clause: str


@router.post("", status_code=201, response_model=Coupon,
             responses={202: {"model": Coupon, "description": "asked for, pending: over the "
                              "limit one person issues alone, it waits for a second person "
                              "(``POST /coupons/{serial}/approve``)"}})
def issue(request: Request, body: NewCoupon, user: CouponIssuer, key: Key,
          svc: Svc) -> Response:
    """Issue a match play coupon to a named player: serial, face value, expiry, wagers. Like
    every request that hands out money it carries an Idempotency-Key: a retry gets the coupon
    the first one issued, never a second coupon. Over the house's limit for one person alone
    (``--max-coupon-alone``) it is asked for (202, ``pending``) and issued only when a second,
    independent person approves it; past what one person may issue in 24 hours
    (``--max-coupons-daily``) it is refused (409)."""
    face = parse_amount(body.face_value, "face_value")
    if body.table is not None:
        live = svc.tables.find(body.table)
        clauses.check_coupons(live.profile, live.game.name)
    fp = fingerprint("POST", request.url.path, body.model_dump())
    asked = coupons.Asked(body.player, face, list(body.wagers), body.expires_in_days, body.table)
    limits = svc.ledger.limits

    def made(conn: Connection, request: str | None) -> Reply:
        # The limit is checked once the key's reply is looked up (Ledger.once): a coupon
        # issued under a higher limit, asked again after the house lowered it, is the answer.
        limits.check_coupon(store.cents(face))
        coupon = coupons.issue(conn, user.username, asked, request, limits)
        return Reply(202 if coupon["status"] == "pending" else 201, coupon)

    return reply(svc.ledger.once(user, key, fp, made))


@router.get("", dependencies=[Depends(known_query("limit", "after", "player"))],
            response_model=None, responses={200: {"model": list[Coupon]}})
def listing(reading: CouponReading, svc: Svc,
            limit: Annotated[int, Query(ge=1, le=coupons.MOST), WHOLE] = coupons.PAGE,
            after: Annotated[str | None, Query(min_length=1, max_length=32)] = None,
            player: Annotated[str | None, Query(min_length=1, max_length=64)] = None,
            ) -> list[dict[str, Any]]:
    """The coupons (staff: every player's, or ``player``'s; a player: their own), newest
    first, ``limit`` at a time (at most 500). The next page is asked with ``after``, the
    serial of the last coupon of this one; a page shorter than ``limit`` is the last."""
    if reading.own_only:
        if player not in (None, reading.user.username):
            raise ApiError(403, "forbidden", "a player lists only their own coupons")
        player = reading.user.username
    with svc.engine.connect() as conn:
        try:
            return coupons.listing(conn, player, limit, after)
        except LookupError:
            raise ApiError(422, "malformed", f"query.after: there is no coupon {after} "
                           "in this listing") from None


@router.get("/{serial}", response_model=None, responses={200: {"model": Coupon}})
def one(serial: Serial, reading: CouponReading, svc: Svc) -> dict[str, Any]:
    with svc.engine.connect() as conn:
        found = coupons.get(conn, serial)
    if found is None or (reading.own_only and found["player"] != reading.user.username):
        raise ApiError(404, "not_found", f"there is no coupon {serial}")
    return found


@router.post("/{serial}/approve", response_model=None, responses={200: {"model": Coupon}})
def approve(serial: Serial, user: CouponIssuer, svc: Svc) -> dict[str, Any]:
    """A second person approves a pending coupon, which is then issued: a cashier or
    supervisor independent of the one who asked (docs/two-person-rules.md)."""
    try:
        with svc.engine.begin() as conn:
            return coupons.approve(conn, user.username, serial)
    except LookupError:
        raise ApiError(404, "not_found", f"there is no coupon {serial}") from None


@router.post("/{serial}/void", response_model=None, responses={200: {"model": Coupon}})
def void(serial: Serial, body: VoidCoupon, user: CouponIssuer, svc: Svc) -> dict[str, Any]:
    """Void an issued coupon, with a reason (a redeemed one cannot be)."""
    try:
        with svc.engine.begin() as conn:
            return coupons.void(conn, user.username, serial, body.reason)
    except LookupError:
        raise ApiError(404, "not_found", f"there is no coupon {serial}") from None
