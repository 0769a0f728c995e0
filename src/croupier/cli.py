"""The ``croupier`` command line."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from croupier.errors import Malformed
from croupier.reading import did_you_mean, unknown_name

# Each module has ``register(subparsers)`` adding its commands. A module is imported only when
# one of its commands runs (or for --help), so ``croupier replay`` starts fast.
COMMAND_MODULES: dict[str, str] = {
    "edge": "croupier.analysis.commands",
    "check": "croupier.analysis.commands",
    "trace": "croupier.analysis.commands",
    "wagers": "croupier.analysis.commands",
    "rules": "croupier.analysis.jurisdictions",
    "simulate": "croupier.sim.commands",
    "session": "croupier.sim.session_commands",
    "serve": "croupier.service.commands",
    "recall": "croupier.service.commands",
    "init": "croupier.service.commands",
    "users": "croupier.service.commands",
    "audit": "croupier.service.commands",
    "backup": "croupier.service.commands",
    "restore": "croupier.service.commands",
    "integrity": "croupier.integrity.commands",
    "rng-test": "croupier.integrity.commands",
}


# Every character str.splitlines (and a reader's universal newlines) breaks a line at.
_LINE_BREAKS = {ord(c): f"\\u{ord(c):04x}" for c in "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}


def one_line(message: str) -> str:
    r"""``message`` as the one line the replay contract puts on standard error: a name from the
    transcript (a key, a player) may carry any character, and a carriage return or a Unicode
    line separator in it split the line for a reader as a newline does.

    >>> one_line('x\ry: not a top-level key')
    'x\\u000dy: not a top-level key'
    """
    return message.replace("\n", " ").translate(_LINE_BREAKS)


def _cmd_replay(args: argparse.Namespace) -> int:
    from croupier.reading import load_json
    from croupier.transcript import replay

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
        doc = load_json(text)
        result = replay(doc)
    except Malformed as exc:
        print(one_line(str(exc)), file=sys.stderr)
        return 2
    if args.summary:
        from croupier.replay_summary import summarize

        # The transcript as the replay read it: parsed again by json.loads, a number the
        # replay took (an integer of 4,300 digits or more in a comment) stopped the summary.
        sys.stdout.write(summarize(doc, result) + "\n")
    else:
        sys.stdout.write(json.dumps(result, indent=2) + "\n")
    return 0


EXIT_CODES = """\
exit status (README.md has the table):
  0  done: well formed, compliant, every set ok, a pass, verified, printed
  1  check: not compliant; recall: no such round or player; serve: cannot listen (a port in
     use); users: no such user; audit: problems found; restore: refused; an internal error
  2  malformed input or options (one line per problem on standard error, naming the place);
     no ledger, or one that cannot be used
  3  integrity: an alert; rng-test: a fail; serve: the ledger failed its start-up audit
  4  integrity: no alert, but too little data to judge a set
"""


class Parser(argparse.ArgumentParser):
    """argparse as croupier uses it (every command's parser is one: argparse makes subparsers
    of the parser's own class): a name that is not among an argument's choices (a command,
    ``--game``, ``--wheel-type``, ...) is refused with the names expected and the nearest one
    (:func:`croupier.reading.unknown_name`, the helper every name on the command line goes
    through); an unknown option is refused by the command's own parser, showing its usage."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse's own hook for choices (every choice passes here), with the message ours.
        if action.choices is not None and value not in action.choices:
            command = isinstance(action, argparse._SubParsersAction)
            what = "command" if command else action.dest.replace("_", " ")
            raise argparse.ArgumentError(action, unknown_name(value, action.choices, what, "").message)

    def unrecognized(self, extra: Sequence[str]) -> NoReturn:
        """Refuse arguments this parser does not know, with the nearest option to the first."""
        options = [s for action in self._actions for s in action.option_strings]
        first = next((a.split("=")[0] for a in extra if a.startswith("-")), None)
        hint = did_you_mean(first, options) if first else ""
        self.error(f"unrecognized arguments: {' '.join(extra)}{hint}")


def command_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)command ``args`` chose (``audit verify``'s for ``croupier audit
    verify ...``), or ``parser`` itself when none was chosen."""
    while True:
        chosen = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)
                  and getattr(args, a.dest, None) in a.choices]
        if not chosen:
            return parser
        parser = chosen[0].choices[getattr(args, chosen[0].dest)]


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command`` given, only the module that holds it is imported."""
    parser = Parser(
        prog="croupier",
        description="Craps and roulette exactly as New Jersey's regulations define them.",
        epilog=EXIT_CODES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser(
        "replay", help="play a JSON transcript and print the JSON result",
        description="Plays a transcript (docs/transcripts.md) through the rules engine.",
        epilog="exit status: 0 a well-formed transcript (refused actions are listed in the "
        "result and change nothing), 2 a malformed one (one line on standard error naming "
        "the place).")
    rep.add_argument("file", help="the transcript file, or - for standard input")
    rep.add_argument("--summary", action="store_true",
                     help="a short summary for a person (decisions, refusals with their "
                     "clause, each player's bankroll) instead of the JSON result")
    rep.set_defaults(func=_cmd_replay)
    if command in COMMAND_MODULES:
        wanted = [COMMAND_MODULES[command]]
    elif command == "replay":
        wanted = []
    else:
        wanted = list(dict.fromkeys(COMMAND_MODULES.values()))
    for module_name in wanted:
        importlib.import_module(module_name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv[0] if argv else None)
    args, extra = parser.parse_known_args(argv)
    if extra:
        own = command_parser(parser, args)
        if isinstance(own, Parser):
            own.unrecognized(extra)
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``croupier edge | head``): not an error of ours.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:
        print(f"croupier: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
