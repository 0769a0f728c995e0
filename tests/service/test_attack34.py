"""Found by an attack on the live server (in process: the app over a demo ledger).

* What one supervisor moves for a player alone in 24 hours is counted as a person's, not an
  account's: two supervisor accounts one admin made (one person by the users' chain) each
  moved 100.00 for the same player alone, 200.00 with no second person;
* a query parameter given twice, or one the route does not know, is refused (422 naming it) on
  every route that reads the query: ``GET /tables/{id}/rounds``, ``/players/{p}/rounds`` and
  ``/house/records`` (and the public ``/web/offer``) took the last of two values and ignored
  a misspelt name;
* the free text an equipment approval (its authority and reference) and a die's set name
  record is plain text, as every reason is: a reference of two zero-width spaces (which reads
  as nothing), a right-to-left override, NUL and an escape sequence were recorded."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from croupier.service import controls, equipment_register
from serverkit import PASSWORD

from .appkit import App, demo_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("attack34")) as made:
        yield made


@pytest.mark.clause("N.J.A.C. 13:47-20.25(d)")
def test_adjustments_alone_add_up_across_the_accounts_of_one_person(app: App) -> None:
    """box-a and box-b were both made through the API by admin: one person. box-a moves 100.00
    for bob alone; box-b's 100.00 for bob would take that person past 100.00 alone in the
    period, so it waits for a second person (before: moved at once). floor, a person of their
    own, approves it."""
    for name in ("box-a", "box-b"):
        app.ok("admin", "/users", {"username": name, "password": PASSWORD,
                                   "role": "supervisor"}, key=None)
    app.ok("bob", "/tables/craps-1/buy-in", {"amount": "50"})
    body = {"player": "bob", "amount": "100.00", "reason": "dealer short paid"}
    assert app.post("box-a", "/tables/craps-1/adjustments", body).status_code == 200
    second = app.post("box-b", "/tables/craps-1/adjustments", body)
    assert second.status_code == 202, second.text
    asked = second.json()
    assert asked["status"] == "pending" and "box-b" in asked["reason_pending"], asked
    assert app.get("auditor", "/tables/craps-1").json()["players"]["bob"]["chips"] == "150.00"
    app.ok("floor", f"/tables/craps-1/adjustments/{asked['pending_adjustment']}/approve")
    assert app.get("auditor", "/tables/craps-1").json()["players"]["bob"]["chips"] == "250.00"
    assert controls.ADJUSTMENT_LIMIT == 100
    assert app.audit()["ok"]


@pytest.mark.parametrize(("path", "query", "place"), [
    ("/tables/craps-1/rounds", "limit=1&limit=500", "query.limit"),
    ("/tables/craps-1/rounds", "limt=1", "query.limt"),
    ("/players/alice/rounds", "limit=1&limit=10", "query.limit"),
    ("/house/records", "after=0&after=5", "query.after"),
    ("/house/records", "limit=1&size=2", "query.size"),
    ("/web/offer", "game=roulette&game=craps&profile=nj-13-69f", "query.game"),
])
def test_a_query_parameter_twice_or_unknown_is_named(app: App, path: str, query: str,
                                                     place: str) -> None:
    r = app.get("admin", f"{path}?{query}")
    assert r.status_code == 422, r.text
    assert r.json()["error"]["reason"].startswith(place + ":"), r.text


def test_every_route_reading_the_query_refuses_one_it_does_not_know(app: App) -> None:
    """Each route with a query parameter checks its query as a whole (``known_query``): a
    route added without it would take the last of two values and ignore a misspelt name."""
    from fastapi.routing import APIRoute

    def reads_query(dependant: Any) -> bool:
        return bool(dependant.query_params) or any(reads_query(d)
                                                   for d in dependant.dependencies)

    unchecked = []
    for route in app.client.app.routes:  # type: ignore[attr-defined]
        if not isinstance(route, APIRoute) or not reads_query(route.dependant):
            continue
        checks = [d.dependency for d in route.dependencies]
        if not any(getattr(c, "__qualname__", "").startswith("known_query.") for c in checks):
            unchecked.append(route.path)
    assert unchecked == []


@pytest.mark.parametrize(("path", "body", "place"), [
    ("/equipment/items/{item}/approvals",
     {"authority": "Casino \u202eControl Commission", "reference": "CCC-1"}, "body.authority"),
    ("/equipment/items/{item}/approvals",
     {"authority": "Casino Control Commission", "reference": "\u200b\u200b"}, "body.reference"),
    ("/equipment/items/{item}/approvals",
     {"authority": "Casino\x00 Control", "reference": "CCC-1"}, "body.authority"),
    ("/equipment/dice", {"serial": "HID-1", "set_name": "set \x1b[31mA"}, "body.set_name"),
])
def test_recorded_equipment_text_is_plain(app: App, path: str, body: dict[str, str],
                                          place: str) -> None:
    item = "wheel-plain"
    if app.get("auditor", f"/equipment/items/{item}").status_code == 404:
        app.ok("supervisor", "/equipment/items", {"id": item, "type": "wheel",
                                                  "description": "a wheel"}, key=None)
    r = app.post("floor", path.format(item=item), body, key=None) if "items" in path else (
        app.post("admin", path, body, key=None))
    assert r.status_code == 422, r.text
    assert r.json()["error"]["reason"].startswith(place), r.text
    assert app.get("auditor", f"/equipment/items/{item}").json()["approvals"] == []
    assert "HID-1" not in [d["serial"] for d in app.get("auditor", "/equipment/dice").json()]


@pytest.mark.parametrize(("path", "body"), [
    ("/tables/craps-1/bets", {"wager": "plase", "amount": "5"}),
    ("/tables/roulette-1/bets", {"wager": "redd", "amount": "5"}),
    ("/tables/craps-1/bets/take-down", {"wager": "plase"}),
    ("/tables/craps-1/bets/call", {"wager": "plase", "on": False}),
])
def test_an_unknown_wager_is_named_at_the_field_that_holds_it(app: App, path: str,
                                                              body: dict[str, Any]) -> None:
    app.ok("alice", path.rsplit("/bets", 1)[0] + "/buy-in", {"amount": "10"})
    r = app.post("alice", path, body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["reason"].startswith("body.wager: unknown "), r.text


@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2")
def test_the_first_table_does_not_set_the_house_pay_table_alone(app: App) -> None:
    rich = {"field:12": "999999 to 1", "field:2": "999999 to 1"}
    r = app.post("admin", "/tables", {"id": "cn-rich", "game": "craps",
                                      "profile": "nj-casino-night", "options": {"pays": rich}},
                 key=None)
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error["clause"] == "N.J.A.C. 13:47-20.25(i)2" and "second person" in error["reason"]
    assert "cn-rich" not in [t["id"] for t in app.get("auditor", "/tables").json()]
    opened = app.ok("admin", "/tables", {"id": "cn-plain", "game": "craps",
                                         "profile": "nj-casino-night"}, key=None)
    assert opened["options"].get("pays", {}) == {}
    house = {(h["game"], h["profile"]): h for h in app.get("auditor", "/paytables").json()}
    assert house[("craps", "nj-casino-night")]["pays"] == {}


@pytest.mark.parametrize(("who", "request_line", "body", "status", "place"), [
    (None, "POST /auth/login", {"username": "ad\x00min", "password": "x"}, 422,
     "body.username"),
    ("admin", "GET /wallets/al%00ice", None, 400, "path"),
    ("admin", "POST /users/al%00ice/lock", None, 400, "path"),
    ("supervisor", "GET /coupons?player=al%00ice", None, 422, "query.player"),
    ("supervisor", "GET /coupons?after=MP-%00", None, 422, "query.after"),
    ("supervisor", "POST /coupons", {"player": "al\x00ice", "face_value": "5"}, 422,
     "body.player"),
    ("supervisor", "POST /tables/craps-1/adjustments",
     {"player": "bob", "amount": "5", "reason": "short \x00paid"}, 422, "body.reason"),
    ("alice", "POST /tables/roulette-1/bets",
     {"wager": "straight", "numbers": ["1\x00"], "amount": "1"}, 422, "body.numbers[0]"),
])
def test_a_nul_character_is_refused_naming_its_place(app: App, who: str | None,
                                                      request_line: str, body: Any,
                                                      status: int, place: str) -> None:
    method, path = request_line.split(" ")
    headers = app.headers(who, "nul-key") if who is not None else {}
    r = app.client.request(method, path, json=body, headers=headers)
    assert r.status_code == status, r.text
    reason = r.json()["error"]["reason"]
    assert reason.startswith(place + ": a NUL character"), reason


@pytest.mark.parametrize(("who", "request_line", "place"), [
    ("alice", "GET /tables/craps-1/rounds/2147483648", "path.round_no"),
    ("admin", "GET /tables/craps-1/events?since=2147483648", "query.since"),
    ("admin", "GET /house/records?after=2147483648", "query.after"),
    ("supervisor", "POST /tables/craps-1/adjustments/2147483648/approve", "path.pending_id"),
    ("supervisor", "POST /paytables/changes/2147483648/approve", "path.change_id"),
])
def test_a_number_past_what_the_ledger_holds_is_named(app: App, who: str, request_line: str,
                                                      place: str) -> None:
    method, path = request_line.split(" ")
    r = app.client.request(method, path, headers=app.headers(who, "big-key"))
    assert r.status_code == 422, r.text
    assert r.json()["error"]["reason"].startswith(place + ":"), r.text


def _raw(app: App, who: str, path: str, body: bytes) -> Any:
    headers = {**app.headers(who, uuid.uuid4().hex), "Content-Type": "application/json"}
    return app.client.post(path, content=body, headers=headers)


@pytest.mark.parametrize(("who", "path", "body", "place"), [
    ("floor", "/tables/craps-1/adjustments",
     b'{"player": "bob", "amount": "1.00", "reason": "ab\\ud800c"}', "body.reason"),
    ("alice", "/tables/roulette-1/bets",
     b'{"wager": "straight", "numbers": ["\\uDFFF"], "amount": "1"}', "body.numbers[0]"),
    ("admin", "/tables", b'{"id": "sur-1", "game": "craps", "profile": "nj-13-69f", '
     b'"options": {"odds": "\\ud800"}}', "body.options.odds"),
    ("supervisor", "/paytables/changes", b'{"game": "craps", "profile": "nj-13-69f", '
     b'"pays": {"field:12": "3 to 1"}, "effective": "2099-01-01T00:00:00Z", '
     b'"reason": "more \\udbff"}', "body.reason"),
])
def test_a_lone_surrogate_is_refused_naming_its_place(app: App, who: str, path: str,
                                                      body: bytes, place: str) -> None:
    app.ok("bob", "/tables/craps-1/buy-in", {"amount": "10"})
    app.ok("alice", "/tables/roulette-1/buy-in", {"amount": "10"})
    r = _raw(app, who, path, body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["reason"].startswith(place + ": half of a UTF-16"), r.text
    for table in ("craps-1", "roulette-1"):
        assert app.get("auditor", f"/tables/{table}/events").status_code == 200
    assert app.get("auditor", "/reports/event").status_code == 200


def test_a_surrogate_pair_is_one_character_and_taken(app: App) -> None:
    app.ok("bob", "/tables/craps-1/buy-in", {"amount": "10"})
    r = _raw(app, "floor", "/tables/craps-1/adjustments",
             b'{"player": "bob", "amount": "1.00", "reason": "tip \\ud83d\\ude00 ok"}')
    assert r.status_code == 200, r.text
    assert app.get("auditor", "/tables/craps-1/events").status_code == 200


def test_a_stream_token_holding_a_lone_surrogate_is_malformed(app: App) -> None:
    from starlette.websockets import WebSocketDisconnect

    with app.client.websocket_connect("/tables/craps-1/stream") as ws:
        ws.send_text('{"token": "\\ud800"}')
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == 4422


def test_a_reason_too_short_is_told_in_characters(app: App) -> None:
    r = app.post("supervisor", "/tables/craps-1/void", {"reason": "ab"})
    assert r.status_code == 422, r.text
    reason = r.json()["error"]["reason"]
    assert reason.startswith("body.reason: ") and "3 characters" in reason, reason


@pytest.mark.clause("N.J.A.C. 13:47-20.25(d)", "N.J.A.C. 13:69F-1.3(b)")
def test_no_adjustment_or_coupon_for_a_player_of_ones_own_line(app: App) -> None:
    for name, role in (("line-box", "supervisor"), ("line-desk", "cashier"),
                       ("line-pal", "player")):
        app.ok("admin", "/users", {"username": name, "password": PASSWORD, "role": role},
               key=None)
    app.ok("admin", "/wallets/line-pal/deposits", {"amount": "10"})
    app.ok("line-pal", "/tables/craps-1/buy-in", {"amount": "10"})
    before = app.get("auditor", "/tables/craps-1").json()["players"]["line-pal"]
    error = app.refused("line-box", "/tables/craps-1/adjustments",
                        {"player": "line-pal", "amount": "100.00", "reason": "short paid"})
    assert "one person" in error["reason"] and error["clause"] == "N.J.A.C. 13:69F-1.1"
    for who in ("line-desk", "line-box"):
        error = app.refused(who, "/coupons", {"player": "line-pal", "face_value": "100.00"})
        assert "one person" in error["reason"] and error["clause"] == "N.J.A.C. 13:69F-1.3(b)"
    # Asked by an independent person, it is not approved by the player's own line either.
    asked = app.post("supervisor", "/tables/craps-1/adjustments",
                     {"player": "line-pal", "amount": "150.00", "reason": "short paid"})
    assert asked.status_code == 202, asked.text
    pending = asked.json()["pending_adjustment"]
    app.refused("line-box", f"/tables/craps-1/adjustments/{pending}/approve")
    coupon = app.post("supervisor", "/coupons", {"player": "line-pal", "face_value": "150.00"})
    assert coupon.status_code == 202, coupon.text
    app.refused("line-desk", f"/coupons/{coupon.json()['serial']}/approve", None)
    assert app.get("auditor", "/tables/craps-1").json()["players"]["line-pal"] == before
    assert [c["status"] for c in app.get("auditor", "/coupons?player=line-pal").json()] == [
        "pending"]
    # Independent people still adjust and approve for the player.
    app.ok("floor", f"/tables/craps-1/adjustments/{pending}/approve")
    assert app.audit()["ok"]


@pytest.mark.clause(equipment_register.CLAUSE)
def test_the_equipment_registers_refusals_cite_its_control(app: App) -> None:
    item = "ball-cited"
    app.ok("supervisor", "/equipment/items", {"id": item, "type": "ball",
                                              "description": "a ball"}, key=None)
    approval = {"authority": "Casino Control Commission", "reference": "CCC-7"}
    refusals = [app.post("supervisor", f"/equipment/items/{item}/approvals", approval,
                         key=None)]
    app.ok("floor", f"/equipment/items/{item}/approvals", approval, key=None)
    refusals.append(app.post("floor", f"/equipment/items/{item}/approvals", approval, key=None))
    app.ok("floor", f"/equipment/items/{item}/retirement", {"reason": "worn out"}, key=None)
    refusals.append(app.post("admin", f"/equipment/items/{item}/approvals", approval, key=None))
    refusals.append(app.post("supervisor", "/equipment/items",
                             {"id": item, "type": "ball", "description": "a ball"}, key=None))
    for r in refusals:
        assert r.status_code == 409, r.text
        assert r.json()["error"]["clause"] == equipment_register.CLAUSE, r.text
