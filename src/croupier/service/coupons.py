"""Match play coupons: instruments the house issues, redeemed once, voidable, all on record.

A cashier or supervisor issues a coupon to a named player with a serial number, a face value,
an expiry and the wagers it is good for (under N.J.A.C. 13:69F-1.3(b): Pass and Don't Pass
only). The player puts it down with chips of the same value on one of those wagers; the coupon
is redeemed in the same transaction as the wager; a redeemed coupon names its table and round,
which recall shows.

No one person hands out the house's money alone past the house's limits
(:class:`~croupier.service.limits.Limits`, docs/two-person-rules.md): a coupon of more than
``max_coupon_alone`` is asked (``coupon_asked``, status ``pending``) and is issued only when a
second person, independent of the one who asked (counted as people, not accounts:
:func:`people.not_independent`), approves it (``coupon_approved``); and no person issues more
than ``max_coupons_daily`` in 24 hours, approved or pending (voided coupons aside), counting
the coupons of every account that is one person with them: a coupon past it is refused.

Every issue, request, approval, redemption and void is a record of the house's chain
(``coupon_issued``, ``coupon_asked``, ``coupon_approved``, ``coupon_redeemed``,
``coupon_voided``, about ``coupon:SERIAL``), and a coupon is what its records leave it
(:func:`fold`); the sums and the approver are read from the chain too: whether it may be
redeemed or voided is read from the chain under the chain's writer lock, so of any number of
redemptions at once exactly one succeeds, and a ``coupons`` row edited back to "issued" redeems
nothing. The ``coupons`` and ``coupon_log`` rows are projections for listing: ``audit verify``
rebuilds them from the chain and names any row that differs (:func:`check_projection`).
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Callable
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.craps.events import BetTakenDown
from croupier.errors import Refusal
from croupier.events import CouponIn, Event, Settled
from croupier.money import fmt
from croupier.rules import load_profile
from croupier.service import events as sv
from croupier.service import people, register, store
from croupier.service.audit.canonical import money
from croupier.service.audit.snapshot import Finding
from croupier.service.auth import refuse_deleted
from croupier.service.limits import Limits
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


KINDS = ("coupon_issued", "coupon_asked", "coupon_approved", "coupon_redeemed",
         "coupon_voided")
ACTIONS = {"coupon_issued": "issued", "coupon_asked": "asked", "coupon_approved": "approved",
           "coupon_redeemed": "redeemed", "coupon_voided": "voided"}
MADE = ("coupon_issued", "coupon_asked")
"""The records that make a coupon: issued by one person, or asked for, pending a second."""
DAY = 24 * 3600
"""The period over which one person's coupons add up (seconds)."""


def subject(serial: str) -> str:
    return f"coupon:{serial}"


@dataclasses.dataclass(frozen=True)
class Asked:
    """A coupon asked for: to ``player``, of ``face`` value, good for ``wagers``, expiring in
    ``days``, for table ``table`` only (None: any table that takes coupons)."""

    player: str
    face: Decimal
    wagers: list[str]
    days: int
    table: str | None = None


@dataclasses.dataclass(frozen=True)
class Redemption:
    """A coupon put down: its ``serial``, by ``player``, on ``wager``, with chips of
    ``amount``."""

    serial: str
    player: str
    wager: str
    amount: Decimal


def _log(conn: Connection, serial: str, kind: str, actor: str, payload: dict[str, Any],
         detail: dict[str, Any]) -> dict[str, Any]:
    """The record of the house's chain, and the row of its projection ``coupon_log`` (its
    table and round as the payload names them)."""
    row = register.append(conn, kind, subject(serial), {"serial": serial, **payload}, actor)
    conn.execute(coupon_log.insert().values(
        serial=serial, action=ACTIONS[kind], actor=actor, table_id=payload.get("table"),
        round=payload.get("round"), detail=json.dumps(detail, sort_keys=True), at=row["at"]))
    return row


def fold(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A coupon's ``coupons`` row as its chained records (oldest first, payloads decoded)
    leave it; None if it was never issued.

    >>> issued = {"kind": "coupon_issued", "actor": "cashier", "at": 1.0, "payload": {
    ...     "serial": "MP-1", "player": "alice", "face_value": "10.00", "wagers": ["pass"],
    ...     "expires_at": "87401.0", "table": None}}
    >>> fold([issued])["status"], fold([issued])["face_cents"]
    ('issued', 1000)
    >>> fold([issued, {"kind": "coupon_voided", "actor": "boss", "at": 2.0,
    ...                "payload": {"serial": "MP-1", "reason": "lost"}}])["status"]
    'void'
    >>> asked = {**issued, "kind": "coupon_asked"}
    >>> fold([asked])["status"], fold([asked, {"kind": "coupon_approved", "actor": "boss",
    ...                                        "at": 2.0, "payload": {"serial": "MP-1"}}])["status"]
    ('pending', 'issued')

    The row also names who approved it (``approved_by``, None for a coupon issued alone),
    which the ``coupons`` table does not hold (:func:`columns`): its approval is a row of
    ``coupon_log``.
    """
    row: dict[str, Any] | None = None
    for r in records:
        p = r["payload"]
        if r["kind"] in MADE and row is None:
            row = {"serial": p["serial"], "player": p["player"],
                   "face_cents": store.cents(Decimal(p["face_value"])),
                   "wagers": json.dumps(sorted(p["wagers"])),
                   "expires_at": float(p["expires_at"]), "issued_by": r["actor"],
                   "issued_at": float(r["at"]),
                   "status": "issued" if r["kind"] == "coupon_issued" else "pending",
                   "table_id": p["table"], "round": None, "closed_by": None,
                   "closed_at": None, "void_reason": None, "approved_by": None}
        elif row is not None and row["status"] == "pending" and r["kind"] == "coupon_approved":
            row.update(status="issued", approved_by=r["actor"])
        elif row is not None and row["status"] == "issued" and r["kind"] == "coupon_redeemed":
            row.update(status="redeemed", table_id=p["table"], round=p["round"],
                       closed_by=r["actor"], closed_at=float(r["at"]))
        elif row is not None and row["status"] in ("issued", "pending") and (
                r["kind"] == "coupon_voided"):
            row.update(status="void", closed_by=r["actor"], closed_at=float(r["at"]),
                       void_reason=p["reason"])
    return row


def columns(made: dict[str, Any]) -> dict[str, Any]:
    """A folded coupon's values of the ``coupons`` table's columns."""
    return {k: v for k, v in made.items() if k in coupons.c}


def chained(conn: Connection, serial: str) -> Any:
    """The coupon as the house's chain records it (attribute access as a row), or None."""
    row = fold(register.rows(conn, KINDS, subject(serial)))
    return None if row is None else SimpleNamespace(**row)


def as_json(row: Any, approved_by: str | None = None) -> dict[str, Any]:
    """A coupon as the API shows it (``approved_by``: who approved it, where ``row`` does
    not say)."""
    return {"serial": row.serial, "player": row.player,
            "face_value": fmt(store.dollars(row.face_cents)), "wagers": json.loads(row.wagers),
            "expires_at": row.expires_at, "issued_by": row.issued_by,
            "issued_at": row.issued_at, "status": row.status,
            "approved_by": getattr(row, "approved_by", None) or approved_by,
            "table": row.table_id, "round": row.round, "closed_by": row.closed_by,
            "closed_at": row.closed_at, "void_reason": row.void_reason, "clause": CLAUSE}


def _approvers(conn: Connection, serials: list[str]) -> dict[str, str]:
    """Who approved each of these coupons (the ``coupon_log`` rows of their approvals)."""
    if not serials:
        return {}
    rows = conn.execute(sa.select(coupon_log.c.serial, coupon_log.c.actor).where(
        coupon_log.c.action == ACTIONS["coupon_approved"], coupon_log.c.serial.in_(serials)))
    return {r.serial: r.actor for r in rows}


def issued_in_day(conn: Connection, issuer: str, now: float) -> int:
    """The cents of the coupons ``issuer``, or any account that is one person with them
    (:class:`people.Hands`), issued or asked for in the :data:`DAY` before ``now``, as the
    house's chain records them; a coupon voided since is not counted (it hands out nothing).
    Read under the chain's writer lock and the users' lock, which the caller holds."""
    hr = register.house_records.c
    made = conn.execute(sa.select(hr.subject, hr.actor, hr.payload).where(
        hr.kind.in_(MADE), hr.at > now - DAY)).all()
    if not made:
        return 0
    voided = {r.subject for r in conn.execute(sa.select(hr.subject).where(
        hr.kind == "coupon_voided", hr.subject.in_([m.subject for m in made])))}
    hands = people.hands(people.trusted(conn))
    return sum(store.cents(Decimal(json.loads(m.payload)["face_value"])) for m in made
               if m.subject not in voided
               and (m.actor == issuer or hands.why_one(issuer, m.actor) is not None))


def issue(conn: Connection, actor: str, asked: Asked, request: str | None = None,
          limits: Limits | None = None) -> dict[str, Any]:
    """Issue a coupon to ``asked.player`` (who must exist and be a player); the coupon. A
    coupon issued for a table names it (``table``) and is redeemed only there. ``request``:
    the digest of the request that issued it (``codec.request_digest``), chained with its
    record, from which the audit rebuilds the reply kept under its Idempotency-Key
    (:func:`reply_of`). Under the house's ``limits`` (see the module's notes): one past
    what ``actor`` may issue in a day is refused; one over what one person issues alone is
    asked for (status ``pending``), not issued."""
    limits = limits if limits is not None else Limits()
    player, face, wagers = asked.player, asked.face, asked.wagers
    role = conn.execute(sa.select(store.users.c.role).where(
        store.users.c.username == player)).scalar()
    if role != "player":
        raise Refusal(f"there is no player {player!r} to issue a coupon to", CLAUSE)
    refuse_deleted(conn, player, "a match play coupon")
    bad = [w for w in wagers if w not in GOOD_FOR]
    if bad or not wagers:
        raise Refusal("a match play coupon is good only for Pass or Don't Pass wagers", CLAUSE)
    serial = "MP-" + secrets.token_hex(6).upper()
    cents = store.cents(face)  # a whole number of cents, or refused before anything is written
    register.lock(conn)  # the day's coupons stay as read until this one is recorded
    people.take_lock(conn)  # and who is one person with whom
    why = people.own_account(conn, actor, player)
    if why is not None:
        raise Refusal(f"a match play coupon is not issued to {player} by {actor}, one person "
                      f"with them: {why}", CLAUSE)
    now = store.now()
    before = issued_in_day(conn, actor, now)
    if before + cents > limits.max_coupons_daily:
        raise Refusal(f"{actor} has issued {money(before)} in match play coupons in the last "
                      f"{DAY // 3600} hours (with the accounts that are one person with them); "
                      f"a coupon of {fmt(face)} would pass the house's limit of "
                      f"{money(limits.max_coupons_daily)} a person a day", CLAUSE)
    kind = "coupon_issued" if cents <= limits.max_coupon_alone else "coupon_asked"
    expires = repr(now + asked.days * 86400)
    # The limits it was decided under are chained with it: an audit sees why it was issued
    # alone, or asked for, whatever the limits are later.
    payload = {"player": player, "face_value": fmt(face), "wagers": sorted(set(wagers)),
               "expires_at": expires, "table": asked.table,
               "limits": {"alone": money(limits.max_coupon_alone),
                          "daily": money(limits.max_coupons_daily),
                          "issued_in_day": money(before)}}
    if request is not None:
        payload["request"] = request
    row = _log(conn, serial, kind, actor, payload, {
        "player": player, "face_value": fmt(face), "wagers": sorted(set(wagers)),
        "days": asked.days})
    made = fold([register.shown(row)])
    assert made is not None
    conn.execute(coupons.insert().values(**columns(made)))
    return get(conn, serial) or {}


def approve(conn: Connection, approver: str, serial: str) -> dict[str, Any]:
    """A second person approves a pending coupon: it is issued. The approver is independent
    of the one who asked (not the same person, nor one account of theirs:
    :func:`people.not_independent`); the coupon's state is read from the chain under its
    writer lock, so of two approvals at once one issues it and the other is refused.
    LookupError if there is no such coupon."""
    register.lock(conn)
    current = chained(conn, serial)
    if current is None:
        raise LookupError(serial)
    if current.status != "pending":
        raise Refusal(f"coupon {serial} is {current.status}: only a pending coupon is "
                      "approved", CLAUSE)
    why = people.not_independent(conn, current.issued_by, approver)
    if why is not None:
        raise Refusal(f"coupon {serial} of {fmt(store.dollars(current.face_cents))} is "
                      f"issued only with a second person's approval: {why}", CLAUSE)
    why = people.own_account(conn, approver, current.player)
    if why is not None:
        raise Refusal(f"coupon {serial} is not approved for {current.player} by {approver}, "
                      f"one person with them: {why}", CLAUSE)
    if current.expires_at <= store.now():
        raise Refusal(f"coupon {serial} has expired", CLAUSE)
    # Asked for before the account was deleted (a deletion reads only the wallet and the
    # tables): issued now, it would be a coupon in an account no one can use.
    refuse_deleted(conn, current.player, "a match play coupon")
    _log(conn, serial, "coupon_approved", approver, {}, {})
    conn.execute(coupons.update().where(coupons.c.serial == serial).values(status="issued"))
    return get(conn, serial) or {}


def reply_of(record: dict[str, Any]) -> dict[str, Any] | None:
    """The reply to the request that issued (or asked for) a coupon, worked out from its
    chained record (payload decoded): the coupon as it stood then. None for any other
    record."""
    if record["kind"] not in MADE:
        return None
    made = fold([record])
    return None if made is None else as_json(SimpleNamespace(**made))


def status_of(record: dict[str, Any]) -> int:
    """The HTTP status of that reply: 201 for a coupon issued, 202 for one asked for (it waits
    for a second person)."""
    return 202 if record["kind"] == "coupon_asked" else 201


def get(conn: Connection, serial: str) -> dict[str, Any] | None:
    row = conn.execute(sa.select(coupons).where(coupons.c.serial == serial)).first()
    return None if row is None else as_json(row, _approvers(conn, [serial]).get(serial))


PAGE = 100
"""How many coupons ``GET /coupons`` lists unless asked (``limit``)."""
MOST = 500
"""The most it lists at once."""


def listing(conn: Connection, player: str | None, limit: int = PAGE,
            after: str | None = None) -> list[dict[str, Any]]:
    """Up to ``limit`` coupons (or of one player's), newest first (by time issued, then
    serial), after coupon ``after`` in that order (the last of the page before); LookupError
    if ``after`` is no coupon listed here."""
    c = coupons.c
    query = sa.select(coupons).order_by(c.issued_at.desc(), c.serial.desc()).limit(
        max(1, min(limit, MOST)))
    if player is not None:
        query = query.where(c.player == player)
    if after is not None:
        mark = sa.select(c.issued_at).where(c.serial == after)
        if player is not None:
            mark = mark.where(c.player == player)
        at = conn.execute(mark).scalar()
        if at is None:
            raise LookupError(after)
        query = query.where(sa.or_(c.issued_at < at, sa.and_(c.issued_at == at,
                                                               c.serial < after)))
    rows = conn.execute(query).all()
    approvers = _approvers(conn, [r.serial for r in rows])
    return [as_json(r, approvers.get(r.serial)) for r in rows]


def void(conn: Connection, actor: str, serial: str, reason: str) -> dict[str, Any]:
    """Void an issued or pending coupon (a redeemed or void one cannot be), as the chain has
    it."""
    register.lock(conn)
    current = chained(conn, serial)
    if current is None:
        raise LookupError(serial)
    if current.status not in ("issued", "pending"):
        raise Refusal(f"coupon {serial} is {current.status}: only an issued or pending "
                      "coupon can be voided", CLAUSE)
    row = _log(conn, serial, "coupon_voided", actor, {"reason": reason}, {"reason": reason})
    conn.execute(coupons.update().where(coupons.c.serial == serial).values(
        status="void", closed_by=actor, closed_at=row["at"], void_reason=reason))
    return get(conn, serial) or {}


def redeeming(plan_fn: Callable[[Connection], Plan], put: Redemption, live: LiveTable,
              ) -> Callable[[Connection], Plan]:
    """``plan_fn`` (a coupon bet at ``live``) with coupon ``put.serial`` checked first and
    redeemed last, in the same transaction: a refusal anywhere leaves the coupon issued."""
    serial, player, table_id = put.serial, put.player, live.id

    def plan(conn: Connection) -> Plan:
        register.lock(conn)  # the coupon read from the chain stays as read until redeemed
        row = chained(conn, serial)
        _check(row, put)
        if row is not None and row.table_id not in (None, table_id):
            raise Refusal(f"coupon {serial} was issued for table {row.table_id}, not "
                          f"{table_id}", CLAUSE)
        made = plan_fn(conn)
        round_no = int(live.round)
        detail = {"wager": put.wager, "amount": fmt(put.amount)}
        written = _log(conn, serial, "coupon_redeemed", player,
                       {**detail, "table": table_id, "round": round_no}, detail)
        conn.execute(coupons.update().where(coupons.c.serial == serial).values(
            status="redeemed", table_id=table_id, round=round_no, closed_by=player,
            closed_at=written["at"]))
        made.extra = {**made.extra, "coupon": serial}
        return made

    return plan


def _check(row: Any, put: Redemption) -> None:
    """Refuse a coupon that is unknown, not the player's, used, void, expired, not good for
    the wager or not of the value of the chips put down with it."""
    serial, player, wager, amount = put.serial, put.player, put.wager, put.amount
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
    """The coupons redeemed in a round (for recall), as the chain records them."""
    rows = conn.execute(sa.select(coupons.c.serial).where(
        coupons.c.table_id == table_id, coupons.c.round == round_no)).all()
    found = [chained(conn, r.serial) for r in rows]
    return [as_json(c) for c in found
            if c is not None and c.table_id == table_id and c.round == round_no]


# --- the audit: the projections rebuilt from the chain ------------------------------------

_COMPARED = ("player", "face_cents", "wagers", "expires_at", "issued_by", "issued_at",
             "status", "table_id", "round", "closed_by", "closed_at", "void_reason")


def check_projection(conn: Connection, records: list[dict[str, Any]]) -> list[Finding]:
    """The ``coupons`` and ``coupon_log`` rows against the coupons the house's chain
    (``records``, by ``seq``, payloads as stored) records: a row that differs, is missing or
    has no record is named."""
    chain: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        if r["kind"] in KINDS:
            chain.setdefault(r["subject"][len("coupon:"):], []).append(register.shown(r))
    rows = {r.serial: r._mapping for r in conn.execute(sa.select(coupons))}
    logs: dict[str, list[tuple[Any, ...]]] = {}
    for line in conn.execute(sa.select(coupon_log).order_by(coupon_log.c.id)):
        logs.setdefault(line.serial, []).append((line.action, line.actor, line.table_id,
                                                 line.round))
    findings: list[Finding] = []
    for serial in sorted(set(chain) | set(rows) | set(logs)):
        where = f"coupon {serial}"
        made = fold(chain.get(serial, []))
        row = rows.get(serial)
        if made is None or row is None:
            findings.append(Finding(where, None, "the coupons table holds it but the house's "
                                    "chain records no issue of it" if made is None else
                                    "the house's chain records it but the coupons table "
                                    "does not hold it"))
            continue
        differs = [f"{k}: the row holds {row[k]!r}, the chain gives {made[k]!r}"
                   for k in _COMPARED if row[k] != made[k]]
        if differs:
            findings.append(Finding(where, None, "; ".join(differs)))
        told = [(ACTIONS[r["kind"]], r["actor"], _table_of(r), r["payload"].get("round"))
                for r in chain.get(serial, [])]
        if logs.get(serial, []) != told:
            findings.append(Finding(where, None, f"the coupon log holds {logs.get(serial, [])}; "
                                    f"the chain records {told}"))
    return findings


def _table_of(record: dict[str, Any]) -> Any:
    return record["payload"].get("table")


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
