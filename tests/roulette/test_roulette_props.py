"""Property tests on the table: chips are conserved, a refusal changes nothing, the event log
rebuilds the table, and a valid spin clears the layout while a void one leaves it."""

from __future__ import annotations

import contextlib
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import Refusal
from croupier.money import Odds
from croupier.roulette.events import Crowned, NoSpin
from croupier.roulette.layout import DOUBLE_ZERO_LAYOUT
from croupier.roulette.table import Action, PlaceBet, RemoveBet, RouletteTable, Spin, TableConfig
from croupier.roulette.wagers import WAGERS, Qualifier
from croupier.roulette.wheel import WHEELS, Pocket

POCKETS: list[Pocket] = [*range(37), "00"]
PLAYERS = ("ann", "bob")


@st.composite
def configs(draw: st.DrawFn) -> TableConfig:
    wheel = draw(st.sampled_from(sorted(WHEELS)))
    half = wheel == "double-zero" and draw(st.booleans())
    unit = draw(st.sampled_from([Decimal("1"), Decimal("0.25"), Decimal("5")]))
    pays = draw(st.sampled_from([{}, {"straight": Odds(71, 2)}, {"red": Odds(3, 2)}]))
    return TableConfig(
        wheel=wheel,
        zero_rule="half" if half else "full",
        five_adjacent=draw(st.booleans()),
        seven_numbers=draw(st.booleans()),
        unit=unit,
        max_bet=draw(st.sampled_from([None, Decimal("200")])),
        pays=pays,
    )


def _few_shapes(shape: str) -> list[tuple[Pocket, ...]]:
    """A handful of places on the double-zero layout (some not on the single-zero one), so
    that bets are often taken and removals often find their wager."""
    sets = sorted(DOUBLE_ZERO_LAYOUT.shapes[shape], key=lambda s: sorted(map(str, s)))
    return [tuple(sorted(s, key=str)) for s in sets[:: max(1, len(sets) // 4)]]


def numbers_for(wager_id: str) -> st.SearchStrategy[tuple[Pocket, ...]]:
    random_numbers = st.lists(st.sampled_from(POCKETS), min_size=1, max_size=6, unique=True)
    return st.one_of(st.sampled_from(_few_shapes(wager_id)), random_numbers.map(tuple))


def qualifier_for(wager_id: str) -> st.SearchStrategy[Qualifier]:
    kind = WAGERS[wager_id].qualifier
    if kind == "numbers":
        return numbers_for(wager_id)
    if kind == "center":
        return st.sampled_from([0, 1, 17, "00"])
    if kind in ("column", "dozen"):
        return st.integers(1, 3)
    return st.none()


@st.composite
def actions(draw: st.DrawFn, wheel: str) -> Action:
    kind = draw(st.sampled_from(["bet", "bet", "bet", "bet", "remove", "spin"]))
    if kind == "spin":
        number = draw(st.sampled_from(sorted(WHEELS[wheel].pockets, key=str)))
        irregular = draw(st.sampled_from(["", "", "", "revolutions", "foreign_object"]))
        return Spin(
            number,
            revolutions=2 if irregular == "revolutions" else None,
            foreign_object=irregular == "foreign_object",
        )
    wager = WAGERS[draw(st.sampled_from(sorted(WAGERS)))]
    qualifier = draw(qualifier_for(wager.id))
    player = draw(st.sampled_from(PLAYERS))
    if kind == "remove":
        return RemoveBet(player, wager.id, qualifier)
    amount = draw(st.sampled_from(["0.25", "0.50", "1", "2", "5", "5", "10", "10", "25", "150"]))
    return PlaceBet(player, wager.id, qualifier, Decimal(amount))


@st.composite
def sessions(draw: st.DrawFn) -> tuple[TableConfig, dict[str, Decimal], list[Action]]:
    config = draw(configs())
    bankrolls = {p: Decimal(draw(st.sampled_from(["20", "300", "5000"]))) for p in PLAYERS}
    acts = draw(st.lists(actions(config.wheel), min_size=3, max_size=40))
    return config, bankrolls, acts


def chips(table: RouletteTable) -> Decimal:
    """Chips in hand + chips on the layout + what the house has won."""
    return (
        sum(table.bankrolls.values(), Decimal(0))
        + sum((w.stake for w in table.wagers.values()), Decimal(0))
        + table.house
    )


@settings(max_examples=300, deadline=None)
@given(sessions())
def test_chips_are_conserved(session: tuple[TableConfig, dict[str, Decimal], list[Action]]) -> None:
    config, bankrolls, acts = session
    table = RouletteTable.open("nj-casino-night", config, bankrolls)
    total = sum(bankrolls.values(), Decimal(0))
    for action in acts:
        with contextlib.suppress(Refusal):
            table.act(action)
        assert chips(table) == total
        assert all(b >= 0 for b in table.bankrolls.values())


@settings(max_examples=300, deadline=None)
@given(sessions())
def test_refused_action_changes_nothing(
    session: tuple[TableConfig, dict[str, Decimal], list[Action]],
) -> None:
    config, bankrolls, acts = session
    table = RouletteTable.open("nj-casino-night", config, bankrolls)
    for action in acts:
        before, log_length = table.snapshot(), len(table.log)
        try:
            table.act(action)
        except Refusal as refusal:
            assert refusal.reason
            assert refusal.clause.startswith("N.J.A.C. 13:47-20.32(")
            assert table.snapshot() == before
            assert len(table.log) == log_length


@settings(max_examples=200, deadline=None)
@given(sessions())
def test_event_log_rebuilds_the_table(
    session: tuple[TableConfig, dict[str, Decimal], list[Action]],
) -> None:
    config, bankrolls, acts = session
    table = RouletteTable.open("nj-casino-night", config, bankrolls)
    for action in acts:
        with contextlib.suppress(Refusal):
            table.act(action)
        rebuilt = RouletteTable.from_events(list(table.log))
        assert rebuilt.snapshot() == table.snapshot()


@settings(max_examples=200, deadline=None)
@given(sessions())
@pytest.mark.clause("N.J.A.C. 13:47-20.32(l)",
                    "N.J.A.C. 13:47-20.32(m)",
                    "N.J.A.C. 13:47-20.32(d)3")
def test_valid_spin_decides_every_wager_and_void_spin_none(
    session: tuple[TableConfig, dict[str, Decimal], list[Action]],
) -> None:
    config, bankrolls, acts = session
    table = RouletteTable.open("nj-casino-night", config, bankrolls)
    for action in acts:
        before = table.snapshot()
        try:
            events = table.act(action)
        except Refusal:
            continue
        if isinstance(action, Spin):
            if isinstance(events[0], Crowned):
                assert table.wagers == {}
                results = [getattr(e, "result", None) for e in events[1:]]
                results = [r for r in results if r is not None]
                # 20.32(l): losers first, then winners
                assert results == sorted(results, key=lambda r: r == "win")
            else:
                assert [type(e) for e in events] == [NoSpin]
                assert table.snapshot() == before


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(WHEELS)), st.sampled_from(POCKETS), st.sampled_from(POCKETS))
@pytest.mark.clause("N.J.A.C. 13:47-20.32(e)1", "N.J.A.C. 13:47-20.32(f)")
def test_straight_up_pays_35_to_1_or_loses(wheel: str, pick: Pocket, ball: Pocket) -> None:
    """20.32(f): a straight of 1 returns 36 when its number comes up and nothing otherwise."""
    table = RouletteTable.open("nj-casino-night", TableConfig(wheel=wheel), {"a": Decimal(1)})
    try:
        table.act(PlaceBet("a", "straight", (pick,), Decimal(1)))
    except Refusal:
        assert pick not in WHEELS[wheel].in_play
        return
    if ball not in WHEELS[wheel].pockets:
        return
    table.act(Spin(ball))
    if ball in WHEELS[wheel].void:
        assert table.bankrolls["a"] == 0 and table.on_table("a") == 1
    else:
        assert table.bankrolls["a"] == (36 if ball == pick else 0)


def test_long_seeded_sessions_conserve_chips_and_rebuild() -> None:
    """A longer soak than hypothesis' examples: seeded random play of valid layout bets on
    every wheel; chips conserved after every action, every valid spin clears the layout, and
    the final log rebuilds the table."""
    import random

    for seed, wheel in enumerate(sorted(WHEELS) * 2):
        rng = random.Random(seed)
        half = wheel == "double-zero" and seed % 2 == 0
        config = TableConfig(wheel=wheel, zero_rule="half" if half else "full")
        table = RouletteTable.open("nj-casino-night", config, {p: Decimal(5000) for p in PLAYERS})
        total = chips(table)
        settled = 0
        for _ in range(1500):
            if rng.random() < 0.2:
                pockets = sorted(WHEELS[wheel].pockets, key=str)
                events = table.act(Spin(rng.choice(pockets)))
                if isinstance(events[0], Crowned):
                    assert table.wagers == {}
                settled += sum(1 for e in events if e.kind == "settle")
            else:
                wager = WAGERS[rng.choice(sorted(WAGERS))]
                shapes = DOUBLE_ZERO_LAYOUT.shapes.get(wager.id)
                qualifier: Qualifier = None
                if shapes:
                    qualifier = tuple(rng.choice(sorted(shapes, key=lambda s: sorted(map(str, s)))))
                elif wager.qualifier in ("column", "dozen"):
                    qualifier = rng.randint(1, 3)
                elif wager.qualifier == "center":
                    qualifier = rng.choice([0, 5, 17, 36])
                with contextlib.suppress(Refusal):
                    table.act(PlaceBet(rng.choice(PLAYERS), wager.id, qualifier,
                                       Decimal(rng.choice([2, 10, 20]))))
            assert chips(table) == total
        assert settled > 500
        assert RouletteTable.from_events(table.log).snapshot() == table.snapshot()
