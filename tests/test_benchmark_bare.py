"""The bound benchmarks/serve.py measures bets against does a bet request's bare minimum and
no less: the whole body read, the bearer token looked up, the JSON parsed and answered."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from bare_asgi import BareApp, token
from serverkit import run_apart


async def _post(app: BareApp, auth: str, body: bytes) -> httpx.Response:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://bench") as client:
        return await client.post("/tables/bench-0/bets", content=body,
                                 headers={"Authorization": auth})


def test_the_bare_app_checks_the_token_and_reads_the_body() -> None:
    app = BareApp(3)
    ok = run_apart(_post(app, f"Bearer {token(2)}", b'{"wager": "field", "amount": "1"}'))
    assert ok.status_code == 200
    assert ok.json() == {"player": "p2", "wager": "field", "amount": "1", "events": []}
    assert run_apart(_post(app, f"Bearer {token(3)}", b"{}")).status_code == 401
    assert run_apart(_post(app, f"Bearer {token(0)}", b"[1]")).status_code == 422
