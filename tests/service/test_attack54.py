"""Attacks on where money moves at the live table server (attack54; real ``croupier serve``
processes over HTTP, on SQLite and PostgreSQL).

Found: a request done under its Idempotency-Key was refused when asked again once the house had
lowered a limit (``--max-deposit``, ``--max-wallet``, ``--max-adjustment`` or their variables,
read at start-up). A deposit of 500.00, a cash-out of 300.00 asked at the cage, a match play
coupon of 10.00 issued, a coupon wager of 10.00 and an adjustment of 50.00, each answered and
kept, were asked again after a restart under limits of 5.00 (the client's retry of an answer the
restart cut off): each was answered 422 or 409 ("a deposit is at most 5.00", ...), which tells
the cashier, the supervisor or the player that nothing was done, though the wallet, the house's
chain and the table hold it. These limits were checked before the key's reply was looked up
(the cage's and the coupon's "early" checks, the adjustment route's, a coupon wager's amount
read before its plan); now they are checked after it, so a retry gets the reply kept, and a new
request over the limit is refused as before.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import BACKENDS, Server, make_server

PORTS = {"sqlite": 8112, "postgresql": 8113}
"""This file's servers listen on ports of their own (the machine is shared)."""


@pytest.fixture(params=BACKENDS)
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    srv = make_server(request.param, tmp_path)
    srv.port = PORTS[request.param]
    srv.base = f"http://127.0.0.1:{srv.port}"
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _kept(s: Server, who: str, path: str, body: Any, key: str) -> httpx.Response:
    r = s.post(who, path, body, key)
    assert r.status_code in (200, 201, 202), f"{path}: {r.status_code} {r.text}"
    return r


def test_a_retry_after_a_limit_is_lowered_gets_the_reply_kept(served: Server) -> None:
    """Every request below is done once, answered and kept under its key; after a restart
    under lower limits the same requests with the same keys get the same replies (and nothing
    is done again), while a new request over the new limits is refused."""
    s = served
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    coupon = _kept(s, "supervisor", "/coupons",
                   {"player": "alice", "face_value": "10.00", "wagers": ["pass"]},
                   "coupon-" + uuid.uuid4().hex)
    serial = coupon.json()["serial"]
    asked = [
        ("admin", "/wallets/bob/deposits", {"amount": "500"}),
        ("bob", "/wallets/bob/cash-outs", {"amount": "300"}),
        ("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10", "coupon": serial}),
        ("supervisor", "/tables/craps-1/adjustments",
         {"player": "alice", "amount": "50", "reason": "short paid on the field"}),
    ]
    done = [(who, path, body, key, _kept(s, who, path, body, key))
            for who, path, body in asked for key in [uuid.uuid4().hex]]
    done.append(("supervisor", "/coupons",
                 {"player": "alice", "face_value": "10.00", "wagers": ["pass"]},
                 coupon.request.headers["Idempotency-Key"], coupon))
    wallet = s.get("admin", "/wallets/bob").json()["balance"]
    table = s.get("auditor", "/tables/craps-1").json()["players"]

    s.stop()
    lowered = {"CROUPIER_MAX_DEPOSIT": "5", "CROUPIER_MAX_WALLET": "5",
               "CROUPIER_MAX_ADJUSTMENT": "5", "CROUPIER_MAX_COUPON_ALONE": "5"}
    s.env = {**os.environ, **lowered}
    s.start()
    for who, path, body, key, first in done:
        again = s.post(who, path, body, key)
        assert (again.status_code, again.text) == (first.status_code, first.text), (
            f"{path} asked again under its key: {again.status_code} {again.text}")
    assert s.get("admin", "/wallets/bob").json()["balance"] == wallet
    assert s.get("auditor", "/tables/craps-1").json()["players"] == table
    # A new request over the new limits is refused, as before.
    assert s.post("admin", "/wallets/bob/deposits", {"amount": "500"}).status_code == 422
    assert s.post("supervisor", "/tables/craps-1/adjustments",
                  {"player": "alice", "amount": "50", "reason": "short paid again"},
                  ).status_code == 409
    report = s.audit()
    assert report["ok"], report["findings"]


def test_no_money_or_coupon_is_put_in_a_deleted_account(served: Server) -> None:
    """An account is deleted only once it holds nothing (``DELETE /users/{name}``, refused
    while it holds money); a deposit at the cage afterwards put 10.00 in the deleted account's
    wallet (200), where no one could spend it or ask for it by the player, and a supervisor
    issued it a match play coupon. Both are refused now, naming the deletion; nothing moves."""
    s = served
    s.ok("admin", "/users", {"username": "gus", "password": "demo-pass-123", "role": "player"},
         key=None)
    gone = httpx.delete(s.base + "/users/gus", headers=s.headers("admin"), timeout=30)
    assert gone.status_code == 200, gone.text
    deposit = s.post("admin", "/wallets/gus/deposits", {"amount": "10"})
    assert deposit.status_code == 409, deposit.text
    assert "deleted" in deposit.json()["error"]["reason"]
    coupon = s.post("supervisor", "/coupons",
                    {"player": "gus", "face_value": "5.00", "wagers": ["pass"]})
    assert coupon.status_code == 409, coupon.text
    assert s.get("admin", "/wallets/gus").json()["balance"] == "0.00"
    report = s.audit()
    assert report["ok"], report["findings"]
