"""Recall: any round's wagers, outcome, settlements and balances before and after; a player's
last ten rounds. Read straight from the ledger (the API and ``croupier recall`` share it)."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from croupier.service import codec, coupons, store, visibility

BET_KINDS = ("bet", "take_down", "remove", "late_bet", "late_bet_confirmed", "late_bet_lapsed",
             "coupon_in", "call", "down_on_win", "off_during_point")
SETTLE_KINDS = ("settle", "move", "five_adjacent_moved", "coupon_out")


def _game(conn: Connection, table_id: str) -> str | None:
    return conn.execute(sa.select(store.tables.c.game).where(
        store.tables.c.id == table_id)).scalar()


def round_record(conn: Connection, table_id: str, round_no: int) -> dict[str, Any] | None:
    """Everything about one round, or None if the table or round is unknown."""
    game = _game(conn, table_id)
    if game is None:
        return None
    row = conn.execute(sa.select(store.rounds).where(
        store.rounds.c.table_id == table_id, store.rounds.c.round == round_no)).first()
    stored = conn.execute(sa.select(store.events).where(
        store.events.c.table_id == table_id, store.events.c.round == round_no)
        .order_by(store.events.c.seq)).all()
    if row is None and not stored:
        return None
    events = [{"seq": e.seq, "actor": e.actor, "at": e.at,
               **codec.decode(game, e.payload).to_json()} for e in stored]
    return {
        "table": table_id,
        "game": game,
        "round": round_no,
        "decided": row is not None,
        "outcome": json.loads(row.outcome) if row else None,
        "draw": json.loads(row.draw) if row else None,
        "voided": json.loads(row.voided) if row and row.voided else None,
        "wagers_in_action": json.loads(row.layout) if row else None,
        "bets": [e for e in events if e["type"] in BET_KINDS],
        "settlements": [e for e in events if e["type"] in SETTLE_KINDS],
        "balances": {"before": json.loads(row.before) if row else None,
                     "after": json.loads(row.after) if row else None},
        "coupons": coupons.of_round(conn, table_id, round_no),
        "events": events,
    }


def for_player(record: dict[str, Any], player: str, role: str = "player") -> dict[str, Any]:
    """A round as a player (or a cashier: then nothing of anyone's) may see it: the outcome,
    and only their own wagers, settlements, coupons and balances; of its events, those
    :func:`visibility.view` shows their role."""
    def mine(items: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        return None if items is None else [i for i in items if i.get("player") == player]

    balances = {when: None if b is None else {k: v for k, v in b.items() if k == player}
                for when, b in record["balances"].items()}
    return {**record, "wagers_in_action": mine(record["wagers_in_action"]),
            "bets": mine(record["bets"]), "settlements": mine(record["settlements"]),
            "coupons": mine(record["coupons"]), "balances": balances,
            "events": visibility.views(role, player, record["events"])}


def player_rounds(conn: Connection, player: str, limit: int = 10) -> list[dict[str, Any]]:
    """The player's last ``limit`` decided rounds, newest first, with their part in each."""
    rows = conn.execute(
        sa.select(store.round_players.c.table_id, store.round_players.c.round)
        .where(store.round_players.c.player == player)
        .order_by(store.round_players.c.decided_at.desc(), store.round_players.c.round.desc())
        .limit(limit)).all()
    out: list[dict[str, Any]] = []
    for r in rows:
        record = round_record(conn, r.table_id, r.round)
        if record is None:
            continue
        mine = [e for e in record["events"] if e.get("player") == player]
        before = (record["balances"]["before"] or {}).get(player)
        after = (record["balances"]["after"] or {}).get(player)
        out.append({
            "table": r.table_id, "round": r.round, "outcome": record["outcome"],
            "voided": record["voided"],
            "wagers_in_action": [w for w in record["wagers_in_action"] or []
                                 if w["player"] == player],
            "bets": [e for e in mine if e["type"] in BET_KINDS],
            "settlements": [e for e in mine if e["type"] in SETTLE_KINDS],
            "balance_before": before, "balance_after": after,
        })
    return out


def rounds_list(conn: Connection, table_id: str, limit: int = 20) -> list[dict[str, Any]]:
    rows = conn.execute(sa.select(store.rounds).where(store.rounds.c.table_id == table_id)
                        .order_by(store.rounds.c.round.desc()).limit(limit)).all()
    return [{"round": r.round, "outcome": json.loads(r.outcome),
             "voided": json.loads(r.voided) if r.voided else None, "decided_at": r.decided_at}
            for r in rows]
