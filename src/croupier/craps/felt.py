"""Where each craps wager is drawn on the felt, and what the page needs to offer it.

The browser table draws its layout and the moves a player may make from the table's offer
(:meth:`croupier.craps.table.CrapsTable.offer`), never from a list of its own. This module
builds that part of the offer from the one definition of each wager (:mod:`.wagers`: its
qualifier and domain, pay-table entries, when it may be made and removed, its parts, the odds
behind it) and the table's configuration (what it offers and pays, the calls its options
take), and holds the one thing the definitions do not say: where each wager is drawn,
:data:`FELT`. A wager with no line there is drawn among the "more bets" under the
proposition area, so a new wager reaches the felt with its definition and its profile alone.

>>> from croupier.rules import load_profile
>>> from croupier.craps.config import CrapsConfig
>>> felt = described(CrapsConfig.from_options(load_profile("nj-13-69f"), {}))
>>> d = felt["defs"]["pass"]
>>> d["timing"], d["removal"], d["odds"], d["felt"]["area"]
('come_out', 'until_point', 'pass_odds', 'band')
>>> spot = felt["spots"]["hop:1-3"]
>>> spot["spec"], spot["dice"], spot["name"], spot["pay"]
({'wager': 'hop', 'dice': [1, 3]}, [1, 3], '1-3 on the Hop', '15 to 1')
>>> felt["spots"]["come_odds:6"]["place"], felt["spots"]["come:6"]["odds"]
({'with': 'come:6', 'dx': 18, 'dy': 4}, 'come_odds:6')
>>> felt["spots"]["pass_odds"]["pays_at"]["6"]
['pass_odds:6']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from croupier.craps.wagers import ODDS_BEHIND, WAGERS, Move, Qualifier, Win
from croupier.dice import OUTCOMES, POINTS

if TYPE_CHECKING:
    from croupier.craps.config import CrapsConfig
    from croupier.craps.wagers import WagerDef

CALLS = ("down_on_win", "off_during_point")
"""The calls a table's options may take on a wager, each named as its option is."""


@dataclass(frozen=True)
class Spot:
    """Where a wager is drawn on the craps felt and what is printed there.

    ``area`` is one of ``numbers`` (a strip of each number's column: ``strip`` ``top``,
    ``box`` or ``foot``; wagers sharing a strip share its width in ``slot`` order), ``bar``
    (the box beside the numbers), ``band`` (a band across the felt, ``row`` counting down from
    the numbers, ``size`` its height on a wide screen and on a phone), ``side`` (the box at
    the felt's side), ``behind`` (an odds wager: its chips sit ``behind`` (dx, dy) from its
    flat bet's), ``props`` (row ``row`` of the proposition area, at ``slot`` in it, ``per_row``
    of its spots to a row, in ``sequence`` of qualifiers if given, else in pay-table order)
    and ``more`` (the place of a wager with no line in :data:`FELT`).

    ``label`` is printed on it (``{q}``: its qualifier) and ``note`` under it; ``art`` says
    what else: ``title`` (the label large), ``dice`` (``dice``, or the one roll that wins
    it), ``pay`` (what it pays), ``pays`` (each pay entry on a line, as ``pay_line``),
    ``totals`` (the totals it wins on), ``rings`` (its other pay entries, ringed at the
    ends), ``edge`` (it runs up the felt's edge too). ``style`` names its look.

    ``name`` is what the page calls it (the definition's name if empty) and ``spot_name`` one
    of its spots; ``stands`` is where a travelling wager's chips go on the number it stands
    on (the strip and an offset).
    """

    area: str
    row: int = 0
    slot: int = 0
    strip: str = ""
    label: str = ""
    note: str = ""
    art: tuple[str, ...] = ()
    style: str = ""
    dice: tuple[int, int] | None = None
    size: tuple[int, int] = (0, 0)
    per_row: int = 0
    sequence: tuple[Any, ...] = ()
    caption: str = ""
    pay_line: str = ""
    name: str = ""
    spot_name: str = "{name} {q}"
    stands: tuple[str, int, int] | None = None
    behind: tuple[int, int] = (0, 0)


MORE = Spot("more")
"""Where a wager with no line in :data:`FELT` is drawn: among the "more bets"."""

_DIE_ART = ("dice", "pay")

FELT: dict[str, Spot] = {
    "pass": Spot("band", row=4, label="PASS LINE", art=("title", "edge"), style="pass",
                 size=(54, 62), name="Pass Line"),
    "dont_pass": Spot("band", row=3, label="DON'T PASS BAR", art=("dice",), dice=(6, 6),
                      size=(36, 46), name="Don't Pass Bar"),
    "come": Spot("band", row=1, label="COME", art=("title",), style="come", size=(80, 62),
                 name="Come", spot_name="{name} on {q}", stands=("box", -26, 22)),
    "dont_come": Spot("bar", label="DON'T COME BAR", art=("dice",), dice=(6, 6),
                      name="Don't Come Bar", spot_name="{name} on {q}", stands=("top", -12, 0)),
    "field": Spot("band", row=2, label="FIELD", art=("title", "totals", "rings"), size=(70, 84),
                  name="Field"),
    "pass_odds": Spot("behind", behind=(0, 22), name="odds on the Pass Line"),
    "dont_pass_odds": Spot("behind", behind=(-34, 0), name="odds on Don't Pass"),
    "come_odds": Spot("behind", behind=(18, 4), name="odds on Come"),
    "dont_come_odds": Spot("behind", behind=(22, 0), name="odds on Don't Come"),
    "lay": Spot("numbers", strip="top", slot=0, label="LAY", name="Lay"),
    "place_lose": Spot("numbers", strip="top", slot=1, label="LOSE", name="Place to lose"),
    "place_win": Spot("numbers", strip="box", name="Place to win"),
    "buy": Spot("numbers", strip="foot", label="BUY {q}", name="Buy"),
    "any_seven": Spot("props", row=0, label="ANY SEVEN", art=("pay",)),
    "hard": Spot("props", row=1, per_row=2, sequence=(6, 10, 8, 4), label="HARD {q}",
                 art=_DIE_ART, name="Hardway", spot_name="Hard {q}"),
    "craps_3": Spot("props", row=3, slot=0, art=_DIE_ART, name="Craps Three (ace-deuce)"),
    "yo_11": Spot("props", row=3, slot=1, art=_DIE_ART, name="Eleven (yo)"),
    "craps_2": Spot("props", row=3, slot=2, art=_DIE_ART, name="Craps Two (aces)"),
    "craps_12": Spot("props", row=3, slot=3, art=_DIE_ART),
    "any_craps": Spot("props", row=4, label="ANY CRAPS", art=("pay",)),
    "c_and_e": Spot("props", row=5, slot=0, label="C & E", name="C and E"),
    "horn": Spot("props", row=5, slot=1, label="HORN", name="Horn"),
    "whirl": Spot("props", row=5, slot=2, label="WHIRL", name="Whirl"),
    "six_seven_eight": Spot("props", row=5, slot=3, label="6-7-8", art=("pay",)),
    "horn_high": Spot("props", row=6, label="HIGH {q}", note="HORN", name="Horn High"),
    "hop": Spot("props", row=7, per_row=4, art=_DIE_ART, caption="HOPS: one roll, the dice shown",
                name="Hop", spot_name="{q} on the Hop"),
    "fire": Spot("side", label="FIRE BET", art=("pays",), pay_line="{k} pts {pay}",
                 style="fire", name="Fire Bet"),
}
"""Where each wager is drawn, by its id: a new wager may add a line (else it is one of the
"more bets")."""


def spot_of(wager_id: str) -> Spot:
    """Where ``wager_id`` is drawn: its line in :data:`FELT`, else among the "more bets"."""
    return FELT.get(wager_id, MORE)


def described(cfg: CrapsConfig) -> dict[str, Any]:
    """The felt's part of a table's offer: ``defs`` (each wager offered, by id, in the order
    of the definitions), ``spots`` (every key a wager offered may have on the layout: what
    the page sends to make it, its name and pays, where it is drawn or where its chips go)
    and ``points`` (the numbers of the layout's columns). Built once for each table's terms
    (the offer is read whenever a page opens a table or its posted rules): read, never
    change, what it gives."""
    offered = tuple(cfg.offered())
    return _described(_Terms(
        offered, tuple(spot_of(d.id) for d in offered),
        tuple((k, str(v)) for k, v in cfg.pays.items()),
        tuple((d.id, cfg.rules.wagers.get(d.id, "")) for d in offered),
        frozenset(cfg.off_on_come_out), tuple(c for c in CALLS if getattr(cfg, c))))


@dataclass(frozen=True)
class _Terms:
    """All a table's felt depends on: its wagers, where each is drawn, its pays, the clauses
    permitting them, those off on the come-out and the calls its options take."""

    wagers: tuple[WagerDef, ...]
    felt: tuple[Spot, ...]
    pays: tuple[tuple[str, str], ...]
    clauses: tuple[tuple[str, str], ...]
    off_on_come_out: frozenset[str]
    calls: tuple[str, ...]


@dataclass(frozen=True)
class _Table:
    """The terms as the helpers below read them."""

    pays: dict[str, str]
    clauses: dict[str, str]
    off_on_come_out: frozenset[str]
    calls: tuple[str, ...]


@lru_cache(maxsize=64)
def _described(terms: _Terms) -> dict[str, Any]:
    table = _Table(dict(terms.pays), dict(terms.clauses), terms.off_on_come_out, terms.calls)
    ids = {d.id for d in terms.wagers}
    defs: dict[str, Any] = {}
    spots: dict[str, Any] = {}
    for d in terms.wagers:
        keys = _placed(table, d, ids, spots)
        defs[d.id] = _definition(table, d, ids, keys)
    return {"defs": defs, "spots": spots, "points": list(POINTS)}


def _definition(table: _Table, d: WagerDef, ids: set[str], keys: list[str]) -> dict[str, Any]:
    odds = ODDS_BEHIND.get(d.id)
    return {
        "id": d.id, "name": _name(d), "clause": table.clauses.get(d.id, ""),
        "qualifier": d.qualifier, "domain": [_json(q) for q in d.domain],
        "timing": d.timing.name.lower(), "removal": d.removal.name.lower(),
        "stays_up": d.stays_up, "one_roll": d.one_roll, "travels": d.travels,
        "split": d.parts is not None, "dont": d.dont, "lay_odds": d.lay_odds,
        "commission": d.commission, "odds_of": d.odds_of,
        "odds": odds.id if odds is not None and odds.id in ids else None,
        "off_on_come_out": d.id in table.off_on_come_out, "hand_end": d.hand_end is not None,
        "calls": [c for c in table.calls if getattr(d, c)],
        "felt": _felt(spot_of(d.id)), "keys": keys,
    }


def _felt(spot: Spot) -> dict[str, Any]:
    out: dict[str, Any] = {"area": spot.area, "row": spot.row, "slot": spot.slot}
    for name in ("strip", "style", "caption"):
        if getattr(spot, name):
            out[name] = getattr(spot, name)
    if spot.art:
        out["art"] = list(spot.art)
    if spot.size != (0, 0):
        out["size"] = list(spot.size)
    if spot.per_row:
        out["per_row"] = spot.per_row
    return out


def _name(d: WagerDef) -> str:
    return spot_of(d.id).name or d.name


def _q_text(q: Any) -> str:
    return "-".join(str(x) for x in q) if isinstance(q, tuple) else str(q)


def _json(q: Any) -> Any:
    return list(q) if isinstance(q, tuple) else q


def _qualifiers(d: WagerDef, pays: Iterable[str]) -> list[Qualifier]:
    """A wager's qualifiers in the order its spots are drawn."""
    if d.qualifier is None:
        return [None]
    spot = spot_of(d.id)
    if spot.sequence:
        first = [q for q in spot.sequence if q in d.domain]
        return first + [q for q in d.domain if q not in first]
    order = {k: i for i, k in enumerate(pays)}
    return sorted(d.domain, key=lambda q: min((order.get(k, len(order))
                                               for k in d.pay_keys(q, None)), default=0))


def _placed(table: _Table, d: WagerDef, ids: set[str], spots: dict[str, Any]) -> list[str]:
    """Adds every key ``d`` may have on the layout to ``spots``; its placed keys, in order."""
    keys = []
    for q in _qualifiers(d, table.pays):
        key = d.key(q, None)
        spots[key] = _placement(table, d, q, ids)
        keys.append(key)
    if d.travels:
        for state in _travels_to(d):
            spots[d.key(None, state)] = _standing(table, d, state, ids)
    return keys


def _spec(d: WagerDef, q: Any, field: str | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"wager": d.id}
    if q is not None:
        spec[field or d.qualifier or "number"] = _json(q)
    return spec


def _pays_of(table: _Table, keys: Iterable[str]) -> list[str]:
    return [k for k in keys if k in table.pays]


def _placement(table: _Table, d: WagerDef, q: Qualifier, ids: set[str]) -> dict[str, Any]:
    """One spot of ``d`` made with qualifier ``q``."""
    spot, key = spot_of(d.id), d.key(q, None)
    text = {"name": _name(d), "q": "" if q is None else _q_text(q)}
    out: dict[str, Any] = {"wager": d.id, "spec": _spec(d, q),
                           "name": spot.spot_name.format(**text) if q is not None else text["name"]}
    if q is not None:
        out["q"] = _json(q)
    out.update(_pays(table, d, q))
    pay = table.pays.get(key)
    if pay is not None:
        out["pay"] = pay
    out.update(_art(table, d, q, out.get("pays", []), text))
    if d.parts is not None:
        out["parts"] = [{"key": WAGERS[p.wager].key(p.qualifier, None), "units": p.units,
                         "pays": _pays_of(table, WAGERS[p.wager].pay_keys(p.qualifier, None))}
                        for p in d.parts(q)]
    if d.odds_of is not None:
        flat = WAGERS[d.odds_of]
        dx, dy = spot.behind
        out["place"] = {"with": flat.key(None, q) if flat.travels else flat.key(q, None),
                        "dx": dx, "dy": dy}
    odds = ODDS_BEHIND.get(d.id)
    if odds is not None and odds.id in ids and not d.travels:
        out["odds"] = odds.key(q, None)
    return out


@cache
def _keys_at(d: WagerDef, q: Qualifier) -> tuple[tuple[int | None, tuple[str, ...]], ...]:
    """The pay-table keys of ``d`` made with ``q`` with the table at each point (or none)."""
    return tuple((p, d.pay_keys(q, d.initial_state(q, p))) for p in (None, *POINTS))


def _pays(table: _Table, d: WagerDef, q: Qualifier) -> dict[str, Any]:
    """The pay-table entries a spot is paid at: ``pays``, or ``pays_at`` by the table's point
    when they depend on it (the odds behind a pass or don't pass bet)."""
    at = {p: _pays_of(table, keys) for p, keys in _keys_at(d, q)}
    if all(keys == at[None] for keys in at.values()):
        return {"pays": at[None]}
    return {"pays_at": {str(p): keys for p, keys in at.items() if p is not None and keys}}


def _art(table: _Table, d: WagerDef, q: Qualifier, pays: list[str],
         text: dict[str, str]) -> dict[str, Any]:
    spot = spot_of(d.id)
    out: dict[str, Any] = {}
    if spot.label:
        out["label"] = spot.label.format(**text)
    if spot.note:
        out["note"] = spot.note.format(**text)
    if "dice" in spot.art:
        dice = spot.dice or _winning_roll(d, q)
        if dice is not None:
            out["dice"] = list(dice)
    if "totals" in spot.art:
        out["totals"] = sorted({a + b for a, b in _wins(d, q)})
    if "rings" in spot.art:
        out["rings"] = [{"text": k.partition(":")[2], "pay": table.pays[k]} for k in pays[1:]]
    if "pays" in spot.art:
        out["lines"] = [spot.pay_line.format(k=k.partition(":")[2], pay=table.pays[k])
                        for k in pays]
    return out


@cache
def _wins(d: WagerDef, q: Qualifier) -> tuple[tuple[int, int], ...]:
    """The rolls on which ``d`` made with ``q`` wins at once (for the art: a split wager,
    settled part by part, has none of its own). The definitions are pure: asked once."""
    if d.parts is not None:
        return ()
    state = d.initial_state(q, None)
    return tuple(roll for roll in OUTCOMES if isinstance(d.decide(q, state, *roll), Win))


def _winning_roll(d: WagerDef, q: Qualifier) -> tuple[int, int] | None:
    """The one roll (either way round) that wins ``d`` made with ``q``, if only one does."""
    rolls = {(min(a, b), max(a, b)) for a, b in _wins(d, q)}
    return rolls.pop() if len(rolls) == 1 else None


@cache
def _travels_to(d: WagerDef) -> tuple[Any, ...]:
    """The numbers a travelling wager moves to (a come bet to the point its roll makes)."""
    moved = (d.decide(None, None, *roll) for roll in OUTCOMES)
    return tuple(sorted({m.state for m in moved if isinstance(m, Move)}))


def _standing(table: _Table, d: WagerDef, state: Any, ids: set[str]) -> dict[str, Any]:
    """A travelling wager standing on ``state``: where its chips go, its odds."""
    spot = spot_of(d.id)
    out: dict[str, Any] = {
        "wager": d.id, "spec": _spec(d, state, "number"), "state": state,
        "name": spot.spot_name.format(name=_name(d), q=_q_text(state)),
        "pays": _pays_of(table, d.pay_keys(None, state)),
    }
    if spot.stands is not None:
        strip, dx, dy = spot.stands
        out["place"] = {"number": state, "strip": strip, "dx": dx, "dy": dy}
    odds = ODDS_BEHIND.get(d.id)
    if odds is not None and odds.id in ids:
        out["odds"] = odds.key(state, None)
    return out
