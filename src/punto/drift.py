"""Observed against exact: a table's results tested against its rules' exact figures.

Pure statistics, no I/O. :func:`expectations` takes the exact figures of a fresh shoe
under a table's rules from :mod:`punto.analysis`; :func:`drift_report` sets what a table
dealt (:class:`ObservedHand`: the coup's results and every wager's stake and net) against
them:

- **Return to player per bet**: the observed RTP (returned ÷ staked, stake included)
  with its 99% confidence band around the exact RTP. With stakes ``s_i`` the net result
  has standard deviation ``σ·√(Σ s_i²)``, so the band is
  ``RTP ± 2.5758·σ·√(Σ s_i²) / Σ s_i`` (σ: the bet's exact standard deviation per unit).
- **Outcome frequencies**: Banker / Player / Tie by a chi-square goodness-of-fit test
  (2 degrees of freedom: ``p = exp(-χ²/2)``), and Player Pair, Banker Pair and naturals
  each by a two-sided binomial test (normal approximation).

A test is run only with enough data (:data:`MIN_HANDS` coups, :data:`MIN_WAGERS` wagers
on a bet). The **alarm** rises when any test's p-value is below ``significance / k``
(Bonferroni over the ``k`` tests run; ``significance`` 1% by default), so a fair table
raises it in fewer than 1% of reports however many bets it offers; the 99% bands are
shown per bet. Hands from one shoe are dealt without replacement, so they are not quite
independent; the fresh-shoe probabilities are what every hand of a shoe averages to, and
the tests are approximate in that sense (they are made to catch a faulty or stacked
shoe, a shuffle problem or cheating, which move the figures far more).

>>> from punto.rules import preset
>>> exact = expectations(preset("macau"))
>>> round(exact.rtp[Bet.BANKER], 6), round(exact.events["tie"], 6)
(0.989421, 0.095156)
>>> report = drift_report([], exact)
>>> report.alarm, report.hands
(False, 0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from punto.analysis import COUP_EVENTS, Composition, analyze, event_holds, event_probabilities
from punto.bets import Bet, CoupFacts
from punto.outcome import Outcome
from punto.rules import Rules

__all__ = [
    "MIN_HANDS",
    "MIN_WAGERS",
    "Z_99",
    "BetDrift",
    "DriftReport",
    "Expectations",
    "ObservedHand",
    "OutcomeTest",
    "Wager",
    "drift_report",
    "expectations",
]

Z_99 = 2.5758293035489
"""The two-sided 99% point of the standard normal distribution."""
MIN_HANDS = 100
"""Fewest coups before the outcome frequencies are tested (every expected count ≥ 5)."""
MIN_WAGERS = 30
"""Fewest wagers on a bet before its RTP is tested."""


@dataclass(frozen=True, slots=True)
class Expectations:
    """A table's exact figures for a fresh shoe: per bet RTP and standard deviation per
    unit staked, and the probability of each of :data:`~punto.analysis.COUP_EVENTS`."""

    rules: str
    rtp: Mapping[Bet, float]
    std_dev: Mapping[Bet, float]
    events: Mapping[str, float]


def expectations(rules: Rules) -> Expectations:
    """The exact figures of ``rules`` for a fresh shoe (from :func:`punto.analysis.analyze`)."""
    result = analyze(rules)
    events = event_probabilities(Composition.fresh(rules.decks))
    return Expectations(
        rules=rules.name,
        rtp=MappingProxyType({bet: float(a.rtp) for bet, a in result.bets.items()}),
        std_dev=MappingProxyType({bet: a.std_dev for bet, a in result.bets.items()}),
        events=MappingProxyType({event: float(p) for event, p in events.items()}),
    )


@dataclass(frozen=True, slots=True)
class Wager:
    """One bet on one hand: its stake and net result (minor units)."""

    bet: Bet
    stake: int
    net: int


@dataclass(frozen=True, slots=True)
class ObservedHand:
    """What a dealt hand counts for: which :data:`~punto.analysis.COUP_EVENTS` happened,
    and the wagers settled on it."""

    events: frozenset[str]
    wagers: tuple[Wager, ...] = ()

    @classmethod
    def of(cls, outcome: Outcome, wagers: Iterable[Wager] = ()) -> ObservedHand:
        """The hand an outcome and its wagers make."""
        facts = CoupFacts.of(outcome)
        events = frozenset(e for e in COUP_EVENTS if event_holds(facts, e))
        return cls(events, tuple(wagers))


@dataclass(frozen=True, slots=True)
class BetDrift:
    """A bet's observed RTP next to the exact one, with the 99% band and the test."""

    bet: Bet
    wagers: int
    staked: int
    returned: int
    exact_rtp: float
    observed_rtp: float | None
    band: tuple[float, float] | None
    p_value: float | None
    """``None``: too few wagers to test."""

    @property
    def outside_band(self) -> bool:
        """Whether the observed RTP is outside the 99% band."""
        if self.band is None or self.observed_rtp is None:
            return False
        return not self.band[0] <= self.observed_rtp <= self.band[1]


@dataclass(frozen=True, slots=True)
class OutcomeTest:
    """An outcome frequency against the exact one; ``test`` is ``chi_square`` (Banker,
    Player, Tie together) or ``binomial``."""

    name: str
    test: str
    count: int
    hands: int
    observed: float | None
    expected: float
    statistic: float | None
    p_value: float | None


@dataclass(frozen=True, slots=True)
class DriftReport:
    """Every test for one set of hands, and whether the alarm rises."""

    rules: str
    hands: int
    bets: tuple[BetDrift, ...]
    outcomes: tuple[OutcomeTest, ...]
    significance: float
    threshold: float
    """The p-value below which a test raises the alarm (``significance / k``)."""
    alarm: bool
    reasons: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, object]:
        """JSON data of the report."""
        return {
            "rules": self.rules,
            "hands": self.hands,
            "significance": self.significance,
            "threshold": self.threshold,
            "alarm": self.alarm,
            "reasons": list(self.reasons),
            "bets": [
                {
                    "bet": b.bet.value,
                    "wagers": b.wagers,
                    "staked": b.staked,
                    "returned": b.returned,
                    "exact_rtp": b.exact_rtp,
                    "observed_rtp": b.observed_rtp,
                    "band": None if b.band is None else list(b.band),
                    "outside_band": b.outside_band,
                    "p_value": b.p_value,
                }
                for b in self.bets
            ],
            "outcomes": [
                {
                    "name": o.name,
                    "test": o.test,
                    "count": o.count,
                    "hands": o.hands,
                    "observed": o.observed,
                    "expected": o.expected,
                    "statistic": o.statistic,
                    "p_value": o.p_value,
                }
                for o in self.outcomes
            ],
        }


def _two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def _bet_drift(bet: Bet, wagers: Sequence[Wager], exact: Expectations) -> BetDrift:
    rtp = exact.rtp[bet]
    staked = sum(w.stake for w in wagers)
    returned = staked + sum(w.net for w in wagers)
    observed = returned / staked if staked else None
    band: tuple[float, float] | None = None
    p_value: float | None = None
    if staked:
        spread = exact.std_dev[bet] * math.sqrt(sum(w.stake**2 for w in wagers)) / staked
        band = (rtp - Z_99 * spread, rtp + Z_99 * spread)
        if len(wagers) >= MIN_WAGERS and spread > 0 and observed is not None:
            p_value = _two_sided((observed - rtp) / spread)
    return BetDrift(bet, len(wagers), staked, returned, rtp, observed, band, p_value)


def _outcome_tests(hands: Sequence[ObservedHand], exact: Expectations) -> list[OutcomeTest]:
    n = len(hands)
    counts = {event: sum(event in h.events for h in hands) for event in COUP_EVENTS}
    enough = n >= MIN_HANDS
    tests: list[OutcomeTest] = []
    sides = ("banker", "player", "tie")
    chi2 = (
        sum((counts[e] - n * exact.events[e]) ** 2 / (n * exact.events[e]) for e in sides)
        if n
        else None
    )
    for event in sides:
        tests.append(
            OutcomeTest(
                name=event,
                test="chi_square",
                count=counts[event],
                hands=n,
                observed=counts[event] / n if n else None,
                expected=exact.events[event],
                statistic=chi2 if enough else None,
                # Chi-square with 2 degrees of freedom: the survival function is exp(-x/2).
                p_value=math.exp(-chi2 / 2) if enough and chi2 is not None else None,
            )
        )
    for event in COUP_EVENTS[3:]:
        p = exact.events[event]
        z = (counts[event] - n * p) / math.sqrt(n * p * (1 - p)) if n else None
        tests.append(
            OutcomeTest(
                name=event,
                test="binomial",
                count=counts[event],
                hands=n,
                observed=counts[event] / n if n else None,
                expected=p,
                statistic=z if enough else None,
                p_value=_two_sided(z) if enough and z is not None else None,
            )
        )
    return tests


def drift_report(
    hands: Iterable[ObservedHand], exact: Expectations, *, significance: float = 0.01
) -> DriftReport:
    """Test ``hands`` against ``exact``; the alarm rises when a test's p-value is below
    ``significance`` divided by the number of tests run."""
    if not 0 < significance < 1:
        raise ValueError(f"significance must be between 0 and 1, not {significance}")
    dealt = list(hands)
    by_bet: dict[Bet, list[Wager]] = {}
    for hand in dealt:
        for wager in hand.wagers:
            by_bet.setdefault(wager.bet, []).append(wager)
    bets = tuple(_bet_drift(bet, by_bet.get(bet, []), exact) for bet in exact.rtp if bet in by_bet)
    outcomes = _outcome_tests(dealt, exact)
    # The three chi-square rows share one test.
    tests: list[tuple[str, float]] = [
        (f"rtp:{b.bet.value}", b.p_value) for b in bets if b.p_value is not None
    ]
    if outcomes[0].p_value is not None:
        tests.append(("outcomes:banker_player_tie", outcomes[0].p_value))
    tests.extend((f"outcomes:{o.name}", o.p_value) for o in outcomes[3:] if o.p_value is not None)
    threshold = significance / max(1, len(tests))
    reasons = tuple(name for name, p in tests if p < threshold)
    return DriftReport(
        rules=exact.rules,
        hands=len(dealt),
        bets=bets,
        outcomes=tuple(outcomes),
        significance=significance,
        threshold=threshold,
        alarm=bool(reasons),
        reasons=reasons,
    )
