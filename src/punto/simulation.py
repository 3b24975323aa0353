"""Monte Carlo simulation: real shoes dealt by the compiled shoe loop, tallied exactly.

Shoes are dealt by :mod:`punto.shoeloop` (the procedure of
:class:`punto.dealing.ShoeDealer` [M2], [M3], [S5], the tableau read off
:class:`punto.coup.Coup`); a hand is tallied by its cell (:data:`punto.analysis.CELLS`),
and the bets are priced afterwards from the cell counts with the classes
:func:`punto.bets.classify` gave each cell — so no bet rule or paytable is copied into
the kernel.

Work is split into independent streams of :data:`STREAM_HANDS` hands, each with its own
xoshiro256** generator seeded from ``(seed, stream index)`` by
:class:`numpy.random.SeedSequence`. The tallies are integers and merge exactly, so a
result depends only on the seed and the number of hands — not on the number of worker
threads, nor on whether the streams ran here or on a Ray cluster.

>>> from punto.rules import preset
>>> result = simulate(preset("macau"), hands=20_000, seed=1)
>>> result.hands + result.void_hands
20000
>>> sorted(result.as_dict()["outcomes"])
['banker', 'player', 'tie']
"""

from __future__ import annotations

import importlib
import math
import secrets
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType, ModuleType

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from punto.analysis import CELLS, Composition, analyze, bet_table, cell_facts
from punto.bets import Bet
from punto.compiling import CompileNotice, compile_notice
from punto.errors import SimulationError
from punto.outcome import Winner
from punto.rules import Rules
from punto.shoeloop import TABLEAU, ShoeParams, Tableau, deal_shoes, play_shoe

__all__ = [
    "STREAM_HANDS",
    "BetReturn",
    "ShoeParams",
    "SimulationResult",
    "deal_order",
    "max_workers",
    "resolve_seed",
    "run_streams",
    "simulate",
    "stream_plan",
    "stream_states",
    "warm_up",
]

STREAM_HANDS = 1 << 20
"""Hands per independent stream (the last stream of a run takes the rest)."""
Z95 = 1.959963984540054
"""Two-sided 95% normal quantile."""


# -- the streams kernel ---------------------------------------------------------------


def _streams(
    states: npt.NDArray[np.uint64],
    quotas: npt.NDArray[np.int64],
    shoe: ShoeParams,
    tableau: Tableau,
    tallies: npt.NDArray[np.int64],
    stats: npt.NDArray[np.int64],
) -> None:
    """Independent streams, one per row, on numba's worker threads."""
    for k in prange(quotas.shape[0]):
        hands, voids, shoes = deal_shoes(states[k], quotas[k], shoe, tableau, tallies[k])
        stats[k, 0] = hands
        stats[k, 1] = voids
        stats[k, 2] = shoes


_streams_jit = njit(cache=True, parallel=True)(_streams)


# -- streams and their seeds ----------------------------------------------------------


def stream_plan(hands: int, *, stream_hands: int = STREAM_HANDS) -> list[int]:
    """The hand quota of each stream of a run of ``hands`` hands.

    >>> stream_plan(5, stream_hands=2)
    [2, 2, 1]
    """
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise SimulationError(f"the number of hands must be a positive whole number, not {hands}")
    full, rest = divmod(hands, stream_hands)
    return [stream_hands] * full + ([rest] if rest else [])


def resolve_seed(seed: int | None) -> int:
    """The seed of a run: ``seed`` itself (a whole number, 0 or more), or a fresh random
    one when it is ``None`` (the result reports it, so the run can be repeated).

    >>> resolve_seed(42)
    42
    >>> resolve_seed(-1)
    Traceback (most recent call last):
    ...
    punto.errors.SimulationError: the seed must be a whole number, 0 or more, not -1
    """
    if seed is None:
        return secrets.randbits(63)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise SimulationError(f"the seed must be a whole number, 0 or more, not {seed!r}")
    return seed


def stream_states(seed: int, first: int, count: int, *, purpose: int = 0) -> npt.NDArray[np.uint64]:
    """xoshiro256** states of streams ``first`` … ``first + count - 1`` of ``seed``."""
    resolve_seed(seed)
    states = np.empty((count, 4), dtype=np.uint64)
    for i in range(count):
        sequence = np.random.SeedSequence(seed, spawn_key=(purpose, first + i))
        state = sequence.generate_state(4, np.uint64)
        if not state.any():  # pragma: no cover - probability 2**-256
            state[0] = 1
        states[i] = state
    return states


def max_workers() -> int:
    """Most worker threads this machine's numba runtime offers."""
    config: object = numba.config
    threads = getattr(config, "NUMBA_NUM_THREADS", 1)
    return int(threads)


def run_streams(
    params: ShoeParams,
    states: npt.NDArray[np.uint64],
    quotas: npt.NDArray[np.int64],
    *,
    workers: int = 1,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Run streams (one row of ``states`` each; the array is not changed): summed cell
    tallies and per-stream (hands, void hands, shoes)."""
    states = np.array(states, dtype=np.uint64, copy=True)
    count = quotas.shape[0]
    tallies = np.zeros((count, CELLS), dtype=np.int64)
    stats = np.zeros((count, 3), dtype=np.int64)
    previous = numba.get_num_threads()
    numba.set_num_threads(max(1, min(workers, max_workers())))
    try:
        _streams_jit(states, quotas, params, TABLEAU, tallies, stats)
    finally:
        numba.set_num_threads(previous)
    return tallies.sum(axis=0), stats


def warm_up(params: ShoeParams, *, notice: CompileNotice | None = None) -> float:
    """Make the streams kernel ready for ``params`` before a run is timed: load it from
    numba's cache, or compile it (a first run after install: ``notice`` is told, see
    :func:`punto.compiling.compile_notice`). Returns the seconds spent compiling, 0.0
    when nothing compiled."""
    with compile_notice(notice) as compiled:
        run_streams(params, stream_states(0, 0, 1), np.ones(1, dtype=np.int64))
    return compiled.seconds


def deal_order(rules: Rules, ranks: npt.NDArray[np.integer], cut_index: int) -> list[int]:
    """Deal one shoe of a given rank order (0 = ace … 12 = king) and cut position with the
    kernel, and return each hand's cell (``-1 - cell`` for a void hand): the entry point
    that tests compare with :class:`~punto.dealing.ShoeDealer` on the same order."""
    params = ShoeParams.of(rules)
    record = np.zeros(ranks.shape[0], dtype=np.int64)
    tally = np.zeros(CELLS, dtype=np.int64)
    cards = np.ascontiguousarray(ranks, dtype=np.uint8)
    hands, _ = play_shoe(cards, cut_index, params, ranks.shape[0], TABLEAU, tally, record)
    return [int(cell) for cell in record[:hands]]


# -- results --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BetReturn:
    """A bet's observed return per unit staked (a house edge is a negative return), its
    95% confidence interval, and the exact return of a fresh shoe."""

    bet: Bet
    observed_return: float
    ci95: tuple[float, float]
    exact_return: float

    @property
    def within_ci(self) -> bool:
        """Whether the exact value lies in the confidence interval."""
        return self.ci95[0] <= self.exact_return <= self.ci95[1]


def _bet_returns(rules: Rules, counts: npt.NDArray[np.int64], hands: int) -> dict[Bet, BetReturn]:
    exact = analyze(rules, Composition.fresh(rules.decks))
    results: dict[Bet, BetReturn] = {}
    for bet in rules.offered_bets:
        table = bet_table(bet, rules.paytable_for(bet))
        total = Fraction(0)
        square = Fraction(0)
        for cells, odds in zip(table.cells_of_class, table.odds, strict=True):
            n = int(counts[cells].sum())
            total += odds * n
            square += odds * odds * n
        mean = total / hands
        variance = max(square / hands - mean * mean, Fraction(0))
        half = Z95 * math.sqrt(variance / hands)
        observed = float(mean)
        results[bet] = BetReturn(
            bet=bet,
            observed_return=observed,
            ci95=(observed - half, observed + half),
            exact_return=float(-exact.bets[bet].house_edge),
        )
    return results


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """What a run dealt and what each bet returned.

    ``hands`` counts resolved hands (the bets' sample); ``void_hands`` the hands [S5]
    voided (every bet refunded), which are dealt but not in the sample.
    """

    rules: str
    seed: int
    workers: int
    hands: int
    void_hands: int
    shoes: int
    seconds: float
    cell_counts: tuple[int, ...]
    bets: Mapping[Bet, BetReturn]
    compile_seconds: float = 0.0
    """Seconds spent compiling the shoe loop before dealing (a first run after install;
    0.0 when it came from numba's cache), not part of ``seconds``."""

    @property
    def hands_per_second(self) -> float:
        """Hands dealt (resolved or void) per second of wall time."""
        return (self.hands + self.void_hands) / self.seconds if self.seconds > 0 else math.inf

    @property
    def outcomes(self) -> dict[str, float]:
        """Observed Banker, Player and tie frequencies of the resolved hands."""
        sums = {Winner.BANKER: 0, Winner.PLAYER: 0, Winner.TIE: 0}
        for cell, count in enumerate(self.cell_counts):
            if count:
                sums[cell_facts(cell).winner] += count
        return {w.value: sums[w] / self.hands for w in (Winner.BANKER, Winner.PLAYER, Winner.TIE)}

    def as_dict(self) -> dict[str, object]:
        """The documented JSON of ``punto simulate --json``."""
        return {
            "rules": self.rules,
            "seed": self.seed,
            "workers": self.workers,
            "hands": self.hands,
            "void_hands": self.void_hands,
            "shoes": self.shoes,
            "seconds": self.seconds,
            "hands_per_second": self.hands_per_second,
            "compile_seconds": self.compile_seconds,
            "outcomes": self.outcomes,
            "bets": {
                bet.value: {
                    "observed_return": r.observed_return,
                    "ci95": [r.ci95[0], r.ci95[1]],
                    "exact_return": r.exact_return,
                }
                for bet, r in self.bets.items()
            },
        }


Progress = Callable[[int, int], None]
"""Called with (hands done, hands in all) as streams finish."""


def _batches(count: int, size: int) -> Iterator[tuple[int, int]]:
    for first in range(0, count, size):
        yield first, min(size, count - first)


def simulate(
    rules: Rules,
    *,
    hands: int,
    seed: int | None = None,
    workers: int = 1,
    progress: Progress | None = None,
    ray_address: str | None = None,
    stream_hands: int = STREAM_HANDS,
    compiling: CompileNotice | None = None,
) -> SimulationResult:
    """Deal ``hands`` hands of real shoes under ``rules`` and price every offered bet.

    ``workers`` threads run the streams here; with ``ray_address`` they run as Ray tasks
    instead (``"auto"``, ``"ray://host:port"`` …; a Ray runtime already initialised in
    this process is used as it is). Same seed and hands: the same tallies either way.
    The kernel is made ready before the clock starts (:func:`warm_up`; ``compiling`` is
    told if that compiles), so ``seconds`` is dealing time.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise SimulationError(f"workers must be a positive whole number, not {workers}")
    if workers > max_workers():
        raise SimulationError(
            f"{workers} workers asked, but this machine runs at most {max_workers()} threads"
        )
    if rules.continuous_shuffler and rules.decks * 52 < 6:  # pragma: no cover
        raise SimulationError("a shoe needs at least six cards")
    if rules.lightning is not None or rules.peek is not None:
        if ray_address is not None:
            raise SimulationError("a multiplier or Peek table is simulated here, not on Ray")
        # [LB] [PK] the hands' cards matter, not only their cells: the variant loop
        variants = importlib.import_module("punto.variant_simulation")
        result: SimulationResult = variants.simulate_variant(
            rules, hands=hands, seed=seed, workers=workers, stream_hands=stream_hands
        )
        return result
    quotas = stream_plan(hands, stream_hands=stream_hands)
    run_seed = resolve_seed(seed)
    params = ShoeParams.of(rules)
    compile_seconds = 0.0 if ray_address is not None else warm_up(params, notice=compiling)
    started = time.perf_counter()
    if ray_address is not None:
        counts, stats = _run_on_ray(params, run_seed, quotas, ray_address, progress=progress)
    else:
        counts = np.zeros(CELLS, dtype=np.int64)
        rows: list[npt.NDArray[np.int64]] = []
        done = 0
        for first, count in _batches(len(quotas), 2 * workers):
            states = stream_states(run_seed, first, count)
            batch = np.array(quotas[first : first + count], dtype=np.int64)
            tally, stat = run_streams(params, states, batch, workers=workers)
            counts += tally
            rows.append(stat)
            done += int(stat[:, 0].sum())
            if progress is not None:
                progress(done, hands)
        stats = np.concatenate(rows)
    seconds = time.perf_counter() - started
    dealt, voids, shoes = (int(x) for x in stats.sum(axis=0))
    resolved = dealt - voids
    if resolved < 1:
        raise SimulationError("no hand was resolved: nothing to report")
    return SimulationResult(
        rules=rules.name,
        seed=run_seed,
        workers=workers,
        hands=resolved,
        void_hands=voids,
        shoes=shoes,
        seconds=seconds,
        cell_counts=tuple(int(c) for c in counts.tolist()),
        bets=MappingProxyType(_bet_returns(rules, counts, resolved)),
        compile_seconds=compile_seconds,
    )


# -- Ray ------------------------------------------------------------------------------


def _ray_task(
    params: ShoeParams, seed: int, first: int, quotas: list[int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """One stream on a Ray worker: the same states and kernel as a local run."""
    states = stream_states(seed, first, len(quotas))
    return run_streams(params, states, np.array(quotas, dtype=np.int64), workers=1)


def _connect_ray(ray: ModuleType, address: str) -> None:
    """``ray.init(address)``, its failure a :class:`SimulationError` (the command line
    first checks that something answers at a ``HOST:PORT``, :mod:`punto.cli.cluster`:
    Ray itself retries an unreachable one for many minutes)."""
    try:
        ray.init(address=address)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SimulationError(f"cannot connect to Ray at {address!r}: {first_line}") from None


def _run_on_ray(
    params: ShoeParams,
    seed: int,
    quotas: list[int],
    address: str,
    *,
    progress: Progress | None,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        raise SimulationError(
            "Ray is not installed: install the 'ray' extra (pip install 'punto[ray]')"
        ) from None
    if not ray.is_initialized():
        _connect_ray(ray, address)
    task = ray.remote(num_cpus=1)(_ray_task)
    refs = [task.remote(params, seed, k, quotas[k : k + 1]) for k in range(len(quotas))]
    index = {ref: k for k, ref in enumerate(refs)}
    counts = np.zeros(CELLS, dtype=np.int64)
    stats = np.zeros((len(quotas), 3), dtype=np.int64)
    pending = list(refs)
    done = 0
    total = sum(quotas)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            tally, stat = ray.get(ref)
            counts += tally
            stats[index[ref]] = stat[0]
            done += int(stat[0, 0])
        if progress is not None:
            progress(done, total)
    return counts, stats
