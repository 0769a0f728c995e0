"""``/profiles``: the rule sets a table may be opened under, one line per profile and game,
with the profile's title and the clause of its text that permits the game's wagers.

Public, as ``/web/offer`` is: it is the regulations' own data, read from the rule profiles
(nothing of the ledger). The organiser's console names each rule set by its title and citation
rather than its bare code.

>>> [(r.profile, r.game) for r in rule_sets()][:2]
[('nj-casino-night', 'craps'), ('nj-casino-night', 'mini-craps')]
>>> next(r for r in rule_sets() if r.game == "roulette").citation
'N.J.A.C. 13:47-20.32(e)'
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import Field

from croupier.games import GAMES
from croupier.rules import PROFILE_IDS, load_profile
from croupier.service.api.replies import Documented

router = APIRouter(tags=["tables"])


class RuleSet(Documented):
    """A rule profile as a table of one game plays it."""

    profile: str = Field(description="the code a table is opened with", examples=["nj-13-69f"])
    title: str = Field(description="the regulation text the profile reads",
                       examples=["N.J.A.C. 13:69F-1"])
    game: str = Field(examples=["craps"])
    citation: str = Field(description="the clause permitting the game's wagers under it",
                          examples=["N.J.A.C. 13:69F-1.2(b)"])
    pays_citation: str = Field(description="the clause of its pay table (payout odds)",
                               examples=["N.J.A.C. 13:69F-1.4(b)"])
    house_pay_table: bool = Field(description="whether the house sets the game's pay table "
                                  "(``/paytables``), above the profile's minimum payouts")


def rule_sets() -> list[RuleSet]:
    """Each profile with each game it covers that this server plays, in the profiles' order."""
    out: list[RuleSet] = []
    for profile_id in PROFILE_IDS:
        profile = load_profile(profile_id)
        for name in profile.games:
            game = GAMES.get(name)
            rules = game.rules(profile) if game is not None else None
            if game is None or rules is None:
                continue
            out.append(RuleSet(profile=profile.id, title=profile.title, game=game.name,
                               citation=rules.clause("permitted_clause"),
                               pays_citation=rules.clause("pays_clause"),
                               house_pay_table=game.house_pay_table))
    return out


@router.get("/profiles", response_model=list[RuleSet])
def profiles() -> list[RuleSet]:
    """The rule sets a table may be opened under: code, title, game and the citations."""
    return rule_sets()
