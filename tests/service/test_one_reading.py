"""One node refuses a request two readers could read differently, before anything reads it:
a single-valued header given twice, a path not in normal form (400, naming the header or the
path). The framework kept the first of two ``Authorization`` headers where another reader
(a cluster node forwarding the request) kept the last; an HTTP client resolves ``..`` where
the server does not. The same guard runs on every node (tests/cluster/test_one_reading.py)."""

from __future__ import annotations

import http.client
import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from croupier.service.api.form import key_problem

from .conftest import Server, make_server

BET = b'{"wager": "field", "amount": "1"}'


@pytest.fixture(scope="module")
def one(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module: each test here reads what it changes relative to before
    (a refused request moves nothing), so none needs a fresh ledger of its own."""
    srv = make_server("sqlite", tmp_path_factory.mktemp("one-reading"))
    srv.start()
    try:
        srv.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})
        srv.ready_dice()
        yield srv
    finally:
        srv.stop()


def _raw(s: Server, method: str, path: str, headers: list[tuple[str, str]],
         body: bytes = b"") -> tuple[int, Any]:
    """A request sent exactly as given (no path resolved, no header merged)."""
    conn = http.client.HTTPConnection("127.0.0.1", s.port, timeout=10)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in headers:
            conn.putheader(name, value)
        if body:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body or None)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        conn.close()


def _bearer(s: Server, who: str) -> tuple[str, str]:
    return ("Authorization", f"Bearer {s.token(who)}")


@pytest.mark.parametrize("name", ["Authorization", "Idempotency-Key", "Content-Type",
                                  "Host", "X-Request-ID"])
def test_a_single_valued_header_twice_is_refused(one: Server, name: str) -> None:
    s = one
    before = s.get("auditor", "/tables/craps-1/events?since=0&limit=1000").json()
    values = {"Authorization": [f"Bearer {s.token('alice')}", f"Bearer {s.token('bob')}"],
              "Idempotency-Key": ["one", "two"],
              "Content-Type": ["application/json", "text/plain"],
              "Host": ["127.0.0.1", "elsewhere.example"],
              "X-Request-ID": ["first-id-0001", "second-id-0002"]}[name]
    headers = [("Host", "127.0.0.1"), _bearer(s, "alice"), ("Idempotency-Key", "k-" + name),
               ("Content-Type", "application/json")]
    headers = [h for h in headers if h[0] != name] + [(name, v) for v in values]
    status, body = _raw(s, "POST", "/tables/craps-1/bets", headers, BET)
    assert status == 400, body
    assert body["error"]["reason"].startswith(f"header {name.lower()}: given more than once")
    after = s.get("auditor", "/tables/craps-1/events?since=0&limit=1000").json()
    assert after == before  # nothing placed


@pytest.mark.parametrize("path", [
    "/tables/craps-1/../../users", "/tables/craps-1/./events", "/tables//craps-1/events",
    "/tables/craps-1/%2e%2e/%2e%2e/users", "/tables/craps-1%2F..%2F..%2Fusers",
    "/tables/craps-1%2fevents", "/tables/craps-1%5Cevents", "/static/..%2F..%2Fservice%2Fapp.py",
])
def test_a_path_not_in_normal_form_is_refused(one: Server, path: str) -> None:
    s = one
    status, body = _raw(s, "GET", path, [("Host", "127.0.0.1"), _bearer(s, "admin")])
    assert status == 400, body
    assert body["error"]["code"] == "malformed" and body["error"]["reason"].startswith("path:")


def test_a_path_in_normal_form_is_served(one: Server) -> None:
    s = one
    for path in ("/tables/craps-1/events", "/tables/craps-1", "/users", "/"):
        status, _ = _raw(s, "GET", path, [("Host", "127.0.0.1"), _bearer(s, "admin")]) if path != "/" else (
            s.get("admin", "/").status_code, None)
        assert status == 200, path


@pytest.mark.parametrize("key", ["sp2 ", "sp3\t", " sp4"])
def test_a_key_with_spaces_around_it_moves_nothing_twice(one: Server, key: str) -> None:
    """A key sent as "sp2" and again as "sp2 " (a proxy or client trimming the space) was two
    keys: one buy-in made twice. Spaces around a header's value are not part of it (RFC 9110,
    5.5): the HTTP parser drops them, so the retry is the same key and gets the stored reply;
    where a parser passes them on, the guard refuses the request (400, naming the header)
    before anything reads the key. Either way the chips move once."""
    s = one
    body = b'{"amount": "7"}'
    headers = [("Host", "127.0.0.1"), _bearer(s, "bob"), ("Content-Type", "application/json")]
    status, first = _raw(s, "POST", "/tables/craps-1/buy-in",
                         [*headers, ("Idempotency-Key", key.strip())], body)
    assert status == 200
    chips = s.get("bob", "/tables/craps-1").json()["players"]["bob"]["chips"]
    status, answer = _raw(s, "POST", "/tables/craps-1/buy-in",
                          [*headers, ("Idempotency-Key", key)], body)
    if status == 400:
        assert answer["error"]["reason"].startswith("header idempotency-key: spaces")
    else:
        assert (status, answer) == (200, first)
    assert s.get("bob", "/tables/craps-1").json()["players"]["bob"]["chips"] == chips


@pytest.mark.parametrize("key", [b"sp2 ", b"sp2\t", b" sp2", b"sp\x002", b"sp2\x7f"])
def test_the_guard_refuses_a_key_a_parser_passed_on_with_spaces_or_controls(key: bytes) -> None:
    """The guard's own check, for a server whose HTTP parser keeps the spaces around a value."""
    assert key_problem([(b"idempotency-key", key)]) is not None
    assert key_problem([(b"idempotency-key", key.strip(b" \t").replace(b"\x00", b"")
                         .replace(b"\x7f", b""))]) is None


@pytest.mark.parametrize("charset", ["latin-1", '"iso-8859-1"', "utf-16"])
def test_a_body_in_another_charset_is_refused_and_moves_nothing(one: Server,
                                                                charset: str) -> None:
    """A body declared in a charset other than UTF-8 was read as UTF-8 anyway, so the server
    could take text the client never meant; it is refused (400, naming the header), and one
    declared as UTF-8 is taken."""
    s = one
    headers = [("Host", "127.0.0.1"), _bearer(s, "bob"), ("Idempotency-Key", uuid.uuid4().hex)]
    wallet = s.get("admin", "/wallets/bob").json()["balance"]
    status, answer = _raw(s, "POST", "/tables/craps-1/buy-in",
                          [*headers, ("Content-Type", f"application/json; charset={charset}")],
                          b'{"amount": "7"}')
    assert status == 400, answer
    assert answer["error"]["reason"].startswith("header content-type: charset"), answer
    assert s.get("admin", "/wallets/bob").json()["balance"] == wallet
    status, answer = _raw(s, "POST", "/tables/craps-1/buy-in",
                          [*headers, ("Content-Type", "application/json; charset=UTF-8")],
                          b'{"amount": "7"}')
    assert status == 200, answer
