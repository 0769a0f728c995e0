"""Found by an attack on the live server (attack45)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from .appkit import App, demo_app


@pytest.fixture
def rng_app(tmp_path: Path) -> Iterator[App]:
    """The app over a demo ledger with an RNG craps table (rng-1) whose dice are in play."""
    with demo_app(tmp_path / "rng") as app:
        app.ok("admin", "/tables", {"id": "rng-1", "game": "craps", "profile": "nj-13-69f"},
               key=None)
        app.dice_in_play("rng-1")
        yield app


def test_a_draw_recorded_though_its_commit_was_not_answered_is_not_drawn_again(
        rng_app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database committed the roll's draw but its answer was lost (a connection that
    ends as COMMIT is answered): the table rebuilt from the ledger holds that draw, and the
    draw kept in memory as not recorded is that same one. The next roll draws afresh: the
    one after a recorded roll is never the one everyone just saw."""
    from croupier.service.ledger import Ledger
    from croupier.service.rng import Draw, Rng

    app = rng_app
    real_draw, real_committed = Rng.draw, Ledger.committed
    draws: list[Draw] = []

    def counted(self: Rng, ranges: Any) -> Draw:
        draws.append(real_draw(self, ranges))
        return draws[-1]

    def lost(self: Ledger, count: int) -> None:
        real_committed(self, count)
        raise sa.exc.OperationalError("COMMIT", {}, sqlite3.OperationalError(
            "the connection ended as the commit was answered"))

    monkeypatch.setattr(Rng, "draw", counted)
    app.ok("alice", "/tables/rng-1/bets", {"wager": "pass", "amount": "5"})
    with monkeypatch.context() as patched:
        patched.setattr(Ledger, "committed", lost)
        # Answered as the outcome it recorded, waiting: the key kept it with the draw.
        assert app.post("dealer", "/tables/rng-1/roll", {}, key="lost").status_code == 202
    first = [e for e in app.events("rng-1") if e["type"] == "draw"]
    assert [d["raw"] for d in first] == [list(draws[0].raw)]  # it was recorded
    app.ok("dealer", "/tables/rng-1/roll", {}, key="lost")  # its retry settles it
    rolled = app.ok("dealer", "/tables/rng-1/roll", {}, key="next")
    assert len(draws) == 2, "the recorded draw was recorded again"
    again = [e for e in rolled["events"] if e["type"] == "draw"]
    assert again[0]["raw"] == list(draws[1].raw)
    assert app.audit()["ok"]
