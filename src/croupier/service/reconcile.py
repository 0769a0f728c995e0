"""The night's money, reconciled: every dollar that came in at the cage is in a wallet, in chips
at a table, or won by the house, less what the cage paid back out.

Pure: the caller passes the wallet entries (kind and amount in cents), the wallets' balances,
the seats' chips and the tables' house results, all in integer cents, as the ledger keeps them.

    deposits - cage cash-outs = wallets still held + chips at tables + the house's win

>>> c = reconcile([("deposit", 500_00), ("buy_in", -200_00), ("cash_out", 150_00),
...                ("cage_cash_out", -100_00)], wallets=[350_00], seats=[(20_00, 10_00)],
...               house=[20_00])
>>> c.difference, c.adds_up
(0, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from croupier.service.cage import KIND as CAGE_CASH_OUT


@dataclass(frozen=True)
class Cash:
    """The night's money in cents."""

    deposits: int  # cash in at the cage, into wallets
    cage_cash_outs: int  # cash paid out of wallets at the cage (positive)
    bought: int  # chips bought at the tables from wallets (positive)
    returned: int  # chips cashed back into wallets at the tables
    wallets: int  # still held in wallets
    chips: int  # chips at the tables: in players' hands and on the layouts
    house: int  # the house's result at the tables (its win)

    @property
    def net_in(self) -> int:
        """What came in at the cage less what it paid back out."""
        return self.deposits - self.cage_cash_outs

    @property
    def accounted(self) -> int:
        """Where that money is now."""
        return self.wallets + self.chips + self.house

    @property
    def difference(self) -> int:
        return self.net_in - self.accounted

    @property
    def adds_up(self) -> bool:
        return self.difference == 0


def reconcile(entries: Iterable[tuple[str, int]], wallets: Iterable[int],
              seats: Iterable[tuple[int, int]], house: Iterable[int]) -> Cash:
    """The night's money from the wallet entries ``(kind, cents)``, the wallets' balances, the
    seats' ``(chips, on the layout)`` and the tables' house results."""
    totals = {"deposit": 0, CAGE_CASH_OUT: 0, "buy_in": 0, "cash_out": 0}
    for kind, cents in entries:
        if kind in totals:
            totals[kind] += cents
    return Cash(deposits=totals["deposit"], cage_cash_outs=-totals[CAGE_CASH_OUT],
                bought=-totals["buy_in"], returned=totals["cash_out"], wallets=sum(wallets),
                chips=sum(c + o for c, o in seats), house=sum(house))
