"""Deposits and adjustments have limits per operation and per wallet; an attack's 9,224
deposits of 9,999,999,999,999.99 are refused before they reach the ledger, and
the server verifies and starts again as before."""

from __future__ import annotations

import uuid

import httpx

from .conftest import Server

HUGE = "9999999999999.99"


def test_huge_deposits_refused_early_and_the_server_restarts(server: Server) -> None:
    s = server
    before = s.get("admin", "/wallets/alice").json()["balance"]
    # Every one is refused at its amount, before anything is written, so the first would fail
    # the assertion if the limit regressed; the attack's full 9,224 added time, not strength.
    count = 500
    headers = s.headers("admin")
    with httpx.Client(base_url=s.base, timeout=30) as client:
        for _ in range(count):
            r = client.post("/wallets/alice/deposits", json={"amount": HUGE},
                            headers={**headers, "Idempotency-Key": uuid.uuid4().hex})
            assert r.status_code == 422 and r.json()["error"]["code"] == "limit", r.text
    assert "at most 100000.00" in r.json()["error"]["reason"]
    assert s.get("admin", "/wallets/alice").json()["balance"] == before
    s.stop()
    s.start()
    report = s.get("auditor", "/audit/verify").json()
    assert report["ok"], report["problems"]
    assert s.get("admin", "/wallets/alice").json()["balance"] == before


def test_wallet_limit_and_adjustment_limit(server: Server) -> None:
    s = server
    for _ in range(9):
        s.ok("admin", "/wallets/alice/deposits", {"amount": "100000"})
    assert s.get("admin", "/wallets/alice").json()["balance"] == "901000.00"
    r = s.post("admin", "/wallets/alice/deposits", {"amount": "100000"})
    assert r.status_code == 422 and "a wallet holds at most 1000000.00" in r.json()["error"]["reason"]
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    r = s.post("supervisor", "/tables/craps-1/adjustments",
               {"player": "alice", "amount": "10000.01", "reason": "dealer error"})
    assert r.status_code == 409 and "at most 10000.00" in r.json()["error"]["reason"]
    s.ok("supervisor", "/tables/craps-1/adjustments",
         {"player": "alice", "amount": "5.00", "reason": "dealer error"})
    report = s.get("auditor", "/audit/verify").json()
    assert report["ok"], report["problems"]
