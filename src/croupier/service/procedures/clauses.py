"""Which clause of a table's own profile (or which reading) a procedure's refusal cites.

The server's procedures (the places at a table, the dice offered and changed, a player
refusing the dice, match play coupons) are not set out by every text. A refusal cites the
clause of the table's profile where its text has one, else the reading of
``rules/readings.toml`` that the server applies in its place.

>>> clause("nj-casino-night", "late_bets"), clause("nj-13-69f", "dice_offer")
('N.J.A.C. 13:47-20.25(h)1', 'replay contract: Table procedures')
"""

from __future__ import annotations

from croupier.errors import Refusal
from croupier.games import GAMES
from croupier.rules import load_profile
from croupier.rules.citations import cite


def clause(profile_id: str, duty: str) -> str:
    """The clause (or reading) a refusal of ``duty`` cites at a ``profile_id`` table."""
    return cite(profile_id, duty)


def coupon_wagers(profile_id: str, game: str) -> frozenset[str]:
    """The wagers a match play coupon may be put with at a ``game`` table under
    ``profile_id``: the profile's own list (``coupon_wagers``; only 13:69F-1.3(b) provides
    for coupons, at the craps games), empty where none are taken."""
    profile = load_profile(profile_id)
    entry = GAMES.get(game)
    rules = entry.rules(profile) if entry is not None and profile.covers(game) else None
    wagers: frozenset[str] = getattr(rules, "coupon_wagers", frozenset())
    return wagers


def check_coupons(profile_id: str, game: str) -> None:
    """Refuse a match play coupon (issued for, or put down at) a ``game`` table under
    ``profile_id`` whose text does not provide for one, citing that text's list of the
    permissible wagers (the wagers are made with chips only)."""
    if coupon_wagers(profile_id, game):
        return
    rules = GAMES[game].rules(load_profile(profile_id))
    cited = rules.clause("permitted_clause") if rules is not None else ""
    raise Refusal(f"match play coupons are not taken under {profile_id} (at {game}): only "
                  "N.J.A.C. 13:69F-1.3(b) provides for them, at craps", cited)
