"""Integrity monitoring of one set of dice: is each die perfectly balanced (N.J.A.C.
13:47-20.25(b)2)? Players may call for a change of dice, effective after the next decision
((g)8); an :class:`~croupier.integrity.model.Alert` from :meth:`DiceMonitor.observe` is the
casino's own reason to do the same.

>>> monitor = DiceMonitor("A-17")
>>> monitor.observe(3, 4)
[]
>>> monitor.n, monitor.pair_counts[2][3]
(1, 1)
>>> [t.name for t in monitor.tests()]
['die1 faces', 'die2 faces', 'totals', 'pairs']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from croupier.dice import FACES
from croupier.integrity.base import BaseMonitor
from croupier.integrity.model import Alert, Kind, MonitorConfig, SetReport, TestResult
from croupier.integrity.sequential import Bank, make_spec
from croupier.integrity.stats import chi_square_gof

TOTALS = tuple(range(2, 13))
TOTAL_PROBS = tuple((6 - abs(t - 7)) / 36 for t in TOTALS)
PAIRS = tuple((a, b) for a in FACES for b in FACES)


@lru_cache(maxsize=32)
def dice_bank(config: MonitorConfig) -> Bank:
    """The monitors of one dice set; outcome (d1 - 1) * 6 + (d2 - 1).

    For small biases, one per face of each die (designed for the face at
    ``config.die_face_p1``). For gross ones (unless ``config.gross_share`` is 0), one more per
    face of each die (at ``config.die_face_gross_p1``) and one per ordered pair (at
    ``config.pair_ratio`` / 36): a small-bias monitor adds at most ln(1.2) for a six, so
    it needs 64 sixes in a row however loaded the die, while six-six again and again is
    ln 36 of evidence a roll, which the pair monitor takes ln 6 of.

    >>> bank = dice_bank(MonitorConfig())
    >>> [bank.specs[k].name for k in bank.hits[35]]
    ['die1 face 6', 'die2 face 6', 'die1 face 6 (gross)', 'die2 face 6 (gross)', 'pair 6-6']
    """
    drift = config.drift_alpha / 12
    specs = tuple(
        make_spec(f"die{die} face {face}", 1 / 6, config.die_face_p1, config.horizon, drift)
        for die in (1, 2)
        for face in FACES
    )
    drift_hits = tuple((a - 1, 6 + b - 1) for a, b in PAIRS)
    if not config.gross_share:
        return Bank(specs, drift_hits)
    gross = config.gross_alpha / (12 + 36)
    specs += tuple(
        make_spec(f"die{die} face {face} (gross)", 1 / 6, config.die_face_gross_p1, config.horizon, gross)
        for die in (1, 2)
        for face in FACES
    )
    specs += tuple(
        make_spec(f"pair {a}-{b}", 1 / 36, config.pair_ratio / 36, config.horizon, gross)
        for a in FACES
        for b in FACES
    )
    hits = tuple((*drift_hits[k], 12 + a - 1, 18 + b - 1, 24 + k) for k, (a, b) in enumerate(PAIRS))
    return Bank(specs, hits)


def _face(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise ValueError(f"{name} must be a die face 1 to 6, not {value!r}")
    return value


def dice_counts(pair_counts: Sequence[Sequence[int]]) -> dict[str, list[int]]:
    """Faces of each die, totals 2 to 12 and the 36 pairs, from a 6 x 6 table of pairs."""
    pc = pair_counts
    totals = [sum(pc[a - 1][t - a - 1] for a in FACES if 1 <= t - a <= 6) for t in TOTALS]
    return {
        "die1": [sum(row) for row in pc],
        "die2": [sum(pc[a][b] for a in range(6)) for b in range(6)],
        "totals": totals,
        "pairs": [pc[a][b] for a in range(6) for b in range(6)],
    }


def dice_tests(pair_counts: Sequence[Sequence[int]], config: MonitorConfig) -> list[TestResult]:
    """The four end-of-run tests, each at ``config.final_alpha / 4`` (Bonferroni)."""
    counts = dice_counts(pair_counts)
    cells = {
        "die1 faces": ("die1", [1 / 6] * 6),
        "die2 faces": ("die2", [1 / 6] * 6),
        "totals": ("totals", list(TOTAL_PROBS)),
        "pairs": ("pairs", [1 / 36] * 36),
    }
    level = config.final_alpha / len(cells)
    results = []
    for name, (key, probs) in cells.items():
        r = chi_square_gof(counts[key], probs)
        note = "chi-square approximate: expected counts below 5" if r.approximate else ""
        results.append(TestResult(name, r.statistic, r.df, r.p_value, level, note))
    return results


class DiceMonitor(BaseMonitor):
    """Sequential monitors and goodness-of-fit counts for one dice set (by serial)."""

    kind: Kind = "dice"

    def __init__(self, set_id: str = "", config: MonitorConfig | None = None, trace_every: int = 0) -> None:
        config = config or MonitorConfig()
        super().__init__(set_id, config, dice_bank(config), trace_every)
        self.pair_counts = [[0] * 6 for _ in FACES]

    def observe(self, d1: int, d2: int) -> list[Alert]:
        """Record one roll; return the alerts it raises (usually none)."""
        a, b = _face(d1, "d1"), _face(d2, "d2")
        self.pair_counts[a - 1][b - 1] += 1
        return self._step((a - 1) * 6 + (b - 1))

    def counts(self) -> dict[str, list[int]]:
        """Faces of each die, totals 2 to 12, and the 36 ordered pairs (1-1, 1-2, ... 6-6)."""
        return dice_counts(self.pair_counts)

    def tests(self) -> list[TestResult]:
        """Chi-square goodness of fit on each die's faces, the totals and the 36 pairs."""
        return dice_tests(self.pair_counts, self.config)

    def report(self) -> SetReport:
        counts = self.counts()
        n = self.n
        return SetReport(
            kind="dice",
            id=self.set_id,
            n=n,
            tests=self.tests(),
            alarms=list(self.alarms),
            config=self.config,
            monitors=len(self.bank.specs),
            counts=counts,
            expected={
                "die1": [n / 6] * 6,
                "die2": [n / 6] * 6,
                "totals": [n * p for p in TOTAL_PROBS],
                "pairs": [n / 36] * 36,
            },
            labels={
                "die1": [str(f) for f in FACES],
                "die2": [str(f) for f in FACES],
                "totals": [str(t) for t in TOTALS],
                "pairs": [f"{a}-{b}" for a in FACES for b in FACES],
            },
            trace=list(self.trace),
        )
