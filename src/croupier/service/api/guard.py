"""What every HTTP request passes through before a route: a body size limit, a JSON body read
strictly, and the headers that keep the browser table from being framed, sniffed, fed
foreign scripts, held by another site's window, or its answers kept in the browser's cache.

The size limit is enforced before the body is read whole: a ``Content-Length`` over
:data:`MAX_BODY` is answered 413 at once, and a body without one (chunked) is counted as it
arrives and refused the moment it passes the limit, so no request can make the server hold
more than :data:`MAX_BODY` bytes of it.

A JSON body is parsed once here before the framework parses it again, because the framework
lets the last of two equal keys win: ``{"amount": "5", "amount": "500"}`` would bet 500 where a
person reading the request sees 5. Such a body, or one that is not JSON in UTF-8 (the
framework's parser also takes UTF-16 and UTF-32) or is nested too deeply, or holds a number
too long to read, is answered 422 naming the place before any route runs.

A request that two readers could read differently (a single-valued header such as
``Authorization`` or ``Idempotency-Key`` given twice, or a path not in normal form: ``..``,
``.``, ``//``, a percent-encoded dot or slash) is answered 400 naming the header or the path,
before anything else reads it (:mod:`.form`); a cluster node that forwards a request and the
node that serves it therefore read it alike.

A request whose client goes away before its body is whole (fewer bytes than its
``Content-Length``, or a chunked body without its last chunk) is dropped unanswered: its start
may be valid JSON, but the client never finished sending it, so nothing is done on it.

A body that has not arrived whole :data:`BODY_SECONDS` after its request's headers (a client
sending it slowly, or not at all) is answered 408 and the connection closed: no client holds a
request, and the task serving it, open by sending slowly (:class:`Deadlines`). The deadline
costs a body read no timer of its own: it is noted in a table that one task per event loop
looks through once a second, cancelling a read that is overdue.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from croupier.service.api.form import (
    NUL,
    SURROGATE,
    charset_problem,
    duplicate_header,
    has_lone_surrogate,
    key_problem,
    path_problem,
    query_problem,
    text_place,
)

MAX_BODY = 64 * 1024
BODY_SECONDS = 10.0
"""How long a request's body may take to arrive whole, from its headers (seconds)."""
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
       "object-src 'none'")
SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"content-security-policy", CSP.encode()),
    (b"referrer-policy", b"no-referrer"),
    # A window of the table opened by another site's page is cut off from it: that page could
    # otherwise send the logged-in window elsewhere (a look-alike log-in form) at any time.
    (b"cross-origin-opener-policy", b"same-origin"),
    # Answers show money and people's records (a wallet's entries, a table's chips, the
    # night's report, a token): a browser that stored them kept them on disk past the log-out,
    # for the next person at a shared terminal. A route whose answer holds no one's data (the
    # page's own files) says its own caching, which is kept.
    (b"cache-control", b"no-store"),
]


def _too_slow() -> tuple[bytes, list[tuple[bytes, bytes]]]:
    body = json.dumps({"error": {"code": "timeout", "clause": "", "reason": (
        f"the request body did not arrive whole within {BODY_SECONDS:g} seconds of its "
        "headers")}}).encode()
    return body, [(b"content-type", b"application/json"),
                  (b"content-length", str(len(body)).encode()), (b"connection", b"close")]


def _too_large() -> tuple[bytes, list[tuple[bytes, bytes]]]:
    body = json.dumps({"error": {"code": "too_large", "clause": "",
                                 "reason": f"the request body is over {MAX_BODY} bytes"}}).encode()
    return body, [(b"content-type", b"application/json"),
                  (b"content-length", str(len(body)).encode()), (b"connection", b"close")]


class Guard:
    """ASGI middleware: body size limit and security headers on every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        unread = _form_problem(scope)
        if unread is not None:
            await self._answer(send, 400, _malformed(unread))
            return
        bad_query = query_problem(scope.get("query_string", b""))
        if bad_query is not None:
            await self._answer(send, 422, _malformed(bad_query))
            return
        length = _content_length(scope)
        if length is not None and length > MAX_BODY:
            await self._refuse(scope, send)
            return
        if scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            try:
                body = await DEADLINES.read(receive)
            except ClientGone:
                return  # the body never arrived whole: nobody to answer, nothing to do
            except TooSlow:
                await Guard.refuse_too_slow(send)
                return
            if body is None:
                await self._refuse(scope, send)
                return
            problem = _json_problem(scope, body)
            if problem is not None:
                await self._answer(send, 422, _malformed(problem))
                return
            receive = replay_body(body)
        await self.app(scope, receive, _with_headers(send))

    @staticmethod
    async def _refuse(scope: Scope, send: Send) -> None:
        await Guard.refuse_too_large(send)

    @staticmethod
    async def refuse_too_large(send: Send) -> None:
        """The 413 answer to a body over :data:`MAX_BODY` (the connection then closes)."""
        body, headers = _too_large()
        await send({"type": "http.response.start", "status": 413,
                    "headers": headers + SECURITY_HEADERS})
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    async def refuse_too_slow(send: Send) -> None:
        """The 408 answer to a body that did not arrive whole in :data:`BODY_SECONDS` (the
        connection then closes)."""
        body, headers = _too_slow()
        await send({"type": "http.response.start", "status": 408,
                    "headers": headers + SECURITY_HEADERS})
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    async def _answer(send: Send, status: int, body: bytes) -> None:
        headers = [(b"content-type", b"application/json"),
                   (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status,
                    "headers": headers + SECURITY_HEADERS})
        await send({"type": "http.response.body", "body": body})


class ClientGone(Exception):
    """The client disconnected before the request's body was whole."""


class TooSlow(Exception):
    """The request's body did not arrive whole within :data:`BODY_SECONDS`."""


class Deadlines:
    """The body reads under way, each with the time it must end by, and the one task (per
    event loop, started by the first read) that cancels the overdue ones every ``every``
    seconds. A read costs two operations on a dict, never a clock reading (the sweeper keeps
    the time, ``now``), a timer or a task of its own, so the requests whose body came with
    their headers (nearly all) pay nearly nothing. A deadline is counted from the sweeper's
    last look at the clock and found at its next look: it falls within ``every`` of
    ``seconds`` either way."""

    def __init__(self, seconds: float, every: float = 1.0) -> None:
        self.seconds = seconds
        self.every = every
        self.reads: dict[asyncio.Task[Any], float] = {}
        self.overdue: set[asyncio.Task[Any]] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.sweeper: asyncio.Task[None] | None = None
        self.now = 0.0

    async def read(self, receive: Receive) -> bytes | None:
        """:func:`read_limited` within the deadline: :class:`TooSlow` after it."""
        task = asyncio.current_task()
        if task is None:  # not in a task (never so under a server): no deadline
            return await read_limited(receive)
        if task.get_loop() is not self.loop or self.sweeper is None or self.sweeper.done():
            self._start(task.get_loop())
        reads = self.reads
        reads[task] = self.now + self.seconds
        try:
            return await read_limited(receive)
        except asyncio.CancelledError:
            if task not in self.overdue:
                raise
            self.overdue.discard(task)
            task.uncancel()
            raise TooSlow from None
        finally:
            del reads[task]

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.now = loop.time()
        self.sweeper = loop.create_task(self._sweep(loop))

    async def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        while self.loop is loop:
            await asyncio.sleep(self.every)
            self.now = now = loop.time()
            for task, deadline in list(self.reads.items()):
                if deadline <= now and task.get_loop() is loop and task not in self.overdue:
                    self.overdue.add(task)
                    task.cancel()


DEADLINES = Deadlines(BODY_SECONDS)


class _Twice(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_key_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _Twice(key)
        seen[key] = value
    return seen


_STRICT = json.JSONDecoder(object_pairs_hook=_no_key_twice)
"""The body's parser, made once (``json.loads`` with a hook makes a decoder per call): the
same as ``json.loads(text, object_pairs_hook=_no_key_twice)``."""

PARSED = "croupier.parsed_body"
"""Where the guard leaves a JSON body it has read (``scope[PARSED]``: the body's bytes and
what they parse to), so the express lane does not parse it again."""


def _json_problem(scope: Scope, body: bytes) -> str | None:
    """What is wrong with a JSON body (its place and why), or None."""
    kind = next((v for n, v in scope["headers"] if n == b"content-type"), b"")
    if not body.strip() or (kind and b"json" not in kind.lower()):
        return None
    try:
        # Decoded here, strictly: given bytes, the parser would also take UTF-16 and UTF-32
        # (and UTF-8 holding an encoded surrogate), where neither a NUL's nor a surrogate's
        # escape is the byte string the checks below look for.
        parsed = _STRICT.decode(body.decode("utf-8"))
        scope[PARSED] = (body, parsed)
    except _Twice as twice:
        return f"body.{twice.key}: a key given twice in one object"
    except RecursionError:
        return "body: nested too deeply"
    except UnicodeDecodeError:
        return "body: not UTF-8 text"
    except json.JSONDecodeError as bad:
        return f"body: not valid JSON (line {bad.lineno}, column {bad.colno}: {bad.msg})"
    except ValueError:  # the one other: an integer past Python's digit limit
        return f"body: a number of more than {sys.get_int_max_str_digits()} digits"
    return _text_problem(body, parsed)


def _text_problem(body: bytes, parsed: Any) -> str | None:
    """The place and why of a string of a parsed JSON body that no text holds: a NUL character
    or a lone surrogate. JSON writes either only as an escape, so the body is walked only
    when its bytes hold one (a surrogate pair is one character, and passes)."""
    if b"\\u0000" in body:
        place = text_place(parsed, "body")
        if place is not None:
            return f"{place}: {NUL}"
    if _SURROGATE_ESCAPE.search(body) is not None:
        place = text_place(parsed, "body", has_lone_surrogate)
        if place is not None:
            return f"{place}: {SURROGATE}"
    return None


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _form_problem(scope: Scope) -> str | None:
    """Why two readers could read this request differently (:mod:`.form`), or None."""
    twice = duplicate_header(scope["headers"])
    if twice is not None:
        return f"header {twice}: given more than once; a request carries it once"
    return (key_problem(scope["headers"]) or charset_problem(scope["headers"])
            or path_problem(scope["path"], scope.get("raw_path")))


def _malformed(reason: str) -> bytes:
    return json.dumps({"error": {"code": "malformed", "reason": reason, "clause": ""}}).encode()


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return MAX_BODY + 1  # unreadable: refused like one too large
    return None


async def read_limited(receive: Receive) -> bytes | None:
    """The whole body if it is at most :data:`MAX_BODY` bytes, else None (stops reading);
    :class:`ClientGone` if the client disconnects before the body is whole."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise ClientGone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def replay_body(body: bytes) -> Receive:
    """A receive that gives ``body`` whole once, then a disconnect."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


def _with_headers(send: Send) -> Send:
    async def send_with(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {name.lower() for name, _ in message.get("headers", [])}
            extra = [(n, v) for n, v in SECURITY_HEADERS if n not in present]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return send_with


def install(app: Any) -> None:
    """Put the guard in front of ``app``."""
    app.add_middleware(Guard)
