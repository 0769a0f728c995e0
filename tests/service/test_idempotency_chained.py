"""The replies kept under Idempotency-Keys are rebuilt from the chains and compared: each event
a keyed request produced records the request's digest (its caller, key and request) in its
chained payload. Edited, deleted or re-keyed behind the server's back (an attacker with write
access to the database), the stored reply is named by ``GET /audit/verify``, and a retry of the
request never moves money a second time. In process, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa

from .appkit import App

PASS_CLAUSE = "N.J.A.C. 13:69F-1.3"


def _sql(s: App, statement: str, **params: Any) -> int:
    """``statement`` run on the server's database behind its back; the rows it touched."""
    engine = sa.create_engine(s.database or f"sqlite:///{s.data_dir / 'croupier.db'}")
    try:
        with engine.begin() as conn:
            return int(conn.execute(sa.text(statement), params).rowcount)
    finally:
        engine.dispose()


def _stored(s: App, key: str) -> dict[str, Any]:
    engine = sa.create_engine(s.database or f"sqlite:///{s.data_dir / 'croupier.db'}")
    try:
        with engine.connect() as conn:
            row = conn.execute(sa.text("SELECT * FROM idempotency WHERE key = :k"),
                               {"k": key}).one()
            return dict(row._mapping)
    finally:
        engine.dispose()


def _chips(s: App) -> tuple[Decimal, Decimal]:
    """alice's chips and what she has on the layout at craps-1."""
    seat = s.get("auditor", "/tables/craps-1").json()["players"]["alice"]
    return Decimal(seat["chips"]), Decimal(seat["on_table"])


BET = {"wager": "pass", "amount": "10"}


def _bet(s: App) -> tuple[str, Any]:
    """alice buys in $100 and bets $10 on the pass line under one key; the key and reply."""
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    key = "alice-pass-1"
    r = s.post("alice", "/tables/craps-1/bets", BET, key=key)
    assert r.status_code == 200, r.text
    assert [e["type"] for e in r.json()["events"]] == ["bet"]
    assert s.audit()["ok"]
    return key, r.json()


def _named(report: dict[str, Any], where: str) -> str:
    assert not report["ok"]
    return " | ".join(f["what"] for f in report["findings"] if f["where"].startswith(where))


@pytest.mark.clause(PASS_CLAUSE)
def test_an_edited_stored_reply_is_named_and_its_retry_moves_nothing(app_ledger: App) -> None:
    s = app_ledger
    key, reply = _bet(s)
    assert _chips(s) == (Decimal("90.00"), Decimal("10.00"))
    forged = {**reply, "events": [{**reply["events"][0], "amount": "1000.00"}]}
    assert _sql(s, "UPDATE idempotency SET body = :b WHERE key = :k",
                b=json.dumps(forged), k=key) == 1
    report = s.audit()
    what = _named(report, "stored reply of user")
    assert f"key '{key}'" in str(report["problems"])
    assert "1000.00" in what and "the chain holds" in what, what
    r = s.post("alice", "/tables/craps-1/bets", BET, key=key)  # the retry: the kept reply
    assert r.status_code == 200 and r.headers["idempotent-replay"] == "true"
    assert _chips(s) == (Decimal("90.00"), Decimal("10.00"))


@pytest.mark.clause(PASS_CLAUSE)
def test_a_deleted_stored_reply_is_named_and_its_retry_is_refused(app_ledger: App) -> None:
    s = app_ledger
    key, reply = _bet(s)
    seq = reply["events"][0]["seq"]
    assert _sql(s, "DELETE FROM idempotency WHERE key = :k", k=key) == 1
    report = s.audit()
    what = _named(report, "table craps-1")
    assert f"events {seq} were produced by a request whose stored reply is missing" in what
    assert any(f["seq"] == seq for f in report["findings"])
    r = s.post("alice", "/tables/craps-1/bets", BET, key=key)
    assert r.status_code == 409, r.text
    assert r.json()["error"]["code"] == "idempotency_reply_missing"
    assert f"event {seq}" in r.json()["error"]["reason"]
    assert _chips(s) == (Decimal("90.00"), Decimal("10.00"))  # one $10 wager, not two
    _cage_and_coupons(s)


@pytest.mark.clause(PASS_CLAUSE)
def test_a_re_keyed_stored_reply_is_named_and_the_first_key_is_not_run_again(
        app_ledger: App) -> None:
    s = app_ledger
    key, _ = _bet(s)
    row = _stored(s, key)
    assert _sql(s, "UPDATE idempotency SET key = 'moved' WHERE key = :k", k=key) == 1
    report = s.audit()
    assert "which another request produced" in _named(report, "stored reply of user "
                                                      f"{row['user_id']}, key 'moved'")
    assert "stored reply is missing" in _named(report, "table craps-1")
    r = s.post("alice", "/tables/craps-1/bets", BET, key=key)
    assert r.status_code == 409 and r.json()["error"]["code"] == "idempotency_reply_missing"
    assert _chips(s) == (Decimal("90.00"), Decimal("10.00"))


def test_an_outcome_and_its_settlement_are_kept_under_one_key(app_ledger: App) -> None:
    """A roll's reply (the outcome committed, then settled) is compared with every event
    both transactions wrote; its fingerprint edited, the reply no longer matches its request."""
    s = app_ledger
    _bet(s)
    r = s.post("dealer", "/tables/craps-1/roll", {"dice": [3, 4]}, key="roll-1")
    assert r.status_code == 200, r.text
    assert len(r.json()["events"]) > 1  # the roll, and the pass wager settled
    assert s.audit()["ok"]
    assert _sql(s, "UPDATE idempotency SET fingerprint = :f WHERE key = 'roll-1'",
                f="0" * 64) == 1
    report = s.audit()
    assert "another request produced" in _named(report, "stored reply of user")
    assert "stored reply is missing" in _named(report, "table craps-1")
    r = s.post("dealer", "/tables/craps-1/roll", {"dice": [3, 4]}, key="roll-1")
    assert r.status_code == 422, r.text  # the key kept for "another" request: never rolled
    assert s.get("auditor", "/tables/craps-1").json()["round"] == 2


def _balance(s: App, player: str) -> Decimal:
    return Decimal(s.get("auditor", f"/wallets/{player}").json()["balance"])


def _cage_and_coupons(s: App) -> None:
    """A deposit, a cash-out asked and a coupon issued record their request's digest in the
    chained record each writes (the wallet's entry, the house's record): a stored reply deleted does
    not let the retry move money or issue a coupon again, and a stored reply edited is named
    by the audit; a refusal is never kept, so a forged one is named and a refused request is
    decided again. (Run by the test above, on its ledger, to keep the suite short.)"""
    ops = [("deposit", "/wallets/bob/deposits", {"amount": "200"}),
           ("cash-out", "/wallets/bob/cash-outs", {"amount": "50"}),
           ("coupon", "/coupons", {"player": "alice", "face_value": "5"})]
    who = {"deposit": "admin", "cash-out": "bob", "coupon": "supervisor"}
    replies = {name: s.post(who[name], path, body, key=f"k-{name}") for name, path, body in ops}
    assert [r.status_code for r in replies.values()] == [200, 202, 201]
    s.ok("admin", f"/wallets/bob/cash-outs/{replies['cash-out'].json()['cash_out']}/pay")
    assert _balance(s, "bob") == Decimal("1150.00")
    forged = {**replies["deposit"].json(), "balance": "9999.00"}
    assert _sql(s, "UPDATE idempotency SET body = :b WHERE key = 'k-deposit'",
                b=json.dumps(forged)) == 1
    assert _sql(s, "DELETE FROM idempotency WHERE key IN ('k-cash-out', 'k-coupon')") == 2
    report = s.audit()
    assert "9999.00" in _named(report, "stored reply of user") and "deposit of entry" in \
        _named(report, "stored reply of user")
    assert "cash_out_asked of record" in _named(report, "house records")
    assert "stored reply is missing" in _named(report, "house records")
    assert "coupon_issued of record" in _named(report, "house records")
    for name, path, body in ops:  # the retries: none acts again
        r = s.post(who[name], path, body, key=f"k-{name}")
        if name == "deposit":
            assert r.status_code == 200 and r.json()["balance"] == "9999.00"  # as kept: named
        else:
            assert r.status_code == 409, r.text
            assert r.json()["error"]["code"] == "idempotency_reply_missing"
    assert _balance(s, "bob") == Decimal("1150.00")
    assert len(s.get("supervisor", "/coupons?player=alice").json()) == 1
    # A refusal is not kept: the same request is decided again once it can be done.
    bet = {"wager": "pass", "amount": "10"}
    r = s.post("bob", "/tables/craps-1/bets", bet, key="early")
    assert r.status_code == 409, r.text  # no chips at the table yet
    assert _sql(s, "DELETE FROM idempotency WHERE key = 'early'") == 0  # nothing kept
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "100"})
    r = s.post("bob", "/tables/craps-1/bets", bet, key="early")
    assert r.status_code == 200 and "idempotent-replay" not in r.headers, r.text
    assert _sql(s, "INSERT INTO idempotency (user_id, key, fingerprint, status, body, at) "
                "VALUES (1, 'forged', 'f', 409, '{}', 0)") == 1
    assert "a refusal is never kept" in _named(s.audit(), "stored reply of user 1")
    # The bet's reply swapped for the deposit's: the finding says what the reply shows.
    assert _sql(s, "UPDATE idempotency SET body = :b WHERE key = 'early'",
                b=replies["deposit"].text) == 1
    report = s.audit()
    assert "it shows no table (a reply of another kind, with balance, player)" in _named(
        report, "stored reply of user"), report["findings"]
    assert "None" not in json.dumps(report["findings"])
