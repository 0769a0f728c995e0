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
