"""Fairness alerts as records in Chromium over a real server: a die that shows only six-six
raises an alert that the supervisor, the dealer and the organiser all see, still there after a
reload; the dealer who entered the sixes may not acknowledge it (it is about their entries),
the supervisor does, once, with a reason (a record in the table's chain), and it is listed in
the end-of-night report with it."""

from __future__ import annotations

from typing import Any

from .conftest import Server

CRAPS = "craps-1"


def _sixes_until_alert(server: Server) -> dict[str, Any]:
    """The dealer enters six-six until the live monitor alarms (it must within 15 rolls)."""
    serials = [f"NJ-{i:04d}" for i in range(1, 6)]
    server.post("bob", f"/tables/{CRAPS}/buy-in", {"amount": "50"})  # a shooter at the table
    table = server.get("dealer", f"/tables/{CRAPS}")
    if not table["dice_in_play"]:
        server.post("dealer", f"/tables/{CRAPS}/dice/offer", {"serials": serials})
        server.post("dealer", f"/tables/{CRAPS}/dice/select", {"serials": serials[:2]})
    for _ in range(15):
        server.post("dealer", f"/tables/{CRAPS}/roll", {"dice": [6, 6]})
        found = server.get("dealer", f"/tables/{CRAPS}/alert-records")["alerts"]
        if found:
            return dict(found[0])
    raise AssertionError("no alert after 15 double sixes")


def test_an_alert_is_seen_by_three_roles_kept_acknowledged_and_reported(
        server: Server, login: Any) -> None:
    alert = _sixes_until_alert(server)
    row = f"[data-alert='{CRAPS}-{alert['seq']}']"
    pages = {who: login(who, CRAPS) for who in ("supervisor", "dealer", "admin")}
    for page in pages.values():
        page.wait_for_selector(f"{row}.alert-open")
        page.reload()  # the record stays: it is read from the ledger, not the live banner
        page.wait_for_selector(f"{row}.alert-open")
    # The dealer entered the sixes: the alert is about their entries, not theirs to answer.
    dealer = pages["dealer"]
    dealer.fill(f"{row} .ack-reason", "nothing wrong with my dice")
    dealer.click(f"{row} .ack-btn")
    dealer.wait_for_selector(f"{row} .console-msg.error >> text=about acts of dealer")
    supervisor = pages["supervisor"]
    supervisor.fill(f"{row} .ack-reason", "dice changed and set aside for inspection")
    supervisor.dblclick(f"{row} .ack-btn")
    supervisor.wait_for_selector(f"{row}.alert-done >> text=Acknowledged by supervisor")
    # Acknowledged once (a second click is the same intent), recorded in the table's chain.
    events = server.get("auditor", f"/tables/{CRAPS}/events")
    acks = [e for e in events if e.get("type") == "procedure" and e.get("name") == "alert_acknowledged"]
    assert len(acks) == 1 and acks[0]["by"] == "supervisor"
    assert acks[0]["detail"] == f"{alert['seq']}: dice changed and set aside for inspection"
    dealer.reload()
    dealer.wait_for_selector(f"{row}.alert-done >> text=set aside for inspection")
    admin = pages["admin"]
    admin.click("#report-show-btn")
    admin.wait_for_selector("#report-view #report-alerts")
    listed = admin.inner_text("#report-view #report-alerts")
    assert f"#{alert['seq']}" in listed and "acknowledged by supervisor" in listed
