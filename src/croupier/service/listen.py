"""The server's listening socket, bound before ``croupier serve`` does anything else.

A port in use, an address this machine does not have, or a port that needs privileges are
found here, before a ledger is made, a password printed or "serving" announced; the message
says which, and ``serve`` exits 1.
"""

from __future__ import annotations

import errno
import logging
import socket
import sys

BACKLOG = 2048


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
