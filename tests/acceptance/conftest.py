"""Helpers for the independent craps / mini-craps acceptance battery.

Every test runs the real command line (``python -m croupier replay -``) in a subprocess with
the transcript on standard input, exactly as a test lab would (shared/spec/transcript.md).
Money is always serialised as decimal strings, never as binary floating point.

The expected values in the tests were worked out by hand from the regulation texts
(N.J.A.C. 13:47-20.25, 19:47-1.2/1.4, 13:69F-1 as proposed in 2011) and the replay contract.
"""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PYTHON = Path(sys.executable)

CASINO_NIGHT = "nj-casino-night"
NJ_19_47 = "nj-19-47"
NJ_13_69F = "nj-13-69f"
PROFILES = [CASINO_NIGHT, NJ_19_47, NJ_13_69F]


def run_raw(transcript: dict[str, Any] | str) -> tuple[int, str, str]:
    """Run the CLI; return (exit code, stdout, stderr)."""
    text = transcript if isinstance(transcript, str) else json.dumps(transcript)
    proc = subprocess.run(
        [str(PYTHON), "-m", "croupier", "replay", "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=str(ROOT),
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def run(transcript: dict[str, Any] | str) -> tuple[int, dict[str, Any] | None, str]:
    """Run the CLI; return (exit code, parsed result or None, stderr)."""
    code, out, err = run_raw(transcript)
    result = None
    if code == 0 and out.strip():
        result = json.loads(out)
    return code, result, err


# ---------------------------------------------------------------- transcript builders


def _amount(value: Any) -> str:
    return str(value)


def bet(player: str, wager: str, amount: Any, **qualifier: Any) -> dict[str, Any]:
    return {"player": player, "bet": wager, **qualifier, "amount": _amount(amount)}


def remove(player: str, wager: str, **qualifier: Any) -> dict[str, Any]:
    return {"player": player, "remove": wager, **qualifier}


def reduce(player: str, wager: str, amount: Any, **qualifier: Any) -> dict[str, Any]:
    return {"player": player, "reduce": wager, **qualifier, "amount": _amount(amount)}


def on(player: str, wager: str, **qualifier: Any) -> dict[str, Any]:
    return {"player": player, "on": wager, **qualifier}


def off(player: str, wager: str, **qualifier: Any) -> dict[str, Any]:
    return {"player": player, "off": wager, **qualifier}


def roll(d1: int, d2: int) -> dict[str, Any]:
    return {"roll": [d1, d2]}


def rolls(*dice: tuple[int, int] | list[int]) -> list[dict[str, Any]]:
    return [roll(d[0], d[1]) for d in dice]


def shooter(player: str) -> dict[str, Any]:
    return {"shooter": player}


def sit(player: str) -> dict[str, Any]:
    return {"player": player, "sit": True}


def stand(player: str) -> dict[str, Any]:
    return {"player": player, "stand": True}


def transcript(
    rules: str,
    actions: list[dict[str, Any]],
    players: dict[str, Any] | None = None,
    game: str = "craps",
    **options: Any,
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "game": game,
        "rules": rules,
        "players": {k: _amount(v) for k, v in (players or {"a": "100"}).items()},
        "actions": actions,
    }
    if options:
        doc["options"] = options
    return doc


def play(
    rules: str,
    actions: list[dict[str, Any]],
    players: dict[str, Any] | None = None,
    game: str = "craps",
    **options: Any,
) -> dict[str, Any]:
    """Replay a well-formed transcript; assert exit 0 and return the result."""
    doc = transcript(rules, actions, players, game, **options)
    code, result, err = run(doc)
    assert code == 0, f"exit {code}, stderr: {err.strip()}"
    assert result is not None
    return result


# ---------------------------------------------------------------- result readers


def money(value: Any) -> str:
    return f"{Decimal(str(value)):.2f}"


def bankroll(result: dict[str, Any], player: str = "a") -> str:
    return str(result["players"][player]["bankroll"])


def on_table(result: dict[str, Any], player: str = "a") -> str:
    return str(result["players"][player]["on_table"])


def check(result: dict[str, Any], player: str, bank: Any, table: Any) -> None:
    """Assert a player's bankroll and on_table (two-decimal strings per the contract)."""
    got = (bankroll(result, player), on_table(result, player))
    want = (money(bank), money(table))
    assert got == want, (
        f"{player}: (bankroll, on_table) = {got}, expected {want}; rejected={result.get('rejected')}"
    )


def rejected(result: dict[str, Any]) -> list[int]:
    return [int(r["index"]) for r in result["rejected"]]


def reasons(result: dict[str, Any]) -> list[str]:
    return [f"{r.get('reason', '')} {r.get('clause', '')}" for r in result["rejected"]]


def point(result: dict[str, Any]) -> Any:
    return result["state"]["point"]


def current_shooter(result: dict[str, Any]) -> Any:
    return result["state"]["shooter"]


def malformed(doc: dict[str, Any] | str) -> str:
    """Assert the contract's malformed behaviour; return the single stderr line."""
    code, out, err = run_raw(doc)
    assert code == 2, f"exit {code}, expected 2; stdout={out[:300]!r} stderr={err!r}"
    assert out == "", f"nothing may be printed on stdout, got {out[:300]!r}"
    line = err.strip()
    assert line, "stderr must carry one line naming the place"
    assert "\n" not in line, f"stderr must be ONE line, got {err!r}"
    return line
