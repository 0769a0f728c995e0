"""Every command and option of ``croupier`` says what it is for, and every --help works."""

from __future__ import annotations

import argparse

import pytest

from croupier.cli import COMMAND_MODULES, build_parser


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_registered_command_is_on_the_parser() -> None:
    assert set(_commands()) == {"replay", *COMMAND_MODULES}


@pytest.mark.parametrize("command", sorted({"replay", *COMMAND_MODULES}))
def test_every_option_has_a_help_text(command: str) -> None:
    parser = _commands()[command]
    missing = [a.option_strings or a.dest for a in parser._actions if not a.help]
    assert missing == []


@pytest.mark.parametrize("command", sorted({"replay", *COMMAND_MODULES}))
def test_help_exits_0(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        build_parser(command).parse_args([command, "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: croupier {command}")
