"""The projections the audit rebuilds from the house's chain and compares: rows kept for
listing and look-up that no decision trusts (coupons and their log, dice and their
inspections). The rounds recall shows, and who may look each up, are compared by the replay
(``replay.RoundCheck``, ``replay.PlayersCheck``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Connection

from croupier.service import coupons, equipment_register
from croupier.service.audit.snapshot import Finding


def check(conn: Connection, records: list[dict[str, Any]]) -> list[Finding]:
    """Every projection of the house's chain (``records``, by ``seq``, as stored) in ``conn``
    against the chain: what differs."""
    return [*coupons.check_projection(conn, records),
            *equipment_register.check_dice_projection(conn, records)]
