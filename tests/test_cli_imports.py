"""Building the command line imports none of the heavy libraries (they load when a command
runs), so every ``--help`` starts fast. Speed itself is measured by benchmarks/cli.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.cli import COMMAND_MODULES

HEAVY = ("numba", "numpy", "scipy", "matplotlib", "fastapi", "starlette", "pydantic",
         "sqlalchemy", "alembic", "uvicorn", "dask", "distributed", "hypothesis")

SRC = Path(__file__).resolve().parents[1] / "src"

_PROBE = """
import json, sys
from croupier.cli import COMMAND_MODULES, build_parser
parser = build_parser(sys.argv[1] if len(sys.argv) > 1 else None)
print(json.dumps(sorted(m.split(".")[0] for m in sys.modules)))
"""


def _modules_after(*argv: str) -> set[str]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    out = subprocess.run([sys.executable, "-c", _PROBE, *argv], env=env, check=True,
                         capture_output=True, text=True, timeout=120)
    return set(json.loads(out.stdout))


@pytest.mark.parametrize("command", [None, "replay", *COMMAND_MODULES])
def test_building_the_parser_imports_no_heavy_module(command: str | None) -> None:
    loaded = _modules_after(*([command] if command else []))
    assert "croupier" in loaded  # the probe did run
    assert sorted(loaded & set(HEAVY)) == []


def test_the_probe_would_see_a_heavy_import() -> None:
    """The check above can fail: importing a monitor loads numpy, the simulator's kernel
    numba."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    code = ("import sys, croupier.integrity.dice, croupier.sim.kernel; "
            "print('numpy' in sys.modules, 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["True", "True"]
