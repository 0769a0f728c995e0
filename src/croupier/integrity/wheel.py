"""Integrity monitoring of one roulette wheel: its pockets and its sectors (neighbouring
pockets on the wheel, where a tilted or worn wheel shows first).

The tests use the physical wheel: on a double-zero wheel played as a single-zero wheel
(N.J.A.C. 13:47-20.32(i)) a ball in 00 is "no spin" for the wagers but still an outcome of
the wheel, so it is recorded and tested like any other pocket.

>>> monitor = WheelMonitor(wheel_id="W1")
>>> monitor.observe("00"), monitor.observe(17)
([], [])
>>> monitor.counts()["pockets"][monitor.position["00"]]
1
>>> [t.name for t in monitor.tests()]
['pockets', 'sectors']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from croupier.integrity.base import BaseMonitor
from croupier.integrity.model import Alert, Kind, MonitorConfig, SetReport, TestResult
from croupier.integrity.sequential import Bank, make_spec, sector_arcs
from croupier.integrity.stats import binomial_sf, chi_square_gof
from croupier.roulette.wheel import DOUBLE_ZERO, Pocket, Wheel, is_pocket


@lru_cache(maxsize=32)
def wheel_bank(order: tuple[Pocket, ...], config: MonitorConfig) -> Bank:
    """One monitor per pocket, then one per sector of ``config.sector_width`` neighbours (small
    biases), then, unless ``config.gross_share`` is 0, one more per pocket for a gross bias
    (``config.pocket_gross_ratio`` times its share: a small-bias pocket monitor adds at most
    ln 2 a spin, so it needs 20 spins in a row in one pocket); outcome ``i`` is the pocket at
    position ``i`` clockwise from 0."""
    n = len(order)
    width = config.sector_width
    arcs = sector_arcs(n, width)
    drift = config.drift_alpha / (2 * n)
    pocket_p1 = min(config.pocket_ratio / n, 0.5)
    sector_p1 = min(config.sector_ratio * width / n, 0.95)
    specs = tuple(make_spec(f"pocket {p}", 1 / n, pocket_p1, config.horizon, drift) for p in order)
    specs += tuple(
        make_spec(
            "sector " + "-".join(str(order[k]) for k in arc), width / n, sector_p1, config.horizon, drift
        )
        for arc in arcs
    )
    hits = tuple((i, *(n + (i - k) % n for k in range(width))) for i in range(n))
    if not config.gross_share:
        return Bank(specs, hits)
    gross_p1 = min(config.pocket_gross_ratio / n, 0.9)
    gross = config.gross_alpha / n
    specs += tuple(make_spec(f"pocket {p} (gross)", 1 / n, gross_p1, config.horizon, gross) for p in order)
    return Bank(specs, tuple((*h, 2 * n + i) for i, h in enumerate(hits)))


def wheel_tests(counts: Sequence[int], order: Sequence[Pocket], config: MonitorConfig) -> list[TestResult]:
    """Chi-square on the pockets; a scan over every sector of neighbouring pockets (the
    smallest binomial upper-tail p-value, Bonferroni-adjusted for the number of sectors).
    Each at ``config.final_alpha / 2``."""
    level = config.final_alpha / 2
    n_pockets = len(counts)
    total = sum(counts)
    chi = chi_square_gof(counts, [1 / n_pockets] * n_pockets)
    note = "chi-square approximate: expected counts below 5" if chi.approximate else ""
    width = config.sector_width
    arcs = sector_arcs(n_pockets, width)
    sectors = [sum(counts[k] for k in arc) for arc in arcs]
    tails = binomial_sf(sectors, total, width / n_pockets)
    best = min(range(n_pockets), key=lambda j: tails[j])
    where = "-".join(str(order[k]) for k in arcs[best])
    scan = TestResult(
        "sectors",
        float(sectors[best]),
        None,
        min(1.0, n_pockets * tails[best]),
        level,
        f"most frequent sector {where} ({sectors[best]} of {total})",
    )
    return [TestResult("pockets", chi.statistic, chi.df, chi.p_value, level, note), scan]


class WheelMonitor(BaseMonitor):
    """Sequential monitors and goodness-of-fit counts for one wheel."""

    kind: Kind = "wheel"

    def __init__(
        self,
        wheel: Wheel = DOUBLE_ZERO,
        wheel_id: str = "",
        config: MonitorConfig | None = None,
        trace_every: int = 0,
    ) -> None:
        config = config or MonitorConfig()
        if config.sector_width >= len(wheel.order):
            raise ValueError("sector_width must be smaller than the wheel")
        super().__init__(wheel_id, config, wheel_bank(wheel.order, config), trace_every)
        self.wheel = wheel
        self.position: dict[Pocket, int] = {p: i for i, p in enumerate(wheel.order)}
        self._counts = [0] * len(wheel.order)

    def observe(self, number: Pocket) -> list[Alert]:
        """Record one spin (0 to 36 or "00"); return the alerts it raises (usually none)."""
        if not is_pocket(number) or number not in self.position:
            raise ValueError(f"{number!r} is not a pocket of the {self.wheel.name}")
        i = self.position[number]
        self._counts[i] += 1
        return self._step(i)

    def counts(self) -> dict[str, list[int]]:
        """Spins per pocket, clockwise from 0 (the order of ``wheel.order``)."""
        return {"pockets": list(self._counts)}

    def tests(self) -> list[TestResult]:
        """Chi-square on the pockets and a scan over the sectors (see :func:`wheel_tests`)."""
        return wheel_tests(self._counts, self.wheel.order, self.config)

    def report(self) -> SetReport:
        n_pockets = len(self._counts)
        return SetReport(
            kind="wheel",
            id=self.set_id,
            n=self.n,
            tests=self.tests(),
            alarms=list(self.alarms),
            config=self.config,
            monitors=len(self.bank.specs),
            counts=self.counts(),
            expected={"pockets": [self.n / n_pockets] * n_pockets},
            labels={"pockets": [str(p) for p in self.wheel.order]},
            trace=list(self.trace),
        )
