"""Attacks on the connection cap per client address and the changes around it (attack57).

* A trusted proxy reaching a server that listens on ``::`` over IPv4 was held to one client's
  share of the connections: the listening socket takes IPv4 too (Linux's default), so the
  proxy's connections came from ``::ffff:127.0.0.1``, which ``--trusted-proxy 127.0.0.1`` did
  not name. Past its 128th connection (of 1,024 open files) each new one was closed at once:
  everyone behind the proxy was locked out while it held that many (and its X-Forwarded-For
  was not believed either, so they all shared one address for every other limit too). An
  IPv4-mapped address is now read as the IPv4 address it carries.
* One IPv6 client held as many connections as it liked: the share was counted per address,
  and a client given a /64 (the least a network is given) has 2**64 of them, so it opened its
  connections from a new one each time and held every descriptor again. An IPv6 peer is
  counted by its /64.
* A match play coupon asked for (pending) before its player's account was deleted was
  approved afterwards and issued to the deleted account (154d8cf refused only the issue).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from croupier.service import listen
from croupier.service.api.clients import Proxies
from serverkit import room_for_connections

from .conftest import Server, limit_files, make_server, running

FILES = 1024
"""The server's open-files limit in the test: its share per address is then 128."""


def test_an_ipv4_mapped_address_is_the_ipv4_address_it_carries() -> None:
    proxies = Proxies(["10.0.0.0/8"])
    assert proxies.trusts("::ffff:10.1.2.3")
    assert proxies.client("::ffff:10.1.2.3", ["198.51.100.4"]) == "198.51.100.4"
    assert proxies.client("10.1.2.3", ["198.51.100.4, ::ffff:10.9.9.9"]) == "198.51.100.4"
    assert not proxies.trusts("::ffff:192.0.2.1")


class _Transport:
    """What :class:`listen.AddressCap` reads of a connection: its peer, and its closing."""

    def __init__(self, address: str) -> None:
        self.peer = (address, 40000, 0, 0) if ":" in address else (address, 40000)
        self.aborted = False

    def get_extra_info(self, name: str) -> Any:
        return self.peer if name == "peername" else None

    def abort(self) -> None:
        self.aborted = True


def test_one_ipv6_client_holds_its_share_whatever_address_of_its_64_it_uses() -> None:
    cap = listen.AddressCap(64, lambda address: False)
    taken = [cap.take(_Transport(f"2001:db8:1:2::{n:x}")) for n in range(1, 65)]
    assert all(t is not None for t in taken)
    extra = _Transport("2001:db8:1:2:ffff::1")
    assert cap.take(extra) is None and extra.aborted, "a new address of the same /64"
    other = _Transport("2001:db8:1:3::1")
    assert cap.take(other) is not None and not other.aborted, "another /64"
    for t in taken:
        cap.give(t)
    again = _Transport("2001:db8:1:2::1")
    assert cap.take(again) is not None and not again.aborted, "given back"
    # An IPv4 client over a dual-stack socket is its IPv4 address, held to its own share.
    assert cap.take(_Transport("::ffff:192.0.2.1")) == cap.take(_Transport("192.0.2.1"))


def _dual_stack() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as sock:
            sock.bind(("::", 0))
            sock.listen()
            with socket.create_connection(("127.0.0.1", sock.getsockname()[1]), timeout=5):
                pass
        return True
    except OSError:
        return False


@pytest.fixture
def proxied_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """A server listening on ``::`` (IPv4 and IPv6), 127.0.0.1 its trusted proxy, its
    open-files limit :data:`FILES`."""
    if not _dual_stack():
        pytest.skip("this machine has no dual-stack IPv6 socket")

    limit_files(monkeypatch, FILES, "--host", "::", "--trusted-proxy", "127.0.0.1")
    with running(make_server("sqlite", tmp_path)) as srv:
        yield srv


def test_a_trusted_proxy_over_ipv4_on_a_dual_stack_socket_is_not_capped(
        proxied_server: Server) -> None:
    cap = listen.per_address(FILES)
    room_for_connections(cap + 1)
    port = proxied_server.port
    held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(cap)]
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as extra:
            extra.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            extra.settimeout(10)
            assert extra.recv(64).startswith(b"HTTP/1.1 200"), (
                "the trusted proxy's connection past one client's share was closed")
    finally:
        for conn in held:
            conn.close()


# --- a pending coupon approved for a deleted account ---------------------------------------

def test_a_pending_coupon_is_not_approved_for_a_deleted_account(tmp_path: Path) -> None:
    """(154d8cf) No match play coupon is issued to a deleted account, but one asked for past
    what one person issues alone (pending, 202) before the account was deleted was still
    approved afterwards (200, issued): a deletion reads only the wallet and the tables. The
    approval is refused now as the issue is, naming the deletion."""
    from .appkit import demo_app

    with demo_app(tmp_path) as app:
        app.add_user("gus", "player")
        app.add_user("sup2", "supervisor")
        asked = app.post("supervisor", "/coupons",
                         {"player": "gus", "face_value": "150.00", "wagers": ["pass"]})
        assert asked.status_code == 202, asked.text
        serial = asked.json()["serial"]
        gone = app.client.delete("/users/gus", headers=app.headers("admin"))
        assert gone.status_code == 200, gone.text
        approved = app.post("sup2", f"/coupons/{serial}/approve", None, key=None)
        assert approved.status_code == 409, approved.text
        assert "deleted" in approved.json()["error"]["reason"]
        assert app.get("auditor", f"/coupons/{serial}").json()["status"] == "pending"
        assert app.audit()["ok"]
