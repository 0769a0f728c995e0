"""The ``croupier`` command line."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from collections.abc import Sequence

from croupier.errors import Malformed

# Each module has ``register(subparsers)`` adding its commands.
COMMAND_MODULES: tuple[str, ...] = (
    "croupier.analysis.commands",
    "croupier.sim.commands",
    "croupier.service.commands",
    "croupier.integrity.commands",
)


def _cmd_replay(args: argparse.Namespace) -> int:
    from croupier.transcript import replay_text

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{args.file}: cannot read: {exc}", file=sys.stderr)
        return 2
    try:
        result = replay_text(text)
    except Malformed as exc:
        print(str(exc).replace("\n", " "), file=sys.stderr)
        return 2
    sys.stdout.write(json.dumps(result, indent=2) + "\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="croupier",
        description="Craps and roulette exactly as New Jersey's regulations define them.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("replay", help="play a JSON transcript and print the JSON result")
    rep.add_argument("file", help="the transcript file, or - for standard input")
    rep.set_defaults(func=_cmd_replay)
    for module_name in COMMAND_MODULES:
        if importlib.util.find_spec(module_name) is None:  # TODO: all land; then strict
            continue
        module = importlib.import_module(module_name)
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        print(f"croupier: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
