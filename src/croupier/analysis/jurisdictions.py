"""The jurisdiction matrix: ``croupier rules --compare`` (and ``docs/jurisdictions.md``).

For every wager and rule profile: whether it is permitted, its minimum pay, whether it works
on the come-out roll, its commission (base and timing) and the free odds behind it; and, per
profile, the rules of the whole table (seating, late bets, free odds, commission timing,
passing the dice, removal). Every cell says what it rests on: the regulation ``text`` (the
clause), the replay ``contract`` (a reading of it), or an ``interpretation`` (a reading of
the clause named, written out in ``rules/readings.toml``). Cells come from the rule
profiles' data; the few a profile cannot ground come from ``readings.toml``.

>>> cells = matrix()
>>> c = cell(cells, "place_lose", "nj-19-47", "come-out")
>>> c.value, c.basis, c.clause
('on', 'interpretation', 'N.J.A.C. 19:47-1.2(a)5')
>>> cell(cells, "fire", "nj-casino-night", "permitted").value
'no'
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from typing import Any

from croupier.analysis.evidence import GameView, game_view, late_bets_by_game, profile_summary
from croupier.craps.wagers import WAGERS as CRAPS_WAGERS
from croupier.errors import Refusal
from croupier.games import FAMILIES
from croupier.rules import PROFILE_IDS, CommissionBase, CommissionTiming, CrapsRules
from croupier.rules.citations import CONTRACT, load_readings

ATTRIBUTES = ("permitted", "minimum pay", "come-out", "commission", "free odds")
TABLE_RULES = ("seating", "late_bets", "free_odds", "commission_timing", "passing_the_dice",
               "removal")
LINE_BETS = ("pass", "dont_pass", "come", "dont_come")


@dataclass(frozen=True)
class Cell:
    wager: str
    profile: str
    attribute: str
    value: str
    basis: str  # text, contract, interpretation, or "-" (the question does not arise)
    clause: str = ""
    note: str = ""


def _basis(citation: str) -> str:
    return "contract" if citation.startswith(CONTRACT) else "text"


def _jurisdiction() -> dict[str, Any]:
    return dict(load_readings().get("jurisdiction", {}))


def _pays(rules: GameView, wager: str) -> str:
    """The minimum pay of ``wager`` as the profile lists it, equal odds grouped."""
    groups: dict[str, list[str]] = {}
    for key, odds in rules.pays():
        head, _, qualifier = key.partition(":")
        if head == wager:
            groups.setdefault(odds, []).append(qualifier)
    parts: list[str] = []
    for stated, qualifiers in groups.items():
        named = [q for q in qualifiers if q]
        parts.append(f"{stated} on {', '.join(named)}" if named else stated)
    return "; ".join(parts)


def _permitted(pid: str, rules: GameView, wager: str) -> Cell:
    readings = _jurisdiction().get("permitted", {})
    if not rules.permits(wager):
        return Cell(wager, pid, "permitted", "no", "text", rules.cite("permitted_clause"))
    clause = rules.wager_clause(wager)
    value = "yes"
    craps = rules.craps
    if craps is not None and wager in craps.optional:
        value = "yes, at the casino's election"
    if craps is not None and wager in craps.craps_only:
        value += " (craps only, not mini-craps)"
    approved = rules.roulette.approved_layout_clauses if rules.roulette is not None else {}
    if wager in approved:
        value += (", on a layout approved for it (approved_layout; "
                  f"{approved[wager].removeprefix('N.J.A.C. ')})")
    read = readings.get(f"{pid}.{wager}")
    if read is not None:
        return Cell(wager, pid, "permitted", value, "contract" if read.startswith(CONTRACT)
                    else "interpretation", read)
    return Cell(wager, pid, "permitted", value, "text", clause)


def _minimum_pay(pid: str, rules: GameView, wager: str) -> Cell:
    if not rules.permits(wager):
        return Cell(wager, pid, "minimum pay", "-", "-")
    pays = _pays(rules, wager)
    if rules.craps is not None:
        return _craps_minimum_pay(pid, rules, rules.craps, wager, pays)
    if wager == "five_adjacent":
        pays = f"as five straights: {_pays(rules, 'straight')}"
    return Cell(wager, pid, "minimum pay", pays, "text", rules.cite("pays_clause"))


def _craps_minimum_pay(pid: str, rules: GameView, craps: CrapsRules, wager: str,
                       pays: str) -> Cell:
    d = CRAPS_WAGERS[wager]
    if d.parts is not None:
        return Cell(wager, pid, "minimum pay", "paid as the separate wagers it is made of",
                    "text", rules.wager_clause(wager))
    if d.odds_of is not None:
        return Cell(wager, pid, "minimum pay", f"true odds: {pays}", "contract",
                    rules.cite("odds_clause"))
    if d.commission == "buy":
        return Cell(wager, pid, "minimum pay", pays, "text", rules.cite("buy_commission_clause"))
    if d.commission == "lay":
        return Cell(wager, pid, "minimum pay", pays, "text", rules.cite("lay_commission_clause"))
    if wager == "fire":
        text = "; ".join(f"table {name}: " + ", ".join(
            f"{k.split(':')[1]} points {v}" for k, v in table.items())
            for name, table in craps.fire_tables.items())
        return Cell(wager, pid, "minimum pay", text, "text", rules.cite("fire_pays_clause"))
    return Cell(wager, pid, "minimum pay", pays, "text", rules.cite("pays_clause"))


def _come_out(pid: str, rules: GameView, craps: CrapsRules, wager: str) -> Cell:
    if not rules.permits(wager):
        return Cell(wager, pid, "come-out", "-", "-")
    off = wager in craps.off_on_come_out
    value = "off unless called on" if off else "on"
    read = _jurisdiction().get("come_out", {}).get(f"{pid}.{wager}")
    if read is not None:
        note = ("a table option (place_lose_off_on_come_out) reads the sentence of every place "
                "bet and turns it off unless called on"
                if wager in craps.all_place_bets else "")
        return Cell(wager, pid, "come-out", value, "interpretation", read, note)
    if off or pid == "nj-13-69f":  # 13:69F-1.3(e): "All other wagers shall be considered On"
        return Cell(wager, pid, "come-out", value, "text", rules.cite("off_on_come_out_clause"))
    return Cell(wager, pid, "come-out", value, "text", rules.wager_clause(wager),
                "the text turns only place bets to win off; every other wager works on every roll")


def _commission(pid: str, rules: GameView, craps: CrapsRules, wager: str) -> Cell:
    kind = CRAPS_WAGERS[wager].commission
    if kind is None or not rules.permits(wager):
        return Cell(wager, pid, "commission", "-", "-")
    base = "the stake"
    if kind == "lay" and craps.lay_commission_base is CommissionBase.WIN:
        base = "what the bet could win"
    timings = craps.vig_collected
    timing = " or ".join({CommissionTiming.PLACEMENT: "when made",
                          CommissionTiming.WIN: "on winning bets only"}[t] for t in timings)
    if len(timings) > 1:
        timing += ", chosen number by number (vig_collected, vig_on_win)"
    return Cell(wager, pid, "commission", f"up to 5% of {base}, {timing}", "text",
                rules.cite(f"{kind}_commission_clause"),
                f"rounded down to the table unit; a table minimum (min_{wager}) keeps it from "
                "rounding to nothing")


def _free_odds(pid: str, rules: GameView, craps: CrapsRules, wager: str) -> Cell:
    if wager not in LINE_BETS or not rules.permits(wager):
        return Cell(wager, pid, "free odds", "-", "-")
    if craps.free_odds:
        return Cell(wager, pid, "free odds", f"table option, default {craps.default_odds}",
                    _basis(rules.cite("odds_clause")), rules.cite("odds_clause"))
    return Cell(wager, pid, "free odds", "none", "text", rules.cite("permitted_clause"))


def matrix() -> list[Cell]:
    """Every cell: each wager of each game under each profile, then the table rules."""
    cells: list[Cell] = []
    for family in FAMILIES.values():
        for wager in family.wager_names:
            for pid in PROFILE_IDS:
                rules = game_view(pid, family.name)
                if rules is None:
                    continue
                cells.append(_permitted(pid, rules, wager))
                cells.append(_minimum_pay(pid, rules, wager))
                if rules.craps is not None:
                    craps = rules.craps
                    cells += [_come_out(pid, rules, craps, wager),
                              _commission(pid, rules, craps, wager),
                              _free_odds(pid, rules, craps, wager)]
    for pid, table in _jurisdiction().get("table", {}).items():
        for rule in TABLE_RULES:
            late = _late_bets(pid) if rule == "late_bets" else None
            if late is not None:
                cells.append(late)
                continue
            entry = table[rule]
            cells.append(Cell("(table)", pid, rule, entry["value"], entry["basis"],
                              entry["clause"], entry.get("note", "")))
    return cells


def _late_bets(pid: str) -> Cell | None:
    """The late-bet cell of a profile that takes late bets, game by game, from what the game
    registry answers the server (who confirms, or why none is taken); None for a profile that
    takes none (its cell is a reading in ``readings.toml``)."""
    rules = game_view(pid, "craps")
    if rules is None or rules.craps is None or not rules.craps.late_bets:
        return None
    parts = []
    for game, shooter, answer in late_bets_by_game(pid):
        if isinstance(answer, Refusal):
            why = "a device throws the dice" if not shooter else "the clause names no confirmer"
            parts.append(f"refused at {game}, where {why}")
        else:
            parts.append(f"taken at {game}, confirmed by the {' and '.join(answer.by)} "
                         f"({answer.clause.removeprefix('N.J.A.C. ')})")
    return Cell("(table)", pid, "late_bets", "while the dice are in the air: " + "; ".join(parts),
                "text", rules.cite("late_bet_clause"),
                "the confirmations are recorded with the role the clause names for the game; "
                "where no shooter throws the dice never leave a shooter's hand, and the clause "
                "names no one to confirm a wager there")


def cell(cells: list[Cell], wager: str, profile: str, attribute: str) -> Cell:
    return next(c for c in cells if (c.wager, c.profile, c.attribute) == (wager, profile, attribute))


# --- output ----------------------------------------------------------------------------------


def _md(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _shown(c: Cell) -> str:
    if c.basis == "-":
        return "-"
    where = c.clause.removeprefix("N.J.A.C. ").removeprefix(CONTRACT)
    note = f" ({c.note})" if c.note else ""
    return _md(f"{c.value} · *{c.basis}*: {where}{note}")


def render_markdown(cells: list[Cell]) -> str:
    """``docs/jurisdictions.md``."""
    lines = [
        "# Jurisdictions compared",
        "",
        "Generated by `croupier rules --compare --markdown`; do not edit by hand (a test fails",
        "when this file differs from a fresh run). Each wager under each rule profile, and the",
        "rules of the whole table. Every cell names what it rests on: *text* (the clause of the",
        "profile's regulation that says it), *contract* (a reading of the replay contract, cited",
        "where the text is silent) or *interpretation* (a reading of the clause named). The",
        "readings are written out in `docs/traceability.md` (under the clause) and kept as data",
        "in `src/croupier/rules/readings.toml`.",
        "",
        "## The table",
        "",
        "| rule | " + " | ".join(PROFILE_IDS) + " |",
        "| --- |" + " --- |" * len(PROFILE_IDS),
    ]
    for rule in TABLE_RULES:
        row = [_shown(cell(cells, "(table)", pid, rule)) for pid in PROFILE_IDS]
        lines.append(f"| {rule.replace('_', ' ')} | " + " | ".join(row) + " |")
    for game, family in FAMILIES.items():
        wagers = list(family.wager_names)
        profiles = [p for p in PROFILE_IDS if game_view(p, game) is not None]
        # The attributes the family's wagers have cells for (roulette: no come-out, ...).
        attributes = [a for a in ATTRIBUTES
                      if any(c.attribute == a and c.wager in wagers for c in cells)]
        for attribute in attributes:
            lines += ["", f"## {game}: {attribute}", "",
                      "| wager | " + " | ".join(profiles) + " |",
                      "| --- |" + " --- |" * len(profiles)]
            for wager in wagers:
                row = [_shown(cell(cells, wager, pid, attribute)) for pid in profiles]
                lines.append(f"| `{wager}` | " + " | ".join(row) + " |")
    counts: dict[str, int] = {}
    for c in cells:
        if c.basis != "-":
            counts[c.basis] = counts.get(c.basis, 0) + 1
    lines += ["", "Cells by basis: " + ", ".join(f"{n} {b}" for b, n in sorted(counts.items()))
              + "."]
    return "\n".join(lines) + "\n"


def render_text(cells: list[Cell]) -> str:
    out = []
    for c in cells:
        if c.basis != "-":
            out.append(f"{c.wager:<16} {c.profile:<16} {c.attribute:<18} {c.value}  "
                       f"[{c.basis}: {c.clause}]" + (f"  ({c.note})" if c.note else ""))
    return "\n".join(out) + "\n"


# --- the command -----------------------------------------------------------------------------


def register(subparsers: Any) -> None:
    """Add ``rules`` to the ``croupier`` command line."""
    rules = subparsers.add_parser(
        "rules", help="the rule profiles; --compare: wager x profile, each cell with its basis",
        description="Without --compare, lists the rule profiles. With --compare, the "
        "jurisdiction matrix: for each wager and profile whether it is permitted, its minimum "
        "pay, whether it works on the come-out, its commission and free odds, and the rules "
        "of the whole table; each cell marked text, contract or interpretation.")
    rules.add_argument("--compare", action="store_true", help="the jurisdiction matrix")
    rules.add_argument("--posted", action="store_true",
                       help="the rules of the game posted at a table of --game under --rules "
                       "with its --option values, and every notice its clauses require")
    rules.add_argument("--game", default="craps", help="--posted: craps, mini-craps or roulette")
    rules.add_argument("--rules", dest="profile", help="--posted: the rule profile")
    rules.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                       help="--posted: a table option (VALUE read as JSON if it parses, else "
                       "as text), repeatable")
    fmt = rules.add_mutually_exclusive_group()
    fmt.add_argument("--markdown", action="store_true", help="Markdown (docs/jurisdictions.md)")
    fmt.add_argument("--json", action="store_true", help="a JSON list of cells")
    fmt.add_argument("--html", action="store_true", help="--posted: an HTML fragment")
    rules.set_defaults(func=cmd_rules)


def cmd_posted(args: argparse.Namespace) -> int:
    """``rules --posted``: the posted rules of one table (exit 2 on a malformed option)."""
    from croupier.analysis.options import check_game, check_options, check_rules, default_rules
    from croupier.analysis.options import option_value as _value
    from croupier.errors import Malformed
    from croupier.rules.posted import posted_rules, to_html, to_json, to_markdown

    options: dict[str, Any] = {}
    for item in args.option:
        key, eq, text = item.partition("=")
        if not eq or not key:
            print(f"croupier rules: --option {item!r}: write KEY=VALUE", file=sys.stderr)
            return 2
        options[key] = _value(text)
    try:
        check_game(args.game)
        if args.profile is not None:
            check_rules(args.profile)
        check_options(args.game, options, "--option {key}")
        doc = posted_rules(args.game, args.profile or default_rules(args.game), options)
    except Malformed as e:
        print(f"croupier rules: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(to_json(doc), indent=2))
    else:
        sys.stdout.write(to_html(doc) + "\n" if args.html else to_markdown(doc))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    if args.posted:
        return cmd_posted(args)
    if not args.compare:
        for pid in PROFILE_IDS:
            title, games = profile_summary(pid)
            print(f"{pid:<16} {title}  ({', '.join(games)})")
        return 0
    cells = matrix()
    if args.json:
        print(json.dumps([asdict(c) for c in cells], indent=2))
    elif args.markdown:
        sys.stdout.write(render_markdown(cells))
    else:
        sys.stdout.write(render_text(cells))
    return 0
