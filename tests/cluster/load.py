"""Load for the cluster tests: a client that talks to any node, as behind a load balancer, and
retries each request with its Idempotency-Key on the next node while the table changes hands;
and the check that the ledger holds exactly what was acknowledged."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from typing import Any

import httpx

from .conftest import Cluster, Node

BETS = ({"wager": "field", "amount": "1"}, {"wager": "any_craps", "amount": "1"},
        {"wager": "place_win", "number": 6, "amount": "6"}, {"wager": "hard", "number": 8,
                                                            "amount": "1"})


def check_ledger(c: Cluster, node: Node, table: str, acked: list[dict[str, Any]],
                 bet_keys: int) -> list[dict[str, Any]]:
    """The table's ledger holds exactly what was acknowledged; the whole ledger verifies."""
    ledger = c.ledger_events(node, table)
    assert [e["seq"] for e in ledger] == list(range(1, len(ledger) + 1))
    by_seq = {e["seq"]: e for e in ledger}
    for reply in acked:
        for event in reply["events"]:
            stored = by_seq.get(event["seq"])
            assert stored is not None, f"acknowledged event {event} is not in the ledger"
            assert {k: stored[k] for k in event} == event
    bets = [e for e in ledger if e["type"] == "bet" and e["actor"] in ("alice", "bob")]
    acked_bets = {e["seq"] for r in acked for e in r["events"] if e["type"] == "bet"}
    assert len(bets) == bet_keys == len(acked_bets), "a bet lost or applied twice"
    report = c.get(node, "auditor", "/audit/verify")
    assert report["ok"], report["problems"]
    return ledger


class Burst:
    """Players and a dealer on every node; each request retried with its key until answered."""

    def __init__(self, c: Cluster, table: str, bettors: int = 6, pause: float = 0.02) -> None:
        self.c = c
        self.table = table
        self.bettors = bettors
        self.pause = pause  # seconds each bettor waits between its bets
        self.answered = 0  # requests answered 200 or refused (409)
        self.stop = threading.Event()
        self.acked: list[dict[str, Any]] = []
        self.bet_keys = 0
        self.first_bet_after: float | None = None
        self.killed_at: float | None = None
        self.failed: list[str] = []  # answers other than 200 or a refusal (409), after retries

    async def _send(self, client: httpx.AsyncClient, first: int, who: str, path: str,
                    body: Any) -> tuple[int, dict[str, Any], bool]:
        key, nodes = uuid.uuid4().hex, self.c.nodes
        for attempt in range(400):
            node = nodes[(first + attempt) % len(nodes)]
            try:
                r = await client.post(node.base + path, json=body,
                                      headers=self.c.headers(who, key))
            except httpx.HTTPError:
                await asyncio.sleep(0.05)
                continue
            if r.status_code != 503:
                return r.status_code, r.json(), r.headers.get("Idempotent-Replay") == "true"
            await asyncio.sleep(0.1)
        raise AssertionError(f"{path} never answered")

    async def _bettor(self, client: httpx.AsyncClient, n: int) -> None:
        while not self.stop.is_set():
            status, body, replayed = await self._send(
                client, n, ("alice", "bob")[n % 2], f"/tables/{self.table}/bets", BETS[n % 4])
            if status not in (200, 409):
                self.failed.append(f"bet: {status} {body}")
            else:
                self.answered += 1
            if status == 200:
                self.acked.append(body)
                self.bet_keys += 1
                if self.killed_at is not None and self.first_bet_after is None and not replayed:
                    self.first_bet_after = time.monotonic() - self.killed_at
            await asyncio.sleep(self.pause)

    async def _dealer(self, client: httpx.AsyncClient) -> None:
        n = 0
        while not self.stop.is_set():
            await asyncio.sleep(0.15)
            status, body, _ = await self._send(client, n, "dealer", f"/tables/{self.table}/roll",
                                               {})
            n += 1
            if status not in (200, 409):
                self.failed.append(f"roll: {status} {body}")
            if status == 200:
                self.acked.append(body)

    async def run(self) -> None:
        async with httpx.AsyncClient(timeout=httpx.Timeout(10.0, connect=1.0)) as client:
            await asyncio.gather(self._dealer(client), *(self._bettor(client, n)
                                                        for n in range(self.bettors)))
