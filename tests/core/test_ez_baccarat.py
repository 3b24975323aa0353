"""EZ Baccarat [EZ]: the ``ez`` preset's bets against an independent brute-force enumeration.

The enumerator below shares no code with :mod:`punto.analysis` or :mod:`punto.tableau`:
it restates the drawing rules [M9] as plain conditions, walks every ordered sequence of
card values a shoe of the given rank counts can deal, and prices each EZ bet by its own
reading of the rules (no commission, a Banker win with a three-card 7 pushes; Dragon 7
pays 40 to 1 on a Banker three-card 7 win, Panda 8 25 to 1 on a Player three-card 8 win).
The engine must agree exactly, and ``punto edge --json`` to 1e-9.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
from collections.abc import Sequence
from fractions import Fraction

import pytest

from punto.analysis import Composition, analyze, effect_of_removal
from punto.bets import Bet
from punto.cards import RANKS, Rank, parse_cards
from punto.cli import edge
from punto.coup import deal_coup
from punto.outcome import Winner
from punto.rules import preset
from punto.settlement import settle

EZ_BETS = ("player", "banker", "tie", "dragon7", "panda8")

# rank counts, ace first (A 2 … 9 T J Q K)
SHOES = {
    "8 decks": (32,) * 13,
    "1 deck": (4,) * 13,
    "rich in 7s and 8s": (20, 24, 18, 30, 26, 22, 35, 40, 21, 30, 28, 25, 27),
    "late shoe": (3, 1, 0, 2, 4, 1, 5, 6, 2, 3, 0, 2, 1),
    "tens and nines only": (0, 0, 0, 0, 0, 0, 0, 0, 9, 8, 0, 0, 0),
}
LATE = SHOES["late shoe"]


def _player_draws(player: int) -> bool:
    return player <= 5


def _banker_draws(banker: int, player_third: int | None) -> bool:
    if player_third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 3:
        return player_third != 8
    if banker == 4:
        return 2 <= player_third <= 7
    if banker == 5:
        return 4 <= player_third <= 7
    if banker == 6:
        return player_third in (6, 7)
    return False


def _nets(player: int, banker: int, p_cards: int, b_cards: int) -> tuple[int, ...]:
    """What one unit staked on each of :data:`EZ_BETS` nets, by this file's own reading of
    EZ Baccarat (every net is a whole number of units)."""
    tie = player == banker
    dragon = banker > player and b_cards == 3 and banker == 7
    panda = player > banker and p_cards == 3 and player == 8
    return (
        0 if tie else 1 if player > banker else -1,
        0 if tie or dragon else 1 if banker > player else -1,
        8 if tie else -1,
        40 if dragon else -1,
        25 if panda else -1,
    )


@functools.cache
def brute_force_edges(rank_counts: tuple[int, ...]) -> dict[str, Fraction]:
    """Exact house edge of each EZ bet: every ordered deal of card values, weighted by how
    many ordered card sequences give it, over the number of sequences of that length."""
    left = [0] * 10
    for rank, count in enumerate(rank_counts, start=1):
        left[rank % 10 if rank < 10 else 0] += count
    n = sum(left)
    # sums[cards][bet]: net units over every ordered sequence of that many cards
    sums = {cards: [0] * len(EZ_BETS) for cards in (4, 5, 6)}

    def add(ways: int, player: int, banker: int, p_cards: int, b_cards: int) -> None:
        row = sums[p_cards + b_cards]
        for i, net in enumerate(_nets(player, banker, p_cards, b_cards)):
            row[i] += ways * net

    def take(value: int) -> int:
        ways = left[value]
        left[value] -= 1
        return ways

    def thirds(ways: int, player: int, banker: int) -> None:
        if player >= 8 or banker >= 8:
            add(ways, player, banker, 2, 2)
            return
        if not _player_draws(player):
            if _banker_draws(banker, None):
                for v6 in range(10):
                    if left[v6]:
                        add(ways * left[v6], player, (banker + v6) % 10, 2, 3)
            else:
                add(ways, player, banker, 2, 2)
            return
        for v5 in range(10):
            w5 = take(v5)
            if w5:
                p3 = (player + v5) % 10
                if _banker_draws(banker, v5):
                    for v6 in range(10):
                        if left[v6]:
                            add(ways * w5 * left[v6], p3, (banker + v6) % 10, 3, 3)
                else:
                    add(ways * w5, p3, banker, 3, 2)
            left[v5] += 1

    for p1 in range(10):
        for b1 in range(10):
            for p2 in range(10):
                for b2 in range(10):
                    ways = 1
                    taken = []
                    for value in (p1, b1, p2, b2):
                        ways *= take(value)
                        taken.append(value)
                        if not ways:
                            break
                    if ways:
                        thirds(ways, (p1 + p2) % 10, (b1 + b2) % 10)
                    for value in taken:
                        left[value] += 1
    return {
        bet: -sum(
            (Fraction(row[i], math.perm(n, cards)) for cards, row in sums.items()), Fraction(0)
        )
        for i, bet in enumerate(EZ_BETS)
    }


@pytest.mark.parametrize("name", list(SHOES))
def test_ez_house_edges_equal_an_independent_enumeration(name: str) -> None:
    counts = SHOES[name]
    exact = brute_force_edges(counts)
    result = analyze(preset("ez"), Composition(counts))
    assert {bet.value: figures.house_edge for bet, figures in result.bets.items()} == exact


def test_ez_published_edges_of_the_independent_enumeration() -> None:
    """The brute force itself reproduces Wizard of Odds' 8-deck figures (the data file)."""
    edges = brute_force_edges(SHOES["8 decks"])
    assert round(float(edges["banker"]) * 100, 3) == 1.018
    assert round(float(edges["dragon7"]) * 100, 3) == 7.611
    assert round(float(edges["panda8"]) * 100, 3) == 10.188


def _edge_json(capsys: pytest.CaptureFixture[str], argv: Sequence[str]) -> dict[str, object]:
    parser = argparse.ArgumentParser(prog="punto")
    edge.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    assert args.handler(args) == 0
    doc: dict[str, object] = json.loads(capsys.readouterr().out)
    return doc


@pytest.mark.parametrize(
    ("argv", "counts"),
    [
        (["--decks", "8"], SHOES["8 decks"]),
        (
            [
                "--remaining",
                ",".join(f"{r.char}={c}" for r, c in zip(RANKS, SHOES["late shoe"], strict=True)),
            ],
            SHOES["late shoe"],
        ),
    ],
)
def test_cli_edge_ez_to_1e9_of_the_independent_enumeration(
    capsys: pytest.CaptureFixture[str], argv: list[str], counts: tuple[int, ...]
) -> None:
    doc = _edge_json(capsys, ["edge", "--json", "--rules", "ez", *argv])
    bets = doc["bets"]
    assert isinstance(bets, dict)
    assert set(bets) == set(EZ_BETS)
    for bet, edge_value in brute_force_edges(counts).items():
        assert abs(bets[bet]["house_edge"] - float(edge_value)) < 1e-9, bet


def test_ez_effect_of_removal_equals_the_independent_enumeration() -> None:
    counts = SHOES["8 decks"]
    eor = effect_of_removal(preset("ez"), Composition(counts), bets=[Bet.DRAGON7, Bet.PANDA8])
    base = brute_force_edges(counts)
    for rank in (Rank.SEVEN, Rank.EIGHT):
        fewer = list(counts)
        fewer[rank - 1] -= 1
        edges = brute_force_edges(tuple(fewer))
        for bet in (Bet.DRAGON7, Bet.PANDA8):
            assert eor.effects[bet][rank] == edges[bet.value] - base[bet.value]


def test_cli_edge_eor_lists_the_ez_side_bets(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _edge_json(capsys, ["edge", "--json", "--rules", "ez", "--decks", "8", "--eor"])
    effects = doc["effect_of_removal"]
    assert isinstance(effects, dict)
    assert {"dragon7", "panda8", "banker"} <= set(effects)
    assert len(effects["dragon7"]) == 13


BANKER_THREE_CARD_7 = "KS 2H 6D 2C 3S"
"""Player K 6 = 6 stands; Banker 2 2 = 4 draws a 3: a three-card 7 beats 6."""
PLAYER_THREE_CARD_8 = "2S KD 3H 7C 3D"
"""Player 2 3 = 5 draws a 3: a three-card 8 beats Banker's K 7 = 7."""


def test_ez_banker_win_with_a_three_card_7_pushes_and_dragon7_pays_40() -> None:
    coup = deal_coup(parse_cards(BANKER_THREE_CARD_7))
    result = settle(preset("ez"), coup, {Bet.BANKER: 1_000, Bet.DRAGON7: 100, Bet.PANDA8: 100})
    by_bet = {r.bet: (r.payout_class, r.net) for r in result.results}
    assert by_bet == {
        Bet.BANKER: ("win_three_card_7", 0),
        Bet.DRAGON7: ("win", 4_000),
        Bet.PANDA8: ("lose", -100),
    }


@pytest.mark.parametrize(
    "cards",
    [
        "KS 3H 6D 4C",  # Player 6 stands; Banker 3 4 = a two-card 7
        "KS 3H 4D 3C KC",  # Player 4 draws a K; Banker 3 3 = 6 stands and wins
    ],
)
def test_ez_other_banker_wins_pay_even_money_a_six_and_a_two_card_7_included(
    cards: str,
) -> None:
    coup = deal_coup(parse_cards(cards))
    assert coup.winner is Winner.BANKER
    assert settle(preset("ez"), coup, {Bet.BANKER: 1_000}).total_net == 1_000


def test_ez_panda8_pays_25_on_a_player_three_card_8_win() -> None:
    coup = deal_coup(parse_cards(PLAYER_THREE_CARD_8))
    result = settle(preset("ez"), coup, {Bet.PLAYER: 1_000, Bet.PANDA8: 100, Bet.DRAGON7: 100})
    assert {r.bet: r.net for r in result.results} == {
        Bet.PLAYER: 1_000,
        Bet.PANDA8: 2_500,
        Bet.DRAGON7: -100,
    }


def test_a_commission_table_pays_the_three_card_7_as_any_banker_win() -> None:
    coup = deal_coup(parse_cards(BANKER_THREE_CARD_7))
    assert settle(preset("macau"), coup, {Bet.BANKER: 1_000}).total_net == 950
    assert settle(preset("no_commission"), coup, {Bet.BANKER: 1_000}).total_net == 1_000
