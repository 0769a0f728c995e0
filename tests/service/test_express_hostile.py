"""Hostile bets, answered the same with the express lane and without it, and never acted on
when they should not be.

Two apps on two demo ledgers made alike (as in ``test_express_lane``) get the same raw
requests: duplicated and oddly cased headers, keys at the length limit in multi-byte text,
escaped and query-carrying paths, a BOM, UTF-16, NaN, a number past Python's digit limit (a
500 on both before), content types the framework reads as JSON or not. Then, on the app with
the lane, a body cut short by the client going away must move nothing (it was a bet before).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from .test_express_lane import Table, _client

BETS = "/tables/craps-1/bets"
J = "application/json"
FIELD = json.dumps({"wager": "field", "amount": "1"}).encode()
Headers = list[tuple[str, str | bytes]]


def h(key: str | bytes, *extra: tuple[str, str], who: str = "alice", kind: str | None = J,
      bearer: str = "Bearer ") -> Headers:
    """Headers of a bet: the token (``@name`` stands for that user's), the key, the content
    type, then ``extra`` (duplicates kept, in order)."""
    head: Headers = [("Authorization", f"{bearer}@{who}"), ("Idempotency-Key", key)]
    return head + ([("Content-Type", kind)] if kind else []) + list(extra)


# (name, path, headers, body)
CASES: list[tuple[str, str, Headers, bytes]] = [
    ("two spaces after Bearer", BETS, h("h1", bearer="Bearer  "), FIELD),
    ("lower-case bearer", BETS, h("h1b", bearer="bearer "), FIELD),
    ("second token ignored", BETS, h("h2", ("Authorization", "Bearer nope")), FIELD),
    ("bob's token first", BETS, h("h2b", ("Authorization", "Bearer @alice"), who="bob"), FIELD),
    ("first of two keys", BETS, h("h3", ("Idempotency-Key", "h4")), FIELD),
    ("second key is new", BETS, h("h4"), FIELD),
    ("text/plain first", BETS, h("h5", ("Content-Type", J), kind="text/plain"), FIELD),
    ("json first", BETS, h("h6", ("Content-Type", "text/plain")), FIELD),
    ("upper case type", BETS, h("h7", kind="application/JSON"), FIELD),
    ("+json type", BETS, h("h8", kind="application/vnd.bet+json"), FIELD),
    ("latin-1 charset", BETS, h("h8b", kind="application/json; charset=latin-1"), FIELD),
    ("no type", BETS, h("h9", kind=None), FIELD),
    ("key 64 two-byte", BETS, h(("é" * 64).encode()), FIELD),
    ("key 65 two-byte", BETS, h(("é" * 65).encode()), FIELD),
    ("key 128", BETS, h("k" * 128), FIELD),
    ("query string", BETS + "?x=1", h("h10"), FIELD),
    ("same key, no query", BETS, h("h10"), FIELD),
    ("escaped id", "/tables/craps%2D1/bets", h("h11"), FIELD),
    ("escaped slash", "/tables/craps%2F1/bets", h("h12"), FIELD),
    ("double slash", "//tables/craps-1/bets", h("h13"), FIELD),
    ("unicode id", "/tables/%C3%A9/bets", h("h14"), FIELD),
    ("BOM", BETS, h("h15"), b"\xef\xbb\xbf" + FIELD),
    ("UTF-16", BETS, h("h16"), FIELD.decode().encode("utf-16")),
    ("NaN", BETS, h("h17"), b'{"wager": "place_win", "number": NaN, "amount": "6"}'),
    ("5000 digits", BETS, h("h18"),
     b'{"wager": "place_win", "number": ' + b"9" * 5000 + b', "amount": "6"}'),
    ("null", BETS, h("h19"), b"null"),
    ("bob takes alice's key", "/tables/roulette-1/bets", h("h1", who="bob"),
     b'{"wager": "red", "amount": "1"}'),
]


def _post(table: Table, path: str, headers: Headers, body: bytes,
          ) -> tuple[int, Any, str | None]:
    def token(value: str | bytes) -> str | bytes:
        if isinstance(value, str) and "@" in value:
            at = value.index("@")
            return value[:at] + str(table.tokens[value[at + 1:]])
        return value

    answer = table.client.post(path, content=body,
                               headers=[(n, token(v)) for n, v in headers])
    data = answer.json()
    data.get("error", {}).pop("request_id", None)
    return answer.status_code, data, answer.headers.get("idempotent-replay")


def _table(data: Path, lane: bool) -> Table:
    table = Table(_client(data, lane))
    assert table.post("/tables/craps-1/buy-in", {"amount": "100"}, key="buy")[0] == 200
    table.post("/tables/craps-1/dice/offer", {"serials": [
        f"NJ-{i:04d}" for i in range(1, 6)]}, who="dealer", key="offer")
    table.post("/tables/craps-1/dice/select", {"serials": ["NJ-0001", "NJ-0002"]},
               who="dealer", key="select")
    return table


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[bool, Table]]:
    both = {lane: _table(tmp_path_factory.mktemp(f"hostile-{lane}"), lane)
            for lane in (True, False)}
    yield both
    for table in both.values():
        table.client.close()


@pytest.fixture(scope="module")
def answers(tables: dict[bool, Table]) -> dict[bool, list[Any]]:
    return {lane: [_post(table, path, extra, body) for _, path, extra, body in CASES]
            for lane, table in tables.items()}


@pytest.mark.parametrize("n", range(len(CASES)), ids=[c[0] for c in CASES])
def test_the_same_answer_either_way(answers: dict[bool, list[Any]], n: int) -> None:
    assert answers[True][n] == answers[False][n]


def test_a_number_past_the_digit_limit_is_malformed_not_an_internal_error(
        answers: dict[bool, list[Any]]) -> None:
    status, body, _ = answers[True][[c[0] for c in CASES].index("5000 digits")]
    assert status == 422 and body["error"]["code"] == "malformed"
    assert body["error"]["reason"].startswith("body: a number of more than")


def test_the_cases_reach_every_kind_of_answer(answers: dict[bool, list[Any]]) -> None:
    assert {200, 404, 422} <= {status for status, _, _ in answers[False]}


def _cut_short(client: TestClient, token: str, key: str, chunks: list[bytes]) -> list[Any]:
    """Send a bet's body in ``chunks`` (all but the last "more to come"), then disconnect;
    what the app sent back."""
    sent: list[Any] = []
    messages = [{"type": "http.request", "body": chunk, "more_body": True} for chunk in chunks]
    messages.append({"type": "http.disconnect"})

    async def receive() -> Any:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": BETS, "raw_path": BETS.encode(),
             "query_string": b"", "root_path": "", "client": ("127.0.0.1", 1),
             "server": ("testserver", 80), "state": {},
             "headers": [(b"authorization", f"Bearer {token}".encode()),
                         (b"idempotency-key", key.encode()), (b"content-type", J.encode()),
                         (b"content-length", b"100")]}
    asyncio.run(client.app(scope, receive, send))  # type: ignore[arg-type]
    return sent


@pytest.mark.parametrize("lane", [True, False])
def test_a_body_cut_short_by_a_disconnect_moves_nothing(tables: dict[bool, Table],
                                                        lane: bool) -> None:
    table = tables[lane]

    def chips() -> Any:
        return table.client.get("/tables/craps-1", headers={
            "Authorization": f"Bearer {table.tokens['alice']}"}).json()["players"]["alice"]

    before = chips()
    # A whole JSON object, but only part of the 100 bytes announced, then the client is gone.
    assert _cut_short(table.client, table.tokens["alice"], f"gone-{lane}", [FIELD]) == []
    assert _cut_short(table.client, table.tokens["alice"], f"gone2-{lane}",
                      [FIELD[:10], FIELD[10:]]) == []
    assert chips() == before
    # Nothing was stored under the key either: sent whole, it is a new bet.
    status, _, replayed = table.post(BETS, {"wager": "field", "amount": "1"},
                                        key=f"gone-{lane}")
    assert status == 200 and replayed is None
