"""Every bet of the rules ([M13], [M17], [L], [O]) against every outcome it distinguishes.

Each coup is dealt from real cards (shoe order P1 B1 P2 B2 P3 B3) through the tableau,
then settled under a preset; each test is named after the rule it checks. Stakes are
100.00 (10 000 minor units) unless a test says otherwise, so a net of 9 500 is "95".
"""

from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType

import pytest

from punto.bets import (
    LOSE,
    MAIN_BETS,
    PUSH,
    SUPER_TIE_BETS,
    TIGER_BETS,
    Bet,
    CoupFacts,
    classify,
    parse_bet,
)
from punto.cards import parse_cards
from punto.coup import deal_coup
from punto.errors import BetNotOfferedError, PaytableError, RulesError, UnknownBetError
from punto.outcome import Outcome, Winner
from punto.paytables import PAYTABLES, paytable, paytables_for
from punto.rules import PRESETS, Rules, preset
from punto.settlement import settle

STAKE = 10_000
"""100.00 in minor units."""

MACAU = preset("macau")
"""Player 1, Banker with 5% commission, Tie 8, pairs 11."""
NO_COMMISSION = preset("no_commission")
"""Banker 1 to 1, half on a winning 6."""
LIVE = preset("live_tiger")
"""[L] Dragon Bonus 30/10/6/4/2/1 and the Tiger bets."""
ONLINE = preset("online_8deck")
"""[O] Dragon Bonus 30/10/5/3/2/1, Big/Small, Super Tie."""
TIE_9 = MACAU.replace(paytables=MappingProxyType({**MACAU.paytables, Bet.TIE: "tie_9"}))

_RANK = "TA23456789"
"""A rank character worth each value 0-9."""

# -- the coups -----------------------------------------------------------------------
PLAYER_NATURAL_9_BEATS_5 = "9S 8D KH 7C"
BANKER_NATURAL_8_BEATS_5 = "2S 9H 3D 9C"  # Banker 9H 9C: a pair
TIE_7 = "5S 4H 2D 3C"  # no natural, four cards
NATURAL_TIE_9 = "9S 9H KD KC"
TIE_6_TWO_CARDS = "3S 4H 3D 2C"  # Player 3S 3D: a pair
BANKER_TWO_CARD_6_BEATS_4 = "KS 3H 4D 3C KC"  # five cards; Banker 3H 3C: a pair
BANKER_THREE_CARD_6_BEATS_4 = "KS 2H 4D KC KD 4S"  # six cards
PLAYER_NATURAL_9_BEATS_0 = "9S KH KD QC"
PLAYER_NATURAL_8_LOSES_TO_9 = "8S 9H KD KC"
PLAYER_PAIR_4S_ONLY = "4S 2H 4D 3C"  # Player 8 natural beats 5
PLAYER_PAIR_BANKER_SAME_FIRST_RANK = "4S 4H 4D 5C"  # Player 4-4, Banker 4-5
PLAYER_PAIR_JJ = "JS 9H JD KC"
PLAYER_JQ = "JS 9H QD KC"
BANKER_PAIR_JJ = "9S JH KD JC"
BANKER_JQ = "9S JH KD QC"
BOTH_PAIRS_4_AND_9 = "4S 9H 4D 9C"  # natural tie on 8
BOTH_PAIRS_SAME_RANK_9 = "9S 9H 9D 9C"  # natural tie on 8
BOTH_PAIRS_SAME_RANK_8_TIE_6 = "8S 8H 8D 8C"
PLAYER_THIRD_CARD_MATCHES_FIRST = "2S KH 3D QC 2C 5H"  # 2-3-2: no pair [M13]


def three_card_tie(total: int) -> str:
    """Both hands draw from 0 and tie on ``total`` with three cards each."""
    return f"KS KH QD JC {_RANK[total]}S {_RANK[total]}H"


def player_wins_by(margin: int) -> str:
    """Non-natural: Player ``margin`` on three cards beats Banker 0 on three cards."""
    return f"KS KH QD JC {_RANK[margin]}S TH"


def banker_wins_by(margin: int) -> str:
    """Non-natural: Banker ``margin`` on three cards beats Player 0 on three cards."""
    return f"KS KH QD JC TS {_RANK[margin]}H"


def coup(cards: str) -> Outcome:
    """The coup dealt from ``cards`` by the tableau."""
    return deal_coup(parse_cards(cards))


def net(rules: Rules, bet: Bet, cards: str, stake: int = STAKE) -> int:
    """Net result of one bet of ``stake`` on the coup dealt from ``cards``."""
    return settle(rules, coup(cards), {bet: stake}).net_of(bet)


def payout_class(bet: Bet, cards: str) -> str:
    """The payout class ``bet`` gets on the coup dealt from ``cards``."""
    return classify(bet, CoupFacts.of(coup(cards)))


# -- the coups are what their names say ----------------------------------------------


@pytest.mark.parametrize(
    ("cards", "player_total", "banker_total", "winner", "natural", "cards_used"),
    [
        (PLAYER_NATURAL_9_BEATS_5, 9, 5, Winner.PLAYER, True, 4),
        (BANKER_NATURAL_8_BEATS_5, 5, 8, Winner.BANKER, True, 4),
        (TIE_7, 7, 7, Winner.TIE, False, 4),
        (NATURAL_TIE_9, 9, 9, Winner.TIE, True, 4),
        (TIE_6_TWO_CARDS, 6, 6, Winner.TIE, False, 4),
        (BANKER_TWO_CARD_6_BEATS_4, 4, 6, Winner.BANKER, False, 5),
        (BANKER_THREE_CARD_6_BEATS_4, 4, 6, Winner.BANKER, False, 6),
        (PLAYER_NATURAL_9_BEATS_0, 9, 0, Winner.PLAYER, True, 4),
        (PLAYER_NATURAL_8_LOSES_TO_9, 8, 9, Winner.BANKER, True, 4),
        (BOTH_PAIRS_4_AND_9, 8, 8, Winner.TIE, True, 4),
        (BOTH_PAIRS_SAME_RANK_8_TIE_6, 6, 6, Winner.TIE, False, 4),
        (PLAYER_THIRD_CARD_MATCHES_FIRST, 7, 5, Winner.PLAYER, False, 6),
        *((three_card_tie(k), k, k, Winner.TIE, False, 6) for k in range(10)),
        *((player_wins_by(m), m, 0, Winner.PLAYER, False, 6) for m in range(1, 10)),
        *((banker_wins_by(m), 0, m, Winner.BANKER, False, 6) for m in range(1, 10)),
    ],
)
def test_catalogue_coups_are_dealt_as_named(
    cards: str,
    player_total: int,
    banker_total: int,
    winner: Winner,
    natural: bool,
    cards_used: int,
) -> None:
    out = coup(cards)
    assert (out.player_total, out.banker_total, out.winner) == (player_total, banker_total, winner)
    assert (out.natural, out.cards_used) == (natural, cards_used)


# -- Player [M17] ----------------------------------------------------------------------


def test_m17_player_win_pays_1_to_1() -> None:
    assert net(MACAU, Bet.PLAYER, PLAYER_NATURAL_9_BEATS_5) == 10_000
    assert net(MACAU, Bet.PLAYER, player_wins_by(1)) == 10_000


def test_m17_player_loses_when_banker_wins() -> None:
    assert net(MACAU, Bet.PLAYER, BANKER_NATURAL_8_BEATS_5) == -10_000
    assert net(MACAU, Bet.PLAYER, BANKER_TWO_CARD_6_BEATS_4) == -10_000


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("cards", [TIE_7, NATURAL_TIE_9, three_card_tie(0)])
def test_l_o_player_and_banker_push_on_a_tie(name: str, cards: str) -> None:
    rules = preset(name)
    result = settle(rules, coup(cards), {Bet.PLAYER: STAKE, Bet.BANKER: STAKE})
    assert [r.payout_class for r in result.results] == [PUSH, PUSH]
    assert [r.net for r in result.results] == [0, 0]
    assert result.total_returned == 2 * STAKE


# -- Banker with commission [M17], [M18] -----------------------------------------------


def test_m17_banker_win_pays_95_after_5_percent_commission() -> None:
    assert net(MACAU, Bet.BANKER, BANKER_NATURAL_8_BEATS_5) == 9_500
    assert net(MACAU, Bet.BANKER, banker_wins_by(1)) == 9_500


def test_m17_commission_banker_win_on_6_still_pays_95() -> None:
    assert payout_class(Bet.BANKER, BANKER_TWO_CARD_6_BEATS_4) == "win_on_6"
    assert net(MACAU, Bet.BANKER, BANKER_TWO_CARD_6_BEATS_4) == 9_500
    assert net(MACAU, Bet.BANKER, BANKER_THREE_CARD_6_BEATS_4) == 9_500


def test_m17_banker_loses_when_player_wins() -> None:
    assert net(MACAU, Bet.BANKER, PLAYER_NATURAL_9_BEATS_5) == -10_000


# -- Banker without commission [L], [O] ------------------------------------------------


def test_l_no_commission_banker_win_pays_1_to_1() -> None:
    assert net(NO_COMMISSION, Bet.BANKER, BANKER_NATURAL_8_BEATS_5) == 10_000
    assert net(NO_COMMISSION, Bet.BANKER, banker_wins_by(7)) == 10_000


@pytest.mark.parametrize("cards", [BANKER_TWO_CARD_6_BEATS_4, BANKER_THREE_CARD_6_BEATS_4])
def test_l_no_commission_banker_win_on_6_pays_half(cards: str) -> None:
    assert net(NO_COMMISSION, Bet.BANKER, cards) == 5_000
    assert net(preset("online_no_commission"), Bet.BANKER, cards) == 5_000


def test_l_no_commission_banker_6_in_a_tie_pushes() -> None:
    assert net(NO_COMMISSION, Bet.BANKER, TIE_6_TWO_CARDS) == 0


def test_l_no_commission_banker_loses_when_player_wins() -> None:
    assert net(NO_COMMISSION, Bet.BANKER, player_wins_by(6)) == -10_000


# -- Tie [M17] -------------------------------------------------------------------------


@pytest.mark.parametrize("cards", [TIE_7, NATURAL_TIE_9, *(three_card_tie(k) for k in range(10))])
def test_m17_tie_pays_8_to_1(cards: str) -> None:
    assert net(MACAU, Bet.TIE, cards, stake=1_000) == 8_000


def test_tie_9_paytable_pays_9_to_1() -> None:
    assert net(TIE_9, Bet.TIE, TIE_7, stake=1_000) == 9_000
    assert net(TIE_9, Bet.TIE, PLAYER_NATURAL_9_BEATS_5, stake=1_000) == -1_000


@pytest.mark.parametrize("cards", [PLAYER_NATURAL_9_BEATS_5, BANKER_NATURAL_8_BEATS_5])
def test_m17_tie_loses_when_a_side_wins(cards: str) -> None:
    assert net(MACAU, Bet.TIE, cards, stake=1_000) == -1_000


# -- Player Pair / Banker Pair [M13], [M17] --------------------------------------------


def test_m13_player_pair_j_j_pays_11() -> None:
    assert net(MACAU, Bet.PLAYER_PAIR, PLAYER_PAIR_JJ, stake=1_000) == 11_000


def test_m13_player_pair_j_q_is_no_pair() -> None:
    assert net(MACAU, Bet.PLAYER_PAIR, PLAYER_JQ, stake=1_000) == -1_000


def test_m13_banker_pair_j_j_pays_11() -> None:
    assert net(MACAU, Bet.BANKER_PAIR, BANKER_PAIR_JJ, stake=1_000) == 11_000


def test_m13_banker_pair_j_q_is_no_pair() -> None:
    assert net(MACAU, Bet.BANKER_PAIR, BANKER_JQ, stake=1_000) == -1_000


def test_m13_pair_bets_ignore_the_other_hand() -> None:
    assert net(MACAU, Bet.BANKER_PAIR, PLAYER_PAIR_JJ, stake=1_000) == -1_000
    assert net(MACAU, Bet.PLAYER_PAIR, BANKER_PAIR_JJ, stake=1_000) == -1_000


def test_m13_pairs_pay_whoever_wins_even_on_a_tie() -> None:
    assert net(MACAU, Bet.PLAYER_PAIR, BOTH_PAIRS_4_AND_9, stake=1_000) == 11_000
    assert net(MACAU, Bet.BANKER_PAIR, BOTH_PAIRS_4_AND_9, stake=1_000) == 11_000
    assert net(MACAU, Bet.BANKER_PAIR, BANKER_NATURAL_8_BEATS_5, stake=1_000) == 11_000


def test_m13_pair_is_the_first_two_cards_only() -> None:
    assert net(MACAU, Bet.PLAYER_PAIR, PLAYER_THIRD_CARD_MATCHES_FIRST, stake=1_000) == -1_000


# -- Dragon Bonus [L] 30/10/6/4/2/1 and [O] 30/10/5/3/2/1 ------------------------------

_DRAGON_L = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}
_DRAGON_O = {9: 30, 8: 10, 7: 5, 6: 3, 5: 2, 4: 1}


@pytest.mark.parametrize(("margin", "odds"), sorted(_DRAGON_L.items()))
def test_l_dragon_bonus_non_natural_win_by_margin_pays(margin: int, odds: int) -> None:
    assert net(LIVE, Bet.DRAGON_PLAYER, player_wins_by(margin), stake=1_000) == odds * 1_000
    assert net(LIVE, Bet.DRAGON_BANKER, banker_wins_by(margin), stake=1_000) == odds * 1_000


@pytest.mark.parametrize(("margin", "odds"), sorted(_DRAGON_O.items()))
def test_o_dragon_bonus_non_natural_win_by_margin_pays(margin: int, odds: int) -> None:
    assert net(ONLINE, Bet.DRAGON_PLAYER, player_wins_by(margin), stake=1_000) == odds * 1_000
    assert net(ONLINE, Bet.DRAGON_BANKER, banker_wins_by(margin), stake=1_000) == odds * 1_000


def test_l_dragon_bonus_non_natural_win_by_9_pays_30() -> None:
    assert payout_class(Bet.DRAGON_PLAYER, player_wins_by(9)) == "win_by_9"
    assert net(LIVE, Bet.DRAGON_PLAYER, player_wins_by(9)) == 300_000


def test_l_o_dragon_bonus_win_by_7_and_6_differ_between_paytables() -> None:
    assert net(LIVE, Bet.DRAGON_BANKER, banker_wins_by(7), 100) == 600
    assert net(ONLINE, Bet.DRAGON_BANKER, banker_wins_by(7), 100) == 500
    assert net(LIVE, Bet.DRAGON_PLAYER, player_wins_by(6), 100) == 400
    assert net(ONLINE, Bet.DRAGON_PLAYER, player_wins_by(6), 100) == 300


@pytest.mark.parametrize("rules", [LIVE, ONLINE], ids=["L", "O"])
@pytest.mark.parametrize("margin", [1, 2, 3])
def test_l_o_dragon_bonus_non_natural_win_by_1_to_3_loses(rules: Rules, margin: int) -> None:
    assert net(rules, Bet.DRAGON_PLAYER, player_wins_by(margin)) == -STAKE
    assert net(rules, Bet.DRAGON_BANKER, banker_wins_by(margin)) == -STAKE


@pytest.mark.parametrize("rules", [LIVE, ONLINE], ids=["L", "O"])
def test_l_o_dragon_bonus_natural_win_pays_1(rules: Rules) -> None:
    assert net(rules, Bet.DRAGON_PLAYER, PLAYER_NATURAL_9_BEATS_5) == STAKE
    assert net(rules, Bet.DRAGON_BANKER, BANKER_NATURAL_8_BEATS_5) == STAKE


@pytest.mark.parametrize("rules", [LIVE, ONLINE], ids=["L", "O"])
def test_l_o_dragon_bonus_natural_win_by_9_pays_1_not_30(rules: Rules) -> None:
    assert payout_class(Bet.DRAGON_PLAYER, PLAYER_NATURAL_9_BEATS_0) == "natural_win"
    assert net(rules, Bet.DRAGON_PLAYER, PLAYER_NATURAL_9_BEATS_0) == STAKE


@pytest.mark.parametrize("rules", [LIVE, ONLINE], ids=["L", "O"])
@pytest.mark.parametrize("cards", [NATURAL_TIE_9, BOTH_PAIRS_4_AND_9])
def test_l_o_dragon_bonus_natural_tie_pushes(rules: Rules, cards: str) -> None:
    assert net(rules, Bet.DRAGON_PLAYER, cards) == 0
    assert net(rules, Bet.DRAGON_BANKER, cards) == 0


@pytest.mark.parametrize("rules", [LIVE, ONLINE], ids=["L", "O"])
@pytest.mark.parametrize("cards", [TIE_7, TIE_6_TWO_CARDS, three_card_tie(9)])
def test_l_o_dragon_bonus_non_natural_tie_loses(rules: Rules, cards: str) -> None:
    assert net(rules, Bet.DRAGON_PLAYER, cards) == -STAKE
    assert net(rules, Bet.DRAGON_BANKER, cards) == -STAKE


@pytest.mark.parametrize("rules", [LIVE, ONLINE], ids=["L", "O"])
def test_l_o_dragon_bonus_loses_when_its_side_loses(rules: Rules) -> None:
    assert net(rules, Bet.DRAGON_PLAYER, PLAYER_NATURAL_8_LOSES_TO_9) == -STAKE
    assert net(rules, Bet.DRAGON_PLAYER, banker_wins_by(9)) == -STAKE
    assert net(rules, Bet.DRAGON_BANKER, PLAYER_NATURAL_9_BEATS_5) == -STAKE
    assert net(rules, Bet.DRAGON_BANKER, player_wins_by(9)) == -STAKE


# -- Lucky 6 / Tiger, Big Tiger, Small Tiger, Tiger Tie, Tiger Pair [L] ---------------


def test_l_lucky6_two_card_6_pays_12() -> None:
    assert net(LIVE, Bet.LUCKY6, BANKER_TWO_CARD_6_BEATS_4, stake=1_000) == 12_000


def test_l_lucky6_three_card_6_pays_20() -> None:
    assert net(LIVE, Bet.LUCKY6, BANKER_THREE_CARD_6_BEATS_4, stake=1_000) == 20_000


@pytest.mark.parametrize(
    "cards",
    [TIE_6_TWO_CARDS, three_card_tie(6), banker_wins_by(7), player_wins_by(6), BANKER_JQ],
)
def test_l_lucky6_loses_unless_banker_wins_with_6(cards: str) -> None:
    assert net(LIVE, Bet.LUCKY6, cards, stake=1_000) == -1_000


def test_l_big_tiger_three_card_banker_6_pays_50() -> None:
    assert net(LIVE, Bet.BIG_TIGER, BANKER_THREE_CARD_6_BEATS_4, stake=1_000) == 50_000


@pytest.mark.parametrize("cards", [BANKER_TWO_CARD_6_BEATS_4, three_card_tie(6), banker_wins_by(7)])
def test_l_big_tiger_loses_unless_three_card_banker_6_wins(cards: str) -> None:
    assert net(LIVE, Bet.BIG_TIGER, cards, stake=1_000) == -1_000


def test_l_small_tiger_two_card_banker_6_pays_22() -> None:
    assert net(LIVE, Bet.SMALL_TIGER, BANKER_TWO_CARD_6_BEATS_4, stake=1_000) == 22_000


@pytest.mark.parametrize(
    "cards", [BANKER_THREE_CARD_6_BEATS_4, TIE_6_TWO_CARDS, BANKER_NATURAL_8_BEATS_5]
)
def test_l_small_tiger_loses_unless_two_card_banker_6_wins(cards: str) -> None:
    assert net(LIVE, Bet.SMALL_TIGER, cards, stake=1_000) == -1_000


@pytest.mark.parametrize(
    "cards", [TIE_6_TWO_CARDS, three_card_tie(6), BOTH_PAIRS_SAME_RANK_8_TIE_6]
)
def test_l_tiger_tie_tie_on_6_pays_35(cards: str) -> None:
    assert net(LIVE, Bet.TIGER_TIE, cards, stake=1_000) == 35_000


@pytest.mark.parametrize(
    "cards", [TIE_7, three_card_tie(5), BANKER_TWO_CARD_6_BEATS_4, player_wins_by(6)]
)
def test_l_tiger_tie_loses_unless_tie_on_6(cards: str) -> None:
    assert net(LIVE, Bet.TIGER_TIE, cards, stake=1_000) == -1_000


@pytest.mark.parametrize("cards", [PLAYER_PAIR_4S_ONLY, BANKER_PAIR_JJ])
def test_l_tiger_pair_one_hand_paired_pays_4(cards: str) -> None:
    assert net(LIVE, Bet.TIGER_PAIR, cards, stake=1_000) == 4_000


def test_l_tiger_pair_one_pair_with_same_first_rank_pays_4() -> None:
    assert payout_class(Bet.TIGER_PAIR, PLAYER_PAIR_BANKER_SAME_FIRST_RANK) == "one_pair"
    assert net(LIVE, Bet.TIGER_PAIR, PLAYER_PAIR_BANKER_SAME_FIRST_RANK, stake=1_000) == 4_000


def test_l_tiger_pair_both_hands_paired_pays_20() -> None:
    assert net(LIVE, Bet.TIGER_PAIR, BOTH_PAIRS_4_AND_9, stake=1_000) == 20_000


@pytest.mark.parametrize("cards", [BOTH_PAIRS_SAME_RANK_9, BOTH_PAIRS_SAME_RANK_8_TIE_6])
def test_l_tiger_pair_both_paired_same_rank_pays_100(cards: str) -> None:
    assert net(LIVE, Bet.TIGER_PAIR, cards, stake=1_000) == 100_000


@pytest.mark.parametrize(
    ("cards", "payout", "odds"),
    [
        ("QS 2H QH 3C 5D 4S", "one_pair", 4),  # Player Q-Q, Banker no pair
        ("KS 9H 2D 9C", "one_pair", 4),  # Banker 9-9, Player no pair
        ("KS 8H KD 8C 2S", "both_pairs", 20),  # Player K-K, Banker 8-8
        ("JS JH JD JC 4S 3H", "same_rank_pairs", 100),  # J-J on both sides
    ],
)
def test_l_tiger_pair_worked_examples_of_the_document(cards: str, payout: str, odds: int) -> None:
    """The four examples the [L] rules give for 单虎对, 双虎对 and 至尊虎对."""
    assert payout_class(Bet.TIGER_PAIR, cards) == payout
    assert net(LIVE, Bet.TIGER_PAIR, cards, stake=1_000) == odds * 1_000


@pytest.mark.parametrize("cards", [PLAYER_JQ, BANKER_JQ, PLAYER_THIRD_CARD_MATCHES_FIRST])
def test_l_tiger_pair_no_pair_loses(cards: str) -> None:
    assert net(LIVE, Bet.TIGER_PAIR, cards, stake=1_000) == -1_000


# -- Big / Small [O] -------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards", [BANKER_TWO_CARD_6_BEATS_4, BANKER_THREE_CARD_6_BEATS_4, three_card_tie(3)]
)
def test_o_big_five_or_six_cards_pays_half(cards: str) -> None:
    assert net(ONLINE, Bet.BIG, cards) == 5_000
    assert net(ONLINE, Bet.SMALL, cards) == -STAKE


@pytest.mark.parametrize("cards", [TIE_7, PLAYER_NATURAL_9_BEATS_5, BANKER_NATURAL_8_BEATS_5])
def test_o_small_four_cards_pays_1_5(cards: str) -> None:
    assert net(ONLINE, Bet.SMALL, cards) == 15_000
    assert net(ONLINE, Bet.BIG, cards) == -STAKE


# -- Super Tie 0-9 [O] -----------------------------------------------------------------

_SUPER_TIE_ODDS = {0: 150, 1: 215, 2: 225, 3: 200, 4: 120, 5: 110, 6: 45, 7: 45, 8: 80, 9: 80}


@pytest.mark.parametrize(("total", "odds"), sorted(_SUPER_TIE_ODDS.items()))
def test_o_super_tie_k_pays_its_odds_on_a_tie_on_k(total: int, odds: int) -> None:
    bet = SUPER_TIE_BETS[total]
    assert net(ONLINE, bet, three_card_tie(total), stake=100) == odds * 100


def test_o_super_tie_8_and_9_pay_on_natural_ties() -> None:
    assert net(ONLINE, Bet.SUPER_TIE_9, NATURAL_TIE_9, stake=100) == 8_000
    assert net(ONLINE, Bet.SUPER_TIE_8, BOTH_PAIRS_4_AND_9, stake=100) == 8_000


@pytest.mark.parametrize("total", range(10))
def test_o_super_tie_k_loses_on_a_tie_on_another_total(total: int) -> None:
    cards = three_card_tie(total)
    for other in range(10):
        if other != total:
            assert net(ONLINE, SUPER_TIE_BETS[other], cards, stake=100) == -100


@pytest.mark.parametrize("total", range(1, 10))
def test_o_super_tie_k_loses_when_a_side_wins_with_k(total: int) -> None:
    for bet in SUPER_TIE_BETS:
        assert net(ONLINE, bet, player_wins_by(total), stake=100) == -100
        assert net(ONLINE, bet, banker_wins_by(total), stake=100) == -100


# -- coverage, names and paytables -----------------------------------------------------

_CATALOGUE = [
    PLAYER_NATURAL_9_BEATS_5,
    BANKER_NATURAL_8_BEATS_5,
    TIE_7,
    NATURAL_TIE_9,
    TIE_6_TWO_CARDS,
    BANKER_TWO_CARD_6_BEATS_4,
    BANKER_THREE_CARD_6_BEATS_4,
    PLAYER_NATURAL_9_BEATS_0,
    PLAYER_NATURAL_8_LOSES_TO_9,
    PLAYER_PAIR_4S_ONLY,
    PLAYER_PAIR_BANKER_SAME_FIRST_RANK,
    PLAYER_PAIR_JJ,
    PLAYER_JQ,
    BANKER_PAIR_JJ,
    BANKER_JQ,
    BOTH_PAIRS_4_AND_9,
    BOTH_PAIRS_SAME_RANK_9,
    BOTH_PAIRS_SAME_RANK_8_TIE_6,
    PLAYER_THIRD_CARD_MATCHES_FIRST,
    *(three_card_tie(k) for k in range(10)),
    *(player_wins_by(m) for m in range(1, 10)),
    *(banker_wins_by(m) for m in range(1, 10)),
]


@pytest.mark.parametrize("table", sorted(PAYTABLES))
def test_every_payout_class_of_every_paytable_is_reached_by_the_tests(table: str) -> None:
    chosen = paytable(table)
    seen = {payout_class(chosen.bet, cards) for cards in _CATALOGUE}
    assert set(chosen.pays) | {LOSE} <= seen
    # Every class a coup produces is priced by the paytable (no PaytableError).
    for name in seen:
        chosen.odds(name)


def test_paytable_refuses_an_unknown_payout_class() -> None:
    with pytest.raises(PaytableError, match="no payout class 'jackpot'"):
        paytable("player").odds("jackpot")
    with pytest.raises(PaytableError, match="unknown paytable"):
        paytable("player_2")


def test_paytable_odds_of_push_and_lose() -> None:
    table = paytable("banker_commission")
    assert table.odds("win") == Fraction(19, 20)
    assert (table.odds(PUSH), table.odds(LOSE)) == (Fraction(0), Fraction(-1))


def test_paytables_for_dragon_player_lists_both_documents() -> None:
    assert sorted(paytables_for(Bet.DRAGON_PLAYER)) == ["dragon_l", "dragon_o"]
    assert sorted(paytables_for(Bet.DRAGON_BANKER)) == ["dragon_l_banker", "dragon_o_banker"]


def test_rules_refuse_a_paytable_of_another_bet() -> None:
    with pytest.raises(RulesError, match="is for player, not banker"):
        MACAU.replace(paytables=MappingProxyType({Bet.BANKER: "player"}))


def test_a_bet_not_offered_is_not_settled() -> None:
    with pytest.raises(BetNotOfferedError, match="Lucky 6 is not offered at a macau table"):
        settle(MACAU, coup(TIE_7), {Bet.LUCKY6: 100})


def test_parse_bet_reads_every_name_and_refuses_unknown_ones() -> None:
    for bet in Bet:
        assert parse_bet(bet.value) is bet
        assert parse_bet(f" {bet.value.upper()} ") is bet
    with pytest.raises(UnknownBetError, match="unknown bet 'dragon'"):
        parse_bet("dragon")


def test_bet_groups_and_labels() -> None:
    assert {Bet.PLAYER, Bet.BANKER} == MAIN_BETS
    assert Bet.DRAGON_PLAYER not in TIGER_BETS
    assert [b.value for b in SUPER_TIE_BETS] == [f"super_tie_{k}" for k in range(10)]
    assert (Bet.LUCKY6.label, Bet.SUPER_TIE_7.label) == ("Lucky 6", "Super Tie 7")
