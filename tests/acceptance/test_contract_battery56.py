"""An independent lab's battery against the replay contract (shared/spec/transcript.md) and
the regulations: malformed input of every kind, then exact payouts and limits worked out by
hand from the regulation text (each test's docstring names the clause and shows the sums).

Every case runs the real command line, as a lab would (``conftest.run_raw``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import (
    CASINO_NIGHT,
    NJ_13_69F,
    NJ_19_47,
    bet,
    check,
    malformed,
    off,
    on,
    play,
    reduce,
    rejected,
    remove,
    roll,
    rolls,
    run_raw,
    shooter,
    sit,
    stand,
    transcript,
)

HEAD = '{"game": "craps", "rules": "nj-13-69f", "players": {"a": 100}, '


def _doc(actions: str = "[]", players: str = '{"a": 100}', options: str = "{}") -> str:
    return ('{"game": "craps", "rules": "nj-13-69f", "options": ' + options
            + ', "players": ' + players + ', "actions": ' + actions + "}")


# ------------------------------------------------------------------ (1) malformed input

MALFORMED_TEXT: list[tuple[str, str, str]] = [
    # (id, transcript text, the place the one stderr line must start with)
    ("not-an-object-list", "[1, 2]", "transcript"),
    ("not-an-object-string", '"craps"', "transcript"),
    ("not-an-object-null", "null", "transcript"),
    ("empty-file", "", "transcript"),
    ("whitespace-only", "  \n\t ", "transcript"),
    ("truncated", HEAD + '"actions": [', "transcript"),
    ("duplicate-top-key",
     '{"game": "craps", "game": "roulette", "rules": "nj-13-69f", "players": {"a": 1},'
     ' "actions": []}', "game"),
    ("duplicate-player", _doc(players='{"a": 100, "a": 5}'), "players.a"),
    ("duplicate-amount",
     _doc('[{"player": "a", "bet": "pass", "amount": 5, "amount": 500}]'), "actions[0].amount"),
    ("NaN-literal", _doc(players='{"a": NaN}'), "transcript"),
    ("Infinity-literal", _doc(players='{"a": Infinity}'), "transcript"),
    ("NaN-string", _doc(players='{"a": "NaN"}'), "players.a"),
    ("inf-string", _doc(players='{"a": "-Infinity"}'), "players.a"),
    ("negative-zero-bankroll", _doc(players='{"a": -0}'), "players.a"),
    ("negative-zero-string", _doc(players='{"a": "-0.00"}'), "players.a"),
    ("bankroll-true", _doc(players='{"a": true}'), "players.a"),
    ("bankroll-list", _doc(players='{"a": [100]}'), "players.a"),
    ("bankroll-thousandth", _doc(players='{"a": 100.001}'), "players.a"),
    ("bankroll-exponent-string", _doc(players='{"a": "1e2"}'), "players.a"),
    ("bankroll-huge-exponent", _doc(players='{"a": 1e999999999}'), "players.a"),
    ("bankroll-tiny-exponent", _doc(players='{"a": 1e-999999999}'), "players.a"),
    ("bankroll-huge", _doc(players='{"a": ' + "9" * 40 + "}"), "players.a"),
    ("bankroll-5000-digits", _doc(players='{"a": 1' + "0" * 5000 + "}"), "transcript"),
    ("amount-false", _doc('[{"player": "a", "bet": "pass", "amount": false}]'),
     "actions[0].amount"),
    ("amount-negative-zero", _doc('[{"player": "a", "bet": "pass", "amount": -0.0}]'),
     "actions[0].amount"),
    ("amount-exponent-fraction", _doc('[{"player": "a", "bet": "pass", "amount": 5e-3}]'),
     "actions[0].amount"),
    ("amount-object", _doc('[{"player": "a", "bet": "pass", "amount": {"v": 5}}]'),
     "actions[0].amount"),
    ("amount-hex", _doc('[{"player": "a", "bet": "pass", "amount": "0x10"}]'),
     "actions[0].amount"),
    ("unknown-field", _doc('[{"player": "a", "bet": "pass", "amount": 5, "odds": 2}]'),
     "actions[0].odds"),
    ("missing-amount", _doc('[{"player": "a", "bet": "pass"}]'), "actions[0].amount"),
    ("missing-player", _doc('[{"bet": "pass", "amount": 5}]'), "actions[0].player"),
    ("unknown-wager", _doc('[{"player": "a", "bet": "big_8", "amount": 5}]'), "actions[0].bet"),
    ("wager-as-number", _doc('[{"player": "a", "bet": 8, "amount": 5}]'), "actions[0].bet"),
    ("number-as-string", _doc('[{"player": "a", "bet": "hard", "number": "6", "amount": 5}]'),
     "actions[0].number"),
    ("number-as-bool", _doc('[{"player": "a", "bet": "buy", "number": true, "amount": 5}]'),
     "actions[0].number"),
    ("number-as-float", _doc('[{"player": "a", "bet": "buy", "number": 4.0, "amount": 5}]'),
     "actions[0].number"),
    ("hop-not-one-of-17", _doc('[{"player": "a", "bet": "hop", "dice": [1, 1], "amount": 5}]'),
     "actions[0].dice"),
    ("hop-three-dice", _doc('[{"player": "a", "bet": "hop", "dice": [1, 2, 3], "amount": 5}]'),
     "actions[0].dice"),
    ("die-of-seven", _doc('[{"roll": [7, 1]}]'), "actions[0]"),
    ("die-as-bool", _doc('[{"roll": [true, 1]}]'), "actions[0]"),
    ("die-as-float", _doc('[{"roll": [1.0, 2]}]'), "actions[0]"),
    ("die-5000-digits", _doc('[{"roll": [1' + "0" * 5000 + ", 2]}]"), "transcript"),
    ("roulette-spin-at-craps", _doc('[{"spin": 17}]'), "actions[0]"),
    ("roulette-wager-at-craps",
     _doc('[{"player": "a", "bet": "straight", "numbers": [17], "amount": 5}]'), "actions[0]"),
    ("misspelt-actions", HEAD.replace('"players"', '"action": [], "players"') + '"actions": []}',
     "action"),
    ("actions-missing", '{"game": "craps", "rules": "nj-13-69f", "players": {"a": 1}}',
     "actions"),
    ("deep-nesting-lists", HEAD + '"actions": [], "_x": ' + "[" * 200000 + "]" * 200000 + "}",
     "transcript"),
    ("deep-nesting-unclosed", "[" * 1000000, "transcript"),
    ("deep-nesting-objects", HEAD + '"actions": [], "_x": ' + '{"k": ' * 100000 + "1"
     + "}" * 100000 + "}", "transcript"),
    ("vig-over-five-percent", _doc(options='{"vig": "0.0500000001"}'), "options.vig"),
    ("vig-NaN", _doc(options='{"vig": "NaN"}'), "options.vig"),
    ("vig-bool", _doc(options='{"vig": false}'), "options.vig"),
    ("unit-bool", _doc(options='{"unit": true}'), "options.unit"),
    ("odds-bool", _doc(options='{"odds": true}'), "options.odds"),
    ("pays-below-minimum", _doc(options='{"pays": {"hop:1-3": "14 to 1"}}'),
     "options.pays.hop:1-3"),
    ("pays-for", _doc(options='{"pays": {"hop:1-3": "16 for 1"}}'), "options.pays.hop:1-3"),
]


@pytest.mark.parametrize(("text", "place"), [(t, p) for _, t, p in MALFORMED_TEXT],
                         ids=[i for i, _, _ in MALFORMED_TEXT])
def test_malformed_text(text: str, place: str) -> None:
    """Contract "Exit status and errors": exit 2, nothing on stdout, one stderr line that names
    the place; never a traceback, never a hang (``run_raw`` has a timeout)."""
    line = malformed(text)
    assert line.startswith(place), line
    assert "Traceback" not in line


def test_gigantic_transcript_plays_in_time() -> None:
    """Contract: a transcript of any length is played through; 60,000 actions (a field bet
    and a roll of 1-1, 30 times over 2,000) finish well inside the harness's timeout.
    13:69F-1.4(b): the field pays 2 to 1 on 2, so each pair adds 2: 100 + 2 * 30000."""
    actions = [bet("a", "field", 1), roll(1, 1)] * 30000
    code, out, err = run_raw(transcript(NJ_13_69F, actions))
    assert code == 0, err
    check(json.loads(out), "a", 100 + 2 * 30000, 0)


# A commission rate is read as an exact fraction; one given to a billion-billion decimal
# places never finished (found by this battery).
@pytest.mark.parametrize("vig", ["1e-999999999999999999", "0.000000001", "1E-9999999"])
@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_vig_finer_than_the_table_can_state_is_malformed_not_a_hang(vig: str) -> None:
    """Contract `vig` (at most 0.05; 13:69F-1.5(a) "a percentage of the amount wagered"): a rate
    given to more than eight decimal places is malformed at `options.vig`, at once, where a
    buy bet under "1e-999999999999999999" made the replay run forever."""
    doc = transcript(NJ_13_69F, [bet("a", "buy", 20, number=4)], vig=vig)
    assert malformed(doc).startswith("options.vig")


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_vig_to_eight_places_still_plays() -> None:
    """13:69F-1.5(a): 0.00000001 of a $20 buy bet is $0.0000002, rounded down to the unit
    (contract "Commission"): no commission. 80 in hand, 20 on the table."""
    check(play(NJ_13_69F, [bet("a", "buy", 20, number=4)], vig="0.00000001"), "a", 80, 20)
