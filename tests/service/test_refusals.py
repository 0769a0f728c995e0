"""One Refusal type, the same answers: a coupon, an account, the equipment register and the
house's pay table refuse with :class:`croupier.errors.Refusal` (409, the reason and the clause),
and what is not a refusal by the rules answers 404 or 422 as it did, over real HTTP. The bodies
are compared whole (but for the request's id), so a changed code, reason or clause fails."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.service import auth, equipment_register

from .appkit import App

COUPON_CLAUSE = "N.J.A.C. 13:69F-1.3(b)"


def _answer(s: App, who: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
    r = s.post(who, path, body)
    error = dict(r.json()["error"])
    error.pop("request_id", None)
    return r.status_code, error


@pytest.mark.clause(COUPON_CLAUSE)
def test_refusals_and_other_errors_answer_as_before(app_ledger: App) -> None:
    s = app_ledger
    assert _answer(s, "supervisor", "/coupons", {"player": "dealer", "face_value": "5"}) == (
        409, {"code": "refused", "reason": "there is no player 'dealer' to issue a coupon to",
              "clause": COUPON_CLAUSE})
    serial = s.ok("supervisor", "/coupons", {"player": "alice", "face_value": "5"})["serial"]
    s.ok("supervisor", f"/coupons/{serial}/void", {"reason": "issued in error"}, key=None)
    assert _answer(s, "supervisor", f"/coupons/{serial}/void", {"reason": "again"}) == (
        409, {"code": "refused", "reason": f"coupon {serial} is void: only an issued or pending "
              "coupon can be voided", "clause": COUPON_CLAUSE})
    item = {"id": "wheel-9", "type": "wheel", "description": "a spare wheel"}
    s.ok("admin", "/equipment/items", item, key=None)
    assert _answer(s, "admin", "/equipment/items", item) == (
        409, {"code": "refused", "reason": "equipment wheel-9 is already registered",
              "clause": equipment_register.CLAUSE})
    assert _answer(s, "admin", "/equipment/items", {**item, "id": "wheel-8",
                                                    "wagers": ["five_adjacent"]}) == (
        422, {"code": "malformed", "reason": "body.wagers: only a layout shows optional wagers",
              "clause": ""})
    assert _answer(s, "admin", "/equipment/items/none-1/approvals",
                   {"authority": "Casino Control Commission", "reference": "A-1"}) == (
        404, {"code": "not_found", "reason": "there is no equipment none-1", "clause": ""})
    # A die in craps-1's cup is not received again: refused citing the clause craps-1's
    # profile (nj-13-69f) gives its dice cup, the reading of the replay contract.
    status, error = _answer(s, "admin", "/equipment/dice/NJ-0001/custody",
                            {"step": "received"})
    assert (status, error["code"]) == (409, "refused")
    assert error["reason"].startswith("die NJ-0001 is issued (in table craps-1's dice cup)")
    assert error["clause"] == "replay contract: Table procedures"
    assert _answer(s, "admin", "/paytables/changes/99/approve") == (
        404, {"code": "not_found", "reason": "there is no pay table change 99", "clause": ""})
    assert _answer(s, "admin", "/users/alice/role", {"role": "dealer"}) == (
        409, {"code": "refused", "reason": "a player's account keeps its role (its wallet and "
              "records are a player's); make a new account instead",
              "clause": auth.CLAUSE})
