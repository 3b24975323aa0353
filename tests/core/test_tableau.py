"""The drawing rules [M9], cell by cell, and an exhaustive check of the tableau.

The exhaustive check deals every sequence of six card values 0-9 through
:class:`~punto.coup.Coup` and compares it with :func:`reference_coup`, a
re-implementation of the rules written from the wording of the rules [M5], [M7],
[M9], [M11], [M12] and sharing no code with :mod:`punto.tableau`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

import pytest

from punto.cards import Card, Rank, Suit
from punto.coup import Coup, Position, deal_coup
from punto.outcome import Outcome
from punto.tableau import banker_draws, hand_total, is_natural, player_draws

# A card of each baccarat value: 0 is a king, 1 an ace, 2-9 their pips.
CARD_OF_VALUE: tuple[Card, ...] = (
    Card(Rank.KING, Suit.SPADES),
    *(Card(Rank(v), Suit.SPADES) for v in range(1, 10)),
)

# (Player's card values, Banker's card values, Player total, Banker total, winner, natural):
# the shape both the engine and the reference are reduced to.
Summary = tuple[tuple[int, ...], tuple[int, ...], int, int, str, bool]


def two_card_hand(total: int) -> tuple[int, int]:
    """Two card values making ``total`` (9 = 4 + 5, 0 = K + K)."""
    first = total // 2
    return first, total - first


def coup_after_four(player_total: int, banker_total: int) -> Coup:
    """A coup with both two-card hands dealt, holding the given totals."""
    p1, p2 = two_card_hand(player_total)
    b1, b2 = two_card_hand(banker_total)
    coup = Coup()
    for value in (p1, b1, p2, b2):
        coup.deal(CARD_OF_VALUE[value])
    return coup


# -- [M9] naturals ---------------------------------------------------------------------


@pytest.mark.parametrize("natural", [8, 9])
@pytest.mark.parametrize("other", range(10))
def test_m9_player_natural_both_stand(natural: int, other: int) -> None:
    coup = coup_after_four(natural, other)
    assert coup.is_complete
    assert coup.next_position is None
    outcome = coup.outcome
    assert outcome.natural
    assert outcome.player_natural
    assert outcome.cards_used == 4


@pytest.mark.parametrize("natural", [8, 9])
@pytest.mark.parametrize("other", range(10))
def test_m9_banker_natural_both_stand(natural: int, other: int) -> None:
    coup = coup_after_four(other, natural)
    assert coup.is_complete
    outcome = coup.outcome
    assert outcome.natural
    assert outcome.banker_natural
    assert outcome.cards_used == 4


@pytest.mark.parametrize("total", range(10))
def test_m9_natural_is_a_two_card_8_or_9(total: int) -> None:
    assert is_natural(total) is (total in (8, 9))


def test_m9_three_card_eight_is_not_a_natural() -> None:
    # Player 2 + K draws a 6: 8 on three cards; Banker 7 stands. No natural.
    outcome = deal_coup([CARD_OF_VALUE[v] for v in (2, 7, 0, 0, 6)])
    assert outcome.player_total == 8
    assert not outcome.natural


# -- [M9] Player -----------------------------------------------------------------------


@pytest.mark.parametrize("total", range(6))
def test_m9_player_draws_on_0_to_5(total: int) -> None:
    assert player_draws(total)
    for banker_total in range(8):
        assert coup_after_four(total, banker_total).next_position is Position.PLAYER_3


@pytest.mark.parametrize("total", [6, 7])
def test_m9_player_stands_on_6_and_7(total: int) -> None:
    assert not player_draws(total)
    for banker_total in range(8):
        assert coup_after_four(total, banker_total).next_position is not Position.PLAYER_3


# -- [M9] Banker, the Player stood -----------------------------------------------------


@pytest.mark.parametrize("banker_total", range(8))
def test_m9_banker_draws_on_0_to_5_and_stands_on_6_7_when_player_stood(
    banker_total: int,
) -> None:
    draws = banker_total <= 5
    assert banker_draws(banker_total, player_third=None) is draws
    for player_total in (6, 7):
        coup = coup_after_four(player_total, banker_total)
        assert coup.next_position is (Position.BANKER_3 if draws else None)
        if draws:
            coup.deal(CARD_OF_VALUE[3])
        assert coup.is_complete
        assert len(coup.outcome.player) == 2


# -- [M9] Banker, the Player drew a third card worth t ---------------------------------


def check_banker_cell(banker_total: int, third: int, *, draws: bool) -> None:
    """One cell of the [M9] table, through the table itself and through a Coup."""
    assert banker_draws(banker_total, player_third=third) is draws
    for player_total in range(6):
        coup = coup_after_four(player_total, banker_total)
        coup.deal(CARD_OF_VALUE[third], Position.PLAYER_3)
        assert coup.next_position is (Position.BANKER_3 if draws else None)
        if draws:
            coup.deal(CARD_OF_VALUE[9], Position.BANKER_3)
        assert coup.is_complete
        assert coup.outcome.cards_used == (6 if draws else 5)


@pytest.mark.parametrize("banker_total", [0, 1, 2])
@pytest.mark.parametrize("third", range(10))
def test_m9_banker_draws_on_0_1_2_whatever_player_third(banker_total: int, third: int) -> None:
    check_banker_cell(banker_total, third, draws=True)


@pytest.mark.parametrize("third", range(10))
def test_m9_banker_draws_on_3_unless_player_third_is_8(third: int) -> None:
    check_banker_cell(3, third, draws=third != 8)


@pytest.mark.parametrize("third", range(10))
def test_m9_banker_draws_on_4_when_player_third_is_2_to_7(third: int) -> None:
    check_banker_cell(4, third, draws=2 <= third <= 7)


@pytest.mark.parametrize("third", range(10))
def test_m9_banker_draws_on_5_when_player_third_is_4_to_7(third: int) -> None:
    check_banker_cell(5, third, draws=4 <= third <= 7)


@pytest.mark.parametrize("third", range(10))
def test_m9_banker_draws_on_6_when_player_third_is_6_or_7(third: int) -> None:
    check_banker_cell(6, third, draws=third in (6, 7))


@pytest.mark.parametrize("third", range(10))
def test_m9_banker_stands_on_7_whatever_player_third(third: int) -> None:
    check_banker_cell(7, third, draws=False)


# -- [M5] totals -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "total"),
    [((4, 2, 6), 2), ((5, 6, 8), 9), ((7, 3), 0), ((0, 0, 0), 0), ((9, 9), 8), ((), 0)],
)
def test_m5_total_is_sum_modulo_10(values: tuple[int, ...], total: int) -> None:
    assert hand_total(values) == total


# -- [M11], [M12] ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "winner"),
    [
        ((9, 0, 0, 0), "player"),  # P 9 (natural) v B 0
        ((0, 9, 0, 0), "banker"),  # P 0 ... B 9 natural
        ((4, 4, 4, 4), "tie"),  # 8 v 8, both naturals
        ((6, 7, 0, 0), "banker"),  # P 6 stands, B 7 stands
        ((7, 7, 0, 0), "tie"),  # 7 v 7
    ],
)
def test_m11_higher_total_wins_m12_equal_is_a_tie(values: tuple[int, ...], winner: str) -> None:
    assert deal_coup([CARD_OF_VALUE[v] for v in values]).winner.value == winner


# -- exhaustive check against an independent reference ---------------------------------


def reference_banker_draws_after_player_third(banker: int, third: int) -> bool:
    """[M9] table, row by row, as the rule words it."""
    if banker in (0, 1, 2):
        return True  # draws whatever the third card
    if banker == 3:
        return third != 8  # draws on 0-7 and 9, stands on 8
    if banker == 4:
        return third in (2, 3, 4, 5, 6, 7)
    if banker == 5:
        return third in (4, 5, 6, 7)
    if banker == 6:
        return third in (6, 7)
    return False  # 7 stands whatever the third card


def reference_coup(values: Sequence[int]) -> Summary:
    """Deal card values in shoe order by the rules' wording; return the coup's summary.

    [M7] P1 B1 P2 B2, then the Player's third card, then the Banker's. [M5] totals
    modulo 10. [M9] naturals stand; Player draws on 0-5; Banker by the table.
    [M11] higher total wins, [M12] equal is a tie.
    """
    shoe = iter(values)
    player = [next(shoe)]
    banker = [next(shoe)]
    player.append(next(shoe))
    banker.append(next(shoe))
    player_two = sum(player) % 10
    banker_two = sum(banker) % 10
    natural = player_two >= 8 or banker_two >= 8
    if not natural:
        if player_two <= 5:
            third = next(shoe)
            player.append(third)
            if reference_banker_draws_after_player_third(banker_two, third):
                banker.append(next(shoe))
        elif banker_two <= 5:
            banker.append(next(shoe))
    player_total = sum(player) % 10
    banker_total = sum(banker) % 10
    if player_total > banker_total:
        winner = "player"
    elif banker_total > player_total:
        winner = "banker"
    else:
        winner = "tie"
    return tuple(player), tuple(banker), player_total, banker_total, winner, natural


def summary_of(outcome: Outcome) -> Summary:
    return (
        tuple(c.value for c in outcome.player),
        tuple(c.value for c in outcome.banker),
        outcome.player_total,
        outcome.banker_total,
        outcome.winner.value,
        outcome.natural,
    )


def coups_by_prefix(prefix: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], Coup]]:
    """Every distinct complete coup, by the card values it reads, in lexicographic order.

    A coup reads only a prefix (4, 5 or 6 cards) of a sequence, so it is dealt once per
    distinct prefix; the prefix grows one card while the coup says it is not complete.
    """
    coup = Coup()
    for value in prefix:
        coup.deal(CARD_OF_VALUE[value])
    if len(prefix) >= 4 and coup.is_complete:
        yield prefix, coup
        return
    assert len(prefix) < 6, f"the coup {prefix} asks for a seventh card"  # [M7]
    for value in range(10):
        yield from coups_by_prefix((*prefix, value))


@pytest.mark.slow  # ~10 s: 339,400 distinct coups at ~25 us each
def test_m9_tableau_exhaustive_over_all_six_card_value_sequences() -> None:
    """Every one of the 10**6 sequences of six card values deals as the reference says:
    each sequence is checked against the coup dealt from the prefix it starts with."""
    sequences = itertools.product(range(10), repeat=6)
    checked = 0
    coups = 0
    mismatches: list[tuple[tuple[int, ...], Summary, Summary]] = []
    for prefix, coup in coups_by_prefix():
        coups += 1
        got = summary_of(coup.outcome)
        for sequence in itertools.islice(sequences, 10 ** (6 - len(prefix))):
            checked += 1
            expected = reference_coup(sequence)
            if expected != got:
                mismatches.append((sequence, got, expected))
    assert mismatches[:5] == []
    assert checked == 10**6
    assert next(sequences, None) is None
    assert coups == 339_400
