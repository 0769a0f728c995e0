"""Five adjacent numbers and seven numbers only on an approved layout (13:47-20.32(e)1ii,
(e)15i), through the replay in process: the table option ``approved_layout`` lists the
wagers its approved layout provides for; a transcript that does not state it keeps the replay
contract's default (both offered, the opening as before)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from croupier.analysis.exact import analyse
from croupier.errors import Malformed
from croupier.games import game
from croupier.rules import load_profile
from croupier.rules.posted import posted_rules
from croupier.transcript import replay_text

FIVE = {"player": "p", "bet": "five_adjacent", "center": 17, "amount": 5}
SEVEN = {"player": "p", "bet": "seven_numbers", "amount": 5}


def play(actions: list[dict[str, Any]], options: dict[str, Any] | None = None,
         ) -> dict[str, Any]:
    doc = {"game": "roulette", "rules": "nj-casino-night", "options": options or {},
           "players": {"p": "100"}, "actions": actions}
    return replay_text(json.dumps(doc))


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1ii", "N.J.A.C. 13:47-20.32(e)15i")
def test_without_an_approved_layout_both_wagers_are_refused_citing_the_clause() -> None:
    result = play([FIVE, SEVEN], {"approved_layout": []})
    assert [(r["index"], r["clause"]) for r in result["rejected"]] == [
        (0, "N.J.A.C. 13:47-20.32(e)1ii"), (1, "N.J.A.C. 13:47-20.32(e)15i")]
    assert "approved" in result["rejected"][0]["reason"]
    assert result["players"]["p"] == {"bankroll": "100.00", "on_table": "0.00"}


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1ii", "N.J.A.C. 13:47-20.32(e)1iii")
def test_a_layout_with_the_wheel_replica_takes_five_adjacent_only() -> None:
    """(e)1iii: five chips on the center number of the replica; 17's neighbours on the
    double-zero wheel. (e)15i: this layout is not approved for seven numbers."""
    result = play([FIVE, SEVEN], {"approved_layout": ["five_adjacent"]})
    assert [r["index"] for r in result["rejected"]] == [1]
    assert result["players"]["p"]["on_table"] == "5.00"


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1i", "N.J.A.C. 13:47-20.32(e)15")
def test_the_contracts_default_takes_both_and_opens_as_before() -> None:
    result = play([FIVE, SEVEN])
    assert result["rejected"] == []
    opening = result["events"][0]
    assert "approved_layout" not in json.dumps(opening)
    stated = play([], {"approved_layout": ["seven_numbers", "five_adjacent"]})
    assert stated["events"][0]["approved_layout"] == ["five_adjacent", "seven_numbers"]


@pytest.mark.parametrize(("value", "where"), [
    (["straight"], "options.approved_layout[0]"), ("five_adjacent", "options.approved_layout"),
    ([5], "options.approved_layout"),
])
def test_approved_layout_names_only_the_wagers_that_need_one(value: Any, where: str) -> None:
    with pytest.raises(Malformed) as caught:
        game("roulette").open(load_profile("nj-casino-night"), {"approved_layout": value},
                              {"p": Decimal(1)})
    assert caught.value.where == where


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1ii", "N.J.A.C. 13:47-20.32(e)15i")
def test_the_posted_rules_and_the_edge_table_leave_out_what_the_layout_lacks() -> None:
    doc = posted_rules("roulette", "nj-casino-night", {"approved_layout": ["seven_numbers"]})
    assert {w.id for w in doc.wagers} >= {"seven_numbers", "straight"}
    assert "five_adjacent" not in {w.id for w in doc.wagers}
    rows = {r.wager for r in analyse("roulette", "nj-casino-night", {"approved_layout": []})}
    assert "straight" in rows and not rows & {"five_adjacent", "seven_numbers"}


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1ii")
def test_a_rebuilt_table_keeps_its_approved_layout() -> None:
    opened = game("roulette").open(load_profile("nj-casino-night"), {"approved_layout": []},
                                   {"p": Decimal(100)})
    rebuilt = type(opened).from_events(list(opened.log))
    assert rebuilt.opened.approved_layout == ()
    assert "five_adjacent" not in rebuilt.offer()["wagers"]


def test_the_ledger_codec_keeps_the_approved_layout_and_reads_older_openings() -> None:
    from croupier.service.codec import decode, encode

    opened = game("roulette").open(load_profile("nj-casino-night"),
                                   {"approved_layout": ["five_adjacent"]}, {"p": Decimal(1)})
    event = opened.opened
    assert decode("roulette", encode(event)) == event
    older = json.loads(encode(event))
    del older["f"]["approved_layout"]  # an opening stored before the option existed
    assert decode("roulette", json.dumps(older)).approved_layout is None
