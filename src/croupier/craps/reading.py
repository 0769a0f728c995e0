"""Reading craps actions (a transcript's or a request's) into :mod:`croupier.craps.actions`.

Everything wrong with the input itself is :class:`Malformed` and names the place; whether the
rules allow the action is the table's to say.

>>> read_action({"player": "ann", "bet": "hop", "dice": [3, 1], "amount": 5}, "a", {"ann"})
Bet(player='ann', wager='hop', qualifier=(1, 3), amount=Decimal('5'), covered=Decimal('0'))
>>> read_action({"player": "ann", "bet": "hop", "dice": [1, 3], "number": 4, "amount": 5}, "a",
...             {"ann"})
Traceback (most recent call last):
...
croupier.errors.Malformed: a.number: a hop bet takes dice, not a number
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from croupier.craps.actions import (
    Bet,
    Call,
    CrapsAction,
    DownOnWin,
    OffDuringPoint,
    PassDice,
    Roll,
    Sit,
    TakeDown,
)
from croupier.craps.wagers import WAGERS, Qualifier, WagerDef
from croupier.dice import HOPS, POINTS
from croupier.errors import Malformed
from croupier.money import parse_amount, show_json
from croupier.reading import action_verb, check_keys, did_you_mean, read_player

VERBS = ("bet", "remove", "reduce", "on", "off", "down_on_win", "off_during_point", "roll",
         "shooter", "sit", "stand")
_QUALIFIERS = {"number", "dice"}
FIELDS: dict[str, set[str]] = {
    "bet": {"player", "bet", "amount"} | _QUALIFIERS,
    "remove": {"player", "remove"} | _QUALIFIERS,
    "reduce": {"player", "reduce", "amount"} | _QUALIFIERS,
    "on": {"player", "on"} | _QUALIFIERS,
    "off": {"player", "off"} | _QUALIFIERS,
    "down_on_win": {"player", "down_on_win"} | _QUALIFIERS,
    "off_during_point": {"player", "off_during_point"} | _QUALIFIERS,
    "roll": {"roll"},
    "shooter": {"shooter"},
    "sit": {"player", "sit"},
    "stand": {"player", "stand"},
}


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _takes(d: WagerDef) -> str:
    """What ``d`` is made with, for a message about a field it does not take."""
    if d.qualifier is not None:
        return f"; it takes {d.qualifier}"
    return "; it takes a number only to name a come bet standing on it" if d.travels else ""


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
            raise Malformed(f"{where}.dice", f"{d.id} takes no dice{_takes(d)}")
        return int(number)
    if d.qualifier == "dice":
        return _read_hop(action, where)
    if "dice" in action:
        raise Malformed(f"{where}.dice", f"{d.id} takes no dice{_takes(d)}")
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


def _read_hop(action: dict[str, Any], where: str) -> tuple[int, int]:
    dice = action.get("dice")
    if dice is None:
        raise Malformed(f"{where}.dice", "a hop bet needs the two dice, as [1, 3]")
    if (not isinstance(dice, list) or len(dice) != 2
            or not all(_int(x) and 1 <= x <= 6 for x in dice)):
        raise Malformed(f"{where}.dice", f"not two dice: {show_json(dice)}")
    pair = (min(dice), max(dice))
    if pair not in HOPS:
        raise Malformed(f"{where}.dice", f"{pair[0]}-{pair[1]} is not one of the 17 hop wagers")
    if "number" in action:
        raise Malformed(f"{where}.number", "a hop bet takes dice, not a number")
    return pair


def _domain(d: WagerDef) -> str:
    return ", ".join(str(x) for x in d.domain)


def read_wager(value: Any, where: str) -> WagerDef:
    """A craps wager's definition by its id."""
    if not isinstance(value, str) or value not in WAGERS:
        raise Malformed(where, f"unknown craps wager {show_json(value)}"
                        f"{did_you_mean(value, WAGERS)}")
    return WAGERS[value]


def _die(value: Any, where: str) -> int:
    if not _int(value) or not 1 <= value <= 6:
        raise Malformed(where, f"not a die (1 to 6): {show_json(value)}")
    return int(value)


def read_roll(dice: Any, where: str) -> Roll:
    """Two dice, as ``[3, 4]``."""
    if not isinstance(dice, list) or len(dice) != 2:
        raise Malformed(where, f"a roll is two dice, as [3, 4]: {show_json(dice)}")
    d1, d2 = (_die(v, f"{where}[{i}]") for i, v in enumerate(dice))
    return Roll(d1, d2)


# The actions on a wager that carry no amount, by verb.
_ON_A_WAGER: dict[str, Callable[[str, str, Qualifier], CrapsAction]] = {
    "remove": lambda player, wager, q: TakeDown(player, wager, q, None),
    "down_on_win": DownOnWin,
    "off_during_point": OffDuringPoint,
    "on": lambda player, wager, q: Call(player, wager, q, True),
    "off": lambda player, wager, q: Call(player, wager, q, False),
}


def read_action(action: Any, where: str, players: Collection[str]) -> CrapsAction:
    """One craps action, checked for form (not for the rules)."""
    verb = action_verb(action, VERBS, where)
    check_keys(action, FIELDS[verb], where, verb)
    if verb == "roll":
        return read_roll(action["roll"], f"{where}.roll")
    if verb == "shooter":
        return PassDice(read_player(action["shooter"], players, f"{where}.shooter"))
    player = read_player(action.get("player"), players, f"{where}.player")
    if verb in ("sit", "stand"):
        if action[verb] is not True:
            raise Malformed(f"{where}.{verb}", f"must be true: {show_json(action[verb])}")
        return Sit(player, verb == "sit")
    d = read_wager(action[verb], f"{where}.{verb}")
    qualifier = read_qualifier(d, action, where)
    if verb in ("bet", "reduce"):
        if "amount" not in action:
            what = "a bet" if verb == "bet" else "a reduction"
            raise Malformed(f"{where}.amount", f"{what} needs an amount")
        amount = parse_amount(action["amount"], f"{where}.amount")
        if verb == "bet":
            return Bet(player, d.id, qualifier, amount)
        return TakeDown(player, d.id, qualifier, amount)
    return _ON_A_WAGER[verb](player, d.id, qualifier)
