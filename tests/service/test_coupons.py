"""Match play coupons are instruments the house issues, redeemed exactly
once (also under 50 redemptions at once across five tables), voidable, on record and in recall;
``"coupon": true`` without a serial the house issued is refused."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from .conftest import PASSWORD, Server

CLAUSE = "N.J.A.C. 13:69F-1.3(b)"
TABLES = [f"mp-{i}" for i in range(5)]


def _issue(s: Server, who: str, player: str, face: str, **extra: object) -> httpx.Response:
    return s.post(who, "/coupons", {"player": player, "face_value": face, **extra})


def _chips(s: Server, table: str, player: str) -> dict[str, str]:
    return dict(s.get("auditor", f"/tables/{table}").json()["players"][player])


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(b)")
def test_coupons_are_issued_redeemed_once_and_voidable(server: Server) -> None:
    s = server
    s.ok("admin", "/users", {"username": "cash", "password": PASSWORD, "role": "cashier"},
         key=None)
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    # A self-issued coupon is no coupon: true is not a serial, an unknown serial is refused.
    r = s.post("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10", "coupon": True})
    assert r.status_code == 422 and r.json()["error"]["reason"].startswith("body.coupon")
    r = s.post("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10",
                                                 "coupon": "MP-000000000000"})
    assert r.status_code == 409 and r.json()["error"]["clause"] == CLAUSE
    # Only the cashier or a supervisor issues one.
    for who in ("alice", "dealer", "auditor", "admin"):
        assert _issue(s, who, "alice", "10").status_code == 403, who
    coupon = _issue(s, "cash", "alice", "10", wagers=["pass"]).json()
    assert coupon["status"] == "issued" and coupon["face_value"] == "10.00"
    assert coupon["wagers"] == ["pass"] and coupon["issued_by"] == "cash"
    serial = coupon["serial"]
    # Good only for the player named, the wagers named, at its face value.
    for who, body in (("bob", {"wager": "pass", "amount": "10"}),
                      ("alice", {"wager": "dont_pass", "amount": "10"}),
                      ("alice", {"wager": "pass", "amount": "5"})):
        r = s.post(who, "/tables/craps-1/bets", {**body, "coupon": serial})
        assert r.status_code == 409 and r.json()["error"]["clause"] == CLAUSE, r.text
    assert _chips(s, "craps-1", "alice") == {"chips": "100.00", "on_table": "0.00"}
    made = s.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10",
                                                  "coupon": serial})
    assert made["coupon"] == serial
    assert _chips(s, "craps-1", "alice") == {"chips": "90.00", "on_table": "20.00"}
    # Used once: never again.
    r = s.post("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10",
                                                 "coupon": serial})
    assert r.status_code == 409
    rolled = s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})  # a natural: pass wins
    after = s.get("cash", f"/coupons/{serial}").json()
    assert after["status"] == "redeemed" and after["table"] == "craps-1"
    assert after["round"] == rolled["round"]
    record = s.get("auditor", f"/tables/craps-1/rounds/{rolled['round']}").json()
    assert [c["serial"] for c in record["coupons"]] == [serial]
    # The player sees their coupons; another player's is not found.
    assert [c["serial"] for c in s.get("alice", "/coupons").json()] == [serial]
    assert s.get("bob", f"/coupons/{serial}").status_code == 404
    # Voided: refused at the table; a redeemed coupon cannot be voided.
    spare = _issue(s, "supervisor", "alice", "10").json()["serial"]
    assert s.post("cash", f"/coupons/{spare}/void", {"reason": "issued in error"},
                  key=None).status_code == 200
    r = s.post("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "10",
                                                 "coupon": spare})
    assert r.status_code == 409 and "void" in r.json()["error"]["reason"]
    assert s.post("cash", f"/coupons/{serial}/void", {"reason": "too late"},
                  key=None).status_code == 409
    assert s.get("auditor", "/audit/verify").json()["ok"]


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(b)")
def test_a_coupon_only_where_the_profile_permits(sqlite_server: Server) -> None:
    s = sqlite_server
    s.ok("admin", "/tables", {"id": "cn-1", "game": "craps", "profile": "nj-casino-night",
                              "entry": "physical"}, key=None)
    s.ok("alice", "/tables/cn-1/buy-in", {"amount": "50"})
    serial = _issue(s, "supervisor", "alice", "10").json()["serial"]
    r = s.post("alice", "/tables/cn-1/bets", {"wager": "pass", "amount": "10", "coupon": serial})
    assert r.status_code == 409 and "not taken under nj-casino-night" in r.json()["error"]["reason"]
    assert s.get("supervisor", f"/coupons/{serial}").json()["status"] == "issued"
    assert _chips(s, "cn-1", "alice") == {"chips": "50.00", "on_table": "0.00"}


def test_fifty_redemptions_at_once_one_accepted(server: Server) -> None:
    s = server
    for table in TABLES:
        s.ok("admin", "/tables", {"id": table, "game": "craps", "profile": "nj-13-69f"},
             key=None)
        s.ok("alice", f"/tables/{table}/buy-in", {"amount": "20"})
    serial = _issue(s, "supervisor", "alice", "10").json()["serial"]
    head = s.headers("alice")

    async def run() -> list[httpx.Response]:
        limits = httpx.Limits(max_connections=60)
        async with httpx.AsyncClient(base_url=s.base, timeout=60, limits=limits) as c:
            return list(await asyncio.gather(*(
                c.post(f"/tables/{TABLES[i % 5]}/bets",
                       json={"wager": "pass", "amount": "10", "coupon": serial},
                       headers={**head, "Idempotency-Key": uuid.uuid4().hex})
                for i in range(50))))

    with ThreadPoolExecutor(1) as pool:
        answers = pool.submit(asyncio.run, run()).result()
    assert Counter(r.status_code for r in answers) == {200: 1, 409: 49}
    on_table = [_chips(s, t, "alice")["on_table"] for t in TABLES]
    assert sorted(on_table) == ["0.00"] * 4 + ["20.00"]
    assert s.get("auditor", "/audit/verify").json()["ok"]
