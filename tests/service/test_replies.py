"""The replies a real server sends match the models its ``/openapi.json`` names for them.

A table action's reply is encoded once, as the ledger keeps it under the Idempotency-Key, and
not built from its model (``croupier.service.api.replies``): the model documents it. Here every
action's real answer, over HTTP on SQLite and PostgreSQL, is read back through the model the
schema names for that route and status, and no field may be left undocumented (a model's
``model_extra``), so the documentation cannot drift from what a client gets. The bet is
answered both by the express lane and by the app's own route.
"""

from __future__ import annotations

import json
import time
import uuid
from datetime import UTC, datetime
from typing import Any

import httpx
from pydantic import BaseModel

from croupier.service.api import alerts, cage, coupons, reports, rules  # noqa: F401 (models)
from croupier.service.api.account_replies import TableState
from croupier.service.api.record_replies import Outcome, Recorded
from croupier.service.api.replies import Documented, EventShown
from croupier.service.equipment import passing_record

from .conftest import PASSWORD, Server


def _models() -> dict[str, type[Documented]]:
    """Every documented reply model, by the name the schema's components give it."""
    found: dict[str, type[Documented]] = {}
    todo: list[type[Documented]] = [Documented]
    while todo:
        kind = todo.pop()
        found[kind.__name__] = kind
        todo.extend(kind.__subclasses__())
    return found


MODELS = _models()
OPEN = (EventShown, Recorded, Outcome)
"""Models whose fields depend on a kind they carry (an event's own fields by its type, a
decision's by its game)."""


def undocumented(value: Any, where: str = "reply") -> list[str]:
    """The fields of a validated reply that its model does not name."""
    out: list[str] = []
    if isinstance(value, BaseModel):
        if not isinstance(value, OPEN):
            out += [f"{where}.{k}" for k in value.model_extra or {}]
        for name in type(value).model_fields:
            out += undocumented(getattr(value, name), f"{where}.{name}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += undocumented(item, f"{where}[{i}]")
    return out


def read_back(model: type[Documented], body: Any, where: str = "reply") -> None:
    """``body`` read through ``model``: every field named, and the model reads back every key
    the answer has, with the same value."""
    reply = model.model_validate(body)
    assert undocumented(reply) == [], (where, body)
    assert reply.model_dump(mode="json", exclude_unset=True) == body, where


class Checked:
    """A server, its schema, and every reply checked against the model the schema names."""

    def __init__(self, server: Server) -> None:
        self.s = server
        self.spec = httpx.get(server.base + "/openapi.json", timeout=30).json()
        self.seen: set[tuple[str, str, int]] = set()

    def model(self, method: str, route: str, status: int) -> tuple[type[Documented], bool]:
        """The model the schema names for the answer, and whether the answer is a list."""
        answers = self.spec["paths"][route][method.lower()]["responses"]
        schema = answers[str(status)]["content"]["application/json"]["schema"]
        many = schema.get("type") == "array"
        ref = schema["items"]["$ref"] if many else schema["$ref"]
        return MODELS[ref.rsplit("/", 1)[1]], many

    def check(self, method: str, route: str, r: httpx.Response) -> Any:
        assert r.status_code in (200, 201, 202), f"{route}: {r.status_code} {r.text}"
        answer = r.json()
        model, many = self.model(method, route, r.status_code)
        assert isinstance(answer, list) == many, (route, answer)
        for body in answer if many else [answer]:
            read_back(model, body, route)
        self.seen.add((method, route, r.status_code))
        return answer

    def post(self, who: str, route: str, body: Any = None, **path: Any) -> Any:
        r = self.s.post(who, route.format(**path), body)
        return self.check("POST", route, r)

    def get(self, who: str, route: str, **path: Any) -> Any:
        return self.check("GET", route, self.s.get(who, route.format(**path)))

    def delete(self, who: str, route: str, **path: Any) -> Any:
        r = httpx.delete(self.s.base + route.format(**path), headers=self.s.headers(who),
                         timeout=30)
        return self.check("DELETE", route, r)


T = "/tables/{table_id}"


def _by_route(c: Checked, who: str, table: str, body: dict[str, Any]) -> Any:
    """A bet sent as ``application/vnd.croupier+json``: JSON to the app's route, not the
    ``application/json`` the express lane takes, so the lane passes it on."""
    headers = {**c.s.headers(who, uuid.uuid4().hex),
               "content-type": "application/vnd.croupier+json"}
    r = httpx.post(c.s.base + f"/tables/{table}/bets", content=json.dumps(body).encode(),
                   headers=headers, timeout=30)
    return c.check("POST", T + "/bets", r)


def test_every_table_action_answers_as_its_model(server: Server) -> None:
    c = Checked(server)
    c.post("admin", "/wallets/{player}/deposits", {"amount": "50.00"}, player="alice")
    asked = c.post("alice", "/wallets/{player}/cash-outs", {"amount": "20.00"}, player="alice")
    c.post("admin", "/wallets/{player}/cash-outs/{number}/pay", player="alice",
           number=asked["cash_out"])
    c.get("admin", "/cage/cash-outs")
    c.get("alice", "/wallets/{player}/cash-outs", player="alice")
    again = c.post("admin", "/wallets/{player}/cash-outs", {"amount": "1.00"}, player="alice")
    c.post("admin", "/wallets/{player}/cash-outs/{number}/withdraw",
           player="alice", number=again["cash_out"])
    serial = c.post("supervisor", "/coupons", {"player": "alice", "face_value": "5"})["serial"]
    bought = c.post("alice", T + "/buy-in", {"amount": "300"}, table_id="craps-1")
    assert bought["you"] == {"chips": "300.00", "on_table": "0.00"}
    c.post("bob", T + "/buy-in", {"amount": "100"}, table_id="craps-1")
    serials = [f"NJ-{i:04d}" for i in range(1, 6)]
    c.post("alice", T + "/dice/refuse", table_id="craps-1")
    c.post("dealer", T + "/dice/offer", {"serials": serials}, table_id="craps-1")
    c.post("bob", T + "/dice/select", {"serials": serials[1:3]}, table_id="craps-1")
    # Bets: by the express lane and by the route, the same model.
    c.post("alice", T + "/bets", {"wager": "pass", "amount": "5", "coupon": serial},
           table_id="craps-1")
    _by_route(c, "bob", "craps-1", {"wager": "field", "amount": "5"})
    c.post("alice", T + "/bets", {"wager": "place_win", "number": 6, "amount": "12"},
           table_id="craps-1")
    c.post("alice", T + "/bets/call", {"wager": "place_win", "number": 6, "on": True},
           table_id="craps-1")
    c.post("alice", T + "/bets/take-down", {"wager": "place_win", "number": 6},
           table_id="craps-1")
    c.post("alice", T + "/dice/change", table_id="craps-1")
    c.post("dealer", T + "/roll", {"dice": [2, 2]}, table_id="craps-1")
    # A late bet waits (202) for the dealer and the boxperson.
    c.post("dealer", T + "/no-more-bets", table_id="craps-1")
    late = c.post("alice", T + "/bets", {"wager": "field", "amount": "5"}, table_id="craps-1")
    c.post("dealer", T + "/late-bets/{late_id}/confirm", table_id="craps-1",
           late_id=late["late_bet"])
    c.post("supervisor", T + "/late-bets/{late_id}/confirm", table_id="craps-1",
           late_id=late["late_bet"])
    decided = c.post("dealer", T + "/roll", {"dice": [1, 3]}, table_id="craps-1")
    voided = c.post("supervisor", T + "/void", {"reason": "dice left the table"},
                    table_id="craps-1")
    assert voided["voided_round"] == decided["round"]
    # Adjustments: within the limit at once, past it pending (202) until a second approves.
    c.post("supervisor", T + "/adjustments",
           {"player": "alice", "amount": "5.00", "reason": "short paid"},
           table_id="craps-1")
    asked = c.post("supervisor", T + "/adjustments",
                   {"player": "alice", "amount": "-150.00", "reason": "overpaid"},
                   table_id="craps-1")
    c.post("floor", T + "/adjustments/{pending_id}/approve", table_id="craps-1",
           pending_id=asked["pending_adjustment"])
    c.post("dealer", T + "/roll", {"dice": [1, 3]}, table_id="craps-1")
    c.post("dealer", T + "/dice/pass", table_id="craps-1")
    c.post("bob", T + "/cash-out", {}, table_id="craps-1")
    assert c.get("auditor", "/reports/event")["event"]["table"] == "all tables"
    c.get("auditor", "/reports/tables/{table_id}", table_id="craps-1")
    c.get("auditor", T + "/alert-records", table_id="craps-1")
    c.get("alice", T + "/rules", table_id="craps-1")
    assert len(c.get("alice", "/coupons")) == 1
    c.get("auditor", "/coupons/{serial}", serial=serial)
    other = c.post("supervisor", "/coupons", {"player": "bob", "face_value": "5"})["serial"]
    c.post("supervisor", "/coupons/{serial}/void", {"reason": "issued in error"}, serial=other)
    assert c.get("alice", "/wallets/{player}", player="alice")["entries"]
    assert {(m, r) for m, r, _ in c.seen} >= {("POST", T + "/bets"), ("POST", T + "/roll")}
    assert ("POST", T + "/bets", 202) in c.seen and ("POST", T + "/adjustments", 202) in c.seen
    _recall_answers_as_its_models(c)
    _records_answer_as_their_models(c)
    _accounts_answer_as_their_models(c)


def _recall_answers_as_its_models(c: Checked) -> None:
    """The table's state (the staff's and a player's view), its events, alerts and rounds."""
    whole = c.get("auditor", T, table_id="craps-1")
    assert whole["players"]["alice"]["chips"] and whole["shooter"] == "alice"
    mine = c.get("alice", T, table_id="craps-1")
    assert set(mine["players"]) == {"alice"}
    assert [e["type"] for e in c.get("auditor", T + "/events", table_id="craps-1")][:1] == \
        ["chips_in"]
    c.get("supervisor", T + "/alerts", table_id="craps-1")
    rounds = c.get("auditor", T + "/rounds", table_id="craps-1")
    decided = rounds[-1]["round"]
    for who in ("auditor", "alice"):
        first = c.get(who, T + "/rounds/{round_no}", table_id="craps-1", round_no=decided)
        assert first["coupons"] and first["draw"]["source"] == "entered"
    assert c.get("alice", "/players/{player}/rounds", player="alice")
    assert c.get("auditor", "/audit/verify")["ok"] is True


def _records_answer_as_their_models(c: Checked) -> None:
    """Dice, the equipment register, the house's chain and the pay tables."""
    c.post("admin", "/equipment/dice", {"serial": "R-1", "set_name": "replies",
                                        "table_id": "craps-1"})
    c.post("admin", "/equipment/dice/{serial}/inspections", passing_record(), serial="R-1")
    failed = c.post("admin", "/equipment/dice/{serial}/inspections",
                    {**passing_record(), "edges_square": False}, serial="R-1")
    assert failed["passed"] is False and failed["failures"]
    assert any(d["last_inspection"] for d in c.get("auditor", "/equipment/dice"))
    c.post("admin", "/equipment/items", {"id": "layout-r", "type": "layout",
                                         "description": "layout for the replies",
                                         "table": "wheel-r", "wagers": ["five_adjacent"]})
    item = "/equipment/items/{item_id}"
    c.post("supervisor", item + "/approvals", {"authority": "Casino Control Commission",
                                               "reference": "L-1"}, item_id="layout-r")
    c.post("admin", item + "/inspections", {"passed": True, "findings": "as approved"},
           item_id="layout-r")
    c.post("admin", item + "/placing", {"table": "wheel-s"}, item_id="layout-r")
    c.post("admin", item + "/retirement", {"reason": "worn"}, item_id="layout-r")
    assert c.get("auditor", item, item_id="layout-r")["retired"]["reason"] == "worn"
    c.get("auditor", "/equipment/items")
    c.post("admin", "/equipment/dice/{serial}/custody", {"step": "stored", "note": "vault"},
           serial="R-1")
    steps = c.get("dealer", "/equipment/dice/{serial}/custody", serial="R-1")
    assert [r["payload"]["step"] for r in steps][-1] == "stored"
    c.get("auditor", "/house/records")
    change = c.post("admin", "/paytables/changes", {
        "game": "craps", "profile": "nj-13-69f", "pays": {"field:12": "3 to 1"},
        "effective": datetime.fromtimestamp(time.time() + 86400, UTC).isoformat(),
        "reason": "triple on twelve"})
    # Approving checks the table again, as proposing did (a slow check): its answer, the
    # same record, is read back in test_procedures_records.py.
    c.post("admin", "/paytables/changes/{change_id}/withdraw", {"reason": "not this year"},
           change_id=change["id"])
    c.get("auditor", "/paytables/changes")
    c.get("auditor", "/paytables")


def _accounts_answer_as_their_models(c: Checked) -> None:
    """Health, logging in and out, the accounts, the tables and what a table offers."""
    c.get("alice", "/health")
    token = c.post("bob", "/auth/login", {"username": "bob", "password": PASSWORD})["token"]
    c.check("POST", "/auth/logout", httpx.post(
        c.s.base + "/auth/logout", headers={"authorization": f"Bearer {token}"}, timeout=30))
    c.get("alice", "/auth/me")
    c.post("admin", "/users", {"username": "carol", "password": "a long passphrase",
                               "role": "dealer"})
    assert any(u["username"] == "carol" for u in c.get("auditor", "/users"))
    for change in ("lock", "unlock"):
        c.post("admin", "/users/{username}/" + change, username="carol")
    c.post("admin", "/users/{username}/role", {"role": "supervisor"}, username="carol")
    c.delete("admin", "/users/{username}", username="carol")
    c.get("alice", "/tables")
    c.check("GET", "/web/offer", httpx.get(c.s.base + "/web/offer", params={
        "game": "craps", "profile": "nj-13-69f"}, timeout=30))


def test_roulette_mini_craps_and_an_rng_void_answer_as_their_models(server: Server) -> None:
    c = Checked(server)
    c.post("alice", T + "/buy-in", {"amount": "100"}, table_id="roulette-1")
    c.post("alice", T + "/bets", {"wager": "red", "amount": "10"}, table_id="roulette-1")
    c.post("dealer", T + "/no-more-bets", table_id="roulette-1")
    c.post("dealer", T + "/spin", {"number": 5, "revolutions": 3}, table_id="roulette-1")
    c.post("dealer", T + "/no-more-bets", table_id="roulette-1")
    c.post("dealer", T + "/spin", {}, table_id="roulette-1")
    c.get("alice", T + "/rules", table_id="roulette-1")
    assert c.get("alice", T, table_id="roulette-1")["wheel"]
    c.check("GET", "/web/offer", httpx.get(c.s.base + "/web/offer", params={
        "game": "roulette", "profile": "nj-casino-night"}, timeout=30))
    c.post("admin", "/tables", {"id": "mini-1", "game": "mini-craps", "profile": "nj-13-69f"})
    c.post("bob", T + "/buy-in", {"amount": "50"}, table_id="mini-1")
    c.post("bob", T + "/sit", table_id="mini-1")
    assert c.get("bob", T, table_id="mini-1")["seated"]
    c.post("bob", T + "/stand", table_id="mini-1")
    server.ok("admin", "/tables", {"id": "auto-1", "game": "automated-craps",
                                   "profile": "nj-13-69f", "entry": "rng",
                                   "options": {"down_on_win": True, "off_during_point": True}},
              key=None)
    c.post("alice", T + "/buy-in", {"amount": "100"}, table_id="auto-1")
    c.post("alice", T + "/bets", {"wager": "place_win", "number": 8, "amount": "12"},
           table_id="auto-1")
    c.post("alice", T + "/bets/down-on-win", {"wager": "place_win", "number": 8}, table_id="auto-1")
    c.post("alice", T + "/bets", {"wager": "field", "amount": "10"}, table_id="auto-1")
    c.post("dealer", T + "/roll", {}, table_id="auto-1")
    asked = c.post("supervisor", T + "/void", {"reason": "device jammed"}, table_id="auto-1")
    assert "void_asked" in asked
    c.post("floor", T + "/void/approve", table_id="auto-1")
    voided = c.get("auditor", T + "/rounds", table_id="auto-1")[0]
    assert voided["voided"]["approved_by"] == "floor"
    drawn = c.get("auditor", T + "/rounds/{round_no}", table_id="auto-1",
                  round_no=voided["round"])
    assert drawn["draw"]["raw"] and drawn["voided"] == voided["voided"]
    assert ("POST", T + "/void", 202) in c.seen


def test_a_field_the_model_does_not_name_is_found() -> None:
    """The check above can fail: an answer with a field no model names is reported."""
    reply = MODELS["TableReply"].model_validate(
        {"table": "t", "round": 1, "events": [{"seq": 1, "round": 1, "type": "bet", "x": 1}],
         "you": {"chips": "1.00", "on_table": "0.00", "owed": "2.00"}, "surprise": 3})
    assert undocumented(reply) == ["reply.surprise", "reply.you.owed"]
    state = TableState.model_validate(
        {"id": "t", "game": "craps", "profile": "p", "options": {}, "capacity": 1, "round": 1,
         "seq": 0, "betting_open": True, "dealer": None, "players": {}, "layout": [],
         "void_asked": None, "halted": None, "decision": None, "entry": "rng", "fog": 1})
    assert undocumented(state) == ["reply.fog"]
