"""Betting systems: no system changes the edge; progressions change the risk."""

from __future__ import annotations

import pytest

from punto.analysis import cell_facts
from punto.bets import Bet, classify
from punto.errors import SimulationError
from punto.outcome import Winner
from punto.roads import RoadBoard, RoadResult
from punto.rules import Rules, preset
from punto.shoeloop import below, ordered_shoe, shuffle
from punto.simulation import deal_order, max_workers, stream_states
from punto.strategies import _PURPOSE, BettingSystem, Pattern, Progression, evaluate

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
    refused = r"a unit of 10\.10 does not pay .* a multiple of 0\.20$"
    with pytest.raises(SimulationError, match=refused):
        evaluate(RULES, _system(Progression.FLAT, Pattern.BANKER, unit=1010), sessions=10)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"unit": 0}, "unit must be"),
        ({"bankroll": 500}, r"^a bankroll of 5\.00 cannot cover one unit of 10\.00$"),
        ({"max_bet": 10}, r"^the maximum bet 0\.10 is below one unit of 10\.00$"),
    ],
)
def test_bad_systems_are_refused(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        _system(Progression.FLAT, Pattern.BANKER, **kwargs)


def test_bad_session_counts_are_refused() -> None:
    with pytest.raises(SimulationError, match="sessions must be"):
        evaluate(RULES, _system(Progression.FLAT, Pattern.BANKER), sessions=0)


def test_a_negative_seed_is_refused() -> None:
    with pytest.raises(SimulationError, match="seed must be a whole number"):
        evaluate(RULES, _system(Progression.FLAT, Pattern.BANKER), sessions=10, seed=-5)


# --- the kernel against a plain reading of the roads -----------------------------------

_SIDE = {Winner.BANKER: Bet.BANKER, Winner.PLAYER: Bet.PLAYER}
_OTHER = {Winner.BANKER: Winner.PLAYER, Winner.PLAYER: Winner.BANKER}


def _side(pattern: Pattern, board: RoadBoard) -> Winner | None:
    """The side a pattern bets, read from :mod:`punto.roads`' Big Road of this shoe."""
    if pattern is Pattern.BANKER:
        return Winner.BANKER
    if pattern is Pattern.PLAYER:
        return Winner.PLAYER
    if not board.big_road:
        return None
    last = board.big_road[-1].winner
    if pattern is Pattern.FOLLOW:
        return last
    if pattern is Pattern.CHOP:
        return _OTHER[last]
    lengths = board.column_lengths  # MIRROR: follow until the previous column's length
    return last if len(lengths) == 1 or lengths[-1] < lengths[-2] else _OTHER[last]


def _next_stake(progression: Progression, k: int, streak: int, net: int) -> tuple[int, int]:
    if net == 0 or progression is Progression.FLAT:
        return k, streak
    won = net > 0
    if progression is Progression.MARTINGALE:
        return (1, 0) if won else (2 * k, 0)
    if progression is Progression.DALEMBERT:
        return (max(1, k - 1), 0) if won else (k + 1, 0)
    if not won:  # Paroli
        return 1, 0
    return (1, 0) if streak + 1 >= 3 else (2 * k, streak + 1)


def _reference(rules: Rules, system: BettingSystem, sessions: int, seed: int) -> list[int]:
    """(net, staked, bets, ruined, ahead) summed over sessions played in plain Python on
    the kernel's shoes: the same generator, shuffle and cut card, each hand dealt by
    :func:`deal_order`, its side read by :class:`RoadBoard` and settled by
    :func:`classify` and the paytable."""
    state = stream_states(seed, 0, 1, purpose=_PURPOSE)[0].copy()
    n = rules.decks * 52
    cards = ordered_shoe(rules.decks)
    spread = rules.cut_max_from_end - rules.cut_min_from_end + 1
    unit, cap = system.unit, system.max_bet
    totals = [0, 0, 0, 0, 0]
    for _ in range(sessions):
        money, staked, bets, ruined, k, streak, played = system.bankroll, 0, 0, False, 1, 0, 0
        while played < system.session_hands and not ruined:
            shuffle(state, cards, n)
            cut_index = n - (rules.cut_min_from_end + below(state, spread))
            cells = deal_order(rules, cards, cut_index)[: system.session_hands - played]
            board = RoadBoard()
            for cell in cells:
                played += 1
                if cell < 0:
                    continue  # [S5] void: bets refunded, nothing on the roads
                facts = cell_facts(cell)
                side = _side(system.pattern, board)
                if side is not None:
                    stake = k * unit
                    if cap is not None and stake > cap:
                        stake = cap // unit * unit
                    stake = min(stake, money // unit * unit)
                    if stake < unit:
                        ruined = True
                        break
                    bet = _SIDE[side]
                    odds = rules.paytable_for(bet).odds(classify(bet, facts))
                    net = stake * odds
                    assert net.denominator == 1
                    money += int(net)
                    staked += stake
                    bets += 1
                    k, streak = _next_stake(system.progression, k, streak, int(net))
                board.add(RoadResult(facts.winner))
            ruined = ruined or money < unit
        for i, value in enumerate(
            (money - system.bankroll, staked, bets, ruined, money > system.bankroll)
        ):
            totals[i] += int(value)
    return totals


@pytest.mark.parametrize(
    ("progression", "pattern"),
    [
        (Progression.MARTINGALE, Pattern.FOLLOW),
        (Progression.PAROLI, Pattern.CHOP),
        (Progression.DALEMBERT, Pattern.MIRROR),
        (Progression.FLAT, Pattern.PLAYER),
    ],
)
def test_o_systems_read_the_big_road_of_punto_roads(
    progression: Progression, pattern: Pattern
) -> None:
    system = _system(progression, pattern, bankroll=20_000, session_hands=200, max_bet=64_000)
    for rules, seed in ((RULES, 11), (preset("super_punto_banco"), 12)):
        result = evaluate(rules, system, sessions=6, seed=seed)
        expected = _reference(rules, system, 6, seed)
        ahead = round(result.chance_ahead * 6)
        got = [result.total_net, result.total_staked, result.bets, result.ruined, ahead]
        assert got == expected, (rules.name, seed)
