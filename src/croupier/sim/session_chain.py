"""A session's Markov chain, as :mod:`croupier.sim.session` solves it, however it was found.

Two explorers give one: :mod:`croupier.sim.session_layouts` (states as a layout of the
bets, the chips in hand and the player's status, from the layout tables) and
:mod:`croupier.sim.session_rows` (states as the simulator's whole state row, stepped one at
a time by the generic kernel: the reference, and the explorer of what the tables do not
hold). Both number the states as found, the starting state first, and give the same chain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from croupier.sim.compile import Compiled

I64 = npt.NDArray[np.int64]
Progress = Callable[[str, int, int], None]  # phase, done, total (0: unknown)


class SessionRefused(Exception):
    """The strategy cannot be analysed exactly (the reason says why)."""


@dataclass
class Layout:
    """Where each part of a session's state sits in a state row (the simulator's state of
    one player between rolls)."""

    slots: int
    counters: int

    @property
    def width(self) -> int:
        """Columns of a state row: point, fresh, bank, status, handstart, on table, then the
        stakes, wager states and commissions paid of every slot, then the levels."""
        return 6 + 3 * self.slots + self.counters

    def stake(self) -> slice:
        """The stakes' columns."""
        return slice(6, 6 + self.slots)


@dataclass
class Chain:
    """The session's Markov chain: states, the outcome counts between them, how each ends."""

    compiled: Compiled
    start: int  # the starting bankroll in cents
    layout: Layout
    bank: I64  # (n,) chips in hand in each state, in cents
    src: I64  # transitions: from state src[k] to dst[k] on count[k] of the n_outcomes outcomes
    dst: I64
    count: I64
    absorbing: npt.NDArray[np.bool_]  # (n,) the session is over in this state
    end_status: npt.NDArray[np.int8]  # (n,) how it ended (absorbing states)
    worth: I64  # (n,) chips in hand plus wagers on the layout, in cents
    describe: Callable[[], I64]  # (n, layout.width) each state's row (for checks)
    depth: I64 | None = None  # (n,) the fewest rolls that reach each state, where known

    @property
    def n_outcomes(self) -> int:
        """How many equally likely outcomes a roll (spin) has."""
        return self.compiled.n_outcomes

    @property
    def size(self) -> int:
        """The number of states."""
        return int(self.bank.shape[0])

    @property
    def rows(self) -> I64:
        """Each state's row: point, fresh, bank, status, hand start, on table, stakes, wager
        states, commissions paid, levels (as the simulator keeps them)."""
        return self.describe()
