"""200 concurrent clients, duplicate requests with one idempotency key, double-spend attempts on
one wallet: nothing lost, nothing doubled."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from pathlib import Path

import httpx
import pytest

from .conftest import BACKENDS, make_server

N_PLAYERS = 20
CLIENTS_PER_PLAYER = 10


@pytest.mark.parametrize("backend", BACKENDS)
def test_concurrent_clients(backend: str, tmp_path: Path) -> None:
    s = make_server(backend, tmp_path)
    s.start()
    try:
        s.ok("admin", "/tables", {"id": "big", "game": "craps", "profile": "nj-13-69f",
                                  "capacity": 30}, key=None)
        names = [f"p{i:02d}" for i in range(N_PLAYERS)]
        for name in names:
            s.ok("admin", "/users", {"username": name, "password": "demo-pass-123",
                                     "role": "player"}, key=None)
            s.ok("admin", f"/wallets/{name}/deposits", {"amount": "100"})
        heads = {name: s.headers(name) for name in names}

        async def run() -> None:
            limits = httpx.Limits(max_connections=400, max_keepalive_connections=400)
            async with httpx.AsyncClient(base_url=s.base, timeout=60, limits=limits) as c:
                async def post(name: str, path: str, body: object, key: str) -> httpx.Response:
                    return await c.post(path, json=body,
                                        headers={**heads[name], "Idempotency-Key": key})

                # Buy-ins, each sent twice at once with the same key: one buy-in each.
                keys = {n: uuid.uuid4().hex for n in names}
                rs = await asyncio.gather(*(post(n, "/tables/big/buy-in", {"amount": "50"},
                                                 keys[n]) for n in names for _ in range(2)))
                assert all(r.status_code == 200 for r in rs)
                # 200 clients bet at once; each request is also retried at once.
                jobs = []
                for n in names:
                    for _ in range(CLIENTS_PER_PLAYER):
                        key = uuid.uuid4().hex
                        body = {"wager": "field", "amount": "1"}
                        jobs += [post(n, "/tables/big/bets", body, key)] * 2
                rs = await asyncio.gather(*jobs)
                assert Counter(r.status_code for r in rs) == {200: len(jobs)}
                pairs = list(zip(rs[::2], rs[1::2], strict=True))
                assert all(a.json() == b.json() for a, b in pairs)
                # Double spend: 30 buy-ins of 5 from a wallet of 50, on two tables at once.
                attacker = names[0]
                rs = await asyncio.gather(*(
                    post(attacker, f"/tables/{t}/buy-in", {"amount": "5"}, uuid.uuid4().hex)
                    for t in ("big", "roulette-1") * 15))
                counts = Counter(r.status_code for r in rs)
                assert counts == {200: 10, 409: 20}, counts

        # A fresh thread: another test's session fixture (Playwright's sync API) may hold a
        # running event loop in this one.
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, run()).result()
        state = s.get("auditor", "/tables/big").json()
        for n in names:
            assert state["players"][n]["on_table"] == "10.00"
            assert Decimal(state["players"][n]["chips"]) >= 40
        roulette = s.get("auditor", "/tables/roulette-1").json()["players"]
        moved = Decimal(state["players"][names[0]]["chips"]) - 40 + Decimal(
            roulette.get(names[0], {"chips": "0"})["chips"])
        assert moved == 50
        wallets = {n: s.get("admin", f"/wallets/{n}").json()["balance"] for n in names}
        assert wallets[names[0]] == "0.00"
        assert all(wallets[n] == "50.00" for n in names[1:])
        bets = [e for e in s.get("auditor", "/tables/big/events?limit=1000").json()
                if e["type"] == "bet"]
        assert len(bets) == N_PLAYERS * CLIENTS_PER_PLAYER
        report = s.get("auditor", "/audit/verify").json()
        assert report["ok"], report["problems"]
        assert report["deposits"] == f"{N_PLAYERS * 100 + 2000}.00"
    finally:
        s.stop()
