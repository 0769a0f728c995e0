"""What the server asks of the game registry and the profile: an automated craps table (RNG
dice only, no shooter, no dice equipment) and late bets and coupons where a profile has them."""

from __future__ import annotations

from typing import Any

import pytest

from .appkit import App


def _closing(reply: dict[str, Any]) -> dict[str, Any]:
    """The event of "no more bets" in a reply (a dealer's first act at a table records them
    on duty first)."""
    found: dict[str, Any] = next(e for e in reply["events"] if e["type"] == "no_more_bets")
    return found

@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)")
def test_automated_craps_table_rolls_by_rng_only(sqlite_app: App) -> None:
    s = sqlite_app
    r = s.post("admin", "/tables", {"id": "auto-1", "game": "automated-craps",
                                    "profile": "nj-13-69f"}, key=None)
    assert r.status_code == 201, r.text
    assert r.json()["shooter"] is None and "dice_in_play" not in r.json()
    bad = s.post("admin", "/tables", {"id": "auto-2", "game": "automated-craps",
                                      "profile": "nj-casino-night"}, key=None)
    assert bad.status_code == 422
    s.ok("alice", "/tables/auto-1/buy-in", {"amount": "50"})
    s.ok("alice", "/tables/auto-1/bets", {"wager": "field", "amount": "5"})
    r = s.post("alice", "/tables/auto-1/bets", {"wager": "fire", "amount": "1"})
    assert r.status_code == 409 and r.json()["error"]["clause"] == "N.J.A.C. 13:69F-1.2(a)"
    r = s.post("dealer", "/tables/auto-1/roll", {"dice": [1, 1]})
    assert r.status_code == 409  # no result is entered at a table whose dice a device throws
    assert s.post("dealer", "/tables/auto-1/dice/offer",
                  {"serials": [f"NJ-{i:04d}" for i in range(1, 6)]}).status_code == 422
    rolled = s.ok("dealer", "/tables/auto-1/roll", {})
    kinds = [e["type"] for e in rolled["events"]]
    assert kinds[kinds.index("draw"):][:2] == ["draw", "roll"]  # after the dealer on duty
    assert s.get("auditor", "/tables/auto-1").json()["shooter"] is None
    assert s.get("auditor", "/audit/verify").json()["ok"]


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1")
def test_late_bets_only_where_the_profile_permits_them(sqlite_app: App) -> None:
    s = sqlite_app
    assert s.post("admin", "/tables", {"id": "night-1", "game": "craps",
                                       "profile": "nj-casino-night"}, key=None).status_code == 201
    s.ok("alice", "/tables/night-1/buy-in", {"amount": "50"})
    closed = s.ok("dealer", "/tables/night-1/no-more-bets")
    assert _closing(closed)["clause"] == "N.J.A.C. 13:47-20.25(h)1"
    r = s.post("alice", "/tables/night-1/bets", {"wager": "field", "amount": "5"})
    assert r.status_code == 409, r.text
    assert r.json()["error"]["clause"] == "N.J.A.C. 13:47-20.25(h)1"
    assert s.get("auditor", "/tables/night-1").json()["players"]["alice"]["chips"] == "50.00"
