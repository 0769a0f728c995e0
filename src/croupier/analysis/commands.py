"""The ``croupier edge``, ``check``, ``trace`` and ``wagers`` commands.

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
import textwrap
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from croupier.analysis.options import (
    DEFAULT_RULES,
    check_game,
    check_options,
    check_pays,
    check_rules,
    default_rules,
)
from croupier.analysis.options import option_value as _value
from croupier.errors import Malformed
from croupier.games import GAME_NAMES, GAMES
from croupier.money import fmt, parse_amount
from croupier.roulette.reading import ZERO_RULES
from croupier.roulette.wheel import WHEELS

if TYPE_CHECKING:
    from croupier.analysis.compliance import TableReport

EDGE_HELP = """\
Every wager the table offers, analysed exactly from the engine's own wager definitions (a
Markov chain over each wager's states, exact fractions).

Convention: house edge = expected net loss / total the player puts at risk when the wager is
made (the stake plus any commission paid at placement), per bet made, for one decision: a
standing bet (place, buy, lay, hardway) is counted until it first wins or loses and is always
working. "Per bet resolved" leaves pushes out. A push is a decided bet that returned its stake:
a don't pass meeting a come-out 12 is 3/220 per bet made and 27/1925 per bet resolved.
Commission on buy and lay is the exact rate on the stake (or, for lay under nj-casino-night,
on what the bet could win), per unit staked, without the table's rounding down to its unit
(with --stake AMOUNT, as the table really takes it on that stake, rounded down: a buy of 19
on 4 pays none); collected at placement it is paid once per decision. Buy and lay are listed under every
commission timing the profile allows (buy:4:placement, buy:4:win), the fire bet under both
pay tables (fire:A, fire:B) with the probabilities of 4, 5 and 6 different points. The
standard deviation is of the net result per unit staked; "rolls" is the expected number of
rolls (spins) to the decision.
"""

_PROPOSAL_KEYS = ("game", "rules", "table", "options", "wagers")


def _read_options_file(path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(header, options) of a file: either a proposal as ``check`` reads it (``game``,
    ``rules``, ``table``, ``options``, ``pays``, ``wagers``) or a bare object of options."""
    from croupier.analysis.compliance import read_document

    doc = read_document(path)
    if not any(key in doc for key in _PROPOSAL_KEYS):
        return {}, doc
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise Malformed(f"{path}: options", "must be an object")
    options = dict(options)
    pays = doc.get("pays", {})
    if not isinstance(pays, dict):
        raise Malformed(f"{path}: pays", "must be an object of pay-table entries")
    if pays:
        options["pays"] = {**options.get("pays", {}), **pays}
    header: dict[str, Any] = {k: doc[k] for k in ("game", "rules", "table") if k in doc}
    return header, options


def edge_table(args: argparse.Namespace) -> tuple[str, str, dict[str, Any], str]:
    """The game, the profile, the table options and the table's name (or "") that the
    ``edge`` arguments describe; the command line wins over the options file, which must not
    contradict it."""
    header: dict[str, Any] = {}
    options: dict[str, Any] = {}
    if args.options_file:
        header, options = _read_options_file(args.options_file)
    for key in ("game", "rules"):
        given = getattr(args, key)
        if given is not None and key in header and header[key] != given:
            raise Malformed(f"--{key} {given}",
                            f"{args.options_file} is for {key} {header[key]!r}")
    # Every name is checked here, with the nearest one suggested: the game, the profile, each
    # option (from the file or --option) and each pay-table entry (--pay or the file's pays).
    source = args.options_file or "--option"
    game = args.game or check_game(header.get("game", "craps"), f"{source}: game")
    rules = args.rules or header.get("rules") or default_rules(game)
    check_rules(rules, "--rules" if args.rules else f"{source}: rules")
    check_options(game, options, f"{source}: options.{{key}}")
    _command_line_options(args.options, game, options)
    pays = dict(options.get("pays", {}))
    if isinstance(options.get("pays", {}), dict):
        check_pays(game, rules, pays, f"{source}: pays.{{key}}")
    _command_line_pays(args.pays, game, rules, pays)
    if pays:
        options["pays"] = pays
    if args.wheel is not None:
        options["wheel"] = args.wheel
    if args.zero_rule is not None:
        options["zero_rule"] = args.zero_rule
    return game, str(rules), options, str(header.get("table", ""))


def _command_line_options(items: list[str], game: str, options: dict[str, Any]) -> None:
    """``--option KEY=VALUE``s into ``options``, each name checked."""
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise Malformed(f"--option {item}", "expected KEY=VALUE")
        check_options(game, {key.strip(): None}, "--option {key}")
        options[key.strip()] = _value(value.strip())


def _command_line_pays(items: list[str], game: str, rules: str, pays: dict[str, Any]) -> None:
    """``--pay KEY=ODDS``s into ``pays``, each pay-table entry checked."""
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise Malformed(f"--pay {item}", 'expected KEY=ODDS, as "field:12=3 to 1"')
        check_pays(game, rules, {key.strip(): None}, "--pay {key}")
        pays[key.strip()] = value.strip()


def _exact_or_decimal(value: Fraction, width: int) -> str:
    """The exact fraction when it fits the column, else a decimal (--json has it exact)."""
    text = str(value)
    return text if len(text) <= width else f"{float(value):.{width - 2}f}"


def cmd_edge(args: argparse.Namespace) -> int:
    """The edge table (or --json) of one game under one profile; 2 when malformed."""
    from croupier.analysis.family import open_table

    try:
        game, rules, options, name = edge_table(args)
        stake = (parse_amount(args.stake, f"--stake {args.stake}")
                 if args.stake is not None else None)
        opened = open_table(game, rules, options)
        rows = opened.analysis.edges(opened, stake)
        notes = opened.analysis.edge_notes(opened)
    except Malformed as exc:
        print(f"croupier edge: {exc}", file=sys.stderr)
        return 2
    if args.json:
        out = [r.to_json() for r in rows]
        for item in out:
            said = notes.get(str(item["wager"]).split(":")[0])
            if said:
                item["note"] = " ".join(said)
        print(json.dumps(out, indent=2))
        return 0
    _print_edge(game, rules, name, rows, stake)
    for note in dict.fromkeys(n for said in notes.values() for n in said):
        print(textwrap.fill(f"note: {note}", width=100, subsequent_indent="  "))
    return 0


def _print_edge(game: str, rules: str, name: str, rows: list[Any],
                stake: Decimal | None = None) -> None:
    """The edge table: exact fractions where they fit, decimals otherwise."""
    unit = GAMES[game].decisions
    header = (f"{'wager':<18} {'edge/bet made':>16} {'%':>8} {'edge/resolved':>15} "
              f"{'P(win)':>8} {'P(lose)':>8} {'P(push)':>8} {'sd':>7} {unit:>6}")
    at = (f" at a stake of {fmt(stake)} (commission as the table takes it, rounded down "
          "to its unit)") if stake is not None else ""
    print(f"{name + ': ' if name else ''}{game} under {rules}: house edge per unit at risk, "
          f"one decision{at} (see --help)")
    print(header)
    print("-" * len(header))
    for r in rows:
        mark = "" if r.as_configured else "  (not this table's setting)"
        mark += "".join(f"  ({note})" for note in r.notes)
        print(f"{r.wager:<18} {_exact_or_decimal(r.house_edge, 16):>16} "
              f"{float(r.house_edge) * 100:>7.3f}% "
              f"{_exact_or_decimal(r.house_edge_resolved, 15):>15} "
              f"{float(r.p_win):>8.5f} {float(r.p_lose):>8.5f} {float(r.p_push):>8.5f} "
              f"{r.sd:>7.3f} {float(r.expected_rolls):>6.3f}{mark}")
    fire = [r for r in rows if r.wager.startswith("fire:")]
    if fire:
        points = {k: fire[0].probability(f"win:fire:{k}") for k in (4, 5, 6)}
        print("fire bet, probability that the hand makes exactly: " + ", ".join(
            f"{k} points {float(points[k]):.8f}" for k in (4, 5, 6))
            + " (exact fractions with --json)")


EXIT_CODES = """\
exit status: 0 done (check: compliant), 1 check: not compliant, 2 malformed input (each
malformed value on its own line on standard error)."""


def register(subparsers: Any) -> None:
    """Add ``edge``, ``check``, ``trace`` and ``wagers`` to the ``croupier`` command line."""
    edge = subparsers.add_parser(
        "edge", help="exact house edge, variance and time to decision of every wager",
        description=EDGE_HELP, epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    edge.add_argument("--game", choices=GAME_NAMES,
                      help="the game (default: the options file's, else craps)")
    edge.add_argument("--rules", help="rule profile (default: the options file's, else "
                      + ", ".join(f"{r} for {g}" for g, r in DEFAULT_RULES.items()) + ")")
    edge.add_argument("--option", dest="options", action="append", default=[],
                      metavar="KEY=VALUE", help="a table option, VALUE as JSON or text "
                      "(vig=0.04, vig_collected=win, odds=3-4-5); repeatable")
    edge.add_argument("--pay", dest="pays", action="append", default=[], metavar="KEY=ODDS",
                      help='a payout above the minimum: --pay "field:12=3 to 1"; repeatable')
    edge.add_argument("--options-file", metavar="FILE",
                      help="table options from a JSON or TOML file: a proposal as check reads "
                      "it (its game, rules, options and pays; examples/house-table.toml) or an "
                      "object of options; --option and --pay add to it")
    edge.add_argument("--wheel", choices=tuple(WHEELS), help="roulette wheel: double-zero, "
                      "single-zero, double-zero-as-single")
    edge.add_argument("--zero-rule", choices=ZERO_RULES,
                      help="roulette even-money wagers on 0/00: full or half")
    edge.add_argument("--stake", metavar="AMOUNT",
                      help="the edge a player really gets betting AMOUNT: buy and lay "
                      "commission as the table takes it on that stake, rounded down to its "
                      "unit (a buy of 19 on 4 pays none), and each wager the table would "
                      "refuse at that stake marked with the reason (craps)")
    edge.add_argument("--json", action="store_true",
                      help="a JSON array of objects, every figure also as an exact fraction")
    edge.set_defaults(func=cmd_edge)

    check = subparsers.add_parser(
        "check", help="check proposed pay tables and options against a profile",
        description="Each file is a proposal (JSON or TOML: game, rules, table, options, pays, "
        "wagers). Every entry gets its regulatory minimum, the proposal, the house edge and a "
        "verdict; several files are also checked for payouts that differ between tables.",
        epilog=EXIT_CODES)
    check.add_argument("files", nargs="+", metavar="FILE", help="proposal files")
    check.add_argument("--all", action="store_true",
                       help="list every pay-table entry, not only the proposed and refused ones")
    check.add_argument("--json", action="store_true", help="one JSON object with every entry")
    check.set_defaults(func=cmd_check)

    trace = subparsers.add_parser(
        "trace", help="every clause of the regulations, its status and evidence",
        description="Reads the regulation texts, the rule profiles' clause data, "
        "rules/readings.toml and the tests' clause markers (without running them).",
        epilog="exit status: 0 done, 2 a folder that cannot be read.")
    trace.add_argument("--regulations", help="folder of the regulation texts "
                       "(default: the texts shipped in the package)")
    trace.add_argument("--tests", help="the tests folder (default: the repository's)")
    fmt = trace.add_mutually_exclusive_group()
    fmt.add_argument("--markdown", action="store_true", help="Markdown (docs/traceability.md)")
    fmt.add_argument("--json", action="store_true", help="one JSON object")
    trace.set_defaults(func=cmd_trace)

    wagers = subparsers.add_parser(
        "wagers", help="every wager id with its qualifier, pay-table keys and profiles",
        description="The wager reference, generated from the engine's wager definitions and "
        "the rule profiles (docs/wagers.md is its --markdown output).",
        epilog="exit status: 0.")
    out = wagers.add_mutually_exclusive_group()
    out.add_argument("--markdown", action="store_true", help="Markdown (docs/wagers.md)")
    out.add_argument("--json", action="store_true", help="one JSON object")
    wagers.set_defaults(func=cmd_wagers)


def _edge_cells(edge: Fraction | None) -> tuple[str, str]:
    if edge is None:
        return "-", "-"
    exact = str(edge)
    return f"{float(edge) * 100:.3f}%", exact if len(exact) <= 12 else "(--json)"


def _verdict(entry: Any) -> str:
    if not entry.reason:
        return str(entry.verdict)
    return f"{entry.verdict}: {entry.reason}" + (f" ({entry.clause})" if entry.clause else "")


_CHECK_HEADER = (f"  {'entry':<22} {'minimum':<12} {'proposed':<18} {'house edge':>10} "
                 f"{'exact':<12} verdict")


def _check_line(entry: Any) -> str:
    edge, exact = _edge_cells(entry.edge)
    proposed = entry.proposed if entry.proposed is not None else "(minimum)"
    return (f"  {entry.key:<22} {entry.minimum or '-':<12} {proposed:<18} {edge:>10} "
            f"{exact:<12} {_verdict(entry)}")


def cmd_check(args: argparse.Namespace) -> int:
    """Check the proposals; 0 compliant, 1 not, 2 malformed (every problem listed)."""
    from croupier.analysis.compliance import Problems, check_documents, read_document

    problems: list[Malformed] = []
    docs = []
    for f in args.files:
        try:
            docs.append((Path(f).name, read_document(f)))
        except Malformed as exc:
            problems.append(exc)
    try:
        report = check_documents(docs)
    except Problems as exc:
        problems += exc.problems
    if problems:
        for problem in problems:
            print(f"croupier check: {problem}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
        return 0 if report.compliant else 1
    names = {name: doc.get("table") for name, doc in docs}
    for table in report.tables:
        _print_checked_table(table, names.get(table.name), args.all)
    if report.uniformity:
        print("across the tables: payouts must be uniform within the casino")
        print(_CHECK_HEADER)
        for e in report.uniformity:
            print(_check_line(e))
    print("compliant" if report.compliant else "not compliant")
    return 0 if report.compliant else 1


def _print_checked_table(table: TableReport, name: str | None, every: bool) -> None:
    """One proposal's verdict and its entries (``every``: all, else the proposed ones and any
    refused)."""
    label = f"{table.name} ({name})" if name else table.name
    title = f"{label}: {table.game} under {table.profile}"
    print(f"{title}: {'compliant' if table.compliant else 'not compliant'}")
    shown = [e for e in table.entries if every or e.proposed is not None or e.verdict != "ok"]
    print(_CHECK_HEADER)
    for e in shown:
        print(_check_line(e))
    if not every:
        print(f"  ({len(shown)} of {len(table.entries)} entries: the proposed ones and any "
              "refused; --all lists every entry)")


def cmd_wagers(args: argparse.Namespace) -> int:
    """The wager reference as text, Markdown (docs/wagers.md) or JSON."""
    from croupier.analysis.wager_reference import render_markdown, render_text, wager_reference

    reference = wager_reference()
    if args.json:
        print(json.dumps(reference, indent=2))
    elif args.markdown:
        sys.stdout.write(render_markdown(reference))
    else:
        sys.stdout.write(render_text(reference))
    return 0


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
