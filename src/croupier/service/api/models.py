"""The request bodies the API accepts: strict, closed (an unknown field is malformed) and bounded.

Money travels as a decimal string ("10.00"), never a JSON number, so no float ever touches a
stake; names and lists have upper bounds so no body can exhaust the server.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from croupier.games import GAME_NAMES

MONEY = r"^[0-9]{1,13}(\.[0-9]{1,2})?$"
SIGNED_MONEY = r"^-?[0-9]{1,13}(\.[0-9]{1,2})?$"
NAME = r"^[a-z][a-z0-9_-]{1,31}$"
COUPON_SERIAL = r"^MP-[0-9A-F]{12}$"
LENGTH = r"^[0-9]{1,2}(\.[0-9]{1,6})?$"
Inches = Annotated[str, Field(pattern=LENGTH)]

# Characters no free text takes: controls (C0, DEL, C1), the bidirectional marks, embeddings,
# overrides and isolates, and the line and paragraph separators. Shown in a report, a log line
# or the browser they reorder or hide the text around them (U+202E turns "paid 5, ok" into
# "ko ,5 diap"), so a record would not read as what was written. Also the characters that draw
# nothing at all (zero-width space, word joiner and the invisible operators, the byte-order
# mark, the soft hyphen, the Mongolian vowel separator): "dealer error" with one inside reads the
# same and compares different. The zero-width joiner and non-joiner stay: scripts need them.
_HIDDEN = frozenset(
    [*range(0x00, 0x20), *range(0x7F, 0xA0), 0x00AD, 0x061C, 0x180E, 0x200B, 0x200E, 0x200F,
     *range(0x202A, 0x202F), *range(0x2060, 0x2065), *range(0x2066, 0x206A), 0x2028, 0x2029,
     0xFEFF])


def plain_text(value: str) -> str:
    """``value`` if it holds no control, invisible or bidirectional formatting character and
    is not only spaces (pydantic names the field of a refusal).

    >>> plain_text("short paid on the field")
    'short paid on the field'
    >>> plain_text("paid \\u202e5")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: U+202E at character 6 is a control, invisible or bidirectional formatting ...
    """
    for i, char in enumerate(value):
        if ord(char) in _HIDDEN:
            raise ValueError(f"U+{ord(char):04X} at character {i + 1} is a control, invisible "
                             "or bidirectional formatting character, which would reorder or "
                             "hide the text around it")
    if value and value.isspace():
        raise ValueError("only spaces: the text says nothing")
    return value


PlainText = Annotated[str, AfterValidator(plain_text)]
Reason = Annotated[str, Field(min_length=3, max_length=500), AfterValidator(plain_text)]
"""Why something was done, as the records keep it: 3 to 500 characters of plain text (the
lengths checked as a string's, in characters: on the text after :func:`plain_text` they were
counted as "items")."""


class Body(BaseModel):
    """Every request body: unknown fields are refused, and nothing is coerced ("6" is not 6,
    true is not 1), as in the replay contract."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Login(Body):
    username: str = Field(max_length=64)
    password: str = Field(max_length=256)


class NewUser(Body):
    username: str = Field(pattern=NAME)
    password: str = Field(min_length=8, max_length=256)
    role: Literal["player", "dealer", "supervisor", "cashier", "auditor", "admin"]


class NewPassword(Body):
    """The account's holder choosing their own password: the one they have, and the new."""

    current: str = Field(min_length=1, max_length=256)
    new: str = Field(min_length=1, max_length=256)


class NewRole(Body):
    role: Literal["dealer", "supervisor", "cashier", "auditor", "admin"]


class Amount(Body):
    amount: str = Field(pattern=MONEY, examples=["100.00"])


class CashOut(Body):
    amount: str | None = Field(default=None, pattern=MONEY, description="all chips if omitted")


class NewTable(Body):
    id: str = Field(pattern=NAME)
    # The games of the registry (croupier.games); a profile that does not cover it is refused.
    game: str = Field(max_length=32, json_schema_extra={"enum": list(GAME_NAMES)})
    profile: str = Field(max_length=32, examples=["nj-13-69f"])
    options: dict[str, Any] = Field(default_factory=dict)
    capacity: int | None = Field(default=None, ge=1, le=30)
    entry: Literal["rng", "physical"] = Field(
        default="rng", description="rng: only the RNG decides; physical: the dealer enters "
        "the result of physical dice or a wheel")


Die = Annotated[int, Field(ge=1, le=6)]
Pocket = int | str


class Wager(Body):
    """A wager named as in the transcript contract: craps takes number or dice; roulette takes
    numbers, center, column or dozen."""

    wager: str = Field(max_length=32, examples=["pass"])
    number: int | None = None
    dice: list[Die] | None = Field(default=None, min_length=2, max_length=2)
    numbers: list[Pocket] | None = Field(default=None, max_length=38)
    center: Pocket | None = None
    column: int | None = None
    dozen: int | None = None


class BetBody(Wager):
    amount: str = Field(pattern=MONEY, examples=["10.00"])
    coupon: str | None = Field(default=None, pattern=COUPON_SERIAL, description=(
        "the serial of a match play coupon the house issued to this player, put down with "
        "chips of its value (Pass and Don't Pass only, 13:69F-1.3(b))"))


class TakeDownBody(Wager):
    amount: str | None = Field(default=None, pattern=MONEY,
                               description="reduce by; whole if omitted")


class CallBody(Wager):
    on: bool


class RollBody(Body):
    dice: list[Die] | None = Field(default=None, min_length=2, max_length=2,
                                   description="a physical result; omitted: the RNG rolls")

    def entered(self) -> dict[str, Any] | None:
        """The physical result as the game's reader takes it; None: the RNG rolls."""
        return {"roll": self.dice} if self.dice else None

    def declared(self) -> dict[str, Any]:
        """What the dealer declares of the throw besides its result: nothing at craps."""
        return {}


class SpinBody(Body):
    number: Pocket | None = Field(default=None, description="a physical result; omitted: RNG")
    revolutions: int | None = Field(default=None, ge=0, le=10000)
    same_direction: bool = False
    foreign_object: bool = False

    def declared(self) -> dict[str, Any]:
        """What the dealer declares of the spin (an irregular one is "no spin", 20.32(m))."""
        return {"revolutions": self.revolutions, "same_direction": self.same_direction,
                "foreign_object": self.foreign_object}

    def entered(self) -> dict[str, Any] | None:
        """The pocket entered and what was declared with it; None: the RNG spins."""
        if self.number is None:
            return None
        return {"spin": self.number, **{k: v for k, v in self.declared().items()
                                        if v is not None}}


class VoidBody(Body):
    reason: Reason


class AdjustBody(Body):
    player: str = Field(max_length=64)
    amount: str = Field(pattern=SIGNED_MONEY)
    reason: Reason


class Serials(Body):
    serials: list[str] = Field(min_length=1, max_length=20)


class NewDie(Body):
    serial: str = Field(pattern=r"^[A-Za-z0-9-]{1,32}$")
    set_name: PlainText = Field(max_length=64)
    table_id: str | None = Field(default=None, max_length=64)


class Inspection(Body):
    """An inspection record against 13:47-20.25(b)2 (lengths in inches as decimal strings)."""

    sides_inch: list[Inches] = Field(min_length=3, max_length=3, examples=[["0.765"] * 3])
    opposite_faces: list[list[int]] = Field(examples=[[[1, 6], [2, 5], [3, 4]]], max_length=6)
    spot_depths_inch: list[Inches] = Field(min_length=1, max_length=21)
    transparent_cellulose: bool = False
    sides_flat_spots_flush: bool = False
    edges_square: bool = False
    texture_identical: bool = False
    weight_balanced: bool = False
    spots_white_equal_diameter: bool = False
    provider_name_imprinted: bool = False


GoodFor = Literal["pass", "dont_pass"]
GOOD_FOR: tuple[GoodFor, ...] = ("pass", "dont_pass")


class NewCoupon(Body):
    """A match play coupon for a named player (13:69F-1.3(b))."""

    player: str = Field(max_length=64)
    face_value: str = Field(pattern=MONEY, examples=["10.00"])
    wagers: list[GoodFor] = Field(default_factory=lambda: list(GOOD_FOR), min_length=1,
                                  max_length=2)
    expires_in_days: int = Field(default=30, ge=1, le=366)
    table: str | None = Field(default=None, pattern=NAME, description="the table the coupon "
                              "is issued for: refused where its profile takes no coupons")


class VoidCoupon(Body):
    reason: Reason
