"""The table drives itself: :meth:`Table.advance` takes the steps its automations name,
at its pace, and says how long until the next; a server only calls it and waits."""

from __future__ import annotations

import pytest
from table_support import make_table, phase, place, seat

from punto.bets import Bet
from punto.cards import Card
from punto.errors import RulesError
from punto.rules import Rules, preset
from punto.table import Automation, Dealing, ManualClock, Pace, Phase, Table, TableKind
from punto.table.automation import LIVE_AUTOMATIONS, RNG_AUTOMATIONS
from punto.table.events import (
    BettingClosed,
    BettingOpened,
    CardPlaced,
    CardsRevealed,
    DemoHandDealt,
    HandSettled,
    ShoeOpened,
)

PACE = Pace(card_seconds=0.5, squeeze_seconds=8.0, result_seconds=2.0)


def _rng(
    rules: str | Rules = "macau",
    *,
    kind: TableKind = TableKind.NORMAL,
    seed: int = 1,
    automations: frozenset[Automation] | None = None,
) -> tuple[Table, ManualClock]:
    return make_table(
        rules,
        kind=kind,
        seed=seed,
        dealing=Dealing.RNG,
        start=False,
        pace=PACE,
        automations=automations,
    )


def _run_until(table: Table, clock: ManualClock, phase: Phase, *, limit: int = 200) -> None:
    """Advance, letting the clock run each wait out, until the table is in ``phase``."""
    for _ in range(limit):
        if table.phase is phase:
            return
        wait = table.advance()
        assert wait is not None, f"the table waits for a person in {table.phase.value}"
        if table.phase is phase:
            return
        clock.advance(wait)
    raise AssertionError(f"never reached {phase.value}")


def test_defaults_follow_the_dealing() -> None:
    rng, _ = make_table(dealing=Dealing.RNG, start=False)
    live, _ = make_table(dealing=Dealing.LIVE, start=False)
    assert rng.settings.automated == RNG_AUTOMATIONS
    assert live.settings.automated == LIVE_AUTOMATIONS
    assert rng.settings.pace == Pace()


def test_only_an_rng_shoe_deals_by_itself() -> None:
    with pytest.raises(RulesError, match="RNG shoe"):
        make_table(dealing=Dealing.LIVE, automations=frozenset({Automation.DEAL_CARD}))
    with pytest.raises(RulesError, match="negative"):
        Pace(card_seconds=-1.0)


def test_an_rng_table_plays_a_whole_hand_at_its_pace() -> None:
    table, clock = _rng()
    seat(table, "ann", 1)
    assert table.advance() == 0.0  # shuffled, cut, burned at once [M2]
    assert any(isinstance(e, ShoeOpened) for e in table.events)
    assert not table.hand_in_play
    assert table.advance() == table.settings.betting_seconds  # betting opens [L]
    assert table.hand_in_play
    assert isinstance(table.events[-1], BettingOpened)
    place(table, "ann", {Bet.PLAYER: 10_000})
    clock.advance(5.0)
    count = len(table.events)
    assert table.advance() == table.settings.betting_seconds - 5.0  # the countdown runs
    assert len(table.events) == count
    clock.advance(10.0)
    assert table.advance() == PACE.card_seconds
    assert isinstance(table.events[-1], BettingClosed)
    clock.advance(0.2)
    assert table.advance() == pytest.approx(0.3)  # a card is seen before the next
    assert len([e for e in table.events if isinstance(e, CardPlaced)]) == 0
    cards = 0
    while table.phase is not Phase.RESULT:
        clock.advance(PACE.card_seconds)
        assert table.advance() == PACE.card_seconds
        cards += 1
    assert cards == len([e for e in table.events if isinstance(e, CardPlaced)]) >= 4
    clock.advance(PACE.card_seconds)
    assert table.advance() == PACE.result_seconds
    assert isinstance(table.events[-1], HandSettled)
    assert not table.hand_in_play
    clock.advance(1.0)
    assert table.advance() == pytest.approx(1.0)  # the result shows first
    assert table.phase is Phase.SETTLED
    clock.advance(1.0)
    assert table.advance() == pytest.approx(table.settings.betting_seconds)
    assert table.phase is Phase.BETTING_OPEN


def test_demonstration_hands_come_before_the_first_round() -> None:
    table, clock = _rng(preset("macau").replace(demo_hands=2))
    _run_until(table, clock, Phase.BETTING_OPEN)
    assert len([e for e in table.events if isinstance(e, DemoHandDealt)]) == 2


def test_a_live_table_waits_for_its_dealer() -> None:
    table, clock = make_table(dealing=Dealing.LIVE, start=False)
    assert table.advance() is None  # the dealer opens the shoe
    table.start_shoe()
    assert table.advance() is None  # and the betting round
    table.open_betting()
    assert table.advance() == table.settings.betting_seconds
    clock.advance(table.settings.betting_seconds)
    assert table.advance() == Pace().card_seconds  # the house closes on time [L]
    assert table.phase is Phase.BETTING_CLOSED
    assert table.advance() is None  # the dealer scans the cards
    for code in ["9S", "2H", "KD", "3C"]:
        table.deal_card(Card.parse(code))
    assert phase(table) is Phase.RESULT
    clock.advance(5.0)
    assert table.advance() == Pace().result_seconds  # and settles the coup
    assert phase(table) is Phase.SETTLED
    assert table.advance() is None


def test_a_table_without_an_automation_waits_for_that_step() -> None:
    table, clock = _rng(automations=RNG_AUTOMATIONS - {Automation.OPEN_BETTING})
    assert table.advance() == 0.0
    assert table.phase is Phase.SHOE_START
    assert table.advance() is None  # someone opens betting by hand
    table.open_betting()
    clock.advance(table.settings.betting_seconds)
    assert table.advance() == PACE.card_seconds
    assert phase(table) is Phase.BETTING_CLOSED


def _vip(seed: int = 1) -> tuple[Table, ManualClock]:
    table, clock = _rng("online_8deck", kind=TableKind.VIP, seed=seed)
    table.join("owner", balance=10_000_000)
    table.take_table("owner", 1)
    _run_until(table, clock, Phase.BETTING_OPEN)
    place(table, "owner", {Bet.BANKER: 100_000})
    _run_until(table, clock, Phase.SQUEEZE)
    return table, clock


def test_a_squeeze_lasts_its_time_then_the_table_turns_the_cards() -> None:
    table, clock = _vip()
    wait = table.advance()
    assert wait == PACE.squeeze_seconds
    assert table.squeeze_closes_at == clock.now() + PACE.squeeze_seconds
    clock.advance(PACE.squeeze_seconds - 1.0)
    assert table.advance() == pytest.approx(1.0)  # the holder still squeezes [O]
    assert table.phase is Phase.SQUEEZE
    clock.advance(1.0)
    count = len(table.events)
    assert table.advance() == PACE.card_seconds
    assert any(isinstance(e, CardsRevealed) for e in table.events[count:])
    assert table.squeeze_closes_at is None


def test_each_squeeze_gets_its_own_time() -> None:
    for seed in range(1, 60):  # a hand with a third card to squeeze
        table, clock = _vip(seed)
        table.advance()
        first = table.squeeze_closes_at
        assert first is not None
        clock.advance(3.0)
        table.squeeze("owner", next(iter(table.awaiting_squeeze)))  # turned early
        assert table.squeeze_closes_at is None
        while table.phase in (Phase.DEALING, Phase.BETTING_CLOSED):
            clock.advance(PACE.card_seconds)
            table.advance()
        if table.phase is Phase.SQUEEZE:
            table.advance()
            assert table.squeeze_closes_at == clock.now() + PACE.squeeze_seconds > first
            return
    raise AssertionError("no seed dealt a third card")


def test_hurry_finishes_the_hand_without_its_pauses() -> None:
    table, clock = _rng()
    seat(table, "ann", 1)
    _run_until(table, clock, Phase.BETTING_OPEN)
    place(table, "ann", {Bet.BANKER: 10_000})
    steps = 0
    while table.phase is not Phase.SETTLED:
        assert table.advance(hurry=True) == 0.0
        steps += 1
    assert clock.now() == 0.0  # no time went by
    assert steps >= 6  # close, four cards at least, settle


def test_betting_closed_early_is_dealt_at_once() -> None:
    # [O] every seated player asked to open the cards: betting closed before its time, and
    # the first card is not held back until the countdown would have ended
    table, clock = _rng("online_8deck", kind=TableKind.BID_SQUEEZE)
    table.join("bea", balance=10_000_000)
    table.sit("bea", 1, tier="vip")
    _run_until(table, clock, Phase.BETTING_OPEN)
    place(table, "bea", {Bet.BANKER: 100_000})
    table.request_open_cards("bea")
    assert phase(table) is Phase.BETTING_CLOSED
    assert table.advance() == PACE.card_seconds
    assert any(isinstance(e, CardPlaced) for e in table.events)
