"""The house's own chain (equipment, custody, pay table changes) is covered by the audit like the
tables' chains: recomputed, signed in checkpoints, carried in the bundle; and the profile is
the one place that decides late bets and match play coupons. In-process (no server)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from croupier.errors import Malformed, Refusal
from croupier.games import game
from croupier.rules import PROFILE_IDS, load_profile
from croupier.service import equipment_register, paytable_changes, register
from croupier.service.audit import bundle, verify
from croupier.service.audit.keys import key_path, load_key
from croupier.service.audit.verify import verify_ledger
from croupier.service.procedures import clauses
from croupier.service.runner import Runner

from .ledgerkit import Kit


def _hence(seconds: float) -> str:
    return datetime.fromtimestamp(time.time() + seconds, UTC).isoformat()


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kit]:
    made = Kit(tmp_path_factory.mktemp("house") / "data")
    verify.configure(load_key(key_path(made.data_dir)), key_path(made.data_dir).with_name("ledger.key.pin"))
    try:
        yield made
    finally:
        verify.configure(None, None)
        made.engine.dispose()


def test_the_demo_register_is_chained_and_verifies(kit: Kit) -> None:
    with kit.engine.connect() as conn:
        records = register.rows(conn)
        layouts = equipment_register.approved_layout_wagers(conn, "roulette-1")
    assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
    assert layouts == {"five_adjacent": "layout-1", "seven_numbers": "layout-1"}
    report = verify_ledger(Runner.over(kit.engine).tables)
    assert report["ok"], report["problems"]


def test_a_removed_record_is_named_by_the_signed_checkpoint(kit: Kit, tmp_path: Path) -> None:
    with kit.engine.begin() as conn:
        register.append(conn, "equipment_inspected", "equipment:wheel-1",
                        {"passed": True, "findings": "balanced"}, "supervisor")
    assert verify_ledger(Runner.over(kit.engine).tables)["ok"]  # and signs a checkpoint with the head
    # The bundle carries the house's records, and verifies offline.
    out = tmp_path / "bundle.json"
    assert verify.TRUST.signer is not None
    bundle.export(kit.engine, verify.TRUST.signer, verify.TRUST.pin_path, out)
    offline, _ = bundle.verify_bundle(out)
    assert not offline.findings, [str(f) for f in offline.findings]
    with kit.engine.begin() as conn:
        last = conn.execute(sa.select(sa.func.max(register.house_records.c.seq))).scalar()
        conn.execute(register.house_records.delete().where(register.house_records.c.seq == last))
    report = verify_ledger(Runner.over(kit.engine).tables)
    assert not report["ok"]
    assert report["first"]["where"] == "house records" and report["first"]["seq"] == last
    assert "signed the house's chain" in report["first"]["what"]


def test_a_change_failing_the_check_is_refused_with_its_clause(kit: Kit) -> None:
    with kit.engine.begin() as conn, pytest.raises(Refusal) as refused:
        paytable_changes.propose(conn, "admin", paytable_changes.Proposal(
            "craps", "nj-casino-night", {"field:12": "1 to 1"}, _hence(3600), "mean"))
    assert refused.value.clause == "N.J.A.C. 13:47-20.25(i)2"
    assert paytable_changes.check("craps", "nj-13-69f", {"field:12": "3 to 1"}) == []


@pytest.mark.clause("N.J.A.C. 13:47-20.25(i)2")
@pytest.mark.clause("N.J.A.C. 13:69F-1.4(b)")
@pytest.mark.clause("N.J.A.C. 19:47-1.4(b)")
def test_odds_of_nothing_are_refused_citing_the_profiles_pay_clause(kit: Kit) -> None:
    # "0 to 1" pays nothing: below every minimum, so refused under the clause setting the
    # payouts of the profile at hand; a key that is no entry cites the permitted wagers.
    for profile in PROFILE_IDS:
        rules = load_profile(profile).craps
        assert rules is not None
        found = paytable_changes.check("craps", profile, {"field:12": "0 to 1"})
        assert [c for _, c in found] == [rules.clause("pays_clause")] != [""]
        found = paytable_changes.check("craps", profile, {"field:13": "0 to 1"})
        assert [c for _, c in found] == [rules.clause("permitted_clause")] != [""]
    with kit.engine.begin() as conn, pytest.raises(Refusal) as refused:
        paytable_changes.propose(conn, "admin", paytable_changes.Proposal(
            "craps", "nj-13-69f", {"pass": "0 to 1"}, _hence(3600), "nothing"))
    assert refused.value.clause == "N.J.A.C. 13:69F-1.4(b)"


@pytest.mark.parametrize(("text", "says"), [
    ("2026-11-30T17:00:00Z", "in the past"),
    ("2026-11-30T17:58:00+00:00", "in the past"),  # two minutes back: beyond the skew
    ("2027-12-05T18:00:00Z", "more than a year ahead"),
    ("2026-12-01T18:00:00", "offset from UTC"),
    ("2026-12-01", "offset from UTC"),
    ("tomorrow at six", "not an ISO 8601"),
    ("2026-12-01T18:00:00+24:00", "not an ISO 8601"),
    ("9999-12-31T23:59:59+14:00", "more than a year ahead"),
])
def test_an_effective_time_in_the_past_or_far_ahead_is_malformed(text: str, says: str) -> None:
    now = datetime(2026, 11, 30, 18, 0, tzinfo=UTC).timestamp()
    with pytest.raises(Malformed) as bad:
        paytable_changes.parse_when(text, now)
    assert bad.value.where == "body.effective" and says in bad.value.message


def test_an_effective_time_within_the_skew_or_the_year_is_taken() -> None:
    now = datetime(2026, 11, 30, 18, 0, tzinfo=UTC).timestamp()
    assert paytable_changes.parse_when("2026-11-30T17:59:30Z", now) == now - 30
    assert paytable_changes.parse_when("2026-11-30T13:00:00-05:00", now) == now
    assert paytable_changes.parse_when("2027-11-30T18:00:00Z", now) == now + 365 * 86400


def test_a_proposal_effective_in_the_past_records_nothing(kit: Kit) -> None:
    with kit.engine.begin() as conn:
        before = len(register.rows(conn))
        with pytest.raises(Malformed) as bad:
            paytable_changes.propose(conn, "admin", paytable_changes.Proposal(
                "craps", "nj-13-69f", {"field:12": "3 to 1"}, _hence(-3600), "too late"))
        assert bad.value.where == "body.effective" and len(register.rows(conn)) == before


@pytest.mark.clause("N.J.A.C. 13:69F-1.3(a)", "N.J.A.C. 13:69F-1.3(b)")
def test_the_profile_alone_decides_late_bets_and_coupons(monkeypatch: pytest.MonkeyPatch) -> None:
    for pid in PROFILE_IDS:
        rules = load_profile(pid).craps
        if rules is None:
            continue
        assert _takes_late_bets(load_profile(pid)) is rules.late_bets
        assert clauses.coupon_wagers(pid, "craps") == rules.coupon_wagers
    # Flip the profile's own fields: every decision follows, nothing else is consulted.
    real = load_profile("nj-13-69f")
    assert real.craps is not None
    flipped = dataclasses.replace(real, craps=dataclasses.replace(
        real.craps, late_bets=False, coupon_wagers=frozenset()))
    monkeypatch.setattr(clauses, "load_profile", lambda pid: flipped)
    assert not _takes_late_bets(flipped)
    assert clauses.coupon_wagers("nj-13-69f", "craps") == frozenset()
    with pytest.raises(Refusal, match="no late bets"):
        game("craps").late_bet(flipped)


def _takes_late_bets(profile: Any) -> bool:
    try:
        game("craps").late_bet(profile)
    except Refusal:
        return False
    return True
