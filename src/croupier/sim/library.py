"""The built-in strategies: the strategy files shipped in ``croupier/sim/strategies/``.

Each built-in is an ordinary strategy file (``NAME.toml``, the format of
:mod:`croupier.sim.strategy`), shipped as package data, so a reader can copy one as a start.
Craps strategies follow well-known systems (several as crapssim names them); where New Jersey's
table differs (no Big 6/8, stakes that must be payable in the table unit, place bets off on the
come-out) the description says what was changed.

This module also turns a command line's STRATEGY (a built-in name or a file path) into a
:class:`~croupier.sim.strategy.Strategy`.

>>> sorted(BUILT_IN)[:3]
['buy-sampler', 'dalembert-red', 'dice-doctor']
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources

from croupier.errors import Malformed
from croupier.games import FAMILIES
from croupier.reading import unknown_name
from croupier.sim.strategy import Strategy


def _read_built_ins() -> dict[str, str]:
    """The text of every shipped strategy file by strategy name, craps first, then by name."""
    texts: dict[str, tuple[str, str]] = {}
    folder = resources.files("croupier.sim") / "strategies"
    for entry in folder.iterdir():
        if not entry.name.endswith(".toml"):
            continue
        text = entry.read_text(encoding="utf-8")
        strategy = Strategy.from_toml(text, f"strategies/{entry.name}")
        if f"{strategy.name}.toml" != entry.name:
            raise Malformed(f"strategies/{entry.name}", "a built-in's file is named after it")
        texts[strategy.name] = (strategy.game, text)
    families = list(FAMILIES)
    order = sorted(texts, key=lambda name: (families.index(texts[name][0]), name))
    return {name: texts[name][1] for name in order}


BUILT_IN_TOML: dict[str, str] = _read_built_ins()
"""The file text of every built-in strategy (a starting point for your own)."""

BUILT_IN: dict[str, Strategy] = {name: Strategy.from_toml(text, name)
                                 for name, text in BUILT_IN_TOML.items()}
"""Every built-in strategy by name."""


def load_strategy(name_or_path: str) -> Strategy:
    """A built-in strategy by name, or a strategy file by path."""
    if name_or_path in BUILT_IN:
        return BUILT_IN[name_or_path]
    try:
        with open(name_or_path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise unknown_name(name_or_path, BUILT_IN, "strategy", "STRATEGY",
                           f"no built-in of that name, and no such file ({exc.strerror}); "
                           "croupier simulate --list shows the built-ins") from None
    return Strategy.from_toml(text, name_or_path)


def strategies_for(names_or_paths: Sequence[str]) -> list[Strategy]:
    """The strategies named by ``names_or_paths`` (built-in names or file paths), in order."""
    return [load_strategy(s) for s in names_or_paths]
