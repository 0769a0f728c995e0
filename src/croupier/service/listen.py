"""The server's listening socket, bound before ``croupier serve`` does anything else, and how
long a connection may keep it waiting.

A port in use, an address this machine does not have, or a port that needs privileges are
found here, before a ledger is made, a password printed or "serving" announced; the message
says which, and ``serve`` exits 1.

A connection is closed when it keeps the server waiting: idle :data:`KEEP_ALIVE_SECONDS`
after a response (uvicorn's keep-alive timeout), and, beyond what uvicorn bounds, waiting for
a request's headers (a client that connects and sends nothing, or sends its headers a byte at a
time) about :data:`HEADERS_SECONDS` (:func:`http_protocol`). A request's body has a deadline
of its own (``api/guard.py``, answered 408).
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
import sys
from typing import Any

BACKLOG = 2048
KEEP_ALIVE_SECONDS = 5
"""How long an idle connection stays open after a response (uvicorn's ``timeout_keep_alive``)."""
HEADERS_SECONDS = 10.0
"""How long a connection may wait between requests, the next request's headers included,
before it is closed: closed after between half of it and all of it."""
_BUSY = object()


class CannotListen(Exception):
    """The address cannot be listened on; the message says why and what to do."""


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening (connections queue until the app serves)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise CannotListen(f"cannot listen on {host}: not an address of this machine "
                           f"({exc.strerror})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        # Reuse a port a stopped server left in TIME_WAIT; a live listener still refuses it.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        raise CannotListen(_why(host, port, exc)) from None
    sock.set_inheritable(True)
    return sock


def _why(host: str, port: int, exc: OSError) -> str:
    where = f"{host}:{port}"
    if exc.errno == errno.EADDRINUSE:
        return (f"cannot listen on {where}: the port is in use by another program "
                "(stop it, or choose another port with --port)")
    if exc.errno == errno.EACCES:
        return (f"cannot listen on {where}: permission denied (ports below 1024 need "
                "privileges; choose another port with --port)")
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"cannot listen on {where}: {host} is not an address of this machine"
    return f"cannot listen on {where}: {exc.strerror or exc}"


def access_log_to_stderr() -> None:
    """Send the access log (:mod:`croupier.service.api.access`) to standard error, a line
    per request as it is written."""
    logger = logging.getLogger("croupier.access")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def http_protocol(seconds: float = HEADERS_SECONDS) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (the one it would choose), closing a connection that waits
    ``seconds`` for a request's headers to be whole. uvicorn's own keep-alive timer stops at
    the first byte of the next request, so a client sending its headers slowly, or a new
    connection sending nothing, held a connection for ever. Each connection is looked at
    every ``seconds / 2``, one timer per connection (none per request): waiting for headers
    (no request under way) at two looks in a row with no request between them, it is closed.
    A connection handed over to a WebSocket is left to its protocol."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    every = seconds / 2
    base: Any = AutoHTTPProtocol

    class HeadersDeadline(base):  # type: ignore[misc]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._seen: object = _BUSY
            self._watch = self.loop.call_later(every, self._look)

        def connection_lost(self, exc: Exception | None) -> None:
            self._watch.cancel()
            super().connection_lost(exc)

        def _look(self) -> None:
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or a WebSocket's now
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                self._seen = _BUSY  # a request under way: its body and answer have deadlines
            elif self._seen is cycle:
                transport.close()  # waited a whole look for the next request's headers
                return
            else:
                self._seen = cycle  # waiting for headers since at most a look ago
            self._watch = self.loop.call_later(every, self._look)

    return HeadersDeadline
