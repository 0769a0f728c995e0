"""The log-in attacks of the independent review, over real HTTP against ``croupier serve``:
guessers on one and on a hundred source addresses (the loopback range 127.0.0.0/8, each client
socket bound to its own 127.0.x.y) cannot keep staff out, and ``X-Forwarded-For`` is believed
only from a proxy the operator names.

Before the throttle, three wrong guesses locked ``admin`` for everyone (the admin's own right
password from another address was refused), 30 failures a minute from one address refused every
log-in from it, and a client on 127.0.0.1 escaped the per-address limit by writing
``X-Forwarded-For``. The rates an attack reaches per hour are computed from the policy in
tests/service/test_throttle.py (benchmarks/login_throttle.py); here the server's answers are
checked against the same policy's numbers.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from croupier.service.throttle import Policy
from serverkit import run_apart

from .conftest import PASSWORD, Server, make_server

# The server's policy with waits far longer than a test runs (however loaded the machine, no
# wait ends by itself during one): every answer below follows from the counts alone.
SETTINGS = "pair_base=900,pair_max=3600,guard_base=1800"
POLICY = Policy.from_text(SETTINGS)


def _from(address: str) -> httpx.Client:
    """A client whose connections come from ``address`` (any of 127.0.0.0/8 on Linux)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=900)


def _login(s: Server, address: str, name: str, password: str,
           headers: dict[str, str] | None = None) -> httpx.Response:
    with _from(address) as c:
        return c.post(s.base + "/auth/login", json={"username": name, "password": password},
                      headers=headers)


def _server(tmp_path: Path, **env: str) -> Server:
    server = make_server("sqlite", tmp_path)
    server.env = {**os.environ, "CROUPIER_LOGIN_THROTTLE": SETTINGS, **env}
    server.start()
    return server


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Server]:
    server = _server(tmp_path)
    try:
        yield server
    finally:
        server.stop()


def test_one_address_guessing_admin_keeps_no_one_out(srv: Server) -> None:
    s = srv
    attacker = "127.0.0.2"
    codes = [_login(s, attacker, "admin", f"guess-{i}").status_code for i in range(40)]
    # The first few wrong guesses are checked; then the pair waits (back-off), unchecked.
    assert codes == [401] * POLICY.pair_free + [429] * (40 - POLICY.pair_free)
    refused = _login(s, attacker, "admin", PASSWORD)  # even the right one, from here, waits
    assert refused.status_code == 429
    assert 0 < int(refused.headers["Retry-After"]) <= POLICY.pair_base  # the wait left
    assert "from this address" in refused.json()["error"]["reason"]
    # The admin from another address logs in at once; another account from the attacker's
    # address too (40 failures there refuse no one else).
    assert _login(s, "127.0.0.3", "admin", PASSWORD).status_code == 200
    assert _login(s, attacker, "dealer", PASSWORD).status_code == 200
    # Spraying from the attacker's address: a wrong guess at 30 accounts in a row, then a
    # correct log-in of a different account from the same address.
    for i in range(30):
        assert _login(s, attacker, f"user-{i}", "wrong").status_code == 401
    assert _login(s, attacker, "supervisor", PASSWORD).status_code == 200
    # An unknown name is throttled exactly as an account is (no name told apart).
    unknown = [_login(s, attacker, "nobody-here", "x").status_code
               for _ in range(POLICY.pair_free + 1)]
    known = [_login(s, attacker, "auditor", "x").status_code
             for _ in range(POLICY.pair_free + 1)]
    assert unknown == known == [401] * POLICY.pair_free + [429]


async def _round(s: Server, addresses: list[str], name: str, tag: str) -> list[int]:
    """One wrong guess at ``name`` from each of ``addresses`` at once."""
    async def one(address: str) -> int:
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(transport=transport, timeout=900) as c:
            r = await c.post(s.base + "/auth/login",
                             json={"username": name, "password": f"{tag}-{address}"})
            return r.status_code

    return list(await asyncio.gather(*(one(a) for a in addresses)))


def test_a_hundred_addresses_are_capped_and_staff_get_in_at_once(srv: Server) -> None:
    s = srv
    addresses = [f"127.0.{1 + i // 200}.{1 + i % 200}" for i in range(100)]

    async def attack() -> tuple[list[list[int]], httpx.Response]:
        first = await _round(s, addresses, "supervisor", "a")
        # The supervisor logs in from a clean address while the second round is in flight.
        second, staff = await asyncio.gather(
            _round(s, addresses, "supervisor", "b"),
            asyncio.to_thread(_login, s, "127.0.9.9", "supervisor", PASSWORD))
        third = await _round(s, addresses, "supervisor", "c")
        return [first, second, third], staff

    rounds, staff = run_apart(attack())
    assert staff.status_code == 200
    # Round one: every address is clean, each guess is checked (a hundred, past the cap).
    assert rounds[0] == [401] * 100
    # Past the account's cap, addresses that failed there are refused unchecked while the
    # account is guarded.
    assert rounds[1] == [429] * 100 and rounds[2] == [429] * 100
    state = next(u for u in s.get("admin", "/users").json() if u["username"] == "supervisor")
    assert state["lockouts"] == 1 and state["locked_until"] is not None
    assert state["failed_logins"] == 100  # the wrong guesses checked; the right one is not
    # An admin's unlock clears the counts: the attackers' addresses are checked again.
    assert s.post("admin", "/users/supervisor/unlock", None, key=None).status_code == 200
    assert _login(s, addresses[0], "supervisor", PASSWORD).status_code == 200


def test_forwarded_for_is_believed_only_from_named_proxies(tmp_path: Path) -> None:
    s = _server(tmp_path, CROUPIER_TRUSTED_PROXIES="127.0.0.1")
    try:
        # Through the named proxy (127.0.0.1): each forwarded client is counted as itself.
        for n in (1, 2):  # (two clients' free guesses: the account's cap, no further)
            codes = {_login(s, "127.0.0.1", "dealer", "wrong",
                            {"X-Forwarded-For": f"198.51.100.{n}"}).status_code
                     for _ in range(POLICY.pair_free)}
            assert codes == {401}  # each client has its own free guesses
        blocked = _login(s, "127.0.0.1", "dealer", "wrong", {"X-Forwarded-For": "198.51.100.2"})
        assert blocked.status_code == 429
        # A client the proxy forwards with no failures gets in; a header the client wrote to
        # the left of the proxy's entry proves nothing.
        assert _login(s, "127.0.0.1", "dealer", PASSWORD,
                      {"X-Forwarded-For": "198.51.100.1, 198.51.100.77"}).status_code == 200
        # Not a named proxy: the header is ignored, the guesses count against 127.0.0.4.
        codes = [_login(s, "127.0.0.4", "admin", "wrong",
                        {"X-Forwarded-For": f"203.0.113.{i}"}).status_code
                 for i in range(POLICY.pair_free + 1)]
        assert codes == [401] * POLICY.pair_free + [429]
    finally:
        s.stop()


def test_forwarded_for_from_loopback_is_ignored_by_default(srv: Server) -> None:
    s = srv
    codes = [_login(s, "127.0.0.1", "auditor", "wrong",
                    {"X-Forwarded-For": f"203.0.113.{i}"}).status_code
             for i in range(POLICY.pair_free + 2)]
    assert codes == [401] * POLICY.pair_free + [429, 429]
