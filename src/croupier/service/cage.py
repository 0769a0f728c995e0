"""The cage's other way: a player's wallet paid out in cash (money leaving the house), never by
one person alone.

A deposit (``Ledger.deposit``) brings money in; a cash-out at the cage takes it back out of the
wallet, under the same limit per operation as a deposit and never more than the wallet holds.
Cash handed over at the cage is the one act by which a person on the staff could take a
player's money for themselves, so it is never one person's alone (docs/two-person-rules.md):

- A cash-out is first **asked** (``POST /wallets/{player}/cash-outs``, 202, ``pending``): by
  the player, on their own wallet, or by an admin for them.
- It is **paid** (``.../cash-outs/{n}/pay``) by an admin who is a second person: independent
  of the one who asked (counted as people, not accounts: :func:`people.not_independent`) and
  not one person with the player (:func:`people.own_account`). So the player's own request and
  a cashier's hand, or two independent people of the staff, always stand behind the cash.
- Until it is decided the amount is **held**: the wallet cannot spend it on chips at a table
  (``cashier.buy_in``) nor on another cash-out. Its asker may **withdraw** it
  (``.../withdraw``); an admin other than the asker may **decline** it (``.../decline``).

Every request and decision is a record of the house's chain (``cash_out_asked``,
``cash_out_paid``, ``cash_out_withdrawn``, ``cash_out_declined``, about ``cash-out:PLAYER``); a
request is numbered by the ``seq`` of its asked record, and stands as its records leave it
(:func:`fold`), read under the chain's writer lock, so of two decisions at once only one is
made. The payment's record names the wallet entry it wrote (the wallet chain's hash after it),
and ``audit verify`` checks both ways (:func:`check`). Like every move of money each step is
kept under its Idempotency-Key (recorded in the chained record): the same request sent twice
acts once, and the audit rebuilds its reply from the record (:func:`reply_of`).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.money import fmt
from croupier.service import moves, people, register, store
from croupier.service.audit.canonical import money
from croupier.service.audit.snapshot import Finding
from croupier.service.auth import User
from croupier.service.errors import ApiError
from croupier.service.ledger import Ledger, WalletMove
from croupier.service.limits import Limits
from croupier.service.plans import Reply


@dataclass(frozen=True)
class Call:
    """Who asks the cage for something, under which Idempotency-Key, and the request's
    fingerprint (``plans.fingerprint``): what :meth:`Ledger.once` keeps a reply under."""

    user: User
    key: str | None
    fp: str


KIND = moves.CASH_OUT  # the wallet entry's kind: cash handed to the player at the cage
CLAUSE = "the house's cage controls (internal controls)"
"""What a refusal of a cash-out's request or decision cites: the house's own control that cash
leaves the cage only on the player's request or a second person's word."""
ASKED, PAID = "cash_out_asked", "cash_out_paid"
ASKS_A_DAY = 50
"""The most cash-outs asked for one player in :data:`ASKS_SECONDS`. Each is a record of the
house's chain that the player's every buy-in and cash-out reads: asked and withdrawn in a loop,
they grew without end (4,000 of them added 55 ms to each of that player's buy-ins)."""
ASKS_SECONDS = 24 * 3600
WITHDRAWN, DECLINED = "cash_out_withdrawn", "cash_out_declined"
KINDS = (ASKED, PAID, WITHDRAWN, DECLINED)
STATUS = {PAID: "paid", WITHDRAWN: "withdrawn", DECLINED: "declined"}
"""A request's status after each deciding record."""


def subject(player: str) -> str:
    """What a player's cash-out records are about in the house's chain."""
    return f"cash-out:{player}"


@dataclass(frozen=True)
class CashOut:
    """A cash-out asked at the cage, as its records leave it."""

    number: int
    """The ``seq`` of its ``cash_out_asked`` record."""
    player: str
    cents: int
    requested_by: str
    status: str = "pending"
    decided_by: str | None = None
    reason: str | None = None

    def json(self) -> dict[str, Any]:
        """As the API shows it."""
        return {"cash_out": self.number, "player": self.player,
                "amount": fmt(store.dollars(self.cents)), "requested_by": self.requested_by,
                "status": self.status, "decided_by": self.decided_by, "reason": self.reason}


def check_cash_out(limits: Limits, amount: int, balance: int) -> None:
    """Refuse a cash-out that is not positive or above the cage's limit per operation (422),
    or above what the wallet holds less what its pending cash-outs hold (a refusal citing the
    cage's control, as a buy-in past the wallet is refused citing the table's clause).

    >>> check_cash_out(Limits(max_deposit=100_00), 50_00, 80_00)
    >>> try:
    ...     check_cash_out(Limits(max_deposit=100_00), 90_00, 80_00)
    ... except Refusal as refused:
    ...     print(refused.reason, "|", refused.clause)
    the wallet holds 80.00: no more can be paid out | the house's cage controls (internal controls)
    """
    if amount <= 0:
        raise ApiError(422, "malformed", "a cash-out pays a positive amount")
    if amount > limits.max_deposit:
        raise ApiError(422, "limit", f"a cash-out is at most {fmt(store.dollars(limits.max_deposit))} "
                       "(the cage's limit per operation)")
    if amount > balance:
        raise Refusal(f"the wallet holds {fmt(store.dollars(balance))}: no more can be paid "
                      "out", CLAUSE)


def fold(records: list[dict[str, Any]]) -> dict[int, CashOut]:
    """The cash-outs asked, by number, as the records (oldest first, payloads decoded) leave
    them; a decision of a request that is not pending changes nothing (the audit names it).

    >>> asked = {"kind": ASKED, "seq": 4, "actor": "bob",
    ...          "payload": {"player": "bob", "amount": "20.00"}}
    >>> paid = {"kind": PAID, "seq": 9, "actor": "admin",
    ...         "payload": {"player": "bob", "cash_out": 4}}
    >>> fold([asked, paid])[4].status, fold([asked])[4].cents
    ('paid', 2000)
    """
    out: dict[int, CashOut] = {}
    for r in records:
        p = r["payload"]
        if r["kind"] == ASKED:
            out[int(r["seq"])] = CashOut(int(r["seq"]), str(p["player"]),
                                         store.cents(Decimal(p["amount"])), str(r["actor"]))
            continue
        number = p.get("cash_out")
        current = out.get(number) if isinstance(number, int) else None
        if r["kind"] in STATUS and current is not None and current.status == "pending":
            out[current.number] = CashOut(current.number, current.player, current.cents,
                                          current.requested_by, STATUS[r["kind"]],
                                          str(r["actor"]), p.get("reason"))
    return out


def requests(conn: Connection, player: str) -> dict[int, CashOut]:
    """``player``'s cash-outs as the house's chain records them."""
    return fold(register.rows(conn, KINDS, subject(player)))


def held(conn: Connection, player: str) -> int:
    """The cents of ``player``'s wallet held by cash-outs asked and not yet decided: not to be
    spent meanwhile (a player cannot spend at a table what they asked to take in cash)."""
    return sum(c.cents for c in requests(conn, player).values() if c.status == "pending")


def _asked_reply(record: dict[str, Any]) -> dict[str, Any]:
    """The reply to a cash-out asked (202), from its record."""
    asked = fold([record])[int(record["seq"])]
    return {**asked.json(), "reason_pending": (
        "cash is paid out at the cage by an admin who is a second person, independent of the "
        "one who asked and of the player")}


def reply_of(record: dict[str, Any]) -> dict[str, Any] | None:
    """The reply to the request that wrote ``record`` (payload decoded), worked out from it;
    None for a record of another kind."""
    p = record["payload"]
    if record["kind"] == ASKED:
        return _asked_reply(record)
    if record["kind"] == PAID:
        return {"cash_out": p["cash_out"], "player": p["player"], "paid": p["amount"],
                "balance": p["balance"]}
    if record["kind"] in (WITHDRAWN, DECLINED):
        return {"cash_out": p["cash_out"], "player": p["player"], "amount": p["amount"],
                "status": STATUS[record["kind"]], "decided_by": record["actor"],
                "reason": p.get("reason")}
    return None


def status_of(record: dict[str, Any]) -> int:
    """The HTTP status of that reply: 202 for a cash-out asked (it waits), else 200."""
    return 202 if record["kind"] == ASKED else 200


def _kept(conn: Connection, kind: str, player: str, payload: dict[str, Any], actor: str,
          digest: str | None) -> Reply:
    """Record ``kind`` in the house's chain (with the request's digest) and its reply."""
    row = register.append(conn, kind, subject(player),
                          {"player": player, **payload, "request": digest}, actor)
    record = register.shown(row)
    body = reply_of(record)
    assert body is not None  # every kind of this module is worded
    return Reply(status_of(record), body)


def ask(ledger: Ledger, call: Call, player: str, amount: Decimal) -> Reply:
    """A cash-out of ``amount`` asked for ``player`` (by the player, or an admin): 202, held
    until a second person pays it; refused (409) past what the wallet holds beyond its other
    pending cash-outs."""
    cents = store.cents(amount)

    # Every check is made once the key's reply is looked up (Ledger.once): a request asked
    # under a higher limit and asked again after the house lowered it gets its reply.
    def act(conn: Connection, digest: str | None) -> Reply:
        check_cash_out(ledger.limits, cents, cents)  # before any lock
        balance = ledger.wallet_balance(conn, player, lock=True)
        register.lock(conn)  # the pending requests stay as read until this one is recorded
        _asks_left(conn, player)
        check_cash_out(ledger.limits, cents, balance - held(conn, player))
        return _kept(conn, ASKED, player, {"amount": money(cents)}, call.user.username, digest)

    return ledger.once(call.user, call.key, call.fp, act)


def _asks_left(conn: Connection, player: str) -> None:
    """429 with ``Retry-After`` once :data:`ASKS_A_DAY` cash-outs were asked for ``player`` in
    the last :data:`ASKS_SECONDS` (read from the house's chain, under its lock), whatever
    became of them."""
    count, wait = register.HOUSE.wait_for_room(conn, subject(player), ASKED, ASKS_A_DAY,
                                               ASKS_SECONDS)
    if wait:
        raise ApiError(429, "too_many_requests", f"{count} cash-outs were asked for {player} "
                       f"in the last {ASKS_SECONDS // 3600} hours, the most the cage takes: "
                       f"try again in {wait} s", CLAUSE, headers={"Retry-After": str(wait)})


def _pending(conn: Connection, player: str, number: int) -> CashOut:
    """Cash-out ``number`` of ``player``, still pending (read under the chain's lock)."""
    register.lock(conn)
    found = requests(conn, player).get(number)
    if found is None:
        raise ApiError(404, "not_found", f"there is no cash-out {number} asked for {player}")
    if found.status != "pending":
        raise Refusal(f"cash-out {number} is already {found.status} (by {found.decided_by})",
                      CLAUSE)
    return found


def _second_person(conn: Connection, asked: CashOut, payer: str) -> None:
    """Refuse a payment by one who is not a second person: the one who asked, or one person
    with them, or one person with the player (cash into one's own hand)."""
    why = people.not_independent(conn, asked.requested_by, payer)
    if why is None and asked.requested_by != asked.player:
        why = people.own_account(conn, payer, asked.player)
    if why is not None:
        raise Refusal(f"cash-out {asked.number} of {fmt(store.dollars(asked.cents))} to "
                      f"{asked.player} is paid by a second person, independent of the one who "
                      f"asked and of the player: {why}", CLAUSE)


def pay(ledger: Ledger, call: Call, player: str, number: int) -> Reply:
    """Pay cash-out ``number`` (an admin who is a second person): the wallet entry that takes
    the money out and the record that pays the request, in one transaction."""

    def act(conn: Connection, digest: str | None) -> Reply:
        before = ledger.wallet_balance(conn, player, lock=True)
        asked = _pending(conn, player, number)
        _second_person(conn, asked, call.user.username)
        check_cash_out(ledger.limits, asked.cents, before)
        balance = ledger.move_wallet(conn, WalletMove(player, -asked.cents, KIND,
                                                      call.user.username))
        entry = conn.execute(sa.select(store.wallets.c.chain_head).where(
            store.wallets.c.player == player)).scalar()
        return _kept(conn, PAID, player, {
            "cash_out": number, "amount": money(asked.cents), "balance": money(balance),
            "entry": entry}, call.user.username, digest)

    return ledger.once(call.user, call.key, call.fp, act)


def withdraw(ledger: Ledger, call: Call, player: str, number: int) -> Reply:
    """Cash-out ``number`` withdrawn by the one who asked it: nothing is paid."""
    return _close(ledger, call, player, number, WITHDRAWN, {})


def decline(ledger: Ledger, call: Call, player: str, number: int, reason: str) -> Reply:
    """Cash-out ``number`` declined, with a reason, by an admin other than the one who asked
    (who withdraws it instead): nothing is paid."""
    return _close(ledger, call, player, number, DECLINED, {"reason": reason})


def _close(ledger: Ledger, call: Call, player: str, number: int, kind: str,
           extra: dict[str, Any]) -> Reply:
    """Cash-out ``number`` closed unpaid (``kind``: withdrawn by the one who asked it, or
    declined by another), recorded with ``extra``."""

    def act(conn: Connection, digest: str | None) -> Reply:
        asked = _pending(conn, player, number)
        by = call.user.username
        if kind == WITHDRAWN and asked.requested_by != by:
            raise Refusal(f"cash-out {number} was asked by {asked.requested_by}: only they "
                          "withdraw it (an admin declines it)", CLAUSE)
        if kind == DECLINED and asked.requested_by == by:
            raise Refusal(f"{by} asked cash-out {number}: they withdraw it; a second person "
                          "declines it", CLAUSE)
        return _kept(conn, kind, player, {"cash_out": number, "amount": money(asked.cents),
                                          **extra}, by, digest)

    return ledger.once(call.user, call.key, call.fp, act)


def listing(conn: Connection, player: str) -> list[dict[str, Any]]:
    """``player``'s cash-outs, newest first."""
    return [c.json() for c in sorted(requests(conn, player).values(),
                                     key=lambda c: -c.number)]


def pending_all(conn: Connection) -> list[dict[str, Any]]:
    """Every cash-out still pending, oldest first (the cage's queue)."""
    folded = fold(register.rows(conn, KINDS))
    return [c.json() for c in folded.values() if c.status == "pending"]


# --- the audit ----------------------------------------------------------------------------

def check(records: list[dict[str, Any]], entries: dict[str, list[dict[str, Any]]],
          ) -> tuple[list[Finding], list[str]]:
    """The cash-outs of the house's chain against the wallets' chains: every decision decides
    a pending request, a payment is made by someone other than the asker and names a cage
    cash-out entry of its amount in the player's wallet chain, and every cage cash-out entry
    made since the chain recorded its first cash-out request is named by a payment (one
    before it is only noted: an earlier release paid out on one admin's word)."""
    findings: list[Finding] = []
    shown = [register.shown(r) for r in records if r["kind"] in KINDS]
    open_: dict[int, CashOut] = {}
    paid_entries: set[str] = set()
    by_hash = {str(e["hash"]): e for rows in entries.values() for e in rows}
    for r in shown:
        findings.extend(_check_record(r, open_, by_hash, paid_entries))
    since = float(shown[0]["at"]) if shown else None
    legacy = 0
    for rows in entries.values():
        for e in rows:
            if e["kind"] != KIND or e.get("table_id") is not None or str(e["hash"]) in paid_entries:
                continue
            if since is None or float(e["at"]) < since:
                legacy += 1
            else:
                findings.append(Finding(f"wallet {e['player']}", int(e["id"]), (
                    "a cash-out at the cage that no paid request of the house's chain names: "
                    "cash left the wallet on one person's word")))
    notes = [f"{legacy} cage cash-outs were paid before cash-outs were asked and paid by two "
             "people (not covered)"] if legacy else []
    return findings, notes


def _check_record(r: dict[str, Any], open_: dict[int, CashOut], by_hash: dict[str, Any],
                  paid_entries: set[str]) -> list[Finding]:
    """One cash-out record against the requests still open before it."""
    seq, p = int(r["seq"]), r["payload"]
    if r["kind"] == ASKED:
        open_.update(fold([r]))
        return []
    asked = open_.pop(p.get("cash_out"), None) if isinstance(p.get("cash_out"), int) else None
    if asked is None or asked.player != p.get("player"):
        return [Finding(register.WHERE, seq, f"it decides cash-out {p.get('cash_out')!r}, "
                        "which is no pending request of that player")]
    if r["kind"] != PAID:
        return []
    if r["actor"] == asked.requested_by:
        return [Finding(register.WHERE, seq, f"cash-out {asked.number} was paid by "
                        f"{r['actor']}, who asked it: no second person")]
    entry = by_hash.get(str(p.get("entry")))
    if (entry is None or entry["kind"] != KIND or entry["player"] != asked.player
            or int(entry["amount_cents"]) != -asked.cents):
        return [Finding(register.WHERE, seq, f"cash-out {asked.number} of "
                        f"{money(asked.cents)} names no cage cash-out of that amount in "
                        f"{asked.player}'s wallet chain")]
    paid_entries.add(str(entry["hash"]))
    return []
