"""A void decides from the table's hash-chained events, not from the ``rounds`` projection.

Which events a supervisor's void takes back, whether the outcome was the RNG's (two
supervisors) or entered (one), and the round are read from the event rows of the last decided
round, checked to link in the table's chain (``service/voids.py``). Each test here rewrites the
round's ``rounds`` row (or an event row) through SQL, as someone with write access to the
database could, and shows that the void still decides from the chain or is refused. In
process, one demo app for the module, a table of its own for each test."""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.service import store
from croupier.service.plans import OUTCOME_CLAUSE

from .appkit import App, demo_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    with demo_app(tmp_path_factory.mktemp("void-chain") / "data") as made:
        yield made


def _engine(app: App) -> sa.Engine:
    engine: sa.Engine = app.client.app.state.services.engine  # type: ignore[attr-defined]
    return engine


def _wheel(app: App, table: str) -> str:
    """A physical wheel with alice's 5 on red; "no more bets" called. Its base path."""
    app.ok("admin", "/tables", {"id": table, "game": "roulette", "profile": "nj-casino-night",
                                "entry": "physical"}, key=None)
    base = f"/tables/{table}"
    app.ok("alice", base + "/buy-in", {"amount": "20"})
    app.ok("alice", base + "/bets", {"wager": "red", "amount": "5"})
    app.ok("dealer", base + "/no-more-bets")
    return base


def _round_row(app: App, table: str) -> Any:
    with _engine(app).connect() as conn:
        return conn.execute(sa.select(store.rounds).where(store.rounds.c.table_id == table)
                            .order_by(store.rounds.c.round.desc()).limit(1)).one()


def _rewrite_round(app: App, table: str, round_no: int, **values: Any) -> None:
    with _engine(app).begin() as conn:
        done = conn.execute(store.rounds.update().where(
            store.rounds.c.table_id == table, store.rounds.c.round == round_no).values(**values))
        assert done.rowcount == 1


@pytest.mark.clause("replay contract: Outcomes")
def test_an_rng_outcome_shown_as_entered_still_needs_a_second_supervisor(app: App) -> None:
    """The RNG stands in at a physical wheel; its round's row is rewritten to say the dealer
    entered the pocket. One supervisor's void is still only asked (202): the chain's ``draw``
    event decides, and the stakes stay where the spin left them until a second supervisor
    approves."""
    base = _wheel(app, "vc-source")
    spun = app.ok("dealer", base + "/spin", {})  # no number given: the RNG draws
    drawn = [e for e in spun["events"] if e["type"] == "draw"]
    assert len(drawn) == 1
    row = _round_row(app, "vc-source")
    assert json.loads(row.draw)["source"] != "entered"
    _rewrite_round(app, "vc-source", row.round, draw=json.dumps(
        {"source": "entered", "by": "dealer", "outcome": drawn[0]["outcome"]}))
    chips = app.get("alice", base).json()["players"]["alice"]
    asked = app.post("supervisor", base + "/void", {"reason": "the wheel was bumped"})
    assert asked.status_code == 202, asked.text
    assert asked.json()["void_asked"] == row.round
    assert not [e for e in app.events("vc-source") if e["type"] == "void"]
    assert app.get("alice", base).json()["players"]["alice"] == chips
    approved = app.ok("floor", base + "/void/approve")
    assert approved["voided_round"] == row.round
    voids = [e for e in app.events("vc-source") if e["type"] == "void"]
    assert [(v["by"], v["approved_by"]) for v in voids] == [("supervisor", "floor")]


@pytest.mark.clause("replay contract: Outcomes")
def test_an_approved_void_takes_back_the_settlement_the_chain_gives_the_round(app: App) -> None:
    """A first spin is entered and settled; alice bets again and the RNG spins. Once the void
    is asked, the round's row is rewritten to begin at the table's first event. The approved
    void takes back the RNG round's settlement alone, not the first round's, and returns
    alice's second stake."""
    base = _wheel(app, "vc-approve")
    app.ok("dealer", base + "/spin", {"number": 5})  # red: alice's 5 wins 5
    app.ok("alice", base + "/bets", {"wager": "red", "amount": "5"})
    before = app.get("alice", base).json()["players"]["alice"]
    assert before["on_table"] == "5.00"
    app.ok("dealer", base + "/no-more-bets")
    app.ok("dealer", base + "/spin", {})
    row = _round_row(app, "vc-approve")
    assert app.post("supervisor", base + "/void", {"reason": "the ball left the wheel"}
                    ).status_code == 202
    outcome = {**json.loads(row.outcome), "from_seq": 1}
    _rewrite_round(app, "vc-approve", row.round, outcome=json.dumps(outcome), first_seq=1)
    app.ok("floor", base + "/void/approve")
    stored = app.events("vc-approve")
    draw = next(e for e in stored if e["type"] == "draw")
    void = next(e for e in stored if e["type"] == "void")
    settled = [e["seq"] for e in stored if e["type"] == "settle" and e["seq"] < void["seq"]]
    assert len(settled) == 2 and settled[0] < draw["seq"] < settled[1]
    assert void["seqs"] == [settled[1]]
    returned = [e for e in stored if e["type"] == "settle" and e["seq"] > void["seq"]]
    assert [(e["wager"], e["result"], e["returned"]) for e in returned] == [
        ("red", "returned", "5.00")]
    after = app.get("alice", base).json()["players"]["alice"]
    assert after == {"chips": str(Decimal(before["chips"]) + 5), "on_table": "0.00"}


@pytest.mark.clause("replay contract: Outcomes")
def test_an_entered_result_s_void_takes_back_what_the_chain_says_it_settled(app: App) -> None:
    """The round's row is rewritten so that its outcome starts at the table's first event
    (the buy-in and the bet before the spin). The void of the entered pocket takes back the
    entry and its settlement only, as the chain has them, and alice's chips and bet stand."""
    base = _wheel(app, "vc-from")
    app.ok("dealer", base + "/spin", {"number": 5})
    row = _round_row(app, "vc-from")
    entered = [e for e in app.events("vc-from") if e["type"] == "entered"]
    assert [e["seq"] for e in entered] == [json.loads(row.outcome)["from_seq"]]
    outcome = {**json.loads(row.outcome), "from_seq": 1}
    _rewrite_round(app, "vc-from", row.round, outcome=json.dumps(outcome), first_seq=1)
    voided = app.ok("supervisor", base + "/void", {"reason": "the dealer read the wrong pocket"})
    assert voided["voided_round"] == row.round
    void = [e for e in app.events("vc-from") if e["type"] == "void"]
    assert [v["seqs"] for v in void] == [list(range(entered[0]["seq"], row.last_seq + 1))]
    table = app.get("alice", base).json()
    assert table["players"]["alice"] == {"chips": "15.00", "on_table": "5.00"}
    assert [(w["player"], w["wager"], w["stake"]) for w in table["layout"]] == [
        ("alice", "red", "5.00")]
    # The round's mark of its void wiped from the row: the chain's ``void`` event still says so.
    _rewrite_round(app, "vc-from", row.round, voided=None)
    again = app.refused("supervisor", base + "/void", {"reason": "and once more"})
    assert again["reason"] == f"round {row.round} is already void"
    assert again["clause"] == OUTCOME_CLAUSE


@pytest.mark.clause("replay contract: Outcomes")
def test_a_round_row_stretched_over_later_play_does_not_let_a_void_take_it(app: App) -> None:
    """Play goes on after the decision (alice bets again); the round's row is rewritten to
    end at the table's last event. The void is refused: the chain's round ends before that bet,
    so the decision is no longer the last thing done at the table."""
    base = _wheel(app, "vc-last")
    app.ok("dealer", base + "/spin", {"number": 5})
    app.ok("alice", base + "/bets", {"wager": "black", "amount": "5"})
    last = app.events("vc-last")[-1]
    row = _round_row(app, "vc-last")
    assert last["type"] == "bet" and row.last_seq < last["seq"]
    _rewrite_round(app, "vc-last", row.round, last_seq=last["seq"])
    before = len(app.events("vc-last"))
    refused = app.refused("supervisor", base + "/void", {"reason": "the dealer misread it"})
    assert "play has gone on" in refused["reason"], refused
    assert refused["clause"] == OUTCOME_CLAUSE
    assert len(app.events("vc-last")) == before


@pytest.mark.clause("replay contract: Outcomes")
def test_a_round_whose_events_no_longer_link_is_not_voided(app: App) -> None:
    """The RNG's ``draw`` event of the round is rewritten in place to read as the dealer's
    entry (its hash left as it was). The void is refused, naming the event whose hash no
    longer matches: nothing is decided from events the chain does not vouch for."""
    base = _wheel(app, "vc-link")
    app.ok("dealer", base + "/spin", {})
    draw = next(e for e in app.events("vc-link") if e["type"] == "draw")
    payload = json.dumps({"type": "entered", "f": {"by": "dealer",
                                                   "outcome": {"$t": draw["outcome"]}}},
                         separators=(",", ":"))
    with _engine(app).begin() as conn:
        conn.execute(store.events.update().where(
            store.events.c.table_id == "vc-link", store.events.c.seq == draw["seq"]).values(
            kind="entered", payload=payload))
    before = len(app.events("vc-link"))
    refused = app.refused("supervisor", base + "/void", {"reason": "the wheel was bumped"})
    assert f"event {draw['seq']}" in refused["reason"], refused
    assert "hash" in refused["reason"]
    assert refused["clause"] == OUTCOME_CLAUSE
    assert len(app.events("vc-link")) == before
