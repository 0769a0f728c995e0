"""The posted rules of the game, built in process for every profile and game: the notices their
clauses require, the pay table stated "x to y", and the table's options shown as configured."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import Malformed
from croupier.rules import PROFILE_IDS, load_profile
from croupier.rules.posted import PostedRules, posted_rules, to_html, to_json, to_markdown

ODDS = re.compile(r"^[1-9][0-9]* to [1-9][0-9]*$")
TABLES = [(game, pid) for pid in PROFILE_IDS for game in load_profile(pid).games]
WHEELS = ["double-zero", "single-zero", "double-zero-as-single"]


def _clauses(doc: PostedRules) -> list[str]:
    return [n.clause for n in doc.notices]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(i)1")
def test_double_zero_used_as_single_zero_carries_the_notice() -> None:
    doc = posted_rules("roulette", "nj-casino-night", {"wheel": "double-zero-as-single"})
    notice = next(n for n in doc.notices if n.clause == "N.J.A.C. 13:47-20.32(i)1")
    assert "used as a single-zero wheel" in notice.text and '"no spin"' in notice.text
    # The notice is on every rendering, with its clause.
    assert "(N.J.A.C. 13:47-20.32(i)1)" in to_markdown(doc)
    assert "13:47-20.32(i)1" in to_html(doc)
    # Only that wheel carries it; 00 is not a wager's number there.
    for wheel in ("double-zero", "single-zero"):
        other = posted_rules("roulette", "nj-casino-night", {"wheel": wheel})
        assert "N.J.A.C. 13:47-20.32(i)1" not in _clauses(other)
    assert "first_five" not in [w.id for w in doc.wagers]


@pytest.mark.clause("N.J.A.C. 13:47-20.32(g)")
@pytest.mark.parametrize(("rule", "says"), [("half", "lose half of the wager"),
                                            ("full", "lose the entire wager")])
def test_the_zero_rule_in_effect_is_noticed_at_a_double_zero_wheel(rule: str, says: str) -> None:
    doc = posted_rules("roulette", "nj-casino-night", {"wheel": "double-zero", "zero_rule": rule})
    notice = next(n for n in doc.notices if n.clause == "N.J.A.C. 13:47-20.32(g)")
    assert says in notice.text
    assert doc.zero_rule.startswith(f"double zero wheel, {rule} zero rule")


@pytest.mark.clause("N.J.A.C. 13:47-20.32(h)")
def test_single_zero_wheel_loses_even_money_whole() -> None:
    doc = posted_rules("roulette", "nj-casino-night", {"wheel": "single-zero"})
    assert "N.J.A.C. 13:47-20.32(h)" in _clauses(doc)
    assert "are lost" in doc.zero_rule
    with pytest.raises(Malformed, match=r"options\.zero_rule"):
        posted_rules("roulette", "nj-casino-night", {"wheel": "single-zero", "zero_rule": "half"})


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(a)", "N.J.A.C. 19:47-1.4(a)", "N.J.A.C. 13:47-20.25(i)1",
                    "N.J.A.C. 13:47-20.32(f)")
@pytest.mark.parametrize(("game", "profile"), TABLES)
def test_every_odds_string_uses_to(game: str, profile: str) -> None:
    doc = posted_rules(game, profile, {})
    lines = [odds for w in doc.wagers for _, odds in w.pays if odds[0].isdigit()]
    lines += [odds for _, odds in doc.fire]
    assert lines and all(ODDS.match(o) for o in lines), [o for o in lines if not ODDS.match(o)]
    assert not re.search(r"\d+ for \d+", to_markdown(doc))
    # Each wager the profile permits for the game is listed with its clause and a human name.
    rules = load_profile(profile).roulette if game == "roulette" else load_profile(profile).craps
    assert rules is not None
    for w in doc.wagers:
        assert rules.wagers[w.id] == w.clause and "_" not in w.name
    # The odds wording is a notice citing the profile's own clause.
    wording = [n for n in doc.notices if '"x to y"' in n.text]
    assert len(wording) == 1 and wording[0].clause.startswith("N.J.A.C. " + profile_text(profile))


def profile_text(profile: str) -> str:
    return {"nj-13-69f": "13:69F", "nj-19-47": "19:47", "nj-casino-night": "13:47"}[profile]


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "N.J.A.C. 13:69F-1.4(e)")
def test_craps_shows_its_options_as_configured() -> None:
    doc = posted_rules("craps", "nj-13-69f", {"odds": "2", "vig": "0.04", "vig_collected": "win",
                                              "fire_pay_table": "B", "six_seven_eight": False,
                                              "min_bet": "5", "max_bet": "500"})
    assert dict(doc.limits) == {"chip unit": "1", "minimum wager": "5", "maximum wager": "500"}
    assert dict(doc.odds_multiples)["6"] == "2 times the flat bet"
    commission = dict(doc.commission)
    assert commission["rate"] == "4%" and commission["buy 4"] == "collected when the bet wins"
    assert "of the amount laid" in commission["lay bets"]
    assert dict(doc.fire) == {"4 different points made": "39 to 1",
                              "5 different points made": "199 to 1",
                              "6 different points made": "499 to 1"}
    assert doc.six_seven_eight == "not offered"
    assert "N.J.A.C. 13:69F-1.5(a)" in _clauses(doc)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(k)", "N.J.A.C. 13:69F-1.2(a)")
def test_casino_night_and_mini_craps_differ_where_their_texts_do() -> None:
    night = posted_rules("craps", "nj-casino-night", {})
    assert night.odds_multiples == () and night.fire == ()
    assert "of what the lay bet could win" in dict(night.commission)["lay bets"]
    assert dict(night.commission)["lay 10"] == "collected when the bet is made"
    mini = posted_rules("mini-craps", "nj-13-69f", {})
    assert "fire" not in [w.id for w in mini.wagers] and mini.fire == ()


@given(st.sampled_from(WHEELS), st.sampled_from(["full", "half"]), st.booleans(), st.booleans())
@settings(max_examples=30, deadline=None)
def test_roulette_documents_render_and_carry_every_zero_clause(
        wheel: str, rule: str, five: bool, seven: bool) -> None:
    options = {"wheel": wheel, "zero_rule": rule, "five_adjacent": five, "seven_numbers": seven}
    try:
        doc = posted_rules("roulette", "nj-casino-night", options)
    except Malformed:
        assert rule == "half" and wheel != "double-zero"
        return
    zero_clause = load_profile("nj-casino-night").roulette.zero_rule_clauses[  # type: ignore[union-attr]
        wheel]
    assert zero_clause in _clauses(doc)
    ids = [w.id for w in doc.wagers]
    assert ("five_adjacent" in ids) == five and ("seven_numbers" in ids) == seven
    assert json.loads(json.dumps(to_json(doc)))["notices"][0]["clause"] == doc.notices[0].clause


def test_cli_prints_the_posted_rules_and_refuses_bad_options() -> None:
    run = [sys.executable, "-m", "croupier", "rules", "--posted", "--game", "roulette",
           "--rules", "nj-casino-night"]
    out = subprocess.run([*run, "--option", "wheel=double-zero-as-single", "--json"],
                         capture_output=True, text=True, check=True).stdout
    assert "N.J.A.C. 13:47-20.32(i)1" in [n["clause"] for n in json.loads(out)["notices"]]
    bad = subprocess.run([*run, "--option", "wheel=triple-zero"], capture_output=True, text=True)
    assert bad.returncode == 2 and "options.wheel" in bad.stderr
    bad = subprocess.run([*run, "--option", "wheel"], capture_output=True, text=True)
    assert bad.returncode == 2 and "KEY=VALUE" in bad.stderr


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_commission_timing_and_minimums_are_posted_bet_by_bet() -> None:
    """1.5(a): the casino describes, "as to each specified place bet", whether it collects the
    percentage when the wager is made or when it is won."""
    doc = posted_rules("craps", "nj-13-69f", {"vig_on_win": ["buy:4", "buy:10"],
                                              "min_buy": 20, "min_lay": 40})
    lines = dict(doc.commission)
    assert lines["buy 4"] == lines["buy 10"] == "collected when the bet wins"
    assert lines["buy 6"] == lines["lay 4"] == "collected when the bet is made"
    assert (lines["minimum buy bet"], lines["minimum lay bet"]) == ("20", "40")
    notice = next(n for n in doc.notices if n.clause == "N.J.A.C. 13:69F-1.5(a)")
    assert "when the bet wins on buy 4, buy 10" in notice.text



@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_every_buy_bet_named_on_the_win_is_posted_as_collected_on_the_win() -> None:
    """1.5(a): a table collecting at placement but naming all six buy bets in vig_on_win
    collects every buy commission on the win, and its notice says so (not the table's
    placement timing), as each number's line does."""
    every = [f"buy:{n}" for n in (4, 5, 6, 8, 9, 10)]
    doc = posted_rules("craps", "nj-13-69f", {"vig_on_win": every})
    assert dict(doc.commission)["buy 5"] == "collected when the bet wins"
    notice = next(n for n in doc.notices if n.clause == "N.J.A.C. 13:69F-1.5(a)")
    assert notice.text == ("The commission on buy bets is collected when the bet wins, on "
                           "every number.")
    lay = next(n for n in doc.notices if n.clause == "N.J.A.C. 13:69F-1.5(b)")
    assert lay.text == ("The commission on lay bets is collected when the bet is made, on "
                        "every number.")

@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)", "N.J.A.C. 13:47-20.25(h)1v")
def test_the_come_out_notice_says_what_off_does_during_a_point() -> None:
    doc = posted_rules("craps", "nj-13-69f", {})
    notice = next(n for n in doc.notices if n.clause == "N.J.A.C. 13:69F-1.3(e)")
    assert "Place Bet to Win" in notice.text and "keeps working" in notice.text
    other = posted_rules("craps", "nj-casino-night", {"place_lose_off_on_come_out": True})
    notice = next(n for n in other.notices if n.clause == "N.J.A.C. 13:47-20.25(h)1v")
    assert "Place Bet to Lose" in notice.text and "Lay Bet" in notice.text
    default = posted_rules("craps", "nj-casino-night", {})
    notice = next(n for n in default.notices if n.clause == "N.J.A.C. 13:47-20.25(h)1v")
    assert "Place Bet to Lose" not in notice.text


@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)1")
@pytest.mark.parametrize("wheel", WHEELS)
def test_roulette_odds_wording_notice_cites_the_wording_clause(wheel: str) -> None:
    """20.25(i)1 requires odds stated "to", never "for", in whatever a casino night licensee
    publishes; 20.32(f) is the pay table, which requires no notice."""
    doc = posted_rules("roulette", "nj-casino-night", {"wheel": wheel})
    wording = next(n for n in doc.notices if '"x to y"' in n.text)
    assert wording.clause == "N.J.A.C. 13:47-20.25(i)1"
    assert "N.J.A.C. 13:47-20.32(f)" not in _clauses(doc)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "N.J.A.C. 13:69F-1.5(b)")
def test_lay_commission_timing_cites_the_lay_clause() -> None:
    """1.5(a) governs buy bets ("as to each specified place bet"), 1.5(b) lay bets ("a casino
    licensee may collect the percentage ... only on winning bets"): each timing notice cites
    the clause of its own bets."""
    doc = posted_rules("craps", "nj-13-69f", {"vig_on_win": ["lay:4", "lay:10"]})
    lay = next(n for n in doc.notices if "lay" in n.text and "commission" in n.text)
    assert lay.clause == "N.J.A.C. 13:69F-1.5(b)"
    assert "when the bet wins on lay 4, lay 10" in lay.text and "buy" not in lay.text
    buy = next(n for n in doc.notices if "buy" in n.text and "commission" in n.text)
    assert buy.clause == "N.J.A.C. 13:69F-1.5(a)" and "lay" not in buy.text
    assert "on every number" in buy.text


@pytest.mark.parametrize(("game", "profile"), [("craps", "nj-13-69f"), ("roulette", "nj-casino-night")])
def test_the_json_sections_are_the_rest_of_the_markdown(game: str, profile: str) -> None:
    """The browser table shows the posted rules' limits, odds, commission and the rest from
    ``sections`` without naming any: the same titles and lines as the Markdown, after the
    notices and the wagers."""
    doc = posted_rules(game, profile, {})
    markdown = to_markdown(doc).split("\n## ")[3:]  # the heading, the notices, the wagers
    sections = to_json(doc)["sections"]
    assert [s["title"] for s in sections] == [part.split("\n", 1)[0] for part in markdown]
    assert [s["lines"] for s in sections] == [
        [line[2:] for line in part.split("\n") if line.startswith("- ")] for part in markdown]
    assert "Limits" in [s["title"] for s in sections]
