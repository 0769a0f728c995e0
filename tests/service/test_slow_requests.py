"""A client that sends slowly holds nothing for ever (found by an attack on the live server,
where a request whose body never came held its connection and its task):

* the request guard answers 408 (the project's error shape, the connection closed) to a body
  not whole within its deadline, whether nothing of it came or part; a body that came whole
  is passed on, and no read is left in the deadlines' table;
* the server's HTTP protocol closes a connection waiting for a request's headers past its
  deadline, a new one sending nothing or one sending its headers a byte at a time, and not one
  whose request is being answered;
* and drops one whose client reads nothing of an answer (found by a later attack: the answer
  sat in the connection's buffer for ever, closing never done), but not one read slowly.

The guard is driven in-process with a ``receive`` that stalls; the protocol under a real
uvicorn on a loopback port, with deadlines of a fraction of a second."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from croupier.service.api import guard
from croupier.service.listen import http_protocol
from serverkit import free_port

SCOPE: dict[str, Any] = {"type": "http", "method": "POST", "path": "/tables/craps-1/bets",
                         "raw_path": b"/tables/craps-1/bets", "query_string": b"",
                         "headers": [(b"content-type", b"application/json"),
                                     (b"content-length", b"40")]}
BODY = b'{"wager": "pass", "amount": "5"}'


def _receive(*chunks: bytes, stall: bool) -> Any:
    """A receive giving ``chunks`` (more to come after each), then stalling (``stall``) or the
    last of the body."""
    queue = list(chunks)

    async def receive() -> dict[str, Any]:
        if queue:
            chunk = queue.pop(0)
            return {"type": "http.request", "body": chunk, "more_body": stall or bool(queue)}
        await asyncio.Event().wait()  # the client sends nothing more
        raise AssertionError("unreachable")

    return receive


def _through_guard(receive: Any) -> tuple[list[dict[str, Any]], list[bytes]]:
    """What the guard sends for one request read through ``receive``, and what the app
    behind it read."""
    sent: list[dict[str, Any]] = []
    passed: list[bytes] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        passed.append((await receive())["body"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        await asyncio.wait_for(guard.Guard(app)(dict(SCOPE), receive, send), 10)

    asyncio.run(run())
    return sent, passed


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> guard.Deadlines:
    deadlines = guard.Deadlines(0.2, every=0.05)
    monkeypatch.setattr(guard, "DEADLINES", deadlines)
    return deadlines


@pytest.mark.parametrize("chunks", [(), (BODY[:10],)], ids=["no byte of it", "part of it"])
def test_a_body_not_whole_in_time_is_answered_408(quick: guard.Deadlines,
                                                   chunks: tuple[bytes, ...]) -> None:
    started = time.monotonic()
    sent, passed = _through_guard(_receive(*chunks, stall=True))
    assert time.monotonic() - started < 5
    assert passed == []  # the app never saw it
    start, body = sent
    assert start["status"] == 408 and (b"connection", b"close") in start["headers"]
    error = json.loads(body["body"])["error"]
    assert error["code"] == "timeout" and error["clause"] == ""
    assert "did not arrive whole" in error["reason"]
    assert quick.reads == {} and quick.overdue == set()


def test_a_body_that_comes_whole_is_passed_on(quick: guard.Deadlines) -> None:
    sent, passed = _through_guard(_receive(BODY[:10], BODY[10:], stall=False))
    assert passed == [BODY] and sent[0]["status"] == 200
    assert quick.reads == {}


# --- the headers' deadline, under a real uvicorn ---------------------------------------------

BIG = b"x" * (8 * 1024 * 1024)
"""An answer far larger than the buffers of a loopback connection."""


async def _slow_app(scope: Any, receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    if scope["path"] == "/slow":
        await asyncio.sleep(1.0)  # longer than the headers' deadline: busy, not waiting
    body = BIG if scope["path"] == "/big" else b"ok"
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[uvicorn.Server, int]]:
    number = free_port()
    config = uvicorn.Config(_slow_app, host="127.0.0.1", port=number, log_level="warning",
                            http=http_protocol(0.4), lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert server.started
    yield server, number
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def port(served: tuple[uvicorn.Server, int]) -> int:
    return served[1]


def _closed_within(conn: socket.socket, seconds: float, trickle: bytes = b"") -> float:
    """How long until the server closes ``conn`` (sending ``trickle`` a byte every 50 ms
    meanwhile); fails past ``seconds``."""
    conn.settimeout(0.05)
    started = time.monotonic()
    for byte in [trickle[i:i + 1] for i in range(len(trickle))] or [b""] * 10_000:
        if byte:
            try:
                conn.sendall(byte)
            except OSError:
                return time.monotonic() - started
        try:
            if conn.recv(1024) == b"":
                return time.monotonic() - started
        except TimeoutError:
            pass
        except OSError:
            return time.monotonic() - started
        assert time.monotonic() - started < seconds, "still open"
    raise AssertionError("the trickle ended before the connection was closed")


def test_a_connection_sending_nothing_is_closed(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as conn:
        assert _closed_within(conn, 3) >= 0.15


def test_headers_sent_a_byte_at_a_time_are_cut_off(port: int) -> None:
    headers = b"POST /tables/craps-1/bets HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Pad: a\r\n" * 20
    with socket.create_connection(("127.0.0.1", port)) as conn:
        assert _closed_within(conn, 3, trickle=headers) < 3


def test_a_request_being_answered_is_not_cut_off(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.settimeout(5)
        conn.sendall(b"GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = b""
        while not answer.endswith(b"ok"):
            chunk = conn.recv(1024)
            assert chunk, answer
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200")


def _asking_big(port: int) -> socket.socket:
    conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the server's buffer fills
    conn.connect(("127.0.0.1", port))
    conn.sendall(b"GET /big HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    return conn


def test_a_client_reading_nothing_of_its_answer_is_dropped(
        served: tuple[uvicorn.Server, int]) -> None:
    server, number = served
    with _asking_big(number):
        started = time.monotonic()
        while server.server_state.connections and time.monotonic() - started < 3:
            time.sleep(0.05)
        assert not server.server_state.connections, "the server still holds the connection"


def test_an_answer_read_slowly_is_read_whole(port: int) -> None:
    with _asking_big(port) as conn:
        conn.settimeout(5)
        got = 0
        started = time.monotonic()
        while got < len(BIG):
            chunk = conn.recv(64 * 1024)
            assert chunk, f"cut off after {got} bytes"
            got += len(chunk)
            time.sleep(0.002)
        # longer than a look of the protocol's deadline (0.2 s), so it was looked at reading
        assert time.monotonic() - started > 0.4
