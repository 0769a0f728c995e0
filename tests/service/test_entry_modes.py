"""How a table's results come (EntryMode) and where a round's outcome came from (DrawSource):
enums in the code, the same strings in the records, bodies and replies, and a ledger of an
older release (a generator named ``seeded:11``, a mode no member names) read as before."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, get_args

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.errors import Refusal
from croupier.service import controls, recall_text, register, rounds, store, voids
from croupier.service import events as sv
from croupier.service.api.models import NewTable
from croupier.service.controls import EntryMode
from croupier.service.live import PendingOutcome
from croupier.service.rng import DrawSource, SeededRng, make_rng


@pytest.fixture
def conn() -> Iterator[Connection]:
    engine = sa.create_engine("sqlite://")  # the house chain's tables alone, in process
    store.metadata.create_all(engine)
    with engine.begin() as connection:
        yield connection
    engine.dispose()


def test_the_body_of_a_new_table_takes_exactly_the_entry_modes() -> None:
    field = NewTable.model_fields["entry"]
    assert get_args(field.annotation) == tuple(m.value for m in EntryMode)
    assert field.default == EntryMode.RNG


def test_the_entry_mode_is_recorded_as_its_word_and_read_back_as_a_member(
        conn: Connection) -> None:
    assert controls.entry(conn, "t") is EntryMode.RNG  # no record: no entered result
    controls.set_entry(conn, "t", EntryMode.PHYSICAL, "admin")
    payload = conn.execute(sa.select(register.house_records.c.payload)).scalar_one()
    assert json.loads(payload) == {"table": "t", "entry": "physical"}
    assert '"entry":"physical"' in payload  # the record's text, as every release wrote it
    assert controls.entry(conn, "t") is EntryMode.PHYSICAL
    # A record naming no mode (edited, or of a release to come) fails closed: RNG only.
    register.append(conn, controls.ENTRY_KIND, controls.entry_subject("u"),
                    {"table": "u", "entry": "dice"}, "admin")
    assert controls.entry(conn, "u") is EntryMode.RNG
    with pytest.raises(Refusal, match="RNG table"):
        controls.entering(lambda c: None, "u")(conn)


def test_a_round_s_draw_names_its_source_in_the_words_of_every_release() -> None:
    draw = SeededRng(5).dice()
    assert draw.source is DrawSource.TEST_SEEDED and make_rng().source is DrawSource.OS
    drawn = PendingOutcome(1, sv.Drawn(draw.source, draw.raw, draw.outcome))
    entered = PendingOutcome(2, sv.Entered("dealer", (3, 4)))
    assert json.loads(json.dumps(rounds.draw_of(drawn)))["source"] == "insecure-test-seeded"
    assert json.dumps(rounds.draw_of(entered)) == \
        '{"source": "entered", "by": "dealer", "outcome": [3, 4]}'


@pytest.mark.parametrize(("draw", "rng", "text"), [
    ({"source": "entered", "by": "dealer", "outcome": [3, 4]}, False,
     "entered by dealer from the physical result"),
    ({"source": "seeded:11", "raw": [9, 200], "outcome": [4, 3]}, True,
     "seeded:11 generator, raw draws [9, 200]"),  # a draw of an older release's ledger
    ({"source": "os", "raw": [1, 2], "outcome": [2, 3]}, True, "os generator, raw draws [1, 2]"),
])
def test_a_recorded_draw_is_read_by_its_source(draw: dict[str, Any], rng: bool,
                                               text: str) -> None:
    # The outcome's own event in the chain, which the round's row shows as ``draw``.
    event: sv.Drawn | sv.Entered = (
        sv.Entered(str(draw["by"]), tuple(draw["outcome"])) if draw["source"] == "entered"
        else sv.Drawn(str(draw["source"]), tuple(draw["raw"]), tuple(draw["outcome"])))
    assert json.loads(json.dumps(rounds.draw_of(PendingOutcome(1, event)))) == draw
    assert voids._drawn(event) is rng  # an RNG outcome's void waits for a second supervisor
    assert recall_text._draw_text(draw) == text
