"""The scheduled pay-table changes are read once for all the requests that find them stale."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from croupier.service import paytable_changes, paytables
from serverkit import run_coroutine


def test_requests_finding_the_changes_stale_together_share_one_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[int] = []
    lock = threading.Lock()

    def slow_read(engine: Any) -> dict[int, Any]:
        with lock:
            reads.append(1)
        time.sleep(0.2)  # a read still under way when the others arrive
        return {}

    monkeypatch.setattr(paytable_changes, "cached", slow_read)
    engine = object()

    async def many() -> None:
        await asyncio.gather(*(paytables._refreshed(engine) for _ in range(40)))  # type: ignore[arg-type]
        await paytables._refreshed(engine)  # type: ignore[arg-type]

    run_coroutine(many())
    # One read for the forty that came together, one more for the request after it ended.
    assert len(reads) == 2
