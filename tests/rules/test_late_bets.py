"""Late bets (wagers made while the dice are in the air) as the profile's data says them:
13:69F-1.3(a) takes one "between the time the dice leave the shooter's hand and the time the
dice come to rest", confirmed "1. In craps, by the dealer and a boxperson; or 2. In mini-craps,
by the dealer and floorperson". Automated craps has no shooter and no confirmer named."""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from typing import Any

import pytest

from croupier.analysis.jurisdictions import cell, matrix
from croupier.errors import Refusal
from croupier.games import GAMES, game
from croupier.rules import PROFILE_IDS, ProfileError, load_profile
from croupier.rules.profile import CrapsRules, parse_profile

AC = load_profile("nj-13-69f")


def raw(profile_id: str) -> dict[str, Any]:
    text = resources.files("croupier.rules").joinpath(f"{profile_id}.toml").read_text("utf-8")
    return tomllib.loads(text)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(a)1")
def test_at_craps_the_dealer_and_a_boxperson_confirm() -> None:
    confirmation = game("craps").late_bet(AC)
    assert confirmation.by == ("dealer", "boxperson")
    assert confirmation.supervisor == "boxperson"
    assert confirmation.clause == "N.J.A.C. 13:69F-1.3(a)1"


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(a)2")
def test_at_mini_craps_the_dealer_and_floorperson_confirm() -> None:
    confirmation = game("mini-craps").late_bet(AC)
    assert confirmation.by == ("dealer", "floorperson")
    assert confirmation.supervisor == "floorperson"
    assert confirmation.clause == "N.J.A.C. 13:69F-1.3(a)2"


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(a)")
def test_automated_craps_takes_no_late_bet_citing_the_clause() -> None:
    """No shooter's hand for the dice to leave, and the clause names no one to confirm."""
    with pytest.raises(Refusal) as refused:
        game("automated-craps").late_bet(AC)
    assert refused.value.clause == "N.J.A.C. 13:69F-1.3(a)"
    reason = refused.value.reason
    assert "a device throws the dice" in reason and "shooter's hand" in reason
    assert "names no one to confirm" in reason
    # The refusal says where the clause does take one, from the same data.
    assert "at craps, confirmed by the dealer and boxperson" in reason
    assert "at mini-craps, confirmed by the dealer and floorperson" in reason


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1", "N.J.A.C. 19:47-1.2(a)")
@pytest.mark.parametrize(("profile", "clause"), [
    ("nj-casino-night", "N.J.A.C. 13:47-20.25(h)1"), ("nj-19-47", "N.J.A.C. 19:47-1.2(a)")])
def test_profiles_without_late_bets_refuse_them_at_every_craps_game(profile: str,
                                                                    clause: str) -> None:
    loaded = load_profile(profile)
    for name in loaded.games:
        if not isinstance(GAMES[name].rules(loaded), CrapsRules):
            continue
        with pytest.raises(Refusal) as refused:
            GAMES[name].late_bet(loaded)
        assert refused.value.clause == clause and "before the dice are thrown" in refused.value.reason


def test_only_games_where_a_shooter_throws_have_confirmers() -> None:
    """The profile's data and the registry agree: a game named with confirmers has a shooter,
    and under a profile taking late bets every game with a shooter has its confirmers."""
    for pid in PROFILE_IDS:
        rules = load_profile(pid).craps
        if rules is None:
            continue
        named = {g for c in rules.late_bet_confirmations for g in c.games}
        assert all(GAMES[g].has_shooter for g in named), pid
        if rules.late_bets:
            shooters = {g for g in load_profile(pid).games if GAMES[g].has_shooter}
            assert named == shooters, pid


def test_roulette_is_no_game_of_dice_in_the_air() -> None:
    with pytest.raises(TypeError):
        game("roulette").late_bet(load_profile("nj-casino-night"))


def _broken(change: Any) -> dict[str, Any]:
    doc = copy.deepcopy(raw("nj-13-69f"))
    change(doc["craps"])
    return doc


@pytest.mark.parametrize(("change", "says"), [
    (lambda c: c.pop("late_bet_confirmations"), "names who confirms them"),
    (lambda c: c["late_bet_confirmations"][0].update(by=["boxperson", "floorperson"]),
     "the dealer and one other"),
    (lambda c: c["late_bet_confirmations"][0].update(by=["dealer", "dealer"]),
     "the dealer and one other"),
    (lambda c: c["late_bet_confirmations"][1].update(games=["craps"]), "named once"),
    (lambda c: c["late_bet_confirmations"][0].update(games=["roulette"]),
     "not games the profile covers: roulette"),
    (lambda c: c["late_bet_confirmations"][0].update(clause=""), "a clause of the text"),
    (lambda c: c["late_bet_confirmations"][0].update(who="pitboss"), "nothing else"),
    (lambda c: c.update(late_bets=False), "only such a profile does"),
])
def test_confirmations_the_loader_cannot_read_are_refused_at_load(change: Any, says: str) -> None:
    with pytest.raises(ProfileError, match=says):
        parse_profile(_broken(change))


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(a)")
def test_the_jurisdiction_matrix_says_what_holds_at_each_game() -> None:
    late = cell(matrix(), "(table)", "nj-13-69f", "late_bets")
    assert late.clause == "N.J.A.C. 13:69F-1.3(a)" and late.basis == "text"
    assert "refused at automated-craps, where a device throws the dice" in late.value
    assert ("taken at craps, confirmed by the dealer and boxperson (13:69F-1.3(a)1)"
            in late.value)
    assert ("taken at mini-craps, confirmed by the dealer and floorperson (13:69F-1.3(a)2)"
            in late.value)
    night = cell(matrix(), "(table)", "nj-casino-night", "late_bets")
    assert night.value.startswith("none") and night.clause == "N.J.A.C. 13:47-20.25(h)1"
