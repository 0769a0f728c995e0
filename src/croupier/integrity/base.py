"""What the dice and wheel monitors share: a calibrated CUSUM bank, alerts and a trace."""

from __future__ import annotations

from croupier.integrity.model import Alert, Kind, MonitorConfig
from croupier.integrity.sequential import Bank, BankState


class BaseMonitor:
    """A bank of sequential monitors over one stream of outcomes, observed one at a time."""

    kind: Kind

    def __init__(self, set_id: str, config: MonitorConfig, bank: Bank, trace_every: int = 0) -> None:
        if trace_every < 0:
            raise ValueError("trace_every must not be negative")
        self.set_id = set_id
        self.config = config
        self.bank = bank
        self.state = BankState(bank)
        self.alarms: list[Alert] = []
        self.trace: list[tuple[int, float]] = []
        self._trace_every = trace_every

    @property
    def n(self) -> int:
        """Outcomes observed so far."""
        return self.state.t

    @property
    def alarmed(self) -> bool:
        """Whether any sequential monitor has alarmed (each alarms at most once)."""
        return bool(self.alarms)

    def _step(self, outcome: int) -> list[Alert]:
        new = []
        for k in self.state.step(outcome):
            spec = self.bank.specs[k]
            new.append(
                Alert(
                    self.kind,
                    self.set_id,
                    spec.name,
                    self.state.t,
                    self.state.value(k) * spec.unit,
                    spec.threshold * spec.unit,
                )
            )
        self.alarms.extend(new)
        if self._trace_every and (self.state.t % self._trace_every == 0 or new):
            self.trace.append((self.state.t, max(self.state.ratios())))
        return new
