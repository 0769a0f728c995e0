"""The analysis of the craps family (craps, mini-craps, automated craps).

Each wager is a chain over the dice (:mod:`croupier.analysis.exact`), analysed under every
commission timing the profile allows and every fire pay table; a proposal's commission is
refused over five percent or collected when the profile forbids, and a wager the profile does
not permit is refused where a table option elects it. The registry names this module for every
game of the family (:attr:`croupier.games.Game.analysis`).

>>> from croupier.analysis.family import open_table
>>> opened = open_table("craps", "nj-13-69f", {})
>>> ANALYSIS.edge_notes(opened)["lay"][0][:60]
'nj-13-69f takes the lay commission on the amount wagered (N.'
>>> rows = {row.wager: row for row in ANALYSIS.edges(opened, Decimal(19))}
>>> rows["buy:4:placement"].house_edge  # 5% of 19 rounds down to no commission at all
Fraction(0, 1)
>>> rows["pass_odds:5"].notes[0][:69]
'refused at this stake: a odds on the Pass Bet of 19.00 cannot be paid'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, cast

from croupier.analysis.compliance import REFUSED, Entry, Proposal, TableReport, check_entries
from croupier.analysis.exact import (
    CrapsCase,
    WagerAnalysis,
    analyse_case,
    analyse_craps,
    craps_cases,
)
from croupier.analysis.family import OpenedTable
from croupier.craps.config import MAX_VIG, CrapsConfig
from croupier.craps.table import CrapsTable
from croupier.craps.wagers import WAGERS
from croupier.dice import POINTS
from croupier.errors import Malformed, Refusal
from croupier.money import Odds
from croupier.rules import (
    PROFILE_IDS,
    CommissionBase,
    CommissionTiming,
    CrapsRules,
    Profile,
    load_profile,
)
from croupier.table import Table

CALL_NOTES = {
    "down_on_win": (
        "a wager called down on the win comes down with its next win, its stake "
        "returned with the winnings and no new commission collected; the figures stand as "
        "they are, since they count one decision, to the first win or loss, with a commission "
        "collected at placement paid once per decision."),
    "off_during_point": (
        "a wager called off for the rest of a point is neither won nor lost "
        "while it is off; the figures stand as they are, since they count the rolls on which "
        "the wager works, to its decision."),
}
"""What each call a table option takes does to the figures (noted on the wagers it applies
to, where the option is on)."""


def _engine(table: Table) -> CrapsTable:
    """The craps engine behind ``table``: the registry opens one for every game whose
    analysis is this module (:attr:`croupier.games.Game.analysis`)."""
    return cast(CrapsTable, table)


def _rules(profile: Profile) -> CrapsRules:
    rules = profile.craps
    if rules is None:  # pragma: no cover - a profile covering a craps game has craps rules
        raise ValueError(f"{profile.id} has no craps rules")
    return rules


def _refusal_at(table: CrapsTable, stake: Decimal) -> Callable[[CrapsCase], str]:
    """Why ``table`` refuses ``stake`` on a case's wager ("" where it takes it)."""

    def refusal(case: CrapsCase) -> str:
        d = WAGERS[case.wager_id]
        try:
            table.check_stake(d, case.qualifier, d.initial_state(case.qualifier, case.point),
                              stake)
        except Refusal as exc:
            return str(exc)
        return ""

    return refusal


def _lay_note(cfg: CrapsConfig, rules: str) -> str:
    """13:69F takes the lay commission on the stake: what that costs against the common
    practice of taking it on the win ("" where the profile does not)."""
    if cfg.rules.lay_commission_base is not CommissionBase.STAKE or "lay" not in cfg.rules.wagers:
        return ""
    figures = []
    vig = Fraction(cfg.vig)
    for number in (4, 5, 6):
        win = cfg.pays[f"lay:{number}"].ratio  # what a unit laid could win
        on_stake = vig / (1 + vig)
        on_win = vig * win / (1 + vig * win)
        figures.append(f"lay {number}/{14 - number}: {float(on_stake):.3%} against "
                       f"{float(on_win):.3%}")
    return (
        f"{rules} takes the lay commission on the amount wagered "
        f"({cfg.rules.clause('lay_commission_clause')}); common practice takes it on what the "
        f"lay could win, so the lay costs more here than players expect at the same rate "
        f"({cfg.vig}, paid when the bet is made): " + "; ".join(figures) + ".")


# --- a proposal's commission and elected wagers ----------------------------------------------


def _over_maximum(value: Any) -> bool:
    """A commission rate over five percent (False for one that is no decimal at all)."""
    try:
        vig = Decimal(str(value))
    except InvalidOperation:
        return False
    return vig.is_finite() and vig > MAX_VIG


def _refuse_vig(report: TableReport, rules: CrapsRules, options: dict[str, Any]) -> None:
    """A commission over five percent is refused and read at five percent."""
    if "vig" not in options:
        return
    try:
        Decimal(str(options["vig"]))
    except InvalidOperation:
        raise Malformed(f"{report.name}: options.vig", "not a decimal rate") from None
    if _over_maximum(options["vig"]):
        report.entries.append(Entry(
            report.name, "vig", "at most 0.05", str(options["vig"]), None, REFUSED,
            "a commission over five percent of the wager",
            rules.clause("buy_commission_clause") or rules.clause("pays_clause")))
        options["vig"] = str(MAX_VIG)


def _refuse_timing(report: TableReport, rules: CrapsRules, options: dict[str, Any]) -> None:
    """A commission collected when the profile forbids it is refused and read at the time
    the profile allows."""
    allowed = list(rules.vig_collected)
    if options.get("vig_collected") in tuple(CommissionTiming) and \
            options["vig_collected"] not in allowed:
        report.entries.append(Entry(
            report.name, "vig_collected", " or ".join(allowed), str(options["vig_collected"]),
            None, REFUSED, "the commission is paid at the time of making the bet",
            f"{rules.clause('buy_commission_clause')}, {rules.clause('lay_commission_clause')}"))
        options["vig_collected"] = allowed[0].value  # the option as written: a string


def _elected(rules: CrapsRules, options: dict[str, Any], wagers: list[str],
             ) -> tuple[dict[str, Any], list[str]]:
    """The options without a wager elected that the profile does not make optional, and the
    wagers offered with it (reported as a wager the profile does not permit)."""
    kept = dict(options)
    offered = list(wagers)
    for elected in [key for key in options if key in WAGERS]:
        if options[elected] is True and elected not in rules.optional:
            kept.pop(elected)
            offered.append(elected)
    return kept, offered


def _cases_by_pay_key(cfg: CrapsConfig) -> dict[str, CrapsCase]:
    """The row that prices each pay-table entry as the table is configured (a split wager
    has no entry of its own: its parts are priced by their own rows)."""
    found: dict[str, CrapsCase] = {}
    for case in craps_cases(cfg):
        if not case.as_configured or WAGERS[case.wager_id].parts is not None:
            continue
        for key in case.pay_keys():
            found.setdefault(key, case)
    return found


# --- the wager reference ---------------------------------------------------------------------


def _show(value: Any) -> str:
    return f"[{value[0]}, {value[1]}]" if isinstance(value, tuple) else str(value)


def _pay_keys(wager_id: str) -> list[str]:
    """The entries a wager is paid by, over its whole domain and every point it may stand on."""
    wager = WAGERS[wager_id]
    keys: list[str] = []
    for qualifier in wager.domain or (None,):
        for point in POINTS:
            keys += wager.pay_keys(qualifier, wager.initial_state(qualifier, point))
    return list(dict.fromkeys(keys))


def _restriction(rules: CrapsRules, wager_id: str) -> str:
    if wager_id in rules.craps_only:
        return " (craps only, not mini-craps)"
    if wager_id in rules.optional:
        return f" (at the casino's election: option {wager_id})"
    return ""


def _permissions(wager_id: str) -> dict[str, str]:
    """Each profile permitting the wager, with its clause and any restriction."""
    out = {}
    for profile_id in PROFILE_IDS:
        rules = load_profile(profile_id).craps
        if rules is not None and rules.permits(wager_id):
            out[profile_id] = rules.wagers[wager_id] + _restriction(rules, wager_id)
    return out


class CrapsAnalysis:
    """The analysis of the craps family (:class:`~croupier.analysis.family.FamilyAnalysis`)."""

    title = "Craps, mini-craps and automated craps"

    def edges(self, opened: OpenedTable, stake: Decimal | None = None) -> list[WagerAnalysis]:
        table = _engine(opened.table)
        if stake is None:
            return analyse_craps(table.config)
        return analyse_craps(table.config, stake, _refusal_at(table, stake))

    def edge_notes(self, opened: OpenedTable) -> dict[str, list[str]]:
        """Where the profile departs from common practice (13:69F takes the lay commission
        on the stake, where casinos commonly take it on the win), and what the calls the
        table's options take (``down_on_win``, ``off_during_point``) do to each wager's
        figures."""
        cfg = _engine(opened.table).config
        notes: dict[str, list[str]] = {}
        lay = _lay_note(cfg, opened.profile.id)
        if lay:
            notes["lay"] = [lay]
        for option, says in CALL_NOTES.items():
            called = [d.id for d in cfg.offered() if getattr(d, option)]
            if getattr(cfg, option) and called:
                note = f"{option} ({', '.join(called)}): {says}"
                for wager in called:
                    notes.setdefault(wager, []).append(note)
        return {wager: notes[wager] for wager in WAGERS if wager in notes}

    def pay_entries(self, profile: Profile) -> tuple[str, ...]:
        """The profile's minimum pays, then each fire pay table's entries."""
        rules = profile.craps
        if rules is None:
            return ()
        names = list(rules.pays)
        for table in rules.fire_tables.values():
            names += [k for k in table if k not in names]
        return tuple(names)

    def refusable(self, profile: Profile, options: Mapping[str, Any]) -> dict[str, Any]:
        """Without a commission over five percent, one collected at a time the profile
        forbids, and a 6-7-8 the profile does not permit."""
        safe = dict(options)
        rules = profile.craps
        if rules is None:
            return safe
        if "vig" in safe and _over_maximum(safe["vig"]):
            safe.pop("vig")  # a rate that is no decimal stays: the configuration names it
        if safe.get("vig_collected") in tuple(CommissionTiming):
            safe.pop("vig_collected")
        if safe.get("six_seven_eight") is True and not rules.permits("six_seven_eight"):
            safe.pop("six_seven_eight")
        return safe

    def check(self, proposal: Proposal) -> TableReport:
        rules = _rules(proposal.profile)
        report = TableReport(proposal.name, proposal.game.name, proposal.profile.id,
                             pays_clause=rules.clause("pays_clause"))
        options = dict(proposal.options)
        _refuse_vig(report, rules, options)
        _refuse_timing(report, rules, options)
        options, offered = _elected(rules, options, proposal.wagers)
        cfg = _engine(proposal.game.open(proposal.profile, options, {})).config
        cases = _cases_by_pay_key(cfg)

        def edge_of(key: str, pays: Mapping[str, Odds]) -> Fraction | None:
            case = cases.get(key)
            return analyse_case(cfg, case, pays).house_edge if case is not None else None

        check_entries(report, replace(proposal, options=options, wagers=offered), rules,
                      dict(cfg.pays), edge_of, {k: c.wager_id for k, c in cases.items()})
        return report

    def wager_rows(self) -> list[dict[str, Any]]:
        return [{
            "id": w.id, "name": w.name, "qualifier": w.qualifier,
            "domain": [_show(q) for q in w.domain],
            "pay_keys": _pay_keys(w.id),
            "split_into": "" if w.parts is None else "the wagers it is paid by",
            "profiles": _permissions(w.id),
        } for w in WAGERS.values()]


ANALYSIS = CrapsAnalysis()
