"""SIGKILL mid-load, restart: every acknowledged action is there, no roll is half settled, and
the chips balance to the cent."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import BACKENDS, Server, make_server

PLAYERS = ("alice", "bob")
WAGERS = ({"wager": "field", "amount": "1"}, {"wager": "any_craps", "amount": "1"},
          {"wager": "place_win", "number": 6, "amount": "6"}, {"wager": "hard", "number": 8,
                                                                "amount": "1"})


async def _load(s: Server, stop: threading.Event, acked: dict[str, list[Any]]) -> None:
    heads = {who: s.headers(who) for who in (*PLAYERS, "dealer")}
    async with httpx.AsyncClient(base_url=s.base, timeout=5) as client:

        async def bettor(who: str, n: int) -> None:
            i = n
            while not stop.is_set():
                body = WAGERS[i % len(WAGERS)]
                i += 1
                try:
                    r = await client.post("/tables/craps-1/bets", json=body, headers={
                        **heads[who], "Idempotency-Key": uuid.uuid4().hex})
                except httpx.HTTPError:
                    return
                if r.status_code == 200:
                    acked["bets"].extend(r.json()["events"])

        async def dealer() -> None:
            while not stop.is_set():
                await asyncio.sleep(0.01)
                try:
                    r = await client.post("/tables/craps-1/roll", json={}, headers={
                        **heads["dealer"], "Idempotency-Key": uuid.uuid4().hex})
                except httpx.HTTPError:
                    return
                if r.status_code == 200:
                    acked["rolls"].append(r.json())

        await asyncio.gather(dealer(), *(bettor(p, k) for p in PLAYERS for k in range(4)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_sigkill_mid_load(backend: str, tmp_path: Path) -> None:
    s = make_server(backend, tmp_path)
    s.start()
    try:
        for who in PLAYERS:
            s.ok(who, "/tables/craps-1/buy-in", {"amount": "900"})
        s.ready_dice()
        acked: dict[str, list[Any]] = {"bets": [], "rolls": []}
        stop = threading.Event()
        loader = threading.Thread(target=lambda: asyncio.run(_load(s, stop, acked)))
        loader.start()
        time.sleep(2.0)
        s.kill()  # SIGKILL while requests are in flight
        stop.set()
        loader.join(30)
        assert acked["rolls"] and len(acked["bets"]) > 20
        s.start()
        report = s.get("auditor", "/audit/verify").json()
        assert report["ok"], report["problems"]
        assert report["deposits"] == "2000.00"
        # Every acknowledged event is in the ledger exactly as it was acknowledged.
        stored: dict[int, dict[str, Any]] = {}
        since = 0
        while True:
            page = s.get("auditor", f"/tables/craps-1/events?since={since}&limit=1000").json()
            if not page:
                break
            for e in page:
                stored[e["seq"]] = {k: v for k, v in e.items() if k not in ("actor", "at")}
            since = page[-1]["seq"]
        for event in acked["bets"] + [e for r in acked["rolls"] for e in r["events"]]:
            assert stored[event["seq"]] == event
        # No half-settled roll: every roll in the log is a recorded round with all of its
        # settlements, and the balances after it are those the events give.
        rolls = [e for e in stored.values() if e["type"] == "roll"]
        for roll in rolls:
            rec = s.get("auditor", f"/tables/craps-1/rounds/{roll['round']}").json()
            assert rec["decided"] and rec["outcome"]["dice"] == roll["dice"]
            assert rec["events"][-1]["seq"] <= max(stored)
        assert len(rolls) >= len(acked["rolls"])
        # The table plays on after the restart.
        s.ok("dealer", "/tables/craps-1/roll", {})
        assert s.get("auditor", "/audit/verify").json()["ok"]
    finally:
        s.stop()
