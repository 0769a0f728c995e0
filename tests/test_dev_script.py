"""``./dev run`` says what it installs on a first run (a line before each step, pip's progress)
and nothing once set up. The setup runs against a stand-in environment (``CROUPIER_VENV``): a
``python`` that records how pip was asked to install, and a ``croupier`` that says it ran."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _stand_in(venv: Path) -> Path:
    """A venv whose python logs its arguments and whose croupier prints its own."""
    log = venv / "calls.log"
    (venv / "bin").mkdir(parents=True)
    scripts = {
        "python": f'#!/bin/sh\necho "python $*" >> "{log}"\necho "pip: Successfully installed"\n',
        "croupier": '#!/bin/sh\necho "croupier ran: $*"\n',
    }
    for name, text in scripts.items():
        path = venv / "bin" / name
        path.write_text(text, encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return log


def _dev(venv: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ROOT / "dev"), *argv], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "CROUPIER_VENV": str(venv)}, check=False)


def test_first_run_says_each_step_then_later_runs_are_silent(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    log = _stand_in(venv)
    first = _dev(venv, "run", "rules")
    assert first.returncode == 0, first.stderr
    said = [line for line in first.stderr.splitlines() if line.startswith("./dev: ")]
    assert said[0].startswith("./dev: upgrading pip")
    assert said[1].startswith("./dev: installing croupier and its dependencies")
    assert said[-1].startswith("./dev: set up in ")
    # pip's progress is shown for the install (not -q), after the line that announces it.
    calls = log.read_text(encoding="utf-8").splitlines()
    assert calls[-1] == "python -m pip install -e .[test]"
    assert "pip: Successfully installed" in first.stdout
    assert first.stdout.rstrip().endswith("croupier ran: rules")
    # Set up: nothing from ./dev, pip not called again.
    again = _dev(venv, "run", "rules")
    assert (again.returncode, again.stderr) == (0, "")
    assert again.stdout == "croupier ran: rules\n"
    assert log.read_text(encoding="utf-8").splitlines() == calls


def test_a_changed_pyproject_installs_again_with_progress_bars_only(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    log = _stand_in(venv)
    marker = venv / ".installed"
    marker.touch()
    os.utime(marker, (0, 0))  # older than pyproject.toml
    done = _dev(venv, "run", "rules")
    assert done.returncode == 0, done.stderr
    assert "./dev: pyproject.toml has changed" in done.stderr
    assert log.read_text(encoding="utf-8").splitlines()[-1] == (
        "python -m pip install -q --progress-bar on -e .[test]")
    assert marker.stat().st_mtime > ROOT.joinpath("pyproject.toml").stat().st_mtime - 1
