"""``croupier simulate --trace`` follows one session roll by roll, and ``--chart`` compares the
strategies at the table on one chart."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

from croupier.cli import main
from croupier.sim.compile import compile_table
from croupier.sim.engine import Simulation, simulate
from croupier.sim.library import strategies_for

FINAL = re.compile(r"^session (\d+) ended after (\d+) (rolls|spins): final bankroll \(chips in "
                   r"hand and on the layout\) (.*)$", re.M)


def _finals(text: str) -> list[Decimal]:
    found = FINAL.search(text)
    assert found, text[-500:]
    return [Decimal(part.rsplit(" ", 1)[1]) for part in found[4].split(", ")]


@pytest.mark.parametrize(("strategies", "session", "bankroll"),
                         [("iron-cross,pass-2-come", 3, "300"), ("martingale-red", 1, "100")])
def test_the_trace_ends_where_the_simulation_ends_that_session(
        capsys: pytest.CaptureFixture[str], strategies: str, session: int, bankroll: str) -> None:
    rolls = 40
    code = main(["simulate", strategies, "--trace", str(session), "--rolls", str(rolls),
                 "--seed", "7", "--bankroll", bankroll])
    out = capsys.readouterr().out
    assert code == 0
    compiled = compile_table(strategies_for(strategies.split(",")), None)
    res = simulate(compiled, Simulation(session + 1, rolls, int(Decimal(bankroll) * 100), 7))
    kernel = [Decimal(int(c)) / 100 for c in res.final[session]]
    assert _finals(out) == kernel  # to the cent, session for session
    unit = "spin" if compiled.game == "roulette" else "roll"
    decided = re.findall(rf"^{unit} (\d+): ", out, re.M)
    assert decided == [str(i) for i in range(1, len(decided) + 1)]
    assert len(decided) == int(FINAL.search(out)[2]) == int(res.rolls[session])  # type: ignore[index]
    # Every decision is followed by each player's bankroll.
    assert out.count("  bankroll: ") == len(decided)


def test_the_trace_shows_bets_settlements_and_bankrolls_in_words(
        capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", "iron-cross,pass-2-come", "--trace", "3", "--rolls", "3", "--seed", "7",
          "--bankroll", "300"])
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("session 3 of seed 7: p0 iron-cross + p1 pass-2-come under nj-13-69f, "
                      "bankroll 300.00 each")
    # Dice of seed 7, session 3: 9 on the come-out, then 8 and 8 (hand-checked pays below).
    assert out[1:4] == ["  p0 iron-cross bets Pass Bet 10.00", "  p1 pass-2-come bets Pass Bet "
                        "10.00", "roll 1: 5 + 4 = 9 (come-out), point 9"]
    assert "  p0 iron-cross bets Place Bet to Win 6 24.00" in out
    # Place 8 pays 7 to 6 (13:69F-1.4(b)): 24.00 wins 28.00 and stays up; the field loses.
    assert "  p0 iron-cross: Place Bet to Win 8 24.00 win, paid 28.00 (stays up)" in out
    assert "  p0 iron-cross: Field Bet 10.00 lose, 10.00 taken" in out
    assert ("  bankroll: p0 iron-cross 220.00 in hand + 98.00 on the layout; p1 pass-2-come "
            "280.00 in hand + 20.00 on the layout") in out


def test_a_negative_trace_session_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "pass-line", "--trace", "-1"]) == 2
    assert "--trace" in capsys.readouterr().err


def test_strategies_compared_on_one_chart(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    chart = tmp_path / "charts" / "compare.svg"
    code = main(["simulate", "martingale-red,dalembert-red", "--sessions", "200", "--rolls",
                 "50", "--bankroll", "100", "--chart", str(chart), "--no-progress"])
    assert code == 0
    assert f"chart: {chart}" in capsys.readouterr().err
    svg = chart.read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    for words in ("0: martingale-red", "1: dalembert-red", "survival (not ruined)",
                  "final bankroll", "200 sessions of up to 50 spins"):
        assert words in svg, words  # matplotlib keeps the text as text in SVG
    assert ">roll<" not in svg


def test_a_chart_file_of_another_kind_is_refused_before_simulating(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["simulate", "pass-line", "--sessions", "10", "--chart",
                 str(tmp_path / "c.txt")])
    out, err = capsys.readouterr()
    assert code == 2 and "--chart" in err and ".svg or a .png" in err and out == ""
    assert not (tmp_path / "c.txt").exists()
