"""The runnable examples in the roulette modules' docstrings are part of the tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["wheel", "layout", "wagers", "events", "table", "reading"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"croupier.roulette.{name}")
    failures, tried = doctest.testmod(module)
    assert tried > 0
    assert failures == 0
