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


def to_json(reports: Sequence[SetReport], config: MonitorConfig) -> dict[str, Any]:
    return {
        "alpha": config.alpha,
        "horizon": config.horizon,
        "guarantee": guarantee(config),
        "alert": any(r.alert for r in reports),
        "sets": [r.to_json() for r in reports],
    }


def _p(p: float) -> str:
    return f"{p:.3g}" if p >= 1e-4 else f"{p:.2e}"


def to_table(reports: Sequence[SetReport], config: MonitorConfig) -> str:
    """Plain text, one block per dice set or wheel."""
    lines = []
    for r in reports:
        status = "ALERT" if r.alert else "ok"
        lines.append(f"{r.kind} {r.id or '-'}: {r.n} {'rolls' if r.kind == 'dice' else 'spins'}  [{status}]")
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
        status = "<span class='alert'>ALERT</span>" if r.alert else "ok"
        parts.append(f"<h2>{esc(r.kind)} {esc(r.id or '-')}: {r.n} outcomes, {status}</h2>")
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
