"""The express lane answers a bet exactly as the bet's route does, ordinary or not.

Two apps on two demo ledgers made alike, one with the express lane and one without (every bet
through its FastAPI route), get the same requests in the same order: a valid bet on each game,
a replay, a key reused for another body, and every way a bet can be refused or malformed
(token, role, key, body, content type, table id, limits, the engine's own refusals). Each
answer, status, body (bar the request id) and replay header, must be the same from both; and
the lane itself must have answered the ordinary ones rather than passed them on.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from croupier.service.api import express

PASSWORD = "express-test-pass-1"
BETS = "/tables/craps-1/bets"


def _client(data: Path, express_lane: bool) -> TestClient:
    from croupier.service import install, preflight
    from croupier.service.app import create_app
    from croupier.service.audit import keys, verify
    from croupier.service.rng import make_rng

    # A test ledger: the app refuses a seeded RNG on any other.
    install.init(data, None, None, install.FirstUsers(demo=True, demo_password=PASSWORD),
                 test_mode=True)
    engine = preflight.open_ledger(data, None)
    key_path = keys.key_path(data, None)
    verify.configure(keys.load_key(key_path), install.pin_path(key_path))
    return TestClient(create_app(engine, make_rng(11, True), express_lane=express_lane))


class Table:
    """One app and its staff's and players' tokens."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.tokens = {who: client.post("/auth/login", json={
            "username": who, "password": PASSWORD}).json()["token"]
            for who in ("alice", "bob", "dealer")}

    def post(self, path: str, body: Any, who: str | None = "alice", key: str | None = "k",
             headers: dict[str, str] | None = None, raw: bytes | None = None,
             ) -> tuple[int, Any, str | None]:
        head = {"Content-Type": "application/json"}
        if who is not None:
            head["Authorization"] = f"Bearer {self.tokens.get(who, who)}"
        if key is not None:
            head["Idempotency-Key"] = key
        head.update(headers or {})
        content = raw if raw is not None else json.dumps(body).encode()
        answer = self.client.post(path, content=content, headers=head)
        data = answer.json()
        if isinstance(data, dict) and isinstance(data.get("error"), dict):
            data["error"].pop("request_id", None)
        return answer.status_code, data, answer.headers.get("idempotent-replay")


# (name, path, body, keyword arguments of Table.post)
CASES: list[tuple[str, str, Any, dict[str, Any]]] = [
    ("pass line", BETS, {"wager": "pass", "amount": "5"}, {"key": "b1"}),
    ("replayed", BETS, {"wager": "pass", "amount": "5"}, {"key": "b1"}),
    ("key reused", BETS, {"wager": "field", "amount": "5"}, {"key": "b1"}),
    ("charset", BETS, {"wager": "field", "amount": "3"},
     {"key": "b2", "headers": {"Content-Type": "application/json; charset=utf-8"}}),
    ("place 6", BETS, {"wager": "place_win", "number": 6, "amount": "6"}, {"key": "b3"}),
    ("roulette", "/tables/roulette-1/bets", {"wager": "straight", "numbers": [17],
                                             "amount": "1"}, {"key": "b4", "who": "bob"}),
    ("no token", BETS, {"wager": "pass", "amount": "5"}, {"key": "c1", "who": None}),
    ("unknown token", BETS, {"wager": "pass", "amount": "5"}, {"key": "c2", "who": "nope"}),
    ("basic", BETS, {"wager": "pass", "amount": "5"},
     {"key": "c3", "headers": {"Authorization": "Basic YWxpY2U6eA=="}}),
    ("dealer", BETS, {"wager": "pass", "amount": "5"}, {"key": "c4", "who": "dealer"}),
    ("no key", BETS, {"wager": "pass", "amount": "5"}, {"key": None}),
    ("long key", BETS, {"wager": "pass", "amount": "5"}, {"key": "k" * 129}),
    ("unknown field", BETS, {"wager": "pass", "amount": "5", "tip": "1"}, {"key": "c5"}),
    ("number amount", BETS, {"wager": "pass", "amount": 5}, {"key": "c6"}),
    ("bad amount", BETS, {"wager": "pass", "amount": "5.001"}, {"key": "c7"}),
    ("zero", BETS, {"wager": "field", "amount": "0"}, {"key": "c8"}),
    ("string number", BETS, {"wager": "place_win", "number": "6", "amount": "6"}, {"key": "c9"}),
    ("not a wager", BETS, {"wager": "banana", "amount": "5"}, {"key": "c10"}),
    ("roulette field on craps", BETS, {"wager": "field", "amount": "5", "dozen": 1},
     {"key": "c11"}),
    ("over the wallet", BETS, {"wager": "field", "amount": "99999"}, {"key": "c12"}),
    ("over the limit", BETS, {"wager": "field", "amount": "9999999999999"}, {"key": "c13"}),
    ("not seated", "/tables/roulette-1/bets", {"wager": "red", "amount": "1"},
     {"key": "c14"}),
    ("unknown table", "/tables/nowhere/bets", {"wager": "pass", "amount": "5"},
     {"key": "c15"}),
    ("long table id", "/tables/" + "t" * 65 + "/bets", {"wager": "pass", "amount": "5"},
     {"key": "c16"}),
    ("text/plain", BETS, {"wager": "field", "amount": "1"},
     {"key": "c17", "headers": {"Content-Type": "text/plain"}}),
    ("empty body", BETS, None, {"key": "c18", "raw": b""}),
    ("a list", BETS, [], {"key": "c19"}),
    ("coupon", BETS, {"wager": "pass", "amount": "5", "coupon": "MP-000000000000"},
     {"key": "c20"}),
    ("line bet again", BETS, {"wager": "pass", "amount": "5"}, {"key": "c21"}),
]


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[Any]]]:
    """Every case's answer from both apps, and how many bets the lane answered itself."""
    answered: list[bool] = []
    real = express.ordinary

    async def counted(*args: Any) -> Any:
        call = await real(*args)
        answered.append(call is not None)
        return call

    express.ordinary = counted  # type: ignore[assignment]
    try:
        both = {}
        for lane in (True, False):
            table = Table(_client(tmp_path_factory.mktemp(f"express-{lane}"), lane))
            for who, serials in (("alice", "craps-1"), ("bob", "roulette-1")):
                status = table.post(f"/tables/{serials}/buy-in", {"amount": "100"}, who=who,
                                    key=f"buy-{who}")[0]
                assert status == 200
            table.post("/tables/craps-1/dice/offer", {"serials": [
                f"NJ-{i:04d}" for i in range(1, 6)]}, who="dealer", key="offer")
            table.post("/tables/craps-1/dice/select", {"serials": ["NJ-0001", "NJ-0002"]},
                       who="dealer", key="select")
            both[lane] = [table.post(path, body, **kw) for _, path, body, kw in CASES]
            table.client.close()
        yield {"lane": both[True], "route": both[False], "answered": answered}
    finally:
        express.ordinary = real  # type: ignore[assignment]


@pytest.mark.parametrize("n", range(len(CASES)), ids=[c[0] for c in CASES])
def test_the_same_answer_either_way(answers: dict[str, list[Any]], n: int) -> None:
    assert answers["lane"][n] == answers["route"][n]


def test_the_cases_cover_answers_and_refusals(answers: dict[str, list[Any]]) -> None:
    statuses = {status for status, _, _ in answers["route"]}
    assert {200, 401, 403, 404, 409, 422, 428} <= statuses
    assert answers["route"][1][2] == "true"  # the replay is marked as one


def test_the_lane_answered_the_ordinary_bets(answers: dict[str, list[Any]]) -> None:
    # Only the app with the lane calls it; it answered the bets with a player's token, a key
    # and a body the model takes (the valid ones and the engine's and limits' refusals).
    ordinary = sum(answers["answered"])
    valid = sum(1 for status, _, _ in answers["lane"] if status == 200)
    assert ordinary >= valid >= 5
    assert len(answers["answered"]) > ordinary  # and passed the others on


def test_a_bet_without_chips_at_the_table_cites_the_no_credit_rule(
        answers: dict[str, list[Any]]) -> None:
    from croupier.rules.citations import cite

    n = [c[0] for c in CASES].index("not seated")
    status, body, _ = answers["route"][n]
    assert status == 409 and "buy in" in body["error"]["reason"]
    assert body["error"]["clause"] == cite("nj-casino-night", "chips")
