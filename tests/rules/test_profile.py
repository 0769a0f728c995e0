"""Rule profiles as typed data: what each regulation decides, read from its file, and a file
that says anything the loader does not know refused at load."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from typing import Any

import pytest

from croupier.rules import (
    PROFILE_IDS,
    CommissionBase,
    CommissionTiming,
    ProfileError,
    load_profile,
)
from croupier.rules.profile import parse_profile


def raw(profile_id: str) -> dict[str, Any]:
    text = resources.files("croupier.rules").joinpath(f"{profile_id}.toml").read_text("utf-8")
    return tomllib.loads(text)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(a)")
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1")
def test_only_13_69f_permits_late_bets_and_match_play_coupons() -> None:
    rules = {p: load_profile(p).craps for p in PROFILE_IDS}
    assert {p: r.late_bets for p, r in rules.items() if r} == {
        "nj-casino-night": False, "nj-19-47": False, "nj-13-69f": True}
    assert rules["nj-13-69f"] is not None
    assert rules["nj-13-69f"].clause("late_bet_clause") == "N.J.A.C. 13:69F-1.3(a)"
    assert rules["nj-13-69f"].coupon_wagers == {"pass", "dont_pass"}
    assert rules["nj-13-69f"].clause("coupon_clause") == "N.J.A.C. 13:69F-1.3(b)"
    assert all(not r.coupon_wagers for p, r in rules.items() if r and p != "nj-13-69f")


def test_every_decision_is_typed_data() -> None:
    craps = load_profile("nj-casino-night").craps
    assert craps is not None
    assert craps.lay_commission_base == "win" and craps.vig_collected == ("placement",)
    assert craps.off_on_come_out == {"place_win", "buy"} and craps.dont_bar == 12
    assert craps.seated_games == {"mini-craps"}
    f = load_profile("nj-13-69f").craps
    assert f is not None and f.optional == {"six_seven_eight"} and f.craps_only == {"fire"}
    assert str(f.fire_tables["B"]["fire:6"]) == "499 to 1"


def test_commission_base_and_timing_are_enums_that_read_and_write_as_the_profile_s_words(
        ) -> None:
    night, f = load_profile("nj-casino-night").craps, load_profile("nj-13-69f").craps
    assert night is not None and f is not None
    assert night.lay_commission_base is CommissionBase.WIN
    assert f.lay_commission_base is CommissionBase.STAKE
    assert f.vig_collected == (CommissionTiming.PLACEMENT, CommissionTiming.WIN)
    assert all(type(t) is CommissionTiming for t in f.vig_collected)
    # Written out (JSON, an f-string, str), a member is the profile's own word, never its name.
    assert json.dumps([night.lay_commission_base, *f.vig_collected]) == \
        '["win", "placement", "win"]'
    assert f"{CommissionTiming.WIN} {CommissionBase.STAKE}" == "win stake"
    assert str(CommissionTiming.PLACEMENT) == "placement"


def test_a_clause_name_that_is_not_a_clause_is_an_error_not_an_empty_string() -> None:
    craps = load_profile("nj-19-47").craps
    assert craps is not None
    assert craps.clause("buy_commission_clause") == ""  # a clause 19:47 does not have
    with pytest.raises(ProfileError, match="did you mean 'removal_clause'"):
        craps.clause("removal_clase")


@pytest.mark.parametrize(("section", "key", "value", "message"), [
    ("craps", "late_bet", True, "unknown setting; did you mean 'late_bets'"),
    ("craps", "odds_clauses", "N.J.A.C. x", "unknown setting; did you mean 'odds_clause'"),
    ("craps", "free_odds", "yes", "must be a bool"),
    ("craps", "optional", ["no_such_wager"], "not permitted wagers: no_such_wager"),
    ("craps", "lay_commission_base", "stake-ish", "one of stake, win"),
    ("craps", "timng_clause", "N.J.A.C. x", "unknown clause; did you mean 'timing_clause'"),
    ("roulette", "minimum_revolution", 4, "unknown setting"),
    (None, "gmaes", [], "unknown profile key"),
])
def test_a_profile_saying_what_the_loader_does_not_know_is_refused_at_load(
    section: str | None, key: str, value: Any, message: str,
) -> None:
    doc = raw("nj-casino-night")
    (doc[section] if section else doc)[key] = value
    with pytest.raises(ProfileError, match=message):
        parse_profile(doc)


def test_a_profile_permitting_late_bets_must_cite_the_clause() -> None:
    doc = raw("nj-19-47")
    doc["craps"]["late_bets"] = True
    with pytest.raises(ProfileError, match="cites the clause"):
        parse_profile(doc)


def test_the_shipped_profiles_parse_to_what_load_profile_gives() -> None:
    for profile_id in PROFILE_IDS:
        assert parse_profile(raw(profile_id)) == load_profile(profile_id)
