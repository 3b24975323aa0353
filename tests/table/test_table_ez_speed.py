"""Live tables of the ``ez`` [EZ] and ``speed`` presets, configured as the back office
stores them (punto.server.tables.configs.TableConfig): an EZ table settles Dragon 7 and
Panda 8 and pushes the Banker bet on a three-card 7; a speed table bets, deals and shows
its result at the pace its rules set."""

from __future__ import annotations

import random

import pytest
from table_support import play, seat

from punto.bets import Bet
from punto.errors import BetNotOfferedError, RulesError
from punto.rules import preset
from punto.rules_document import compose, rules_from_document, rules_to_document
from punto.server.tables.configs import TableConfig
from punto.table import ManualClock, Table
from punto.table.automation import Pace

BANKER_THREE_CARD_7 = "KS 2H 6D 2C 3S"  # Player 6 stands; Banker 4 draws a 3: 7 beats 6
PLAYER_THREE_CARD_8 = "2S KD 3H 7C 3D"  # Player 5 draws a 3: 8 beats Banker's 7


def _table(rules: str, *, betting_seconds: float | None = None) -> tuple[Table, ManualClock]:
    config = TableConfig.from_json({"id": "t1", "name": "T", "rules": rules, "dealing": "live"})
    clock = ManualClock()
    table = Table(
        config.settings(betting_seconds=betting_seconds),
        clock=clock,
        rng=random.Random(3),
        dealer="Dana",
    )
    table.start_shoe()
    return table, clock


def _nets(table: Table, clock: ManualClock, cards: str, bets: dict[Bet, int]) -> dict[Bet, int]:
    settled = play(table, clock, cards, {"ann": bets})
    (result,) = settled.results
    return {r.bet: r.net for r in result.settlement.results}


def test_ez_table_pushes_the_banker_and_pays_dragon7_40_on_a_three_card_7() -> None:
    table, clock = _table("ez")
    seat(table, "ann", 1)
    before = table.balances["ann"]
    nets = _nets(table, clock, BANKER_THREE_CARD_7, {Bet.BANKER: 10_000, Bet.DRAGON7: 1_000})
    assert nets == {Bet.BANKER: 0, Bet.DRAGON7: 40_000}
    assert table.balances["ann"] == before + 40_000


def test_ez_table_pays_panda8_25_and_loses_dragon7_on_a_player_three_card_8() -> None:
    table, clock = _table("ez")
    seat(table, "ann", 1)
    bets = {Bet.PLAYER: 10_000, Bet.PANDA8: 1_000, Bet.DRAGON7: 1_000, Bet.BANKER: 10_000}
    nets = _nets(table, clock, PLAYER_THREE_CARD_8, bets)
    assert nets == {
        Bet.PLAYER: 10_000,
        Bet.PANDA8: 25_000,
        Bet.DRAGON7: -1_000,
        Bet.BANKER: -10_000,
    }


def test_ez_banker_wins_otherwise_pay_even_money() -> None:
    table, clock = _table("ez")
    seat(table, "ann", 1)
    # Player 6 stands; Banker 3 4 = 7 on two cards wins: even money, no commission [EZ]
    assert _nets(table, clock, "KS 3H 6D 4C", {Bet.BANKER: 10_000}) == {Bet.BANKER: 10_000}


def test_dragon7_and_panda8_are_offered_only_where_the_rules_offer_them() -> None:
    table, _ = _table("macau")
    seat(table, "ann", 1)
    table.open_betting()
    table.choose_chip("ann", table.settings.chips[0])
    for bet in (Bet.DRAGON7, Bet.PANDA8):
        with pytest.raises(BetNotOfferedError, match=bet.label):
            table.verify_add_chip("ann", bet)


def test_the_speed_table_bets_for_its_rules_betting_time() -> None:
    table, _ = _table("speed")
    assert table.settings.betting_seconds == 10.0
    table.open_betting()
    assert table.betting_seconds_left == pytest.approx(10.0)
    # a server's override (tests, load runs) still wins
    assert _table("speed", betting_seconds=2.0)[0].settings.betting_seconds == 2.0
    assert _table("macau")[0].settings.betting_seconds == 15.0


def test_the_speed_pace_turns_the_cards_at_once_and_shows_the_result_briefly() -> None:
    server = Pace(card_seconds=0.6, squeeze_seconds=10.0, result_seconds=3.0)
    assert server.for_rules(preset("speed")) == Pace(
        card_seconds=0.0, squeeze_seconds=10.0, result_seconds=2.0
    )
    assert server.for_rules(preset("macau")) == server


def test_the_pace_settings_round_trip_through_the_rules_document() -> None:
    doc = rules_to_document(preset("speed"))
    assert (doc["betting_seconds"], doc["card_seconds"], doc["result_seconds"]) == (10.0, 0.0, 2.0)
    assert rules_from_document(doc) == preset("speed")
    assert compose("macau", {"betting_seconds": 8}).betting_seconds == 8.0
    assert rules_to_document(preset("macau"))["betting_seconds"] is None


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"betting_seconds": 0}, "betting_seconds"),
        ({"card_seconds": -1}, "card_seconds"),
        ({"result_seconds": "soon"}, "result_seconds"),
    ],
)
def test_a_pace_setting_that_cannot_be_is_refused_naming_its_field(
    overrides: dict[str, object], field: str
) -> None:
    with pytest.raises(RulesError) as caught:
        compose("speed", overrides)
    assert caught.value.field == field
