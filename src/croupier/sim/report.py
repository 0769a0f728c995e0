"""Summaries of a simulation: bankrolls, ruin, loss per roll, hour and unit wagered, with 95%
confidence intervals; as a terminal table, JSON (money as decimal strings), CSV and charts."""

from __future__ import annotations

import csv
import math
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.games import game
from croupier.sim.compile import STATUS_NAMES, Compiled
from croupier.sim.engine import Results, Simulation

Z95 = 1.959963984540054
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def money(cents: float) -> str:
    """A cent amount (possibly fractional, as a mean) as a dollar decimal string."""
    value = (Decimal(repr(float(cents))) / 100).quantize(Decimal("0.01"), ROUND_HALF_EVEN)
    return str(value if value != 0 else Decimal("0.00"))


def exact_mean(cents: npt.NDArray[np.int64]) -> str:
    """The mean of integer cent amounts as exact dollars (rounded half-even to the cent)."""
    total = int(np.sum(cents, dtype=np.int64))  # exact: integer cents, far from overflow
    count = int(np.asarray(cents).size)
    value = (Decimal(total) / Decimal(count) / 100).quantize(Decimal("0.01"), ROUND_HALF_EVEN)
    return str(value if value != 0 else Decimal("0.00"))


def exact_total(cents: npt.NDArray[np.int64]) -> str:
    """The sum of integer cent amounts as exact dollars."""
    total = int(np.sum(cents, dtype=np.int64))
    return str((Decimal(total) / 100).quantize(Decimal("0.01")))


def _ratio_ci(num: npt.NDArray[np.float64], den: npt.NDArray[np.float64],
              ) -> tuple[float, float]:
    """sum(num)/sum(den) and its standard error (delta method over sessions)."""
    n = num.shape[0]
    if n == 0 or den.sum() == 0:
        return float("nan"), float("nan")
    r = float(num.sum() / den.sum())
    if n < 2:
        return r, float("nan")
    se = float(np.sqrt(np.var(num - r * den, ddof=1) / n) / den.mean())
    return r, se


def summarize(compiled: Compiled, res: Results, sim: Simulation, *,
              rolls_per_hour: float) -> dict[str, Any]:
    """The summary of simulation ``sim`` (money as decimal strings): per player and for the
    table."""
    bankroll = sim.bankroll
    players = [_player(compiled, res, p, bankroll, rolls_per_hour)
               for p in range(compiled.players)]
    out: dict[str, Any] = {
        "game": compiled.game,
        "rules": compiled.profile,
        "strategy": "+".join(s.name for s in compiled.strategies),
        "sessions": sim.sessions,
        "rolls_per_session": sim.rolls,
        "rolls": int(res.rolls.sum()),
        "seed": sim.seed,
        "bankroll": money(bankroll),
        "rolls_per_hour": rolls_per_hour,
    }
    if len(players) == 1:
        out.update({k: v for k, v in players[0].items() if k != "strategy"})
    else:
        final = res.final.astype(np.float64)
        loss = bankroll - final
        wag = res.wagered.astype(np.float64)
        lpu, lpu_se = _ratio_ci(loss.sum(axis=1), wag.sum(axis=1))
        out.update({
            "mean_final_bankroll": exact_mean(res.final),
            "risk_of_ruin": float((res.status == 1).mean()),
            "total_wagered": exact_total(res.wagered),
            "loss_per_unit_wagered": lpu,
            "loss_per_unit_wagered_ci95": [lpu - Z95 * lpu_se, lpu + Z95 * lpu_se],
            "players": players,
        })
    return out


def _player(compiled: Compiled, res: Results, p: int, bankroll: int,
            rolls_per_hour: float) -> dict[str, Any]:
    final = res.final[:, p].astype(np.float64)
    n = final.shape[0]
    loss = bankroll - final
    wag = res.wagered[:, p].astype(np.float64)
    played = np.where(res.endroll[:, p] >= 0, res.endroll[:, p], res.rolls).astype(np.float64)
    mean = float(final.mean())
    sd = float(final.std(ddof=1)) if n > 1 else float("nan")
    ruin = float((res.status[:, p] == 1).mean())
    ruin_se = math.sqrt(max(ruin * (1 - ruin), 0.0) / n)
    lpr, lpr_se = _ratio_ci(loss, np.maximum(played, 0))
    lpu, lpu_se = _ratio_ci(loss, wag)
    qs = np.quantile(final, QUANTILES)
    counts = {STATUS_NAMES[k]: int((res.status[:, p] == k).sum()) for k in range(4)}
    half = Z95 * sd / math.sqrt(n) if n > 1 else float("nan")
    return {
        "strategy": compiled.strategies[p].name,
        "mean_final_bankroll": exact_mean(res.final[:, p]),
        "mean_final_bankroll_ci95": [money(mean - half), money(mean + half)]
        if n > 1 else None,
        "median_final_bankroll": money(float(np.median(final))),
        "final_bankroll_quantiles": {f"{q:g}": money(float(v)) for q, v in zip(QUANTILES, qs,
                                                                                 strict=True)},
        "risk_of_ruin": ruin,
        "risk_of_ruin_ci95": [max(0.0, ruin - Z95 * ruin_se), min(1.0, ruin + Z95 * ruin_se)],
        "loss_per_roll": money(lpr),
        "loss_per_roll_ci95": [money(lpr - Z95 * lpr_se), money(lpr + Z95 * lpr_se)]
        if not math.isnan(lpr_se) else None,
        "loss_per_hour": money(lpr * rolls_per_hour),
        "total_wagered": exact_total(res.wagered[:, p]),
        "loss_per_unit_wagered": lpu,
        "loss_per_unit_wagered_ci95": [lpu - Z95 * lpu_se, lpu + Z95 * lpu_se]
        if not math.isnan(lpu_se) else None,
        "sessions_ended": counts,
    }


def table_text(summary: dict[str, Any]) -> str:
    """The summary as a terminal table (roulette counts spins, craps rolls: the game
    registry's word for its decisions)."""
    roll = game(summary.get("game", "craps")).decisions.removesuffix("s")
    lines = [f"{summary['strategy']} under {summary['rules']}: {summary['sessions']} sessions "
             f"of up to {summary['rolls_per_session']} {roll}s, bankroll {summary['bankroll']}, "
             f"seed {summary['seed']}; {summary['rolls']} {roll}s played"]
    players = summary.get("players") or [summary]
    for pl in players:
        name = pl.get("strategy", summary["strategy"])
        ci = pl.get("mean_final_bankroll_ci95") or ["-", "-"]
        lpu_ci = pl.get("loss_per_unit_wagered_ci95")
        rows = [
            ("strategy", name),
            ("mean final bankroll", f"{pl['mean_final_bankroll']}  (95% CI {ci[0]} .. {ci[1]})"),
            ("median final bankroll", pl["median_final_bankroll"]),
            ("quantiles 5/25/50/75/95%", " / ".join(pl["final_bankroll_quantiles"].values())),
            ("risk of ruin", f"{pl['risk_of_ruin']:.4f}  (95% CI "
             f"{pl['risk_of_ruin_ci95'][0]:.4f} .. {pl['risk_of_ruin_ci95'][1]:.4f})"),
            (f"loss per {roll}", pl["loss_per_roll"]),
            ("loss per hour", f"{pl['loss_per_hour']}  ({summary['rolls_per_hour']:g} {roll}s/h)"),
            ("total wagered", pl["total_wagered"]),
            ("loss per unit wagered", f"{pl['loss_per_unit_wagered']:.5f}" + (
                f"  (95% CI {lpu_ci[0]:.5f} .. {lpu_ci[1]:.5f})" if lpu_ci else "")),
            ("sessions ended", ", ".join(f"{k}: {v}" for k, v in pl["sessions_ended"].items())),
        ]
        width = max(len(r[0]) for r in rows)
        lines.append("")
        lines.extend(f"  {k.ljust(width)}  {v}" for k, v in rows)
    return "\n".join(lines)


def write_csv(path: str, compiled: Compiled, res: Results) -> None:
    """Write one row per session and player (money in dollars) to ``path``."""
    with open(path, "w", newline="", encoding="utf-8") as handle:
        w = csv.writer(handle)
        w.writerow(["session", "player", "strategy", "final_bankroll", "chips_in_hand",
                    "wagered", "rolls", "ended", "ended_at_roll"])
        for i in range(res.final.shape[0]):
            for p in range(compiled.players):
                w.writerow([i, p, compiled.strategies[p].name, money(int(res.final[i, p])),
                            money(int(res.bank[i, p])), money(int(res.wagered[i, p])),
                            int(res.rolls[i]), STATUS_NAMES[int(res.status[i, p])],
                            int(res.endroll[i, p]) if res.endroll[i, p] >= 0 else ""])


def write_plots(directory: str, compiled: Compiled, res: Results, rolls: int, bankroll: int,
                fmt: str = "png") -> list[str]:
    """Write the charts into ``directory``; the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written: list[str] = []
    for p, strat in enumerate(compiled.strategies):
        tag = f"{p}-{strat.name}" if compiled.players > 1 else strat.name
        fig, ax = plt.subplots(figsize=(8, 4.5))
        x = np.arange(res.hist.shape[2]) * res.stride
        for i in range(res.hist.shape[0]):
            ax.plot(x, res.hist[i, p] / 100, lw=0.8)
        ax.set(title=f"{strat.name}: bankroll paths (chips in hand)", xlabel=_unit(compiled),
               ylabel="dollars")
        written.append(_save(fig, out / f"{tag}-paths.{fmt}"))
        fig, ax = plt.subplots(figsize=(8, 4.5))
        ax.hist(res.final[:, p] / 100, bins=60)
        ax.axvline(bankroll / 100, color="k", lw=1)
        ax.set(title=f"{strat.name}: final bankroll", xlabel="dollars", ylabel="sessions")
        written.append(_save(fig, out / f"{tag}-final.{fmt}"))
        fig, ax = plt.subplots(figsize=(8, 4.5))
        grid, alive = survival(res, p, rolls)
        ax.plot(grid, alive)
        ax.set(title=f"{strat.name}: survival (not ruined)", xlabel=_unit(compiled),
               ylabel="fraction of sessions", ylim=(0, 1.02))
        written.append(_save(fig, out / f"{tag}-survival.{fmt}"))
    return written


def _unit(compiled: Compiled) -> str:
    return game(compiled.game).decisions.removesuffix("s")


def survival(res: Results, p: int, rolls: int, points: int = 200,
             ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The fraction of sessions in which player ``p`` is not yet ruined, along the session."""
    ruined_at = np.where(res.status[:, p] == 1, res.endroll[:, p], rolls + 1)
    grid = np.linspace(0, rolls, points)
    return grid, np.array([(ruined_at > g).mean() for g in grid], dtype=np.float64)


def write_comparison(path: str, compiled: Compiled, res: Results, rolls: int,
                     bankroll: int) -> str:
    """One chart comparing the strategies at the table (they share the dice): survival along
    the session, and each one's final bankroll (box 25-75%, whiskers 5-95%, mean marked).
    SVG or PNG by the file's extension; the file written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    target = Path(path)
    if target.suffix.lower() not in (".svg", ".png"):
        raise ValueError(f"--chart {path}: name an .svg or a .png file")
    target.parent.mkdir(parents=True, exist_ok=True)
    names = [f"{p}: {s.name}" if compiled.players > 1 else s.name
             for p, s in enumerate(compiled.strategies)]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.8))
    for p, name in enumerate(names):
        grid, alive = survival(res, p, rolls)
        left.plot(grid, alive, label=name)
    left.set(title="survival (not ruined)", xlabel=_unit(compiled),
             ylabel="fraction of sessions", ylim=(0, 1.02))
    left.legend(fontsize="small")
    finals = [res.final[:, p] / 100 for p in range(compiled.players)]
    right.boxplot(finals, whis=(5, 95), showmeans=True, showfliers=False)
    right.set_xticks(range(1, len(names) + 1), names, rotation=15, fontsize="small")
    right.axhline(bankroll / 100, color="k", lw=1, ls="--")
    right.set(title=f"final bankroll (start {bankroll / 100:g}; whiskers 5-95%)",
              ylabel="dollars")
    fig.suptitle(f"{' vs '.join(s.name for s in compiled.strategies)} under {compiled.profile}: "
                 f"{res.final.shape[0]} sessions of up to {rolls} {_unit(compiled)}s, same "
                 f"{'dice' if game(compiled.game).uses_dice else 'wheel'}")
    return _save(fig, target)


def _save(fig: Any, path: Path) -> str:
    fig.tight_layout()
    fig.savefig(path)
    import matplotlib.pyplot as plt

    plt.close(fig)
    return str(path)
