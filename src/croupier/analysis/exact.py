"""Exact house edge, variance and time to a decision, from the engine's own wager definitions.

Each wager is a Markov chain over its own states (the point of a line bet, the points made by
a fire bet's shooter, ...). From the state the wager is made in, the 36 equally likely rolls
(or the pockets of the wheel) are fed to the wager's pure decision function; a win, a loss or
a push absorbs, a move goes to another state and an undecided roll stays. The chain is solved
exactly with :class:`fractions.Fraction`, one strongly connected component at a time.

Conventions (the ``croupier edge`` help says the same):

* **one decision**: a standing bet (place, buy, lay, hardway, ...) is counted until it first wins
  or loses, and is always working (never off on the come-out);
* **house edge per bet made** = expected net loss / what the player puts at risk when the wager
  is made (the stake, plus any commission paid at placement); **per bet resolved** divides by
  the probability that the bet is not a push as well;
* **a push** is a decided bet that returned its stake: a don't pass or don't come meeting a 12
  on its first roll (void for that roll, N.J.A.C. 13:69F-1.2(a)2iii and 4iii, 13:47-20.25(h)1ii(3)
  and iv(3), 19:47-1.2(a)2iii and 4iii); a split wager whose winning part exactly pays for its
  losing parts (a whirl on 7) is one too;
* **commission** is the exact rate on the stake (buy; lay under 13:69F-1.5(b)) or on what the bet
  could win (lay under 13:47-20.25(k)), per unit staked, without the engine's rounding down to
  the table unit. Collected at placement it is paid once per decision (the engine takes it again
  out of a win to keep the bet up: that pays for the next decision); collected on a win it
  comes out of the winnings;
* a roulette spin that is "no spin" (a ball in 00 on a double-zero wheel used as a single-zero
  wheel, 13:47-20.32(i)2) is spun again: it is not a decision.

>>> from croupier.rules import load_profile
>>> from croupier.craps.config import CrapsConfig
>>> cfg = CrapsConfig.from_options(load_profile("nj-13-69f"), {})
>>> row = analyse_craps_wager(cfg, "pass")
>>> row.house_edge, row.expected_rolls
(Fraction(7, 495), Fraction(557, 165))
>>> analyse_craps_wager(cfg, "place_win", 6).house_edge
Fraction(1, 66)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from croupier.craps.config import CrapsConfig
from croupier.craps.wagers import WAGERS, Lose, Move, Qualifier, WagerDef, Win
from croupier.dice import OUTCOMES, P_OUTCOME, POINTS
from croupier.money import Odds
from croupier.rules import CommissionTiming

ZERO = Fraction(0)
ONE = Fraction(1)


# --- the generic chain ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class End:
    """An absorbing outcome: ``label`` (``win:pass``, ``lose``, ``push``) and the net result per
    unit staked (commission included)."""

    label: str
    net: Fraction


@dataclass(frozen=True, slots=True)
class Next:
    """The chain goes on from ``state``."""

    state: Hashable


Step = Callable[[Hashable], Iterable[tuple[Fraction, End | Next]]]


@dataclass(frozen=True)
class ChainResult:
    """Where a chain ends (probability of each :class:`End`) and the expected number of steps."""

    ends: dict[End, Fraction]
    steps: Fraction
    states: int


def solve_chain(start: Hashable, step: Step) -> ChainResult:
    """Absorption probabilities and expected steps of the chain ``step`` started at ``start``.

    ``step(state)`` lists ``(probability, End | Next)``; the probabilities of a state sum to 1.
    Solved exactly, strongly connected component by component (Tarjan's order is already
    sinks first), each by Gaussian elimination over fractions.

    >>> half = Fraction(1, 2)
    >>> r = solve_chain("a", lambda s: [(half, End("win", ONE)), (half, Next("a"))])
    >>> r.ends[End("win", ONE)], r.steps
    (Fraction(1, 1), Fraction(2, 1))
    """
    graph: dict[Hashable, dict[End | Next, Fraction]] = {}
    ends: dict[End, int] = {}
    todo = [start]
    while todo:
        state = todo.pop()
        if state in graph:
            continue
        moves: dict[End | Next, Fraction] = {}
        for p, target in step(state):
            moves[target] = moves.get(target, ZERO) + p
            if isinstance(target, Next):
                if target.state not in graph:
                    todo.append(target.state)
            elif target not in ends:
                ends[target] = len(ends)
        graph[state] = moves
    width = len(ends) + 1  # one column per end, the last for the expected number of steps
    value: dict[Hashable, list[Fraction]] = {}
    for component in _components(graph, start):
        _solve_component(component, graph, ends, width, value)
    start_value = value[start]
    return ChainResult({end: start_value[i] for end, i in ends.items()}, start_value[-1],
                       len(graph))


def _components(graph: Mapping[Hashable, Mapping[End | Next, Fraction]],
                start: Hashable) -> list[list[Hashable]]:
    """Strongly connected components of the state graph, sinks first (Tarjan, iterative)."""
    return _Tarjan(graph).components(start)


class _Tarjan:
    """Tarjan's strongly connected components, with an explicit stack of the states being
    visited (each with what is left of its successors) in place of recursion."""

    def __init__(self, graph: Mapping[Hashable, Mapping[End | Next, Fraction]]) -> None:
        self.graph = graph
        self.index: dict[Hashable, int] = {}
        self.low: dict[Hashable, int] = {}
        self.on_stack: set[Hashable] = set()
        self.stack: list[Hashable] = []
        self.work: list[tuple[Hashable, Iterable[Hashable]]] = []
        self.out: list[list[Hashable]] = []

    def enter(self, s: Hashable) -> None:
        self.index[s] = self.low[s] = len(self.index)
        self.stack.append(s)
        self.on_stack.add(s)
        self.work.append((s, iter([t.state for t in self.graph[s] if isinstance(t, Next)])))

    def components(self, start: Hashable) -> list[list[Hashable]]:
        self.enter(start)
        while self.work:
            node, children = self.work[-1]
            if not self.advance(node, children):
                self.leave(node)
        return self.out

    def advance(self, node: Hashable, children: Iterable[Hashable]) -> bool:
        """Enter ``node``'s next unvisited successor (False: none is left)."""
        for child in children:
            if child not in self.index:
                self.enter(child)
                return True
            if child in self.on_stack:
                self.low[node] = min(self.low[node], self.index[child])
        return False

    def leave(self, node: Hashable) -> None:
        """``node`` is done: its parent learns its low link; a root closes its component."""
        self.work.pop()
        if self.work:
            parent = self.work[-1][0]
            self.low[parent] = min(self.low[parent], self.low[node])
        if self.low[node] != self.index[node]:
            return
        component: list[Hashable] = []
        while True:
            member = self.stack.pop()
            self.on_stack.discard(member)
            component.append(member)
            if member == node:
                break
        self.out.append(component)


def _solve_component(component: list[Hashable],
                     graph: Mapping[Hashable, Mapping[End | Next, Fraction]],
                     ends: Mapping[End, int], width: int,
                     value: dict[Hashable, list[Fraction]]) -> None:
    """Solve x_s = sum p (end | x_t) + (0, ..., 0, 1) for the states s of one component."""
    pos = {s: i for i, s in enumerate(component)}
    n = len(component)
    rows: list[list[Fraction]] = []
    for s in component:
        coef = [ZERO] * n
        coef[pos[s]] = ONE
        rhs = [ZERO] * width
        rhs[-1] = ONE
        for target, p in graph[s].items():
            if isinstance(target, End):
                rhs[ends[target]] += p
            elif target.state in pos:
                coef[pos[target.state]] -= p
            else:
                known = value[target.state]
                for k in range(width):
                    rhs[k] += p * known[k]
        rows.append(coef + rhs)
    for col in range(n):  # Gauss-Jordan; the system is non-singular for an absorbing chain
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    for s in component:
        value[s] = rows[pos[s]][n:]


# --- what a wager's analysis says -----------------------------------------------------------


@dataclass(frozen=True)
class WagerAnalysis:
    """The exact figures of one wager, per unit staked, for one decision."""

    wager: str
    game: str
    ends: dict[End, Fraction]
    at_risk: Fraction
    expected_rolls: Fraction
    pay_keys: tuple[str, ...] = ()
    as_configured: bool = True
    notes: tuple[str, ...] = field(default=())

    @property
    def p_win(self) -> Fraction:
        return sum((p for e, p in self.ends.items() if e.net > 0), ZERO)

    @property
    def p_lose(self) -> Fraction:
        return sum((p for e, p in self.ends.items() if e.net < 0), ZERO)

    @property
    def p_push(self) -> Fraction:
        return sum((p for e, p in self.ends.items() if e.net == 0), ZERO)

    @property
    def expected_net(self) -> Fraction:
        """The player's expected result per unit staked (commission included)."""
        return sum((p * e.net for e, p in self.ends.items()), ZERO)

    @property
    def house_edge(self) -> Fraction:
        """Expected net loss / total at risk when the wager is made, per bet made."""
        return -self.expected_net / self.at_risk

    @property
    def house_edge_resolved(self) -> Fraction:
        """The house edge per bet resolved: pushes left out."""
        decided = 1 - self.p_push
        return self.house_edge / decided if decided else ZERO

    @property
    def variance(self) -> Fraction:
        """Variance of the net result per unit staked."""
        mean = self.expected_net
        return sum((p * e.net * e.net for e, p in self.ends.items()), ZERO) - mean * mean

    @property
    def sd(self) -> float:
        """Standard deviation of the net result per unit staked."""
        return math.sqrt(self.variance)

    def probability(self, label: str) -> Fraction:
        """The probability of the end labelled ``label`` (``win:fire:4``)."""
        return sum((p for e, p in self.ends.items() if e.label == label), ZERO)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object: exact fractions as ``"p/q"`` strings, statistics as numbers."""
        out: dict[str, Any] = {
            "wager": self.wager,
            "game": self.game,
            "house_edge_exact": show_fraction(self.house_edge),
            "house_edge": float(self.house_edge),
            "house_edge_percent": float(self.house_edge * 100),
            "house_edge_resolved_exact": show_fraction(self.house_edge_resolved),
            "house_edge_resolved": float(self.house_edge_resolved),
            "p_win": show_fraction(self.p_win),
            "p_lose": show_fraction(self.p_lose),
            "p_push": show_fraction(self.p_push),
            "at_risk_per_unit": show_fraction(self.at_risk),
            "variance_exact": show_fraction(self.variance),
            "sd": self.sd,
            "expected_rolls_exact": show_fraction(self.expected_rolls),
            "expected_rolls": float(self.expected_rolls),
            "as_configured": self.as_configured,
            "outcomes": {e.label: show_fraction(p) for e, p in sorted(
                self.ends.items(), key=lambda item: (-item[0].net, item[0].label))},
        }
        if self.notes:
            out["notes"] = list(self.notes)
        if self.wager.startswith("fire:"):
            out["fire_points"] = {str(k): show_fraction(self.probability(f"win:fire:{k}"))
                                  for k in (4, 5, 6)}
        return out


def show_fraction(value: Fraction) -> str:
    """``"p/q"`` in lowest terms (``Fraction`` keeps them so); ``"p/1"`` for a whole number.

    >>> show_fraction(Fraction(27, 1980))
    '3/220'
    """
    return f"{value.numerator}/{value.denominator}"


# --- craps ----------------------------------------------------------------------------------


def _craps_step(d: WagerDef, qualifier: Qualifier, start: Hashable,
                pays: Mapping[str, Odds], win_commission: Fraction, placement: Fraction,
                ) -> Step:
    """The chain of one craps wager, from its own decision function."""
    void_on_first_roll = d.dont  # a don't bet meeting 12 on its first roll: void (a push)
    cache: dict[Hashable, list[tuple[Fraction, End | Next]]] = {}

    def step(state: Hashable) -> list[tuple[Fraction, End | Next]]:
        found = cache.get(state)
        if found is not None:
            return found
        out: list[tuple[Fraction, End | Next]] = []
        for d1, d2 in OUTCOMES:
            outcome = d.decide(qualifier, state, d1, d2)
            target: End | Next
            if isinstance(outcome, Win):
                target = End(f"win:{outcome.key}",
                             pays[outcome.key].ratio - win_commission - placement)
            elif isinstance(outcome, Lose):
                target = End("lose", -ONE - placement)
            elif isinstance(outcome, Move):
                target = Next(outcome.state)
            elif void_on_first_roll and state == start:
                target = End("push", -placement)
            else:
                target = Next(state)
            out.append((P_OUTCOME, target))
        cache[state] = out
        return out

    return step


def _split_step(d: WagerDef, qualifier: Qualifier, pays: Mapping[str, Odds]) -> Step:
    """A split wager (horn, whirl, C and E): its parts decided separately on one roll."""
    assert d.parts is not None
    parts = d.parts(qualifier)
    units = sum(p.units for p in parts)

    def step(_state: Hashable) -> list[tuple[Fraction, End | Next]]:
        out: list[tuple[Fraction, End | Next]] = []
        for d1, d2 in OUTCOMES:
            net = ZERO
            won: list[str] = []
            for part in parts:
                outcome = WAGERS[part.wager].decide(part.qualifier, None, d1, d2)
                share = Fraction(part.units, units)
                if isinstance(outcome, Win):
                    net += share * pays[outcome.key].ratio
                    won.append(outcome.key)
                else:
                    net -= share
            kind = "win" if net > 0 else "lose" if net < 0 else "push"
            out.append((P_OUTCOME, End(":".join([kind, *won]) if won else kind, net)))
        return out

    return step


def _commission_rates(cfg: CrapsConfig, case: CrapsCase, stake: Decimal | None,
                      ) -> tuple[Fraction, Fraction]:
    """(paid at placement, taken out of a win) per unit staked, for the case's wager: exactly
    the rate (on the stake, or on the win for lay where the profile bases it so,
    13:47-20.25(k)); at ``stake``, what the table takes, rounded down to its unit."""
    d = WAGERS[case.wager_id]
    if d.commission is None:
        return ZERO, ZERO
    if stake is None:
        rate = Fraction(cfg.vig) * cfg.commission_base(d.commission, case.qualifier, Fraction(1))
    else:
        rate = Fraction(cfg.commission(d.commission, case.qualifier, stake)) / Fraction(stake)
    timing = case.timing or cfg.commission_timing(case.wager_id, case.qualifier)
    if timing is CommissionTiming.PLACEMENT:
        return rate, ZERO
    return ZERO, rate


@dataclass(frozen=True)
class CrapsCase:
    """One row of the craps table: a wager with its qualifier (or the point line odds stand
    behind), the commission timing of buy and lay (``placement`` or ``win``; None: the
    table's), the pay table of the fire bet; ``key`` names the row (``buy:4:placement``)."""

    key: str
    wager_id: str
    qualifier: Qualifier = None
    point: int | None = None
    timing: CommissionTiming | None = None
    fire_table: str | None = None
    as_configured: bool = True

    def pay_keys(self) -> tuple[str, ...]:
        d = WAGERS[self.wager_id]
        return d.pay_keys(self.qualifier, d.initial_state(self.qualifier, self.point))


def analyse_craps_wager(cfg: CrapsConfig, wager_id: str, qualifier: Qualifier = None, *,
                        point: int | None = None, timing: CommissionTiming | None = None,
                        stake: Decimal | None = None) -> WagerAnalysis:
    """The exact analysis of one craps wager under ``cfg``'s pay table.

    ``point`` is the number line odds stand behind; ``timing`` (``"placement"`` or ``"win"``)
    when the commission of a buy or lay bet is collected (default: the table's for that bet).
    With ``stake``, the commission is what the table takes on that stake, rounded down to its
    unit as the engine rounds it, rather than the exact rate.

    >>> from croupier.rules import load_profile
    >>> cfg = CrapsConfig.from_options(load_profile("nj-13-69f"), {})
    >>> from croupier.rules import CommissionTiming
    >>> analyse_craps_wager(cfg, "buy", 4, timing=CommissionTiming.PLACEMENT).house_edge
    Fraction(1, 21)
    >>> analyse_craps_wager(cfg, "buy", 4, timing=CommissionTiming("placement"),
    ...                     stake=Decimal(19)).house_edge
    Fraction(0, 1)
    """
    d = WAGERS[wager_id]
    key = f"{wager_id}:{point}" if point is not None else d.label(
        qualifier, d.initial_state(qualifier, point))
    when = CommissionTiming(timing) if timing is not None else None  # a caller's "win" too
    return analyse_case(cfg, CrapsCase(key, wager_id, qualifier, point, when), stake=stake)


def craps_cases(cfg: CrapsConfig) -> list[CrapsCase]:
    """Every row the table offers (:meth:`CrapsConfig.offered`: profile, options, game): buy
    and lay under each commission timing the profile allows (``buy:4:placement``), the fire
    bet under each pay table (``fire:A``)."""
    cases: list[CrapsCase] = []
    fire_wagers = {key.split(":")[0] for key in _fire_keys(cfg)}
    for d in cfg.offered():
        if d.id in fire_wagers:
            cases.extend(CrapsCase(f"{d.id}:{t}", d.id, fire_table=t,
                                   as_configured=t == cfg.fire_pay_table)
                         for t in sorted(cfg.rules.fire_tables))
        elif d.odds_of is not None and d.qualifier is None:
            cases.extend(CrapsCase(f"{d.id}:{n}", d.id, point=n) for n in POINTS)
        elif d.commission is not None:
            cases.extend(CrapsCase(f"{d.label(q, None)}:{t}", d.id, q, timing=t,
                                   as_configured=t == cfg.commission_timing(d.id, q))
                         for q in d.domain for t in cfg.rules.vig_collected)
        elif d.qualifier is not None:
            cases.extend(CrapsCase(d.label(q, None), d.id, q) for q in d.domain)
        else:
            cases.append(CrapsCase(d.id, d.id))
    return cases


def _fire_keys(cfg: CrapsConfig) -> frozenset[str]:
    """The pay-table entries a choice of pay table sets (the profile's ``fire_tables``)."""
    return frozenset(key for table in cfg.rules.fire_tables.values() for key in table)


def analyse_case(cfg: CrapsConfig, case: CrapsCase, pays: Mapping[str, Odds] | None = None,
                 stake: Decimal | None = None) -> WagerAnalysis:
    """The analysis of one row, under ``pays`` (default: the table's pay table, with the
    case's fire pay table over it), at ``stake`` (default: per unit, the exact commission
    rate)."""
    table = dict(cfg.pays if pays is None else pays)
    if case.fire_table is not None and case.fire_table != cfg.fire_pay_table:
        table.update(cfg.rules.fire_tables[case.fire_table])
    d = WAGERS[case.wager_id]
    placement, win_commission = _commission_rates(cfg, case, stake)
    start = d.initial_state(case.qualifier, case.point)
    step = (_split_step(d, case.qualifier, table) if d.parts is not None
            else _craps_step(d, case.qualifier, start, table, win_commission, placement))
    result = solve_chain(start, step)
    return WagerAnalysis(case.key, "craps", result.ends, ONE + placement, result.steps,
                         d.pay_keys(case.qualifier, start), case.as_configured)


def analyse_craps(cfg: CrapsConfig, stake: Decimal | None = None,
                  refusal: Callable[[CrapsCase], str] | None = None) -> list[WagerAnalysis]:
    """Every wager the table offers, with every qualifier (see :func:`craps_cases`); at
    ``stake``, each row notes why the table would refuse that stake (``refusal``)."""
    rows = []
    for case in craps_cases(cfg):
        row = analyse_case(cfg, case, stake=stake)
        why = refusal(case) if refusal is not None else ""
        rows.append(replace(row, notes=(f"refused at this stake: {why}",)) if why else row)
    return rows


def fire_points(cfg: CrapsConfig) -> dict[int, Fraction]:
    """The exact probability that a shooter's hand makes 4, 5 and 6 different points (the
    highest count reached; the hand ends at the seven-out), from the fire bet's own chain.

    >>> from croupier.rules import load_profile
    >>> p = fire_points(CrapsConfig.from_options(load_profile("nj-13-69f"), {}))
    >>> round(float(p[4]), 6), round(float(p[5]), 6), round(float(p[6]), 6)
    (0.008798, 0.00164, 0.000162)
    """
    row = analyse_craps_wager(cfg, "fire")
    return {k: row.probability(f"win:fire:{k}") for k in (4, 5, 6)}


# --- roulette -------------------------------------------------------------------------------


def roulette_qualifiers(wager_id: str, wheel_id: str) -> list[Any]:
    """Every qualifier of a roulette wager on ``wheel_id`` whose numbers are all in play."""
    from croupier.roulette.layout import LAYOUTS
    from croupier.roulette.wagers import INDEX_DOMAIN
    from croupier.roulette.wagers import WAGERS as ROULETTE_WAGERS
    from croupier.roulette.wheel import WHEELS, pocket_key

    wager = ROULETTE_WAGERS[wager_id]
    wheel = WHEELS[wheel_id]
    candidates: list[Any]
    if wager.qualifier == "numbers":
        shapes = LAYOUTS[wheel.layout_id].shapes.get(wager_id, frozenset())
        candidates = sorted((tuple(sorted(c, key=pocket_key)) for c in shapes),
                            key=lambda t: [pocket_key(p) for p in t])
    elif wager.qualifier == "center":
        candidates = sorted(wheel.in_play, key=pocket_key)
    elif wager.qualifier in ("column", "dozen"):
        candidates = list(INDEX_DOMAIN)
    else:
        candidates = [None]
    out = []
    for q in candidates:
        cover = wager.covers(q, wheel)
        if cover is not None and cover <= wheel.in_play:
            out.append(q)
    return out


def analyse_roulette_wager(wager_id: str, qualifier: Any, wheel_id: str, zero_rule: str,
                           pays: Mapping[str, Odds]) -> WagerAnalysis:
    """One roulette wager on one spin (a "no spin" pocket is spun again).

    >>> from croupier.rules import load_profile
    >>> pays = load_profile("nj-casino-night").roulette.pays
    >>> analyse_roulette_wager("straight", (17,), "double-zero", "full", pays).house_edge
    Fraction(1, 19)
    """
    from croupier.roulette.wagers import WAGERS as ROULETTE_WAGERS
    from croupier.roulette.wagers import decide
    from croupier.roulette.wheel import WHEELS

    wager = ROULETTE_WAGERS[wager_id]
    wheel = WHEELS[wheel_id]
    cover = wager.covers(qualifier, wheel)
    if cover is None:
        raise ValueError(f"{wager_id} {qualifier!r} is not a wager on a {wheel.name}")
    # A wager of several parts (five adjacent) is that many straights, one per number.
    parts = [frozenset({n}) for n in cover] if wager.parts > 1 else [cover]
    share = Fraction(1, len(parts))
    p_pocket = Fraction(1, len(wheel.pockets))

    def step(_state: Hashable) -> list[tuple[Fraction, End | Next]]:
        out: list[tuple[Fraction, End | Next]] = []
        for pocket in wheel.order:
            if pocket in wheel.void:
                out.append((p_pocket, Next(None)))
                continue
            net = ZERO
            labels = set()
            for part in parts:
                decision = decide(wager, part, pocket, zero_rule)
                if decision.outcome == "win":
                    assert decision.pay_key is not None
                    net += share * pays[decision.pay_key].ratio
                elif decision.outcome == "lose_half":
                    net -= share / 2
                else:
                    net -= share
                labels.add(decision.outcome)
            kind = "win" if net > 0 else "push" if net == 0 else (
                "lose_half" if labels == {"lose_half"} else "lose")
            out.append((p_pocket, End(kind, net)))
        return out

    result = solve_chain(None, step)
    return WagerAnalysis(wager_id, "roulette", result.ends, ONE, result.steps, (wager.pay_key,))


def analyse_roulette(profile_id: str, options: Mapping[str, Any]) -> list[WagerAnalysis]:
    """Every roulette wager the table offers (one representative qualifier each: on a given
    wheel every qualifier of a wager has the same figures, which the tests check)."""
    from croupier.roulette.reading import read_options
    from croupier.roulette.wagers import WAGERS as ROULETTE_WAGERS
    from croupier.rules import load_profile

    profile = load_profile(profile_id)
    config = read_options(dict(options), profile)
    rules = profile.roulette
    assert rules is not None
    pays = {**rules.pays, **config.pays}
    rows = []
    for wager in ROULETTE_WAGERS.values():
        if not rules.permits(wager.id):
            continue
        if wager.offered_by is not None and not getattr(config, wager.offered_by):
            continue
        if (config.approved_layout is not None and wager.id in rules.approved_layout_clauses
                and wager.id not in config.approved_layout):
            continue
        qualifiers = roulette_qualifiers(wager.id, config.wheel)
        if not qualifiers:
            continue
        rows.append(analyse_roulette_wager(wager.id, qualifiers[0], config.wheel,
                                           config.zero_rule, pays))
    return rows


def analyse(game: str, profile_id: str, options: Mapping[str, Any],
            stake: Decimal | None = None) -> list[WagerAnalysis]:
    """The whole table of ``game`` (any game of the registry, :mod:`croupier.games`), by its
    family's analysis (:mod:`croupier.analysis.family`); at ``stake``, a craps table's
    commission as it is really taken on that stake (rounded down to the unit) and, per row,
    whether the table takes that stake at all.

    Raises :class:`~croupier.errors.Malformed` for options the profile does not allow.
    """
    from croupier.analysis.family import open_table

    opened = open_table(game, profile_id, options)
    return opened.analysis.edges(opened, stake)
