"""Text contrast of at least 4.5:1 (WCAG 2 AA), checked by axe-core (the axe-playwright-python
package) on every role's page over a real server, at desktop and phone size."""

from __future__ import annotations

from typing import Any

import pytest

axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

CONTRAST = {"runOnly": {"type": "rule", "values": ["color-contrast"]}}
PAGES = [("alice", "craps-1", 1366, 768), ("alice", "roulette-1", 390, 844),
         ("dealer", "craps-1", 1366, 768), ("dealer", "roulette-1", 1366, 768),
         ("supervisor", "craps-1", 1366, 768), ("admin", "craps-1", 1366, 768)]


@pytest.mark.parametrize(("user", "table", "width", "height"), PAGES)
def test_text_contrast_is_at_least_4_5_to_1(login: Any, user: str, table: str, width: int,
                                           height: int) -> None:
    page = login(user, table, width=width, height=height)
    page.wait_for_timeout(300)  # the consoles' lists load after the page
    found = axe_sync.Axe().run(page, options=CONTRAST).response["violations"]
    where = [(n["target"], n["any"][0]["message"] if n["any"] else "")
             for v in found for n in v["nodes"]]
    assert not where, where
