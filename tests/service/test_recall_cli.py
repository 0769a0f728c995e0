"""``croupier recall`` on a real ledger: a readable table with ISO-8601 times by default, the
records with ``--json``, and an unknown round or player an error (exit 1), never ``[]``.

The ledger is made by ``croupier init --demo`` and played through the real app in process (no
server process): alice bets the pass line and the field, the dealer rolls physical dice.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from croupier.cli import main

PASSWORD = "recall-test-pass-1"
ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    from croupier.service import install, preflight
    from croupier.service.app import create_app
    from croupier.service.audit import keys, verify
    from croupier.service.rng import make_rng

    data = tmp_path_factory.mktemp("recall-ledger")
    # A test ledger: the app refuses a seeded RNG on any other.
    install.init(data, None, None, install.FirstUsers(demo=True, demo_password=PASSWORD),
                 test_mode=True)
    engine = preflight.open_ledger(data, None)
    key_path = keys.key_path(data, None)
    verify.configure(keys.load_key(key_path), install.pin_path(key_path))
    client = TestClient(create_app(engine, make_rng(7, True)))

    def post(user: str, path: str, body: dict[str, Any]) -> None:
        token = client.post("/auth/login", json={"username": user, "password": PASSWORD})
        answer = client.post(path, json=body, headers={
            "Authorization": f"Bearer {token.json()['token']}", "Idempotency-Key": path + user
            + json.dumps(body)})
        assert answer.status_code == 200, answer.text

    post("alice", "/tables/craps-1/buy-in", {"amount": "50"})
    post("dealer", "/tables/craps-1/dice/offer", {"serials": [f"NJ-{i:04d}" for i in range(1, 6)]})
    post("dealer", "/tables/craps-1/dice/select", {"serials": ["NJ-0001", "NJ-0002"]})
    post("alice", "/tables/craps-1/bets", {"wager": "pass", "amount": "5"})
    post("alice", "/tables/craps-1/bets", {"wager": "field", "amount": "5"})
    post("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})
    client.close()
    engine.dispose()
    yield data


def _recall(capsys: pytest.CaptureFixture[str], ledger: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["recall", "--data-dir", str(ledger), *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_round_reads_as_tables_with_iso_times(ledger: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _recall(capsys, ledger, "craps-1", "1")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "craps table craps-1, round 1: rolled 3 + 4 = 7"
    assert re.search(rf"decided at {ISO}; draw: entered by dealer", lines[1])
    assert "{" not in out and "null" not in out
    bets = out[out.index("Bets"):out.index("Settlements")]
    assert re.search(rf"{ISO}\s+alice\s+bet\s+pass\s+5\.00", bets)
    settled = out[out.index("Settlements"):out.index("Balances")]
    # A come-out 7: the pass line wins 1 to 1 (13:69F-1.2(a)1), the field loses.
    assert re.search(r"alice\s+pass\s+5\.00\s+win\s+5\.00", settled)
    assert re.search(r"alice\s+field\s+5\.00\s+lose", settled)
    balances = out[out.index("Balances"):]
    assert re.search(r"alice\s+40\.00\s+10\.00\s+50\.00\s+0\.00", balances)


def test_json_gives_the_records(ledger: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _recall(capsys, ledger, "craps-1", "1", "--json")
    record = json.loads(out)
    assert code == 0 and record["outcome"]["total"] == 7
    assert record["balances"]["after"]["alice"] == {"chips": "50.00", "on_table": "0.00"}
    code, out, _ = _recall(capsys, ledger, "--player", "alice", "--json")
    assert code == 0 and [r["round"] for r in json.loads(out)] == [1]


def test_a_players_rounds(ledger: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _recall(capsys, ledger, "--player", "alice")
    assert code == 0
    assert out.startswith("alice's last round\n")
    assert re.search(rf"{ISO}\s+craps-1\s+1\s+rolled 3 \+ 4 = 7\s+40\.00\s+50\.00\s+0\.00", out)
    code, out, _ = _recall(capsys, ledger, "--player", "bob")  # a player who has not played
    assert code == 0 and out == "bob has no decided rounds yet.\n"


def test_unknown_rounds_and_players_are_errors(ledger: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in ((("--player", "zelda"), "there is no player 'zelda'"),
                          (("--player", "zelda", "--json"), "there is no player 'zelda'"),
                          (("craps-1", "99"), "no round 99 at table craps-1"),
                          (("nowhere", "1"), "no round 1 at table nowhere"),
                          # A misspelt name gets the nearest one.
                          (("--player", "alise"), "there is no player 'alise'; did you mean \"alice\"?"),
                          (("crapz-1", "1"), "no round 1 at table crapz-1; did you mean \"craps-1\"?")):
        code, out, err = _recall(capsys, ledger, *argv)
        assert (code, out) == (1, ""), argv
        assert err == f"croupier recall: {message}\n"


def test_no_ledger_or_no_question_is_exit_2(ledger: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _recall(capsys, ledger)
    assert code == 2 and "give TABLE ROUND, or --player NAME" in err
    code = main(["recall", "--data-dir", str(tmp_path), "craps-1", "1"])
    assert code == 2 and "no ledger in" in capsys.readouterr().err
