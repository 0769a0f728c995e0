"""``croupier replay`` for craps and mini-craps: reading actions, playing them, the result."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from croupier.craps.config import CrapsConfig
from croupier.craps.table import CrapsTable
from croupier.craps.wagers import WAGERS, Qualifier, WagerDef
from croupier.dice import HOPS, POINTS
from croupier.errors import Malformed, Refusal
from croupier.events import Event
from croupier.money import fmt, parse_amount, show_json
from croupier.rules import Profile
from croupier.transcript_common import (
    action_verb,
    actions_of,
    check_keys,
    read_player,
    refusal_json,
)

VERBS = ("bet", "remove", "reduce", "on", "off", "roll", "shooter", "sit", "stand")
_QUALIFIERS = {"number", "dice"}
FIELDS: dict[str, set[str]] = {
    "bet": {"player", "bet", "amount"} | _QUALIFIERS,
    "remove": {"player", "remove"} | _QUALIFIERS,
    "reduce": {"player", "reduce", "amount"} | _QUALIFIERS,
    "on": {"player", "on"} | _QUALIFIERS,
    "off": {"player", "off"} | _QUALIFIERS,
    "roll": {"roll"},
    "shooter": {"shooter"},
    "sit": {"player", "sit"},
    "stand": {"player", "stand"},
}


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_qualifier(d: WagerDef, action: dict[str, Any], where: str) -> Qualifier:
    """The qualifier an action gives for wager ``d``, checked against its domain."""
    if d.qualifier == "number":
        if "number" not in action:
            raise Malformed(f"{where}.number", f"{d.id} needs a number ({_domain(d)})")
        number = action["number"]
        if not _int(number) or number not in d.domain:
            raise Malformed(f"{where}.number",
                            f"not a number {d.id} can be made on: {show_json(number)}; "
                            f"expected one of {_domain(d)}")
        if "dice" in action:
            raise Malformed(f"{where}.dice", f"{d.id} takes no dice")
        return int(number)
    if d.qualifier == "dice":
        dice = action.get("dice")
        if dice is None:
            raise Malformed(f"{where}.dice", "a hop bet needs the two dice, as [1, 3]")
        if (not isinstance(dice, list) or len(dice) != 2
                or not all(_int(x) and 1 <= x <= 6 for x in dice)):
            raise Malformed(f"{where}.dice", f"not two dice: {show_json(dice)}")
        pair = (min(dice), max(dice))
        if pair not in HOPS:
            raise Malformed(f"{where}.dice",
                            f"{pair[0]}-{pair[1]} is not one of the 17 hop wagers")
        if "number" in action:
            raise Malformed(f"{where}.number", "a hop bet takes dice, not a number")
        return pair
    if "dice" in action:
        raise Malformed(f"{where}.dice", f"{d.id} takes no dice")
    if "number" in action:
        number = action["number"]
        if d.travels:
            if not _int(number) or number not in POINTS:
                raise Malformed(f"{where}.number",
                                f"not a come point: {show_json(number)}; expected one of "
                                "4, 5, 6, 8, 9, 10")
            return int(number)
        raise Malformed(f"{where}.number", f"{d.id} takes no number")
    return None


def _domain(d: WagerDef) -> str:
    return ", ".join(str(x) for x in d.domain)


def _wager_def(value: Any, where: str) -> WagerDef:
    if not isinstance(value, str) or value not in WAGERS:
        raise Malformed(where, f"unknown craps wager {show_json(value)}")
    return WAGERS[value]


def _die(value: Any, where: str) -> int:
    if not _int(value) or not 1 <= value <= 6:
        raise Malformed(where, f"not a die (1 to 6): {show_json(value)}")
    return int(value)


def play_action(table: CrapsTable, action: Any, where: str, players: dict[str, Decimal],
                ) -> list[Event]:
    """Check one action's form (raising Malformed), then play it (raising Refusal)."""
    verb = action_verb(action, VERBS, where)
    check_keys(action, FIELDS[verb], where, verb)
    if verb == "roll":
        dice = action["roll"]
        if not isinstance(dice, list) or len(dice) != 2:
            raise Malformed(f"{where}.roll", f"a roll is two dice, as [3, 4]: {show_json(dice)}")
        d1, d2 = (_die(v, f"{where}.roll[{i}]") for i, v in enumerate(dice))
        return table.roll(d1, d2)
    if verb == "shooter":
        return table.pass_dice(read_player(action["shooter"], players, f"{where}.shooter"))
    player = read_player(action.get("player"), players, f"{where}.player")
    if verb in ("sit", "stand"):
        if action[verb] is not True:
            raise Malformed(f"{where}.{verb}", f"must be true: {show_json(action[verb])}")
        return table.seat(player, verb == "sit")
    d = _wager_def(action[verb], f"{where}.{verb}")
    qualifier = read_qualifier(d, action, where)
    if verb == "bet":
        if "amount" not in action:
            raise Malformed(f"{where}.amount", "a bet needs an amount")
        amount = parse_amount(action["amount"], f"{where}.amount")
        return table.bet(player, d.id, qualifier, amount)
    if verb == "reduce":
        if "amount" not in action:
            raise Malformed(f"{where}.amount", "a reduction needs an amount")
        amount = parse_amount(action["amount"], f"{where}.amount")
        return table.take_down(player, d.id, qualifier, amount)
    if verb == "remove":
        return table.take_down(player, d.id, qualifier, None)
    return table.call(player, d.id, qualifier, verb == "on")


def replay_craps(doc: dict[str, Any], profile: Profile, *, mini: bool) -> dict[str, Any]:
    from croupier.transcript import read_players

    players = read_players(doc)
    try:
        config = CrapsConfig.from_options(profile, doc.get("options", {}), mini=mini)
    except Malformed as exc:
        raise exc if exc.where.startswith("options") else exc.under("options") from None
    table = CrapsTable(config, players)
    events_out: list[dict[str, Any]] = [
        {"action": None, **e.to_json()} for e in table.events
    ]
    rejected: list[dict[str, Any]] = []
    for index, action in enumerate(actions_of(doc)):
        where = f"actions[{index}]"
        try:
            events = play_action(table, action, where, players)
        except Refusal as refusal:
            rejected.append(refusal_json(index, refusal))
            continue
        events_out.extend({"action": index, **e.to_json()} for e in events)
    return {
        "players": {
            name: {"bankroll": fmt(ps.bankroll), "on_table": fmt(table.on_table(name))}
            for name, ps in table.players.items()
        },
        "rejected": rejected,
        "state": {"point": table.point, "shooter": table.shooter},
        "events": events_out,
    }
