"""What an independent attack on the live server found, each refused now (in process, one
demo app for the module, each test at tables of its own or on state no other test reads):

* a dealer acknowledged the fairness alert raised by the results they entered themselves;
* one supervisor voided an entered result and an account of their own line entered the one
  that replaced it;
* an RNG roulette table took ``revolutions: 0`` as a spin;
* refusals answered ``clause: ''`` (chips bought past the wallet, an entry at an RNG table),
  and an adjustment cited the clause of what a wager is made with (13:69F-1.3(b)).

The two-person rules count people, not accounts (``service/people.py``): an account the
organiser made through the API is the organiser's until proven otherwise."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from croupier.service import alert_acks
from croupier.service.plans import OUTCOME_CLAUSE

from .appkit import App, demo_app
from .conftest import PASSWORD

NO_CREDIT = "replay contract: No credit"
ADJUSTMENTS = "replay contract: Adjustments"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("attack") / "data") as made:
        made.ok("admin", "/users", {"username": "sam", "password": PASSWORD,
                                    "role": "supervisor"}, key=None)
        made.ok("admin", "/users", {"username": "dan", "password": PASSWORD,
                                    "role": "dealer"}, key=None)
        yield made


def _table(app: App, table_id: str, game: str, profile: str, entry: str) -> None:
    app.ok("admin", "/tables", {"id": table_id, "game": game, "profile": profile,
                                "entry": entry}, key=None)


def _wallet(app: App, player: str) -> str:
    balance: str = app.get("admin", f"/wallets/{player}").json()["balance"]
    return balance


# --- 1. a fairness alert is acknowledged by someone other than the one it is about ---------

def _sixes_until_alert(app: App, who: str) -> int:
    """``who`` enters six-six at craps-1 until the dice monitor alarms; the alert's seq."""
    app.ok("alice", "/tables/craps-1/buy-in", {"amount": "50"})  # a shooter
    app.ready_dice()
    for _ in range(15):
        app.ok(who, "/tables/craps-1/roll", {"dice": [6, 6]})
        found = app.get("supervisor", "/tables/craps-1/alert-records").json()["alerts"]
        if found:
            return int(found[0]["seq"])
    raise AssertionError("no alert after 15 double sixes")


def test_an_alert_about_a_dealers_entries_is_not_theirs_to_acknowledge(app: App) -> None:
    """dan, a dealer the organiser made through the API, enters the sixes: neither dan nor
    the organiser (dan is the organiser's hands) answers for them; a supervisor made at the
    command line, independent of both, does, once."""
    seq = _sixes_until_alert(app, "dan")
    path = f"/tables/craps-1/alert-records/{seq}/acknowledge"
    body = {"reason": "dice set aside for inspection"}
    before = len(app.events("craps-1"))
    own = app.refused("dan", path, body)
    assert own["clause"] == alert_acks.CLAUSE
    assert f"alert #{seq} is about acts of dan" in own["reason"]
    maker = app.refused("admin", path, body)
    assert "about acts of dan" in maker["reason"] and "one person, not two" in maker["reason"]
    assert len(app.events("craps-1")) == before  # nothing recorded
    app.ok("supervisor", path, body)
    acks = [e for e in app.events("craps-1")
            if e.get("type") == "procedure" and e.get("name") == "alert_acknowledged"]
    assert [a["by"] for a in acks] == ["supervisor"]


def test_a_void_rate_alert_is_not_acknowledged_by_the_supervisor_it_names(app: App) -> None:
    """The supervisor who voided twice at a wheel is the one a void-rate alert names: they do
    not answer for it; the second supervisor does."""
    _table(app, "wheel-voids", "roulette", "nj-casino-night", "physical")
    base = "/tables/wheel-voids"
    alerts: list[dict[str, Any]] = []
    app.ok("dealer", base + "/no-more-bets")
    for number in (5, 7):  # betting stays closed: the void takes back the entry alone
        app.ok("dealer", base + "/spin", {"number": number})
        voided = app.ok("supervisor", base + "/void", {"reason": "entered the wrong pocket"})
        alerts = [e for e in voided["events"] if e["type"] == "integrity_alert"]
    assert [a["set_id"] for a in alerts] == ["wheel-voids:supervisor"]
    path = f"{base}/alert-records/{alerts[0]['seq']}/acknowledge"
    refused = app.refused("supervisor", path, {"reason": "I looked into my own voids"})
    assert "about acts of supervisor" in refused["reason"]
    assert refused["clause"] == alert_acks.CLAUSE
    app.ok("floor", path, {"reason": "both were mis-entries, checked on the camera"})


# --- 2. a voided entry's replacement is recorded by a second, independent person -----------

@pytest.mark.clause("replay contract: Outcomes")
def test_the_result_replacing_a_voided_entry_needs_a_second_person(app: App) -> None:
    """sam voids an entered result; dan (made by the same organiser as sam: one person)
    cannot record what replaces it, entered or drawn; the demo's dealer, a person of their
    own, can; after that the table is as any other."""
    _table(app, "wheel-swap", "roulette", "nj-casino-night", "physical")
    base = "/tables/wheel-swap"
    app.ok("dealer", base + "/no-more-bets")
    app.ok("dealer", base + "/spin", {"number": 5})
    app.ok("sam", base + "/void", {"reason": "the dealer read the wrong pocket"})
    before = len(app.events("wheel-swap"))
    for body in ({"number": 32}, {}):
        refused = app.refused("dan", base + "/spin", body)
        assert refused["clause"] == OUTCOME_CLAUSE
        assert "voided by sam" in refused["reason"]
        assert "one person, not two" in refused["reason"]
    assert len(app.events("wheel-swap")) == before  # nothing drawn, nothing entered
    replaced = app.ok("dealer", base + "/spin", {"number": 32})
    assert [e["number"] for e in replaced["events"] if e["type"] == "crown"] == [32]
    app.ok("dan", base + "/no-more-bets")
    app.ok("dan", base + "/spin", {"number": 17})  # a round with no void: dan deals it
    # A void of the dealer's entry by a supervisor of another line: dan replaces it.
    app.ok("supervisor", base + "/void", {"reason": "17 was misread"})
    app.ok("dan", base + "/spin", {"number": 18})


# --- 3. the RNG standing in at a physical table: by design, documented ---------------------

def test_a_draw_at_a_physical_table_is_the_documented_stand_in(app: App) -> None:
    """A spin asked without a number at a physical wheel is the RNG's, recorded as a draw with
    its source and raw bytes; the API's own description of the roll and the spin says so."""
    _table(app, "wheel-standin", "roulette", "nj-casino-night", "physical")
    app.ok("dealer", "/tables/wheel-standin/no-more-bets")
    spun = app.ok("dealer", "/tables/wheel-standin/spin", {})
    draws = [e for e in spun["events"] if e["type"] == "draw"]
    assert len(draws) == 1 and draws[0]["source"] and draws[0]["raw"]
    paths = app.client.get("/openapi.json").json()["paths"]
    for path in ("/tables/{table_id}/roll", "/tables/{table_id}/spin"):
        described = " ".join(paths[path]["post"]["description"].split())
        assert "at a physical table the RNG stands in" in described, described


# --- 4. an RNG spin is a valid spin ---------------------------------------------------------

@pytest.mark.clause("N.J.A.C. 13:47-20.32(j)1")
@pytest.mark.clause("N.J.A.C. 13:47-20.32(m)3")
def test_an_rng_spin_takes_no_irregularity_of_a_ball(app: App) -> None:
    """At an RNG wheel, ``revolutions: 0`` (or fewer than the four 20.32(j)1 requires, or a
    ball spun the wheel's way) is refused citing (j)1, a foreign object citing (m)3: no ball
    is spun. Nothing is drawn and the player's chips stay as they were."""
    _table(app, "wheel-rng", "roulette", "nj-casino-night", "rng")
    base = "/tables/wheel-rng"
    app.ok("bob", base + "/buy-in", {"amount": "20"})
    app.ok("bob", base + "/bets", {"wager": "red", "amount": "5"})
    app.ok("dealer", base + "/no-more-bets")
    before = app.events("wheel-rng")
    chips = app.get("bob", base).json()["players"]["bob"]
    for body, clause in (({"revolutions": 0}, "N.J.A.C. 13:47-20.32(j)1"),
                         ({"revolutions": 3}, "N.J.A.C. 13:47-20.32(j)1"),
                         ({"same_direction": True}, "N.J.A.C. 13:47-20.32(j)1"),
                         ({"foreign_object": True}, "N.J.A.C. 13:47-20.32(m)3")):
        refused = app.refused("dealer", base + "/spin", body)
        assert refused["clause"] == clause, (body, refused)
        assert "the RNG's spin is a valid spin" in refused["reason"]
    assert app.events("wheel-rng") == before
    assert app.get("bob", base).json()["players"]["bob"] == chips
    spun = app.ok("dealer", base + "/spin", {"revolutions": 5})
    assert [e["type"] for e in spun["events"] if e["type"] == "draw"] == ["draw"]


# --- 5 and 6. every refusal cites a clause; an adjustment cites its own -------------------

@pytest.mark.clause("replay contract: No credit")
@pytest.mark.clause("replay contract: Outcomes")
def test_refusals_cite_the_tables_own_clause(app: App) -> None:
    """Refusals that answered ``clause: ''``: an entry at an RNG table or at automated craps
    (the reading of outcomes), chips bought past the wallet or cashed out past what the player
    holds (no credit), a change of dice with none in play, "no more bets" called twice (the
    table's own clauses). Nothing moves: the wallet is as it was."""
    _table(app, "craps-rng", "craps", "nj-13-69f", "rng")
    entered = app.refused("dealer", "/tables/craps-rng/roll", {"dice": [3, 4]})
    assert entered["clause"] == OUTCOME_CLAUSE and "RNG table" in entered["reason"]
    _table(app, "auto-physical", "automated-craps", "nj-13-69f", "physical")
    device = app.refused("dealer", "/tables/auto-physical/roll", {"dice": [3, 4]})
    assert device["clause"] == OUTCOME_CLAUSE and "a device throws" in device["reason"]
    wallet = _wallet(app, "bob")
    for table in ("craps-1", "roulette-1"):
        over = app.refused("bob", f"/tables/{table}/buy-in", {"amount": "5000"})
        assert over["clause"] == NO_CREDIT, over
        assert f"bob's wallet holds {wallet}" in over["reason"]
    assert _wallet(app, "bob") == wallet
    _table(app, "craps-cash", "craps", "nj-casino-night", "physical")
    app.ok("bob", "/tables/craps-cash/buy-in", {"amount": "10"})
    out = app.refused("bob", "/tables/craps-cash/cash-out", {"amount": "10.01"})
    assert out["clause"] == NO_CREDIT and "cannot cash out 10.01" in out["reason"]
    change = app.refused("bob", "/tables/craps-cash/dice/change")
    assert (change["reason"], change["clause"]) == ("no dice are in play",
                                                     "N.J.A.C. 13:47-20.25(g)8")
    app.ok("dealer", "/tables/roulette-1/no-more-bets")
    again = app.refused("dealer", "/tables/roulette-1/no-more-bets")
    assert again["clause"] == "N.J.A.C. 13:47-20.32(j)2"


@pytest.mark.clause("N.J.A.C. 13:69F-1.1")
@pytest.mark.clause("N.J.A.C. 13:47-20.25(d)")
@pytest.mark.clause("replay contract: Adjustments")
def test_an_adjustment_cites_who_answers_disputes_not_the_chips_clause(app: App) -> None:
    """An adjustment's refusal at craps-1 (nj-13-69f) cites the boxperson, 13:69F-1.1, not
    13:69F-1.3(b) on what wagers are made with; at casino-night craps 13:47-20.25(d); where
    the text names no one who answers disputes (19:47, casino-night roulette), the reading."""
    _table(app, "craps-1947", "craps", "nj-19-47", "physical")
    _table(app, "craps-night", "craps", "nj-casino-night", "physical")
    where = {"craps-1": "N.J.A.C. 13:69F-1.1", "craps-night": "N.J.A.C. 13:47-20.25(d)",
             "craps-1947": ADJUSTMENTS, "roulette-1": ADJUSTMENTS}
    for table, clause in where.items():
        absent = app.refused("supervisor", f"/tables/{table}/adjustments",
                             {"player": "alice" if table != "craps-1" else "bob",
                              "amount": "5.00", "reason": "a payout missed"})
        assert absent["clause"] == clause, (table, absent)
        assert "has no chips at table" in absent["reason"]
    app.ok("bob", "/tables/craps-night/buy-in", {"amount": "10"})
    take = app.refused("supervisor", "/tables/craps-night/adjustments",
                       {"player": "bob", "amount": "-20.00", "reason": "overpaid a field bet"})
    assert take["clause"] == "N.J.A.C. 13:47-20.25(d)" and "cannot take back" in take["reason"]
    limit = app.refused("supervisor", "/tables/craps-night/adjustments",
                        {"player": "bob", "amount": "10000.01", "reason": "a large error"})
    assert limit["clause"] == "N.J.A.C. 13:47-20.25(d)" and "at most" in limit["reason"]
    app.ok("bob", "/tables/craps-1947/buy-in", {"amount": "10"})
    pending = app.ok("supervisor", "/tables/craps-1947/adjustments",
                     {"player": "bob", "amount": "150.00", "reason": "a payout missed"})
    number = pending["pending_adjustment"]
    alone = app.refused("supervisor", f"/tables/craps-1947/adjustments/{number}/approve")
    assert alone["clause"] == ADJUSTMENTS and "needs a second person" in alone["reason"]
