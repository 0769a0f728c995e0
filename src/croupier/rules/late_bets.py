"""Wagers made while the dice are in the air (late bets): whether a table takes one and who
confirms it, from the table's profile and whether a shooter throws at its game.

13:69F-1.3(a) takes a wager "between the time the dice leave the shooter's hand and the time
the dice come to rest" once it is confirmed verbally, "1. In craps, by the dealer and a
boxperson; or 2. In mini-craps, by the dealer and floorperson". The profile names each game's
confirmers (``late_bet_confirmations``); the game registry says whether a shooter throws
(``Game.has_shooter``; :meth:`croupier.games.Game.late_bet` asks here). Automated craps has
neither a shooter's hand nor a confirmer named, so a late bet there is refused.

>>> from croupier.rules import load_profile
>>> late_bet(load_profile("nj-13-69f"), "mini-craps", shooter=True).by
('dealer', 'floorperson')
>>> try:
...     late_bet(load_profile("nj-13-69f"), "automated-craps", shooter=False)
... except Refusal as refused:
...     print(refused.clause, "|", refused.reason[:78])
N.J.A.C. 13:69F-1.3(a) | no wager is taken after the throw at automated-craps: a device throws the dice
"""

from __future__ import annotations

from croupier.errors import Refusal
from croupier.rules.citations import cite
from croupier.rules.profile import CrapsRules, LateBetConfirmation, Profile


def _where_taken(rules: CrapsRules) -> str:
    return "; ".join(f"at {', '.join(sorted(c.games))}, confirmed by the {' and '.join(c.by)}"
                     for c in rules.late_bet_confirmations)


def late_bet(profile: Profile, game: str, *, shooter: bool) -> LateBetConfirmation:
    """Who confirms a wager made at a ``game`` table under ``profile`` while the dice are in
    the air (``shooter``: a player throws the dice there); :class:`Refusal`, citing the
    clause, where none is taken: the profile's text takes no late bets, or the game has no
    shooter or no confirmer named."""
    rules = profile.craps
    if rules is None or not rules.late_bets:
        raise Refusal(f"the dice are in the air: under {profile.id} every wager is made before "
                      "the dice are thrown (no late bets)", cite(profile.id, "late_bets"))
    clause = rules.clause("late_bet_clause")
    confirmation = rules.late_bet_confirmation(game)
    if not shooter or confirmation is None:
        why = ("a device throws the dice, so the dice never leave a shooter's hand, and "
               if not shooter else "")
        raise Refusal(f"no wager is taken after the throw at {game}: {why}the clause names no "
                      f"one to confirm a late bet there (it takes one {_where_taken(rules)})",
                      clause)
    return confirmation
