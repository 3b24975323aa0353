"""Observed against exact (punto.drift): a fair table stays inside its bands over
thousands of simulated hands, a biased shoe raises the alarm. Simulated with fixed
seeds: no waiting, the same hands on every run."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from punto.bets import Bet
from punto.cards import deck
from punto.coup import deal_coup
from punto.dealing import HandDealt, ShoeDealer
from punto.drift import MIN_HANDS, ObservedHand, Wager, drift_report, expectations
from punto.outcome import Outcome
from punto.rules import Rules, preset
from punto.settlement import settle

BETS = {Bet.BANKER: 10_000, Bet.PLAYER_PAIR: 1_000, Bet.TIE: 500}


def _observed(rules: Rules, outcome: Outcome, rng: random.Random) -> ObservedHand:
    # Stakes vary from hand to hand, as at a real table.
    bets = {bet: amount * rng.randint(1, 5) for bet, amount in BETS.items()}
    result = settle(rules, outcome, bets)
    return ObservedHand.of(outcome, [Wager(r.bet, r.stake, r.net) for r in result.results])


def _fair_hands(rules: Rules, hands: int, seed: int) -> Iterator[ObservedHand]:
    rng = random.Random(seed)
    dealt = 0
    shoe = 0
    while True:
        dealer = ShoeDealer(rules, seed=seed * 1000 + shoe)
        shoe += 1
        for event in dealer.deal_all():
            if isinstance(event, HandDealt) and not event.void:
                yield _observed(rules, event.outcome, rng)
                dealt += 1
                if dealt == hands:
                    return


def _stacked_hands(rules: Rules, hands: int, seed: int) -> Iterator[ObservedHand]:
    """A faulty shoe: the tens and faces taken out (naturals and ties far likelier)."""
    rng = random.Random(seed)
    cards = [c for _ in range(rules.decks) for c in deck() if c.value != 0]
    for _ in range(hands):
        rng.shuffle(cards)
        yield _observed(rules, deal_coup(cards[:6]), rng)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_fair_table_raises_no_alarm_over_thousands_of_hands(seed: int) -> None:
    rules = preset("macau")
    report = drift_report(_fair_hands(rules, 4000, seed), expectations(rules))
    assert report.hands == 4000
    assert not report.alarm, report.reasons
    for bet in report.bets:
        assert bet.wagers == 4000
        assert bet.p_value is not None
    assert all(o.p_value is not None for o in report.outcomes)


def test_a_stacked_shoe_raises_the_alarm() -> None:
    rules = preset("macau")
    report = drift_report(_stacked_hands(rules, 2000, 7), expectations(rules))
    assert report.alarm
    assert "outcomes:player_pair" in report.reasons
    pairs = next(o for o in report.outcomes if o.name == "player_pair")
    assert pairs.observed is not None
    assert pairs.observed > pairs.expected
    assert report.threshold == pytest.approx(0.01 / (len(report.bets) + 4))


def test_a_short_payout_is_outside_the_band() -> None:
    """Tie bets paid 6 to 1 at a table whose rules say 8: the RTP drifts below the band."""
    rules = preset("macau")
    hands = []
    for hand in _fair_hands(rules, 6000, 11):
        wagers = [
            Wager(w.bet, w.stake, w.net - 2 * w.stake if w.bet is Bet.TIE and w.net > 0 else w.net)
            for w in hand.wagers
        ]
        hands.append(ObservedHand(hand.events, tuple(wagers)))
    report = drift_report(hands, expectations(rules))
    tie = next(b for b in report.bets if b.bet is Bet.TIE)
    assert tie.outside_band
    assert tie.observed_rtp is not None
    assert tie.band is not None
    assert tie.observed_rtp < tie.band[0]
    assert report.alarm
    assert "rtp:tie" in report.reasons


def test_too_few_hands_are_not_tested() -> None:
    rules = preset("macau")
    report = drift_report(_stacked_hands(rules, MIN_HANDS - 1, 3), expectations(rules))
    assert not report.alarm
    assert all(o.p_value is None for o in report.outcomes)
    assert report.as_dict()["hands"] == MIN_HANDS - 1


def test_observed_rtp_is_returned_over_staked() -> None:
    rules = preset("macau")
    hand = ObservedHand(frozenset({"banker"}), (Wager(Bet.BANKER, 1000, 950),))
    report = drift_report([hand], expectations(rules))
    banker = report.bets[0]
    assert (banker.staked, banker.returned, banker.observed_rtp) == (1000, 1950, 1.95)
    assert banker.band is not None
    assert banker.band[0] < banker.exact_rtp < banker.band[1]
    with pytest.raises(ValueError, match="significance"):
        drift_report([], expectations(rules), significance=1.5)
