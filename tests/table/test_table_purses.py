"""A player in another currency at a table: their tier's amounts and chips are their
currency's (punto.table.purses); the table's own totals leave them out [L] [M14]."""

from __future__ import annotations

import pytest
from table_support import close, deal, make_table, seat

from punto.bets import Bet
from punto.errors import AmountError, BetLimitError, BettingError, RulesError, SeatError
from punto.table.purses import Purse
from punto.tiers import LimitTier

_LOW_JPY = LimitTier(name="low", min_bet=100, max_bet=100_000, side_min=100, side_max=20_000)


def _yen(**changes: object) -> Purse:
    fields: dict[str, object] = {
        "digits": 0,
        "book": "JPY",
        "tiers": {"low": _LOW_JPY},
        "chips": (100, 500, 1000, 5000),
    }
    fields.update(changes)
    code = str(fields.pop("currency", "JPY"))
    return Purse(code, **fields)  # type: ignore[arg-type]


def test_a_yen_player_bets_yen_chips_on_the_tier_in_yen() -> None:
    table, clock = make_table("online_8deck")
    seat(table, "eur", 1)
    table.join("jpy", balance=50_000, purse=_yen())
    table.sit("jpy", 2, tier="low")
    table.open_betting()
    with pytest.raises(BettingError, match="no chip of 1,000,000 at this table"):
        table.choose_chip("jpy", 1_000_000)
    table.choose_chip("jpy", 5000)
    table.add_chip("jpy", Bet.BANKER)
    table.confirm("jpy")
    assert table.tier_of("jpy") == _LOW_JPY
    assert table.currency_of("jpy") == "JPY"
    assert table.currency_of("eur") is None
    # the euro player's bets are the table's own; 5000 yen is not among its totals
    table.choose_chip("eur", 1000)
    table.add_chip("eur", Bet.PLAYER)
    table.confirm("eur")
    assert table.bet_totals() == {Bet.PLAYER: (1000, 1)}
    rooms = {room.bet: room for room in table.bet_rooms("jpy")}
    assert rooms[Bet.BANKER].room == 100_000 - 5000  # the yen maximum, not the euro one
    close(table, clock)
    deal(table, "2H 9C 3D 9S")  # Player 5, Banker a natural 8: Banker wins
    table.settle()
    assert table.balance("jpy") == 50_000 + 5000 - round(5000 * 0.05)


def test_a_bet_above_the_yen_maximum_is_refused_in_yen() -> None:
    table, _ = make_table("online_8deck")
    table.join("jpy", balance=10**7, purse=_yen(chips=(100, 100_000)))
    table.sit("jpy", 1, tier="low")
    table.open_betting()
    table.choose_chip("jpy", 100_000)
    table.add_chip("jpy", Bet.BANKER)
    with pytest.raises(
        BetLimitError, match=r"Banker bet 200,000 is above this table.s maximum of 100,000$"
    ):
        table.add_chip("jpy", Bet.BANKER)


def test_a_tier_the_limit_group_does_not_price_is_refused() -> None:
    table, _ = make_table("online_8deck")
    table.join("jpy", balance=50_000, purse=_yen())
    with pytest.raises(SeatError, match="high limits have no amounts in JPY"):
        table.sit("jpy", 1, tier="high")
    assert table.seats.get("jpy").seat is None


def test_a_table_limiting_its_banker_player_difference_takes_one_currency() -> None:
    table, _ = make_table("macau")  # [M14]
    with pytest.raises(SeatError, match=r"\[M14\]"):
        table.join("jpy", balance=50_000, purse=_yen())
    assert "jpy" not in table.seats.participants
    table.join("eur", balance=50_000, purse=_yen(currency="EUR", book=""))  # the house's own


@pytest.mark.parametrize(
    "changes",
    [
        {"chips": ()},
        {"chips": (500, 100)},
        {"chips": (0, 100)},
        {"digits": 7},
        {"book": "USD"},
        {"tiers": {"high": _LOW_JPY}},
    ],
)
def test_a_purse_is_checked(changes: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        _yen(**changes)


def test_a_yen_amount_not_of_its_chips_is_refused() -> None:
    table, _ = make_table("online_8deck")
    table.join("jpy", balance=50_000, purse=_yen())
    table.sit("jpy", 1, tier="low")
    table.open_betting()
    with pytest.raises(AmountError, match="smallest is 100"):
        table.confirm("jpy", {Bet.BANKER: 150})
