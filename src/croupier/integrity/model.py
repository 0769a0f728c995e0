"""The monitors' configuration and results: plain, serialisable data.

The false-alarm guarantee (see docs/integrity.md): for fair equipment,

* the sequential monitors of one dice set or wheel raise any alert within ``horizon``
  observations with probability at most ``alpha * sequential_share`` (exact per monitor,
  union bound over the monitors; ``gross_share`` of it goes to the monitors for gross biases,
  the rest to those for small ones);
* the end-of-run goodness-of-fit tests of one report share ``alpha * (1 - sequential_share)``
  (Bonferroni);

so a report on at most ``horizon`` outcomes of a fair set shows ``alert`` with probability at
most ``alpha``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal["dice", "wheel"]


@dataclass(frozen=True)
class MonitorConfig:
    """Levels and the biases the sequential monitors are designed to catch."""

    alpha: float = 0.01
    """Overall false-alarm probability per dice set or wheel over ``horizon`` outcomes."""
    horizon: int = 10_000
    """The run length (rolls or spins) the sequential guarantee is stated for."""
    sequential_share: float = 0.5
    """The part of ``alpha`` given to the sequential monitors; the rest goes to the final tests."""
    die_face_p1: float = 1 / 5
    """A face of one die coming up with this probability instead of 1/6."""
    pocket_ratio: float = 2.0
    """A pocket coming up this many times as often as it should (2/38 instead of 1/38)."""
    sector_width: int = 5
    """Neighbouring pockets watched together (a pocket and two either side)."""
    sector_ratio: float = 1.25
    """A sector coming up this many times as often as it should."""
    gross_share: float = 0.2
    """The part of the sequential budget given to the monitors for gross biases (below); 0
    leaves them out. A monitor designed for a small bias adds at most ln(p1 / p0) per outcome
    (ln 1.2 for a face at 1/5), so it needs dozens of outcomes whatever it sees: a die showing
    six every roll took 64 rolls. These catch such a die within a few."""
    die_face_gross_p1: float = 1 / 2
    """Gross bias: a face of one die coming up with this probability."""
    pair_ratio: float = 6.0
    """Gross bias: an ordered pair of faces (6-6) coming up this many times as often as it
    should (6/36 instead of 1/36)."""
    pocket_gross_ratio: float = 8.0
    """Gross bias: a pocket coming up this many times as often as it should (8/38)."""

    def __post_init__(self) -> None:
        for refused, message in _CONFIG_REFUSALS:
            if refused(self):
                raise ValueError(message)

    @property
    def sequential_alpha(self) -> float:
        return self.alpha * self.sequential_share

    @property
    def drift_alpha(self) -> float:
        """The sequential budget of the monitors for small biases."""
        return self.sequential_alpha * (1 - self.gross_share)

    @property
    def gross_alpha(self) -> float:
        """The sequential budget of the monitors for gross biases (0: there are none)."""
        return self.sequential_alpha * self.gross_share

    @property
    def final_alpha(self) -> float:
        return self.alpha * (1 - self.sequential_share)


@dataclass(frozen=True)
class Alert:
    """A sequential monitor crossed its threshold: the equipment is likely biased."""

    kind: Kind
    set_id: str
    monitor: str
    at: int
    """The observation (1-based roll or spin of this set) at which the alarm was raised."""
    statistic: float
    """The CUSUM in log-likelihood-ratio units."""
    threshold: float

    @property
    def message(self) -> str:
        what = "dice set" if self.kind == "dice" else "wheel"
        return (
            f"{what} {self.set_id or '-'}: {self.monitor} biased (CUSUM {self.statistic:.2f} >= "
            f"{self.threshold:.2f} at {'roll' if self.kind == 'dice' else 'spin'} {self.at})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "monitor": self.monitor,
            "at": self.at,
            "statistic": round(self.statistic, 6),
            "threshold": round(self.threshold, 6),
            "message": self.message,
        }


@dataclass(frozen=True)
class TestResult:
    """One goodness-of-fit test at the end of a run, with its Bonferroni level."""

    __test__ = False  # not a pytest test class

    name: str
    statistic: float
    df: int | None
    p_value: float
    level: float
    note: str = ""

    @property
    def alert(self) -> bool:
        return self.p_value < self.level

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "statistic": round(self.statistic, 6),
            "df": self.df,
            "p_value": self.p_value,
            "level": self.level,
            "alert": self.alert,
            "note": self.note,
        }


@dataclass
class SetReport:
    """Everything known about one dice set or wheel."""

    kind: Kind
    id: str
    n: int
    tests: list[TestResult]
    alarms: list[Alert]
    config: MonitorConfig
    monitors: int
    counts: dict[str, list[int]] = field(default_factory=dict)
    expected: dict[str, list[float]] = field(default_factory=dict)
    labels: dict[str, list[str]] = field(default_factory=dict)
    trace: list[tuple[int, float]] = field(default_factory=list)

    @property
    def alert(self) -> bool:
        return bool(self.alarms) or any(t.alert for t in self.tests)

    @property
    def beyond_horizon(self) -> bool:
        return self.n > self.config.horizon

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "id": self.id,
            "n": self.n,
            "alert": self.alert,
            "tests": [t.to_json() for t in self.tests],
            "sequential": {
                "monitors": self.monitors,
                "alarm": bool(self.alarms),
                "first_alarm_at": min((a.at for a in self.alarms), default=None),
                "alarms": [a.to_json() for a in self.alarms],
                "false_alarm_bound": self.config.sequential_alpha,
                "horizon": self.config.horizon,
                "beyond_horizon": self.beyond_horizon,
            },
            "counts": self.counts,
        }


# The refusals of a monitor configuration, checked in this order (the first that holds is the
# one reported).
_CONFIG_REFUSALS: tuple[tuple[Callable[[MonitorConfig], bool], str], ...] = (
    (lambda c: not 0 < c.alpha < 1, "alpha must be between 0 and 1"),
    (lambda c: c.horizon < 1, "horizon must be positive"),
    (lambda c: not 0 < c.sequential_share < 1, "sequential_share must be between 0 and 1"),
    (lambda c: not 1 / 6 < c.die_face_p1 < 1, "die_face_p1 must be above 1/6"),
    (lambda c: c.pocket_ratio <= 1 or c.sector_ratio <= 1,
     "pocket_ratio and sector_ratio must be above 1"),
    (lambda c: c.sector_width < 2, "sector_width must be at least 2"),
    (lambda c: not 0 <= c.gross_share < 1, "gross_share must be at least 0 and below 1"),
    (lambda c: not c.die_face_p1 < c.die_face_gross_p1 < 1,
     "die_face_gross_p1 must be above die_face_p1 and below 1"),
    (lambda c: not 1 < c.pair_ratio < 36, "pair_ratio must be above 1 and below 36"),
    (lambda c: c.pocket_gross_ratio <= c.pocket_ratio,
     "pocket_gross_ratio must be above pocket_ratio"),
)
