"""The table options that only let a player make a call ("down on the win", "off" during a
point) are refused by name by the simulator and ``croupier session``: no strategy rule makes
a call, so playing them would silently play something else."""

from __future__ import annotations

import pytest

from croupier.errors import Malformed
from croupier.sim.compile import compile_table
from croupier.sim.strategy import Strategy


def place_six(table: str) -> Strategy:
    return Strategy.from_toml(f'''
name = "place-six"
[table]
{table}
[[bets]]
wager = "place_win"
number = 6
amount = "12"
''')


@pytest.mark.parametrize("option", ["down_on_win", "off_during_point"])
def test_a_call_option_set_true_is_refused_by_name(option: str) -> None:
    with pytest.raises(Malformed) as refused:
        compile_table([place_six(f"{option} = true")], "nj-13-69f")
    assert refused.value.where == f"place-six.table.{option}"
    assert "no strategy rule makes that call" in refused.value.message


@pytest.mark.parametrize("option", ["down_on_win", "off_during_point"])
def test_a_call_option_left_false_is_the_contracts_table(option: str) -> None:
    compiled = compile_table([place_six(f"{option} = false")], "nj-13-69f")
    assert compiled.craps_config is not None
    assert getattr(compiled.craps_config, option) is False
