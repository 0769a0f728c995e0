"""Dice and their inspection records, checked against N.J.A.C. 13:47-20.25(b)2.

A die may be put in play only if its latest inspection passed. The measurable parts of the
specification are checked from the record: each side 0.750 to 0.775 inch; a perfect cube
(all sides equal within the tolerance measured); opposite sides 1-6, 2-5 and 3-4 (summing to
seven); every spot the same depth within 0.0004 inch; the rest (transparent cellulose, flat
sides, flush spots, square edges, equal texture and weight, equal spot diameters, the
provider's name) are attested by the inspector.

>>> ok = {"sides_inch": ["0.760"] * 3, "opposite_faces": [[1, 6], [2, 5], [3, 4]],
...       "spot_depths_inch": ["0.0200", "0.0203"], **{k: True for k in ATTESTED}}
>>> inspect(ok)
[]
>>> inspect({**ok, "sides_inch": ["0.740", "0.760", "0.760"]})[0]
'side 1 is 0.740 inch: a die is no smaller than 0.750 nor larger than 0.775 inch (N.J.A.C. 13:47-20.25(b)2i)'
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

CLAUSE = "N.J.A.C. 13:47-20.25(b)2"
MIN_SIDE = Decimal("0.750")
MAX_SIDE = Decimal("0.775")
SPOT_TOLERANCE = Decimal("0.0004")
DICE_OFFERED = 5
CHANGE_CLAUSE = "N.J.A.C. 13:47-20.25(g)8"

# What the inspector attests, and the clause of each.
ATTESTED: dict[str, str] = {
    "transparent_cellulose": "ii",
    "sides_flat_spots_flush": "iii",
    "edges_square": "iv",
    "texture_identical": "v",
    "weight_balanced": "vi",
    "spots_white_equal_diameter": "vii",
    "provider_name_imprinted": "ix",
}


def _decimal(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    try:
        dec = Decimal(str(value))
    except InvalidOperation:
        return None
    # A length in inches is a small number: an exponent like 9e999999999 would overflow the
    # arithmetic below, so it is not a length.
    return dec if dec.is_finite() and -12 <= dec.adjusted() <= 3 else None


def inspect(record: dict[str, Any]) -> list[str]:
    """Every way the inspection ``record`` falls short of the specification (empty: in spec)."""
    return (_sides(record.get("sides_inch")) + _faces(record.get("opposite_faces"))
            + _depths(record.get("spot_depths_inch"))
            + [f"not attested: {name.replace('_', ' ')} ({CLAUSE}{sub})"
               for name, sub in ATTESTED.items() if record.get(name) is not True])


def _sides(sides: Any) -> list[str]:
    """Each side 0.750 to 0.775 inch, and all three equal within the tolerance (20.25(b)2i)."""
    if not isinstance(sides, list) or len(sides) != 3:
        return [f"the three side lengths are not recorded ({CLAUSE}i)"]
    failures: list[str] = []
    values = [_decimal(s) for s in sides]
    for i, (raw, value) in enumerate(zip(sides, values, strict=True), start=1):
        if value is None:
            failures.append(f"side {i} is not a length in inches: {raw!r} ({CLAUSE}i)")
        elif not MIN_SIDE <= value <= MAX_SIDE:
            failures.append(f"side {i} is {raw} inch: a die is no smaller than 0.750 nor "
                            f"larger than 0.775 inch ({CLAUSE}i)")
    known = [v for v in values if v is not None]
    if len(known) == 3 and max(known) - min(known) > SPOT_TOLERANCE:
        failures.append(f"the sides differ by {max(known) - min(known)} inch: not a perfect "
                        f"cube ({CLAUSE}i)")
    return failures


def _faces(pairs: Any) -> list[str]:
    """Opposite sides 1-6, 2-5 and 3-4 (20.25(b)2viii)."""
    expected = {frozenset({1, 6}), frozenset({2, 5}), frozenset({3, 4})}
    try:
        given = {frozenset(int(x) for x in pair) for pair in pairs} if isinstance(pairs, list) else set()
    except (TypeError, ValueError):
        given = set()
    if given != expected or not isinstance(pairs, list) or len(pairs) != 3:
        return [f"opposite sides must be 1-6, 2-5 and 3-4, each pair summing to seven "
                f"({CLAUSE}viii)"]
    return []


def _depths(depths: Any) -> list[str]:
    """Every spot the same depth within 0.0004 inch (20.25(b)2viii)."""
    values = [_decimal(d) for d in depths] if isinstance(depths, list) else []
    known = [v for v in values if v is not None]
    if not values or len(known) != len(values):
        return [f"the spot depths are not recorded ({CLAUSE}viii)"]
    spread = max(known) - min(known)
    if spread > SPOT_TOLERANCE:
        return [f"spot depths differ by {spread} inch, more than the tolerance of "
                f"0.0004 inch ({CLAUSE}viii)"]
    return []


def passing_record() -> dict[str, Any]:
    """An inspection record that meets the specification (for the demo dice)."""
    return {"sides_inch": ["0.765", "0.765", "0.765"],
            "opposite_faces": [[1, 6], [2, 5], [3, 4]],
            "spot_depths_inch": ["0.0200"] * 21,
            **{name: True for name in ATTESTED}}
