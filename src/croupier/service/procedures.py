"""The table procedures the server runs, per the table's own profile and game.

The server's procedures (late bets while the dice are in the air, match play coupons, who
confirms a late bet, the dice, the places at a table) are not the same under every text. This
module answers, for a table's profile and game, whether a procedure applies and which clause of
that profile's text (or which reading in ``rules/readings.toml``) a refusal cites, so that
``service/actions.py`` asks here instead of naming one text's clauses for every table.

>>> late_bets_permitted("nj-13-69f"), late_bets_permitted("nj-casino-night")
(True, False)
>>> clause("nj-casino-night", "late_bets")
'N.J.A.C. 13:47-20.25(h)1'
>>> confirming_role("mini-craps", "supervisor"), confirming_role("craps", "supervisor")
('floorperson', 'boxperson')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from croupier.errors import Refusal
from croupier.games import GAMES
from croupier.rules import CrapsRules, load_profile
from croupier.rules.citations import cite

LATE_BET_KEY = "late_bet_clause"
"""The profile setting naming the clause that provides for late bets (13:69F-1.3(a))."""

# 13:69F-1.3(a)1 and (a)2: who confirms a late bet besides the dealer, per game. Both are
# first-level supervisors, the server's supervisor role; the record names the one the clause
# names for the table's game.
CONFIRMERS = {"craps": "boxperson", "mini-craps": "floorperson"}
CONFIRM_CLAUSES = {"craps": "N.J.A.C. 13:69F-1.3(a)1", "mini-craps": "N.J.A.C. 13:69F-1.3(a)2"}


def clause(profile_id: str, duty: str) -> str:
    """The clause (or contract reading) a refusal of ``duty`` cites at a ``profile_id`` table."""
    return cite(profile_id, duty)


def _craps_setting(profile_id: str, key: str) -> str:
    rules = load_profile(profile_id).craps
    return "" if rules is None else rules.clause(key)


def late_bets_permitted(profile_id: str) -> bool:
    """Whether the profile's text provides for wagers made while the dice are in the air: the
    profile's own ``late_bets`` field (13:69F-1.3(a)), the one place that decides it."""
    rules = load_profile(profile_id).craps
    return rules is not None and rules.late_bets


def late_bet_clause(profile_id: str, game: str) -> str:
    """The clause under which a late bet at ``game`` is taken: the sub-item naming who
    confirms it where the text has one (13:69F-1.3(a)1 or (a)2)."""
    base = _craps_setting(profile_id, LATE_BET_KEY) if late_bets_permitted(profile_id) else ""
    if base and base == "N.J.A.C. 13:69F-1.3(a)" and game in CONFIRM_CLAUSES:
        return CONFIRM_CLAUSES[game]
    return base


def check_late_bet(profile_id: str) -> None:
    """Refuse a wager made after the dice are thrown where the profile's text does not
    provide for one, citing the text's own timing rule."""
    if not late_bets_permitted(profile_id):
        raise Refusal(f"the dice are in the air: under {profile_id} every wager is made before "
                      "the dice are thrown (no late bets)", clause(profile_id, "late_bets"))


def dice_out_clause(profile_id: str) -> str:
    """What "the dice are in the air" cites: the late-bet clause where late bets are taken,
    else the clause saying bets are made before the throw."""
    if late_bets_permitted(profile_id):
        return _craps_setting(profile_id, LATE_BET_KEY)
    return clause(profile_id, "late_bets")


def coupons_permitted(profile_id: str, game: str) -> bool:
    """Whether a ``game`` table under ``profile_id`` takes match play coupons: only at the
    craps games whose profile lists the wagers a coupon may be put with (``coupon_wagers``,
    13:69F-1.3(b)), the one place that decides it."""
    profile = load_profile(profile_id)
    entry = GAMES.get(game)
    rules = entry.rules(profile) if entry is not None and profile.covers(game) else None
    return isinstance(rules, CrapsRules) and bool(rules.coupon_wagers)


def check_coupons(profile_id: str, game: str) -> None:
    """Refuse a match play coupon (issued for, or put down at) a ``game`` table under
    ``profile_id`` whose text does not provide for one, citing that text's list of the
    permissible wagers (the wagers are made with chips only)."""
    if coupons_permitted(profile_id, game):
        return
    rules = GAMES[game].rules(load_profile(profile_id))
    cited = rules.clause("permitted_clause") if rules is not None else ""
    raise Refusal(f"match play coupons are not taken under {profile_id} (at {game}): only "
                  "N.J.A.C. 13:69F-1.3(b) provides for them, at craps", cited)


PlanT = TypeVar("PlanT")


def coupons_checked(plan_fn: Callable[[Any], PlanT], profile_id: str,
                    game: str) -> Callable[[Any], PlanT]:
    """``plan_fn`` (a coupon wager) refused first where the table's profile takes none."""

    def plan(conn: Any) -> PlanT:
        check_coupons(profile_id, game)
        return plan_fn(conn)

    return plan


def confirming_role(game: str, user_role: str) -> str:
    """The role a late-bet confirmation is recorded under: the dealer's, or the supervisor's
    as the clause of the game names it (boxperson at craps, floorperson at mini-craps)."""
    if user_role == "dealer":
        return "dealer"
    return CONFIRMERS.get(game, "boxperson")

