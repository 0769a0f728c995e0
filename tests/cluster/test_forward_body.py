"""A node forwards a request's body to a table's holder only within the size limit and only
whole, as the request guard reads it (the forwarder runs in front of the guard).

It read the body with no limit (a chunked upload of any size was held in memory, then sent
on) and took a client's disconnect for the end of the body, so a bet cut short mid-body, its
start a whole JSON object, was forwarded and placed. Needs no database: the holder is a
stand-in transport that records what reached it.
"""

from __future__ import annotations

from typing import Any

import httpx

from croupier.service.api.guard import MAX_BODY
from croupier.service.cluster.routing import Router
from serverkit import run_coroutine

BET = b'{"wager": "field", "amount": "1"}'


class _Node:
    node_id = "a"

    def forget_holder(self, table_id: str) -> None:  # pragma: no cover - never reached here
        raise AssertionError(table_id)

    def forward_within(self, table_id: str) -> float:
        return 5.0


def _forward(messages: list[dict[str, Any]]) -> tuple[list[httpx.Request], list[Any]]:
    """Forward one request whose body arrives as ``messages``: what reached the holder, and
    what the client was sent."""
    reached: list[httpx.Request] = []
    sent: list[Any] = []

    def holder(request: httpx.Request) -> httpx.Response:
        reached.append(request)
        return httpx.Response(200, json={"ok": True})

    router = Router(lambda *_: None, _Node(), None, None)  # type: ignore[arg-type]
    router._client = httpx.AsyncClient(transport=httpx.MockTransport(holder))

    async def receive() -> Any:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/tables/t/bets",
             "raw_path": b"/tables/t/bets",
             "query_string": b"", "headers": [(b"content-type", b"application/json")]}
    run_coroutine(router._forward(scope, receive, send, "http://b", "t"))
    return reached, sent


def test_a_whole_body_is_forwarded() -> None:
    reached, sent = _forward([{"type": "http.request", "body": BET[:9], "more_body": True},
                              {"type": "http.request", "body": BET[9:], "more_body": False}])
    assert [r.content for r in reached] == [BET] and sent[0]["status"] == 200


def test_a_body_cut_short_is_not_forwarded() -> None:
    reached, sent = _forward([{"type": "http.request", "body": BET, "more_body": True},
                              {"type": "http.disconnect"}])
    assert reached == [] and sent == []


def test_a_body_over_the_limit_is_refused_without_being_forwarded() -> None:
    chunk = {"type": "http.request", "body": b" " * 4096, "more_body": True}
    reached, sent = _forward([dict(chunk) for _ in range(MAX_BODY // 4096 + 2)])
    assert reached == [] and sent[0]["status"] == 413
