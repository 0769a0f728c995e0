"""The craps felt as the table offers it (craps/felt.py): every spot the page may send makes
the bet its key names, the pays and the art are the definitions' own, and a wager with no
line in the felt table is drawn among the "more bets", or where a line puts it."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from importlib import resources
from typing import Any

import pytest

from croupier.craps import felt
from croupier.craps.actions import Bet, TakeDown
from croupier.craps.config import CrapsConfig
from croupier.craps.reading import read_action
from croupier.craps.table import CrapsTable
from croupier.craps.wagers import LOSE, WAGERS, WagerDef, Win
from croupier.games import GAMES
from croupier.rules import PROFILE_IDS, load_profile
from croupier.rules.profile import parse_profile

CRAPS_GAMES = [g for g in GAMES.values() if g.family == "craps"]
AREAS = {"numbers", "bar", "band", "side", "behind", "props", "more"}


def _offers() -> list[tuple[str, str, dict[str, Any]]]:
    return [(p, g.name, g.offer(load_profile(p), {})) for p in PROFILE_IDS for g in CRAPS_GAMES
            if load_profile(p).covers(g.name)]


def _action(verb: str, spec: dict[str, Any]) -> dict[str, Any]:
    """The replay's action for the body the page sends (``wager`` is the verb's value)."""
    fields = {k: v for k, v in spec.items() if k != "wager"}
    return {verb: spec["wager"], "player": "ann", **fields,
            **({"amount": "5"} if verb == "bet" else {})}


@pytest.mark.parametrize(("profile", "game", "offer"), _offers())
def test_each_spot_the_page_sends_makes_the_bet_its_key_names(profile: str, game: str,
                                                               offer: dict[str, Any]) -> None:
    for key, spot in offer["spots"].items():
        d = WAGERS[spot["wager"]]
        if "state" in spot:  # a travelling wager on its number: taken down by that number
            action = read_action(_action("remove", spot["spec"]), "a", ["ann"])
            assert isinstance(action, TakeDown)
            assert d.key(None, action.qualifier) == key, (profile, game, key)
            continue
        bet = read_action(_action("bet", spot["spec"]), "a", ["ann"])
        assert isinstance(bet, Bet) and bet.wager == d.id
        assert d.key(bet.qualifier, None) == key, (profile, game, key)


@pytest.mark.parametrize(("profile", "game", "offer"), _offers())
def test_each_wager_offered_is_drawn_somewhere_with_its_keys(profile: str, game: str,
                                                              offer: dict[str, Any]) -> None:
    assert list(offer["defs"]) == [w for w in WAGERS if w in offer["wagers"]]
    for wager_id, d in offer["defs"].items():
        assert d["felt"]["area"] in AREAS
        assert (d["felt"]["area"] == "more") == (wager_id not in felt.FELT)
        domain = WAGERS[wager_id].domain if WAGERS[wager_id].qualifier else (None,)
        assert len(d["keys"]) == len(domain) and set(d["keys"]) <= set(offer["spots"])
        for key in d["keys"]:
            spot = offer["spots"][key]
            pays = spot.get("pays") or [k for keys in spot["pays_at"].values() for k in keys]
            assert set(pays) <= set(offer["pays"]), key


def test_what_the_page_reads_of_each_wager_is_its_definition() -> None:
    offer = GAMES["craps"].offer(load_profile("nj-13-69f"), {"down_on_win": True})
    defs, spots = offer["defs"], offer["spots"]
    # 13:69F-1.2(a)1, 1.3(c): a pass bet is made before a come-out, not removed after its point.
    assert (defs["pass"]["timing"], defs["pass"]["removal"]) == ("come_out", "until_point")
    assert (defs["dont_pass"]["removal"], defs["dont_pass"]["dont"]) == ("dont", True)
    assert (defs["fire"]["timing"], defs["fire"]["removal"]) == ("new_shooter", "never")
    assert defs["place_win"]["calls"] == ["down_on_win"] and defs["hard"]["calls"] == []
    assert defs["place_win"]["off_on_come_out"] and not defs["lay"]["off_on_come_out"]
    # Odds: behind the pass line, paid by the point; behind a come bet on its number.
    assert (spots["pass"]["odds"], spots["pass_odds"]["place"]["with"]) == ("pass_odds", "pass")
    assert spots["pass_odds"]["pays_at"] == {str(n): [f"pass_odds:{n}"] for n in (4, 5, 6, 8, 9, 10)}
    assert "odds" not in spots["come"] and spots["come:9"]["odds"] == "come_odds:9"
    assert spots["come:9"]["place"]["number"] == 9 and spots["come_odds:9"]["place"]["with"] == "come:9"
    # 13:69F-1.2(a)20: Horn High 12 is four units on the horn and a fifth on the 12.
    assert [(p["key"], p["units"]) for p in spots["horn_high:12"]["parts"]] == [
        ("craps_2", 1), ("craps_3", 1), ("yo_11", 1), ("craps_12", 2)]


def test_the_art_is_worked_out_from_the_decisions() -> None:
    spots = GAMES["craps"].offer(load_profile("nj-13-69f"), {})["spots"]
    # 13:69F-1.2(a)11: the field wins on 2, 3, 4, 9, 10, 11 and 12; 2 and 12 at their own odds.
    assert spots["field"]["totals"] == [2, 3, 4, 9, 10, 11, 12]
    assert [r["text"] for r in spots["field"]["rings"]] == ["2", "12"]
    # A hardway is its number thrown as a pair; a hop the two dice named; craps three is 1-2.
    assert [spots[f"hard:{n}"]["dice"] for n in (4, 6, 8, 10)] == [[2, 2], [3, 3], [4, 4], [5, 5]]
    assert spots["hop:1-3"]["dice"] == [1, 3] and spots["craps_3"]["dice"] == [1, 2]
    assert "dice" not in spots["any_seven"]  # six rolls win it: no one pair to draw
    assert spots["fire"]["lines"] == ["4 pts 24 to 1", "5 pts 249 to 1", "6 pts 999 to 1"]


def _with_a_new_wager(monkeypatch: pytest.MonkeyPatch) -> CrapsConfig:
    """nj-13-69f permitting a wager defined here, at 15 to 1: a 2 or a 12 on the next roll."""
    def decide(_q: Any, _s: Any, d1: int, d2: int) -> Win | Any:
        return Win("aces_or_boxcars") if d1 + d2 in (2, 12) else LOSE

    monkeypatch.setitem(WAGERS, "aces_or_boxcars", WagerDef(
        "aces_or_boxcars", "Aces or Boxcars", decide, lambda _q, _s: ("aces_or_boxcars",),
        one_roll=True))
    text = resources.files("croupier.rules").joinpath("nj-13-69f.toml").read_text("utf-8")
    raw = tomllib.loads(text)
    raw["craps"]["wagers"]["aces_or_boxcars"] = "test: Aces or Boxcars"
    raw["craps"]["pays"]["aces_or_boxcars"] = "15 to 1"
    return CrapsConfig.from_options(parse_profile(raw), {})


def test_a_new_wager_is_among_the_more_bets_until_a_line_places_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = _with_a_new_wager(monkeypatch)
    table = CrapsTable(cfg, {"ann": Decimal(100)})
    offer = table.offer()
    d, spot = offer["defs"]["aces_or_boxcars"], offer["spots"]["aces_or_boxcars"]
    assert (d["felt"]["area"], d["name"], d["one_roll"]) == ("more", "Aces or Boxcars", True)
    assert (spot["spec"], spot["pay"], spot["pays"]) == (
        {"wager": "aces_or_boxcars"}, "15 to 1", ["aces_or_boxcars"])
    monkeypatch.setitem(felt.FELT, "aces_or_boxcars",
                        felt.Spot("props", row=4, slot=1, label="ACES · BOXCARS", art=("pay",)))
    placed = table.offer()["defs"]["aces_or_boxcars"]["felt"]
    assert (placed["area"], placed["row"], placed["slot"]) == ("props", 4, 1)
    assert table.offer()["spots"]["aces_or_boxcars"]["label"] == "ACES · BOXCARS"
