"""Attacks over real HTTP that must keep failing: 50 whole-bankroll bets at once -> 1
accepted, 50 requests with one idempotency key -> 1 executed, chips conserved, path traversal
under /static refused."""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from croupier.service.equipment import passing_record

from .conftest import PASSWORD, Server


def _chips(s: Server, table: str, player: str) -> dict[str, str]:
    return dict(s.get("auditor", f"/tables/{table}").json()["players"][player])


def test_request_size_limit(sqlite_server: Server) -> None:
    s = sqlite_server
    big = b'{"username": "' + b"a" * 200_000 + b'", "password": "x"}'

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b"a" * 4096

    for path in ("/auth/login", "/tables/craps-1/bets", "/users"):
        r = httpx.post(s.base + path, content=big, headers={
            **s.headers("alice", "k"), "Content-Type": "application/json"})
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large", path
        # No Content-Length (chunked): counted as it arrives, refused past the limit.
        r = httpx.post(s.base + path, content=chunks(), headers=s.headers("alice", "k2"))
        assert r.status_code == 413, path
    r = httpx.request("GET", s.base + "/tables", content=big, headers=s.headers("alice"))
    assert r.status_code == 413
    # A body under the limit is served as before.
    assert s.get("alice", "/tables").status_code == 200


def test_strict_bodies_and_no_server_errors(sqlite_server: Server) -> None:
    s = sqlite_server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
    s.ok("alice", "/tables/roulette-1/buy-in", {"amount": "50"})
    for table, body in (("craps-1", {"wager": "place_win", "number": 6, "amount": "5",
                                     "dozen": 99}),
                        ("craps-1", {"wager": "place_win", "number": "6", "amount": "5"}),
                        ("craps-1", {"wager": "field", "amount": "5", "extra": 1}),
                        ("roulette-1", {"wager": "straight", "numbers": [True], "amount": "5"}),
                        ("roulette-1", {"wager": "red", "amount": "5", "dice": [1, 2]})):
        r = s.post("alice", f"/tables/{table}/bets", body)
        assert r.status_code == 422 and r.json()["error"]["code"] == "malformed", (body, r.text)
    # A key given twice (the framework would let the last win and bet 50), a body that is not
    # JSON, and one nested past the parser: each 422 naming the place, before any route runs.
    headers = {**s.headers("alice", "twice"), "Content-Type": "application/json"}
    for raw, reason in ((b'{"wager": "field", "amount": "5", "amount": "50"}',
                         "body.amount: a key given twice in one object"),
                        (b'{"wager": "field", "amount": ', "body: not valid JSON (line 1"),
                        (b'{"a": ' + b"[" * 5000 + b"]" * 5000 + b"}", "body: nested too deeply"),
                        (b'{"wager": "field", "amount": "5\xff"}', "body: not UTF-8 text")):
        r = httpx.post(s.base + "/tables/craps-1/bets", content=raw, headers=headers)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["reason"].startswith(reason), r.text
    # A wager larger than any wallet may hold is refused before the table sees it: at a pay
    # table's largest odds its win overflowed the seats' integers and every roll failed.
    r = s.post("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "9999999999999"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "limit", r.text
    assert _chips(s, "craps-1", "alice") == {"chips": "50.00", "on_table": "0.00"}
    assert _chips(s, "roulette-1", "alice") == {"chips": "50.00", "on_table": "0.00"}
    # Finding 11: each a 422 or a clean close, never a 500.
    s.ok("admin", "/equipment/dice", {"serial": "HUGE-1", "set_name": "x"}, key=None)
    record = passing_record()
    for field in ("sides_inch", "spot_depths_inch"):
        bad = {**record, field: ["9e999999999"] * len(record[field])}
        r = s.post("admin", "/equipment/dice/HUGE-1/inspections", bad, key=None)
        assert r.status_code == 422, r.text
    deep = "[" * 1000 + "]" * 1000
    r = httpx.get(s.base + "/web/offer", params={"game": "craps", "profile": "nj-13-69f",
                                                 "options": '{"a": ' + deep + "}"})
    assert r.status_code == 422, r.text
    url = s.base.replace("http", "ws") + "/tables/craps-1/stream"
    token = s.token("auditor")
    # The stream's first message is as strict as a body: a key out of range, unknown, or
    # given twice (two readers could take either) is refused.
    for hello in (json.dumps({"token": token, "since": 10**30}),
                  json.dumps({"token": token, "admin": True}),
                  json.dumps({"token": token, "since": 0})[:-1] + ', "since": 5}'):
        with connect(url) as ws:
            ws.send(hello)
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4422, hello
    assert s.get("auditor", "/audit/verify").json()["ok"]


def test_one_user_holds_a_bounded_number_of_streams(sqlite_server: Server) -> None:
    """Sixty streams of one token, each replaying a thousand events, held the event loop for
    seconds: one user has at most 16 streams open (the next is closed with 4429, saying
    why), and the server answers others meanwhile."""
    s = sqlite_server
    url = s.base.replace("http", "ws") + "/tables/craps-1/stream"
    hello = json.dumps({"token": s.token("alice"), "since": 0, "mark": True})
    with contextlib.ExitStack() as held:
        for _ in range(16):
            ws = held.enter_context(connect(url))
            ws.send(hello)
            assert json.loads(ws.recv(timeout=10))["type"] == "replayed"
        with connect(url) as ws:
            ws.send(hello)
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        assert "16 streams" in closed.value.rcvd.reason
        assert httpx.get(s.base + "/health", timeout=10).status_code == 200
    with connect(url) as ws:  # one closed: the next is taken
        ws.send(hello)
        assert json.loads(ws.recv(timeout=10))["type"] == "replayed"


def test_docs_page_headers_and_static(sqlite_server: Server) -> None:
    s = sqlite_server
    docs = httpx.get(s.base + "/docs")
    assert docs.status_code == 200
    scripts = [line for line in docs.text.splitlines() if "<script" in line]
    assert scripts and all('src="/docs/' in line for line in scripts)  # none inline, none remote
    assert "http" not in docs.text.replace("http-equiv", "")
    assert httpx.get(s.base + "/docs/assets/swagger-ui-bundle.js").status_code == 200
    # (400: a percent-encoded slash is not a path in normal form, refused before any route)
    assert httpx.get(s.base + "/docs/assets/..%2Fpyproject.toml").status_code == 400
    page = httpx.get(s.base + "/")
    assert page.headers["x-frame-options"] == "DENY"
    assert page.headers["x-content-type-options"] == "nosniff"
    csp = page.headers["content-security-policy"]
    script_src = next(p for p in csp.split(";") if p.strip().startswith("script-src"))
    assert "'unsafe-inline'" not in script_src and "frame-ancestors 'none'" in csp
    assert "<script>" not in page.text  # no inline script on the page
    # Path traversal under /static is refused: an encoded dot or slash before any route (400);
    # the client resolves a literal ``..`` itself, to a path with no asset (404).
    for path, status in (("/static/..%2F..%2Fservice%2Fapp.py", 400),
                         ("/static/../web/__init__.py", 404),
                         ("/static/%2e%2e/%2e%2e/pyproject.toml", 400),
                         ("/static/app.js%00.css", 400)):  # a NUL: in no name
        r = httpx.get(s.base + path)
        assert r.status_code == status and "import" not in r.text, path
    # Finding 9: the health check names the kind of generator, never a seed.
    health = httpx.get(s.base + "/health").json()
    assert health["rng"] == "insecure-test-seeded" and "1" not in json.dumps(health["rng"])


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(a)")
def test_entry_second_person_and_private_recall(sqlite_server: Server) -> None:
    s = sqlite_server
    # An RNG table takes no entered result; a physical-entry table does.
    state = s.ok("admin", "/tables", {"id": "rng-1", "game": "craps", "profile": "nj-13-69f"},
                 key=None)
    assert state["entry"] == "rng"
    s.dice_in_play("rng-1")
    r = s.post("dealer", "/tables/rng-1/roll", {"dice": [3, 4]})
    assert r.status_code == 409 and "RNG table" in r.json()["error"]["reason"]
    # The dealer's first act at the table records them on duty; then the RNG's draw.
    rolled = [e["type"] for e in s.ok("dealer", "/tables/rng-1/roll", {})["events"]]
    assert rolled[:2] == ["procedure", "draw"]
    assert s.get("auditor", "/tables/craps-1").json()["entry"] == "physical"
    # An adjustment over 100.00 waits for a second supervisor.
    s.ok("admin", "/users", {"username": "boxer", "password": PASSWORD, "role": "supervisor"},
         key=None)
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "300"})
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "100"})
    assert s.ok("supervisor", "/tables/craps-1/adjustments",
                {"player": "alice", "amount": "5.00", "reason": "short paid"})["events"]
    pending = s.post("supervisor", "/tables/craps-1/adjustments",
                     {"player": "alice", "amount": "-250.00", "reason": "overpaid"})
    assert pending.status_code == 202
    pid = pending.json()["pending_adjustment"]
    assert _chips(s, "craps-1", "alice")["chips"] == "305.00"
    r = s.post("supervisor", f"/tables/craps-1/adjustments/{pid}/approve")
    assert r.status_code == 409 and "second person" in r.json()["error"]["reason"]
    assert s.post("dealer", f"/tables/craps-1/adjustments/{pid}/approve").status_code == 403
    s.ok("boxer", f"/tables/craps-1/adjustments/{pid}/approve")
    assert _chips(s, "craps-1", "alice")["chips"] == "55.00"
    assert s.post("boxer", f"/tables/craps-1/adjustments/{pid}/approve").status_code == 409
    # A player's recall of a round shows only their own part.
    s.ready_dice()
    s.ok("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "5"})
    s.ok("bob", "/tables/craps-1/bets", {"wager": "dont_pass", "amount": "5"})
    done = s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})
    mine = s.get("alice", f"/tables/craps-1/rounds/{done['round']}").json()
    assert set(mine["balances"]["before"]) == set(mine["balances"]["after"]) == {"alice"}
    assert {w["player"] for w in mine["wagers_in_action"]} == {"alice"}
    assert all(e.get("player") in (None, "alice") for e in mine["events"])
    full = s.get("auditor", f"/tables/craps-1/rounds/{done['round']}").json()
    assert set(full["balances"]["after"]) == {"alice", "bob"}
    assert s.get("auditor", "/audit/verify").json()["ok"]


def test_whole_bankroll_and_one_key_races(server: Server) -> None:
    s = server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ok("bob", "/tables/craps-1/buy-in", {"amount": "100"})
    one_key = uuid.uuid4().hex

    async def run() -> tuple[list[httpx.Response], list[httpx.Response]]:
        async with httpx.AsyncClient(base_url=s.base, timeout=60,
                                     limits=httpx.Limits(max_connections=120)) as c:
            whole = asyncio.gather(*(c.post("/tables/craps-1/bets", json={
                "wager": "field", "amount": "100"}, headers={
                **s.headers("alice"), "Idempotency-Key": uuid.uuid4().hex}) for _ in range(50)))
            keyed = asyncio.gather(*(c.post("/tables/craps-1/bets", json={
                "wager": "field", "amount": "1"}, headers={
                **s.headers("bob"), "Idempotency-Key": one_key}) for _ in range(50)))
            return list(await whole), list(await keyed)

    with ThreadPoolExecutor(1) as pool:
        whole, keyed = pool.submit(asyncio.run, run()).result()
    assert Counter(r.status_code for r in whole) == {200: 1, 409: 49}
    assert {r.status_code for r in keyed} == {200}
    assert len({r.text for r in keyed}) == 1  # one executed, the rest its stored answer
    assert _chips(s, "craps-1", "alice") == {"chips": "0.00", "on_table": "100.00"}
    assert _chips(s, "craps-1", "bob") == {"chips": "99.00", "on_table": "1.00"}
    report = s.get("auditor", "/audit/verify").json()
    assert report["ok"], report["problems"]  # chips conserved: wallets, seats and house
