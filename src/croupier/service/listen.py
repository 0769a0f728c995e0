"""The server's listening socket, bound before ``croupier serve`` does anything else, and how
long a connection may keep it waiting.

A port in use, an address this machine does not have, or a port that needs privileges are
found here, before a ledger is made, a password printed or "serving" announced; the message
says which, and ``serve`` exits 1.

A connection is closed when it keeps the server waiting: idle :data:`KEEP_ALIVE_SECONDS`
after a response (uvicorn's keep-alive timeout), and, beyond what uvicorn bounds, waiting for
a request's headers (a client that connects and sends nothing, or sends its headers a byte at a
time) about :data:`HEADERS_SECONDS` (:func:`http_protocol`); and dropped when its client reads
none of an answer for half of that (the answer would otherwise wait to be sent for ever). A
request's body has a deadline of its own (``api/guard.py``, answered 408).
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import socket
import struct
import sys
from collections.abc import Callable
from typing import Any

BACKLOG = 2048
KEEP_ALIVE_SECONDS = 5
"""How long an idle connection stays open after a response (uvicorn's ``timeout_keep_alive``)."""
HEADERS_SECONDS = 10.0
"""How long a connection may wait between requests, the next request's headers included,
before it is closed: closed after between half of it and all of it."""
PER_ADDRESS_SHARE = 8
"""One client address holds at most this share of the connections the process may have open
(its open-files limit), at least :data:`PER_ADDRESS_MIN`: a connection past it is closed as
soon as it is accepted (:func:`http_protocol`)."""
PER_ADDRESS_MIN = 64
WEBSOCKET_MAX_BYTES = 4096
"""The largest WebSocket message a client may send (uvicorn's ``ws_max_size``): a stream's
first message, at most 1024 characters (``api/streams.MAX_HELLO``, up to 4 bytes each in
UTF-8); a client sends nothing after it. uvicorn's default, 16 MiB, inflated from a few
kilobytes sent compressed, let a few dozen connections that never logged in hold gigabytes."""
WEBSOCKET_QUEUE = 4
"""The client's messages a WebSocket holds before the app reads them (uvicorn's
``ws_max_queue``; its default, 32, each up to the size above)."""
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


def open_files_limit() -> int:
    """The process's open-files limit, raised first to the most it may have: each connection
    holds a file descriptor, and a connection flood past the limit refused every new
    connection and every file the server opens (a database connection, the pin)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def per_address(files: int) -> int:
    """How many connections one client address holds at once, with ``files`` open files."""
    return max(PER_ADDRESS_MIN, files // PER_ADDRESS_SHARE)


def client_of(address: str) -> str:
    """The client a peer's ``address`` is counted as: an IPv6 address's /64, the least a
    network is given (its client may use any of its 2**64 addresses, one a connection, and
    so held as many connections as it liked), an IPv4-mapped one's IPv4 address.

    >>> client_of("2001:db8:1:2:ffff::1"), client_of("::ffff:192.0.2.1"), client_of("192.0.2.1")
    ('2001:db8:1:2::/64', '192.0.2.1', '192.0.2.1')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return address


class AddressCap:
    """How many connections each client address holds, at most ``cap`` (None: no cap) unless
    ``exempt`` says otherwise."""

    def __init__(self, cap: int | None, exempt: Callable[[str], bool]) -> None:
        self.cap, self.exempt = cap, exempt
        self.held: dict[str, int] = {}

    def take(self, transport: Any) -> str | None:
        """The address a new connection on ``transport`` is counted under (None: not counted);
        closed at once when that address already holds ``cap``."""
        peer = transport.get_extra_info("peername")
        if self.cap is None or not isinstance(peer, tuple) or self.exempt(str(peer[0])):
            return None
        address = client_of(str(peer[0]))
        if self.held.get(address, 0) >= self.cap:
            transport.abort()
            return None
        self.held[address] = self.held.get(address, 0) + 1
        return address

    def hand_over(self, address: str | None, http: Any, transport: Any) -> str | None:
        """A connection counted under ``address`` upgraded to a WebSocket (or not): its new
        protocol, which never tells the HTTP one that it closed, gives the count back when it
        does. What the HTTP protocol still counts (None once handed over)."""
        protocol = transport.get_protocol()
        if address is None or protocol is http:
            return address
        closed = protocol.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            self.give(address)
            closed(exc)

        protocol.connection_lost = connection_lost
        return None

    def give(self, address: str | None) -> None:
        """A connection counted under ``address`` (by :meth:`take`) closed."""
        if address is None:
            return
        left = self.held.get(address, 1) - 1
        if left > 0:
            self.held[address] = left
        else:
            self.held.pop(address, None)


_ANY: Any = object


class _Upgrades(_ANY):  # type: ignore[misc]
    """What uvicorn's HTTP protocol does as it hands a connection to a WebSocket, kept apart
    from :func:`http_protocol`'s class: the connection's count goes with it (``cap``, the
    class's :class:`AddressCap`)."""

    cap: AddressCap
    _address: str | None

    def handle_websocket_upgrade(self, *args: Any) -> None:
        super().handle_websocket_upgrade(*args)
        self._address = self.cap.hand_over(self._address, self, self.transport)


def http_protocol(seconds: float = HEADERS_SECONDS, cap: int | None = None,
                  exempt: Callable[[str], bool] = lambda address: False,
                  ) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (the one it would choose), closing a connection that waits
    ``seconds`` for a request's headers to be whole. uvicorn's own keep-alive timer stops at
    the first byte of the next request, so a client sending its headers slowly, or a new
    connection sending nothing, held a connection for ever. Each connection is looked at
    every ``seconds / 2``, one timer per connection (none per request): waiting for headers
    (no request under way) at two looks in a row with no request between them, it is closed.
    A connection whose client has read none of an answer between two looks (the answer whole
    but still waiting to be sent, closing or not) is dropped: a close waits for what is left
    to send, so a client that never reads held the connection, and its answer's bytes, for
    ever. A connection handed over to a WebSocket is left to its protocol.

    One client address holds at most ``cap`` connections at once (None: no cap), an address
    ``exempt`` says (a trusted reverse proxy, carrying everyone's) aside: past it a connection
    is closed as soon as it is accepted. Each connection holds a file descriptor until the
    deadline above closes it, and one client opening thousands a second held every one the
    process may open: a new connection from anyone was refused, now and then, for as long as
    it kept on. Its connections now take a share of them, never all. A connection upgraded to
    a WebSocket stays counted until its WebSocket closes: one that never logs in holds its
    descriptor 10 s (``api/streams.HELLO_SECONDS``) like any other."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    every = seconds / 2
    base: Any = AutoHTTPProtocol
    held = AddressCap(cap, exempt)

    class HeadersDeadline(_Upgrades, base):  # type: ignore[misc]
        cap = held

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._seen: object = _BUSY
            self._unread: int | None = None
            self._watch = self.loop.call_later(every, self._look)
            self._address = held.take(transport)  # past the cap: closed at once

        def connection_lost(self, exc: Exception | None) -> None:
            held.give(self._address)
            self._watch.cancel()
            super().connection_lost(exc)

        def _look(self) -> None:
            transport = self.transport
            if transport.get_protocol() is not self:
                return  # a WebSocket's now
            cycle = self.cycle
            busy = cycle is not None and not cycle.response_complete
            stalled, self._unread = _reading_nothing(transport, busy, self._unread)
            if stalled:
                transport.abort()
                return
            if transport.is_closing():
                if self._unread is not None:  # closed once its answer is sent: looked at
                    self._watch = self.loop.call_later(every, self._look)  # until it is
                return
            if busy:
                self._seen = _BUSY  # a request under way: its body and answer have deadlines
            elif self._seen is cycle:
                transport.close()  # waited a whole look for the next request's headers
                return
            else:
                self._seen = cycle  # waiting for headers since at most a look ago
            self._watch = self.loop.call_later(every, self._look)

    return HeadersDeadline


def _reading_nothing(transport: Any, busy: bool, before: int | None,
                     ) -> tuple[bool, int | None]:
    """Whether the client of ``transport`` has read none of an answer since the last look
    (``before``: what was unread then, None if nothing or a request was under way): answered
    (not ``busy``), part of it still unsent and no less of it than before. A client that reads
    nothing kept the connection, and the answer, for ever (a close waits for what is still to
    send). And what to compare at the next look."""
    unread = transport.get_write_buffer_size()
    if busy or not unread:
        return False, None
    unread += _queued(transport)  # what the system holds of it: sent, it is not read yet either
    return before is not None and unread >= before, unread


def _queued(transport: Any) -> int:
    """The bytes the system has taken to send on ``transport``'s socket and its client has
    not acknowledged (Linux; 0 where it cannot be asked): a client reading slowly takes them
    a little at a time, while the buffer above them moves only in large steps."""
    try:
        import fcntl
        import termios
    except ImportError:  # not a Unix
        return 0
    sock = transport.get_extra_info("socket")
    request = getattr(termios, "TIOCOUTQ", None)
    if sock is None or request is None:
        return 0
    try:
        return int(struct.unpack("i", fcntl.ioctl(sock.fileno(), request, b"\0" * 4))[0])
    except (OSError, ValueError):
        return 0
