"""``GET /tables/{id}/rules`` in process: the posted rules of a table as it was opened,
readable by every logged-in role, with the notices its clauses require."""

from __future__ import annotations

import pytest

from .appkit import App


@pytest.mark.clause("N.J.A.C. 13:47-20.32(i)1", "N.J.A.C. 13:47-20.32(g)")
def test_posted_rules_of_a_table(sqlite_app: App) -> None:
    s = sqlite_app
    s.ok("admin", "/tables", {"id": "wheel-2", "game": "roulette", "profile": "nj-casino-night",
                              "options": {"wheel": "double-zero-as-single", "min_bet": "2"}},
         key=None)
    for who in ("alice", "dealer", "supervisor", "auditor", "admin"):
        r = s.get(who, "/tables/wheel-2/rules")
        assert r.status_code == 200, (who, r.text)
    doc = s.get("alice", "/tables/wheel-2/rules").json()
    assert doc["table"] == "wheel-2" and doc["game"] == "roulette"
    notices = {n["clause"]: n["text"] for n in doc["notices"]}
    assert "used as a single-zero wheel" in notices["N.J.A.C. 13:47-20.32(i)1"]
    assert {"name": "minimum wager", "value": "2"} in doc["limits"]
    straight = next(w for w in doc["wagers"] if w["id"] == "straight")
    assert straight["pays"] == [{"on": "", "odds": "35 to 1"}]
    # The demo double-zero wheel notices the zero rule in effect (the entire wager).
    demo = s.get("dealer", "/tables/roulette-1/rules").json()
    assert "lose the entire wager" in {n["clause"]: n["text"] for n in demo["notices"]}[
        "N.J.A.C. 13:47-20.32(g)"]
    md = s.get("auditor", "/tables/wheel-2/rules?format=markdown")
    assert md.headers["content-type"].startswith("text/markdown")
    assert md.text.startswith("# Rules of the game: Table wheel-2")
    page = s.get("auditor", "/tables/wheel-2/rules?format=html")
    assert page.headers["content-type"].startswith("text/html")
    assert "(N.J.A.C. 13:47-20.32(i)1)" in page.text
    assert s.get("alice", "/tables/wheel-2/rules?format=pdf").status_code == 422
    assert s.get("alice", "/tables/nowhere/rules").status_code == 404
    assert s.client.get("/tables/wheel-2/rules").status_code == 401


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(a)")
def test_craps_table_states_odds_with_to(sqlite_app: App) -> None:
    doc = sqlite_app.get("alice", "/tables/craps-1/rules").json()
    odds = [p["odds"] for w in doc["wagers"] for p in w["pays"] if p["odds"][0].isdigit()]
    assert odds and all(" to " in o for o in odds)
    assert doc["notices"][0]["clause"] == "N.J.A.C. 13:69F-1.4(a)"
