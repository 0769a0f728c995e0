"""The integrity report: a terminal table, a JSON object, and an HTML page with inline SVG charts."""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from typing import Any

from croupier.integrity.model import MonitorConfig, SetReport


def guarantee(config: MonitorConfig) -> str:
    """The false-alarm guarantee, in words."""
    return (
        f"On fair equipment: P(any sequential alert within {config.horizon} outcomes of one dice set "
        f"or wheel) <= {config.sequential_alpha:g}; P(alert in a report on at most {config.horizon} "
        f"outcomes) <= {config.alpha:g}."
    )


MIN_EXPECTED = 5
"""Each face or pocket must be expected this often before the goodness-of-fit tests say
anything (the chi-square approximation's usual condition)."""

OK, ALERT, TOO_LITTLE = "ok", "ALERT", "too little data"


def minimum_outcomes(report: SetReport) -> int:
    """The outcomes a set needs before its tests are read: five expected in each face of a
    die (30 rolls), in each pocket of a wheel (190 spins on a double-zero wheel)."""
    cells = [len(labels) for labels in report.labels.values()] or [1]
    return MIN_EXPECTED * min(cells)


def status(report: SetReport) -> str:
    """ALERT when a monitor or a test says so (a sequential alarm counts at any length);
    else "too little data" below :func:`minimum_outcomes`; else ok."""
    if report.alarms or (report.n >= minimum_outcomes(report) and report.alert):
        return ALERT
    return TOO_LITTLE if report.n < minimum_outcomes(report) else OK


def heading(report: SetReport) -> str:
    """``dice: 2 rolls`` for the one unnamed set, ``dice set A: 2 rolls`` for a named one."""
    unit = "rolls" if report.kind == "dice" else "spins"
    default = report.id in ("", report.kind)
    name = report.kind if default else f"{'dice set' if report.kind == 'dice' else 'wheel'} {report.id}"
    return f"{name}: {report.n} {unit}"


def exit_status(reports: Sequence[SetReport]) -> int:
    """0 every set ok, 3 an alert, 4 no alert but a set with too little data to judge."""
    states = {status(r) for r in reports}
    return 3 if ALERT in states else 4 if TOO_LITTLE in states else 0


def to_json(reports: Sequence[SetReport], config: MonitorConfig) -> dict[str, Any]:
    sets = []
    for r in reports:
        item = r.to_json()
        item["status"] = status(r)
        item["minimum_outcomes"] = minimum_outcomes(r)
        sets.append(item)
    return {
        "alpha": config.alpha,
        "horizon": config.horizon,
        "guarantee": guarantee(config),
        "alert": any(status(r) == ALERT for r in reports),
        "sets": sets,
    }


def _p(p: float) -> str:
    return f"{p:.3g}" if p >= 1e-4 else f"{p:.2e}"


def to_table(reports: Sequence[SetReport], config: MonitorConfig) -> str:
    """Plain text, one block per dice set or wheel."""
    lines = []
    for r in reports:
        lines.append(f"{heading(r)}  [{status(r)}]")
        if status(r) == TOO_LITTLE:
            lines.append(f"  too little data: the tests need at least {minimum_outcomes(r)} "
                         f"{'rolls' if r.kind == 'dice' else 'spins'} (five expected of each "
                         f"{'face' if r.kind == 'dice' else 'pocket'}); no p-value is shown")
            lines.append("")
            continue
        lines.append(f"  {'test':<14} {'statistic':>11} {'df':>4} {'p-value':>10} {'level':>10}  alert")
        for t in r.tests:
            df = "" if t.df is None else str(t.df)
            lines.append(
                f"  {t.name:<14} {t.statistic:>11.3f} {df:>4} {_p(t.p_value):>10} {t.level:>10.3g}  "
                f"{'yes' if t.alert else 'no'}{'  (' + t.note + ')' if t.note else ''}"
            )
        if r.alarms:
            for a in r.alarms:
                lines.append(f"  sequential: {a.message}")
        else:
            lines.append(f"  sequential: no alarm from {r.monitors} CUSUM monitors")
        if r.beyond_horizon:
            lines.append(
                f"  note: {r.n} outcomes exceed the horizon {config.horizon} of the sequential guarantee"
            )
        lines.append("")
    lines.append(guarantee(config))
    return "\n".join(lines) + "\n"


def _svg(fig: Any) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def charts(report: SetReport) -> list[str]:
    """Inline SVG charts: observed against expected counts, and the CUSUM trace."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    keys = ["die1", "die2", "totals"] if report.kind == "dice" else ["pockets"]
    out = []
    for key in keys:
        fig, ax = plt.subplots(figsize=(8 if key == "pockets" else 4.5, 2.6))
        labels = report.labels[key]
        xs = range(len(labels))
        ax.bar(xs, report.counts[key], color="#4a7bb7", label="observed")
        ax.plot(xs, report.expected[key], "k_", markersize=14, label="expected")
        ax.set_xticks(
            list(xs), labels, fontsize=7 if key == "pockets" else 9, rotation=90 if key == "pockets" else 0
        )
        title = {"die1": "die 1 faces", "die2": "die 2 faces", "totals": "totals"}.get(
            key, "pockets, wheel order"
        )
        ax.set_title(title, fontsize=10)
        ax.legend(fontsize=7)
        out.append(_svg(fig))
        plt.close(fig)
    if report.trace:
        fig, ax = plt.subplots(figsize=(8, 2.4))
        ts, ratios = zip(*report.trace, strict=True)
        ax.plot(ts, ratios, color="#b74a4a")
        ax.axhline(1.0, color="k", linestyle="--", linewidth=0.8)
        ax.set_ylim(0, max(1.1, max(ratios) * 1.05))
        ax.set_xlabel("roll" if report.kind == "dice" else "spin")
        ax.set_title("largest CUSUM as a fraction of its alarm threshold", fontsize=10)
        out.append(_svg(fig))
        plt.close(fig)
    return out


def to_html(reports: Sequence[SetReport], config: MonitorConfig) -> str:
    """A self-contained HTML page."""
    esc = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>croupier integrity report</title>",
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}.alert{color:#b00;font-weight:bold}"
        "</style></head><body><h1>croupier integrity report</h1>",
        f"<p>{esc(guarantee(config))}</p>",
    ]
    for r in reports:
        state = status(r)
        shown = f"<span class='alert'>{state}</span>" if state == ALERT else esc(state)
        parts.append(f"<h2>{esc(heading(r))}, {shown}</h2>")
        if state == TOO_LITTLE:
            parts.append(f"<p>Too little data: the tests need at least {minimum_outcomes(r)} "
                         "outcomes (five expected in each cell).</p>")
            continue
        parts.append(
            "<table><tr><th>test</th><th>statistic</th><th>df</th><th>p-value</th><th>level</th>"
            "<th>alert</th><th>note</th></tr>"
        )
        for t in r.tests:
            parts.append(
                f"<tr><td>{esc(t.name)}</td><td>{t.statistic:.3f}</td><td>{'' if t.df is None else t.df}</td>"
                f"<td>{_p(t.p_value)}</td><td>{t.level:.3g}</td>"
                f"<td class='{'alert' if t.alert else ''}'>{'yes' if t.alert else 'no'}</td>"
                f"<td>{esc(t.note)}</td></tr>"
            )
        parts.append("</table><ul>")
        for a in r.alarms:
            parts.append(f"<li class='alert'>{esc(a.message)}</li>")
        if not r.alarms:
            parts.append(f"<li>no alarm from {r.monitors} sequential monitors</li>")
        parts.append("</ul>")
        parts.extend(f"<div>{svg}</div>" for svg in charts(r))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
