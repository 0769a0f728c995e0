"""Keyboard-only roulette at a desktop's width: Tab enters the layout and leaves it as one stop,
and the arrow keys move across it, from a number to the split beside it, the corner and the next
number, so a split or a corner is a key or two away (it was 84 Tabs from 17 to split 17-20).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from .conftest import Server

TABLE = "roulette-1"


def _focused(page: Any) -> str | None:
    """The spot the keyboard is on (None: focus is not on a spot of the layout)."""
    value = page.evaluate("document.activeElement && document.activeElement.closest('#layout')"
                          " ? document.activeElement.getAttribute('data-spot') : null")
    return None if value is None else str(value)


def _press(page: Any, key: str) -> str | None:
    page.keyboard.press(key)
    return _focused(page)


@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)4")
def test_arrow_keys_reach_a_split_and_a_corner(server: Server, login: Any) -> None:
    server.post("alice", f"/tables/{TABLE}/buy-in", {"amount": "100"})
    alice = login("alice", TABLE)
    assert "arrow keys" in str(alice.text_content("#help")).lower()
    # Tab from the table's button in the header to the layout: a few stops, not one per spot.
    alice.focus(f"#tables button[data-table='{TABLE}']")
    tabs = 0
    while _focused(alice) is None:
        alice.keyboard.press("Tab")
        tabs += 1
        assert tabs <= 5, "the layout is not among the first stops after the header"
    # The layout's first spot: the zero, beside the row of 1, 4, 7 ... (the double-zero
    # layout's 0 and 00 share the end of the three rows).
    assert _focused(alice) == "straight:0"
    # Along that row: each number two keys on, the split line between them on the way.
    row = [1, 4, 7, 10, 13, 16]
    path = [_press(alice, "ArrowRight") for _ in range(2 * len(row))]
    assert path == [key for a, b in zip([0, *row[:-1]], row, strict=True)
                    for key in (f"split:{a}-{b}", f"straight:{b}")]
    # Across to 17 (the line between them first), then the split 17-20 is one key away.
    assert _press(alice, "ArrowUp") == "split:16-17"
    assert _press(alice, "ArrowUp") == "straight:17"
    assert _press(alice, "ArrowRight") == "split:17-20"
    assert _press(alice, "ArrowLeft") == "straight:17"
    assert _press(alice, "ArrowRight") == "split:17-20"
    # 18 lies beyond 17 across the rows: the corner of 17, 18, 20 and 21 is one key from the line.
    corner = _press(alice, "ArrowUp")
    assert corner == "four_numbers:17-18-20-21"
    alice.keyboard.press("Enter")
    alice.wait_for_selector("#bankroll-chips:text-is('95.00')")
    layout = server.get("alice", f"/tables/{TABLE}")["layout"]
    assert [(w["wager"], w["stake"]) for w in layout] == [("four_numbers:17-18-20-21", "5.00")]
    # The layout is one Tab stop: Tab leaves it, Shift+Tab comes back to the spot last on.
    alice.keyboard.press("Tab")
    assert _focused(alice) is None
    alice.keyboard.press("Shift+Tab")
    assert _focused(alice) == "four_numbers:17-18-20-21"
    assert Decimal(str(alice.inner_text("#bankroll-chips")).strip()) == Decimal("95.00")
