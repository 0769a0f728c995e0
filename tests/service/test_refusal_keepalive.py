"""A refusal raised by a route itself answers 409 and leaves the client's connection usable.

Found by an attack on the live server: the web framework clears a handled exception's
traceback by assignment, which a frozen ``Refusal`` used to refuse, so the server dropped the
keep-alive connection after answering and the client's next request was reset.
"""

from __future__ import annotations

import uuid

import httpx

from .conftest import Server


def test_next_request_on_the_connection_after_a_route_refusal(sqlite_server: Server) -> None:
    s = sqlite_server
    with httpx.Client(base_url=s.base, timeout=30) as client:
        headers = {**s.headers("supervisor"), "Idempotency-Key": str(uuid.uuid4())}
        r = client.post("/tables/craps-1/adjustments", headers=headers,
                        json={"player": "alice", "amount": "-99999", "reason": "dealer error"})
        assert r.status_code == 409, r.text
        assert "at most 10000.00" in r.json()["error"]["reason"]
        # The same connection serves the next request.
        assert client.get("/health").status_code == 200
