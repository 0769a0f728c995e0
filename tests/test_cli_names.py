"""Every name the command line reads (a command, an option, a strategy, a rule profile, a game, a
wager, a table option, a pay-table entry) is checked, and a misspelt one is refused with the name
meant ("did you mean"); a bad option prints the usage of the command it was given to.

The names suggested here are the ones a person meant (the correct spelling), written by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from croupier.cli import COMMAND_MODULES, main

COMMANDS = sorted({"replay", *COMMAND_MODULES})
NESTED = [("users", "unlock"), ("users", "reset-password"), ("audit", "verify"),
          ("audit", "export"), ("audit", "verify-bundle"), ("audit", "rotate-key")]


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Standard error of a command line argparse refuses (exit 2)."""
    with pytest.raises(SystemExit) as done:
        main(list(argv))
    assert done.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err


def _fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Standard error of a command that runs and exits 2 (malformed input)."""
    assert main(list(argv)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1, err  # one line
    return err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_bad_option_prints_the_commands_own_usage(command: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    # The command's required arguments (audit and users: a verb), so that only the option is wrong.
    given = {"replay": ["t.json"], "check": ["p.json"], "session": ["pass-line"],
             "audit": ["verify"], "users": ["unlock", "someone"], "backup": ["copy.db"],
             "restore": ["copy.db"]}.get(command, [])
    err = _refused(capsys, command, *given, "--no-such-option")
    own = " ".join([command, *given[:1]]) if command in ("audit", "users") else command
    assert err.startswith(f"usage: croupier {own} ")
    assert f"croupier {own}: error: unrecognized arguments: --no-such-option" in err
    assert "{replay," not in err  # not the cut-down usage of croupier itself


@pytest.mark.parametrize(("command", "verb"), NESTED)
def test_a_bad_option_of_a_verb_prints_the_verbs_usage(command: str, verb: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    # The verbs' positional arguments, so that only the option is wrong.
    extra = {"unlock": ["someone"], "reset-password": ["someone"], "export": ["b.json"],
             "verify-bundle": ["b.json"]}.get(verb, [])
    err = _refused(capsys, command, verb, *extra, "--no-such-option")
    assert err.startswith(f"usage: croupier {command} {verb} ")
    assert f"croupier {command} {verb}: error: unrecognized arguments: --no-such-option" in err


@pytest.mark.parametrize(("argv", "meant"), [
    (("simulate", "--sesions", "10", "pass-line"), "--sessions"),
    (("edge", "--rule", "nj-13-69f", "--jsn"), "--json"),
    (("integrity", "--horizn", "5"), "--horizon"),
    (("audit", "verify", "--jsn"), "--json"),
    (("serve", "--prot", "8001"), "--port"),
])
def test_a_misspelt_option_gets_did_you_mean(argv: tuple[str, ...], meant: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, *argv)
    assert err.rstrip().endswith(f'did you mean "{meant}"?')


@pytest.mark.parametrize(("argv", "what", "meant"), [
    (("simlate",), 'command "simlate"', "simulate"),
    (("edge", "--game", "crasp"), 'game "crasp"', "craps"),
    (("edge", "--game", "roulette", "--wheel", "double-zer"), 'wheel "double-zer"', "double-zero"),
    (("edge", "--game", "roulette", "--zero-rule", "halve"), 'zero rule "halve"', "half"),
    (("integrity", "--wheel-type", "singel-zero"), 'wheel type "singel-zero"', "single-zero"),
    (("simulate", "--plot-format", "svgg", "pass-line"), 'plot format "svgg"', "svg"),
    (("serve", "--access-log", "of"), 'access log "of"', "off"),
])
def test_a_misspelt_choice_gets_did_you_mean(argv: tuple[str, ...], what: str, meant: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    err = _refused(capsys, *argv)
    assert f"unknown {what}" in err
    assert err.rstrip().endswith(f'did you mean "{meant}"?')


def test_simulate_rules_says_what_is_wrong_and_suggests_the_profile(
        capsys: pytest.CaptureFixture[str]) -> None:
    err = _fails(capsys, "simulate", "--rules", "nj-13-96f", "pass-line")
    assert err == ('croupier simulate: --rules: unknown rule profile "nj-13-96f"; expected one of '
                   'nj-casino-night, nj-19-47, nj-13-69f; did you mean "nj-13-69f"?\n')
    err = _fails(capsys, "session", "--rules", "nj-13-96f", "pass-line")
    assert err.startswith('croupier session: --rules: unknown rule profile "nj-13-96f"')
    assert err.endswith('did you mean "nj-13-69f"?\n')


@pytest.mark.parametrize("command", ["simulate", "session"])
@pytest.mark.parametrize(("typed", "meant"), [("ironcross", "iron-cross"),
                                              ("pass-lines", "pass-line"),
                                              ("martingale", "martingale-red")])
def test_a_misspelt_strategy_gets_did_you_mean(command: str, typed: str, meant: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    err = _fails(capsys, command, typed)
    assert f'STRATEGY: unknown strategy "{typed}"' in err
    assert "croupier simulate --list shows the built-ins" in err
    assert err.endswith(f'did you mean "{meant}"?\n')


def _strategy(tmp_path: Path, text: str) -> str:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


PASS_BET = '[[bets]]\nwager = "pass"\namount = 5\n'


@pytest.mark.parametrize(("text", "where", "meant"), [
    ('name = "mine"\n[[bets]]\nwager = "plase_win"\nnumber = 6\namount = 6\n',
     'mine.bets[0].wager: unknown craps wager "plase_win"', "place_win"),
    ('name = "mine"\ngame = "roulette"\n[[bets]]\nwager = "redd"\namount = 5\n',
     'redd: unknown roulette wager "redd"', "red"),
    ('name = "mine"\nrules = "nj-13-96f"\n' + PASS_BET,
     'mine.toml.rules: unknown rule profile "nj-13-96f"', "nj-13-69f"),
    ('name = "mine"\ngame = "crasp"\n' + PASS_BET, 'mine.toml.game: unknown game "crasp"', "craps"),
    ('name = "mine"\nrule = "nj-13-69f"\n' + PASS_BET,
     'mine.toml.rule: unknown strategy key "rule"', "rules"),
    ('name = "mine"\n[[bets]]\nwager = "pass"\namont = 5\n',
     'mine.toml.bets[0].amont: unknown bet rule key "amont"', "amount"),
    ('name = "mine"\n[table]\nvigg = "0.04"\n' + PASS_BET,
     'mine.table.options.vigg: unknown craps table option "vigg"', "vig"),
])
@pytest.mark.parametrize("command", ["simulate", "session"])
def test_names_in_a_strategy_file_get_did_you_mean(command: str, text: str, where: str, meant: str,
                                                   tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    more = ["--sessions", "1"] if command == "simulate" else ["--goal", "100"]
    argv = [command, _strategy(tmp_path, text), *more]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert where in err
    assert err.rstrip().endswith(f'did you mean "{meant}"?')


@pytest.mark.parametrize(("argv", "where", "meant"), [
    (("edge", "--rules", "nj-13-96f"), '--rules: unknown rule profile "nj-13-96f"', "nj-13-69f"),
    (("edge", "--option", "vigg=0.04"), '--option vigg: unknown craps table option "vigg"', "vig"),
    (("edge", "--game", "roulette", "--option", "wheels=single-zero"),
     '--option wheels: unknown roulette table option "wheels"', "wheel"),
    (("edge", "--pay", "fiield:12=3 to 1"), '--pay fiield:12: unknown pay-table entry "fiield:12"',
     "field:12"),
    (("edge", "--game", "roulette", "--pay", "straigth=36 to 1"),
     '--pay straigth: unknown pay-table entry "straigth"', "straight"),
    (("rules", "--posted", "--game", "roullete"), '--game: unknown game "roullete"', "roulette"),
    (("rules", "--posted", "--rules", "nj-19-74"), '--rules: unknown rule profile "nj-19-74"',
     "nj-19-47"),
    (("rules", "--posted", "--option", "min_bett=5"),
     '--option min_bett: unknown craps table option "min_bett"', "min_bet"),
])
def test_names_on_the_analysis_command_lines_get_did_you_mean(
        argv: tuple[str, ...], where: str, meant: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = _fails(capsys, *argv)
    assert where in err
    assert err.endswith(f'did you mean "{meant}"?\n')


@pytest.mark.parametrize(("doc", "where", "meant"), [
    ({"game": "crasp", "rules": "nj-13-69f"}, 'game: unknown game "crasp"', "craps"),
    ({"rules": "nj-13-96f"}, 'rules: unknown rule profile "nj-13-96f"', "nj-13-69f"),
    ({"rules": "nj-13-69f", "pay": {}}, 'pay: unknown key "pay"', "pays"),
    ({"rules": "nj-13-69f", "options": {"vigg": "0.04"}},
     'options.vigg: unknown craps table option "vigg"', "vig"),
])
def test_names_in_a_proposal_file_get_did_you_mean(doc: dict[str, object], where: str, meant: str,
                                                   tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "proposal.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"croupier check: proposal.json: {where}" in err
    assert f'did you mean "{meant}"?' in err
    # The options file of edge is read the same way.
    if "options" in doc or "game" in doc:
        assert main(["edge", "--options-file", str(path)]) == 2
        assert f'did you mean "{meant}"?' in capsys.readouterr().err


def test_a_correct_name_still_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["edge", "--game", "roulette", "--wheel", "single-zero", "--option", "unit=1",
                 "--pay", "straight=36 to 1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert any(r["wager"] == "straight" for r in rows)
