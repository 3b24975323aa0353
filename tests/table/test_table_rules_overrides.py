"""Every override of a table's rules reaches the dealt game: a table configured as the
back office stores it (a preset plus overrides, punto.server.tables.configs.TableConfig) deals,
burns, limits and settles by the overridden rules, and new rules take effect only from
the next shoe."""

from __future__ import annotations

import random
from typing import Any

import pytest
from table_support import place, play, seat

from punto.bets import Bet
from punto.errors import (
    BetClosedError,
    BetCombinationError,
    BetLimitError,
    BetNotOfferedError,
    TieOptionError,
)
from punto.rules_document import compose
from punto.server.tables.configs import TableConfig
from punto.table import ManualClock, Phase, Table
from punto.table.events import (
    CardsBurned,
    ChangePending,
    DemoHandDealt,
    PendingChange,
    RulesChanged,
    ShoeOpened,
)

B, P, T = Bet.BANKER, Bet.PLAYER, Bet.TIE
TIE_CARDS = "4S 4H 5D 5C"  # Player 9, Banker 9: a natural tie


def _table(overrides: dict[str, Any], *, dealing: str = "rng", seed: int = 4) -> Table:
    config = TableConfig.from_json(
        {"id": "t1", "name": "T", "rules": "macau", "overrides": overrides, "dealing": dealing}
    )
    table = Table(
        config.settings(betting_seconds=None),
        clock=ManualClock(),
        rng=random.Random(seed),
        dealer="Dana",
    )
    table.start_shoe()
    return table


def test_m2_three_demo_hands_are_dealt_unbet_at_shoe_start() -> None:
    table = _table({"demo_hands": 3})
    while table.can_deal_demo_hand():
        table.deal_demo_hand()
    demos = [e for e in table.events if isinstance(e, DemoHandDealt)]
    assert [e.number for e in demos] == [1, 2, 3]
    assert table.phase is Phase.SHOE_START
    assert not _table({}).can_deal_demo_hand()  # macau deals none


@pytest.mark.parametrize("seed", range(1, 6))
def test_m2_burn_by_first_card_burns_its_value(seed: int) -> None:
    table = _table({"burn": "first_card_value"}, seed=seed)
    burned = next(e for e in table.events if isinstance(e, CardsBurned))
    assert burned.cards is not None
    first = burned.cards[0].value or 10  # ten and faces burn 10
    assert burned.count == 1 + first


@pytest.mark.parametrize(("burn", "count"), [("decks", 6), ("none", 0)])
def test_m2_burn_by_decks_or_none(burn: str, count: int) -> None:
    table = _table({"burn": burn, "decks": 6})
    assert next(e for e in table.events if isinstance(e, ShoeOpened)).cards == 312
    burned = [e.count for e in table.events if isinstance(e, CardsBurned)]
    assert burned == ([count] if count else [])


def test_m12_the_sjm_tie_variant_refuses_a_lowered_bet() -> None:
    table = _table({"tie_policy": "sjm"}, dealing="live")
    clock = table.clock
    assert isinstance(clock, ManualClock)
    seat(table, "ann", 1)
    play(table, clock, TIE_CARDS, {"ann": {B: 10_000}})
    table.open_betting()
    with pytest.raises(TieOptionError, match=r"keep, raise \[M12\]"):
        table.change_tie_bets("ann", {B: 5_000})
    assert table.change_tie_bets("ann", {B: 20_000}).action.value == "raise"


@pytest.mark.parametrize(
    ("overrides", "bets", "error"),
    [
        ({"one_side_only": True}, {B: 10_000, P: 10_000}, BetCombinationError),  # [S11]
        ({"banker_multiple_of_min": True}, {B: 1_500}, BetLimitError),  # [M18]
        ({"close_from_hand": {"tie": 1}}, {T: 1_000}, BetClosedError),  # [O]
        (
            {"paytables": {"player": "player", "banker": "banker_commission"}},
            {T: 1_000},
            BetNotOfferedError,
        ),
        (
            {
                "limit_tiers": [
                    {
                        "name": "low",
                        "min_bet": 5_000,
                        "max_bet": 9_000,
                        "side_min": 500,
                        "side_max": 900,
                    }
                ]
            },
            {B: 1_000},
            BetLimitError,
        ),
    ],
)
def test_betting_rules_follow_the_overrides(
    overrides: dict[str, Any], bets: dict[Bet, int], error: type[Exception]
) -> None:
    table = _table(overrides, dealing="live")
    seat(table, "ann", 1)
    table.open_betting()
    with pytest.raises(error):
        place(table, "ann", bets)


def test_a_tie_paytable_override_pays_its_odds() -> None:
    table = _table(
        {"paytables": {"player": "player", "banker": "banker_commission", "tie": "tie_9"}},
        dealing="live",
    )
    clock = table.clock
    assert isinstance(clock, ManualClock)
    seat(table, "ann", 1)
    settled = play(table, clock, TIE_CARDS, {"ann": {T: 1_000}})
    (result,) = (r for r in settled.results if r.player == "ann")
    assert result.settlement.total_net == 9_000


def test_s14_new_rules_apply_only_between_shoes() -> None:
    table = _table({})
    newer = compose("macau", {"demo_hands": 2})
    waiting = table.change_rules(newer, version=2)  # a shoe is in play: they wait
    assert isinstance(waiting, ChangePending)
    assert (waiting.change, waiting.version) == (PendingChange.RULES, 2)
    assert table.settings.rules_version != 2
    table.change_shoe()  # the shoe ends: the table puts them in force
    event = table.events[-1]
    assert isinstance(event, RulesChanged)
    assert event.version == 2
    assert table.settings.rules_version == 2
    table.start_shoe()
    assert table.can_deal_demo_hand()
