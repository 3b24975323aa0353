"""A multiplier table [LB] deals the ``lightning`` preset: its RNG draws the hand's
lightning cards once betting closes, shows them before the first card, charges the fee
with every confirm and pays a winning hand's lit cards multiplied."""

from __future__ import annotations

import random

import pytest
from lightning_support import player_natural_with
from table_support import close, deal, place, seat, state_of

from punto.bets import Bet
from punto.cards import parse_cards
from punto.errors import PhaseError, TableBalanceError
from punto.server.tables.configs import TableConfig
from punto.table import ManualClock, Table
from punto.table.events import BetsConfirmed, BettingClosed, LightningDrawn

SHOW = 3.0  # the default Pace's lightning_seconds


def _table(dealing: str = "live", seed: int = 5) -> tuple[Table, ManualClock]:
    config = TableConfig.from_json(
        {"id": "t1", "name": "T", "rules": "lightning", "dealing": dealing}
    )
    clock = ManualClock()
    table = Table(
        config.settings(betting_seconds=None), clock=clock, rng=random.Random(seed), dealer="Dana"
    )
    table.start_shoe()
    return table, clock


def _drawn(table: Table) -> LightningDrawn:
    (event,) = [e for e in table.events if isinstance(e, LightningDrawn)][-1:]
    return event


def test_the_draw_follows_the_close_and_the_first_card_waits_for_its_show() -> None:
    table, clock = _table()
    seat(table, "ann", 1)
    table.open_betting()
    place(table, "ann", {Bet.PLAYER: 10_000})
    close(table, clock)
    closed, drawn = table.events[-2:]
    assert isinstance(closed, BettingClosed)
    assert isinstance(drawn, LightningDrawn)
    assert drawn.game == closed.game
    assert drawn.shown_until == clock.now() + SHOW
    rules = table.rules.lightning
    assert rules is not None
    assert len(drawn.cards) in rules.count_weights
    assert all(m in rules.multipliers for _, m in drawn.cards)
    first = parse_cards("2S")[0]
    with pytest.raises(PhaseError, match=r"\[LB\]"):
        table.deal_card(first)
    clock.advance(SHOW)
    assert table.can_deal_card(first)


def test_a_lit_card_in_the_winning_hand_multiplies_the_payout_after_the_fee() -> None:
    table, clock = _table()
    seat(table, "ann", 1, balance=1_000_000)
    table.open_betting()
    place(table, "ann", {Bet.PLAYER: 10_000, Bet.BANKER: 5_000})
    confirmed = table.events[-1]
    assert isinstance(confirmed, BetsConfirmed)
    assert (confirmed.debited, confirmed.fee) == (15_000, 3_000)  # 20% of the stakes [LB]
    assert table.balances["ann"] == 1_000_000 - 18_000
    close(table, clock)
    codes, multiplier = player_natural_with(_drawn(table).cards)
    clock.advance(SHOW)
    deal(table, codes)
    settled = table.settle()
    (result,) = settled.results
    nets = {r.bet: r.net for r in result.settlement.results}
    # Player 1:1 plus (M - 1) x 1: M times the stake; the Banker bet loses
    assert nets == {Bet.PLAYER: 10_000 * multiplier, Bet.BANKER: -5_000}
    assert multiplier >= 2
    assert table.balances["ann"] == 1_000_000 - 3_000 - 5_000 + 10_000 * multiplier
    assert table.house_result == 3_000 + 5_000 - 10_000 * multiplier
    assert table.money_check()
    record = table.records()[-1]
    assert record.lightning == _drawn(table).cards
    assert record.fees == {"ann": 3_000}


def test_a_confirm_the_balance_cannot_cover_with_its_fee_is_refused() -> None:
    table, _ = _table()
    seat(table, "ann", 1, balance=10_000)
    table.open_betting()
    place(table, "ann", {Bet.PLAYER: 10_000}, confirm=False)
    before = state_of(table)
    with pytest.raises(TableBalanceError, match="fee"):
        table.confirm("ann")
    assert state_of(table) == before
    assert not table.can_confirm("ann")
    table.clear("ann")
    place(table, "ann", {Bet.PLAYER: 5_000})  # 5,000 and its 1,000 fee fit in 10,000
    assert table.balances["ann"] == 4_000


def test_an_rng_table_draws_by_itself_and_waits_the_show_before_dealing() -> None:
    table, clock = _table("rng")
    seat(table, "ann", 1)
    while table.phase.value != "betting_open":
        table.advance()
    place(table, "ann", {Bet.TIE: 1_000})
    closes_at = table.closes_at
    assert closes_at is not None
    clock.advance(closes_at - clock.now())
    assert table.advance() == SHOW  # closed, drawn: the first card in the show's time
    assert isinstance(table.events[-1], LightningDrawn)
    cards = table.event_count
    clock.advance(SHOW - 0.5)
    table.advance()
    assert table.event_count == cards  # still showing
    clock.advance(0.5)
    table.advance()
    assert table.events[-1].kind == "card_placed"


def test_a_plain_table_draws_nothing_and_charges_no_fee() -> None:
    config = TableConfig.from_json({"id": "t1", "name": "T", "rules": "macau", "dealing": "live"})
    clock = ManualClock()
    table = Table(
        config.settings(betting_seconds=None), clock=clock, rng=random.Random(1), dealer="Dana"
    )
    table.start_shoe()
    seat(table, "ann", 1)
    table.open_betting()
    place(table, "ann", {Bet.PLAYER: 10_000})
    confirmed = table.events[-1]
    assert isinstance(confirmed, BetsConfirmed)
    assert confirmed.fee == 0
    close(table, clock)
    assert not any(isinstance(e, LightningDrawn) for e in table.events)
    deal(table, "2S 9H 3D 9C")
