"""``croupier integrity`` and ``croupier rng-test`` through the real command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = Path(sys.executable)


def run(*args: str) -> tuple[int, str, str]:
    proc = subprocess.run(
        [str(PYTHON), "-m", "croupier", *args], capture_output=True, text=True, timeout=120, check=False
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("integrity")
    rng = np.random.default_rng(31)
    dice = ["dice_set,die1,die2"]
    dice += [f"FAIR,{a},{b}" for a, b in rng.integers(1, 7, (2000, 2)).tolist()]
    loaded = rng.choice(6, 6000, p=[0.15, 0.15, 0.15, 0.15, 0.15, 0.25]) + 1
    dice += [
        f"LOADED,{a},{b}" for a, b in zip(loaded.tolist(), rng.integers(1, 7, 6000).tolist(), strict=True)
    ]
    wheel = ["number,wheel"] + [f"{'00' if k == 37 else k},W1" for k in rng.integers(0, 38, 3000).tolist()]
    (d / "dice.csv").write_text("\n".join(dice) + "\n")
    (d / "wheel.csv").write_text("\n".join(wheel) + "\n")
    return {"dice": d / "dice.csv", "wheel": d / "wheel.csv", "dir": d}


def test_integrity_json(files: dict[str, Path]) -> None:
    code, out, err = run("integrity", "--dice", str(files["dice"]), "--wheel", str(files["wheel"]), "--json")
    assert code == 3, err  # the loaded set's alert
    data = json.loads(out)
    assert data["alert"] is True
    sets = {(s["kind"], s["id"]): s for s in data["sets"]}
    assert set(sets) == {("dice", "FAIR"), ("dice", "LOADED"), ("wheel", "W1")}
    assert sets[("dice", "LOADED")]["alert"] is True
    assert sets[("dice", "FAIR")]["alert"] is False
    assert [sets[k]["status"] for k in sorted(sets)] == ["ok", "ALERT", "ok"]
    assert sets[("wheel", "W1")]["n"] == 3000
    for s in data["sets"]:
        assert isinstance(s["alert"], bool)
        assert all(0 <= t["p_value"] <= 1 and isinstance(t["alert"], bool) for t in s["tests"])
    assert {t["name"] for t in sets[("wheel", "W1")]["tests"]} == {"pockets", "sectors"}


def test_integrity_table_and_html(files: dict[str, Path]) -> None:
    html = files["dir"] / "report.html"
    code, out, err = run("integrity", "--dice", str(files["dice"]), "--html", str(html))
    assert code == 3, err
    assert "dice set LOADED: 6000 rolls  [ALERT]" in out and "dice set FAIR: 2000 rolls  [ok]" in out
    text = html.read_text()
    assert text.count("<svg") >= 6 and "die1 face 6" in text


def test_a_fair_set_alone_exits_0(files: dict[str, Path], tmp_path: Path) -> None:
    fair = [line for line in files["dice"].read_text().splitlines() if not line.startswith("LOADED")]
    path = tmp_path / "fair.csv"
    path.write_text("\n".join(fair) + "\n")
    code, out, err = run("integrity", "--dice", str(path))
    assert code == 0, err
    assert "dice set FAIR: 2000 rolls  [ok]" in out and "ALERT" not in out


def test_two_rolls_are_too_little_data_not_ok(tmp_path: Path) -> None:
    path = tmp_path / "two.csv"
    path.write_text("die1,die2\n3,4\n6,6\n")
    code, out, err = run("integrity", "--dice", str(path))
    assert code == 4, err
    assert out.startswith("dice: 2 rolls  [too little data]")  # one unnamed set: no "dice dice"
    assert "at least 30 rolls" in out and "p-value" in out and "[ok]" not in out
    assert "statistic" not in out  # no table of tests, so no p-value is shown
    code, out, _ = run("integrity", "--dice", str(path), "--json")
    data = json.loads(out)
    assert code == 4 and data["alert"] is False
    assert data["sets"][0]["status"] == "too little data" and data["sets"][0]["minimum_outcomes"] == 30


@pytest.mark.parametrize(
    ("content", "option", "message"),
    [
        ("die1,die2\n1,2\n3,9\n", "--dice", "row 3, column die2: not a die face 1 to 6: '9'"),
        ("die1,die2\n1,2\n4\n", "--dice", "row 3, column die2: missing"),
        ("die1\n1\n", "--dice", "row 1, column die2: missing from the header"),
        ("number\n0\n00\n37\n", "--wheel", "row 4, column number: not a roulette number 0 to 36 or 00: '37'"),
        ("number,wheel\n5,A\nx,A\n", "--wheel", "row 3, column number"),
        ("", "--wheel", "row 1: no header"),
    ],
)
def test_malformed_csv_exits_2_with_one_line(tmp_path: Path, content: str, option: str, message: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(content)
    code, out, err = run("integrity", option, str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and str(path) in err


def test_double_zero_is_malformed_on_a_single_zero_wheel(tmp_path: Path) -> None:
    path = tmp_path / "w.csv"
    path.write_text("number\n00\n")
    code, _, err = run("integrity", "--wheel", str(path), "--wheel-type", "single-zero")
    assert code == 2 and "row 2, column number: 00 is not on the single zero wheel" in err


def test_rng_test_json_and_modulo_verdicts() -> None:
    code, out, err = run("rng-test", "--samples", "100000", "--modulo", "--json")
    data = json.loads(out)
    assert code == 3 and data["verdict"] == "fail", err
    names = {t["name"] for s in data["scalers"] for t in s["tests"]}
    assert names == {
        "chi-square",
        "runs",
        "serial correlation",
        "equidistribution",
        "gap",
        "poker",
        "coupon collector",
        "permutation",
    }
    code, out, _ = run("rng-test", "--samples", "5000")
    assert code in (0, 3) and "verdict:" in out
