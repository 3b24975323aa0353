"""Simulation: the kernel deals like ShoeDealer, results match the exact analysis and
are reproducible."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numba import njit

from punto.analysis import cell_index
from punto.bets import CoupFacts
from punto.compiling import compile_notice
from punto.dealing import HandDealt, ShoeDealer, ShoeEnded, ShoeStarted
from punto.errors import SimulationError
from punto.rules import PRESETS, LastHandRule, Rules, preset
from punto.shoeloop import next_random
from punto.simulation import (
    ShoeParams,
    deal_order,
    max_workers,
    run_streams,
    simulate,
    stream_plan,
    stream_states,
    warm_up,
)

MASK = (1 << 64) - 1


def _xoshiro_reference(state: list[int]) -> int:
    """xoshiro256** as published (Blackman and Vigna), in plain Python."""

    def rotl(x: int, k: int) -> int:
        return ((x << k) | (x >> (64 - k))) & MASK

    result = (rotl((state[1] * 5) & MASK, 7) * 9) & MASK
    t = (state[1] << 17) & MASK
    state[2] ^= state[0]
    state[3] ^= state[1]
    state[1] ^= state[2]
    state[0] ^= state[3]
    state[2] ^= t
    state[3] = rotl(state[3], 45)
    return result


def test_generator_is_xoshiro256_star_star() -> None:
    state = stream_states(2024, 0, 1)[0].copy()
    reference = [int(x) for x in state]
    for _ in range(100):
        assert int(next_random(state)) == _xoshiro_reference(reference)


def _dealer_cells(rules: Rules, seed: int) -> tuple[list[int], list[int], int]:
    """Deal a shoe with ShoeDealer: its card ranks, cut index and each hand's cell."""
    events = list(ShoeDealer(rules, seed=seed).deal_all())
    started = next(e for e in events if isinstance(e, ShoeStarted))
    ended = next(e for e in events if isinstance(e, ShoeEnded))
    assert ended.reveal is not None
    ranks = [card.rank - 1 for card in ended.reveal.order]
    cells = []
    for event in events:
        if isinstance(event, HandDealt):
            cell = cell_index(CoupFacts.of(event.outcome))
            cells.append(-1 - cell if event.void else cell)
    return ranks, cells, started.cut_index


SHORT_SHOES = [
    preset(name).replace(decks=1, cut_min_from_end=low, cut_max_from_end=high, demo_hands=demo)
    for name, low, high, demo in [
        ("macau", 12, 20, 0),
        ("live_tiger", 6, 14, 1),
        ("online_8deck", 6, 9, 0),
        ("super_punto_banco", 6, 12, 0),
        ("no_commission", 12, 16, 3),
    ]
]


@pytest.mark.parametrize("rules", [*SHORT_SHOES, *PRESETS.values()], ids=lambda r: r.name)
def test_kernel_deals_the_same_shoe_as_shoe_dealer(rules: Rules) -> None:
    seeds = range(40) if rules.decks == 1 else range(3)
    for seed in seeds:
        ranks, expected, cut_index = _dealer_cells(rules, seed)
        got = deal_order(rules, np.array(ranks, dtype=np.int8), cut_index)
        assert got == expected, f"{rules.name} seed {seed}"


def test_min_seven_or_void_voids_hands_in_the_kernel_too() -> None:
    rules = SHORT_SHOES[3]
    assert rules.last_hand is LastHandRule.MIN_SEVEN_OR_VOID
    voids = 0
    for seed in range(60):
        ranks, expected, cut_index = _dealer_cells(rules, seed)
        got = deal_order(rules, np.array(ranks, dtype=np.int8), cut_index)
        assert got == expected
        voids += sum(cell < 0 for cell in got)
    assert voids > 0


@pytest.mark.parametrize("name", ["macau", "live_tiger", "online_8deck", "ez"])
def test_observed_returns_agree_with_the_exact_values(name: str) -> None:
    result = simulate(preset(name), hands=3_000_000, seed=20240607)
    for bet, r in result.bets.items():
        low, high = r.ci95
        half = (high - low) / 2
        # within four standard errors (the reported interval is 1.96 of them)
        assert abs(r.observed_return - r.exact_return) <= 4 * half / 1.959963984540054, bet
    outcomes = result.outcomes
    assert outcomes["banker"] == pytest.approx(0.4586, abs=0.002)
    assert math.isclose(sum(outcomes.values()), 1.0)


def test_results_are_reproducible_for_a_seed_whatever_the_workers() -> None:
    rules = preset("live_tiger")
    one = simulate(rules, hands=300_000, seed=7, workers=1, stream_hands=50_000)
    again = simulate(rules, hands=300_000, seed=7, workers=1, stream_hands=50_000)
    assert one.cell_counts == again.cell_counts
    if max_workers() >= 2:
        two = simulate(rules, hands=300_000, seed=7, workers=2, stream_hands=50_000)
        assert two.cell_counts == one.cell_counts
    other = simulate(rules, hands=300_000, seed=8, workers=1, stream_hands=50_000)
    assert other.cell_counts != one.cell_counts


def test_a_run_deals_exactly_the_hands_asked() -> None:
    result = simulate(preset("super_punto_banco"), hands=123_457, seed=3, stream_hands=10_000)
    assert result.hands + result.void_hands == 123_457
    assert sum(result.cell_counts) == result.hands
    assert result.shoes > 1000


def test_streams_merge_exactly() -> None:
    params = ShoeParams.of(preset("macau"))
    states = stream_states(11, 0, 3)
    quotas = np.array([1000, 2000, 500], dtype=np.int64)
    together, stats = run_streams(params, states, quotas)
    parts = [run_streams(params, states[k : k + 1].copy(), quotas[k : k + 1])[0] for k in range(3)]
    assert (together == sum(parts)).all()
    assert stats[:, 0].tolist() == [1000, 2000, 500]


def test_continuous_shuffler_deals_every_hand_from_a_full_shoe() -> None:
    rules = preset("macau").replace(continuous_shuffler=True, burn=preset("macau").burn)
    result = simulate(rules, hands=200_000, seed=5)
    assert result.shoes == 1
    banker = result.bets[next(iter(result.bets))]
    assert banker.within_ci or abs(banker.observed_return - banker.exact_return) < 0.01


@pytest.mark.parametrize(
    ("hands", "workers", "message"),
    [
        (0, 1, "positive whole number"),
        (10, 0, "workers must be"),
        (10, 10_000, "at most"),
    ],
)
def test_bad_settings_are_refused(hands: int, workers: int, message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        simulate(preset("macau"), hands=hands, workers=workers)


def test_stream_plan_splits_hands() -> None:
    assert stream_plan(10, stream_hands=4) == [4, 4, 2]
    assert stream_plan(8, stream_hands=4) == [4, 4]


@pytest.mark.parametrize("seed", [-1, 1.5, True, "7"])
def test_a_seed_that_is_not_a_whole_number_0_or_more_is_refused(seed: object) -> None:
    with pytest.raises(SimulationError, match="seed must be a whole number"):
        simulate(preset("macau"), hands=10, seed=seed)  # type: ignore[arg-type]


def test_the_seed_drawn_for_a_run_is_reported_and_repeats_it() -> None:
    first = simulate(preset("macau"), hands=5000)
    again = simulate(preset("macau"), hands=5000, seed=first.seed)
    assert first.seed >= 0
    assert again.cell_counts == first.cell_counts


def test_a_compilation_is_said_once_with_its_time() -> None:
    said: list[float | None] = []
    kernel = njit(lambda x: x * 2)
    with compile_notice(said.append) as first:
        kernel(3)
    with compile_notice(said.append) as second:
        kernel(4)
    assert said[0] is None
    assert said[1] == first.seconds > 0
    assert len(said) == 2
    assert second.seconds == 0.0


def test_compilation_is_kept_out_of_a_runs_seconds() -> None:
    rules = preset("macau")
    warm_up(ShoeParams.of(rules))  # loaded (or compiled) once in this process
    said: list[float | None] = []
    result = simulate(rules, hands=1000, seed=1, compiling=said.append)
    assert said == []
    assert result.compile_seconds == 0.0
    assert result.as_dict()["compile_seconds"] == 0.0
