"""``croupier replay --summary``: a replay's result for a person, in a few lines.

The JSON result names every event; this keeps what a reader checks first: each decision (roll
or spin) with what it settled, per player and wager (the parts of a horn or five-adjacent bet
summed under the bet), every refused action with its reason and clause, and each player's
bankroll and chips on the table at the end.

>>> doc = {"game": "craps", "rules": "nj-13-69f", "players": {"al": 10},
...        "actions": [{"player": "al", "bet": "field", "amount": 5}, {"roll": [1, 1]}]}
>>> from croupier.transcript import replay_text
>>> import json
>>> print(summarize(doc, replay_text(json.dumps(doc))))
craps under nj-13-69f: 2 actions, 1 decision, 0 rejected
decisions:
  [1] roll 1-1 (2), come-out: al field won 10.00
players:
  al      bankroll 20.00  on the table 0.00
"""

from __future__ import annotations

from typing import Any


def _action_text(action: Any) -> str:
    """One action as a person would say it: ``bob bet place_win 8 12``."""
    if not isinstance(action, dict):
        return str(action)
    if "roll" in action:
        return f"roll {action['roll']}"
    if "spin" in action:
        return f"spin {action['spin']}"
    if "shooter" in action:
        return f"dice to {action['shooter']}"
    verb = next((v for v in ("bet", "remove", "reduce", "on", "off", "sit", "stand")
                 if v in action), "?")
    parts = [str(action.get("player", "?")), verb]
    if verb not in ("sit", "stand"):
        parts.append(str(action[verb]))
    for field in ("number", "dice", "numbers", "center", "column", "dozen", "amount"):
        if field in action:
            parts.append(str(action[field]))
    return " ".join(parts)


def _decision_text(event: dict[str, Any]) -> str:
    if event["type"] == "roll":
        d1, d2 = event["dice"]
        text = f"roll {d1}-{d2} ({event['total']})"
        before, after = event.get("point_before"), event.get("point_after")
        if event.get("come_out"):
            return text + (f", come-out, point {after} set" if after else ", come-out")
        if after is None and before is not None:
            return text + (f", point {before} made" if event["total"] == before else ", seven out")
        return text
    if event["type"] == "no_spin":
        return f"no spin: {event['reason']} ({event['clause']})"
    return f"spin {event['number']} ({event['colour']})"


def _settlements(events: list[dict[str, Any]]) -> str:
    """What a decision settled, summed per player and wager (a split bet under its name)."""
    totals: dict[tuple[str, str], tuple[str, str, str]] = {}
    for e in events:
        key = (e["player"], e.get("part_of") or e["wager"])
        paid, taken, commission = totals.get(key, ("0", "0", "0"))
        totals[key] = (_add(paid, e["paid"]), _add(taken, e["taken"]),
                       _add(commission, e.get("commission", "0")))
    out = []
    for (player, wager), (paid, taken, commission) in totals.items():
        if _is_zero(taken) and _is_zero(paid):
            text = f"{player} {wager} push"
        elif _is_zero(taken):
            text = f"{player} {wager} won {paid}"
        elif _is_zero(paid):
            text = f"{player} {wager} lost {taken}"
        else:
            text = f"{player} {wager} won {paid}, lost {taken}"
        out.append(text if _is_zero(commission) else f"{text} (commission {commission})")
    return "; ".join(out)


def _add(a: Any, b: Any) -> str:
    from decimal import Decimal

    return f"{Decimal(str(a)) + Decimal(str(b)):.2f}"


def _is_zero(amount: Any) -> bool:
    from decimal import Decimal

    return Decimal(str(amount)) == 0


def summarize(transcript: dict[str, Any], result: dict[str, Any]) -> str:
    """The summary of ``result``, the replay of ``transcript``."""
    actions = transcript.get("actions", [])
    events = result.get("events", [])
    # A roulette decision is the marking of the winning number ("crown", 13:47-20.32(j)3).
    decisions = [e for e in events if e.get("type") in ("roll", "crown", "no_spin")]
    lines = [f"{transcript.get('game')} under {transcript.get('rules')}: {len(actions)} "
             f"action{'s' * (len(actions) != 1)}, {len(decisions)} "
             f"decision{'s' * (len(decisions) != 1)}, {len(result['rejected'])} rejected"]
    if decisions:
        lines.append("decisions:")
    for d in decisions:
        settled = [e for e in events if e.get("type") == "settle" and e.get("action") == d["action"]]
        text = _decision_text(d)
        if settled:
            text += ": " + _settlements(settled)
        lines.append(f"  [{d['action']}] {text}")
    if result["rejected"]:
        lines.append("rejected:")
    for r in result["rejected"]:
        index = r["index"]
        action = actions[index] if 0 <= index < len(actions) else None
        lines.append(f"  [{index}] {_action_text(action)}: {r['reason']}"
                     + (f" ({r['clause']})" if r["clause"] and r["clause"] not in r["reason"] else ""))
    lines.append("players:")
    for name, p in result["players"].items():
        lines.append(f"  {name:<7} bankroll {p['bankroll']}  on the table {p['on_table']}")
    return "\n".join(lines)
