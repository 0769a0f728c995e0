"""Where each roulette wager is drawn on the felt, and what the page needs to offer it.

The browser table draws the layout from the table's offer
(:meth:`croupier.roulette.table.RouletteTable.offer`): the boxes of the wheel's layout
(:mod:`.layout`) with each pocket's colour, and every spot a wager offered may take, found by
asking the wager's own definition (:mod:`.wagers`) which numbers it covers. What the
definitions do not say, where each wager is drawn and what is printed on it, is
:data:`FELT`; a wager with no line there is drawn among the "more bets" under the layout.

>>> from croupier.roulette.wheel import DOUBLE_ZERO
>>> felt = described(DOUBLE_ZERO, ["split", "first_five", "dozen", "five_adjacent"],
...                  {"split": "(e)2"}, {"split": "17 to 1", "first_five": "6 to 1",
...                                      "dozen": "2 to 1", "straight": "35 to 1"})
>>> felt["spots"]["split:0-00"]["spec"], felt["spots"]["split:0-00"]["covers"]
({'wager': 'split', 'numbers': [0, '00']}, [0, '00'])
>>> felt["spots"]["first_five"]["name"], felt["spots"]["dozen:2"]["label"]
('First five numbers (0-00-1-2-3)', '2nd 12')
>>> felt["spots"]["five_adjacent:17"]["name"], felt["spots"]["five_adjacent:17"]["pay"]
('Five adjacent numbers on the wheel centred on 17 (20-32-17-5-22)', '35 to 1')
>>> felt["defs"]["split"]["felt"]["area"], len(felt["defs"]["split"]["keys"])
('grid', 62)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from croupier.roulette.layout import LAYOUTS, Cover
from croupier.roulette.wagers import INDEX_DOMAIN, WAGERS, Qualifier, RouletteWager
from croupier.roulette.wheel import Pocket, Wheel, colour, label, pocket_key

ORDINALS = ("First", "Second", "Third")
NTH = ("1st", "2nd", "3rd")


@dataclass(frozen=True)
class Spot:
    """Where a roulette wager is drawn and what is printed there.

    ``area`` is one of ``grid`` (on the numbers: a single number's box, or where the boxes it
    covers meet), ``outside`` (row ``row`` of the outside wagers beside the numbers, each of a
    row's spots an equal share of its length, in ``slot`` order), ``end`` (the box at the end
    of the outside rows), ``racetrack`` (the wheel replica, a spot for each pocket) and
    ``more`` (the place of a wager with no line in :data:`FELT`). ``label`` is printed on it
    and ``note`` under it (``{q}``: its qualifier, ``{nth}``: 1st, 2nd, 3rd, ``{pay}``: what
    it pays), or ``lines``; ``style`` names its look. ``name`` is what the page calls it (the
    definition's name if empty) and ``spot_name`` one of its spots (``{numbers}``: the numbers
    it covers, ``{ordinal}``: First, Second, Third).
    """

    area: str
    row: int = 0
    slot: int = 0
    label: str = ""
    note: str = ""
    lines: tuple[str, ...] = ()
    style: str = ""
    name: str = ""
    spot_name: str = "{name} {q}"


MORE = Spot("more")
"""Where a wager with no line in :data:`FELT` is drawn: among the "more bets"."""

FELT: dict[str, Spot] = {
    "straight": Spot("grid", label="{q}"),
    "split": Spot("grid"),
    "three_numbers": Spot("grid"),
    "four_numbers": Spot("grid", name="Corner"),
    "first_five": Spot("grid", name="First five numbers", spot_name="{name} ({numbers})"),
    "six_numbers": Spot("grid"),
    "column": Spot("outside", row=0, label="{pay}", note="col {q}"),
    "dozen": Spot("outside", row=1, label="{nth} 12", spot_name="{ordinal} dozen"),
    "low": Spot("outside", row=2, slot=0, label="1-18"),
    "even": Spot("outside", row=2, slot=1, label="EVEN"),
    "red": Spot("outside", row=2, slot=2, label="◆", style="diamond-red"),
    "black": Spot("outside", row=2, slot=3, label="◆", style="diamond-black"),
    "odd": Spot("outside", row=2, slot=4, label="ODD"),
    "high": Spot("outside", row=2, slot=5, label="19-36"),
    "seven_numbers": Spot("end", lines=("7 NUMS", "10-15", "& 33"),
                          name="Seven numbers (10-15 and 33)"),
    "five_adjacent": Spot("racetrack", label="FIVE ADJACENT NUMBERS ON THE WHEEL",
                          spot_name="{name} on the wheel centred on {q} ({numbers})"),
}
"""Where each wager is drawn, by its id: a new wager may add a line (else it is one of the
"more bets"). Row 0 of the outside wagers runs beside the numbers' rows (the columns)."""


def spot_of(wager_id: str) -> Spot:
    """Where ``wager_id`` is drawn: its line in :data:`FELT`, else among the "more bets"."""
    return FELT.get(wager_id, MORE)


def described(wheel: Wheel, offered: Iterable[str], clauses: Mapping[str, str],
              pays: Mapping[str, object], layouts: Mapping[str, str] | None = None,
              ) -> dict[str, Any]:
    """The felt's part of a table's offer: ``boxes`` (the layout's number boxes, in grid
    units, with each pocket's colour and whether it is in play), ``defs`` (each wager offered,
    in the order of the definitions, with the clause permitting it and, in ``layouts``, the
    clause taking it only on an approved layout) and ``spots`` (every spot of those wagers:
    what the page sends to make it, its name and pay, the numbers it covers, what is printed
    on it). The grid's spots come smallest first, then by their numbers, the order a list of
    the wagers covering one number reads in. Built once for each table's terms (the offer is
    read whenever a page opens a table or its posted rules): read, never change, what it
    gives."""
    ids = set(offered)
    wagers = tuple(w for w in WAGERS.values() if w.id in ids)
    return _described(wheel, wagers, tuple(spot_of(w.id) for w in wagers),
                      tuple((w.id, clauses.get(w.id, "")) for w in wagers),
                      tuple((k, str(v)) for k, v in pays.items()),
                      tuple((w.id, (layouts or {}).get(w.id)) for w in wagers))


@lru_cache(maxsize=64)
def _described(wheel: Wheel, wagers: tuple[RouletteWager, ...], felt: tuple[Spot, ...],
               clauses: tuple[tuple[str, str], ...], pays: tuple[tuple[str, str], ...],
               layouts: tuple[tuple[str, str | None], ...]) -> dict[str, Any]:
    pay_of, clause_of, layout_of = dict(pays), dict(clauses), dict(layouts)
    defs: dict[str, Any] = {}
    spots: list[tuple[tuple[int, ...], str, dict[str, Any]]] = []
    for wager, spot_at in zip(wagers, felt, strict=True):
        keys = []
        for q, cover in _spots(wager, wheel):
            spot = _spot(wager, q, cover, wheel, pay_of)
            keys.append(spot["key"])
            order = (len(cover), *(pocket_key(p) for p in spot["covers"]))
            spots.append((order if spot_at.area == "grid" else (99,), spot["key"], spot))
        defs[wager.id] = _definition(wager, clause_of, keys)
        defs[wager.id]["approved_layout"] = layout_of.get(wager.id)
    spots.sort(key=lambda s: s[0])
    layout = LAYOUTS[wheel.layout_id]
    return {
        "boxes": [{"pocket": b.pocket, "x0": b.x0, "x1": b.x1, "y0": b.y0, "y1": b.y1,
                   "colour": colour(b.pocket), "in_play": b.pocket in wheel.in_play}
                  for b in layout.boxes],
        "defs": defs, "spots": {key: spot for _, key, spot in spots},
    }


def _definition(wager: RouletteWager, clauses: Mapping[str, str], keys: list[str],
                ) -> dict[str, Any]:
    spot = spot_of(wager.id)
    felt: dict[str, Any] = {"area": spot.area, "row": spot.row, "slot": spot.slot}
    if spot.label and spot.area == "racetrack":
        felt["label"] = spot.label
    return {"id": wager.id, "name": spot.name or wager.name, "clause": clauses.get(wager.id, ""),
            "qualifier": wager.qualifier, "pay_key": wager.pay_key,
            "even_money": wager.even_money, "parts": wager.parts, "felt": felt, "keys": keys}


def _qualifiers(wager: RouletteWager, wheel: Wheel) -> list[Qualifier]:
    """Every qualifier a wager of this kind may be made with on ``wheel``'s layout."""
    if wager.qualifier == "numbers":
        shapes = LAYOUTS[wheel.layout_id].shapes.values()
        sets: set[tuple[Pocket, ...]] = {tuple(sorted(s, key=pocket_key))
                                         for shape in shapes for s in shape}
        ordered: list[tuple[Pocket, ...]] = sorted(sets, key=_reading_order)
        return list(ordered)
    if wager.qualifier == "center":
        return list(wheel.order)
    if wager.qualifier in ("column", "dozen"):
        return list(INDEX_DOMAIN)
    return [None]


def _reading_order(numbers: tuple[Pocket, ...]) -> list[int]:
    return [pocket_key(p) for p in numbers]


@cache
def _spots(wager: RouletteWager, wheel: Wheel) -> tuple[tuple[Qualifier, Cover], ...]:
    """The qualifiers that form ``wager`` on ``wheel``'s layout, each with what it covers
    (the definitions and the layouts are pure: asked once)."""
    out = []
    for q in _qualifiers(wager, wheel):
        cover = wager.covers(q, wheel)
        if cover is not None:
            out.append((q, cover))
    return tuple(out)


def _spot(wager: RouletteWager, q: Qualifier, cover: Cover, wheel: Wheel,
          pays: Mapping[str, str]) -> dict[str, Any]:
    spot = spot_of(wager.id)
    pay = pays.get(wager.pay_key)
    numbers = (wheel.neighbours(q) if wager.qualifier == "center" and not isinstance(q, tuple)
               and q is not None else tuple(sorted(cover, key=pocket_key)))
    text = {"name": spot.name or wager.name, "q": "" if q is None else _q_text(q),
            "numbers": "-".join(str(p) for p in numbers), "pay": pay or "", **_ordinal(q)}
    out: dict[str, Any] = {
        "key": wager.key(q), "wager": wager.id, "spec": _spec(wager, q),
        "name": spot.spot_name.format(**text) if q is not None or "{numbers}" in spot.spot_name
        else text["name"],
        "covers": list(numbers),
    }
    if pay is not None:
        out["pay"] = pay
    if q is not None:
        out["q"] = list(q) if isinstance(q, tuple) else q
    for name in ("label", "note", "style"):
        value = getattr(spot, name)
        if value and not (name == "label" and spot.area == "racetrack"):
            out[name] = value.format(**text)
    if spot.area == "racetrack":
        out["label"] = text["q"]
    if spot.lines:
        out["lines"] = list(spot.lines)
    return out


def _q_text(q: Qualifier) -> str:
    return label(q) if isinstance(q, tuple) else str(q)


def _ordinal(q: Qualifier) -> dict[str, str]:
    if isinstance(q, int) and 1 <= q <= len(ORDINALS):
        return {"ordinal": ORDINALS[q - 1], "nth": NTH[q - 1]}
    return {"ordinal": "", "nth": ""}


def _spec(wager: RouletteWager, q: Qualifier) -> dict[str, Any]:
    spec: dict[str, Any] = {"wager": wager.id}
    if wager.qualifier is not None and q is not None:
        spec[wager.qualifier] = list(q) if isinstance(q, tuple) else q
    return spec

