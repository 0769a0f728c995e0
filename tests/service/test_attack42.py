"""Found by an attack on the live server (attack42; in process: the app over a demo ledger).

* A JSON body in UTF-16 or UTF-32 (which Python's parser takes from bytes, as the framework
  reads a body) passed the request guard's NUL and lone-surrogate checks, which look for the
  escape's bytes in UTF-8: a table option named by a lone surrogate failed with 500 (its
  refusal could not be written as UTF-8), and a NUL in any text (a log-in's name included)
  reached the database, which on PostgreSQL fails with 500.
* A table's stream took, before its log-in, messages of up to 16 MiB (uvicorn's default),
  32 of them queued, sent compressed: 30 connections that never logged in, each sending three
  such messages of a few kilobytes on the wire, took the server from 120 MB to 750 MB.
* The refusals of the users' routes (deleting an account that holds money, re-roling a
  player, an account named as the system, an admin locking themselves) cited nothing, where
  every other refusal cites the clause or the house's control it applies.
* A player changed their own password in a loop (some twenty a second), each change a record
  of the users' chain, which every two-person check reads whole: at 20,000 records an
  adjustment took 0.75 s, on SQLite in the event loop, where every table waited for it, and
  the chain grew without end.
* A layout taken out of service (a failed inspection, a retirement, a move) is recorded, and
  its table is given the event taking its wagers off in a transaction after it: when that
  failed (a database error, a crash between the two), the route answered that nothing was
  changed, though the record stood, and the table went on taking the layout's wagers.
* Sessions were never ended by time or number: an account logging in in a loop (some 40 a
  second) added a row to the tokens for good, millions a day."""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.service import layouts, people, store
from croupier.service.api.streams import MAX_HELLO
from croupier.service.auth import CLAUSE as ACCOUNTS_CLAUSE
from croupier.service.auth import MAX_SESSIONS, PASSWORD_CHANGES
from croupier.service.listen import WEBSOCKET_MAX_BYTES
from serverkit import PASSWORD

from .appkit import App, demo_app
from .conftest import Server


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("attack42")) as made:
        yield made


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-32"])
@pytest.mark.parametrize(("who", "path", "text"), [
    ("admin", "/tables", '{"id": "sur-1", "game": "craps", "profile": "nj-13-69f", '
     '"options": {"\\ud800": 1}}'),
    (None, "/auth/login", '{"username": "ad\\u0000min", "password": "x"}'),
    ("supervisor", "/coupons", '{"player": "al\\u0000ice", "face_value": "5"}'),
])
def test_a_body_not_in_utf8_is_refused_as_such(app: App, encoding: str, who: str | None,
                                               path: str, text: str) -> None:
    headers = app.headers(who, uuid.uuid4().hex) if who is not None else {}
    r = app.client.post(path, content=text.encode(encoding),
                        headers={**headers, "Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    # Without a byte order mark UTF-16's bytes may be UTF-8 too (NUL bytes), but not JSON.
    assert r.json()["error"]["reason"].startswith(("body: not UTF-8 text",
                                                   "body: not valid JSON")), r.text
    assert app.get("auditor", "/tables").status_code == 200



def test_a_stream_takes_no_message_past_its_first_messages_size(sqlite_server: Server) -> None:
    from websockets.exceptions import ConnectionClosedError
    from websockets.sync.client import connect

    url = sqlite_server.base.replace("http", "ws") + "/tables/craps-1/stream"
    with connect(url, compression="deflate") as ws:
        ws.send("a" * 64 * 1024)  # a few hundred bytes compressed
        with pytest.raises(ConnectionClosedError) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
    # The largest first message a stream reads still arrives whole, and logs in.
    assert WEBSOCKET_MAX_BYTES >= 4 * MAX_HELLO
    sqlite_server.ok("alice", "/tables/craps-1/buy-in", {"amount": "10"})
    hello = json.dumps({"token": sqlite_server.token("alice"), "since": 0})
    with connect(url) as ws:
        ws.send(hello + " " * (MAX_HELLO - len(hello)))
        assert json.loads(ws.recv(timeout=10))["type"] == "chips_in"


@pytest.mark.parametrize(("method", "path", "body", "said"), [
    ("DELETE", "/users/alice", None, "alice holds 1000.00 in the wallet"),
    ("POST", "/users/alice/role", {"role": "dealer"}, "a player's account keeps its role"),
    ("POST", "/users", {"username": "system", "password": "a-long-pass-123", "role": "dealer"},
     "'system' is the name the ledger records"),
    ("POST", "/users/admin/lock", None, "an admin may not lock their own account"),
])
def test_the_users_refusals_cite_the_houses_control(app: App, method: str, path: str,
                                                    body: Any, said: str) -> None:
    before = app.get("admin", "/users").json()
    r = app.client.request(method, path, json=body, headers=app.headers("admin"))
    assert r.status_code == 409, r.text
    error = r.json()["error"]
    assert error["code"] == "refused" and error["reason"].startswith(said), error
    assert error["clause"] == ACCOUNTS_CLAUSE
    assert app.get("admin", "/users").json() == before
    assert app.get("alice", "/wallets/alice").json()["balance"] == "1000.00"


def test_an_account_changes_its_own_password_a_bounded_number_of_times(app: App) -> None:
    app.add_user("looper", "player")
    engine = app.client.app.state.services.engine  # type: ignore[attr-defined]

    def change(current: str, new: str) -> Any:
        token = app.post_login({"username": "looper", "password": current}).json()["token"]
        return app.client.post("/auth/me/password", json={"current": current, "new": new},
                               headers={"Authorization": f"Bearer {token}"})

    current = PASSWORD
    for i in range(PASSWORD_CHANGES):
        chosen = f"chosen-{i}-long-enough"
        assert change(current, chosen).status_code == 200
        current = chosen
    with engine.connect() as conn:
        recorded = len(people.records(conn))
    r = change(current, "one-more-long-enough")
    assert r.status_code == 429, r.text
    assert int(r.headers["Retry-After"]) > 0
    error = r.json()["error"]
    assert error["code"] == "too_many_changes" and error["clause"] == ACCOUNTS_CLAUSE, error
    with engine.connect() as conn:
        assert len(people.records(conn)) == recorded
    assert app.post_login({"username": "looper", "password": current}).status_code == 200


SEVEN_NUMBERS_CLAUSE = "N.J.A.C. 13:47-20.32(e)15i"  # an approved table for the seven numbers


@pytest.mark.clause(SEVEN_NUMBERS_CLAUSE)
def test_no_wager_of_a_layout_out_of_service_when_its_tables_event_failed(
        app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    app.ok("bob", "/tables/roulette-1/buy-in", {"amount": "20"})
    seven = {"wager": "seven_numbers", "amount": "1"}
    app.ok("bob", "/tables/roulette-1/bets", seven)  # layout-1 shows it, in service

    def failing(*args: Any) -> Any:
        raise sa.exc.OperationalError("INSERT", {}, sqlite3.OperationalError("disk I/O error"))

    monkeypatch.setattr(layouts, "withdrawal", failing)
    r = app.post("supervisor", "/equipment/items/layout-1/inspections",
                 {"passed": False, "findings": "the felt is torn"})
    assert r.status_code == 201, r.text  # the record stands: it is the answer
    assert r.json()["in_service"] is False
    chips = app.get("auditor", "/tables/roulette-1").json()["players"]["bob"]
    refused = app.refused("bob", "/tables/roulette-1/bets", seven)
    assert refused["clause"] == SEVEN_NUMBERS_CLAUSE, refused
    assert app.get("auditor", "/tables/roulette-1").json()["players"]["bob"] == chips
    report = app.audit()
    assert report["ok"], report["findings"]


def test_an_account_holds_a_bounded_number_of_sessions(app: App) -> None:
    app.add_user("returner", "player")
    engine = app.client.app.state.services.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:  # a session long expired, as one left from yesterday
        user_id = conn.execute(sa.select(store.users.c.id).where(
            store.users.c.username == "returner")).scalar_one()
        conn.execute(store.tokens.insert().values(token_hash="0" * 64, user_id=user_id,
                                                  expires_at=1.0))
    logins = [app.post_login({"username": "returner", "password": PASSWORD}).json()["token"]
              for _ in range(MAX_SESSIONS + 8)]
    with engine.connect() as conn:
        held = conn.execute(sa.select(sa.func.count()).where(
            store.tokens.c.user_id == user_id)).scalar_one()
    assert held == MAX_SESSIONS
    live = [app.client.get("/auth/me", headers={"Authorization": f"Bearer {t}"}).status_code
            for t in logins]
    assert live.count(200) == MAX_SESSIONS and live[-1] == 200
    assert set(live) == {200, 401}
