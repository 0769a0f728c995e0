"""Every refusal cites a clause of its own profile's text that says it, or a reading of the
replay contract listed in ``rules/readings.toml``: a regulator reading a refusal must find its
reason in the regulation the table plays under, not in another's."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.analysis.evidence import citations_by_duty, profile_citations, readings
from croupier.analysis.regtext import clause_ids, default_regulations, load_clauses, profile_of
from croupier.rules import PROFILE_IDS
from croupier.rules.citations import CONTRACT
from croupier.transcript import replay_text

CLAUSES = {c.id for c in load_clauses(default_regulations())}


def _check_citation(profile: str, citation: str) -> None:
    if citation.startswith(CONTRACT):
        entry = readings().get(citation)
        assert entry is not None, f"{citation!r} is not listed in rules/readings.toml"
        assert entry["status"] == "interpretation" and entry.get("reading"), citation
        return
    ids = clause_ids(citation)
    assert ids, f"{profile}: {citation!r} names no clause"
    for clause in ids:
        assert clause in CLAUSES, f"{profile}: {citation} is not a clause of the texts"
        assert profile_of(clause) == profile, f"{profile} cites {citation}, another profile's"


def test_every_clause_a_profile_cites_is_in_its_own_text() -> None:
    cited = profile_citations()
    assert len(cited) > 100
    for profile, _key, citation in cited:
        _check_citation(profile, citation)


def test_every_citation_by_duty_is_in_its_own_text() -> None:
    duties = citations_by_duty()
    assert set(duties) == set(PROFILE_IDS)
    for profile, table in duties.items():
        for citation in table.values():
            _check_citation(profile, citation)


def _replay(rules: str, actions: list[dict[str, Any]], game: str = "craps",
            **options: Any) -> list[dict[str, Any]]:
    doc = {"game": game, "rules": rules, "players": {"a": "500", "b": "500"},
           "actions": actions, "options": options}
    return list(json.loads(json.dumps(replay_text(json.dumps(doc))))["rejected"])


def _p(wager: str, amount: str = "10", **q: Any) -> dict[str, Any]:
    return {"player": "a", "bet": wager, "amount": amount, **q}


# Refusal paths of craps, each under every profile (those a profile does not reach are
# refused for another reason, also checked).
CRAPS_PATHS: list[list[dict[str, Any]]] = [
    [_p("pass"), {"roll": [2, 2]}, {"player": "a", "remove": "pass"}],
    [_p("pass"), {"roll": [2, 2]}, {"player": "a", "reduce": "pass", "amount": "5"}],
    [_p("dont_pass"), {"player": "a", "reduce": "dont_pass", "amount": "5"}, _p("dont_pass")],
    [{"roll": [2, 2]}, {"shooter": "b"}],
    [{"player": "a", "sit": True}],
    [_p("hop", dice=[1, 3])],
    [_p("fire")],
    [_p("fire"), {"roll": [2, 2]}, {"player": "a", "remove": "fire"}],
    [_p("six_seven_eight")],
    [_p("pass"), {"roll": [2, 2]}, _p("pass_odds", "100")],
    [_p("pass"), {"roll": [2, 2]}, _p("pass_odds", "10"), {"player": "a", "remove": "pass"}],
    [_p("pass"), {"roll": [2, 2]}, _p("pass")],
    [_p("come")],
    [_p("come", number=4)],
    [_p("field", "10.50")],
    [_p("place_win", "5", number=6)],
    [_p("horn", "6")],
    [_p("pass"), {"player": "a", "on": "pass"}],
    [_p("pass", "600")],
]


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)", "N.J.A.C. 13:69F-1.3(d)", "N.J.A.C. 13:69F-1.3(f)",
                    "N.J.A.C. 13:47-20.25(g)6", "N.J.A.C. 13:69F-1.4(f)",
                    "replay contract: Removal", "replay contract: Don't bets",
                    "replay contract: Mini-craps", "replay contract: Shooters")
@pytest.mark.parametrize("rules", PROFILE_IDS)
@pytest.mark.parametrize("game", ["craps", "mini-craps"])
def test_every_refusal_cites_its_own_profile(rules: str, game: str) -> None:
    seen = 0
    for actions in CRAPS_PATHS:
        steps = ([{"player": "a", "sit": True}] if game == "mini-craps" else []) + actions
        options = {"odds": "2", "six_seven_eight": False} if rules == "nj-13-69f" else {}
        for refusal in _replay(rules, steps, game, **options):
            if refusal["clause"]:
                _check_citation(rules, refusal["clause"])
                seen += 1
    assert seen >= 10


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)", "N.J.A.C. 13:47-20.32(f)")
def test_roulette_refusals_cite_casino_night() -> None:
    actions = [{"player": "a", "bet": "split", "numbers": [1, 5], "amount": "10"},
               {"player": "a", "bet": "straight", "numbers": ["00"], "amount": "10"},
               {"player": "a", "bet": "red", "amount": "10.50"},
               {"player": "a", "remove": "red"}]
    rejected = _replay("nj-casino-night", actions, "roulette", wheel="single-zero")
    assert len(rejected) >= 3
    for refusal in rejected:
        if refusal["clause"]:
            _check_citation("nj-casino-night", refusal["clause"])


@pytest.mark.clause("N.J.A.C. 13:47-20.25(g)6", "replay contract: Shooters")
def test_passing_the_dice_mid_point_cites_the_profile_or_the_contract() -> None:
    actions = [{"roll": [2, 2]}, {"shooter": "b"}]
    want = {"nj-casino-night": "N.J.A.C. 13:47-20.25(g)6", "nj-19-47": "replay contract: Shooters",
            "nj-13-69f": "replay contract: Shooters"}
    for rules, clause in want.items():
        assert [r["clause"] for r in _replay(rules, actions)] == [clause]


@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)1", "N.J.A.C. 19:47-1.4(a)", "N.J.A.C. 13:69F-1.4(a)")
@pytest.mark.parametrize(("rules", "game", "key", "clause"), [
    ("nj-casino-night", "craps", "field:12", "13:47-20.25(i)1"),
    ("nj-casino-night", "roulette", "straight", "13:47-20.25(i)1"),
    ("nj-19-47", "craps", "field:12", "19:47-1.4(a)"),
    ("nj-13-69f", "craps", "field:12", "13:69F-1.4(a)"),
])
def test_odds_stated_with_for_cite_the_profiles_clause(rules: str, game: str, key: str,
                                                      clause: str) -> None:
    from croupier.errors import Malformed

    doc = {"game": game, "rules": rules, "players": {"a": "100"}, "actions": [],
           "options": {"pays": {key: "40 for 1"}}}
    with pytest.raises(Malformed) as err:
        replay_text(json.dumps(doc))
    assert f"(N.J.A.C. {clause})" in str(err.value)


@pytest.mark.clause("replay contract: Removal", "replay contract: Mini-craps")
@pytest.mark.parametrize("rules", ["nj-casino-night", "nj-19-47"])
def test_removal_and_seating_under_texts_that_are_silent_cite_the_contract(rules: str) -> None:
    removal = _replay(rules, [_p("pass"), {"roll": [2, 2]}, {"player": "a", "remove": "pass"}])
    assert [r["clause"] for r in removal] == ["replay contract: Removal"]
    seating = _replay(rules, [{"player": "a", "sit": True}])
    assert [r["clause"] for r in seating] == ["replay contract: Mini-craps"]


_WAGER_SPECS: list[dict[str, Any]] = [
    {"bet": "pass"}, {"bet": "dont_pass"}, {"bet": "come"}, {"bet": "dont_come"},
    {"bet": "pass_odds"}, {"bet": "dont_pass_odds"}, {"bet": "come_odds", "number": 6},
    {"bet": "place_win", "number": 6}, {"bet": "place_lose", "number": 5},
    {"bet": "buy", "number": 4}, {"bet": "lay", "number": 10}, {"bet": "hard", "number": 8},
    {"bet": "field"}, {"bet": "horn"}, {"bet": "whirl"}, {"bet": "c_and_e"},
    {"bet": "hop", "dice": [2, 5]}, {"bet": "fire"}, {"bet": "six_seven_eight"},
]


@st.composite
def _actions(draw: st.DrawFn) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(1, 25))):
        kind = draw(st.sampled_from(["bet", "bet", "roll", "roll", "remove", "reduce", "on",
                                     "off", "shooter", "sit", "stand"]))
        spec = dict(draw(st.sampled_from(_WAGER_SPECS)))
        wager = spec.pop("bet")
        if kind == "bet":
            amount = draw(st.sampled_from(["1", "3", "5", "7", "10", "25", "600"]))
            out.append({"player": "a", "bet": wager, "amount": amount, **spec})
        elif kind == "roll":
            out.append({"roll": [draw(st.integers(1, 6)), draw(st.integers(1, 6))]})
        elif kind in ("remove", "on", "off"):
            out.append({"player": "a", kind: wager, **spec})
        elif kind == "reduce":
            out.append({"player": "a", "reduce": wager, "amount": "1", **spec})
        elif kind == "shooter":
            out.append({"shooter": draw(st.sampled_from(["a", "b"]))})
        else:
            out.append({"player": "a", kind: True})
    return out


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)", "N.J.A.C. 19:47-1.2(b)", "N.J.A.C. 13:69F-1.2(b)")
@settings(max_examples=60, deadline=None)
@given(rules=st.sampled_from(PROFILE_IDS), game=st.sampled_from(["craps", "mini-craps"]),
       actions=_actions())
def test_random_refusals_cite_their_own_profile(rules: str, game: str,
                                                actions: list[dict[str, Any]]) -> None:
    options = {"odds": "2"} if rules == "nj-13-69f" else {}
    for refusal in _replay(rules, actions, game, **options):
        if refusal["clause"]:
            _check_citation(rules, refusal["clause"])
