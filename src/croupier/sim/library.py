"""The built-in strategies, written in the strategy file format (each one is a valid file).

Craps strategies follow well-known systems (several as crapssim names them); where New Jersey's
table differs (no Big 6/8, stakes that must be payable in the table unit, place bets off on the
come-out) the description says what was changed.

>>> sorted(BUILT_IN)[:3]
['buy-sampler', 'dalembert-red', 'dice-doctor']
"""

from __future__ import annotations

from croupier.sim.strategy import Strategy

_TEXTS: dict[str, str] = {}


def _add(text: str) -> None:
    s = Strategy.from_toml(text, "built-in")
    _TEXTS[s.name] = text


_add('''
name = "pass-line"
description = "$10 flat on the pass line every come-out."
[[bets]]
wager = "pass"
amount = "10"
''')

_add('''
name = "pass-odds-come"
description = "$10 pass with 3x odds and up to two $10 come bets with 3x odds."
[[bets]]
wager = "pass"
amount = "10"
[[bets]]
wager = "pass_odds"
multiple = 3
[[bets]]
wager = "come"
amount = "10"
count = 2
[[bets]]
wager = "come_odds"
multiple = 3
''')

_add('''
name = "place-6-8"
description = "$12 place bets to win on the 6 and the 8 once a point is on (left up, off on come-outs)."
[[bets]]
wager = "place_win"
number = 6
amount = "12"
when = "point_on"
[[bets]]
wager = "place_win"
number = 8
amount = "12"
when = "point_on"
''')

_add('''
name = "iron-cross"
description = """Iron Cross: $10 pass with 2x odds; once a point is on, $20 on place 5, $24 on \
place 6 and 8 (not on the point) and $10 on the field every roll, so that every total but 7 wins."""
[[bets]]
wager = "pass"
amount = "10"
[[bets]]
wager = "pass_odds"
multiple = 2
[[bets]]
wager = "place_win"
number = 5
amount = "20"
when = "point_on"
skip_point = true
[[bets]]
wager = "place_win"
number = 6
amount = "24"
when = "point_on"
skip_point = true
[[bets]]
wager = "place_win"
number = 8
amount = "24"
when = "point_on"
skip_point = true
[[bets]]
wager = "field"
amount = "10"
when = "point_on"
''')

_add('''
name = "pass-2-come"
description = "Pass2Come: $10 pass and up to two $10 come bets, no odds."
[[bets]]
wager = "pass"
amount = "10"
[[bets]]
wager = "come"
amount = "10"
count = 2
''')

_add('''
name = "pass-place-6-8"
description = "PassLinePlace68: $5 pass; $6 place bets on the 6 and 8 except the point."
[[bets]]
wager = "pass"
amount = "5"
[[bets]]
wager = "place_win"
number = 6
amount = "6"
when = "point_on"
skip_point = true
[[bets]]
wager = "place_win"
number = 8
amount = "6"
when = "point_on"
skip_point = true
''')

_add('''
name = "place-inside"
description = "PlaceInside: place the inside numbers once a point is on: $5 on 5 and 9, $6 on 6 and 8."
[[bets]]
wager = "place_win"
number = 5
amount = "5"
when = "point_on"
[[bets]]
wager = "place_win"
number = 6
amount = "6"
when = "point_on"
[[bets]]
wager = "place_win"
number = 8
amount = "6"
when = "point_on"
[[bets]]
wager = "place_win"
number = 9
amount = "5"
when = "point_on"
''')

_add('''
name = "place-6-8-move-5-9"
description = """PassLinePlace68Move59: $5 pass; place $6 on the 6 and 8, but where the player's \
own pass or come bet stands on the 6 or 8 take that place bet down and place $5 on the 5 or 9 \
instead (at most two place bets)."""
[[bets]]
wager = "pass"
amount = "5"
[[bets]]
wager = "place_win"
number = 6
amount = "6"
when = "point_on"
skip_covered = true
max_same = 2
[[bets]]
wager = "place_win"
number = 8
amount = "6"
when = "point_on"
skip_covered = true
max_same = 2
[[bets]]
wager = "place_win"
number = 5
amount = "5"
when = "point_on"
skip_covered = true
max_same = 2
[[bets]]
wager = "place_win"
number = 9
amount = "5"
when = "point_on"
skip_covered = true
max_same = 2
''')

_add('''
name = "place-6-8-2-come"
description = """Place682Come: $5 pass or come bets while fewer than two line bets stand, and \
$6 place bets on the 6 and 8 moved to $5 on the 5 or 9 where a line bet covers them."""
[[bets]]
wager = "pass"
amount = "5"
max_line = 2
[[bets]]
wager = "come"
amount = "5"
count = 6
max_line = 2
[[bets]]
wager = "place_win"
number = 6
amount = "6"
when = "point_on"
skip_covered = true
max_same = 2
[[bets]]
wager = "place_win"
number = 8
amount = "6"
when = "point_on"
skip_covered = true
max_same = 2
[[bets]]
wager = "place_win"
number = 5
amount = "5"
when = "point_on"
skip_covered = true
max_same = 2
[[bets]]
wager = "place_win"
number = 9
amount = "5"
when = "point_on"
skip_covered = true
max_same = 2
''')

_add('''
name = "hammer-lock"
description = """HammerLock: $10 pass and $10 don't pass on the come-out, laying 6x the don't \
pass behind it; with the point on, $24 on place 6 and 8; after one place win, $10/$12/$12/$10 \
across 5, 6, 8, 9; after a second, all place bets down. Place bets come down on the come-out;
the count starts again at a seven-out."""
[[bets]]
wager = "pass"
amount = "10"
[[bets]]
wager = "dont_pass"
amount = "10"
[[bets]]
wager = "dont_pass_odds"
multiple = 6
[[bets]]
wager = "place_win"
number = 6
amounts = ["24", "12", "0"]
progression = "hits"
when = "point_on"
down_when_idle = true
[[bets]]
wager = "place_win"
number = 8
amounts = ["24", "12", "0"]
progression = "hits"
when = "point_on"
down_when_idle = true
[[bets]]
wager = "place_win"
number = 5
amounts = ["0", "10", "0"]
progression = "hits"
when = "point_on"
down_when_idle = true
[[bets]]
wager = "place_win"
number = 9
amounts = ["0", "10", "0"]
progression = "hits"
when = "point_on"
down_when_idle = true
[progressions.hits]
on_win = [1, 2, 2]
on_lose = [0, 0, 0]
seven_out_reset = true
''')

_add('''
name = "risk-12"
description = """Risk12 (simplified): $5 pass and $5 field on the come-out; once the point is on, \
$6 place bets on the 6 and 8 except the point (crapssim's version places them only out of \
come-out winnings)."""
[[bets]]
wager = "pass"
amount = "5"
[[bets]]
wager = "field"
amount = "5"
when = "point_off"
[[bets]]
wager = "place_win"
number = 6
amount = "6"
when = "point_on"
skip_point = true
[[bets]]
wager = "place_win"
number = 8
amount = "6"
when = "point_on"
skip_point = true
''')

_add('''
name = "knockout"
description = "Knockout: $10 pass and $10 don't pass on the come-out, 3-4-5x odds on the pass."
[[bets]]
wager = "pass"
amount = "10"
[[bets]]
wager = "dont_pass"
amount = "10"
[[bets]]
wager = "pass_odds"
multiple = "3-4-5"
''')

_add('''
name = "dice-doctor"
description = """DiceDoctor: a field bet every roll progressing after each win through $10, 20, \
15, 30, 25, 50, 35, 70, 50, 100, 75, 150 (staying at $150) and back to $10 after a loss."""
[[bets]]
wager = "field"
amounts = ["10", "20", "15", "30", "25", "50", "35", "70", "50", "100", "75", "150"]
on_win = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11]
on_lose = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
''')

_add('''
name = "place-6-8-press-regress"
description = """Place68PR: $6 place bets on the 6 and 8 once a point is on; after a win press \
that number to $12; after a second win regress it to $6."""
[[bets]]
wager = "place_win"
number = 6
amounts = ["6", "12"]
on_win = [1, 0]
on_lose = [0, 0]
when = "point_on"
[[bets]]
wager = "place_win"
number = 8
amounts = ["6", "12"]
on_win = [1, 0]
on_lose = [0, 0]
when = "point_on"
''')

_add('''
name = "place-6-8-dont-come-2-odds"
description = """Place68DontCome2Odds: $6 place bets on the 6 and 8 once a point is on, a $6 \
don't come bet whenever none stands, and laid odds of twice the don't come bet behind it."""
[[bets]]
wager = "place_win"
number = 6
amount = "6"
when = "point_on"
[[bets]]
wager = "place_win"
number = 8
amount = "6"
when = "point_on"
[[bets]]
wager = "dont_come"
amount = "6"
count = 1
[[bets]]
wager = "dont_come_odds"
multiple = 2
''')

_add('''
name = "quick-props"
description = """QuickProps: a $5 whirl (world) bet every roll and $5 on the hard 6 and hard 8 \
(New Jersey has no Big 6/8, which crapssim's version uses)."""
[[bets]]
wager = "whirl"
amount = "5"
[[bets]]
wager = "hard"
number = 6
amount = "5"
[[bets]]
wager = "hard"
number = 8
amount = "5"
''')

_add('''
name = "buy-sampler"
description = "BuySampler: $25 buy bets on the 4 and 10 (5% commission, rounded down to the unit)."
[[bets]]
wager = "buy"
number = 4
amount = "25"
[[bets]]
wager = "buy"
number = 10
amount = "25"
''')

_add('''
name = "lay-sampler"
description = "LaySampler: $30 lay bets against the 5 and 9 (5% commission)."
[[bets]]
wager = "lay"
number = 5
amount = "30"
[[bets]]
wager = "lay"
number = 9
amount = "30"
''')

_add('''
name = "three-point-molly"
description = "ThreePointMolly: $10 pass and up to two $10 come bets, each with 1x odds."
[[bets]]
wager = "pass"
amount = "10"
[[bets]]
wager = "pass_odds"
multiple = 1
[[bets]]
wager = "come"
amount = "10"
count = 2
[[bets]]
wager = "come_odds"
multiple = 1
''')

_add('''
name = "three-point-dolly"
description = """ThreePointDolly: $10 don't pass and up to two $10 don't come bets, each with laid \
odds that win once the flat bet."""
[[bets]]
wager = "dont_pass"
amount = "10"
[[bets]]
wager = "dont_pass_odds"
multiple = 1
win_multiple = true
[[bets]]
wager = "dont_come"
amount = "10"
count = 2
[[bets]]
wager = "dont_come_odds"
multiple = 1
win_multiple = true
''')

_SQUEEZE_STAGES = {4: ("0", "10", "10", "10"), 5: ("15", "15", "20", "10"),
                   6: ("18", "18", "24", "12"), 8: ("18", "18", "24", "12"),
                   9: ("15", "15", "20", "10"), 10: ("0", "10", "10", "10")}
_add('''
name = "squeeze-play"
description = """SqueezePlay: $66 inside (5/9 $15, 6/8 $18); after the first hit add $10 on 4 and \
10; after the second press the inside to $88; after the third regress to $64 across. Hits carry \
over made points, reset at a seven-out; place bets come down on the come-out."""
''' + "".join(f'''
[[bets]]
wager = "place_win"
number = {n}
amounts = [{", ".join(f'"{a}"' for a in stages)}]
progression = "hits"
when = "point_on"
down_when_idle = true
''' for n, stages in _SQUEEZE_STAGES.items()) + '''
[progressions.hits]
on_win = [1, 2, 3, 3]
on_lose = [0, 0, 0, 0]
seven_out_reset = true
''')

_add('''
name = "double-tap"
description = """DoubleTap: place every number once a point is on ($12 on 6 and 8, $10 on the \
others); each number on its own presses to twice, then four times its start after wins, then \
back to the start after a third win; a loss resets it."""
''' + "".join(f'''
[[bets]]
wager = "place_win"
number = {n}
amounts = [{", ".join(f'"{a * (12 if n in (6, 8) else 10)}"' for a in (1, 2, 4))}]
on_win = [1, 2, 0]
on_lose = [0, 0, 0]
when = "point_on"
''' for n in (4, 5, 6, 8, 9, 10)))

# --- roulette ------------------------------------------------------------------------------

_add('''
name = "roulette-flat"
game = "roulette"
description = "$10 on red every spin."
[[bets]]
wager = "red"
amount = "10"
''')

_add('''
name = "martingale-red"
game = "roulette"
description = """Martingale on red: $5, doubled after every loss up to $640 (then held there), \
back to $5 after a win."""
[[bets]]
wager = "red"
amounts = ["5", "10", "20", "40", "80", "160", "320", "640"]
on_win = [0, 0, 0, 0, 0, 0, 0, 0]
on_lose = [1, 2, 3, 4, 5, 6, 7, 7]
''')

_add('''
name = "dalembert-red"
game = "roulette"
description = """D'Alembert on red: one $5 unit more after a loss, one less after a win \
(from $5 to $100)."""
[[bets]]
wager = "red"
amounts = [''' + ", ".join(f'"{5 * k}"' for k in range(1, 21)) + ''']
on_win = [''' + ", ".join(str(max(k - 1, 0)) for k in range(20)) + ''']
on_lose = [''' + ", ".join(str(min(k + 1, 19)) for k in range(20)) + ''']
''')

_FIB = [1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144]
_add('''
name = "fibonacci-red"
game = "roulette"
description = """Fibonacci on red in $5 units: one step along 1, 1, 2, 3, 5, 8, ... after a loss, \
two steps back after a win (held at 144 units)."""
[[bets]]
wager = "red"
amounts = [''' + ", ".join(f'"{5 * f}"' for f in _FIB) + ''']
on_win = [''' + ", ".join(str(max(k - 2, 0)) for k in range(len(_FIB))) + ''']
on_lose = [''' + ", ".join(str(min(k + 1, len(_FIB) - 1)) for k in range(len(_FIB))) + ''']
''')

_add('''
name = "james-bond"
game = "roulette"
description = "James Bond: $140 on 19 to 36, $50 on the six numbers 13-18 and $10 straight on 0."
[[bets]]
wager = "high"
amount = "140"
[[bets]]
wager = "six_numbers"
numbers = [13, 14, 15, 16, 17, 18]
amount = "50"
[[bets]]
wager = "straight"
numbers = [0]
amount = "10"
''')

BUILT_IN: dict[str, Strategy] = {name: Strategy.from_toml(text, name)
                                 for name, text in _TEXTS.items()}
"""Every built-in strategy by name."""

BUILT_IN_TOML: dict[str, str] = dict(_TEXTS)
"""The file text of every built-in strategy (a starting point for your own)."""
