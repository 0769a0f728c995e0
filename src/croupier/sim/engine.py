"""Running the kernel: blocks of sessions, seeded streams, chunks of rolls, Dask.

Sessions are grouped in fixed blocks of :data:`BLOCK` sessions. Block ``b`` draws its dice from
its own PCG64 stream, ``SeedSequence(seed, spawn_key=(b,))`` (the ``b``-th child
``SeedSequence(seed).spawn`` would give), in chunks of :data:`ROLL_CHUNK` rolls for all
:data:`BLOCK` sessions of the block, whether or not they are all played. So a session's dice
depend only on the seed and its number: any number of sessions, rolls, workers or tasks gives
every session the same dice and the same result.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal, cast

import numpy as np
import numpy.typing as npt

from croupier.sim.compile import Compiled
from croupier.sim.kernel import (
    Tables,
    fill_outcomes,
    group_rows,
    play_chunk,
    tables_of,
)
from croupier.sim.lanes import LANES
from croupier.sim.layouts import (
    LayoutTables,
    fresh_matters,
    lane_scratch,
    layout_tables,
    play_layouts,
)
from croupier.sim.specialise import kernel_for

BLOCK = 1024
ROLL_CHUNK = 1024
I64 = npt.NDArray[np.int64]
Progress = Callable[[int], None]


@dataclass(frozen=True)
class Simulation:
    """What a simulation plays: ``sessions`` sessions of at most ``rolls`` rolls (spins) each,
    every player starting with ``bankroll`` cents, the dice from ``seed``; the bankroll paths of
    the first ``n_hist`` sessions are kept, every ``stride``-th roll."""

    sessions: int
    rolls: int
    bankroll: int
    seed: int
    n_hist: int = 0
    stride: int = 1

    def block_sessions(self, block: int) -> int:
        """How many of the sessions block ``block`` plays."""
        return min(BLOCK, self.sessions - block * BLOCK)

    def block_paths(self, block: int) -> int:
        """How many bankroll paths block ``block`` keeps (the first block keeps them all)."""
        return min(self.n_hist, self.block_sessions(block)) if block == 0 else 0


@dataclass
class Results:
    """Per-session results (money in integer cents), players along the second axis."""

    final: I64  # (N, P) bankroll plus wagers still on the layout at the end
    bank: I64  # (N, P) chips in hand at the end
    wagered: I64  # (N, P) total of the stakes decided
    rolls: I64  # (N,) rolls played
    status: npt.NDArray[np.int8]  # (N, P) why the player stopped (ACTIVE: played out)
    endroll: I64  # (N, P) the roll at which the player stopped (-1: never)
    hist: I64  # (H, P, R // stride + 1) bankroll paths of the first H sessions
    stride: int

    @staticmethod
    def concat(parts: Sequence[Results]) -> Results:
        """The results of consecutive blocks as one (paths from the first block that kept any)."""
        hist = next((p.hist for p in parts if p.hist.shape[0] > 0), parts[0].hist)
        return Results(
            final=np.concatenate([p.final for p in parts]),
            bank=np.concatenate([p.bank for p in parts]),
            wagered=np.concatenate([p.wagered for p in parts]),
            rolls=np.concatenate([p.rolls for p in parts]),
            status=np.concatenate([p.status for p in parts]),
            endroll=np.concatenate([p.endroll for p in parts]),
            hist=hist, stride=parts[0].stride,
        )


def block_stream(seed: int, block: int) -> np.random.Generator:
    """The dice stream of block ``block`` of sessions under ``seed``."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(block,))))


def draw_outcomes(rng: np.random.Generator, out: npt.NDArray[np.uint8], n_outcomes: int) -> None:
    """Fill ``out`` with uniform outcome indexes from ``rng`` (exact rejection on bytes)."""
    flat = out.reshape(-1)
    pos = 0
    n = flat.shape[0]
    while pos < n:
        words = rng.bit_generator.random_raw((n - pos) // 8 + 16)
        pos = int(fill_outcomes(words, flat, pos, n_outcomes))


def grouped(outcomes: npt.NDArray[np.uint8],
            out: npt.NDArray[np.uint8] | None = None) -> npt.NDArray[np.uint8]:
    """Outcomes ``(sessions, rolls)`` grouped by eight sessions, ``(groups, rolls, 8)`` (into
    ``out`` where given)."""
    n, rolls = outcomes.shape
    groups = -(-n // LANES)
    if out is None:
        out = np.empty((groups, rolls, LANES), np.uint8)
    if n == groups * LANES and rolls % 8 == 0 and sys.byteorder == "little" \
            and outcomes.flags.c_contiguous:
        group_rows(outcomes.view(np.uint64), out.view(np.uint64).reshape(groups, rolls))
        return out
    padded = np.zeros((groups * LANES, rolls), np.uint8)
    padded[:n] = outcomes
    out[...] = padded.reshape(-1, LANES, rolls).transpose(0, 2, 1)
    return out


def ungrouped(outcomes: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The inverse of :func:`grouped` (with the padding sessions)."""
    return outcomes.transpose(0, 2, 1).reshape(-1, outcomes.shape[1])


def outcome_stream(seed: int, session: int, rolls: int, n_outcomes: int) -> npt.NDArray[np.uint8]:
    """The outcomes session ``session`` is dealt (for checking the kernel against the engine)."""
    block, row = divmod(session, BLOCK)
    rng = block_stream(seed, block)
    buf = np.empty((BLOCK, ROLL_CHUNK), np.uint8)
    got: list[npt.NDArray[np.uint8]] = []
    for _ in range(0, rolls, ROLL_CHUNK):
        draw_outcomes(rng, buf, n_outcomes)
        got.append(buf[row].copy())
    return np.concatenate(got)[:rolls] if got else np.empty(0, np.uint8)


KernelName = Literal["layouts", "specialised", "generic"]
ChunkState = tuple[Any, ...]


@dataclass
class ChunkPlayer:
    """Plays one chunk of a block's sessions (``play(state)``), from outcomes arranged as it
    reads them: ``(sessions, rolls)``, or grouped by eight sessions (the layout tables)."""

    play: Callable[[ChunkState], None]
    grouped: bool
    scratch: npt.NDArray[np.uint8] | None = None

    def __call__(self, state: ChunkState) -> None:
        self.play(state)

    def buffer(self) -> npt.NDArray[np.uint8]:
        """Room for a chunk's outcomes of a whole block."""
        if self.grouped:
            return np.empty((BLOCK // LANES, ROLL_CHUNK, LANES), np.uint8)
        return np.empty((BLOCK, ROLL_CHUNK), np.uint8)

    def draw(self, rng: np.random.Generator, out: npt.NDArray[np.uint8],
             n_outcomes: int) -> None:
        """A chunk's outcomes of a whole block into ``out`` (:meth:`buffer`): drawn session by
        session (:func:`draw_outcomes`), grouped where this player reads them so."""
        if not self.grouped:
            draw_outcomes(rng, out, n_outcomes)
            return
        if self.scratch is None:
            self.scratch = np.empty((BLOCK, ROLL_CHUNK), np.uint8)
        draw_outcomes(rng, self.scratch, n_outcomes)
        grouped(self.scratch, out)

    def arrange(self, outcomes: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
        """Outcomes ``(sessions, rolls)`` as this player reads them."""
        return grouped(outcomes) if self.grouped else outcomes


def _layout_player(lt: LayoutTables, compiled: Compiled, tables: Tables,
                   n_sess: int) -> ChunkPlayer:
    """Play chunks from the layout tables; a session that leaves them goes on generically
    (from the outcomes ungrouped, in the chunks where one does)."""
    players = compiled.players
    lanes = lt.lanes
    assert lanes is not None
    layout = np.repeat(lt.first[None, :players], n_sess, axis=0)
    generic = np.zeros(n_sess, np.bool_)
    first = np.zeros(n_sess, np.int64)
    scratch = lane_scratch(n_sess, players)
    keeps_fresh = np.array([fresh_matters(compiled, p) for p in range(players)], np.int64)

    def play(state: ChunkState) -> None:
        cast(Any, play_layouts)(*state, layout, generic, first, scratch, lt.decide, lt.step,
                                lt.play, lt.rows, keeps_fresh, lanes.nxt, lanes.packed,
                                lanes.need, lanes.on, lanes.bounds, lt.shape.slots,
                                lt.shape.counters, tables)
        if generic.any():
            cast(Any, play_chunk)(ungrouped(state[0]), *state[1:], first, tables)

    return ChunkPlayer(play, True)


def chunk_player(compiled: Compiled, kernel: KernelName, n_sess: int) -> ChunkPlayer:
    """A player of one chunk of ``n_sess`` sessions with ``kernel``: the layout tables
    (:mod:`croupier.sim.layouts`; where a strategy's layouts are too many, the specialised
    kernel instead), the kernel specialised to the strategies (:mod:`croupier.sim.specialise`)
    or the generic one (:func:`croupier.sim.kernel.play_chunk`). The results are the same."""
    tables = tables_of(compiled.arrays)
    if kernel == "layouts":
        lt = layout_tables(compiled)
        if lt is not None:
            return _layout_player(lt, compiled, tables, n_sess)
        kernel = "specialised"
    if kernel == "specialised":
        fn = kernel_for(compiled)
        return ChunkPlayer(lambda state: fn(*state), False)
    from_start = np.zeros(n_sess, np.int64)
    return ChunkPlayer(lambda state: cast(Any, play_chunk)(*state, from_start, tables), False)


@dataclass
class _Sessions:
    """The state arrays of a block's sessions, in the order every kernel takes them after the
    chunk's outcomes and place (:data:`croupier.sim.specialise.KERNEL_ARGS`)."""

    point: I64
    fresh: npt.NDArray[np.int8]
    bank: I64
    stake: I64
    st: I64
    cpaid: I64
    level: I64
    status: npt.NDArray[np.int8]
    handstart: I64
    ontable: I64
    wagered: I64
    rolls: I64
    done: npt.NDArray[np.bool_]
    endroll: I64
    hist: I64

    @staticmethod
    def start(compiled: Compiled, n_sess: int, n_hist: int, sim: Simulation) -> _Sessions:
        """``n_sess`` sessions before their first roll, every player with the simulation's
        bankroll, and room for ``n_hist`` bankroll paths."""
        P = compiled.players
        S = compiled.arrays["res"].shape[1]
        C = compiled.arrays["winnext"].shape[1]
        hist = np.zeros((n_hist, P, sim.rolls // sim.stride + 1), np.int64)
        hist[:, :, 0] = sim.bankroll
        return _Sessions(
            point=np.zeros(n_sess, np.int64),
            fresh=np.ones(n_sess, np.int8),  # the next roll is a new shooter's first
            bank=np.full((n_sess, P), sim.bankroll, np.int64),
            stake=np.zeros((n_sess, P, S), np.int64), st=np.zeros((n_sess, P, S), np.int64),
            cpaid=np.zeros((n_sess, P, S), np.int64), level=np.zeros((n_sess, P, C), np.int64),
            status=np.zeros((n_sess, P), np.int8),
            handstart=np.full((n_sess, P), sim.bankroll, np.int64),
            ontable=np.zeros((n_sess, P), np.int64), wagered=np.zeros((n_sess, P), np.int64),
            rolls=np.zeros(n_sess, np.int64), done=np.zeros(n_sess, np.bool_),
            endroll=np.full((n_sess, P), -1, np.int64), hist=hist)

    def arrays(self) -> tuple[Any, ...]:
        return (self.point, self.fresh, self.bank, self.stake, self.st, self.cpaid, self.level,
                self.status, self.handstart, self.ontable, self.wagered, self.rolls, self.done,
                self.endroll, self.hist)

    def results(self, stride: int) -> Results:
        return Results(final=self.bank + self.ontable, bank=self.bank, wagered=self.wagered,
                       rolls=self.rolls, status=self.status, endroll=self.endroll,
                       hist=self.hist, stride=stride)


def run_block(compiled: Compiled, block: int, sim: Simulation, *, progress: Progress | None = None,
              outcomes_fn: Callable[[int], npt.NDArray[np.uint8]] | None = None,
              kernel: KernelName = "layouts") -> Results:
    """Play block ``block``'s sessions of ``sim`` with ``kernel`` (see :func:`chunk_player`;
    the same results whichever), on the block's dice or, with ``outcomes_fn``, on the outcomes
    it gives from each chunk's first roll."""
    n_sess = sim.block_sessions(block)
    sessions = _Sessions.start(compiled, n_sess, sim.block_paths(block), sim)
    rng = block_stream(sim.seed, block)
    play = chunk_player(compiled, kernel, n_sess)
    buf = play.buffer()
    for r0 in range(0, sim.rolls, ROLL_CHUNK):
        if outcomes_fn is not None:
            buf = play.arrange(outcomes_fn(r0))
        else:
            play.draw(rng, buf, compiled.n_outcomes)
        play((buf, n_sess, r0, sim.rolls, sim.bankroll, *sessions.arrays(), sim.stride))
        if progress is not None:
            progress(n_sess * min(ROLL_CHUNK, sim.rolls - r0))
    return sessions.results(sim.stride)


def run_blocks(compiled: Compiled, blocks: Sequence[int], sim: Simulation, *,
               progress: Progress | None = None, kernel: KernelName = "layouts",
               threads: int = 1) -> Results:
    """Play ``blocks`` of ``sim``; with ``threads`` > 1 on that many threads at once (the
    kernels and the dice run without the GIL), with the same results in the same order."""

    def one(b: int) -> Results:
        return run_block(compiled, b, sim, progress=progress, kernel=kernel)

    blocks = list(blocks)
    if threads <= 1 or len(blocks) <= 1:
        return Results.concat([one(b) for b in blocks])
    if kernel == "layouts" and layout_tables(compiled) is None:
        kernel = "specialised"
    if kernel == "specialised":
        kernel_for(compiled)  # generate and load it once, before the threads start
    with ThreadPoolExecutor(max_workers=min(threads, len(blocks))) as pool:
        return Results.concat(list(pool.map(one, blocks)))


def n_blocks(sessions: int) -> int:
    """How many blocks of :data:`BLOCK` sessions ``sessions`` sessions fill."""
    return -(-sessions // BLOCK)


def simulate(compiled: Compiled, sim: Simulation, *, progress: Progress | None = None,
             kernel: KernelName = "layouts", threads: int = 1) -> Results:
    """Play every session of ``sim`` in this process (on ``threads`` threads: the same
    results)."""
    return run_blocks(compiled, range(n_blocks(sim.sessions)), sim, progress=progress,
                      kernel=kernel, threads=threads)


def _task(compiled: Compiled, blocks: list[int], sim: Simulation) -> Results:
    return run_blocks(compiled, blocks, sim)


def simulate_dask(compiled: Compiled, sim: Simulation, *, client: Any, tasks: int | None = None,
                  progress: Progress | None = None) -> Results:
    """Play the blocks as tasks on a Dask cluster (``client``); the same results as
    :func:`simulate` for the same seed, however the blocks are split into tasks."""
    from distributed import as_completed

    sessions, rolls = sim.sessions, sim.rolls
    nb = n_blocks(sessions)
    if tasks is None:
        workers = max(1, len(client.scheduler_info().get("workers", {})))
        tasks = min(nb, 4 * workers)
    size = -(-nb // max(1, tasks))
    groups = [list(range(s, min(nb, s + size))) for s in range(0, nb, size)]
    remote = client.scatter(compiled, broadcast=True)
    futures = [client.submit(_task, remote, g, sim, pure=False) for g in groups]
    index = {f.key: i for i, f in enumerate(futures)}
    out: list[Results | None] = [None] * len(futures)
    for fut in as_completed(futures):  # type: ignore[no-untyped-call]
        i = index[fut.key]
        out[i] = fut.result()
        if progress is not None:
            done_sessions = sum(min(BLOCK, sessions - b * BLOCK) for b in groups[i])
            progress(done_sessions * rolls)
    return Results.concat([r for r in out if r is not None])
