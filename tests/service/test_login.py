"""Log-in that cannot be raced or used to lock the casino
out (the throttle's attacks are in test_login_attacks.py), accounts that cannot be told apart
by their answers, revocation that takes effect at once (tokens and streams), and a stream
token that never travels in the URL."""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from croupier.service import auth, store
from croupier.service.throttle import Policy
from serverkit import fresh_schema, postgres_url

from .conftest import BACKENDS, PASSWORD, Server


@pytest.fixture(autouse=True)
def _long_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The servers here throttle with waits longer than a test runs (set before the server
    fixture starts one): no wait ends by itself during a test, however loaded the machine."""
    monkeypatch.setenv("CROUPIER_LOGIN_THROTTLE", "pair_base=900,pair_max=3600")


def _login(s: Server, name: str, password: str) -> httpx.Response:
    return httpx.post(s.base + "/auth/login", json={"username": name, "password": password},
                      timeout=60)


def _user(s: Server, name: str) -> dict[str, object]:
    return next(u for u in s.get("admin", "/users").json() if u["username"] == name)


def test_parallel_guesses_are_counted_first_and_answers_alike(server: Server) -> None:
    s = server
    for who in ("admin", "alice", "supervisor"):
        s.token(who)  # logged in before this address is throttled below
    s.ok("admin", "/users", {"username": "carol", "password": PASSWORD, "role": "player"},
         key=None)
    # An admin's lock, an unknown name and a wrong password answer alike.
    s.ok("admin", "/users/carol/lock", None, key=None)
    locked = _login(s, "carol", PASSWORD)
    unknown = _login(s, "nobody-here", PASSWORD)
    wrong = _login(s, "bob", "wrong-guess")
    assert locked.status_code == unknown.status_code == wrong.status_code == 401
    # Alike but for each request's own id (the access log's, never the account's).
    alike = [{k: v for k, v in r.json()["error"].items() if k != "request_id"}
             for r in (locked, unknown, wrong)]
    assert alike[0] == alike[1] == alike[2]
    assert s.post("admin", "/users/carol/unlock", None, key=None).status_code == 200
    assert _login(s, "carol", PASSWORD).status_code == 200

    # 40 wrong passwords at once from one address: each guess is counted before it is
    # checked, so only the pair's free guesses are checked and the rest wait (429).
    free = Policy().pair_free

    async def flood() -> list[int]:
        async with httpx.AsyncClient(base_url=s.base, timeout=600) as c:
            rs = await asyncio.gather(*(c.post("/auth/login", json={
                "username": "alice", "password": f"guess-{i}"}) for i in range(40)))
            return [r.status_code for r in rs]

    with ThreadPoolExecutor(1) as pool:
        codes = pool.submit(asyncio.run, flood()).result()
    assert codes.count(401) == free and codes.count(429) == 40 - free
    assert _user(s, "alice")["failed_logins"] == free
    # Nobody else is refused at this address, and alice's open session is not ended.
    assert _login(s, "bob", PASSWORD).status_code == 200
    assert s.get("alice", "/auth/me").status_code == 200


def test_revocation_is_immediate_for_tokens_and_streams(server: Server) -> None:
    s = server
    s.ok("admin", "/users", {"username": "dave", "password": PASSWORD, "role": "player"},
         key=None)
    assert s.get("dave", "/auth/me").status_code == 200
    # Deleting a user ends their sessions at once; they cannot log in again.
    assert httpx.delete(s.base + "/users/dave", headers=s.headers("admin")).status_code == 200
    assert s.get("dave", "/auth/me").status_code == 401
    assert _login(s, "dave", PASSWORD).status_code == 401
    assert _user(s, "dave")["deleted"] is True
    # The stream takes its token from the first message, never from the URL.
    url = s.base.replace("http", "ws") + "/tables/craps-1/stream"
    # Closed before the message or after it: either way never served.
    with connect(f"{url}?token={s.token('alice')}") as ws, pytest.raises(
            ConnectionClosed) as closed:
        ws.send(json.dumps({"since": 0}))
        ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4422
    with connect(url) as ws:
        ws.send(json.dumps({"token": "not-a-token"}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    # Locking a user closes their open stream at once, and their token stays dead after an
    # unlock.
    with s.stream("craps-1", "bob") as ws:
        s.ok("bob", "/tables/craps-1/buy-in", {"amount": "10"})
        assert json.loads(ws.recv(timeout=10))["type"] == "chips_in"
        t0 = time.monotonic()
        s.ok("admin", "/users/bob/lock", None, key=None)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        assert time.monotonic() - t0 < 4  # not the periodic recheck: at once
    s.ok("admin", "/users/bob/unlock", None, key=None)
    assert s.get("bob", "/auth/me").status_code == 401


# --- in-process: lock-out expiry and back-off, and the recovery functions ------------------

@pytest.fixture
def engine(tmp_path: Path) -> sa.Engine:
    eng = store.make_engine(f"sqlite:///{tmp_path / 'auth.db'}")
    store.upgrade(eng)
    with eng.begin() as conn:
        auth.Auth(eng).create_user(conn, "erin", PASSWORD, "player")
    return eng


def test_wrong_guesses_lock_no_account(engine: sa.Engine) -> None:
    """However many wrong passwords, the right one still logs in (throttling is the route's,
    per address: the account itself is never locked by guesses)."""
    a = auth.Auth(engine)
    for _ in range(10):
        with pytest.raises(auth.LoginFailed):
            a.login("erin", "wrong")
    token, user = a.login("erin", PASSWORD)
    assert user.username == "erin" and a.user_for(token) == user


def test_recovery_functions_unlock_and_reset(engine: sa.Engine) -> None:
    a = auth.Auth(engine)
    token, _ = a.login("erin", PASSWORD)
    assert a.set_locked("erin", True) and a.user_for(token) is None
    with engine.begin() as conn:
        assert auth.unlock_user(conn, "erin")
        assert not auth.unlock_user(conn, "nobody")
    assert a.user_for(token) is None  # a token from before the lock stays ended
    fresh, _ = a.login("erin", PASSWORD)
    with engine.begin() as conn:
        assert auth.reset_password(conn, "erin", "another-pass-456")
    assert a.user_for(fresh) is None  # a reset ends every session
    with pytest.raises(auth.LoginFailed):
        a.login("erin", PASSWORD)
    assert a.login("erin", "another-pass-456")[1].username == "erin"


@pytest.mark.parametrize("backend", BACKENDS)
def test_log_ins_at_once_keep_the_cap_on_sessions(backend: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by a review: the trim to MAX_SESSIONS - 1 and the new session's insert were
    under no lock, so log-ins at once on PostgreSQL each trimmed the same sessions and each
    added one, past the cap. Each log-in is held inside its transaction after the trim here,
    so that they all overlap; the account then holds exactly MAX_SESSIONS."""
    url = (fresh_schema(postgres_url("")) if backend == "postgresql"
           else f"sqlite:///{tmp_path / 'auth.db'}")
    eng = store.make_engine(url)
    store.upgrade(eng)
    a = auth.Auth(eng)
    with eng.begin() as conn:
        user_id = a.create_user(conn, "erin", PASSWORD, "player").id
    for _ in range(auth.MAX_SESSIONS - 1):
        a.login("erin", PASSWORD)
    make_room = auth._make_room

    def held_after_the_trim(conn: sa.Connection, uid: int) -> None:
        make_room(conn, uid)
        time.sleep(0.2)  # the insert comes later: log-ins without a lock overlap here

    monkeypatch.setattr(auth, "_make_room", held_after_the_trim)
    with ThreadPoolExecutor(8) as pool:
        tokens = list(pool.map(lambda _: a.login("erin", PASSWORD)[0], range(8)))
    with eng.connect() as conn:
        held = conn.execute(sa.select(sa.func.count()).where(
            store.tokens.c.user_id == user_id)).scalar_one()
    eng.dispose()
    assert held == auth.MAX_SESSIONS
    assert len(set(tokens)) == 8
