"""Exact money: amount parsing and the named rounding rules, applied alike to every bet."""

from __future__ import annotations

from decimal import ROUND_FLOOR, ROUND_HALF_EVEN, ROUND_HALF_UP, Context, Decimal
from fractions import Fraction
from types import MappingProxyType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from punto.bets import Bet
from punto.cards import parse_cards
from punto.coup import deal_coup
from punto.errors import AmountError
from punto.money import (
    Rounding,
    amount_decimal,
    format_amount,
    parse_amount,
    show_amount,
)
from punto.rules import PRESETS, Rules, preset
from punto.settlement import settle

BANKER_NATURAL_8_BEATS_5 = "2S 9H 3D 9C"
BANKER_TWO_CARD_6_BEATS_4 = "KS 3H 4D 3C KC"  # five cards: Big wins
TIE_7_FOUR_CARDS = "5S 4H 2D 3C"  # Small wins


def with_rounding(rules: Rules, rounding: Rounding) -> Rules:
    return rules.replace(rounding=rounding)


def net(rules: Rules, bet: Bet, cards: str, stake: int) -> int:
    return settle(rules, deal_coup(parse_cards(cards)), {bet: stake}).net_of(bet)


# -- parse_amount ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "minor"),
    [
        ("100", 10_000),
        ("12.5", 1_250),
        ("12.50", 1_250),
        ("0.01", 1),
        ("0.050", 5),
        (" 7 ", 700),
        ("1_000", 100_000),
        ("1e2", 10_000),
        (5, 500),
        (Decimal("2.50"), 250),
    ],
)
def test_parse_amount_reads_major_units_into_minor_units(text: str | int, minor: int) -> None:
    assert parse_amount(text) == minor


def test_parse_amount_follows_the_currency_digits() -> None:
    assert parse_amount("7", digits=0) == 7
    assert parse_amount("0.001", digits=3) == 1
    with pytest.raises(AmountError, match="more than 0 decimal places"):
        parse_amount("7.5", digits=0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0", "must be positive"),
        ("0.00", "must be positive"),
        ("-0", "must be positive"),
        (0, "must be positive"),
        ("-5", "must be positive"),
        (-5, "must be positive"),
        ("abc", "is not a number"),
        ("", "is not a number"),
        ("1,5", "is not a number"),
        ("NaN", "is not a finite number"),
        ("sNaN", "is not a finite number"),
        ("inf", "is not a finite number"),
        ("-Infinity", "is not a finite number"),
        (Decimal("NaN"), "is not a finite number"),
        ("0.001", "more than 2 decimal places"),
        ("1.005", "more than 2 decimal places"),
        ("1e-999999999", "more than 2 decimal places"),
        ("1.000000000000000000000000000001", "more than 2 decimal places"),
        ("1e999999999", "too large"),
        ("12345678901234567890123456789", "too large"),
        (True, "is not a number"),
        (False, "is not a number"),
    ],
)
def test_parse_amount_refuses_what_is_not_a_positive_exact_amount(
    text: str | int, message: str
) -> None:
    with pytest.raises(AmountError, match=message):
        parse_amount(text)


def test_amount_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="must be positive"):
        parse_amount("0")


@given(st.integers(min_value=1, max_value=10**26))
def test_parse_amount_reads_back_every_formatted_amount(minor: int) -> None:
    assert parse_amount(format_amount(minor)) == minor
    assert parse_amount(show_amount(minor)) == minor
    assert amount_decimal(minor) == Decimal(minor) / 100


@given(st.integers(min_value=1, max_value=10**12), st.integers(min_value=1, max_value=9))
def test_parse_amount_refuses_every_sub_minor_digit(minor: int, extra: int) -> None:
    with pytest.raises(AmountError, match="more than 2 decimal places"):
        parse_amount(f"{format_amount(minor)}{extra}")


@given(st.integers(min_value=-(10**60), max_value=10**60), st.integers(min_value=0, max_value=6))
def test_amount_decimal_is_exact_at_any_size(minor: int, digits: int) -> None:
    value = amount_decimal(minor, digits=digits)
    assert value.as_tuple().exponent == -digits
    assert int(value.scaleb(digits, context=Context(prec=200))) == minor
    assert Fraction(value) == Fraction(minor, 10**digits)


def test_a_super_tie_net_beyond_28_digits_is_shown_exactly() -> None:
    stake = 10**28 - 1  # the largest amount parse_amount takes: 99999999999999999999999999.99
    assert parse_amount(format_amount(stake)) == stake
    rules = preset("online_8deck")
    result = settle(rules, deal_coup(parse_cards("KS KH QD JC 2S 2H")), {Bet.SUPER_TIE_2: stake})
    assert result.total_net == 225 * stake
    assert show_amount(result.total_net) == "22499999999999999999999999997.75"


def test_format_and_show_amount() -> None:
    assert (format_amount(1_250), format_amount(-475), format_amount(5)) == (
        "12.50",
        "-4.75",
        "0.05",
    )
    assert (show_amount(15_000), show_amount(1_250), show_amount(0)) == ("150", "12.5", "0")
    assert show_amount(7, digits=0) == "7"


# -- the rounding rules ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "floor", "half_up", "half_even"),
    [
        (Fraction(475, 100), 4, 5, 5),
        (Fraction(5, 2), 2, 3, 2),
        (Fraction(7, 2), 3, 4, 4),
        (Fraction(1, 2), 0, 1, 0),
        (Fraction(3, 2), 1, 2, 2),
        (Fraction(19, 20), 0, 1, 1),
        (Fraction(1, 20), 0, 0, 0),
        (Fraction(9), 9, 9, 9),
        (Fraction(0), 0, 0, 0),
    ],
)
def test_rounding_rules_on_exact_values(
    value: Fraction, floor: int, half_up: int, half_even: int
) -> None:
    assert Rounding.FLOOR.apply(value) == floor
    assert Rounding.HALF_UP.apply(value) == half_up
    assert Rounding.HALF_EVEN.apply(value) == half_even


@pytest.mark.parametrize(
    ("rounding", "expected"), [(Rounding.FLOOR, 4), (Rounding.HALF_UP, 5), (Rounding.HALF_EVEN, 5)]
)
def test_m18_a_0_05_banker_win_pays_0_0475_rounded_by_the_rule(
    rounding: Rounding, expected: int
) -> None:
    rules = with_rounding(preset("macau"), rounding)
    assert net(rules, Bet.BANKER, BANKER_NATURAL_8_BEATS_5, stake=5) == expected


@pytest.mark.parametrize(
    ("stake", "floor", "half_up", "half_even"),
    [(10, 9, 10, 10), (30, 28, 29, 28), (1, 0, 1, 1), (100, 95, 95, 95)],
)
def test_m18_commission_rounding_with_odd_minor_amounts(
    stake: int, floor: int, half_up: int, half_even: int
) -> None:
    got = [
        net(with_rounding(preset("macau"), r), Bet.BANKER, BANKER_NATURAL_8_BEATS_5, stake)
        for r in (Rounding.FLOOR, Rounding.HALF_UP, Rounding.HALF_EVEN)
    ]
    assert got == [floor, half_up, half_even]


@pytest.mark.parametrize(
    ("stake", "floor", "half_up", "half_even"), [(5, 2, 3, 2), (7, 3, 4, 4), (1, 0, 1, 0)]
)
def test_l_no_commission_win_on_6_half_payout_rounding(
    stake: int, floor: int, half_up: int, half_even: int
) -> None:
    got = [
        net(with_rounding(preset("no_commission"), r), Bet.BANKER, BANKER_TWO_CARD_6_BEATS_4, stake)
        for r in (Rounding.FLOOR, Rounding.HALF_UP, Rounding.HALF_EVEN)
    ]
    assert got == [floor, half_up, half_even]


@pytest.mark.parametrize(
    ("bet", "cards", "stake", "expected"),
    [
        (Bet.BIG, BANKER_TWO_CARD_6_BEATS_4, 3, (1, 2, 2)),  # 1.5
        (Bet.BIG, BANKER_TWO_CARD_6_BEATS_4, 5, (2, 3, 2)),  # 2.5
        (Bet.SMALL, TIE_7_FOUR_CARDS, 1, (1, 2, 2)),  # 1.5
        (Bet.SMALL, TIE_7_FOUR_CARDS, 3, (4, 5, 4)),  # 4.5
    ],
)
def test_o_big_and_small_fractional_payout_rounding(
    bet: Bet, cards: str, stake: int, expected: tuple[int, int, int]
) -> None:
    got = tuple(
        net(with_rounding(preset("online_8deck"), r), bet, cards, stake)
        for r in (Rounding.FLOOR, Rounding.HALF_UP, Rounding.HALF_EVEN)
    )
    assert got == expected


_DECIMAL_ROUNDING = {
    Rounding.FLOOR: ROUND_FLOOR,
    Rounding.HALF_UP: ROUND_HALF_UP,
    Rounding.HALF_EVEN: ROUND_HALF_EVEN,
}
"""An independent implementation of each rule: ``decimal``'s rounding modes."""

_CARDS = [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"]


@given(
    name=st.sampled_from(sorted(PRESETS)),
    rounding=st.sampled_from(list(Rounding)),
    cards=st.lists(st.sampled_from(_CARDS), min_size=6, max_size=6),
    stake=st.integers(min_value=1, max_value=10**6),
)
def test_the_rounding_rule_is_applied_the_same_way_to_every_bet(
    name: str, rounding: Rounding, cards: list[str], stake: int
) -> None:
    rules = with_rounding(preset(name), rounding)
    bets = dict.fromkeys(rules.offered_bets, stake)
    result = settle(rules, deal_coup(parse_cards(cards)), bets)
    for r in result.results:
        exact = stake * r.odds
        assert r.odds == rules.paytable_for(r.bet).odds(r.payout_class)
        if r.odds < 0:
            assert r.net == -stake
            continue
        as_decimal = Decimal(exact.numerator) / Decimal(exact.denominator)
        assert r.net == int(as_decimal.quantize(Decimal(1), rounding=_DECIMAL_ROUNDING[rounding]))


def test_rounding_is_a_table_setting_not_a_bet_setting() -> None:
    rules = preset("online_no_commission").replace(
        rounding=Rounding.HALF_UP,
        paytables=MappingProxyType(
            {Bet.BANKER: "banker_no_commission", Bet.BIG: "big_0.5", Bet.PLAYER: "player"}
        ),
    )
    result = settle(
        rules, deal_coup(parse_cards(BANKER_TWO_CARD_6_BEATS_4)), {Bet.BANKER: 5, Bet.BIG: 5}
    )
    # Both bets pay 2.5 minor units: one rule, one result.
    assert [r.net for r in result.results] == [3, 3]
