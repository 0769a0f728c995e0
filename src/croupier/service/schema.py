"""What each table of the ledger's schema is to its trust: a hash chain, a projection the
audit rebuilds from the chains and compares, or a cache that no decision trusts.

``tests/architecture/test_schema.py`` reads the schema (the tables the migrations make and the
store's metadata) and fails on a table missing here, or on a named check that does not exist.
A decision about money or fairness reads only a chain (or a projection under the audit's eye,
for listing); the caches are safe to lose: losing one fails closed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Chain:
    """A hash chain: each record hashed over the one before, its head signed in checkpoints;
    ``check`` is the function that recomputes it."""

    check: str
    what: str


@dataclass(frozen=True)
class Projection:
    """Rows derived from the chains, kept for listing and look-up; ``check`` rebuilds them
    from the chains and names every row that differs."""

    check: str
    what: str


@dataclass(frozen=True)
class Cache:
    """Rows no decision about money or fairness trusts; ``why`` says why, and what losing
    them does (it fails closed)."""

    why: str


Kind = Chain | Projection | Cache

_CHAINS = "croupier.service.audit.chain.recompute"
_REPLAY = "croupier.service.audit.replay"

TABLES: dict[str, Kind] = {
    # --- hash chains ----------------------------------------------------------------------
    "events": Chain(_CHAINS, "each table's chain: every event by seq"),
    "tables": Chain(_CHAINS, "a table's configuration, the genesis of its chain, opened by "
                    "a table_entry record of the house's chain (a row none opened is named by "
                    "croupier.service.controls.check_opened); its house_cents a projection "
                    "compared by " + _REPLAY + ".check_seats"),
    "wallet_entries": Chain(_CHAINS, "each wallet's chain of entries (a move at the cage "
                            "records the digest of the request that made it)"),
    "wallets": Chain(_CHAINS, "a wallet's chain head; its balance a projection compared by "
                     + _REPLAY + ".check_wallets"),
    "house_records": Chain("croupier.service.register.recompute", "the house's chain: "
                           "equipment, dice custody and inspections, coupons, entry modes, "
                           "pay table changes"),
    "checkpoints": Chain("croupier.service.audit.chain.check_checkpoints", "the signed "
                         "checkpoints, each linked to the one before"),
    "ledger_keys": Chain("croupier.service.audit.keys.trusted_keys", "each signing key "
                         "introduced by a signature of the key before it"),
    # --- projections rebuilt from the chains and compared by the audit ---------------------
    "seats": Projection(_REPLAY + ".check_seats", "each player's chips and wagers at a table"),
    "rounds": Projection(_REPLAY + ".RoundCheck", "rounds as recall shows them: the outcome, "
                         "the draw, the wagers in action and the balances before and after "
                         "are compared"),
    "round_players": Projection(_REPLAY + ".PlayersCheck", "the rounds each player may look "
                                "up (recall's listing and its access): the players a decided "
                                "round's events name and those with a wager in action"),
    "coupons": Projection("croupier.service.coupons.check_projection", "each coupon as its "
                          "chained issue, redemption or void leaves it"),
    "coupon_log": Projection("croupier.service.coupons.check_projection", "one row per "
                             "chained coupon record"),
    "dice": Projection("croupier.service.equipment_register.check_dice_projection", "each "
                       "die's cup and retirement from its chained custody"),
    "inspections": Projection("croupier.service.equipment_register.check_dice_projection",
                              "one row per chained inspection of a die"),
    "idempotency": Projection("croupier.service.audit.requests.check", "the replies kept "
                              "under Idempotency-Keys: each request's events record its "
                              "digest in the tables' chains, from which the audit rebuilds "
                              "which request produced which events and compares each reply's "
                              "table and events; a move at the cage and a coupon issued "
                              "record it in their wallet entry or house record, from which "
                              "their replies are rebuilt; refusals are never kept; a retry "
                              "whose reply is missing is refused, never done again"),
    # --- caches no decision trusts ---------------------------------------------------------
    "tokens": Cache("bearer tokens, stored as their HMAC under a key derived from the "
                    "signing key, outside the database (Auth.session_key): a lost row is a "
                    "401 and the user logs in again; a row written into the database matches "
                    "no token, and one moved to another account, role or expiry is refused, "
                    "for the token names the account (its id and name), role and expiry it was "
                    "issued for; a row put back after its account was locked or deleted acts "
                    "under an account that could not act, which the audit names "
                    "(people.acts_while_ended)"),
    "table_leases": Cache("cluster only: which node writes a table; a lost lease is taken "
                          "again under a new epoch, which fences the old owner's writes; the "
                          "owner's address is forwarded to only when its MAC under the key "
                          "vouches for it (cluster.leases.address_mac)"),
    "alembic_version": Cache("the schema's migration number, read only by the upgrade"),
    # --- the users' chain and its projections ---------------------------------------------
    "user_records": Chain("croupier.service.people.recompute", "the users' chain: creating, "
                          "role changes (and whom through), locks, password resets, deletions "
                          "and restorations of accounts"),
    "users": Projection("croupier.service.people.check", "each account as the users' chain "
                        "leaves it (a password as a digest of its hash); a log-in refuses a "
                        "row that differs from the chain (people.chained)"),
    "login_state": Projection("croupier.service.people.check", "an account's deletion mark, "
                              "from the users' chain (the log-in throttle keeps no row)"),
    "pending_adjustments": Projection("croupier.service.controls.check", "each adjustment "
                                      "asked and approved, as the tables' chains record it"),
}
"""Every table of the schema by name."""

OPEN: tuple[str, ...] = ()
"""Tables that a decision still trusts without a chain behind them: named, not hidden."""
