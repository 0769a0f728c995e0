"""Every route of the API (as its OpenAPI schema lists them) for every role: each role the
route is not for is refused with 403 before anything is read or changed, and the roles it is
for are never refused for their role. A route missing from :data:`ALLOWED` fails the test."""

from __future__ import annotations

import re

import httpx

from .conftest import PASSWORD, Server

ROLES = {"admin": "admin", "dealer": "dealer", "supervisor": "supervisor",
         "auditor": "auditor", "player": "alice", "cashier": "cash"}
EVERYONE = frozenset(ROLES)
STAFF_READ = frozenset({"dealer", "supervisor", "auditor", "admin"})
OVERSIGHT = frozenset({"supervisor", "auditor", "admin"})
PUBLIC = {("GET", "/health"), ("POST", "/auth/login"), ("GET", "/web/offer"),
          ("GET", "/profiles"),
          ("POST", "/auth/logout")}  # log-out ends the session it is called with

ALLOWED: dict[tuple[str, str], frozenset[str]] = {
    ("GET", "/auth/me"): EVERYONE,
    ("POST", "/auth/me/password"): EVERYONE,
    ("POST", "/users"): frozenset({"admin"}),
    ("GET", "/users"): frozenset({"admin", "auditor"}),
    ("POST", "/users/{username}/unlock"): frozenset({"admin"}),
    ("POST", "/users/{username}/lock"): frozenset({"admin"}),
    ("DELETE", "/users/{username}"): frozenset({"admin"}),
    ("POST", "/users/{username}/role"): frozenset({"admin"}),
    ("GET", "/wallets/{player}"): frozenset({"player", "admin", "auditor", "supervisor"}),
    ("POST", "/wallets/{player}/deposits"): frozenset({"admin"}),
    ("POST", "/coupons"): frozenset({"cashier", "supervisor"}),
    ("GET", "/coupons"): frozenset({"player", "cashier", "supervisor", "auditor", "admin"}),
    ("GET", "/coupons/{serial}"): frozenset({"player", "cashier", "supervisor", "auditor",
                                             "admin"}),
    ("POST", "/coupons/{serial}/approve"): frozenset({"cashier", "supervisor"}),
    ("POST", "/coupons/{serial}/void"): frozenset({"cashier", "supervisor"}),
    ("GET", "/tables"): EVERYONE,
    ("POST", "/tables"): frozenset({"admin"}),
    ("GET", "/tables/{table_id}"): EVERYONE,
    ("POST", "/tables/{table_id}/buy-in"): frozenset({"player"}),
    ("POST", "/tables/{table_id}/cash-out"): frozenset({"player"}),
    ("POST", "/tables/{table_id}/sit"): frozenset({"player"}),
    ("POST", "/tables/{table_id}/stand"): frozenset({"player"}),
    ("POST", "/tables/{table_id}/bets"): frozenset({"player"}),
    ("POST", "/tables/{table_id}/bets/take-down"): frozenset({"player"}),
    ("POST", "/tables/{table_id}/bets/call"): frozenset({"player"}),
    ("POST", "/tables/{table_id}/no-more-bets"): frozenset({"dealer"}),
    ("POST", "/tables/{table_id}/late-bets/{late_id}/confirm"): frozenset({"dealer",
                                                                         "supervisor"}),
    ("POST", "/tables/{table_id}/roll"): frozenset({"dealer"}),
    ("POST", "/tables/{table_id}/spin"): frozenset({"dealer"}),
    ("POST", "/tables/{table_id}/void"): frozenset({"supervisor"}),
    ("POST", "/tables/{table_id}/void/approve"): frozenset({"supervisor"}),
    ("POST", "/tables/{table_id}/void/withdraw"): frozenset({"supervisor"}),
    ("POST", "/tables/{table_id}/bets/down-on-win"): frozenset({"player"}),
    ("POST", "/tables/{table_id}/bets/off-during-point"): frozenset({"player"}),
    ("POST", "/tables/{table_id}/halt/resolve"): frozenset({"supervisor"}),
    ("POST", "/tables/{table_id}/adjustments"): frozenset({"supervisor"}),
    ("POST", "/tables/{table_id}/adjustments/{pending_id}/approve"): frozenset({"supervisor"}),
    ("POST", "/tables/{table_id}/adjustments/{pending_id}/withdraw"): frozenset({"supervisor"}),
    ("POST", "/tables/{table_id}/adjustments/{pending_id}/decline"): frozenset({"supervisor"}),
    ("POST", "/tables/{table_id}/dice/offer"): frozenset({"dealer"}),
    ("POST", "/tables/{table_id}/dice/select"): frozenset({"player", "dealer"}),
    ("POST", "/tables/{table_id}/dice/refuse"): frozenset({"player"}),
    ("POST", "/tables/{table_id}/dice/pass"): frozenset({"player", "dealer"}),
    ("POST", "/tables/{table_id}/dice/change"): frozenset({"player", "dealer", "supervisor"}),
    ("POST", "/equipment/dice"): frozenset({"admin", "supervisor"}),
    ("POST", "/equipment/dice/{serial}/inspections"): frozenset({"admin", "supervisor"}),
    ("GET", "/equipment/dice"): frozenset({"admin", "supervisor", "auditor", "dealer"}),
    ("POST", "/equipment/items"): frozenset({"admin", "supervisor"}),
    ("GET", "/equipment/items"): STAFF_READ,
    ("GET", "/equipment/items/{item_id}"): STAFF_READ,
    ("POST", "/equipment/items/{item_id}/approvals"): frozenset({"admin", "supervisor"}),
    ("POST", "/equipment/items/{item_id}/inspections"): frozenset({"admin", "supervisor"}),
    ("POST", "/equipment/items/{item_id}/placing"): frozenset({"admin", "supervisor"}),
    ("POST", "/equipment/items/{item_id}/retirement"): frozenset({"admin", "supervisor"}),
    ("POST", "/equipment/dice/{serial}/custody"): frozenset({"admin", "supervisor"}),
    ("GET", "/equipment/dice/{serial}/custody"): STAFF_READ,
    ("GET", "/house/records"): OVERSIGHT,
    ("POST", "/paytables/changes"): frozenset({"admin", "supervisor"}),
    ("POST", "/paytables/changes/{change_id}/approve"): frozenset({"admin", "supervisor"}),
    ("POST", "/paytables/changes/{change_id}/withdraw"): frozenset({"admin", "supervisor"}),
    ("GET", "/paytables/changes"): OVERSIGHT,
    ("GET", "/paytables"): OVERSIGHT,
    ("GET", "/tables/{table_id}/events"): STAFF_READ,
    ("GET", "/tables/{table_id}/alerts"): OVERSIGHT,
    ("GET", "/tables/{table_id}/alert-records"): frozenset({"supervisor", "dealer", "admin",
                                                           "auditor"}),
    ("POST", "/tables/{table_id}/alert-records/{seq}/acknowledge"): frozenset({
        "supervisor", "dealer", "admin"}),
    # A cash-out is asked by the player (their own wallet) or an admin, and paid by an admin.
    ("POST", "/wallets/{player}/cash-outs"): frozenset({"player", "admin"}),
    ("GET", "/wallets/{player}/cash-outs"): frozenset({"player", "admin", "auditor"}),
    ("POST", "/wallets/{player}/cash-outs/{number}/pay"): frozenset({"admin"}),
    ("POST", "/wallets/{player}/cash-outs/{number}/withdraw"): frozenset({"player", "admin"}),
    ("POST", "/wallets/{player}/cash-outs/{number}/decline"): frozenset({"admin"}),
    ("GET", "/cage/cash-outs"): frozenset({"admin", "auditor"}),
    ("GET", "/tables/{table_id}/rounds"): STAFF_READ,
    # Players recall only rounds they took part in (checked against the ledger, so a player
    # may get 403 here for a round that is not theirs).
    ("GET", "/tables/{table_id}/rounds/{round_no}"): EVERYONE,
    ("GET", "/players/{player}/rounds"): frozenset({"player", "supervisor", "auditor",
                                                    "admin"}),
    ("GET", "/audit/verify"): OVERSIGHT,
    ("GET", "/tables/{table_id}/rules"): EVERYONE,
    ("GET", "/reports/tables/{table_id}"): OVERSIGHT,
    ("GET", "/reports/event"): OVERSIGHT,
}
PARAMS = {"table_id": "no-such-table", "player": "alice", "username": "nobody-x",
          "serial": "MP-000000000000", "round_no": "1", "late_id": "1", "pending_id": "1",
          "item_id": "no-such-item", "change_id": "1", "seq": "1", "number": "1"}


def test_every_route_for_every_role(sqlite_server: Server) -> None:
    s = sqlite_server
    s.ok("admin", "/users", {"username": "cash", "password": PASSWORD, "role": "cashier"},
         key=None)
    spec = httpx.get(s.base + "/openapi.json").json()
    operations = [(method.upper(), path) for path, ops in spec["paths"].items()
                  for method in ops]
    listed = {op for op in operations if op not in PUBLIC}
    assert listed == set(ALLOWED), set(ALLOWED) ^ listed
    forbidden = 0
    # One client for the ~500 requests: its connections are kept alive, not made per request.
    with httpx.Client(timeout=30) as client:
        for method, path in sorted(listed):
            url = s.base + re.sub(r"\{(\w+)\}", lambda m: PARAMS[m.group(1)], path)
            for role, who in ROLES.items():
                body = {} if method == "POST" else None
                r = client.request(method, url, json=body, headers=s.headers(who, "matrix-key"))
                assert r.status_code < 500, (method, path, role, r.text)
                if role in ALLOWED[(method, path)]:
                    if (method, path) != ("GET", "/tables/{table_id}/rounds/{round_no}"):
                        assert r.status_code != 403, (method, path, role, r.text)
                else:
                    assert r.status_code == 403, (method, path, role, r.status_code, r.text)
                    assert r.json()["error"]["code"] == "forbidden"
                    article = "an" if role[0] in "aeiou" else "a"
                    assert r.json()["error"]["reason"].startswith(f"{article} {role} may not"), r.text
                    forbidden += 1
    assert forbidden >= 150
    assert s.get("auditor", "/audit/verify").json()["ok"]
