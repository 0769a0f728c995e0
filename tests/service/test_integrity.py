"""The fairness monitors at the live table: loaded dice alert the supervisors in the
ledger, on the stream and at GET /tables/{id}/alerts, and call for a change of dice; the
monitors are rebuilt from the ledger on a restart; ``croupier integrity --ledger`` reads it."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from typing import Any

from croupier.service.api.record_replies import TableAlerts

from .conftest import Server
from .test_replies import read_back

LOADED = [6, 6]  # a gross bias: both dice always show six


def _watch(s: Server, table: str, who: str, got: list[dict[str, Any]],
           ready: threading.Event, stop: threading.Event) -> None:
    with s.stream(table, who) as ws:
        ready.set()
        while not stop.is_set():
            try:
                got.append(json.loads(ws.recv(timeout=0.2)))
            except TimeoutError:
                continue


def test_loaded_dice_alert_and_change(server: Server) -> None:
    s = server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    # Players do not read the monitors; staff do.
    assert s.get("alice", "/tables/craps-1/alerts").status_code == 403
    assert s.get("dealer", "/tables/craps-1/alerts").status_code == 403
    quiet = s.get("supervisor", "/tables/craps-1/alerts").json()
    assert quiet["alerts"] == [] and quiet["monitors"] == []
    streamed: list[dict[str, Any]] = []
    ready, stop = threading.Event(), threading.Event()
    watcher = threading.Thread(target=_watch, args=(s, "craps-1", "supervisor", streamed, ready,
                                                    stop))
    watcher.start()
    assert ready.wait(10)
    try:
        alerted: dict[str, Any] | None = None
        for n in range(1, 201):
            done = s.ok("dealer", "/tables/craps-1/roll", {"dice": LOADED})
            kinds = [e["type"] for e in done["events"]]
            if "integrity_alert" in kinds:
                alerted = done
                break
            if n == 5:  # partway: the monitor is watching the dice in play
                mid = s.get("auditor", "/tables/craps-1/alerts").json()
                assert mid["alerts"] == []
                assert [(m["id"], m["n"], m["in_play"]) for m in mid["monitors"]] == [
                    ("NJ-0001+NJ-0002", 5, True)]
        assert alerted is not None, "a pair of dice showing 6-6 every roll never alerted"
        # The alert and the call for a change of dice are in the roll's own transaction.
        kinds = [e["type"] for e in alerted["events"]]
        assert kinds[:2] == ["entered", "roll"]
        assert kinds[-1] == "dice_change_called" and kinds.count("integrity_alert") >= 1
        alert = next(e for e in alerted["events"] if e["type"] == "integrity_alert")
        assert alert["equipment"] == "dice" and alert["set_id"] == "NJ-0001+NJ-0002"
        # The monitor for a gross bias of the pair 6-6, within 15 rolls (docs/integrity.md).
        assert alert["monitor"] == "pair 6-6" and alert["observation"] == n <= 15
        assert float(alert["statistic"]) >= float(alert["threshold"])
        state = s.get("auditor", "/tables/craps-1").json()
        assert state["dice_change_called"] is True
        # The change takes place after the next decision (12 on the come-out decides).
        changed = s.ok("dealer", "/tables/craps-1/roll", {"dice": LOADED})
        assert [e["type"] for e in changed["events"]][-1] == "dice_changed"
        assert s.get("auditor", "/tables/craps-1").json()["dice_in_play"] == []
        # Supervisors see it at /alerts ...
        seen = s.get("supervisor", "/tables/craps-1/alerts").json()
        assert [a["seq"] for a in seen["alerts"]] == [
            e["seq"] for e in alerted["events"] if e["type"] == "integrity_alert"]
        assert seen["alerts"][0]["voided"] is False
        (monitor,) = seen["monitors"]
        assert monitor["alarmed"] and monitor["n"] == n + 1 and not monitor["in_play"]
        # ... in the recall of the round, with the monitor as the actor ...
        rec = s.get("auditor", f"/tables/craps-1/rounds/{alerted['round']}").json()
        by = {e["type"]: e["actor"] for e in rec["events"]}
        assert by["integrity_alert"] == by["dice_change_called"] == "integrity-monitor"
    finally:
        stop.set()
        watcher.join(10)
    # ... and on the table's stream.
    streamed_alerts = [e for e in streamed if e["type"] == "integrity_alert"]
    assert streamed_alerts == [e for e in alerted["events"] if e["type"] == "integrity_alert"]
    assert any(e["type"] == "dice_change_called" for e in streamed)
    # New dice get a fresh monitor.
    s.ok("dealer", "/tables/craps-1/dice/offer", {"serials": [f"NJ-{i:04d}" for i in range(3, 8)]})
    s.ok("dealer", "/tables/craps-1/dice/select", {"serials": ["NJ-0004", "NJ-0003"]})
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [2, 5]})
    before = s.get("supervisor", "/tables/craps-1/alerts").json()
    assert [(m["id"], m["n"], m["in_play"]) for m in before["monitors"]] == [
        ("NJ-0001+NJ-0002", n + 1, False), ("NJ-0003+NJ-0004", 1, True)]
    # A restart rebuilds the monitors from the ledger: the same state, the same alerts.
    s.stop()
    s.start()
    after = s.get("supervisor", "/tables/craps-1/alerts").json()
    assert after == before
    assert s.get("auditor", "/audit/verify").json()["ok"]


def test_void_takes_the_roll_out_of_the_monitor(sqlite_server: Server) -> None:
    s = sqlite_server
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [1, 2]})
    s.ok("dealer", "/tables/craps-1/roll", {"dice": [3, 4]})
    s.ok("supervisor", "/tables/craps-1/void", {"reason": "a die left the table"})
    (monitor,) = s.get("supervisor", "/tables/craps-1/alerts").json()["monitors"]
    assert monitor["n"] == 1


def test_wheel_alert_and_integrity_ledger_command(sqlite_server: Server) -> None:
    s = sqlite_server
    n = 0
    while n < 100:
        n += 1
        s.ok("dealer", "/tables/roulette-1/no-more-bets")
        done = s.ok("dealer", "/tables/roulette-1/spin", {"number": 17})
        if any(e["type"] == "integrity_alert" for e in done["events"]):
            break
    else:
        raise AssertionError("a wheel stopping at 17 every spin never alerted")
    alerts = s.get("admin", "/tables/roulette-1/alerts").json()
    read_back(TableAlerts, alerts)  # the alert as /docs documents it
    assert alerts["monitors"][0]["alarms"]
    assert [(a["equipment"], a["set_id"], a["monitor"]) for a in alerts["alerts"]][:1] == [
        ("wheel", "roulette-1", "pocket 17 (gross)")]
    assert n <= 10
    assert alerts["monitors"][0]["n"] == n and alerts["monitors"][0]["wheel"]
    # At craps the dice too; then the command line reads both from the ledger.
    s.ok("alice", "/tables/craps-1/buy-in", {"amount": "100"})
    s.ready_dice()
    for _ in range(3):
        s.ok("dealer", "/tables/craps-1/roll", {"dice": [2, 3]})
    out = subprocess.run([sys.executable, "-m", "croupier", "integrity", "--ledger",
                          "--data-dir", str(s.data_dir), "--json"],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 3, out.stderr  # the wheel's alert (3 dice rolls alone would be 4)
    sets = {r["id"]: r for r in json.loads(out.stdout)["sets"]}
    assert sets["NJ-0001+NJ-0002"]["n"] == 3 and sets["NJ-0001+NJ-0002"]["kind"] == "dice"
    assert sets["roulette-1"]["n"] == n and sets["roulette-1"]["sequential"]["alarm"]
    missing = subprocess.run([sys.executable, "-m", "croupier", "integrity", "--ledger",
                              "--data-dir", str(s.data_dir / "nowhere")],
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "no ledger" in missing.stderr
