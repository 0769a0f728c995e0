"""The analysis of roulette.

Each wager is decided by one spin of the table's wheel (:mod:`croupier.analysis.exact`); on a
given wheel every qualifier of a wager has the same figures, so the edge table lists one of
each. A proposal's options are all read as the table reads them: roulette has no option that
a report shows as a refusal. The registry names this module for roulette
(:attr:`croupier.games.Game.analysis`).

>>> from croupier.analysis.family import open_table
>>> opened = open_table("roulette", "nj-casino-night", {"wheel": "double-zero"})
>>> ANALYSIS.edge_notes(opened), [str(r.house_edge) for r in ANALYSIS.edges(opened)][:2]
({}, ['1/19', '1/19'])
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from croupier.analysis.compliance import Proposal, TableReport, check_entries
from croupier.analysis.exact import (
    WagerAnalysis,
    analyse_roulette,
    analyse_roulette_wager,
    roulette_qualifiers,
)
from croupier.analysis.family import OpenedTable
from croupier.money import Odds
from croupier.roulette.reading import read_options
from croupier.roulette.wagers import INDEX_DOMAIN, WAGERS
from croupier.rules import PROFILE_IDS, Profile, RouletteRules, load_profile

_DOMAIN = {
    "numbers": "the numbers covered, which must form the wager on the layout: [17, 20], "
               '["00", 2, 3]',
    "center": 'a number 0 to 36 or "00": the centre of five neighbours on the wheel',
    "column": ", ".join(str(i) for i in INDEX_DOMAIN),
    "dozen": ", ".join(str(i) for i in INDEX_DOMAIN),
}
"""What each qualifier of a roulette wager takes, in words (the wager reference)."""


def _rules(profile: Profile) -> RouletteRules:
    rules = profile.roulette
    if rules is None:  # pragma: no cover - a profile covering roulette has roulette rules
        raise ValueError(f"{profile.id} has no roulette rules")
    return rules


def _permissions(wager_id: str) -> dict[str, str]:
    """Each profile permitting the wager, with its clause."""
    out = {}
    for profile_id in PROFILE_IDS:
        rules = load_profile(profile_id).roulette
        if rules is not None and rules.permits(wager_id):
            out[profile_id] = rules.wagers[wager_id]
    return out


class RouletteAnalysis:
    """The analysis of roulette (:class:`~croupier.analysis.family.FamilyAnalysis`)."""

    title = "Roulette"

    def edges(self, opened: OpenedTable, stake: Decimal | None = None) -> list[WagerAnalysis]:
        """Every wager the table offers, one qualifier each (a stake changes nothing here:
        no commission is taken at roulette)."""
        return analyse_roulette(opened.profile.id, opened.options)

    def edge_notes(self, opened: OpenedTable) -> dict[str, list[str]]:
        return {}

    def pay_entries(self, profile: Profile) -> tuple[str, ...]:
        rules = profile.roulette
        return () if rules is None else tuple(rules.pays)

    def refusable(self, profile: Profile, options: Mapping[str, Any]) -> dict[str, Any]:
        return dict(options)

    def check(self, proposal: Proposal) -> TableReport:
        rules = _rules(proposal.profile)
        report = TableReport(proposal.name, proposal.game.name, proposal.profile.id,
                             pays_clause=rules.clause("pays_clause"))
        config = read_options(dict(proposal.options), proposal.profile)

        def edge_of(key: str, pays: Mapping[str, Odds]) -> Fraction | None:
            qualifiers = roulette_qualifiers(key, config.wheel) if key in rules.wagers else []
            if not qualifiers:
                return None
            return analyse_roulette_wager(key, qualifiers[0], config.wheel, config.zero_rule,
                                          pays).house_edge

        check_entries(report, proposal, rules, dict(rules.pays), edge_of, {})
        return report

    def wager_rows(self) -> list[dict[str, Any]]:
        return [{
            "id": w.id, "name": w.name, "qualifier": w.qualifier,
            "domain": [_DOMAIN[w.qualifier]] if w.qualifier else [],
            "pay_keys": [w.pay_key], "split_into": "",
            "profiles": _permissions(w.id),
        } for w in WAGERS.values()]


ANALYSIS = RouletteAnalysis()
