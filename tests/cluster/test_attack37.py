"""Found by an attack on the cluster: a node forwarded a request for another node's table,
bearer token and all, to whatever address the table's lease row named. The row is the
database's, so whoever could write the database pointed it at a listener of theirs and was
handed every forwarded token, an admin's included: a session as the admin, which no row
written into the database otherwise makes (the tokens are sealed with the key). Shown over two
real nodes: the lease's ``owner_url`` rewritten, an admin's ``GET /tables/craps-1`` through the
other node reached the listener with the admin's token, and its answer came back as the table.

A node taking a lease now writes a MAC of its id and address under a secret derived from the
ledger's key (which every node holds and the database does not), and a node forwards only to
an address so vouched for. In process: the router over a stand-in transport (no database).
"""

from __future__ import annotations

from typing import Any

import httpx

from croupier.service.auth import User
from croupier.service.cluster import leases
from croupier.service.cluster.node import Node
from croupier.service.cluster.routing import Router
from serverkit import run_coroutine

SECRET = b"s" * 32
"""Stands for the secret every node derives from the ledger's key."""


class _Tables:
    def __contains__(self, table_id: object) -> bool:
        return True


class _Auth:
    async def user_for_async(self, token: str) -> User | None:
        return User(1, "admin", "admin") if token == "admin-token" else None


def _node(holder: leases.Holder) -> Node:
    """Node ``a``, which does not hold ``t``: the lease names ``holder``."""
    node = Node(None, None, "a", "http://a", secret=SECRET)  # type: ignore[arg-type]
    node.holds = lambda table_id: False  # type: ignore[method-assign]
    node.claim = lambda table_id: holder  # type: ignore[method-assign]
    return node


def _through(holder: leases.Holder) -> tuple[list[httpx.Request], list[Any]]:
    """An admin's ``GET /tables/t`` through node ``a``: what reached any address, and what
    the admin was sent."""
    reached: list[httpx.Request] = []
    sent: list[Any] = []

    def anywhere(request: httpx.Request) -> httpx.Response:
        reached.append(request)
        return httpx.Response(200, json={"table": "t"})

    async def app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover
        raise AssertionError("served here: node a does not hold t")

    router = Router(app, _node(holder), _Tables(), _Auth())  # type: ignore[arg-type]
    router._client = httpx.AsyncClient(transport=httpx.MockTransport(anywhere))

    async def receive() -> Any:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/tables/t", "raw_path": b"/tables/t",
             "query_string": b"", "headers": [(b"authorization", b"Bearer admin-token")]}
    run_coroutine(router(scope, receive, send))
    return reached, sent


def _holder(url: str, url_mac: str | None) -> leases.Holder:
    return leases.Holder("b", url, 3, False, 2.5, 7, url_mac)


def test_a_vouched_holder_is_forwarded_to() -> None:
    reached, sent = _through(_holder("http://b", leases.address_mac(SECRET, "b", "http://b")))
    assert [str(r.url) for r in reached] == ["http://b/tables/t"]
    assert reached[0].headers["authorization"] == "Bearer admin-token"
    assert sent[0]["status"] == 200


def test_an_address_written_into_the_lease_gets_no_token() -> None:
    """The row's address changed, its MAC kept (or none written, or one for another node's
    address): nothing is sent anywhere, the admin is told to retry."""
    genuine = leases.address_mac(SECRET, "b", "http://b")
    for holder in (_holder("http://evil", genuine), _holder("http://evil", None),
                   _holder("http://evil", leases.address_mac(b"x" * 32, "b", "http://evil"))):
        reached, sent = _through(holder)
        assert reached == [], holder
        assert sent[0]["status"] == 503 and b"not vouched for" in sent[1]["body"], sent


def test_a_node_without_the_key_forwards_nothing() -> None:
    node = Node(None, None, "a", "http://a")  # type: ignore[arg-type]
    assert not node.vouched(_holder("http://b", leases.address_mac(SECRET, "b", "http://b")))
