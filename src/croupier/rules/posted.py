"""The rules of the game posted at a table, generated from its profile and options.

A regulator reads a table's rules where the players do: the permitted wagers (by name, each
with the clause permitting it), the limits, the pay table stated "x to 1" (13:69F-1.4(a),
19:47-1.4(a), 13:47-20.25(i)1), the free-odds multiples, the commission (rate, base, and when
it is collected on each number), the fire pay table, 6-7-8, the zero rule, and every notice a
clause requires of the table, each citing its clause: the zero-rule option in effect at a
double-zero wheel (13:47-20.32(g)), the notice at a double-zero wheel used as single zero
(13:47-20.32(i)1); and the calls a craps table's options take beyond the replay contract's
("down on the win", "off" during a point), each citing the reading it takes.

:func:`posted_rules` builds the document (pure: no database, no clock); :func:`to_json`,
:func:`to_markdown` and :func:`to_html` render it.

>>> doc = posted_rules("roulette", "nj-casino-night", {"wheel": "double-zero-as-single"})
>>> [n.clause for n in doc.notices]
['N.J.A.C. 13:47-20.32(i)1', 'N.J.A.C. 13:47-20.32(i)3', 'N.J.A.C. 13:47-20.25(i)1']
>>> posted_rules("craps", "nj-13-69f", {}).odds_multiples[0]
('4', '3 times the flat bet')
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from croupier.errors import Malformed
from croupier.rules.profile import CommissionBase, CommissionTiming, CrapsRules, RouletteRules

__all__ = ["Notice", "PostedRules", "WagerLine", "posted_rules", "to_html", "to_json",
           "to_markdown"]

BOX_NUMBERS = ("4", "5", "6", "8", "9", "10")
# The notice 13:47-20.32(i)1 requires sits in a clause no rule-profile key names (the profile
# names (i)2 and (i)3, which it acts on), so it is kept here, by wheel.
WHEEL_NOTICE_CLAUSES = {("nj-casino-night", "double-zero-as-single"): "N.J.A.C. 13:47-20.32(i)1"}
TIMING = {CommissionTiming.PLACEMENT: "when the bet is made",
          CommissionTiming.WIN: "when the bet wins"}


@dataclass(frozen=True)
class Notice:
    """A notice a clause requires posted at the table."""

    clause: str
    text: str


@dataclass(frozen=True)
class WagerLine:
    """A permitted wager: its id, name, permitting clause and pay-table lines (the qualifier,
    empty for the wager as a whole, and its odds "x to y")."""

    id: str
    name: str
    clause: str
    pays: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class PostedRules:
    """The posted rules of one table; the values are sentences and "x to y" odds."""

    table: str
    game: str
    profile: str
    title: str
    limits: tuple[tuple[str, str], ...]
    wagers: tuple[WagerLine, ...]
    odds_multiples: tuple[tuple[str, str], ...] = ()
    commission: tuple[tuple[str, str], ...] = ()
    fire: tuple[tuple[str, str], ...] = ()
    six_seven_eight: str = ""
    zero_rule: str = ""
    notices: tuple[Notice, ...] = ()


def posted_rules(game: str, profile_id: str, options: dict[str, Any], table: str = "",
                 ) -> PostedRules:
    """The posted rules of a ``game`` table under ``profile_id`` with ``options`` (checked as a
    table's are when it opens; Malformed names the option at fault)."""
    offer = _offer(game, profile_id, options)
    rules = _rules(profile_id, game)
    if isinstance(rules, RouletteRules):
        return _roulette(offer, rules, options, table)
    return _craps(offer, rules, game, profile_id, options, table)


# --- where the profile and the table's configuration are read (one place, for the merge) ----


def _offer(game: str, profile_id: str, options: dict[str, Any]) -> dict[str, Any]:
    """What the table offers: its wagers, pays, limits and clauses, as the browser table reads
    them."""
    from croupier.games import offered

    return offered(game, profile_id, options)


def _rules(profile_id: str, game: str) -> CrapsRules | RouletteRules:
    """The game's rules under the profile (the registry says which section holds them)."""
    from croupier.games import game as game_named
    from croupier.rules import load_profile

    rules = game_named(game).rules(load_profile(profile_id))
    if not isinstance(rules, (CrapsRules, RouletteRules)):  # pragma: no cover - _offer
        raise Malformed("game", f"{profile_id} does not cover {game}")  # checked it does
    return rules


def _craps_config(game: str, profile_id: str, options: dict[str, Any]) -> Any:
    """The table's CrapsConfig, as the game registry opens the table."""
    from croupier.games import game as game_named
    from croupier.rules import load_profile

    table: Any = game_named(game).open(load_profile(profile_id), options, {})
    return table.config


def _names(game: str) -> Mapping[str, str]:
    from croupier.games import game as game_named

    return game_named(game).wager_names


def _odds_wording(profile_id: str) -> str:
    from croupier.rules.citations import cite

    return cite(profile_id, "odds_wording")


# --- the parts of the document ----------------------------------------------------------------


def _wagers(game: str, offer: dict[str, Any]) -> tuple[WagerLine, ...]:
    names = _names(game)
    pays: dict[str, str] = offer["pays"]
    out = []
    for wager_id, clause in offer["wagers"].items():
        lines = tuple((key.partition(":")[2], text) for key, text in pays.items()
                      if key.split(":")[0] == wager_id)
        if not lines:
            lines = (("", "paid as the wagers it is made of"),)
        out.append(WagerLine(wager_id, names.get(wager_id, wager_id.replace("_", " ")), clause,
                             lines))
    return tuple(out)


def _limits(offer: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    minimum = offer["min_bet"] if offer["min_bet"] is not None else offer["unit"]
    maximum = offer["max_bet"] if offer["max_bet"] is not None else "no table maximum"
    return (("chip unit", offer["unit"]), ("minimum wager", minimum), ("maximum wager", maximum))


def _odds_multiples(config: Any) -> tuple[tuple[str, str], ...]:
    if config.odds is None:
        return ()
    taken = tuple((n, f"{config.odds_limit_multiple(int(n))} times the flat bet")
                  for n in BOX_NUMBERS)
    laid = config.lay_odds_limit_multiple()
    return (*taken, ("laid odds", f"to win at most {laid} times the flat bet"))


def _commission(config: Any, wagers: dict[str, str], rules: CrapsRules,
                ) -> tuple[tuple[str, str], ...]:
    """The rate, base and minimum of buy and lay bets, and on each number when the commission
    is collected (13:69F-1.5(a): "as to each specified place bet")."""
    if "buy" not in wagers and "lay" not in wagers:
        return ()
    rate = f"{config.vig * 100:f}".rstrip("0").rstrip(".") + "%"
    lay_base = ("of what the lay bet could win" if rules.lay_commission_base is CommissionBase.WIN
                else "of the amount laid")
    out = [("rate", rate)]
    for wager_id, what in (
            ("buy", f"of the amount bought ({rules.clause('buy_commission_clause')})"),
            ("lay", f"{lay_base} ({rules.clause('lay_commission_clause')})")):
        if wager_id not in wagers:
            continue
        out.append((f"{wager_id} bets", f"{rate} {what}"))
        minimum = config.minimum_commissioned(wager_id)
        if minimum is not None:
            out.append((f"minimum {wager_id} bet", str(minimum)))
        out.extend((f"{wager_id} {n}",
                    f"collected {TIMING[config.commission_timing(wager_id, int(n))]}")
                   for n in BOX_NUMBERS)
    return tuple(out)


def _commission_notices(config: Any, offer: dict[str, Any], rules: CrapsRules,
                        ) -> list[Notice]:
    """Where commission may wait for the win, when it is collected, bet by bet: one notice
    for buy bets citing the buy clause (13:69F-1.5(a)), one for lay bets citing the lay
    clause (1.5(b)), each clause governing its own bets' timing."""
    if CommissionTiming.WIN not in rules.vig_collected:
        return []
    notices = []
    for wager_id in ("buy", "lay"):
        if wager_id not in offer["wagers"]:
            continue
        on_win = [f"{wager_id} {n}" for n in BOX_NUMBERS
                  if config.commission_timing(wager_id, int(n)) is CommissionTiming.WIN]
        if len(on_win) in (0, len(BOX_NUMBERS)):
            # Every number alike: on the win when the table collects every commission so, or
            # when vig_on_win names all six.
            every = CommissionTiming.WIN if on_win else CommissionTiming.PLACEMENT
            text = (f"The commission on {wager_id} bets is collected "
                    f"{TIMING[every]}, on every number.")
        else:
            text = (f"The commission is collected {TIMING[CommissionTiming.WIN]} on "
                    f"{', '.join(on_win)}; on every other {wager_id} bet, "
                    f"{TIMING[CommissionTiming.PLACEMENT]}.")
        notices.append(Notice(rules.clause(f"{wager_id}_commission_clause"), text))
    return notices


def _come_out_notice(config: Any, offer: dict[str, Any], rules: CrapsRules,
                     ) -> Notice | None:
    """Which wagers are off on the come-out unless called on, and what "off" does while a
    point is established (the replay contract: nothing until the point is decided)."""
    names = _names(offer["game"])
    off = [names[w] for w in offer["wagers"] if w in config.off_on_come_out]
    if not off:
        return None
    during = ("" if config.off_during_point else
              " A wager called \"off\" while a point is established keeps working until the "
              "point is decided: \"off\" speaks of come out rolls only.")
    return Notice(rules.clause("off_on_come_out_clause"),
                  f"{', '.join(off)} are inactive on any come out roll unless called "
                  f"\"on\".{during}")


def _call_notices(config: Any, offer: dict[str, Any], profile_id: str) -> list[Notice]:
    """The calls the table's options take beyond the replay contract's ("down on the win",
    "off" during a point), each citing the reading it takes; none where the options are off."""
    from croupier.craps.wagers import WAGERS
    from croupier.rules.citations import cite

    names = _names(offer["game"])

    def which(may: str) -> str:
        listed = [names[w] for w in offer["wagers"] if getattr(WAGERS[w], may)]
        return ", ".join(listed[:-1]) + " or " + listed[-1] if len(listed) > 1 else "".join(listed)

    notices = []
    if config.down_on_win and which("down_on_win"):
        notices.append(Notice(cite(profile_id, "down_on_win"), (
            f"A {which('down_on_win')} may be called \"down on the win\": its next win takes it "
            "down, the wager returned with its winnings, and no commission is collected again "
            "(a commission collected only on winning bets is collected from that win).")))
    if config.off_during_point and which("off_during_point"):
        notices.append(Notice(cite(profile_id, "off_during_point"), (
            f"A {which('off_during_point')} may be called \"off\" while a point is established: "
            "it does not work until it is called \"on\" again or the point is decided.")))
    return notices


def _craps(offer: dict[str, Any], rules: CrapsRules, game: str, profile_id: str,
           options: dict[str, Any], table: str) -> PostedRules:
    config = _craps_config(game, profile_id, options)
    wagers = _wagers(game, offer)
    fire = tuple((f"{k.partition(':')[2]} different points made", v)
                 for k, v in offer["pays"].items() if k.startswith("fire:"))
    six_seven_eight = ""
    if "six_seven_eight" in rules.optional or "six_seven_eight" in offer["wagers"]:
        six_seven_eight = ("offered" if "six_seven_eight" in offer["wagers"] else "not offered")
    notices = [Notice(_odds_wording(profile_id),
                      'Every payout is stated as odds "x to y": x won for every y wagered, the '
                      "wager itself returned besides.")]
    notices += _commission_notices(config, offer, rules)
    come_out = _come_out_notice(config, offer, rules)
    if come_out is not None:
        notices.append(come_out)
    notices += _call_notices(config, offer, profile_id)
    if fire:
        notices.append(Notice(rules.clause("fire_pays_clause"),
                              f"The fire bet pays by pay table {config.fire_pay_table}, once, for "
                              "the number of different points made before the seven-out."))
    return PostedRules(
        table=table, game=game, profile=profile_id, title=offer["title"],
        limits=_limits(offer), wagers=wagers, odds_multiples=_odds_multiples(config),
        commission=_commission(config, offer["wagers"], rules), fire=fire,
        six_seven_eight=six_seven_eight, notices=tuple(notices))


def _zero_rule(wheel: str, rule: str) -> str:
    if wheel == "double-zero":
        lost = ("half of the wager (the other half is returned)" if rule == "half"
                else "the entire wager")
        return (f"When the ball comes to rest in 0 or 00, wagers on red, black, odd, even, "
                f"1 to 18 and 19 to 36 lose {lost}.")
    if wheel == "double-zero-as-single":
        return ("This double-zero wheel is used as a single-zero wheel. When the ball comes to "
                "rest in 00 the dealer announces \"no spin\", the spin is void and the wheel is "
                "spun again; no wager is taken on 00. When it comes to rest in 0, wagers on red, "
                "black, odd, even, 1 to 18 and 19 to 36 are lost.")
    return ("When the ball comes to rest in 0, wagers on red, black, odd, even, 1 to 18 and "
            "19 to 36 are lost.")


def _roulette(offer: dict[str, Any], rules: RouletteRules, options: dict[str, Any],
              table: str) -> PostedRules:
    profile_id = offer["profile"]
    wheel = str(options.get("wheel", "double-zero"))
    rule = str(options.get("zero_rule", "full"))
    zero_text = _zero_rule(wheel, rule)
    notices = []
    wheel_clause = WHEEL_NOTICE_CLAUSES.get((profile_id, wheel))
    if wheel_clause:
        notices.append(Notice(wheel_clause, zero_text))
    zero_clause = rules.zero_rule_clauses.get(wheel, "")
    notices.append(Notice(zero_clause, zero_text if wheel != "double-zero-as-single" else
                          "Wagers on red, black, odd, even, 1 to 18 and 19 to 36 are lost when "
                          "the ball comes to rest in 0."))
    # The wording rule is the profile's odds-wording clause, as at craps; the pay table
    # itself (pays_clause) is not the clause that requires the notice.
    notices.append(Notice(_odds_wording(profile_id),
                          'Every payout is stated as odds "x to y": x won for every y wagered, '
                          "the wager itself returned besides."))
    return PostedRules(
        table=table, game=offer["game"], profile=profile_id, title=offer["title"],
        limits=_limits(offer), wagers=_wagers(offer["game"], offer),
        zero_rule=f"{wheel.replace('-', ' ')} wheel, {rule} zero rule: {zero_text}",
        notices=tuple(notices))


# --- renderers --------------------------------------------------------------------------------


def to_json(doc: PostedRules) -> dict[str, Any]:
    """The document as JSON-ready data (lists of pairs become lists of objects), and
    ``sections``: all but its notices and wagers as titled lines, as the Markdown and the
    HTML show them (the browser table shows these without naming any)."""
    data = asdict(doc)
    for key in ("limits", "odds_multiples", "commission", "fire"):
        data[key] = [{"name": k, "value": v} for k, v in data[key]]
    for wager in data["wagers"]:
        wager["pays"] = [{"on": k, "odds": v} for k, v in wager["pays"]]
    data["sections"] = [{"title": title, "lines": lines} for title, lines in _rest(doc)]
    return data


def _sections(doc: PostedRules) -> list[tuple[str, list[str]]]:
    """The document as titled lists of lines (plain text), shared by the renderers."""
    out = [("Notices", [f"{n.text} ({n.clause})" for n in doc.notices])]
    out.append(("Wagers", [
        f"{w.name} ({w.clause}): " + "; ".join(f"{k}: {v}" if k else v for k, v in w.pays)
        for w in doc.wagers]))
    return out + _rest(doc)


def _rest(doc: PostedRules) -> list[tuple[str, list[str]]]:
    """All but the notices and the wagers, as titled lists of lines."""
    pairs = [("Limits", doc.limits), ("Free odds", doc.odds_multiples),
             ("Commission", doc.commission), ("Fire bet pay table", doc.fire)]
    out = [(title, [f"{k}: {v}" for k, v in items]) for title, items in pairs if items]
    if doc.six_seven_eight:
        out.append(("6-7-8", [f"The 6-7-8 wager is {doc.six_seven_eight} at this table."]))
    if doc.zero_rule:
        out.append(("Zero rule", [doc.zero_rule]))
    return out


def _heading(doc: PostedRules) -> str:
    where = f"Table {doc.table}: " if doc.table else ""
    return f"{where}{doc.game} under {doc.profile} ({doc.title})"


def to_markdown(doc: PostedRules) -> str:
    """The document as Markdown."""
    lines = [f"# Rules of the game: {_heading(doc)}", ""]
    for title, items in _sections(doc):
        lines += [f"## {title}", "", *(f"- {i}" for i in items), ""]
    return "\n".join(lines)


def to_html(doc: PostedRules) -> str:
    """The document as an HTML fragment (escaped), for a page or a panel."""
    esc = html.escape
    parts = [f"<h2>Rules of the game: {esc(_heading(doc))}</h2>"]
    for title, items in _sections(doc):
        parts.append(f"<h3>{esc(title)}</h3><ul>"
                     + "".join(f"<li>{esc(i)}</li>" for i in items) + "</ul>")
    return f"<section class=\"posted-rules\">{''.join(parts)}</section>"
