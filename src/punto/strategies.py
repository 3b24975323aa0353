"""Betting systems over simulated shoes: return and risk of ruin.

A :class:`BettingSystem` is a stake *progression* (flat, Martingale, Paroli,
d'Alembert) and a *pattern* that picks the side of each Banker/Player bet: always
Banker, always Player, or a reading of the Big Road of the current shoe [O] — follow the
last winner (ride the streak), chop (bet against it), or mirror the previous column (bet
the current column will end at the previous column's length). The road reading uses the
Big Road's logical columns: runs of the same winner, ties left out, started afresh with
every shoe.

Each session starts a new shoe with the bankroll and plays up to ``session_hands``
hands, across shoes if needed, until the bankroll cannot cover one unit (ruin). Shoes are
dealt by the compiled shoe loop of :mod:`punto.shoeloop` (cut card, burns, last-hand rule); stakes
are whole multiples of the unit, and the unit must make every payout a whole number of
minor units, so money stays exact integers. No system changes the house edge:

>>> from punto.rules import preset
>>> system = BettingSystem(progression=Progression.MARTINGALE, pattern=Pattern.BANKER,
...                        unit=1000, bankroll=100_000, session_hands=50)
>>> result = evaluate(preset("macau"), system, sessions=2000, seed=1)
>>> 0 <= result.risk_of_ruin <= 1, result.sessions
(True, 2000)
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numba
import numpy as np
import numpy.typing as npt
from numba import njit, prange

from punto.analysis import CELLS, Composition, analyze, bet_table, cell_facts
from punto.bets import Bet
from punto.compiling import CompileNotice, compile_notice
from punto.errors import SimulationError
from punto.money import DEFAULT_DIGITS, display_amount
from punto.outcome import Winner
from punto.rules import Rules
from punto.shoeloop import TABLEAU, ShoeParams, Tableau, new_shoe, ordered_shoe, play_shoe, private
from punto.simulation import max_workers, resolve_seed, stream_states

__all__ = [
    "SESSIONS_PER_STREAM",
    "BettingSystem",
    "Pattern",
    "Progression",
    "SystemResult",
    "evaluate",
]

SESSIONS_PER_STREAM = 4096
"""Sessions per independent random stream."""
_PURPOSE = 1
"""Seed-sequence purpose of betting-system streams (simulation streams use 0)."""


class Progression(enum.Enum):
    """How the stake moves from bet to bet (in units; pushes change nothing)."""

    FLAT = "flat"
    """One unit every time."""
    MARTINGALE = "martingale"
    """Double after a loss, back to one unit after a win."""
    PAROLI = "paroli"
    """Double after a win, back to one unit after three wins in a row or a loss."""
    DALEMBERT = "dalembert"
    """One unit more after a loss, one less after a win (never below one)."""


class Pattern(enum.Enum):
    """Which side to bet, read from the shoe's Big Road."""

    BANKER = "banker"
    """Always Banker."""
    PLAYER = "player"
    """Always Player."""
    FOLLOW = "follow"
    """The side that won the last non-tie hand of this shoe (no bet before one)."""
    CHOP = "chop"
    """The side that lost the last non-tie hand of this shoe."""
    MIRROR = "mirror"
    """Expect the current Big Road column to end at the previous column's length:
    follow while it is shorter, then chop (follow in the shoe's first column)."""


_PROGRESSION_CODES = {p: i for i, p in enumerate(Progression)}
_PATTERN_CODES = {p: i for i, p in enumerate(Pattern)}


@dataclass(frozen=True, kw_only=True, slots=True)
class BettingSystem:
    """A betting system; amounts are in minor units (cents)."""

    progression: Progression = Progression.FLAT
    pattern: Pattern = Pattern.BANKER
    unit: int
    bankroll: int
    session_hands: int = 100
    max_bet: int | None = None
    """The table's maximum bet: a progression never stakes more."""
    digits: int = DEFAULT_DIGITS
    """Decimal digits of the currency's minor unit: messages say amounts in major units."""

    def __post_init__(self) -> None:
        for name in ("unit", "bankroll", "session_hands"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise SimulationError(f"{name} must be a positive whole number, not {value!r}")
        d = self.digits
        if self.bankroll < self.unit:
            raise SimulationError(
                f"a bankroll of {display_amount(self.bankroll, digits=d)} cannot cover one "
                f"unit of {display_amount(self.unit, digits=d)}"
            )
        if self.max_bet is not None and self.max_bet < self.unit:
            raise SimulationError(
                f"the maximum bet {display_amount(self.max_bet, digits=d)} is below one unit "
                f"of {display_amount(self.unit, digits=d)}"
            )

    @property
    def name(self) -> str:
        """``progression/pattern``, e.g. ``martingale/follow``."""
        return f"{self.progression.value}/{self.pattern.value}"


@dataclass(frozen=True, slots=True)
class SystemResult:
    """What a betting system did over ``sessions`` sessions (amounts in minor units)."""

    rules: str
    system: BettingSystem
    seed: int
    sessions: int
    bets: int
    total_staked: int
    total_net: int
    ruined: int
    ahead: int
    seconds: float
    exact_returns: tuple[float, float]
    """Exact return per unit staked of a Banker and of a Player bet off the top: every
    system's return is a mix of the two, whatever its stakes."""
    compile_seconds: float = 0.0
    """Seconds spent compiling the sessions kernel before playing (a first run after
    install; 0.0 when it came from numba's cache), not part of ``seconds``."""

    @property
    def return_per_staked(self) -> float:
        """Net result per unit staked."""
        return float(Fraction(self.total_net, self.total_staked)) if self.total_staked else 0.0

    @property
    def risk_of_ruin(self) -> float:
        """Share of sessions that lost the bankroll (could not cover one unit)."""
        return self.ruined / self.sessions

    @property
    def mean_net(self) -> float:
        """Average net result of a session, in minor units."""
        return self.total_net / self.sessions

    @property
    def chance_ahead(self) -> float:
        """Share of sessions that ended above the starting bankroll."""
        return self.ahead / self.sessions

    def as_dict(self) -> dict[str, object]:
        """Plain data for ``punto simulate --strategy … --json``."""
        return {
            "rules": self.rules,
            "strategy": self.system.name,
            "seed": self.seed,
            "sessions": self.sessions,
            "session_hands": self.system.session_hands,
            "unit": self.system.unit,
            "bankroll": self.system.bankroll,
            "bets": self.bets,
            "total_staked": self.total_staked,
            "total_net": self.total_net,
            "return": self.return_per_staked,
            "exact_returns": {"banker": self.exact_returns[0], "player": self.exact_returns[1]},
            "mean_net": self.mean_net,
            "risk_of_ruin": self.risk_of_ruin,
            "chance_ahead": self.chance_ahead,
            "seconds": self.seconds,
            "compile_seconds": self.compile_seconds,
        }


# -- the kernel -----------------------------------------------------------------------


class _Play(NamedTuple):
    """A :class:`BettingSystem` as the kernel reads it (codes and minor units)."""

    progression: int
    pattern: int
    unit: int
    bankroll: int
    max_bet: int
    session_hands: int


class _Payouts(NamedTuple):
    """What each cell means to a Banker or Player bet."""

    winner_of_cell: npt.NDArray[np.int64]
    """0 Banker, 1 Player, 2 tie."""
    net_num: npt.NDArray[np.int64]
    """``[side, cell]``: numerator of the net result per unit staked (side 0 Banker)."""
    net_den: npt.NDArray[np.int64]
    """``[side, cell]``: its denominator."""


def _sessions(
    state: npt.NDArray[np.uint64],
    shoe: ShoeParams,
    tableau: Tableau,
    play: _Play,
    payouts: _Payouts,
    out: npt.NDArray[np.int64],
) -> None:
    """``out[i]`` = (final bankroll, staked, bets, ruined) of session ``i``."""
    progression = play.progression
    pattern = play.pattern
    unit = play.unit
    max_bet = play.max_bet
    session_hands = play.session_hands
    winner_of_cell = payouts.winner_of_cell
    net_num = payouts.net_num
    net_den = payouts.net_den
    cards = ordered_shoe(shoe.decks)
    own = private(state)
    tally = private(np.zeros(winner_of_cell.shape[0], dtype=np.int64))
    record = private(np.zeros(cards.shape[0], dtype=np.int64))
    for session in range(out.shape[0]):
        money = play.bankroll
        staked = 0
        bets = 0
        ruined = 0
        k = 1
        streak = 0
        played = 0
        while played < session_hands and ruined == 0:
            cut_index = new_shoe(own, cards, shoe)
            dealt, _ = play_shoe(
                cards, cut_index, shoe, session_hands - played, tableau, tally, record
            )
            if dealt == 0:
                break
            last = -1  # Big Road: last non-tie winner (0 Banker, 1 Player)
            run = 0
            previous_run = 0
            for h in range(dealt):
                played += 1
                cell = record[h]
                if cell < 0:
                    continue  # [S5] void hand: every bet refunded, nothing on the road
                side = -1
                if pattern == 0:
                    side = 0
                elif pattern == 1:
                    side = 1
                elif last >= 0:
                    if pattern == 2:
                        side = last
                    elif pattern == 3:
                        side = 1 - last
                    elif previous_run == 0 or run < previous_run:
                        side = last
                    else:
                        side = 1 - last
                if side >= 0:
                    stake = k * unit
                    if stake > max_bet:
                        stake = (max_bet // unit) * unit
                    if stake > money:
                        stake = (money // unit) * unit
                    if stake < unit:
                        ruined = 1
                        break
                    net = stake * net_num[side, cell] // net_den[side, cell]
                    money += net
                    staked += stake
                    bets += 1
                    if net > 0:
                        if progression == 1:
                            k = 1
                        elif progression == 2:
                            streak += 1
                            if streak >= 3:
                                k = 1
                                streak = 0
                            else:
                                k *= 2
                        elif progression == 3:
                            k = max(1, k - 1)
                    elif net < 0:
                        if progression == 1:
                            k *= 2
                        elif progression == 2:
                            k = 1
                            streak = 0
                        elif progression == 3:
                            k += 1
                winner = winner_of_cell[cell]
                if winner < 2:
                    if winner == last:
                        run += 1
                    else:
                        if last >= 0:
                            previous_run = run
                        run = 1
                        last = winner
            if money < unit:
                ruined = 1
        out[session, 0] = money
        out[session, 1] = staked
        out[session, 2] = bets
        out[session, 3] = ruined


_sessions_jit = njit(cache=True)(_sessions)


def _all_sessions(
    states: npt.NDArray[np.uint64],
    counts: npt.NDArray[np.int64],
    offsets: npt.NDArray[np.int64],
    shoe: ShoeParams,
    tableau: Tableau,
    play: _Play,
    payouts: _Payouts,
    out: npt.NDArray[np.int64],
) -> None:
    """Independent streams of sessions, one per row of ``states``, on numba's worker
    threads: stream ``s`` plays ``counts[s]`` sessions into ``out`` from ``offsets[s]``."""
    for s in prange(counts.shape[0]):
        start = offsets[s]
        _sessions_jit(states[s], shoe, tableau, play, payouts, out[start : start + counts[s]])


_all_sessions_jit = njit(cache=True, parallel=True)(_all_sessions)


# -- driver ---------------------------------------------------------------------------


def _net_tables(rules: Rules, unit: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per side (Banker, Player) and cell: the net result as numerator/denominator."""
    num = np.zeros((2, CELLS), dtype=np.int64)
    den = np.ones((2, CELLS), dtype=np.int64)
    for side, bet in enumerate((Bet.BANKER, Bet.PLAYER)):
        table = bet_table(bet, rules.paytable_for(bet))
        for cells, odds in zip(table.cells_of_class, table.odds, strict=True):
            if (unit * odds).denominator != 1:
                d = rules.currency_digits
                raise SimulationError(
                    f"a unit of {display_amount(unit, digits=d)} does not pay a whole amount "
                    f"on {bet.label} ({table.paytable.name} pays {odds}); choose a unit that "
                    f"is a multiple of {display_amount(odds.denominator, digits=d)}"
                )
            num[side, cells] = odds.numerator
            den[side, cells] = odds.denominator
    return num, den


def _winner_codes() -> npt.NDArray[np.int64]:
    codes = {Winner.BANKER: 0, Winner.PLAYER: 1, Winner.TIE: 2}
    return np.array([codes[cell_facts(c).winner] for c in range(CELLS)], dtype=np.int64)


def _warm_up(
    params: ShoeParams, play: _Play, payouts: _Payouts, notice: CompileNotice | None
) -> float:
    """One session, to load or compile the kernel: the seconds spent compiling."""
    one = np.ones(1, dtype=np.int64)
    with compile_notice(notice) as compiled:
        _all_sessions_jit(
            stream_states(0, 0, 1, purpose=_PURPOSE),
            one,
            np.zeros(1, dtype=np.int64),
            params,
            TABLEAU,
            play._replace(session_hands=1),
            payouts,
            np.zeros((1, 4), dtype=np.int64),
        )
    return compiled.seconds


def evaluate(
    rules: Rules,
    system: BettingSystem,
    *,
    sessions: int,
    seed: int | None = None,
    workers: int = 1,
    compiling: CompileNotice | None = None,
) -> SystemResult:
    """Play ``sessions`` sessions of ``system`` on shoes dealt under ``rules``.

    Reproducible for a seed (whatever the number of workers). The kernel is made ready
    before the clock starts (``compiling`` is told if that compiles, see
    :func:`punto.compiling.compile_notice`), so ``seconds`` is playing time.
    """
    if isinstance(sessions, bool) or not isinstance(sessions, int) or sessions < 1:
        raise SimulationError(f"sessions must be a positive whole number, not {sessions!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or not workers >= 1:
        raise SimulationError(f"workers must be a positive whole number, not {workers!r}")
    if workers > max_workers():
        raise SimulationError(
            f"{workers} workers asked, but this machine runs at most {max_workers()} threads"
        )
    for bet in (Bet.BANKER, Bet.PLAYER):
        rules.paytable_for(bet)
    if rules.continuous_shuffler:
        raise SimulationError("betting systems read the roads of real shoes, not a shuffler")
    if rules.lightning is not None or rules.peek is not None:
        # [LB] [PK] their payouts depend on more than the cell the sessions are priced by
        raise SimulationError(
            f"betting systems are not evaluated at a multiplier or Peek table ({rules.name})"
        )
    net_num, net_den = _net_tables(rules, system.unit)
    payouts = _Payouts(winner_of_cell=_winner_codes(), net_num=net_num, net_den=net_den)
    play = _Play(
        progression=_PROGRESSION_CODES[system.progression],
        pattern=_PATTERN_CODES[system.pattern],
        unit=system.unit,
        bankroll=system.bankroll,
        max_bet=system.max_bet if system.max_bet is not None else int(np.iinfo(np.int64).max),
        session_hands=system.session_hands,
    )
    run_seed = resolve_seed(seed)
    params = ShoeParams.of(rules)
    full, rest = divmod(sessions, SESSIONS_PER_STREAM)
    counts = np.array([SESSIONS_PER_STREAM] * full + ([rest] if rest else []), dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    states = stream_states(run_seed, 0, counts.shape[0], purpose=_PURPOSE)
    out = np.zeros((sessions, 4), dtype=np.int64)
    compile_seconds = _warm_up(params, play, payouts, compiling)
    started = time.perf_counter()
    previous = numba.get_num_threads()
    numba.set_num_threads(workers)
    try:
        _all_sessions_jit(states, counts, offsets, params, TABLEAU, play, payouts, out)
    finally:
        numba.set_num_threads(previous)
    seconds = time.perf_counter() - started
    exact = analyze(rules, Composition.fresh(rules.decks), bets=[Bet.BANKER, Bet.PLAYER])
    return SystemResult(
        rules=rules.name,
        system=system,
        seed=run_seed,
        sessions=sessions,
        bets=int(out[:, 2].sum()),
        total_staked=int(out[:, 1].sum()),
        total_net=int(out[:, 0].sum()) - sessions * system.bankroll,
        ruined=int(out[:, 3].sum()),
        ahead=int((out[:, 0] > system.bankroll).sum()),
        seconds=seconds,
        exact_returns=(
            float(-exact.bets[Bet.BANKER].house_edge),
            float(-exact.bets[Bet.PLAYER].house_edge),
        ),
        compile_seconds=compile_seconds,
    )
