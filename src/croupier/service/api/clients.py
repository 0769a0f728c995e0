"""Who is asking: the client's address, from the connection or, only when the connection comes
from a proxy the operator named (``croupier serve --trusted-proxy``), from ``X-Forwarded-For``.

Without a trusted proxy the header is ignored, whoever sends it (127.0.0.1 included): any
client can write it, and a guesser who could would make each guess come from a new address.
Behind trusted proxies the header is read from its right end, past the proxies' own entries:
the first address no trusted proxy holds is the one the nearest trusted proxy saw connect (what
is further left was written by the client and proves nothing).

>>> p = Proxies(["10.0.0.0/8"])
>>> p.client("10.1.2.3", ["203.0.113.9, 198.51.100.4, 10.9.9.9"])
'198.51.100.4'
>>> p.client("192.0.2.1", ["198.51.100.4"])   # not a trusted proxy: the header is ignored
'192.0.2.1'
>>> Proxies([]).client("127.0.0.1", ["198.51.100.4"])
'127.0.0.1'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence

from fastapi import Request

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(names: Iterable[str]) -> list[Network]:
    """Addresses or networks (``10.0.0.5``, ``10.0.0.0/8``); ValueError naming a bad one."""
    out = []
    for name in names:
        try:
            out.append(ipaddress.ip_network(name.strip(), strict=False))
        except ValueError:
            raise ValueError(f"--trusted-proxy: {name!r} is not an IP address or network"
                             ) from None
    return out


class Proxies:
    """The reverse proxies whose ``X-Forwarded-For`` is believed (none by default)."""

    def __init__(self, names: Sequence[str] = ()) -> None:
        self.networks = networks(names)

    def trusts(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        # A server listening on "::" takes IPv4 too, its peers then written ::ffff:a.b.c.d:
        # a proxy named by its IPv4 address was not trusted, and was held to one client's
        # share of the connections (listen.AddressCap) with everyone behind it.
        mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
        return any(ip in net or (mapped is not None and mapped in net)
                   for net in self.networks)

    def client(self, peer: str, forwarded: Sequence[str]) -> str:
        """The client's address, given the connection's ``peer`` and the header's values."""
        if not self.networks or not self.trusts(peer):
            return peer
        seen = peer
        hops = [hop.strip() for value in forwarded for hop in value.split(",")]
        for hop in reversed(hops):
            try:
                ipaddress.ip_address(hop)
            except ValueError:
                return seen  # garbled: believe no further than the last proxy's word
            if not self.trusts(hop):
                return hop
            seen = hop
        return seen

    def of(self, request: Request) -> str:
        """The address of ``request``'s client."""
        peer = request.client.host if request.client else ""
        return self.client(peer, request.headers.getlist("x-forwarded-for"))
