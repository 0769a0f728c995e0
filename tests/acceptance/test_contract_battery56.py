"""An independent lab's battery against the replay contract (shared/spec/transcript.md) and
the regulations: malformed input of every kind, then exact payouts and limits worked out by
hand from the regulation text (each test's docstring names the clause and shows the sums).

Every case runs the real command line, as a lab would (``conftest.run_raw``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from .conftest import (
    CASINO_NIGHT,
    NJ_13_69F,
    NJ_19_47,
    bet,
    check,
    malformed,
    off,
    on,
    play,
    reduce,
    rejected,
    remove,
    roll,
    rolls,
    run_raw,
    shooter,
    sit,
    stand,
    transcript,
)

HEAD = '{"game": "craps", "rules": "nj-13-69f", "players": {"a": 100}, '


def _doc(actions: str = "[]", players: str = '{"a": 100}', options: str = "{}") -> str:
    return ('{"game": "craps", "rules": "nj-13-69f", "options": ' + options
            + ', "players": ' + players + ', "actions": ' + actions + "}")


# ------------------------------------------------------------------ (1) malformed input

MALFORMED_TEXT: list[tuple[str, str, str]] = [
    # (id, transcript text, the place the one stderr line must start with)
    ("not-an-object-list", "[1, 2]", "transcript"),
    ("not-an-object-string", '"craps"', "transcript"),
    ("not-an-object-null", "null", "transcript"),
    ("empty-file", "", "transcript"),
    ("whitespace-only", "  \n\t ", "transcript"),
    ("truncated", HEAD + '"actions": [', "transcript"),
    ("duplicate-top-key",
     '{"game": "craps", "game": "roulette", "rules": "nj-13-69f", "players": {"a": 1},'
     ' "actions": []}', "game"),
    ("duplicate-player", _doc(players='{"a": 100, "a": 5}'), "players.a"),
    ("duplicate-amount",
     _doc('[{"player": "a", "bet": "pass", "amount": 5, "amount": 500}]'), "actions[0].amount"),
    ("NaN-literal", _doc(players='{"a": NaN}'), "transcript"),
    ("Infinity-literal", _doc(players='{"a": Infinity}'), "transcript"),
    ("NaN-string", _doc(players='{"a": "NaN"}'), "players.a"),
    ("inf-string", _doc(players='{"a": "-Infinity"}'), "players.a"),
    ("negative-zero-bankroll", _doc(players='{"a": -0}'), "players.a"),
    ("negative-zero-string", _doc(players='{"a": "-0.00"}'), "players.a"),
    ("bankroll-true", _doc(players='{"a": true}'), "players.a"),
    ("bankroll-list", _doc(players='{"a": [100]}'), "players.a"),
    ("bankroll-thousandth", _doc(players='{"a": 100.001}'), "players.a"),
    ("bankroll-exponent-string", _doc(players='{"a": "1e2"}'), "players.a"),
    ("bankroll-huge-exponent", _doc(players='{"a": 1e999999999}'), "players.a"),
    ("bankroll-tiny-exponent", _doc(players='{"a": 1e-999999999}'), "players.a"),
    ("bankroll-huge", _doc(players='{"a": ' + "9" * 40 + "}"), "players.a"),
    ("bankroll-5000-digits", _doc(players='{"a": 1' + "0" * 5000 + "}"), "players.a"),
    ("amount-false", _doc('[{"player": "a", "bet": "pass", "amount": false}]'),
     "actions[0].amount"),
    ("amount-negative-zero", _doc('[{"player": "a", "bet": "pass", "amount": -0.0}]'),
     "actions[0].amount"),
    ("amount-exponent-fraction", _doc('[{"player": "a", "bet": "pass", "amount": 5e-3}]'),
     "actions[0].amount"),
    ("amount-object", _doc('[{"player": "a", "bet": "pass", "amount": {"v": 5}}]'),
     "actions[0].amount"),
    ("amount-hex", _doc('[{"player": "a", "bet": "pass", "amount": "0x10"}]'),
     "actions[0].amount"),
    ("unknown-field", _doc('[{"player": "a", "bet": "pass", "amount": 5, "odds": 2}]'),
     "actions[0].odds"),
    ("missing-amount", _doc('[{"player": "a", "bet": "pass"}]'), "actions[0].amount"),
    ("missing-player", _doc('[{"bet": "pass", "amount": 5}]'), "actions[0].player"),
    ("unknown-wager", _doc('[{"player": "a", "bet": "big_8", "amount": 5}]'), "actions[0].bet"),
    ("wager-as-number", _doc('[{"player": "a", "bet": 8, "amount": 5}]'), "actions[0].bet"),
    ("number-as-string", _doc('[{"player": "a", "bet": "hard", "number": "6", "amount": 5}]'),
     "actions[0].number"),
    ("number-as-bool", _doc('[{"player": "a", "bet": "buy", "number": true, "amount": 5}]'),
     "actions[0].number"),
    ("number-as-float", _doc('[{"player": "a", "bet": "buy", "number": 4.0, "amount": 5}]'),
     "actions[0].number"),
    ("hop-not-one-of-17", _doc('[{"player": "a", "bet": "hop", "dice": [1, 1], "amount": 5}]'),
     "actions[0].dice"),
    ("hop-three-dice", _doc('[{"player": "a", "bet": "hop", "dice": [1, 2, 3], "amount": 5}]'),
     "actions[0].dice"),
    ("die-of-seven", _doc('[{"roll": [7, 1]}]'), "actions[0]"),
    ("die-as-bool", _doc('[{"roll": [true, 1]}]'), "actions[0]"),
    ("die-as-float", _doc('[{"roll": [1.0, 2]}]'), "actions[0]"),
    ("die-5000-digits", _doc('[{"roll": [1' + "0" * 5000 + ", 2]}]"), "actions[0].roll[0]"),
    ("spin-5000-digits", '{"game": "roulette", "rules": "nj-casino-night", "players": {"a": 1},'
     ' "actions": [{"spin": 1' + "0" * 5000 + "}]}", "actions[0].spin"),
    ("odds-5000-digits", _doc(options='{"odds": 1' + "0" * 5000 + "}"), "options.odds"),
    ("roulette-spin-at-craps", _doc('[{"spin": 17}]'), "actions[0]"),
    ("roulette-wager-at-craps",
     _doc('[{"player": "a", "bet": "straight", "numbers": [17], "amount": 5}]'), "actions[0]"),
    ("misspelt-actions", HEAD.replace('"players"', '"action": [], "players"') + '"actions": []}',
     "action"),
    ("actions-missing", '{"game": "craps", "rules": "nj-13-69f", "players": {"a": 1}}',
     "actions"),
    ("deep-nesting-lists", HEAD + '"actions": [], "_x": ' + "[" * 200000 + "]" * 200000 + "}",
     "transcript"),
    ("deep-nesting-unclosed", "[" * 1000000, "transcript"),
    ("deep-nesting-objects", HEAD + '"actions": [], "_x": ' + '{"k": ' * 100000 + "1"
     + "}" * 100000 + "}", "transcript"),
    ("vig-over-five-percent", _doc(options='{"vig": "0.0500000001"}'), "options.vig"),
    ("vig-NaN", _doc(options='{"vig": "NaN"}'), "options.vig"),
    ("vig-bool", _doc(options='{"vig": false}'), "options.vig"),
    ("unit-bool", _doc(options='{"unit": true}'), "options.unit"),
    ("odds-bool", _doc(options='{"odds": true}'), "options.odds"),
    ("pays-below-minimum", _doc(options='{"pays": {"hop:1-3": "14 to 1"}}'),
     "options.pays.hop:1-3"),
    ("pays-for", _doc(options='{"pays": {"hop:1-3": "16 for 1"}}'), "options.pays.hop:1-3"),
]


@pytest.mark.parametrize(("text", "place"), [(t, p) for _, t, p in MALFORMED_TEXT],
                         ids=[i for i, _, _ in MALFORMED_TEXT])
def test_malformed_text(text: str, place: str) -> None:
    """Contract "Exit status and errors": exit 2, nothing on stdout, one stderr line that names
    the place; never a traceback, never a hang (``run_raw`` has a timeout)."""
    line = malformed(text)
    assert line.startswith(place), line
    assert "Traceback" not in line


# Found by this battery: a carriage return or a Unicode line separator in a name went to
# standard error as it was, and a reader (Python's universal newlines among them) saw two lines.
@pytest.mark.parametrize("name", ["b\rc", "b\u2028c", "b\x85c", "b\x0bc", "b\nc"])
def test_malformed_line_stays_one_line_whatever_the_name(name: str) -> None:
    """Contract "Exit status and errors": standard error gets ONE line naming the place, also
    when the place or the value carries a line-breaking character; read with universal
    newlines and split by str.splitlines, it is one line."""
    doc = transcript(NJ_13_69F, [bet(name, "pass", 5)])
    code, out, err = run_raw(doc)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1, repr(err)
    assert err.startswith("actions[0].player")
    doc = transcript(NJ_13_69F, [])
    doc[name] = 1
    code, out, err = run_raw(doc)
    assert code == 2 and len(err.splitlines()) == 1, repr(err)


# Found by this battery: a lone surrogate (valid JSON escape, no character) in a player's name
# was taken; `croupier replay --summary` then died with "internal error: UnicodeEncodeError"
# (exit 1), and the plain result carried a name no UTF-8 reader can hold.
@pytest.mark.parametrize(("text", "place"), [
    (_doc(players='{"\\ud800": 100}'), "players"),
    (_doc('[{"player": "a\\udfff", "bet": "pass", "amount": 1}]'), "actions[0].player"),
    (_doc('[]').replace('"actions"', '"_c": ["\\udc00x"], "actions"'), "_c[0]"),
])
@pytest.mark.parametrize("summary", [False, True])
def test_lone_surrogate_is_malformed(text: str, place: str, summary: bool) -> None:
    """Contract "Exit status and errors": text that is no Unicode is bad JSON input: exit 2,
    nothing on stdout, one line naming the place, with or without --summary."""
    args = [str(sys.executable), "-m", "croupier", "replay", *(["--summary"] if summary else []),
            "-"]
    done = subprocess.run(args, input=text, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith(place), done.stderr


def test_summary_reads_the_transcript_as_the_replay_did() -> None:
    """Contract: annotations (keys starting with `_`) are ignored, whatever they hold; a 5,000
    digit integer in one is a well-formed JSON number. Once the replay read such integers
    (above), --summary, which parsed the text again with json.loads, stopped with an internal
    error (exit 1); it now summarises the transcript the replay read."""
    text = _doc('[{"roll": [3, 4]}]').replace('"actions"', '"_n": 1' + "0" * 5000 + ', "actions"')
    for summary in ([], ["--summary"]):
        done = subprocess.run([str(sys.executable), "-m", "croupier", "replay", *summary, "-"],
                              input=text, capture_output=True, text=True, timeout=120,
                              check=False)
        assert done.returncode == 0 and done.stderr == "", done.stderr


def test_surrogate_pair_is_a_character() -> None:
    """A surrogate PAIR escape is one character (U+1F600), a name like any other."""
    r = play(NJ_13_69F, [bet("\U0001F600", "pass", 5), roll(3, 4)], players={"\U0001F600": 10})
    check(r, "\U0001F600", 15, 0)


# Found by this battery: every pay-table entry below its minimum cited the profile's payout
# table (13:69F-1.4(b)), also for the fire bet, whose tables are 1.4(e), and for buy and lay,
# whose true odds are 1.5(a), (b) (13:47-20.25(j), (k) at casino nights).
@pytest.mark.parametrize(("rules", "key", "odds", "clause"), [
    (NJ_13_69F, "fire:4", "23 to 1", "(N.J.A.C. 13:69F-1.4(e))"),
    (NJ_13_69F, "buy:4", "3 to 2", "(N.J.A.C. 13:69F-1.5(a))"),
    (NJ_13_69F, "lay:10", "1 to 3", "(N.J.A.C. 13:69F-1.5(b))"),
    (CASINO_NIGHT, "buy:6", "1 to 1", "(N.J.A.C. 13:47-20.25(j))"),
    (CASINO_NIGHT, "lay:4", "1 to 3", "(N.J.A.C. 13:47-20.25(k))"),
    (NJ_13_69F, "field:12", "1 to 1", "(N.J.A.C. 13:69F-1.4(b))"),
    (NJ_19_47, "hop:2-2", "29 to 1", "(N.J.A.C. 19:47-1.4(b))"),
])
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(e)", "N.J.A.C. 13:69F-1.5(a)", "N.J.A.C. 13:69F-1.5(b)",
                    "N.J.A.C. 13:47-20.25(j)", "N.J.A.C. 13:47-20.25(k)")
def test_pay_below_minimum_names_the_clause_that_sets_it(rules: str, key: str, odds: str,
                                                         clause: str) -> None:
    """Contract `pays`: an entry below the regulatory minimum is malformed; the line names the
    place and the clause whose table the minimum is from."""
    line = malformed(transcript(rules, [], pays={key: odds}))
    assert line.startswith(f"options.pays.{key}") and line.endswith(clause), line


def test_gigantic_transcript_plays_in_time() -> None:
    """Contract: a transcript of any length is played through; 60,000 actions (a field bet
    and a roll of 1-1, 30 times over 2,000) finish well inside the harness's timeout.
    13:69F-1.4(b): the field pays 2 to 1 on 2, so each pair adds 2: 100 + 2 * 30000."""
    actions = [bet("a", "field", 1), roll(1, 1)] * 30000
    code, out, err = run_raw(transcript(NJ_13_69F, actions))
    assert code == 0, err
    check(json.loads(out), "a", 100 + 2 * 30000, 0)


# Found by this battery: the replay ran under Python's default 28 significant digits; past
# 10**26 dollars a bankroll's cents were rounded away and writing it failed ("croupier:
# internal error: InvalidOperation", exit 1).
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_money_stays_exact_past_twenty_eight_digits() -> None:
    """Contract "Money": all arithmetic is exact decimal arithmetic. Four the Hardway on the
    Hop paid at 1,000,000 to 1 (a pay table above the 1.4(b) minimum of 30 to 1), the largest
    stake 999,999,999,999,999.99 won 110,000 times, then a cent lost: the bankroll, in cents,
    is B * (1 + 110000 * 10**6) - 1 with B the stake in cents."""
    wins = 110_000
    stake = "999999999999999.99"
    actions = [bet("a", "hop", stake, dice=[2, 2]), roll(2, 2)] * wins
    actions += [bet("a", "hop", "0.01", dice=[2, 2]), roll(1, 2)]
    code, out, err = run_raw(transcript(NJ_13_69F, actions, players={"a": stake}, unit="0.01",
                                        pays={"hop:2-2": "1000000 to 1"}))
    assert code == 0, err
    cents = 99999999999999999 * (1 + wins * 10**6) - 1
    assert json.loads(out)["players"]["a"] == {"bankroll": f"{cents // 100}.{cents % 100:02d}",
                                               "on_table": "0.00"}


# A commission rate is read as an exact fraction; one given to a billion-billion decimal
# places never finished (found by this battery).
@pytest.mark.parametrize("vig", ["1e-999999999999999999", "0.000000001", "1E-9999999"])
@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_vig_finer_than_the_table_can_state_is_malformed_not_a_hang(vig: str) -> None:
    """Contract `vig` (at most 0.05; 13:69F-1.5(a) "a percentage of the amount wagered"): a rate
    given to more than eight decimal places is malformed at `options.vig`, at once, where a
    buy bet under "1e-999999999999999999" made the replay run forever."""
    doc = transcript(NJ_13_69F, [bet("a", "buy", 20, number=4)], vig=vig)
    assert malformed(doc).startswith("options.vig")


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_vig_to_eight_places_still_plays() -> None:
    """13:69F-1.5(a): 0.00000001 of a $20 buy bet is $0.0000002, rounded down to the unit
    (contract "Commission"): no commission. 80 in hand, 20 on the table."""
    check(play(NJ_13_69F, [bet("a", "buy", 20, number=4)], vig="0.00000001"), "a", 80, 20)


# ------------------------------------------------------------------ (2) exact edges: craps

POINT_6 = [roll(3, 3)]  # no line bet: the come-out sets the point at 6


@pytest.mark.parametrize("rules", [CASINO_NIGHT, NJ_19_47, NJ_13_69F])
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)", "N.J.A.C. 19:47-1.4(b)", "N.J.A.C. 13:47-20.25(i)2",
                    "N.J.A.C. 13:69F-1.4(f)")
def test_place_to_win_six_at_seven_to_six(rules: str) -> None:
    """Place Bet 6 to Win pays 7 to 6 (13:69F-1.4(b), 19:47-1.4(b), 13:47-20.25(i)2): $6 wins
    $7 and stays up: 100 - 6 + 7 = 101 in hand, 6 on the table. $5 would win 35/6, not a whole
    unit: refused (13:69F-1.4(f), 19:47-1.4(e))."""
    r = play(rules, [*POINT_6, bet("a", "place_win", 5, number=8), bet("a", "place_win", 6,
                                                                         number=8), roll(2, 6)])
    assert rejected(r) == [1]
    check(r, "a", 101, 6)


@pytest.mark.parametrize(("number", "stake", "won"), [(4, 11, 5), (5, 8, 5), (6, 5, 4),
                                                       (9, 16, 10), (10, 22, 10)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_place_to_lose_pays_the_table(number: int, stake: int, won: int) -> None:
    """Place Bet to Lose: 5 to 11 on 4/10, 5 to 8 on 5/9, 4 to 5 on 6/8 (13:69F-1.4(b)); it
    works on the come-out (13:69F-1.3(e): "All other wagers shall be considered On") and stays
    up after a win (contract "What stays up")."""
    r = play(NJ_13_69F, [bet("a", "place_lose", stake, number=number), roll(3, 4)])
    check(r, "a", 100 - stake + won, stake)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_place_to_lose_four_at_ten_is_refused() -> None:
    """13:69F-1.4(f): $10 against the 4 at 5 to 11 would win 50/11: not accepted."""
    r = play(NJ_13_69F, [bet("a", "place_lose", 10, number=4)])
    assert rejected(r) == [0]
    check(r, "a", 100, 0)


@pytest.mark.parametrize(("stake", "after_placing", "after_win"), [
    (20, 79, 79 + 40 - 1),   # 5% of 20 = 1.00
    (30, 69, 69 + 60 - 1),   # 5% of 30 = 1.50, rounded down to the $1 unit: 1
    (19, 81, 81 + 38 - 0),   # 5% of 19 = 0.95, rounded down: nothing
])
@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_four_commission_at_placement_rounded_down(stake: int, after_placing: int,
                                                       after_win: int) -> None:
    """13:69F-1.5(a): buy 4 pays 2 to 1 for a percentage "of the amount wagered" (5%), paid when
    the bet is made; contract "Commission": rounded down to the unit; "What stays up": it stays
    up and pays the commission again out of its winnings."""
    r = play(NJ_13_69F, [*POINT_6, bet("a", "buy", stake, number=4)])
    check(r, "a", after_placing, stake)
    r = play(NJ_13_69F, [*POINT_6, bet("a", "buy", stake, number=4), roll(1, 3)])
    check(r, "a", after_win, stake)


@pytest.mark.parametrize(("stake", "after_win"), [(20, 80 + 40 - 1), (30, 70 + 60 - 1)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_commission_on_the_win(stake: int, after_win: int) -> None:
    """13:69F-1.5(a) "may ... collect the percentage ... only on winning bets": vig_collected
    "win" takes nothing at placement and the rounded-down 5% out of the win."""
    r = play(NJ_13_69F, [*POINT_6, bet("a", "buy", stake, number=4), roll(1, 3)],
             vig_collected="win")
    check(r, "a", after_win, stake)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_buy_taken_down_keeps_its_commission_and_top_up() -> None:
    """Contract "Commission": collected at placement it is not returned when the bet is taken
    down; "Adding to a buy": topped up to what the new total owes. Buy 4 $10 (5% = 0.50, rounded
    down: 0) -> 90; add $10 (total 20 owes 1) -> 79; take it down -> 99."""
    r = play(NJ_13_69F, [bet("a", "buy", 10, number=4), bet("a", "buy", 10, number=4),
                         remove("a", "buy", number=4)])
    assert rejected(r) == []
    check(r, "a", 99, 0)


@pytest.mark.parametrize(("rules", "number", "stake", "commission", "won"), [
    (NJ_13_69F, 4, 40, 2, 20),    # 5% of the $40 wagered (13:69F-1.5(b))
    (CASINO_NIGHT, 4, 40, 1, 20),  # 5% of the $20 it could win (13:47-20.25(k))
    (CASINO_NIGHT, 6, 30, 1, 25),  # 5% of 25 = 1.25, rounded down
    (NJ_13_69F, 6, 30, 1, 25),    # 5% of 30 = 1.50, rounded down
])
@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)", "N.J.A.C. 13:47-20.25(k)")
def test_lay_commission_base_and_rounding(rules: str, number: int, stake: int, commission: int,
                                          won: int) -> None:
    """Lay pays 1 to 2 on 4/10, 5 to 6 on 6/8; commission on the stake (13:69F-1.5(b)) or on
    the win (13:47-20.25(k)), rounded down, paid at placement and again out of each win."""
    r = play(rules, [bet("a", "lay", stake, number=number), roll(3, 4)])
    check(r, "a", 100 - stake - commission + won - commission, stake)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(k)", "N.J.A.C. 13:47-20.25(i)2")
def test_lay_ten_at_thirty_nine_cannot_be_paid() -> None:
    """13:47-20.25(k): lay 10 pays 1 to 2; $39 would win 19.50, not a whole $1 unit: refused."""
    r = play(CASINO_NIGHT, [bet("a", "lay", 39, number=10)])
    assert rejected(r) == [0]


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(b)")
def test_lay_commission_on_the_win_rounded_down() -> None:
    """13:69F-1.5(b) "may collect the percentage ... only on winning bets": lay 6 $30, nothing
    at placement, the win 25 less 5% of 30 = 1.50 rounded down to 1: 70 + 24 = 94."""
    r = play(NJ_13_69F, [bet("a", "lay", 30, number=6), roll(3, 4)], vig_collected="win")
    check(r, "a", 94, 30)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(j)", "N.J.A.C. 13:47-20.25(h)1v")
def test_casino_night_buy_is_off_on_the_come_out() -> None:
    """Contract "Buy under nj-casino-night": a place bet to win at true odds, off on the come
    out. Buy 4 $20 (commission 1) -> 79; come-out 2-2 does not decide it; 1-3 wins 40 less 1."""
    r = play(CASINO_NIGHT, [bet("a", "buy", 20, number=4), roll(2, 2)])
    check(r, "a", 79, 20)
    r = play(CASINO_NIGHT, [bet("a", "buy", 20, number=4), roll(2, 2), roll(1, 3)])
    check(r, "a", 79 + 39, 20)


@pytest.mark.parametrize(("dice", "limit", "pays"), [((2, 3), 40, 60), ((3, 3), 50, 60),
                                                     ((2, 2), 30, 60)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_pass_odds_at_the_limit_and_one_over(dice: tuple[int, int], limit: int,
                                             pays: int) -> None:
    """Contract `odds` "3-4-5": 4x on 5, 5x on 6, 3x on 4 behind a $10 pass bet; the odds pay
    true odds (3 to 2, 6 to 5, 2 to 1). limit + 1 is refused, the limit taken."""
    r = play(NJ_13_69F, [bet("a", "pass", 10), roll(*dice), bet("a", "pass_odds", limit + 1),
                         bet("a", "pass_odds", limit), roll(*dice)], players={"a": 200})
    assert rejected(r) == [2]
    check(r, "a", 200 + 10 + pays, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.4(f)")
def test_odds_that_pay_half_a_unit_are_refused() -> None:
    """13:69F-1.4(f): $15 odds on 5 would win 22.50: refused at a $1 unit, taken at $0.50."""
    acts = [bet("a", "pass", 10), roll(2, 3), bet("a", "pass_odds", 15), roll(1, 4)]
    assert rejected(play(NJ_13_69F, acts)) == [2]
    check(play(NJ_13_69F, acts, unit="0.50"), "a", "132.50", 0)  # 75 + 20 + 15 + 22.50


@pytest.mark.parametrize(("dice", "most", "too_much"), [((2, 2), 120, 122), ((2, 3), 90, 93)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_lay_odds_win_at_most_six_times_the_flat_bet(dice: tuple[int, int], most: int,
                                                     too_much: int) -> None:
    """Contract `odds` "3-4-5": lay odds may win up to 6x the $10 flat bet = 60; 1 to 2 on 4
    (120 wins 60, 122 would win 61), 2 to 3 on 5 (90 wins 60, 93 would win 62)."""
    r = play(NJ_13_69F, [bet("a", "dont_pass", 10), roll(*dice),
                         bet("a", "dont_pass_odds", too_much), bet("a", "dont_pass_odds", most),
                         roll(3, 4)], players={"a": 200})
    assert rejected(r) == [2]
    check(r, "a", 200 + 10 + 60, 0)


@pytest.mark.parametrize("rules", [CASINO_NIGHT, NJ_19_47])
@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)1", "N.J.A.C. 19:47-1.2(b)")
def test_no_free_odds_where_the_profile_has_none(rules: str) -> None:
    """Contract "Free odds" exist only under nj-13-69f; the option is accepted elsewhere but
    every odds bet is refused."""
    r = play(rules, [bet("a", "pass", 10), roll(2, 2), bet("a", "pass_odds", 10)], odds="2")
    assert rejected(r) == [2]


@pytest.mark.parametrize(("dice", "wins"), [((1, 3), 15), ((3, 1), 15), ((2, 2), -1)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)26", "N.J.A.C. 13:69F-1.4(b)")
def test_hop_one_three(dice: tuple[int, int], wins: int) -> None:
    """One-Three on the Hop: 15 to 1 on 1 and 3 in either order; 2-2 (another combination)
    loses (13:69F-1.2(a)26)."""
    r = play(NJ_13_69F, [bet("a", "hop", 1, dice=[3, 1]), roll(*dice)])
    check(r, "a", 100 + wins, 0)


@pytest.mark.parametrize("rules", [NJ_19_47, NJ_13_69F])
@pytest.mark.clause("N.J.A.C. 19:47-1.4(b)", "N.J.A.C. 13:69F-1.4(b)")
def test_hop_hardway_thirty_to_one(rules: str) -> None:
    """Four the Hardway on the Hop: 30 to 1 (19:47-1.4(b), 13:69F-1.4(b))."""
    check(play(rules, [bet("a", "hop", 1, dice=[2, 2]), roll(2, 2)]), "a", 130, 0)


@pytest.mark.clause("N.J.A.C. 13:47-20.25(h)")
def test_no_hop_at_casino_night() -> None:
    """13:47-20.25(h) lists no hop wagers: refused (known wager, not permitted)."""
    assert rejected(play(CASINO_NIGHT, [bet("a", "hop", 1, dice=[2, 2])])) == [0]


FIRE_POINTS = [(2, 2), (2, 2), (2, 3), (2, 3), (3, 3), (3, 3), (4, 4), (4, 4), (4, 5), (4, 5),
               (5, 5), (5, 5)]


@pytest.mark.parametrize(("made", "table", "paid"), [
    (3, "A", -1), (4, "A", 24), (5, "A", 249), (6, "A", 999),
    (4, "B", 39), (5, "B", 199), (6, "B", 499)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(e)", "N.J.A.C. 13:69F-1.2(a)40")
def test_fire_bet_pay_tables(made: int, table: str, paid: int) -> None:
    """13:69F-1.4(e): 4 points 24/39 to 1, 5 points 249/199, 6 points 999/499 (tables A/B),
    paid once for the highest count; fewer than four lose (1.2(a)40). Six points settle at once;
    fewer settle at the seven-out (contract "Fire bet")."""
    acts = [bet("a", "fire", 1), *rolls(*FIRE_POINTS[:2 * made])]
    if made < 6:
        acts += [roll(2, 2), roll(3, 4)]
    r = play(NJ_13_69F, acts, fire_pay_table=table)
    check(r, "a", 100 + paid, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40", "N.J.A.C. 13:69F-1.3(c)")
def test_fire_bet_timing_and_removal() -> None:
    """13:69F-1.2(a)40: only before the new shooter's come-out roll; 1.3(c): never removed
    before a loser 7. A fire bet after the first roll, and its removal, are refused."""
    r = play(NJ_13_69F, [bet("a", "fire", 1), remove("a", "fire"), reduce("a", "fire", 1),
                         roll(2, 2), bet("a", "fire", 1)], fire_pay_table="A")
    assert rejected(r) == [1, 2, 4]
    check(r, "a", 99, 1)


@pytest.mark.parametrize(("dice", "net"), [((1, 5), 1), ((2, 4), 1), ((3, 3), 2), ((3, 4), 1),
                                           ((2, 6), 1), ((3, 5), 1), ((4, 4), 2), ((1, 4), -1),
                                           ((6, 6), -1)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)39", "N.J.A.C. 13:69F-1.4(b)")
def test_six_seven_eight(dice: tuple[int, int], net: int) -> None:
    """Six-Seven-Eight: 1 to 1 on 6 (1-5, 2-4), 7, 8 (2-6, 3-5); 2 to 1 on hard 6 or 8;
    loses on any other total (13:69F-1.2(a)39, 1.4(b))."""
    check(play(NJ_13_69F, [bet("a", "six_seven_eight", 1), roll(*dice)]), "a", 100 + net, 0)


@pytest.mark.parametrize(("rules", "options"), [(NJ_13_69F, {"six_seven_eight": False}),
                                                (NJ_19_47, {}), (CASINO_NIGHT, {})])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)39", "N.J.A.C. 19:47-1.2(b)")
def test_six_seven_eight_where_not_offered(rules: str, options: dict[str, Any]) -> None:
    """6-7-8 is offered at the licensee's election (13:69F-1.2(a)39) and not at all elsewhere."""
    assert rejected(play(rules, [bet("a", "six_seven_eight", 1)], **options)) == [0]


@pytest.mark.parametrize(("stake", "dice", "after"), [
    (5, (3, 4), 100),          # any seven $1 wins 4; four $1 horn parts lose
    (5, (1, 1), 126),          # $1 on 2 wins 30
    (5, (5, 6), 111),          # $1 on 11 wins 15
    (5, (1, 2), 111),
    (5, (6, 6), 126),
    (5, (3, 3), 95),
    (10, (3, 4), 100),         # $2 on any seven wins 8; $8 on the horn lose
    (10, (6, 6), 100 - 10 + 62),
])
@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)21", "N.J.A.C. 13:69F-1.4(b)")
def test_whirl(stake: int, dice: tuple[int, int], after: int) -> None:
    """Whirl: five units, four on 2, 3, 11, 12 and one on Any Seven, broken into the separate
    wagers (13:69F-1.2(a)21), paid 30/15/15/30 to 1 and 4 to 1 (1.4(b))."""
    check(play(NJ_13_69F, [bet("a", "whirl", stake), roll(*dice)]), "a", after, 0)


@pytest.mark.clause("N.J.A.C. 19:47-1.2(a)21", "N.J.A.C. 13:47-20.25(h)")
def test_whirl_in_units_of_five_and_only_where_permitted() -> None:
    """Whirl is placed in units of five (19:47-1.2(a)21): $4 and $6 are refused at a $1 unit;
    13:47-20.25(h) has no whirl at all."""
    assert rejected(play(NJ_19_47, [bet("a", "whirl", 4), bet("a", "whirl", 6)])) == [0, 1]
    assert rejected(play(CASINO_NIGHT, [bet("a", "whirl", 5)])) == [0]


@pytest.mark.parametrize("rules", [CASINO_NIGHT, NJ_19_47, NJ_13_69F])
@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)3", "N.J.A.C. 19:47-1.4(c)", "N.J.A.C. 13:69F-1.4(c)")
def test_horn_and_horn_high(rules: str) -> None:
    """Horn and Horn High paid as four separate wagers on 2, 3, 11, 12 (13:47-20.25(i)3,
    19:47-1.4(c), 13:69F-1.4(c)). Horn $4 on 12: 30 + 1 back = 127; on 3: 16 back = 112. Horn
    High 12 $5 (two units on 12) on 12: 62 back = 157; on 2: 31 back = 126. Horn $6 refused."""
    check(play(rules, [bet("a", "horn", 4), roll(6, 6)]), "a", 127, 0)
    check(play(rules, [bet("a", "horn", 4), roll(1, 2)]), "a", 112, 0)
    check(play(rules, [bet("a", "horn_high", 5, number=12), roll(6, 6)]), "a", 157, 0)
    check(play(rules, [bet("a", "horn_high", 5, number=12), roll(1, 1)]), "a", 126, 0)
    assert rejected(play(rules, [bet("a", "horn", 6)])) == [0]


@pytest.mark.parametrize(("dice", "after"), [((5, 6), 114), ((1, 1), 106), ((6, 6), 106),
                                             ((1, 2), 106), ((3, 4), 98)])
@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)4", "N.J.A.C. 13:69F-1.4(d)")
def test_c_and_e(dice: tuple[int, int], after: int) -> None:
    """C and E $2: $1 on Any Craps (7 to 1) and $1 on Eleven (15 to 1), as two wagers
    (13:47-20.25(i)4): 11 -> 98 + 16; craps -> 98 + 8; else 98. $3 does not halve: refused."""
    check(play(CASINO_NIGHT, [bet("a", "c_and_e", 2), roll(*dice)]), "a", after, 0)
    assert rejected(play(NJ_13_69F, [bet("a", "c_and_e", 3)])) == [0]


@pytest.mark.parametrize(("dice", "net"), [((1, 1), 2), ((6, 6), 2), ((1, 2), 1), ((2, 2), 1),
                                           ((4, 5), 1), ((4, 6), 1), ((5, 6), 1), ((1, 4), -1),
                                           ((3, 3), -1), ((3, 4), -1), ((4, 4), -1)])
@pytest.mark.parametrize("rules", [CASINO_NIGHT, NJ_19_47, NJ_13_69F])
@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2", "N.J.A.C. 19:47-1.4(b)", "N.J.A.C. 13:69F-1.4(b)")
def test_field(rules: str, dice: tuple[int, int], net: int) -> None:
    """Field: 1 to 1 on 3, 4, 9, 10, 11; 2 to 1 on 2 and 12; loses on 5, 6, 7, 8."""
    check(play(rules, [bet("a", "field", 1), roll(*dice)]), "a", 100 + net, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)", "N.J.A.C. 13:47-20.25(h)1vii-x")
def test_hardway_on_the_come_out_by_profile() -> None:
    """Hardways are inactive on the come out under 13:69F-1.3(e) but on under 13:47-20.25
    (only place bets to win are off there). Hard 6 $1, come-out 3-3: no action under nj-13-69f;
    wins 9 and stays up under nj-casino-night."""
    check(play(NJ_13_69F, [bet("a", "hard", 1, number=6), roll(3, 3)]), "a", 99, 1)
    check(play(CASINO_NIGHT, [bet("a", "hard", 1, number=6), roll(3, 3)]), "a", 108, 1)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_place_win_called_on_works_on_the_come_out() -> None:
    """13:69F-1.3(e): a place bet to win called "On" works on the come out: $6 on 6, 3-3 wins 7."""
    r = play(NJ_13_69F, [bet("a", "place_win", 6, number=6), on("a", "place_win", number=6),
                         roll(3, 3)])
    check(r, "a", 101, 6)
    r = play(NJ_13_69F, [bet("a", "place_win", 6, number=6), on("a", "place_win", number=6),
                         off("a", "place_win", number=6), roll(3, 3)])
    check(r, "a", 94, 6)


@pytest.mark.parametrize(("unit", "most", "over"), [("1", "25", "26"), ("0.01", "25.00", "25.01")])
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
def test_table_maximum_exactly_and_one_unit_over(unit: str, most: str, over: str) -> None:
    """Contract "Limits": max_bet applies to a wager's stake and to the total after an addition.
    At exactly the maximum taken; one unit (or one cent) over refused; adding 1 to the maximum
    refused."""
    r = play(NJ_13_69F, [bet("a", "pass", over), bet("a", "pass", most), bet("a", "pass", unit)],
             unit=unit, max_bet="25")
    assert rejected(r) == [0, 2]
    check(r, "a", 75, 25)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)")
def test_table_minimum_and_reductions() -> None:
    """Contract "Limits": min_bet 5; $4 refused, $5 taken; a reduction must leave a valid wager
    (6 - 2 = 4 below the minimum: refused), by the whole stake is a removal, by more refused."""
    r = play(NJ_13_69F, [bet("a", "field", 4), bet("a", "place_win", 6, number=6),
                         reduce("a", "place_win", 2, number=6), reduce("a", "place_win", 7, number=6),
                         reduce("a", "place_win", 6, number=6)], min_bet="5")
    assert rejected(r) == [0, 2, 3]
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(c)", "N.J.A.C. 13:69F-1.3(d)", "N.J.A.C. 13:69F-1.2(a)1",
                    "N.J.A.C. 13:69F-1.2(a)3")
def test_line_bets_made_and_removed_at_the_edges() -> None:
    """Pass only before a come-out (1.2(a)1), come only after it (1.2(a)3); a pass bet is not
    removed or reduced once its point is set (1.3(c)1); a don't pass may be reduced or removed
    at any time but not increased after (1.3(d)). Come before the point (0) refused; pass taken
    down before the come-out (2) taken; after the point, pass (5), its removal (6) and its
    reduction (8) refused, come (7) taken. Don't pass: reduced (2), increased (3) refused,
    removed (4): all 100 back in hand."""
    r = play(NJ_13_69F, [
        bet("a", "come", 5), bet("a", "pass", 5), remove("a", "pass"), bet("a", "pass", 5),
        roll(2, 2), bet("a", "pass", 5), remove("a", "pass"), bet("a", "come", 5),
        reduce("a", "pass", 1),
    ])
    assert rejected(r) == [0, 5, 6, 8]
    r = play(NJ_13_69F, [bet("a", "dont_pass", 10), roll(2, 2), reduce("a", "dont_pass", 5),
                         bet("a", "dont_pass", 5), remove("a", "dont_pass")])
    assert rejected(r) == [3]
    check(r, "a", 100, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)2")
def test_dont_pass_bar_twelve_stays() -> None:
    """13:69F-1.2(a)2iii: void on a come-out 12; contract: it stays, undecided."""
    check(play(NJ_13_69F, [bet("a", "dont_pass", 10), roll(6, 6)]), "a", 90, 10)


@pytest.mark.parametrize("rules", [CASINO_NIGHT, NJ_13_69F])
@pytest.mark.clause("N.J.A.C. 13:69F-1.3(f)")
def test_mini_craps_seating(rules: str) -> None:
    """13:69F-1.3(f): only seated players wager, and a player with a wager down stays seated
    until the round ends; no fire bet at mini-craps (1.2(a)). Bet unseated (0) refused; seated
    bet taken; stand (3) refused; fire (4) refused; after the pass decision, stand taken."""
    r = play(rules, [bet("a", "pass", 5), sit("a"), bet("a", "pass", 5), stand("a"),
                     bet("a", "fire", 1), roll(3, 4), stand("a")], game="mini-craps")
    assert rejected(r) == [0, 3, 4]
    check(r, "a", 105, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.2(a)40")
def test_fire_bet_after_seven_out_for_the_next_shooter() -> None:
    """Contract "Shooters": after a seven-out the next roll is a new shooter's first, so a fire
    bet may be made then; the dice pass to the next player listed."""
    r = play(NJ_13_69F, [roll(2, 2), roll(3, 4), bet("b", "fire", 1)],
             players={"a": 100, "b": 100})
    assert rejected(r) == []
    assert r["state"]["shooter"] == "b"
    r = play(NJ_13_69F, [roll(2, 2), shooter("b"), bet("b", "fire", 1)],
             players={"a": 100, "b": 100})
    # The dice pass only between decisions (contract "shooter" action): refused with the point
    # set, so a's hand goes on and b's fire bet is not before a new shooter's first roll.
    assert rejected(r) == [1, 2]


# ------------------------------------------------------------------ (2) exact edges: roulette


def _roulette(actions: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return play(CASINO_NIGHT, actions, game="roulette", **options)


def _spin(n: Any, **irregular: Any) -> dict[str, Any]:
    return {"spin": n, **irregular}


@pytest.mark.parametrize(("wager", "fields", "spin", "after"), [
    ("straight", {"numbers": [17]}, 17, 135),
    ("split", {"numbers": [17, 20]}, 20, 117),
    ("split", {"numbers": [0, "00"]}, "00", 117),
    ("three_numbers", {"numbers": [0, 2, "00"]}, 2, 111),
    ("three_numbers", {"numbers": [34, 35, 36]}, 35, 111),
    ("four_numbers", {"numbers": [1, 2, 4, 5]}, 5, 108),
    ("first_five", {}, "00", 106),
    ("six_numbers", {"numbers": [1, 2, 3, 4, 5, 6]}, 6, 105),
    ("seven_numbers", {}, 33, 104),
    ("column", {"column": 1}, 34, 102),
    ("dozen", {"dozen": 3}, 36, 102),
    ("red", {}, 1, 101),
    ("black", {}, 2, 101),
    ("odd", {}, 35, 101),
    ("even", {}, 0, 99),
    ("high", {}, 19, 101),
    ("low", {}, 18, 101),
    ("low", {}, 19, 99),
    ("straight", {"numbers": [17]}, 18, 99),
])
@pytest.mark.clause("N.J.A.C. 13:47-20.32(f)", "N.J.A.C. 13:47-20.32(e)")
def test_roulette_pay_table(wager: str, fields: dict[str, Any], spin: Any, after: int) -> None:
    """13:47-20.32(f): straight 35, split 17, three 11, four 8, first five 6, six 5, seven 4,
    column and dozen 2, even chances 1 to 1; $1 each, so 100 + the odds on a win; "even"
    loses on 0 (full rule default)."""
    check(_roulette([bet("a", wager, 1, **fields), _spin(spin)]), "a", after, 0)


@pytest.mark.parametrize(("spin", "after"), [(0, 99), ("00", 99), (5, 102), (4, 98)])
@pytest.mark.clause("N.J.A.C. 13:47-20.32(g)")
def test_zero_rule_half(spin: Any, after: int) -> None:
    """13:47-20.32(g): on 0 or 00 an even-money wager loses one half, the other half returned:
    red $2 -> 1 back (99). Otherwise as usual."""
    check(_roulette([bet("a", "red", 2), _spin(spin)], zero_rule="half"), "a", after, 0)


@pytest.mark.parametrize(("wheel", "options"), [("single-zero", {}),
                                                ("double-zero-as-single", {})])
@pytest.mark.clause("N.J.A.C. 13:47-20.32(h)", "N.J.A.C. 13:47-20.32(i)3")
def test_single_zero_even_money_lost_on_zero(wheel: str, options: dict[str, Any]) -> None:
    """13:47-20.32(h), (i)3: even-money wagers are lost on 0."""
    check(_roulette([bet("a", "red", 2), _spin(0)], wheel=wheel), "a", 98, 0)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(i)2")
def test_double_zero_as_single_respins_on_00() -> None:
    """13:47-20.32(i)2: a ball in 00 is "no spin"; every wager stays for the respin."""
    r = _roulette([bet("a", "straight", 1, numbers=[5]), _spin("00"), _spin(5)],
                  wheel="double-zero-as-single")
    check(r, "a", 135, 0)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1i-iii", "N.J.A.C. 13:47-20.32(k)")
def test_five_adjacent_on_the_wheel() -> None:
    """13:47-20.32(e)1iii: five straights of equal value on the center and two each side on the
    wheel: around 0 on the double-zero wheel, 14-2-0-28-9. $5 -> $1 each; 28 wins 35 + 1 back
    (131); 27 (not among them) loses all (95)."""
    check(_roulette([bet("a", "five_adjacent", 5, center=0), _spin(28)]), "a", 131, 0)
    check(_roulette([bet("a", "five_adjacent", 5, center=0), _spin(27)]), "a", 95, 0)


@pytest.mark.parametrize("irregular", [{"revolutions": 3}, {"same_direction": True},
                                       {"foreign_object": True}])
@pytest.mark.clause("N.J.A.C. 13:47-20.32(m)")
def test_irregular_spin_settles_nothing(irregular: dict[str, Any]) -> None:
    """13:47-20.32(m): "No spin": nothing is settled and the wager stays; the next spin counts."""
    r = _roulette([bet("a", "straight", 1, numbers=[5]), _spin(5, **irregular)])
    check(r, "a", 99, 1)
    r = _roulette([bet("a", "straight", 1, numbers=[5]), _spin(5, **irregular), _spin(5)])
    check(r, "a", 135, 0)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(d)1")
def test_roulette_table_limits() -> None:
    """Contract "Limits" (roulette as craps): max_bet 10 at a $0.01 unit: 10.01 refused,
    10.00 taken, another 0.01 on the same wager refused."""
    r = _roulette([bet("a", "red", "10.01"), bet("a", "red", "10.00"), bet("a", "red", "0.01")],
                  unit="0.01", max_bet="10")
    assert rejected(r) == [0, 2]
    check(r, "a", 90, 10)


# ------------------------------------------------------------------ more edges that held


@pytest.mark.parametrize(("dice", "after"), [((2, 3), 310), ((3, 4), 290)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_come_odds_off_on_the_come_out_go_back(dice: tuple[int, int], after: int) -> None:
    """13:69F-1.3(e): come odds are inactive on the come out; contract: odds that are off when
    their come bet is decided go back. Come 10 on 5 with 20 odds (300 - 30 = 270); the point is
    made; on the come-out a 5 wins the come bet (+20) and returns the odds (+20): 310; a 7
    loses the come bet and returns the odds: 290."""
    r = play(NJ_13_69F, [roll(2, 2), bet("a", "come", 10), roll(2, 3),
                         bet("a", "come_odds", 20, number=5), roll(2, 2), roll(*dice)],
             players={"a": 300})
    check(r, "a", after, 0)


@pytest.mark.parametrize(("dice", "after"), [((3, 4), 330), ((2, 2), 250)])
@pytest.mark.clause("N.J.A.C. 13:69F-1.3(e)")
def test_dont_come_odds_work_on_the_come_out(dice: tuple[int, int], after: int) -> None:
    """13:69F-1.3(e) names come odds only: lay odds on a don't come work on the come out. Don't
    come 10 on 4 with 40 laid (wins 20): come-out 7 wins both (250 + 20 + 60 = 330); a 4 loses
    both (250)."""
    r = play(NJ_13_69F, [roll(3, 3), bet("a", "dont_come", 10), roll(2, 2),
                         bet("a", "dont_come_odds", 40, number=4), roll(3, 3), roll(*dice)],
             players={"a": 300})
    check(r, "a", after, 0)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)", "N.J.A.C. 13:47-20.25(k)")
def test_commission_top_up_after_a_win() -> None:
    """Contract "Adding to a buy or lay": the commission is topped up to what the new total
    owes. Buy 4 $20 (1) wins 40 less 1 again (118); adding 20 makes 40, owing 2, 1 paid: 97.
    Casino night lay 4 $40 (5% of 20 = 1) wins 20 less 1 (78); adding 40 makes 80, which could
    win 40 and owes 2: top-up 1, 78 - 40 - 1 = 37."""
    r = play(NJ_13_69F, [*POINT_6, bet("a", "buy", 20, number=4), roll(1, 3),
                         bet("a", "buy", 20, number=4)])
    check(r, "a", 97, 40)
    r = play(CASINO_NIGHT, [bet("a", "lay", 40, number=4), roll(3, 4), bet("a", "lay", 40,
                                                                           number=4)])
    check(r, "a", 37, 80)


@pytest.mark.clause("N.J.A.C. 13:69F-1.5(a)")
def test_commission_rounded_to_a_quarter_unit() -> None:
    """Contract "Commission": rounded down to the table unit. Unit 0.25: 5% of a $30 buy is
    1.50, a whole number of quarters, so 1.50 is taken (68.50) and taken again from the 60 won:
    68.50 + 58.50 = 127."""
    r = play(NJ_13_69F, [*POINT_6, bet("a", "buy", 30, number=4), roll(1, 3)], unit="0.25")
    check(r, "a", 127, 30)


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(d)")
def test_flat_bet_not_cut_below_what_its_odds_need() -> None:
    """Contract "Don't bets": a flat bet cannot be cut below what the odds behind it need. Don't
    pass 10 on 4 with 120 laid (wins 60 = 6 x 10): cutting the flat bet by 1 is refused."""
    r = play(NJ_13_69F, [bet("a", "dont_pass", 10), roll(2, 2), bet("a", "dont_pass_odds", 120),
                         reduce("a", "dont_pass", 1)], players={"a": 200})
    assert rejected(r) == [3]
    check(r, "a", 70, 130)
