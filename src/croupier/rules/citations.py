"""What croupier reads into the regulations, as data: ``readings.toml`` beside the profiles.

It holds, per profile, the clause a refusal cites where no rule-profile key names one
(``cite``), and, per clause, the status the traceability matrix cannot see in the rule
profiles: an interpretation with the reading chosen, a physical duty with the record or
procedure that serves it, a partial or missing implementation with why, or the code that
implements it (an explicit annotation). A reading of the replay contract, where no clause of
the profile's text says it, is keyed ``replay contract: ...``. The clauses the live server
serves by a record are in ``records.toml`` instead: each clause is annotated in one of the two
files, never both (:func:`load_annotations` reads them together and refuses a clause named
twice).

>>> cite("nj-casino-night", "odds_wording"), cite("nj-19-47", "pass_dice")
('N.J.A.C. 13:47-20.25(i)1', 'replay contract: Shooters')
>>> load_readings()["clauses"]["replay contract: Removal"]["status"]
'interpretation'
>>> load_annotations()["13:47-20.25(e)5"]["status"]
'physical'
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

CONTRACT = "replay contract: "


@cache
def load_readings() -> dict[str, Any]:
    """The parsed ``readings.toml``: ``citations`` (profile -> duty -> clause) and ``clauses``."""
    text = resources.files("croupier.rules").joinpath("readings.toml").read_text("utf-8")
    return tomllib.loads(text)


@cache
def load_records() -> dict[str, Any]:
    """The parsed ``records.toml``: ``clauses`` (clause -> the record serving it)."""
    text = resources.files("croupier.rules").joinpath("records.toml").read_text("utf-8")
    return tomllib.loads(text)


def load_annotations() -> dict[str, dict[str, Any]]:
    """Every annotated clause (and contract reading) -> its entry, from ``readings.toml`` and
    ``records.toml`` together; a ``ValueError`` names a clause both files annotate (one
    source for each)."""
    readings = dict(load_readings()["clauses"])
    records = load_records()["clauses"]
    twice = sorted(set(readings) & set(records))
    if twice:
        raise ValueError("annotated in both readings.toml and records.toml: " + ", ".join(twice))
    return {**readings, **records}


def cite(profile_id: str, duty: str) -> str:
    """The clause (or contract reading) a refusal of ``duty`` cites under ``profile_id``."""
    return str(load_readings()["citations"][profile_id][duty])
