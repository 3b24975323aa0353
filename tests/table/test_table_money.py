"""The table's money object: every operation keeps brought in − cashed out equal to the
balances, the stakes on the layout and the house's result, and refuses what would break
the books."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from punto.errors import AmountError, TableBalanceError, TableError
from punto.table.money import TableMoney


def _money(**balances: int) -> TableMoney:
    money = TableMoney()
    for player, amount in balances.items():
        money.bring_in(player, amount)
    return money


def test_joining_brings_money_in_and_leaving_cashes_all_of_it_out() -> None:
    money = _money(ann=10_000, bob=0)
    assert money.balances == {"ann": 10_000, "bob": 0}
    assert money.brought_in == 10_000
    assert money.cash_out_all("ann") == 10_000
    assert "ann" not in money
    assert "bob" in money
    assert money.cashed_out == 10_000
    assert money.balanced


def test_a_stake_moves_from_the_balance_to_the_layout() -> None:
    money = _money(ann=10_000)
    money.stake("ann", 3_000)
    assert (money.balance("ann"), money.staked) == (7_000, 3_000)
    assert money.balanced


def test_a_stake_above_the_balance_changes_nothing() -> None:
    money = _money(ann=1_000)
    with pytest.raises(TableBalanceError):
        money.stake("ann", 1_001)
    assert (money.balance("ann"), money.staked) == (1_000, 0)


@pytest.mark.parametrize(
    ("returned", "balance", "house"),
    [(2_000, 11_000, -1_000), (0, 9_000, 1_000), (1_000, 10_000, 0), (1_950, 10_950, -950)],
    ids=["won", "lost", "push", "banker-commission"],
)
def test_settling_pays_the_return_and_the_house_keeps_the_rest(
    returned: int, balance: int, house: int
) -> None:
    money = _money(ann=10_000)
    money.stake("ann", 1_000)
    money.settle("ann", stake=1_000, returned=returned)
    assert (money.balance("ann"), money.staked, money.house_result) == (balance, 0, house)
    assert money.balanced


def test_m12_main_bets_a_tie_left_standing_stay_on_the_layout() -> None:
    money = _money(ann=10_000)
    money.stake("ann", 1_100)  # Banker 1,000 and Tie 100
    money.settle("ann", stake=1_100, returned=1_000 + 900, standing=1_000)  # tie pays 8:1
    assert (money.balance("ann"), money.staked, money.house_result) == (9_800, 1_000, -800)
    assert money.balanced


def test_m12_a_lowered_standing_bet_comes_back_and_a_raised_one_is_staked() -> None:
    money = _money(ann=10_000)
    money.stake("ann", 1_000)
    money.refund("ann", 400)
    assert (money.balance("ann"), money.staked) == (9_400, 600)
    money.stake("ann", 900)
    assert (money.balance("ann"), money.staked) == (8_500, 1_500)
    assert money.balanced


def test_a_refund_cannot_return_more_than_the_layout_holds() -> None:
    money = _money(ann=10_000)
    money.stake("ann", 1_000)
    with pytest.raises(TableBalanceError):
        money.refund("ann", 1_001)


def test_a_settlement_must_match_the_stakes() -> None:
    money = _money(ann=10_000)
    money.stake("ann", 1_000)
    with pytest.raises(TableBalanceError):
        money.settle("ann", stake=2_000, returned=0)
    with pytest.raises(TableBalanceError):
        money.settle("ann", stake=1_000, returned=500, standing=1_000)


def test_o_a_transfer_moves_money_in_and_out_across_the_tables_edge() -> None:
    money = _money(ann=10_000)
    money.transfer("ann", 5_000)
    money.transfer("ann", -2_000)
    assert (money.balance("ann"), money.brought_in, money.cashed_out) == (13_000, 15_000, 2_000)
    with pytest.raises(TableBalanceError):
        money.transfer("ann", -13_001)
    with pytest.raises(TableError):
        money.transfer("bob", 1_000)  # a transfer does not open a balance
    assert money.balanced


def test_o_a_resettlement_moves_money_between_the_house_and_a_balance() -> None:
    money = _money(ann=10_000)
    money.correct("ann", 500)
    money.correct("ann", -200)
    assert (money.balance("ann"), money.house_result) == (10_300, -300)
    with pytest.raises(TableBalanceError):
        money.correct("ann", -10_301)
    assert money.balanced


@pytest.mark.parametrize("amount", [-1, True, 1.5])
def test_amounts_are_whole_minor_units_not_below_zero(amount: object) -> None:
    money = _money(ann=10_000)
    with pytest.raises(AmountError):
        money.stake("ann", amount)  # type: ignore[arg-type]
    with pytest.raises(AmountError):
        money.bring_in("bob", amount)  # type: ignore[arg-type]
    assert "bob" not in money


def test_an_unknown_player_has_no_balance() -> None:
    with pytest.raises(TableError):
        TableMoney().balance("ann")


_OPS = st.lists(
    st.tuples(
        st.sampled_from(["in", "out", "stake", "refund", "settle", "correct", "leave"]),
        st.sampled_from(["ann", "bob"]),
        st.integers(min_value=0, max_value=5_000),
        st.integers(min_value=0, max_value=10_000),
    ),
    max_size=40,
)


@given(_OPS)
def test_no_sequence_of_operations_loses_or_creates_money(
    ops: list[tuple[str, str, int, int]],
) -> None:
    money = TableMoney()
    stakes: dict[str, int] = {}
    for op, player, amount, other in ops:
        try:
            if op == "in":
                money.bring_in(player, amount)
            elif op == "out":
                money.cash_out(player, amount)
            elif op == "stake":
                money.stake(player, amount)
                stakes[player] = stakes.get(player, 0) + amount
            elif op == "refund":
                money.refund(player, min(amount, stakes.get(player, 0)))
                stakes[player] = stakes.get(player, 0) - min(amount, stakes.get(player, 0))
            elif op == "settle":
                money.settle(player, stake=stakes.get(player, 0), returned=other)
                stakes[player] = 0
            elif op == "correct":
                money.correct(player, amount - 2_500)
            elif op == "leave" and not stakes.get(player):
                money.cash_out_all(player)
        except (TableError, TableBalanceError):
            pass
        assert money.balanced
        assert money.staked == sum(stakes.values())
        assert all(balance >= 0 for balance in money.balances.values())
