"""Betting systems: no system changes the edge; progressions change the risk."""

from __future__ import annotations

import pytest

from punto.errors import SimulationError
from punto.rules import preset
from punto.simulation import max_workers
from punto.strategies import BettingSystem, Pattern, Progression, evaluate

RULES = preset("macau")


def _system(progression: Progression, pattern: Pattern, **kwargs: int) -> BettingSystem:
    settings = {"unit": 1000, "bankroll": 50_000, "session_hands": 100, **kwargs}
    return BettingSystem(progression=progression, pattern=pattern, **settings)


def test_flat_banker_returns_the_banker_edge() -> None:
    result = evaluate(RULES, _system(Progression.FLAT, Pattern.BANKER), sessions=40_000, seed=9)
    assert result.bets == 40_000 * 100
    # one unit per hand: the standard error of the return is about 0.93/sqrt(bets)
    assert result.return_per_staked == pytest.approx(result.exact_returns[0], abs=0.002)
    assert result.risk_of_ruin == 0


@pytest.mark.parametrize("pattern", [Pattern.FOLLOW, Pattern.CHOP, Pattern.MIRROR])
def test_road_patterns_do_not_beat_the_house(pattern: Pattern) -> None:
    result = evaluate(RULES, _system(Progression.FLAT, pattern), sessions=40_000, seed=10)
    banker, player = result.exact_returns
    # a mix of Banker and Player bets: between the two, give or take the noise
    assert min(banker, player) - 0.003 <= result.return_per_staked <= max(banker, player) + 0.003
    # no bet before the first decided hand of each shoe
    assert result.bets < 40_000 * 100


def test_martingale_trades_small_wins_for_ruin() -> None:
    flat = evaluate(RULES, _system(Progression.FLAT, Pattern.BANKER), sessions=5000, seed=4)
    doubling = evaluate(
        RULES, _system(Progression.MARTINGALE, Pattern.BANKER), sessions=5000, seed=4
    )
    assert doubling.risk_of_ruin > flat.risk_of_ruin
    assert doubling.chance_ahead > flat.chance_ahead  # many small wins…
    assert doubling.return_per_staked < 0


def test_a_table_maximum_caps_the_progression() -> None:
    capped = _system(Progression.MARTINGALE, Pattern.BANKER, max_bet=4000)
    result = evaluate(RULES, capped, sessions=2000, seed=2)
    assert result.total_staked <= result.bets * 4000


def test_results_are_reproducible_for_a_seed_whatever_the_workers() -> None:
    system = _system(Progression.PAROLI, Pattern.MIRROR)
    one = evaluate(RULES, system, sessions=9000, seed=5, workers=1)
    again = evaluate(RULES, system, sessions=9000, seed=5, workers=1)
    assert (one.total_net, one.total_staked, one.ruined) == (
        again.total_net,
        again.total_staked,
        again.ruined,
    )
    if max_workers() >= 2:
        two = evaluate(RULES, system, sessions=9000, seed=5, workers=2)
        assert (two.total_net, two.total_staked, two.ruined) == (
            one.total_net,
            one.total_staked,
            one.ruined,
        )


def test_a_unit_that_cannot_be_paid_exactly_is_refused() -> None:
    with pytest.raises(SimulationError, match="multiple of 20"):
        evaluate(RULES, _system(Progression.FLAT, Pattern.BANKER, unit=1010), sessions=10)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"unit": 0}, "unit must be"),
        ({"bankroll": 500}, "cannot cover one unit"),
        ({"max_bet": 10}, "below one unit"),
    ],
)
def test_bad_systems_are_refused(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        _system(Progression.FLAT, Pattern.BANKER, **kwargs)


def test_bad_session_counts_are_refused() -> None:
    with pytest.raises(SimulationError, match="sessions must be"):
        evaluate(RULES, _system(Progression.FLAT, Pattern.BANKER), sessions=0)
