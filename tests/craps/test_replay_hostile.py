"""Hostile transcripts in-process (contract "Exit status and errors"): whatever the JSON, a
malformed transcript is :class:`Malformed` naming the place, never another exception. These
check the transcript's format only and exercise no clause of the regulations."""

from __future__ import annotations

import pytest

from croupier.errors import Malformed
from croupier.reading import load_json
from croupier.transcript import replay_text

HEAD = '{"game": "craps", "rules": "nj-13-69f", "players": {"a": 100}, '


@pytest.mark.parametrize("depth", [2_000, 100_000])
def test_deep_nesting_is_malformed_not_an_internal_error(depth: int) -> None:
    """Nesting past the parser's recursion limit is malformed input, not a RecursionError."""
    text = HEAD + '"actions": ' + "[" * depth + "]" * depth + "}"
    with pytest.raises(Malformed) as caught:
        replay_text(text)
    assert caught.value.where == "transcript"
    assert "nested too deeply" in caught.value.message


@pytest.mark.parametrize(("text", "place"), [
    ('{"game": "craps", "game": "roulette", "rules": "nj-casino-night", "players": {"a": 1},'
     ' "actions": []}', "game"),
    (HEAD + '"actions": [{"player": "a", "bet": "pass", "amount": 10, "amount": 1000}]}',
     "actions[0].amount"),
    (HEAD + '"options": {"unit": "1", "unit": "5"}, "actions": []}', "options.unit"),
    ('{"game": "craps", "rules": "nj-13-69f", "players": {"a": 100, "a": 5}, "actions": []}',
     "players.a"),
])
def test_a_key_given_twice_is_malformed_at_its_place(text: str, place: str) -> None:
    """A key given twice leaves the meaning open (which amount?): malformed, named."""
    with pytest.raises(Malformed) as caught:
        replay_text(text)
    assert caught.value.where == place


def test_the_same_key_in_different_objects_is_fine() -> None:
    doc = load_json('{"a": {"x": 1}, "b": [{"x": 2}, {"x": 3}]}')
    assert doc == {"a": {"x": 1}, "b": [{"x": 2}, {"x": 3}]}


def _refusals(rules: str, actions: list[dict[str, object]], game: str = "craps",
              options: dict[str, object] | None = None) -> list[dict[str, object]]:
    from croupier.transcript import replay

    doc = {"game": game, "rules": rules, "players": {"a": 50, "b": 50},
           "options": options or {}, "actions": actions}
    rejected: list[dict[str, object]] = replay(doc)["rejected"]
    return rejected


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(b)")
@pytest.mark.parametrize(("rules", "chips"), [
    ("nj-13-69f", "N.J.A.C. 13:69F-1.3(b)"),
    ("nj-casino-night", "replay contract: No credit"),
    ("nj-19-47", "replay contract: No credit"),
])
def test_every_craps_refusal_cites_a_clause(rules: str, chips: str) -> None:
    """A refusal says why citing the table's own profile (or the contract reading it applies):
    on credit, outside the limits, a wager not on the layout, more taken down than is up."""
    rejected = _refusals(rules, [
        {"player": "a", "bet": "field", "amount": 60},
        {"player": "a", "bet": "field", "amount": 3},
        {"player": "a", "bet": "field", "amount": 101},
        {"player": "a", "remove": "hard", "number": 6},
        {"player": "a", "bet": "field", "amount": 10},
        {"player": "a", "reduce": "field", "amount": 20},
        {"player": "a", "on": "place_win", "number": 6},
    ], options={"min_bet": 5, "max_bet": 100})
    assert [r["index"] for r in rejected] == [0, 1, 2, 3, 5, 6]
    assert rejected[0]["clause"] == chips
    assert {r["clause"] for r in rejected[1:3]} | {rejected[4]["clause"]} == {
        "replay contract: Limits"}
    assert all(r["clause"] for r in rejected)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(f)")
def test_seating_and_shooter_refusals_cite_a_clause() -> None:
    seating = _refusals("nj-13-69f", [{"player": "a", "stand": True},
                                      {"player": "a", "sit": True},
                                      {"player": "a", "sit": True}], game="mini-craps")
    assert [(r["index"], r["clause"]) for r in seating] == [
        (0, "N.J.A.C. 13:69F-1.3(f)"), (2, "N.J.A.C. 13:69F-1.3(f)")]
    shooter = _refusals("nj-13-69f", [{"shooter": "b"}], game="automated-craps")
    assert shooter[0]["clause"] == "replay contract: Shooters"
