"""Independent reference model of the replay contract (shared/spec/transcript.md).

Written from the contract, the regulation texts and the README's documented choices only;
nothing here is taken from croupier's implementation. Money is exact (Fraction).

``replay(doc)`` returns ``{"players": ..., "rejected": [...], "state": ...}`` or raises
``Malformed``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

F = Fraction


class Malformed(Exception):
    """The transcript is malformed (exit 2)."""


class Refused(Exception):
    """The action is refused (listed in ``rejected``, changes nothing)."""


# ----------------------------------------------------------------------------- money, odds


def is_annotation(key: str) -> bool:
    return key in ("comment", "note", "description") or key.startswith("_")


def money(v: Any, where: str, *, allow_zero: bool = False) -> Fraction:
    if isinstance(v, bool) or not isinstance(v, (int, float, str, Decimal)):
        raise Malformed(f"{where}: not a decimal amount: {v!r}")
    if isinstance(v, str) and any(c in v for c in "eE"):
        # croupier's reading, adopted: a decimal *string* is written without an exponent
        raise Malformed(f"{where}: not a decimal amount: {v!r}")
    try:
        d = Decimal(repr(v)) if isinstance(v, float) else Decimal(str(v))
    except InvalidOperation:
        raise Malformed(f"{where}: not a decimal amount: {v!r}") from None
    if not d.is_finite():
        raise Malformed(f"{where}: not a decimal amount: {v!r}")
    f = F(d)
    if (f * 100).denominator != 1:
        raise Malformed(f"{where}: finer than a cent: {v!r}")
    if f < 0 or (f == 0 and not allow_zero):
        raise Malformed(f"{where}: not positive: {v!r}")
    if f >= 10**16:  # croupier's undocumented bound, adopted: "amount too large"
        raise Malformed(f"{where}: amount too large: {v!r}")
    return f


def fmt(f: Fraction) -> str:
    assert (f * 100).denominator == 1, f
    cents = int(f * 100)
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


ODDS_RE = re.compile(r"^\s*([0-9]{1,12})\s+to\s+([0-9]{1,12})\s*$", re.IGNORECASE)  # ASCII digits


def parse_odds(v: Any, where: str) -> Fraction:
    if not isinstance(v, str):
        raise Malformed(f"{where}: not odds: {v!r}")
    m = ODDS_RE.match(v)
    if not m or int(m.group(2)) == 0 or int(m.group(1)) == 0:
        raise Malformed(f"{where}: not odds: {v!r}")
    return F(int(m.group(1)), int(m.group(2)))


def multiple(x: Fraction, unit: Fraction) -> bool:
    return (x / unit).denominator == 1


def floor_to(x: Fraction, unit: Fraction) -> Fraction:
    return (x // unit) * unit


# ----------------------------------------------------------------------------- craps tables

NUMBERS = (4, 5, 6, 8, 9, 10)
HARD_NUMBERS = (4, 6, 8, 10)
PLACE_WIN = {4: F(9, 5), 5: F(7, 5), 6: F(7, 6), 8: F(7, 6), 9: F(7, 5), 10: F(9, 5)}
PLACE_LOSE = {4: F(5, 11), 5: F(5, 8), 6: F(4, 5), 8: F(4, 5), 9: F(5, 8), 10: F(5, 11)}
TRUE_ODDS = {4: F(2), 5: F(3, 2), 6: F(6, 5), 8: F(6, 5), 9: F(3, 2), 10: F(2)}
LAY_ODDS = {n: 1 / r for n, r in TRUE_ODDS.items()}
HARDWAY = {4: F(7), 6: F(9), 8: F(9), 10: F(7)}
HOPS = {
    (2, 2): F(30), (3, 3): F(30), (4, 4): F(30), (5, 5): F(30),
    (1, 3): F(15), (1, 4): F(15), (2, 3): F(15), (1, 5): F(15), (2, 4): F(15), (1, 6): F(15),
    (2, 5): F(15), (3, 4): F(15), (2, 6): F(15), (3, 5): F(15), (3, 6): F(15), (4, 5): F(15),
    (4, 6): F(15),
}
FIRE_TABLES = {"A": {4: F(24), 5: F(249), 6: F(999)}, "B": {4: F(39), 5: F(199), 6: F(499)}}

CN, N1947, N69F = "nj-casino-night", "nj-19-47", "nj-13-69f"
PROFILES = (CN, N1947, N69F)

COMMON = {
    "pass", "dont_pass", "come", "dont_come", "place_win", "place_lose", "hard", "field",
    "any_seven", "any_craps", "craps_2", "craps_3", "craps_12", "yo_11", "c_and_e", "horn",
    "horn_high",
}
ODDS_WAGERS = {"pass_odds", "dont_pass_odds", "come_odds", "dont_come_odds"}
PERMITTED = {
    CN: COMMON | {"buy", "lay"},
    N1947: COMMON | {"whirl", "hop"},
    N69F: COMMON | {"whirl", "hop", "six_seven_eight", "fire", "buy", "lay"} | ODDS_WAGERS,
}
ALL_CRAPS_WAGERS = set().union(*PERMITTED.values())
NUMBER_QUALIFIED = {
    "place_win": NUMBERS, "place_lose": NUMBERS, "buy": NUMBERS, "lay": NUMBERS,
    "hard": HARD_NUMBERS, "horn_high": (2, 3, 11, 12), "come_odds": NUMBERS,
    "dont_come_odds": NUMBERS,
}
ONE_ROLL_SIMPLE = {
    "any_seven": lambda t, h: t == 7,
    "any_craps": lambda t, h: t in (2, 3, 12),
    "craps_2": lambda t, h: t == 2,
    "craps_3": lambda t, h: t == 3,
    "craps_12": lambda t, h: t == 12,
    "yo_11": lambda t, h: t == 11,
}
SPLIT_PARTS = {"horn": 4, "horn_high": 5, "whirl": 5, "c_and_e": 2}
HORN_KEYS = {2: "craps_2", 3: "craps_3", 11: "yo_11", 12: "craps_12"}


def craps_minimums(profile: str, fire_table: str) -> dict[str, Fraction]:
    d: dict[str, Fraction] = {k: F(1) for k in ("pass", "dont_pass", "come", "dont_come")}
    for n in NUMBERS:
        d[f"place_win:{n}"] = PLACE_WIN[n]
        d[f"place_lose:{n}"] = PLACE_LOSE[n]
    for n in HARD_NUMBERS:
        d[f"hard:{n}"] = HARDWAY[n]
    d.update({"field": F(1), "field:2": F(2), "field:12": F(2), "any_seven": F(4),
              "any_craps": F(7), "craps_2": F(30), "craps_3": F(15), "craps_12": F(30),
              "yo_11": F(15)})
    if profile in (CN, N69F):
        for n in NUMBERS:
            d[f"buy:{n}"] = TRUE_ODDS[n]
            d[f"lay:{n}"] = LAY_ODDS[n]
    if profile in (N1947, N69F):
        for (a, b), r in HOPS.items():
            d[f"hop:{a}-{b}"] = r
    if profile == N69F:
        d["six_seven_eight"] = F(1)
        d["six_seven_eight:hard"] = F(2)
        for c, r in FIRE_TABLES[fire_table].items():
            d[f"fire:{c}"] = r
        for n in NUMBERS:
            d[f"pass_odds:{n}"] = TRUE_ODDS[n]
            d[f"come_odds:{n}"] = TRUE_ODDS[n]
            d[f"dont_pass_odds:{n}"] = LAY_ODDS[n]
            d[f"dont_come_odds:{n}"] = LAY_ODDS[n]
    return d


@dataclass
class Wager:
    stake: Fraction
    on: bool = False  # called "on" for the come-out
    comm: Fraction = field(default_factory=Fraction)  # commission paid at placement for the current stake
    reduced: bool = False  # a don't bet that was reduced: may not be increased


@dataclass
class Player:
    bank: Fraction
    seated: bool = False
    block_dp: bool = False
    block_dc: bool = False


def _check_keys(action: dict[str, Any], allowed: set[str], where: str) -> None:
    for k in action:
        if not isinstance(k, str) or (k not in allowed and not is_annotation(k)):
            raise Malformed(f"{where}.{k}: unknown field")


def _int_in(v: Any, domain: Any, where: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v not in domain:
        raise Malformed(f"{where}: out of domain: {v!r}")
    return v


def _options(doc: dict[str, Any], allowed: set[str]) -> dict[str, Any]:
    opts = doc.get("options", {})
    if not isinstance(opts, dict):  # null included
        raise Malformed("options: not an object")
    for k in opts:
        if k not in allowed:
            raise Malformed(f"options.{k}: unknown option")
    return opts


def _limits(opts: dict[str, Any]) -> tuple[Fraction, Fraction, Fraction | None]:
    unit = money(opts.get("unit", "1"), "options.unit")
    # null limits mean the default (croupier's reading, adopted)
    min_bet = money(opts["min_bet"], "options.min_bet") if opts.get("min_bet") is not None else unit
    max_bet = money(opts["max_bet"], "options.max_bet") if opts.get("max_bet") is not None else None
    if max_bet is not None and max_bet < min_bet:
        raise Malformed("options.max_bet: below min_bet")
    return unit, min_bet, max_bet


def _players(doc: dict[str, Any]) -> dict[str, Player]:
    ps = doc.get("players")
    if not isinstance(ps, dict) or not ps:
        raise Malformed("players: not an object")
    return {str(p): Player(money(v, f"players.{p}")) for p, v in ps.items()}


def _pays(opts: dict[str, Any], minimums: dict[str, Fraction]) -> dict[str, Fraction]:
    table = dict(minimums)
    pays = opts.get("pays", {})
    if not isinstance(pays, dict):  # null included
        raise Malformed("options.pays: not an object")
    for k, v in pays.items():
        if k not in minimums:
            raise Malformed(f"options.pays.{k}: not in the profile's pay table")
        r = parse_odds(v, f"options.pays.{k}")
        if r < minimums[k]:
            raise Malformed(f"options.pays.{k}: below the regulatory minimum")
        table[k] = r
    return table


def check_dont_replaced(name: str, existing: Wager | None, pl: Player) -> None:
    # croupier's reading, adopted: the block stops a *new* don't bet; adding to another
    # don't come bet that was never reduced (one in the come area) is taken
    if existing is None and (pl.block_dp if name == "dont_pass" else pl.block_dc):
        raise Refused("don't bet was reduced or removed")
    if existing is not None and existing.reduced:
        raise Refused("a reduced don't bet may not be increased")


def _vig(vig: Any) -> Fraction:
    """The ``vig`` option: a rate of at most 5%."""
    if isinstance(vig, bool) or not isinstance(vig, (int, float, str, Decimal)):
        raise Malformed("options.vig")
    try:
        rate = F(Decimal(repr(vig)) if isinstance(vig, float) else Decimal(str(vig)))
    except (InvalidOperation, ValueError, OverflowError):
        raise Malformed("options.vig") from None
    if rate < 0 or rate > F(5, 100):  # (a NaN rate fails in F() above)
        raise Malformed("options.vig: over 5%")
    return rate


class Craps:
    def __init__(self, doc: dict[str, Any]) -> None:
        self.mini = doc["game"] == "mini-craps"
        self.profile = doc["rules"]
        opts = _options(doc, {"unit", "min_bet", "max_bet", "odds", "vig", "vig_collected",
                              "fire_pay_table", "six_seven_eight", "pays"})
        self.unit, self.min_bet, self.max_bet = _limits(opts)
        odds = opts.get("odds", "3-4-5" if self.profile == N69F else "none")
        if odds in ("none", "3-4-5"):
            self.odds: Any = odds
        else:
            self.odds = money(odds, "options.odds")
        self.vig = _vig(opts.get("vig", "0.05"))
        self.vig_at = opts.get("vig_collected", "placement")
        if self.vig_at not in ("placement", "win"):
            raise Malformed("options.vig_collected")
        if self.vig_at == "win" and self.profile == CN:
            raise Malformed("options.vig_collected: win not allowed under nj-casino-night")
        fire_table = opts.get("fire_pay_table", "A")
        if fire_table not in ("A", "B"):
            raise Malformed("options.fire_pay_table")
        s678 = opts.get("six_seven_eight", self.profile == N69F)
        if not isinstance(s678, bool):
            raise Malformed("options.six_seven_eight")
        if s678 and self.profile != N69F:
            raise Malformed("options.six_seven_eight: not permitted by the profile")
        self.s678 = s678
        minimums = craps_minimums(self.profile, fire_table)
        if self.mini:  # no fire bet at mini-craps, so no fire entries in its pay table
            minimums = {k: v for k, v in minimums.items() if not k.startswith("fire:")}
        self.pays = _pays(opts, minimums)
        self.players = _players(doc)
        self.order = list(self.players)
        self.wagers: dict[str, dict[tuple[Any, ...], Wager]] = {p: {} for p in self.players}
        self.point: int | None = None
        self.shooter = self.order[0]
        self.hand_rolls = 0
        self.made: set[int] = set()

    # -- helpers ---------------------------------------------------------------------------

    def pay(self, key: str) -> Fraction:
        return self.pays[key]

    def pay_keys(self, key: tuple[Any, ...]) -> list[tuple[Fraction, str]]:
        """(share of the stake, pay-table key) for every payout the wager could earn."""
        name = key[0]
        if name in ("pass", "dont_pass", "come", "dont_come"):
            return [(F(1), name)]
        if name in ("pass_odds", "dont_pass_odds"):
            return [(F(1), f"{name}:{self.point}")]
        if name in ("come_odds", "dont_come_odds", "place_win", "place_lose", "buy", "lay",
                    "hard"):
            return [(F(1), f"{name}:{key[1]}")]
        return self.prop_pay_keys(key)

    def prop_pay_keys(self, key: tuple[Any, ...]) -> list[tuple[Fraction, str]]:
        """:meth:`pay_keys` of the proposition (centre) wagers and the fire bet."""
        name = key[0]
        if name == "field":
            return [(F(1), "field"), (F(1), "field:2"), (F(1), "field:12")]
        if name in ONE_ROLL_SIMPLE:
            return [(F(1), name)]
        if name == "hop":
            a, b = key[1]
            return [(F(1), f"hop:{a}-{b}")]
        if name == "six_seven_eight":
            return [(F(1), "six_seven_eight"), (F(1), "six_seven_eight:hard")]
        if name == "fire":
            return [(F(1), f"fire:{c}") for c in (4, 5, 6)]
        if name == "horn":
            return [(F(1, 4), k) for k in HORN_KEYS.values()]
        if name == "horn_high":  # paid as four wagers on 2, 3, 11, 12: two units on its number
            return [(F(2 if n == key[1] else 1, 5), k) for n, k in HORN_KEYS.items()]
        if name == "whirl":
            return [(F(1, 5), k) for k in (*HORN_KEYS.values(), "any_seven")]
        if name == "c_and_e":
            return [(F(1, 2), "any_craps"), (F(1, 2), "yo_11")]
        raise AssertionError(name)

    def valid_stake(self, key: tuple[Any, ...], stake: Fraction) -> bool:
        u = self.unit
        if not multiple(stake, u) or stake < self.min_bet:
            return False
        if self.max_bet is not None and stake > self.max_bet:
            return False
        parts = SPLIT_PARTS.get(key[0])
        if parts and not multiple(stake / parts, u):
            return False
        return all(multiple(stake * share * self.pay(pk), u) for share, pk in self.pay_keys(key))

    def odds_ok(self, name: str, n: int, flat: Fraction, odds: Fraction) -> bool:
        if name in ("pass_odds", "come_odds"):
            mult = {4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5}[n] if self.odds == "3-4-5" else self.odds
            return odds <= mult * flat
        maxwin = 6 * flat if self.odds == "3-4-5" else self.odds * flat
        return odds * self.pay(f"{name}:{n}") <= maxwin

    def commission(self, key: tuple[Any, ...], stake: Fraction) -> Fraction:
        name, n = key
        base = stake
        if name == "lay" and self.profile == CN:
            base = stake * self.pay(f"lay:{n}")
        return floor_to(self.vig * base, self.unit)

    def off_by_default(self, name: str) -> bool:
        if name == "place_win":
            return True
        if name == "buy":
            return self.profile in (CN, N69F)
        if name in ("come_odds", "hard"):
            return self.profile == N69F
        return False

    def odds_behind(self, p: str, key: tuple[Any, ...]) -> tuple[tuple[Any, ...], Wager] | None:
        ws = self.wagers[p]
        if key == ("dont_pass",):
            ok: tuple[Any, ...] = ("dont_pass_odds",)
        elif key[0] == "dont_come" and key[1] is not None:
            ok = ("dont_come_odds", key[1])
        else:
            return None
        return (ok, ws[ok]) if ok in ws else None

    # -- actions ---------------------------------------------------------------------------

    def qualifier(self, name: str, a: dict[str, Any], where: str) -> tuple[Any, ...]:
        if name in NUMBER_QUALIFIED:
            if "number" not in a:
                raise Malformed(f"{where}.number: missing")
            return (name, _int_in(a["number"], NUMBER_QUALIFIED[name], f"{where}.number"))
        if name in ("come", "dont_come"):
            if "number" in a:
                return (name, _int_in(a["number"], NUMBERS, f"{where}.number"))
            return (name, None)
        if name == "hop":
            d = a.get("dice")
            if (not isinstance(d, list) or len(d) != 2
                    or any(isinstance(x, bool) or not isinstance(x, int) for x in d)):
                raise Malformed(f"{where}.dice: not two dice")
            pair = tuple(sorted(d))
            if pair not in HOPS:
                raise Malformed(f"{where}.dice: not a hop bet")
            return (name, pair)
        return (name,)

    def fields_for(self, name: str) -> set[str]:
        if name in NUMBER_QUALIFIED or name in ("come", "dont_come"):
            return {"number"}
        if name == "hop":
            return {"dice"}
        return set()

    def act(self, i: int, a: Any) -> None:
        where = f"actions[{i}]"
        if not isinstance(a, dict):
            raise Malformed(f"{where}: not an object")
        keys = {k for k in a if not is_annotation(k)}
        verbs = keys & {"bet", "remove", "reduce", "on", "off", "roll", "shooter", "sit", "stand"}
        if len(verbs) != 1:
            raise Malformed(f"{where}: not one action")
        verb = verbs.pop()
        if verb == "roll":
            self.act_roll(a, where)
        elif verb == "shooter":
            _check_keys(a, {"shooter"}, where)
            p = a["shooter"]
            if not isinstance(p, str) or p not in self.players:
                raise Malformed(f"{where}.shooter: unknown player")
            self.pass_dice(p)
        else:
            self.act_player(verb, a, where)

    def act_roll(self, a: dict[str, Any], where: str) -> None:
        _check_keys(a, {"roll"}, where)
        d = a["roll"]
        if (not isinstance(d, list) or len(d) != 2
                or any(isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= 6 for x in d)):
            raise Malformed(f"{where}.roll: not two dice")
        self.roll(d[0], d[1])

    def act_player(self, verb: str, a: dict[str, Any], where: str) -> None:
        """A player's action: sit or stand, or one on a wager."""
        p = a.get("player")
        if not isinstance(p, str) or p not in self.players:
            raise Malformed(f"{where}.player: unknown player")
        if verb in ("sit", "stand"):
            _check_keys(a, {"player", verb}, where)
            if a[verb] is not True:
                raise Malformed(f"{where}.{verb}: must be true")
            self.seat(p, verb)
        else:
            self.act_on_wager(p, verb, a, where)

    def act_on_wager(self, p: str, verb: str, a: dict[str, Any], where: str) -> None:
        name = a[verb]
        if not isinstance(name, str) or name not in ALL_CRAPS_WAGERS:
            raise Malformed(f"{where}.{verb}: unknown wager {name!r}")
        allowed = {"player", verb} | self.fields_for(name)
        if verb in ("bet", "reduce"):
            allowed.add("amount")
        _check_keys(a, allowed, where)
        key = self.qualifier(name, a, where)
        if verb in ("bet", "reduce"):
            if "amount" not in a:
                raise Malformed(f"{where}.amount: missing")
            amount = money(a["amount"], f"{where}.amount")
        if verb == "bet":
            self.bet(p, key, amount)
        elif verb == "remove":
            self.remove(p, key, None)
        elif verb == "reduce":
            self.remove(p, key, amount)
        else:
            self.onoff(p, key, verb == "on")

    def seat(self, p: str, verb: str) -> None:
        pl = self.players[p]
        if not self.mini:
            raise Refused("sit/stand only at mini-craps")
        if verb == "sit":
            if pl.seated:
                raise Refused("already seated")
            pl.seated = True
        else:
            if not pl.seated:
                raise Refused("not seated")
            if self.wagers[p]:
                raise Refused("a wager is down")
            pl.seated = False

    def bet(self, p: str, key: tuple[Any, ...], amount: Fraction) -> None:
        name = key[0]
        pl = self.players[p]
        ws = self.wagers[p]
        self.check_offered(name, pl)
        self.check_timing(key)
        flat, n = self.flat_for_odds(key, ws)
        if name == "fire" and self.hand_rolls != 0:
            raise Refused("fire bet only before a new shooter's first roll")
        existing = ws.get(key)
        if name in ("dont_pass", "dont_come"):
            check_dont_replaced(name, existing, pl)
        total = amount + (existing.stake if existing else 0)
        if not self.valid_stake(key, total):
            raise Refused("stake not valid")
        if flat is not None and not self.odds_ok(name, n, flat.stake, total):
            raise Refused("over the odds limit")
        due = F(0)
        if name in ("buy", "lay") and self.vig_at == "placement":
            paid = existing.comm if existing else F(0)
            due = max(F(0), self.commission(key, total) - paid)
        if amount + due > pl.bank:
            raise Refused("not enough chips")
        pl.bank -= amount + due
        if existing is None:
            existing = ws[key] = Wager(F(0))
        existing.stake = total
        existing.comm += due

    def check_offered(self, name: str, pl: Player) -> None:
        if name not in PERMITTED[self.profile]:
            raise Refused(f"not permitted by {self.profile}")
        if name == "six_seven_eight" and not self.s678:
            raise Refused("6-7-8 not offered")
        if name == "fire" and self.mini:
            raise Refused("no fire bet at mini-craps")
        if self.mini and not pl.seated:
            raise Refused("not seated")
        if name in ODDS_WAGERS and self.odds == "none":
            raise Refused("no free odds")

    def check_timing(self, key: tuple[Any, ...]) -> None:
        name = key[0]
        if name in ("pass", "dont_pass") and self.point is not None:
            raise Refused("line bets only before a come-out roll")
        if name in ("come", "dont_come"):
            if self.point is None:
                raise Refused("come bets only while a point is established")
            if key[1] is not None:
                raise Refused("come bets are not put on numbers")

    def flat_for_odds(self, key: tuple[Any, ...],
                      ws: dict[tuple[Any, ...], Wager]) -> tuple[Wager | None, int]:
        """An odds bet's flat bet and its number (None, 0 for any other wager)."""
        name = key[0]
        if name in ("pass_odds", "dont_pass_odds"):
            flat = ws.get((name[:-5],))
            if self.point is None or flat is None:
                raise Refused("no flat bet on a point")
            return flat, self.point
        if name in ("come_odds", "dont_come_odds"):
            n = key[1]
            flat = ws.get((name[:-5], n))
            if flat is None:
                raise Refused("no come bet on that number")
            return flat, n
        return None, 0

    def find(self, p: str, key: tuple[Any, ...]) -> tuple[Any, ...] | None:
        ws = self.wagers[p]
        if key[0] in ("come", "dont_come") and key[1] is None:
            if key in ws:
                return key
            on_numbers = [k for k in ws if k[0] == key[0] and k[1] is not None]
            return on_numbers[0] if len(on_numbers) == 1 else None
        return key if key in ws else None

    def remove(self, p: str, key0: tuple[Any, ...], amount: Fraction | None) -> None:
        key = self.find(p, key0)
        if key is None:
            raise Refused("no such wager")
        pl = self.players[p]
        ws = self.wagers[p]
        w = ws[key]
        name = key[0]
        if amount is not None and amount > w.stake:
            raise Refused("reduction larger than the wager")
        self.check_removable(key)
        behind = self.odds_behind(p, key)
        whole = amount is None or amount == w.stake
        if whole:
            if behind is not None:
                raise Refused("odds behind the flat bet")
            pl.bank += w.stake
            del ws[key]
        else:
            assert amount is not None
            self.reduce(key, w, amount, behind)
            pl.bank += amount
        if name == "dont_pass":
            pl.block_dp = True
        elif name == "dont_come":
            pl.block_dc = True

    def check_removable(self, key: tuple[Any, ...]) -> None:
        name = key[0]
        if name == "fire":
            raise Refused("a fire bet cannot be removed")
        if name == "pass" and self.point is not None:
            raise Refused("pass bet on its point")
        if name == "come" and key[1] is not None:
            raise Refused("come bet on its point")

    def reduce(self, key: tuple[Any, ...], w: Wager, amount: Fraction,
               behind: tuple[tuple[Any, ...], Wager] | None) -> None:
        """Take ``amount`` off the wager: what stays must be a valid wager, and enough for the
        odds behind it."""
        rest = w.stake - amount
        if not self.valid_stake(key, rest):
            raise Refused("what stays is not a valid wager")
        if behind is not None:
            n = key[1] if key[0] == "dont_come" else self.point
            assert n is not None
            if not self.odds_ok(behind[0][0], n, rest, behind[1].stake):
                raise Refused("the odds need the flat bet")
        w.stake = rest
        w.reduced = True

    def onoff(self, p: str, key0: tuple[Any, ...], on: bool) -> None:
        key = self.find(p, key0)
        if key is None:
            raise Refused("no such wager")
        if not self.off_by_default(key[0]):
            raise Refused("on/off only for wagers off on the come-out")
        self.wagers[p][key].on = on

    def end_hand(self) -> None:
        count = len(self.made)
        for p, ws in self.wagers.items():
            w = ws.pop(("fire",), None)
            if w is not None and count >= 4:
                self.players[p].bank += w.stake * (1 + self.pay(f"fire:{count}"))
        self.made = set()
        self.hand_rolls = 0

    def pass_dice(self, p: str) -> None:
        if self.point is not None:
            raise Refused("only between decisions")
        if p == self.shooter:
            return
        if self.hand_rolls > 0:
            self.end_hand()
        self.shooter = p

    def roll(self, d1: int, d2: int) -> None:
        r = Throw(d1, d2, self.point)
        for p, ws in self.wagers.items():
            self.players[p].bank += self._settle_player(ws, r)
        self._after_roll(r.t, r.pt, r.co)

    def _settle_player(self, ws: dict[tuple[Any, ...], Wager], r: Throw) -> Fraction:
        """Settle one player's wagers on the throw; what goes back to the player's hand."""
        bank = F(0)
        moves: list[tuple[tuple[Any, ...], Wager]] = []
        for key, w in list(ws.items()):
            name = key[0]
            if name == "fire":
                continue
            if name in SPLIT_PARTS:
                bank += self._split_win(name, key, w.stake, r.t)
                del ws[key]
                continue
            decide = DECISIONS.get(name)
            if decide is None:  # pragma: no cover
                raise AssertionError(name)
            res, ratio = decide(self, key, w, r)
            bank += self._pay_out(res, ratio, key, w, ws)
            if res == "move":
                moves.append(((name, r.t), w))
        for nk, w in moves:
            if nk in ws:
                ws[nk].stake += w.stake
            else:
                ws[nk] = w
        return bank

    def _split_win(self, name: str, key: tuple[Any, ...], s: Fraction, t: int) -> Fraction:
        """A bet split over several one-roll wagers (horn, whirl, C and E): the winning part's
        share with its winnings; the bet comes down either way."""
        part = s / SPLIT_PARTS[name]
        pk = HORN_KEYS.get(t)
        if name == "c_and_e":
            pk = "any_craps" if t in (2, 3, 12) else "yo_11" if t == 11 else None
        if name == "whirl" and t == 7:
            pk = "any_seven"
        if pk is None:
            return F(0)
        share = part * (2 if name == "horn_high" and t == key[1] else 1)
        return share * (1 + self.pay(pk))

    def _pay_out(self, res: str | None, ratio: Fraction, key: tuple[Any, ...], w: Wager,
                 ws: dict[tuple[Any, ...], Wager]) -> Fraction:
        """Carry out a decision: "win" (down), "lose", "ret", "stay", "move" (down here, put
        back where it goes by the caller); what goes back to the hand."""
        s = w.stake
        if res in ("win", "lose", "ret", "move"):
            del ws[key]
        if res == "win":
            return s * (1 + ratio)
        if res == "ret":
            return s
        if res != "stay":
            return F(0)
        win = s * ratio
        if key[0] in ("buy", "lay"):
            c = self.commission(key, s)
            win -= c
            if self.vig_at == "placement":
                # what it pays again to stay up is what now covers the standing bet
                w.comm = c
        return win

    def _after_roll(self, t: int, pt: int | None, co: bool) -> None:
        """The table after the throw: the blocks on don't bets, the point, the hand."""
        decision = (co and t in (2, 3, 7, 11, 12)) or (not co and t in (pt, 7))
        for pl in self.players.values():
            pl.block_dc = False
            if decision:
                pl.block_dp = False
        self.hand_rolls += 1
        if co:
            if t in NUMBERS:
                self.point = t
        elif t == pt:
            self.point = None
            self.made.add(pt)
            if len(self.made) == 6:
                count_six = self.made
                self.end_hand_fire_only(count_six)
        elif t == 7:
            self.point = None
            self.end_hand()
            self.shooter = self.order[(self.order.index(self.shooter) + 1) % len(self.order)]

    def end_hand_fire_only(self, made: set[int]) -> None:
        for p, ws in self.wagers.items():
            w = ws.pop(("fire",), None)
            if w is not None:
                self.players[p].bank += w.stake * (1 + self.pay(f"fire:{len(made)}"))

    def result(self) -> dict[str, Any]:
        return {
            "players": {p: {"bankroll": fmt(pl.bank),
                            "on_table": fmt(sum((w.stake for w in self.wagers[p].values()), F(0)))}
                        for p, pl in self.players.items()},
            "state": {"point": self.point, "shooter": self.shooter},
        }


@dataclass(frozen=True)
class Throw:
    """A throw of the dice at a table whose point was ``point``."""

    d1: int
    d2: int
    pt: int | None

    @property
    def t(self) -> int:
        return self.d1 + self.d2

    @property
    def hard(self) -> bool:
        return self.d1 == self.d2

    @property
    def co(self) -> bool:
        return self.pt is None


Decision = tuple[str | None, Fraction]  # "win" (down), "lose", "ret", "stay", "move"; the pay


def _line(win: tuple[int | None, ...], lose: tuple[int | None, ...], t: int) -> str | None:
    return "win" if t in win else "lose" if t in lose else None


def _pass(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    res = _line((7, 11), (2, 3, 12), r.t) if r.co else _line((r.pt,), (7,), r.t)
    return res, g.pay("pass")


def _dont_pass(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    res = _line((2, 3), (7, 11), r.t) if r.co else _line((7,), (r.pt,), r.t)
    return res, g.pay("dont_pass")


def _pass_odds(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    return _line((r.pt,), (7,), r.t), g.pay(f"pass_odds:{r.pt}")


def _dont_pass_odds(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    return _line((7,), (r.pt,), r.t), g.pay(f"dont_pass_odds:{r.pt}")


def _come(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    t = r.t
    if key[1] is None:
        res = "win" if t in (7, 11) else "lose" if t in (2, 3, 12) else "move"
    else:
        res = _line((key[1],), (7,), t)
    return res, g.pay("come")


def _dont_come(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    t = r.t
    if key[1] is None:
        res = ("win" if t in (2, 3) else "lose" if t in (7, 11)
               else None if t == 12 else "move")
    else:
        res = _line((7,), (key[1],), t)
    return res, g.pay("dont_come")


def _come_odds(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    res = _line((key[1],), (7,), r.t)
    if res and r.co and not w.on:
        res = "ret"
    return res, g.pay(f"come_odds:{key[1]}")


def _dont_come_odds(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    return _line((7,), (key[1],), r.t), g.pay(f"dont_come_odds:{key[1]}")


def _place_win(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    res = None
    if not r.co or w.on:
        res = "stay" if r.t == key[1] else "lose" if r.t == 7 else None
    return res, g.pay(f"{key[0]}:{key[1]}")


def _place_lose(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    res = "stay" if r.t == 7 else "lose" if r.t == key[1] else None
    return res, g.pay(f"{key[0]}:{key[1]}")


def _hard(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    res = None
    if g.profile != N69F or not r.co or w.on:
        if r.t == key[1]:
            res = "stay" if r.hard else "lose"
        elif r.t == 7:
            res = "lose"
    return res, g.pay(f"hard:{key[1]}")


def _field(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    t = r.t
    res = "win" if t in (2, 3, 4, 9, 10, 11, 12) else "lose"
    return res, g.pay("field:2" if t == 2 else "field:12" if t == 12 else "field")


def _hop(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    res = "win" if tuple(sorted((r.d1, r.d2))) == key[1] else "lose"
    a, b = key[1]
    return res, g.pay(f"hop:{a}-{b}")


def _six_seven_eight(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
    res = "win" if r.t in (6, 7, 8) else "lose"
    return res, g.pay("six_seven_eight:hard" if r.hard and r.t in (6, 8) else "six_seven_eight")


def _one_roll(name: str) -> Any:
    def decide(g: Craps, key: tuple[Any, ...], w: Wager, r: Throw) -> Decision:
        return ("win" if ONE_ROLL_SIMPLE[name](r.t, r.hard) else "lose"), g.pay(name)
    return decide


# How each wager is decided on a throw (split bets and the fire bet are settled apart).
DECISIONS: dict[str, Any] = {
    "pass": _pass, "dont_pass": _dont_pass, "pass_odds": _pass_odds,
    "dont_pass_odds": _dont_pass_odds, "come": _come, "dont_come": _dont_come,
    "come_odds": _come_odds, "dont_come_odds": _dont_come_odds,
    "place_win": _place_win, "buy": _place_win, "place_lose": _place_lose, "lay": _place_lose,
    "hard": _hard, "field": _field, "hop": _hop, "six_seven_eight": _six_seven_eight,
    **{name: _one_roll(name) for name in ONE_ROLL_SIMPLE},
}


# ----------------------------------------------------------------------------- roulette

AMERICAN: list[int | str] = [0, 28, 9, 26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1, "00",
                             27, 10, 25, 29, 12, 8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2]
EUROPEAN: list[int | str] = [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24,
                             16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26]
REDS = {1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36}
ROULETTE_PAYS = {
    "straight": F(35), "split": F(17), "three_numbers": F(11), "four_numbers": F(8),
    "first_five": F(6), "six_numbers": F(5), "seven_numbers": F(4), "column": F(2), "dozen": F(2),
    "red": F(1), "black": F(1), "odd": F(1), "even": F(1), "low": F(1), "high": F(1),
}
EVEN_MONEY = {
    "red": set(REDS), "black": set(range(1, 37)) - REDS,
    "odd": {n for n in range(1, 37) if n % 2}, "even": {n for n in range(1, 37) if n % 2 == 0},
    "low": set(range(1, 19)), "high": set(range(19, 37)),
}
LIST_WAGERS = {"straight": 1, "split": 2, "three_numbers": 3, "four_numbers": 4, "six_numbers": 6}


def layout(double_zero: bool) -> dict[str, set[frozenset[Any]]]:
    fs = frozenset
    splits: set[frozenset[Any]] = set()
    for n in range(1, 37):
        if n % 3:
            splits.add(fs({n, n + 1}))
        if n <= 33:
            splits.add(fs({n, n + 3}))
    streets = {fs({3 * r - 2, 3 * r - 1, 3 * r}) for r in range(1, 13)}
    corners = {fs({n, n + 1, n + 3, n + 4}) for n in range(1, 33) if n % 3}
    lines = {fs(range(3 * r - 2, 3 * r + 4)) for r in range(1, 12)}
    if double_zero:
        splits |= {fs({0, 1}), fs({0, 2}), fs({"00", 2}), fs({"00", 3}), fs({0, "00"})}
        streets |= {fs({0, 1, 2}), fs({0, 2, "00"}), fs({"00", 2, 3})}
    else:
        splits |= {fs({0, 1}), fs({0, 2}), fs({0, 3})}
        streets |= {fs({0, 1, 2}), fs({0, 2, 3})}
        corners |= {fs({0, 1, 2, 3})}
    return {"straight": {fs({n}) for n in [*range(37), *(["00"] if double_zero else [])]},
            "split": splits, "three_numbers": streets, "four_numbers": corners, "six_numbers": lines}


def roulette_number(v: Any, where: str) -> int | str:
    if v == "00" and isinstance(v, str):
        return "00"
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 36:
        raise Malformed(f"{where}: not a roulette number: {v!r}")
    return v


class Roulette:
    def __init__(self, doc: dict[str, Any]) -> None:
        opts = _options(doc, {"wheel", "zero_rule", "five_adjacent", "seven_numbers", "unit",
                              "min_bet", "max_bet", "pays"})
        self.wheel = opts.get("wheel", "double-zero")
        if self.wheel not in ("double-zero", "single-zero", "double-zero-as-single"):
            raise Malformed("options.wheel")
        self.zero_rule = opts.get("zero_rule", "full")
        if self.zero_rule not in ("half", "full"):
            raise Malformed("options.zero_rule")
        if self.zero_rule == "half" and self.wheel != "double-zero":
            raise Malformed("options.zero_rule: half only on a double-zero wheel")
        for o in ("five_adjacent", "seven_numbers"):
            if not isinstance(opts.get(o, True), bool):
                raise Malformed(f"options.{o}")
        self.five_adjacent = opts.get("five_adjacent", True)
        self.seven_numbers = opts.get("seven_numbers", True)
        self.unit, self.min_bet, self.max_bet = _limits(opts)
        self.pays = _pays(opts, ROULETTE_PAYS)
        self.players = _players(doc)
        self.wagers: dict[str, dict[tuple[Any, ...], tuple[Fraction, frozenset[Any]]]] = {
            p: {} for p in self.players}
        self.dz = self.wheel != "single-zero"
        self.layout = layout(self.dz)
        self.pockets = AMERICAN if self.dz else EUROPEAN
        self.last: int | str | None = None

    def covered(
        self, p: str, name: str, a: dict[str, Any], where: str
    ) -> tuple[tuple[Any, ...], frozenset[Any]]:
        """The wager's key and the numbers it covers; Refused if not on this layout."""
        if name in LIST_WAGERS:
            s = self.listed(name, a, where)
            return (name, s), s
        if name == "first_five":
            if self.wheel != "double-zero":
                raise Refused("first five only on a double-zero wheel")
            s = frozenset({0, "00", 1, 2, 3})
            return (name,), s
        if name == "five_adjacent":
            c = roulette_number(a.get("center"), f"{where}.center")
            return (name, c), self.adjacent(c)
        if name == "seven_numbers":
            if not self.seven_numbers:
                raise Refused("seven numbers not offered")
            return (name,), frozenset({10, 11, 12, 13, 14, 15, 33})
        if name == "column":
            c = _int_in(a.get("column"), (1, 2, 3), f"{where}.column")
            return (name, c), frozenset(n for n in range(1, 37) if (n - 1) % 3 == c - 1)
        if name == "dozen":
            d = _int_in(a.get("dozen"), (1, 2, 3), f"{where}.dozen")
            return (name, d), frozenset(range(12 * d - 11, 12 * d + 1))
        return (name,), frozenset(EVEN_MONEY[name])

    def listed(self, name: str, a: dict[str, Any], where: str) -> frozenset[Any]:
        """The numbers a wager on listed numbers (straight up to six numbers) covers."""
        nums = a.get("numbers")
        if not isinstance(nums, list):
            raise Malformed(f"{where}.numbers: not a list")
        ns = [roulette_number(x, f"{where}.numbers[{j}]") for j, x in enumerate(nums)]
        s = frozenset(ns)
        if len(s) != len(ns):  # the chips are not on that wager's spot: refused (20.32(e))
            raise Refused("a number listed twice")
        self.no_00(s)
        if len(ns) != LIST_WAGERS[name] or s not in self.layout[name]:
            raise Refused("not that wager on the layout")
        return s

    def adjacent(self, c: int | str) -> frozenset[Any]:
        """The five pockets centred on ``c`` on the wheel."""
        self.no_00(frozenset({c}))
        if not self.five_adjacent:
            raise Refused("five adjacent not offered")
        k = self.pockets.index(c)
        m = len(self.pockets)
        s = frozenset(self.pockets[(k + d) % m] for d in range(-2, 3))
        self.no_00(s)
        return s

    def no_00(self, s: frozenset[Any]) -> None:
        if "00" in s and self.wheel != "double-zero":
            raise Refused("00 not on this wheel / not taken")

    def act(self, i: int, a: Any) -> None:
        where = f"actions[{i}]"
        if not isinstance(a, dict):
            raise Malformed(f"{where}: not an object")
        keys = {k for k in a if not is_annotation(k)}
        verbs = keys & {"bet", "remove", "spin"}
        if len(verbs) != 1:
            raise Malformed(f"{where}: not one action")
        verb = verbs.pop()
        if verb == "spin":
            self.act_spin(a, where)
        else:
            self.act_wager(verb, a, where)

    def act_spin(self, a: dict[str, Any], where: str) -> None:
        """A spin: the ball's number, or no spin (void) where the spin does not count."""
        _check_keys(a, {"spin", "revolutions", "same_direction", "foreign_object"}, where)
        n = roulette_number(a["spin"], f"{where}.spin")
        if n == "00" and not self.dz:
            raise Malformed(f"{where}.spin: 00 on a single-zero wheel")
        void = False
        if a.get("revolutions") is not None:  # croupier's reading: null is "not given"
            r = a["revolutions"]
            if isinstance(r, bool) or not isinstance(r, int) or r < 0:
                raise Malformed(f"{where}.revolutions")
            void |= r < 4
        for flag in ("same_direction", "foreign_object"):
            if flag in a:
                if not isinstance(a[flag], bool):
                    raise Malformed(f"{where}.{flag}")
                void |= a[flag]
        if n == "00" and self.wheel == "double-zero-as-single":
            void = True
        if not void:
            self.spin(n)

    def act_wager(self, verb: str, a: dict[str, Any], where: str) -> None:
        """A player's bet or removal."""
        p = a.get("player")
        if not isinstance(p, str) or p not in self.players:
            raise Malformed(f"{where}.player: unknown player")
        name = a[verb]
        if not isinstance(name, str) or (name not in ROULETTE_PAYS and name != "five_adjacent"):
            raise Malformed(f"{where}.{verb}: unknown wager {name!r}")
        qual = {"numbers"} if name in LIST_WAGERS else {"center"} if name == "five_adjacent" else \
            {name} if name in ("column", "dozen") else set()
        _check_keys(a, {"player", verb} | qual | ({"amount"} if verb == "bet" else set()), where)
        if verb == "bet":
            if "amount" not in a:
                raise Malformed(f"{where}.amount: missing")
            amount = money(a["amount"], f"{where}.amount")
        key, s = self.covered(p, name, a, where)
        ws = self.wagers[p]
        if verb == "remove":
            if key not in ws:
                raise Refused("no such wager")
            self.players[p].bank += ws.pop(key)[0]
            return
        existing = ws[key][0] if key in ws else F(0)
        total = existing + amount
        self.check_stake(name, total)
        pl = self.players[p]
        if amount > pl.bank:
            raise Refused("not enough chips")
        pl.bank -= amount
        ws[key] = (total, s)

    def check_stake(self, name: str, total: Fraction) -> None:
        """A wager's whole stake: within the limits, in units, and payable in units."""
        u = self.unit
        if not multiple(total, u) or total < self.min_bet:
            raise Refused("stake")
        if self.max_bet is not None and total > self.max_bet:
            raise Refused("over max")
        share = total / 5 if name == "five_adjacent" else total
        if not multiple(share, u):
            raise Refused("five adjacent in multiples of five units")
        if not multiple(share * self.pays["straight" if name == "five_adjacent" else name], u):
            raise Refused("cannot be paid")
        if name in EVEN_MONEY and self.zero_rule == "half" and not multiple(total / 2, u):
            # croupier's reading, adopted: the half returned on 0/00 must be payable too
            raise Refused("half cannot be returned")

    def spin(self, n: int | str) -> None:
        self.last = n
        for p, ws in self.wagers.items():
            pl = self.players[p]
            for key, (stake, s) in ws.items():
                name = key[0]
                if name == "five_adjacent":
                    if n in s:
                        pl.bank += stake / 5 * (1 + self.pays["straight"])
                elif n in s:
                    pl.bank += stake * (1 + self.pays[name])
                elif name in EVEN_MONEY and n in (0, "00") and self.zero_rule == "half":
                    pl.bank += stake / 2
            ws.clear()

    def result(self) -> dict[str, Any]:
        return {
            "players": {p: {"bankroll": fmt(pl.bank),
                            "on_table": fmt(sum((w[0] for w in self.wagers[p].values()), F(0)))}
                        for p, pl in self.players.items()},
            "state": {"last_number": self.last},
        }


# ----------------------------------------------------------------------------- replay

GAMES = {"craps": PROFILES, "mini-craps": PROFILES, "roulette": (CN,)}


def start(doc: Any) -> Craps | Roulette:
    if not isinstance(doc, dict):
        raise Malformed("not an object")
    # croupier's reading, adopted (the contract is silent): other top-level keys are ignored
    # and a missing "actions" is an empty list
    game, rules = doc.get("game"), doc.get("rules")
    if not isinstance(game, str) or not isinstance(rules, str) or game not in GAMES:
        raise Malformed("game")
    if rules not in PROFILES or rules not in GAMES[game]:
        raise Malformed("rules")
    if not isinstance(doc.setdefault("actions", []), list):
        raise Malformed("actions")
    return Roulette(doc) if game == "roulette" else Craps(doc)


def step(table: Craps | Roulette, i: int, action: Any) -> bool:
    """Apply one action; False if it was refused. Raises Malformed."""
    try:
        table.act(i, action)
    except Refused:
        return False
    return True


def replay(doc: Any) -> dict[str, Any]:
    table = start(doc)
    rejected = [i for i, a in enumerate(doc["actions"]) if not step(table, i, a)]
    out = table.result()
    out["rejected"] = rejected
    return out
