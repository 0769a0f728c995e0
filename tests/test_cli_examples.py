"""Every transcript in examples/ replays through the real command line with exit 0, and its
result is the one worked out by hand (the arithmetic is in the comments, not copied from a
run). A new example must be added here, so none ships unchecked."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# file: ({player: (bankroll, on_table)}, [indexes of the refused actions], state)
EXPECTED: dict[str, tuple[dict[str, tuple[str, str]], list[int], dict[str, Any]]] = {
    # gus 300 - 10 pass, lost to the come-out 2 = 290; - 10 pass - 30 odds = 250; the 10 is made:
    # pass 1 to 1 (+20) and odds 2 to 1 (+90) = 360. The fire bet is refused (13:69F-1.2(a)).
    # hana 300 - 5 field; the 2 pays 2 to 1 (+15) = 310; - 20 buy 4 - 1.00 commission = 289;
    # the buy is off on the come-out 4 and loses on the seven-out.
    "automated-craps-device.json": ({"gus": ("360.00", "0.00"), "hana": ("289.00", "0.00")}, [2],
                                    {"point": None, "shooter": None}),
    # alice 500 - 10 pass - 25 odds = 465; the point 6 is made: pass 1 to 1 (+20 back) and the
    # odds 6 to 5 (+30 + 25 back) = 540. bob 200 - 12 place 8 - 4 horn = 184; the 6 loses the
    # horn, the place 8 stays up with 12.
    "craps-pass-odds.json": ({"alice": ("540.00", "0.00"), "bob": ("184.00", "12.00")}, [],
                             {"point": None, "shooter": "alice"}),
    # alice 1000 - 10 pass - 5 fire - 30 odds - 10 come - 5 hard 6 = 940; hard 6 pays 9 to 1:
    # +45 = 985; - 25 come odds = 960; the seven-out takes everything on the table.
    # bob 500 - 10 don't pass - 20 lay odds - (40 lay + 2 commission) = 428; the seven pays the
    # don't pass 1 to 1 (+20), the lay odds 1 to 2 on 20 (+30), the lay 1 to 2 on 40 (+20),
    # which stays up paying its 2.00 commission again: 428 + 20 + 30 + 18 = 496, 40 on the table.
    "craps-seven-out.json": ({"alice": ("960.00", "0.00"), "bob": ("496.00", "40.00")}, [9],
                             {"point": None, "shooter": "bob"}),
    # carol 200 - 10 pass, 11 wins 1 to 1: 210; - 10 don't pass, lost to the point: 200.
    # dave 100 - 5 field, 11 wins 1 to 1: 105; - 6 place 8, wins 7 to 6: 106; removed: 112.
    "mini-craps-seats.json": ({"carol": ("200.00", "0.00"), "dave": ("112.00", "0.00")},
                              [1, 6, 9], {"point": None}),
    # alice 100 - 5 split - 10 five adjacent on 0; the void spin settles nothing; 0: the split
    # loses, the straight 0 (2 of the 10) pays 35 to 1 (+70 + 2 back): 157. bob 50 - 10 red,
    # half lost on 0: 45.
    "roulette-split.json": ({"alice": ("157.00", "0.00"), "bob": ("45.00", "0.00")}, [3],
                            {"last_number": 0}),
    # eve 300 - 5 - 10 - 10 = 275; 17 pays the straight 35 to 1 (+180), the split 17 to 1
    # (+180) and column 2 at 2 to 1 (+30): 665. finn 200 - 20 - 10 - 5 - 6 = 159; dozen 2 at
    # 2 to 1 (+30) and the six numbers at 5 to 1 (+36): 225; - 20 black, half lost on 00: 215.
    "roulette-column-dozen.json": ({"eve": ("665.00", "0.00"), "finn": ("215.00", "0.00")}, [7],
                                   {"last_number": "00"}),
}


def replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "croupier", "replay", str(path)],
                          capture_output=True, text=True, timeout=60, check=False)


def test_every_example_transcript_is_checked_here() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.json")) == sorted(EXPECTED)


def test_every_game_a_profile_covers_has_an_example() -> None:
    from croupier.rules import PROFILE_IDS, load_profile

    covered = {game for p in PROFILE_IDS for game in load_profile(p).games}
    games = {json.loads((EXAMPLES / name).read_text())["game"] for name in EXPECTED}
    assert {"craps", "mini-craps", "roulette"} <= covered
    assert covered - games == set()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_replays_to_the_hand_worked_result(name: str) -> None:
    done = replay(EXAMPLES / name)
    assert done.returncode == 0 and done.stderr == ""
    result = json.loads(done.stdout)
    players, refused, state = EXPECTED[name]
    assert {p: (v["bankroll"], v["on_table"]) for p, v in result["players"].items()} == players
    assert [r["index"] for r in result["rejected"]] == refused
    assert all(r["reason"] and r["clause"].startswith("N.J.A.C.") for r in result["rejected"])
    assert {k: result["state"][k] for k in state} == state
