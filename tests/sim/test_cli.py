"""``croupier simulate`` end to end."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from croupier.cli import main


def test_simulate_json_csv_and_plots(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    csv_path = tmp_path / "s.csv"
    rc = main(["simulate", "pass-line", "--sessions", "50", "--rolls", "100", "--bankroll",
               "200", "--seed", "4", "--json", "--csv", str(csv_path), "--plot",
               str(tmp_path / "plots")])
    assert rc == 0
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["sessions"] == 50
    assert 0 < doc["rolls"] <= 5000
    assert isinstance(doc["mean_final_bankroll"], str) and "." in doc["mean_final_bankroll"]
    assert 0.0 <= doc["risk_of_ruin"] <= 1.0
    assert isinstance(doc["loss_per_unit_wagered"], float)
    assert "simulate [" in err
    assert len(csv_path.read_text().splitlines()) == 51
    assert len(list((tmp_path / "plots").glob("*.png"))) == 3


def test_simulate_refusal_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["simulate", "pass-odds-come", "--rules", "nj-casino-night", "--sessions", "5"])
    assert rc == 2
    assert "not a permitted wager under nj-casino-night" in capsys.readouterr().err


def test_simulate_strategy_file_and_table(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    f = tmp_path / "mine.toml"
    f.write_text('name = "mine"\nstop_loss = "50"\n[[bets]]\nwager = "field"\namount = "5"\n')
    rc = main(["simulate", f"{f},pass-line", "--sessions", "20", "--rolls", "50",
               "--no-progress"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "mine+pass-line" in out and "loss per unit wagered" in out


def test_roulette_output_counts_spins(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["simulate", "roulette-flat", "--sessions", "20", "--rolls", "10", "--no-progress"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "up to 10 spins" in out and "loss per spin" in out and " spins in " in out
    assert re.search(r"\brolls?\b", out) is None


@pytest.mark.parametrize(("extra", "named"), [
    (["--seed", "-1"], "--seed"),
    (["--rolls-per-hour", "0"], "--rolls-per-hour"),
    (["--rolls-per-hour", "nan"], "--rolls-per-hour"),
    (["--paths", "-1", "--plot", "unused"], "--paths"),
    (["--workers", "0"], "--workers"),
    (["--trace", "0", "--json"], "not with --json"),
    (["--trace", "0", "--workers", "2", "--csv", "x.csv"], "not with --csv, --workers"),
    (["--sessions", str(10**8)], "--sessions: at most 50,000,000 for 2 player(s)"),
])
def test_simulate_refuses_what_it_cannot_do_naming_the_option(
        capsys: pytest.CaptureFixture[str], extra: list[str], named: str) -> None:
    rc = main(["simulate", "pass-line,place-6-8", "--rolls", "5", "--no-progress", *extra])
    assert rc == 2
    assert named in capsys.readouterr().err


@pytest.mark.parametrize(("toml", "named"), [
    ('table = { vig = "0.04" }\n', "mine.table: the players sit at one table"),
    ('rules = "nj-19-47"\n', "mine.rules: the players sit at one table, under the first "
                            "player's rules (pass-line: nj-13-69f)"),
])
def test_a_second_player_naming_another_table_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, toml: str, named: str) -> None:
    f = tmp_path / "mine.toml"
    f.write_text(f'name = "mine"\n{toml}[[bets]]\nwager = "pass"\namount = "5"\n')
    assert main(["simulate", f"pass-line,{f}", "--sessions", "2", "--no-progress"]) == 2
    assert named in capsys.readouterr().err
    # the same options as the first player's, or none, sit at its table
    assert main(["simulate", f"{f},pass-line", "--sessions", "2", "--rolls", "5",
                 "--no-progress"]) == 0
