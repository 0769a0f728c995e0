"""Match play coupons: instruments the house issues, redeemed once, voidable, all on record.

A cashier or supervisor issues a coupon to a named player with a serial number, a face value,
an expiry and the wagers it is good for (under N.J.A.C. 13:69F-1.3(b): Pass and Don't Pass
only). The player puts it down with chips of the same value on one of those wagers; the coupon
is redeemed in the same transaction as the wager, by one conditional ``UPDATE`` (``status =
'issued'``), so of any number of redemptions at once exactly one succeeds. Every issue,
redemption and void is a row of ``coupon_log``; a redeemed coupon names its table and round,
which recall shows.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.craps.events import BetTakenDown
from croupier.errors import Refusal
from croupier.events import CouponIn, Event, Settled
from croupier.money import fmt
from croupier.rules import load_profile
from croupier.service import events as sv
from croupier.service import store
from croupier.service.live import LiveTable
from croupier.service.plans import Plan
from croupier.service.procedures import clauses

CLAUSE = "N.J.A.C. 13:69F-1.3(b)"
GOOD_FOR = ("pass", "dont_pass")
"""The wagers a match play coupon may be good for (13:69F-1.3(b))."""

coupons = sa.Table(
    "coupons", store.metadata,
    sa.Column("serial", sa.String(32), primary_key=True),
    sa.Column("player", sa.String(64), nullable=False, index=True),
    sa.Column("face_cents", sa.BigInteger, nullable=False),
    sa.Column("wagers", sa.Text, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Column("issued_by", sa.String(64), nullable=False),
    sa.Column("issued_at", sa.Float, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("table_id", sa.String(64)),
    sa.Column("round", sa.Integer),
    sa.Column("closed_by", sa.String(64)),
    sa.Column("closed_at", sa.Float),
    sa.Column("void_reason", sa.Text),
)

coupon_log = sa.Table(
    "coupon_log", store.metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("serial", sa.String(32), nullable=False, index=True),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("actor", sa.String(64), nullable=False),
    sa.Column("table_id", sa.String(64)),
    sa.Column("round", sa.Integer),
    sa.Column("detail", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)


class CouponRefused(Exception):
    """An issue or void the rules refuse (a plain exception: it may pass through ``with``
    blocks, which a frozen :class:`~croupier.errors.Refusal` cannot)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.clause = CLAUSE


def _log(conn: Connection, serial: str, action: str, actor: str, detail: dict[str, Any],
         table_id: str | None = None, round_no: int | None = None) -> None:
    conn.execute(coupon_log.insert().values(
        serial=serial, action=action, actor=actor, table_id=table_id, round=round_no,
        detail=json.dumps(detail, sort_keys=True), at=store.now()))


def as_json(row: Any) -> dict[str, Any]:
    """A coupon as the API shows it."""
    return {"serial": row.serial, "player": row.player,
            "face_value": fmt(store.dollars(row.face_cents)), "wagers": json.loads(row.wagers),
            "expires_at": row.expires_at, "issued_by": row.issued_by,
            "issued_at": row.issued_at, "status": row.status, "table": row.table_id,
            "round": row.round, "closed_by": row.closed_by, "closed_at": row.closed_at,
            "void_reason": row.void_reason, "clause": CLAUSE}


def issue(conn: Connection, actor: str, player: str, face: Decimal, wagers: list[str],
          days: int, table_id: str | None = None) -> dict[str, Any]:
    """Issue a coupon to ``player`` (who must exist and be a player); its record. A coupon
    issued for a table names it (``table``) and is redeemed only there."""
    role = conn.execute(sa.select(store.users.c.role).where(
        store.users.c.username == player)).scalar()
    if role != "player":
        raise CouponRefused(f"there is no player {player!r} to issue a coupon to")
    bad = [w for w in wagers if w not in GOOD_FOR]
    if bad or not wagers:
        raise CouponRefused("a match play coupon is good only for Pass or Don't Pass wagers")
    serial = "MP-" + secrets.token_hex(6).upper()
    now = store.now()
    conn.execute(coupons.insert().values(
        serial=serial, player=player, face_cents=store.cents(face),
        wagers=json.dumps(sorted(set(wagers))), expires_at=now + days * 86400,
        issued_by=actor, issued_at=now, status="issued", table_id=table_id))
    _log(conn, serial, "issued", actor, {"player": player, "face_value": fmt(face),
                                         "wagers": sorted(set(wagers)), "days": days},
         table_id)
    return get(conn, serial) or {}


def get(conn: Connection, serial: str) -> dict[str, Any] | None:
    row = conn.execute(sa.select(coupons).where(coupons.c.serial == serial)).first()
    return None if row is None else as_json(row)


def listing(conn: Connection, player: str | None) -> list[dict[str, Any]]:
    """Every coupon (or one player's), newest first."""
    query = sa.select(coupons).order_by(coupons.c.issued_at.desc()).limit(500)
    if player is not None:
        query = query.where(coupons.c.player == player)
    return [as_json(r) for r in conn.execute(query).all()]


def void(conn: Connection, actor: str, serial: str, reason: str) -> dict[str, Any]:
    """Void an issued coupon (a redeemed or void one cannot be)."""
    done = conn.execute(coupons.update().where(
        coupons.c.serial == serial, coupons.c.status == "issued").values(
        status="void", closed_by=actor, closed_at=store.now(), void_reason=reason))
    if done.rowcount != 1:
        current = get(conn, serial)
        if current is None:
            raise LookupError(serial)
        raise CouponRefused(f"coupon {serial} is {current['status']}: only an issued coupon "
                            "can be voided")
    _log(conn, serial, "voided", actor, {"reason": reason})
    return get(conn, serial) or {}


def redeeming(plan_fn: Callable[[Connection], Plan], serial: str, player: str, wager: str,
              amount: Decimal, table_id: str, profile_id: str, round_of: Callable[[], int],
              ) -> Callable[[Connection], Plan]:
    """``plan_fn`` (a coupon bet) with coupon ``serial`` checked first and redeemed last, in
    the same transaction: a refusal anywhere leaves the coupon issued."""

    def plan(conn: Connection) -> Plan:
        # The row is held (PostgreSQL) from its check to its redemption: a void or another
        # redemption at the same moment waits, and the loser is told what the coupon became.
        row = conn.execute(sa.select(coupons).where(coupons.c.serial == serial)
                           .with_for_update()).first()
        _check(row, serial, player, wager, amount)
        if row is not None and row.table_id not in (None, table_id):
            raise Refusal(f"coupon {serial} was issued for table {row.table_id}, not "
                          f"{table_id}", CLAUSE)
        made = plan_fn(conn)
        round_no = int(round_of())
        redeemed = conn.execute(coupons.update().where(
            coupons.c.serial == serial, coupons.c.status == "issued",
            coupons.c.player == player, coupons.c.expires_at > store.now(),
            sa.or_(coupons.c.table_id.is_(None), coupons.c.table_id == table_id)).values(
            status="redeemed", table_id=table_id, round=round_no, closed_by=player,
            closed_at=store.now()))
        if redeemed.rowcount != 1:
            raise Refusal(f"coupon {serial} has already been redeemed", CLAUSE)
        _log(conn, serial, "redeemed", player, {"wager": wager, "amount": fmt(amount)},
             table_id, round_no)
        made.extra = {**made.extra, "coupon": serial}
        return made

    return plan


def _check(row: Any, serial: str, player: str, wager: str, amount: Decimal) -> None:
    """Refuse a coupon that is unknown, not the player's, used, void, expired, not good for
    ``wager`` or not of the value of the chips put down with it."""
    if row is None or row.player != player:
        raise Refusal(f"there is no coupon {serial} issued to {player}", CLAUSE)
    if row.status != "issued":
        raise Refusal(f"coupon {serial} is {row.status}", CLAUSE)
    if row.expires_at <= store.now():
        raise Refusal(f"coupon {serial} has expired", CLAUSE)
    if wager not in json.loads(row.wagers):
        raise Refusal(f"coupon {serial} is not good for a {wager} wager", CLAUSE)
    if store.cents(amount) != row.face_cents:
        raise Refusal(f"coupon {serial} is worth {fmt(store.dollars(row.face_cents))}: it is "
                      "put down with chips of the same value", CLAUSE)


def of_round(conn: Connection, table_id: str, round_no: int) -> list[dict[str, Any]]:
    """The coupons redeemed in a round (for recall)."""
    rows = conn.execute(sa.select(coupons).where(
        coupons.c.table_id == table_id, coupons.c.round == round_no)).all()
    return [as_json(r) for r in rows]


def coupons_after(live: LiveTable, events: list[Event]) -> list[Event]:
    """For each coupon wager these events decide or take down, the coupon going back."""
    out: list[Event] = []
    for event in events:
        key: tuple[str, str] | None = None
        result = ""
        if isinstance(event, Settled) and event.part_of is None and not event.stays_up:
            key, result = (event.player, event.wager), event.result
        elif isinstance(event, BetTakenDown) and event.whole:
            key, result = (event.player, event.wager), "taken down"
        if key is not None and key in live.coupons:
            back = live.coupons[key] if result != "lose" else Decimal(0)
            out.append(sv.CouponOut(key[0], key[1], back, result))
    return out


def coupon_bet(live: LiveTable, action: Any) -> list[Event]:
    """Chips put down with a match play coupon of their value on a new wager (13:69F-1.3(b)):
    the table checks the whole stake (chips and coupon) as one wager with the coupon's value in
    hand (``covered``); the coupon's value comes from the house, the chips from the player, so
    the coupon's event goes first, then the wager."""
    good_for = clauses.coupon_wagers(live.profile, live.game.name)
    rules = live.game.rules(load_profile(live.profile))
    if not good_for or rules is None:
        cited = rules.clause("permitted_clause") if rules is not None else ""
        raise Refusal(f"match play coupons are not accepted at {live.game.name} under "
                      f"{live.profile}", cited)
    coupon_clause = rules.clause("coupon_clause")
    if action.wager not in good_for:
        names = " or ".join(live.game.wager_names[w] for w in sorted(good_for))
        raise Refusal(f"match play coupons are accepted only for {names} wagers", coupon_clause)
    if not live.betting_open:
        raise Refusal("a match play coupon is not taken while the dice are in the air",
                      live.procedures.closed_clause())
    if any(p == action.player and key == action.wager for p, key, _ in live.table.layout()):
        raise Refusal(f"a match play coupon is put down with a new {action.wager} wager, not "
                      "added to one already on the layout", coupon_clause)
    amount = action.amount
    made: list[Event] = live.table.check(dataclasses.replace(action, amount=amount * 2,
                                                             covered=amount))
    return [CouponIn(action.player, action.wager, amount, coupon_clause), *made]
