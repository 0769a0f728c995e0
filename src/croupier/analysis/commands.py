"""The ``croupier edge``, ``croupier check`` and ``croupier trace`` commands.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="croupier")
>>> register(parser.add_subparsers(dest="command"))
>>> args = parser.parse_args(["edge", "--game", "craps", "--rules", "nj-13-69f",
...                           "--pay", "field:12=3 to 1"])
>>> args.pays
['field:12=3 to 1']
"""

from __future__ import annotations

import argparse
import json
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

from croupier.errors import Malformed
from croupier.games import GAME_NAMES, GAMES

EDGE_HELP = """\
Every wager the table offers, analysed exactly from the engine's own wager definitions (a
Markov chain over each wager's states, exact fractions).

Convention: house edge = expected net loss / total the player puts at risk when the wager is
made (the stake plus any commission paid at placement), per bet made, for one decision: a
standing bet (place, buy, lay, hardway) is counted until it first wins or loses and is always
working. "Per bet resolved" leaves pushes out. A push is a decided bet that returned its stake:
a don't pass meeting a come-out 12 is 3/220 per bet made and 27/1925 per bet resolved.
Commission on buy and lay is the exact rate on the stake (or, for lay under nj-casino-night,
on what the bet could win), per unit staked, without the table's rounding down to its unit;
collected at placement it is paid once per decision. Buy and lay are listed under every
commission timing the profile allows (buy:4:placement, buy:4:win), the fire bet under both
pay tables (fire:A, fire:B) with the probabilities of 4, 5 and 6 different points. The
standard deviation is of the net result per unit staked; "rolls" is the expected number of
rolls (spins) to the decision.
"""


def register(subparsers: Any) -> None:
    """Add ``edge``, ``check`` and ``trace`` to the ``croupier`` command line."""
    edge = subparsers.add_parser(
        "edge", help="exact house edge, variance and time to decision of every wager",
        description=EDGE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    edge.add_argument("--game", default="craps", choices=GAME_NAMES)
    edge.add_argument("--rules", default="nj-13-69f", help="rule profile (default nj-13-69f)")
    edge.add_argument("--option", dest="options", action="append", default=[],
                      metavar="KEY=VALUE", help="a table option, VALUE as JSON or text "
                      "(vig=0.04, vig_collected=win, odds=3-4-5); repeatable")
    edge.add_argument("--pay", dest="pays", action="append", default=[], metavar="KEY=ODDS",
                      help='a payout above the minimum: --pay "field:12=3 to 1"; repeatable')
    edge.add_argument("--options-file", help="a JSON or TOML file of table options")
    edge.add_argument("--wheel", help="roulette wheel: double-zero, single-zero, "
                      "double-zero-as-single")
    edge.add_argument("--zero-rule", help="roulette even-money wagers on 0/00: full or half")
    edge.add_argument("--json", action="store_true", help="a JSON array of objects")
    edge.set_defaults(func=cmd_edge)

    check = subparsers.add_parser(
        "check", help="check proposed pay tables and options against a profile",
        description="Each file is a proposal (JSON or TOML: game, rules, options, pays, "
        "wagers). Exit 0 when compliant, 1 when not, 2 when a file is malformed.")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.add_argument("--json", action="store_true")
    check.set_defaults(func=cmd_check)

    trace = subparsers.add_parser(
        "trace", help="every clause of the regulations with the code and tests citing it",
        description="Reads the regulation texts, the rule profiles, the package's docstrings "
        "and the tests' clause markers (without running them).")
    trace.add_argument("--regulations", help="folder of the regulation texts "
                       "(default ../shared/regulations beside the repository)")
    trace.add_argument("--tests", help="the tests folder (default: the repository's)")
    fmt = trace.add_mutually_exclusive_group()
    fmt.add_argument("--markdown", action="store_true", help="Markdown (docs/traceability.md)")
    fmt.add_argument("--json", action="store_true")
    trace.set_defaults(func=cmd_trace)


def _value(text: str) -> Any:
    try:
        return json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError:
        return text


def edge_options(args: argparse.Namespace) -> dict[str, Any]:
    """The table options the ``edge`` arguments describe."""
    options: dict[str, Any] = {}
    if args.options_file:
        from croupier.analysis.compliance import read_document

        options.update(read_document(args.options_file))
    for item in args.options:
        key, sep, value = item.partition("=")
        if not sep:
            raise Malformed(f"--option {item}", "expected KEY=VALUE")
        options[key.strip()] = _value(value.strip())
    pays = dict(options.get("pays", {}))
    for item in args.pays:
        key, sep, value = item.partition("=")
        if not sep:
            raise Malformed(f"--pay {item}", 'expected KEY=ODDS, as "field:12=3 to 1"')
        pays[key.strip()] = value.strip()
    if pays:
        options["pays"] = pays
    if args.wheel is not None:
        options["wheel"] = args.wheel
    if args.zero_rule is not None:
        options["zero_rule"] = args.zero_rule
    return options


def cmd_edge(args: argparse.Namespace) -> int:
    from croupier.analysis.exact import analyse

    try:
        rows = analyse(args.game, args.rules, edge_options(args))
    except Malformed as exc:
        print(f"croupier edge: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([r.to_json() for r in rows], indent=2))
        return 0
    unit = GAMES[args.game].decisions
    header = (f"{'wager':<18} {'edge/bet made':>16} {'%':>8} {'edge/resolved':>15} "
              f"{'P(win)':>8} {'P(lose)':>8} {'P(push)':>8} {'sd':>7} {unit:>6}")
    print(f"{args.game} under {args.rules}: house edge per unit at risk, one decision "
          "(see --help)")
    print(header)
    print("-" * len(header))
    for r in rows:
        edge = str(r.house_edge)
        if len(edge) > 16:
            edge = "(see --json)"
        resolved = str(r.house_edge_resolved)
        if len(resolved) > 15:
            resolved = "(see --json)"
        mark = "" if r.as_configured else "  (not this table's setting)"
        print(f"{r.wager:<18} {edge:>16} {float(r.house_edge) * 100:>7.3f}% {resolved:>15} "
              f"{float(r.p_win):>8.5f} {float(r.p_lose):>8.5f} {float(r.p_push):>8.5f} "
              f"{r.sd:>7.3f} {float(r.expected_rolls):>6.3f}{mark}")
    fire = [r for r in rows if r.wager.startswith("fire:")]
    if fire:
        points = {k: fire[0].probability(f"win:fire:{k}") for k in (4, 5, 6)}
        print("fire bet, probability that the hand makes exactly: " + ", ".join(
            f"{k} points {points[k]} ({float(points[k]):.8f})" for k in (4, 5, 6)))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from croupier.analysis.compliance import check_documents, read_document

    try:
        docs = [(Path(f).name, read_document(f)) for f in args.files]
        report = check_documents(docs)
    except Malformed as exc:
        print(f"croupier check: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
        return 0 if report.compliant else 1
    for table in report.tables:
        print(f"{table.name}: {table.game} under {table.profile}: "
              f"{'compliant' if table.compliant else 'NOT COMPLIANT'}")
        for e in table.entries:
            edge = "" if e.edge is None else f"{float(e.edge) * 100:7.3f}% ({e.edge})"
            proposed = e.proposed if e.proposed is not None else "(minimum)"
            line = (f"  {e.key:<22} min {e.minimum or '-':<10} proposed {proposed:<12} "
                    f"{edge:<28} {e.verdict}")
            if e.reason:
                line += f": {e.reason} ({e.clause})" if e.clause else f": {e.reason}"
            print(line)
    for e in report.uniformity:
        print(f"{e.table}: {e.key}: {e.verdict}: {e.reason} ({e.clause})")
    print("compliant" if report.compliant else "not compliant")
    return 0 if report.compliant else 1


def cmd_trace(args: argparse.Namespace) -> int:
    from croupier.analysis.trace import ROOT, build_trace, render_markdown, render_text

    regulations = Path(args.regulations) if args.regulations else None
    tests = Path(args.tests) if args.tests else ROOT / "tests"
    try:
        trace = build_trace(regulations, tests)
    except OSError as exc:
        print(f"croupier trace: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(trace.to_json(), indent=2))
    elif args.markdown:
        sys.stdout.write(render_markdown(trace))
    else:
        sys.stdout.write(render_text(trace))
    return 0
