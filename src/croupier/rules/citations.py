"""What croupier reads into the regulations, as data: ``readings.toml`` beside the profiles.

It holds, per profile, the clause a refusal cites where no rule-profile key names one
(``cite``), and, per clause, the status the traceability matrix cannot see in the rule
profiles: an interpretation with the reading chosen, a physical duty with the record or
procedure that serves it, a partial or missing implementation with why, or the code that
implements it (an explicit annotation). A reading of the replay contract, where no clause of
the profile's text says it, is keyed ``replay contract: ...``.

>>> cite("nj-casino-night", "odds_wording"), cite("nj-19-47", "pass_dice")
('N.J.A.C. 13:47-20.25(i)1', 'replay contract: Shooters')
>>> load_readings()["clauses"]["replay contract: Removal"]["status"]
'interpretation'
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


def cite(profile_id: str, duty: str) -> str:
    """The clause (or contract reading) a refusal of ``duty`` cites under ``profile_id``."""
    return str(load_readings()["citations"][profile_id][duty])
