"""The replay contract for roulette (shared/spec/transcript.md): malformed transcripts name
the place and exit 2 with nothing on standard output; the CLI end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from croupier.errors import Malformed
from croupier.transcript import replay_text


def doc(actions: list[Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "game": "roulette",
        "rules": "nj-casino-night",
        "options": options or {},
        "players": {"p": "100", "q": 50},
        "actions": actions,
    }


def bet(wager: str, amount: Any = 10, **qualifier: Any) -> dict[str, Any]:
    return {"player": "p", "bet": wager, "amount": amount, **qualifier}


MALFORMED: list[tuple[str, dict[str, Any], str]] = [
    # options
    ("unknown-option", doc([], {"vig": "0.05"}), "options.vig"),
    ("unknown-wheel", doc([], {"wheel": "triple-zero"}), "options.wheel"),
    ("unknown-zero-rule", doc([], {"zero_rule": "some"}), "options.zero_rule"),
    ("half-single-zero", doc([], {"wheel": "single-zero", "zero_rule": "half"}),
     "options.zero_rule"),
    ("half-dz-as-single", doc([], {"wheel": "double-zero-as-single", "zero_rule": "half"}),
     "options.zero_rule"),
    ("five-adjacent-not-bool", doc([], {"five_adjacent": "yes"}), "options.five_adjacent"),
    ("unit-zero", doc([], {"unit": 0}), "options.unit"),
    ("min-bet-text", doc([], {"min_bet": "ten"}), "options.min_bet"),
    ("pays-below-minimum", doc([], {"pays": {"straight": "34 to 1"}}), "options.pays.straight"),
    ("pays-for", doc([], {"pays": {"split": "18 for 1"}}), "options.pays.split"),
    ("pays-unknown-key", doc([], {"pays": {"five_adjacent": "35 to 1"}}),
     "options.pays.five_adjacent"),
    # actions
    ("reduce", doc([{"player": "p", "reduce": "red", "amount": 5}]), "actions[0].reduce"),
    ("unknown-wager", doc([bet("corner", numbers=[1, 2, 4, 5])]), "actions[0].bet"),
    ("unknown-player", doc([{"player": "z", "bet": "red", "amount": 5}]), "actions[0].player"),
    ("zero-amount", doc([bet("red", 0)]), "actions[0].amount"),
    ("negative-amount", doc([bet("red", -5)]), "actions[0].amount"),
    ("text-amount", doc([bet("red", "ten")]), "actions[0].amount"),
    ("number-37", doc([bet("split", numbers=[36, 37])]), "actions[0].numbers[1]"),
    ("number-negative", doc([bet("straight", numbers=[-1])]), "actions[0].numbers[0]"),
    ("number-text", doc([bet("straight", numbers=["7"])]), "actions[0].numbers[0]"),
    ("number-bool", doc([bet("straight", numbers=[True])]), "actions[0].numbers[0]"),
    ("numbers-not-list", doc([bet("straight", numbers=17)]), "actions[0].numbers"),
    ("numbers-missing", doc([bet("split")]), "actions[0].numbers"),
    ("column-4", doc([bet("column", column=4)]), "actions[0].column"),
    ("dozen-0", doc([bet("dozen", dozen=0)]), "actions[0].dozen"),
    ("center-37", doc([bet("five_adjacent", center=37)]), "actions[0].center"),
    ("qualifier-on-red", doc([bet("red", numbers=[1])]), "actions[0].numbers"),
    ("spin-37", doc([{"spin": 37}]), "actions[0].spin"),
    ("spin-00-single-zero", doc([{"spin": "00"}], {"wheel": "single-zero"}), "actions[0].spin"),
    ("spin-revolutions-text", doc([{"spin": 3, "revolutions": "three"}]),
     "actions[0].revolutions"),
    ("spin-flag-not-bool", doc([{"spin": 3, "foreign_object": 1}]), "actions[0].foreign_object"),
    ("roll-at-roulette", doc([{"roll": [3, 4]}]), "actions[0]"),
    ("unknown-key", doc([{"spin": 3, "speed": 9}]), "actions[0].speed"),
    ("after-valid-actions", doc([bet("red"), {"spin": 1}, bet("dozen", dozen=4)]),
     "actions[2].dozen"),
]


@pytest.mark.parametrize(("transcript", "where"), [c[1:] for c in MALFORMED],
                         ids=[c[0] for c in MALFORMED])
def test_malformed_names_the_place(transcript: dict[str, Any], where: str) -> None:
    with pytest.raises(Malformed) as info:
        replay_text(json.dumps(transcript))
    assert info.value.where == where


def test_malformed_message_for_a_number_out_of_range() -> None:
    with pytest.raises(Malformed) as info:
        replay_text(json.dumps(doc([bet("red"), {"spin": 1}, bet("split", numbers=[36, 37])])))
    assert str(info.value) == "actions[2].numbers[1]: not a roulette number: 37"


def test_result_shape() -> None:
    """The contract's result: players with bankroll and on_table, rejected, state, events."""
    result = replay_text(json.dumps(doc([
        bet("red", 10),
        {"player": "q", "bet": "straight", "numbers": ["00"], "amount": "2.50"},
        {"player": "q", "bet": "straight", "numbers": ["00"], "amount": 2},
        {"spin": 1},
        bet("black", 5),
    ])))
    assert set(result) == {"players", "rejected", "state", "events"}
    assert result["players"] == {
        "p": {"bankroll": "105.00", "on_table": "5.00"},  # 100 + 10 won, 5 down on black
        "q": {"bankroll": "48.00", "on_table": "0.00"},  # 2.50 refused (unit 1), 2 lost
    }
    assert result["rejected"] == [{
        "index": 1,
        "reason": result["rejected"][0]["reason"],
        "clause": "N.J.A.C. 13:47-20.32(f)",
    }]
    assert result["state"] == {"last_number": 1}


def test_amounts_as_decimal_numbers_and_strings() -> None:
    """Money is exact: 0.10 + 0.20 on red with a unit of 0.10 is 0.30, paid 0.30."""
    text = ('{"game": "roulette", "rules": "nj-casino-night", "options": {"unit": "0.10"},'
            ' "players": {"p": 1}, "actions": [{"player": "p", "bet": "red", "amount": 0.10},'
            ' {"player": "p", "bet": "red", "amount": "0.20"}, {"spin": 3}]}')
    assert replay_text(text)["players"]["p"] == {"bankroll": "1.30", "on_table": "0.00"}


# -- the command line ---------------------------------------------------------------------------

def run_cli(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "croupier", "replay", "-"],
        input=stdin, capture_output=True, text=True, check=False, timeout=60,
    )


def test_cli_replays_roulette() -> None:
    """A six-number line on 31-36 and a 0-00 split, ball in 00: line lost (-10), split paid
    17 x 5 = 85: 100 - 15 + 5 + 85 = 175."""
    transcript = doc([bet("six_numbers", numbers=[36, 35, 34, 33, 32, 31]),
                      bet("split", 5, numbers=[0, "00"]), {"spin": "00"}])
    proc = run_cli(json.dumps(transcript))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["players"]["p"] == {"bankroll": "175.00", "on_table": "0.00"}
    assert result["state"] == {"last_number": "00"}


def test_cli_rejections_exit_zero() -> None:
    proc = run_cli(json.dumps(doc([bet("split", numbers=[1, 5])])))
    assert proc.returncode == 0
    rejected = json.loads(proc.stdout)["rejected"]
    assert [(r["index"], r["clause"]) for r in rejected] == [(0, "N.J.A.C. 13:47-20.32(e)2")]


@pytest.mark.parametrize(
    ("transcript", "prefix"),
    [
        (json.dumps(doc([{"player": "p", "bet": "column", "column": 4, "amount": 5}])),
         "actions[0].column: "),
        (json.dumps(doc([{"spin": "00"}], {"wheel": "single-zero"})), "actions[0].spin: "),
        (json.dumps(doc([], {"zero_rule": "half", "wheel": "single-zero"})),
         "options.zero_rule: "),
        (json.dumps(doc([{"player": "p", "reduce": "red", "amount": 1}])), "actions[0].reduce: "),
        ('{"game": "roulette", "rules": "nj-19-47", "players": {"p": 1}}', "game: "),
    ],
)
def test_cli_malformed_exit_2_one_line_on_stderr(transcript: str, prefix: str) -> None:
    proc = run_cli(transcript)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(prefix)


@pytest.mark.parametrize(("wager", "numbers"), [
    ("split", [5, 5]), ("straight", [17, 17]), ("three_numbers", [0, 0, 1])])
@pytest.mark.clause("N.J.A.C. 13:47-20.32(d)2", "N.J.A.C. 13:47-20.32(e)")
def test_a_number_named_twice_is_refused_not_malformed(wager: str, numbers: list[int]) -> None:
    """20.32(e): a wager must stand on its spot on the layout; [5, 5] is no split, [17, 17] no
    straight. The transcript is well formed: the bet is rejected and the bankroll untouched."""
    result = replay_text(json.dumps(doc([bet(wager, numbers=numbers)])))
    assert [r["index"] for r in result["rejected"]] == [0]
    assert result["players"]["p"] == {"bankroll": "100.00", "on_table": "0.00"}
