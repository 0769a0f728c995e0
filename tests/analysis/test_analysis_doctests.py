"""The analysis modules' docstring examples are run as tests."""

from __future__ import annotations

import doctest
from types import ModuleType

import pytest

from croupier.analysis import commands, compliance, exact, trace


@pytest.mark.parametrize("module", [exact, compliance, trace, commands],
                         ids=lambda m: m.__name__)
def test_doctests(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
