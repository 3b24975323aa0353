"""Settlement never creates or loses money, and pays what the paytables of [M17] [L] [O] say.

Hypothesis deals random coups through the tableau and settles random bets on every
preset; an independent oracle, written here from the rules' table of bets, says what each
bet must pay.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from punto.bets import Bet, CoupFacts
from punto.cards import parse_cards
from punto.coup import deal_coup
from punto.errors import AmountError, BetNotOfferedError, UnknownBetError
from punto.money import Rounding
from punto.outcome import Outcome, Winner
from punto.rules import PRESETS, Rules, preset
from punto.settlement import VOID, BetResult, Settlement, refund, settle

_CARDS = [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"]
_SUPER_TIE_ODDS = (150, 215, 225, 200, 120, 110, 45, 45, 80, 80)
_DRAGON = {
    "L": {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1},
    "O": {9: 30, 8: 10, 7: 5, 6: 3, 5: 2, 4: 1},
}


def expected_odds(rules: Rules, bet: Bet, out: Outcome) -> Fraction:
    """Net per unit staked, from the rules' table of bets (-1: lost, 0: push)."""
    table = rules.paytables[bet]
    p, b = out.player_total, out.banker_total
    tie = out.winner is Winner.TIE
    banker_6 = out.winner is Winner.BANKER and b == 6
    if bet is Bet.PLAYER:
        return Fraction(0) if tie else Fraction(1 if p > b else -1)
    if bet is Bet.BANKER:
        if tie:
            return Fraction(0)
        if b < p:
            return Fraction(-1)
        if table == "banker_commission":
            return Fraction(95, 100)
        if table == "banker_ez":  # [EZ] no commission; a three-card 7 win pushes
            return Fraction(0) if b == 7 and len(out.banker) == 3 else Fraction(1)
        return Fraction(1, 2) if b == 6 else Fraction(1)
    if bet is Bet.TIE:
        return Fraction(int(table.split("_")[1])) if tie else Fraction(-1)
    if bet in (Bet.PLAYER_PAIR, Bet.BANKER_PAIR):
        hand = out.player if bet is Bet.PLAYER_PAIR else out.banker
        return Fraction(11 if hand[0].rank == hand[1].rank else -1)
    if bet in (Bet.DRAGON_PLAYER, Bet.DRAGON_BANKER):
        mine, theirs = (p, b) if bet is Bet.DRAGON_PLAYER else (b, p)
        own = out.player if bet is Bet.DRAGON_PLAYER else out.banker
        natural = sum(c.value for c in own[:2]) % 10 >= 8
        if tie:
            return Fraction(0) if out.natural else Fraction(-1)
        if mine < theirs:
            return Fraction(-1)
        if natural:
            return Fraction(1)
        pays = _DRAGON["L" if table.startswith("dragon_l") else "O"]
        return Fraction(pays.get(mine - theirs, -1))
    if bet is Bet.LUCKY6:
        if not banker_6:
            return Fraction(-1)
        return Fraction(12 if len(out.banker) == 2 else 20)
    if bet is Bet.BIG_TIGER:
        return Fraction(50 if banker_6 and len(out.banker) == 3 else -1)
    if bet is Bet.SMALL_TIGER:
        return Fraction(22 if banker_6 and len(out.banker) == 2 else -1)
    if bet is Bet.TIGER_TIE:
        return Fraction(35 if tie and b == 6 else -1)
    if bet is Bet.TIGER_PAIR:
        pairs = [out.player_pair, out.banker_pair]
        if all(pairs):
            return Fraction(100 if out.player[0].rank == out.banker[0].rank else 20)
        return Fraction(4 if any(pairs) else -1)
    if bet is Bet.DRAGON7:  # [EZ] Banker wins with a three-card 7
        return Fraction(40 if b > p and b == 7 and len(out.banker) == 3 else -1)
    if bet is Bet.PANDA8:  # [EZ] Player wins with a three-card 8
        return Fraction(25 if p > b and p == 8 and len(out.player) == 3 else -1)
    if bet is Bet.BIG:
        return Fraction(1, 2) if out.cards_used >= 5 else Fraction(-1)
    if bet is Bet.SMALL:
        return Fraction(3, 2) if out.cards_used == 4 else Fraction(-1)
    k = int(bet.value.removeprefix("super_tie_"))
    return Fraction(_SUPER_TIE_ODDS[k] if tie and b == k else -1)


@st.composite
def table_rules(draw: st.DrawFn) -> Rules:
    rules = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    return rules.replace(rounding=draw(st.sampled_from(list(Rounding))))


@st.composite
def coups(draw: st.DrawFn) -> Outcome:
    """A coup dealt from six random cards; a small pool of ranks now and then makes
    pairs, ties and same-rank pairs common."""
    pool = draw(st.sampled_from([_CARDS, *(_CARDS[i : i + 8] for i in range(0, 52, 4))]))
    return deal_coup(parse_cards(draw(st.lists(st.sampled_from(pool), min_size=6, max_size=6))))


@st.composite
def rules_and_bets(draw: st.DrawFn) -> tuple[Rules, dict[Bet, int]]:
    rules = draw(table_rules())
    stakes = st.one_of(st.integers(min_value=1, max_value=99), st.integers(1, 10**9))
    bets = draw(st.dictionaries(st.sampled_from(rules.offered_bets), stakes, min_size=1))
    return rules, bets


@given(table=rules_and_bets(), out=coups())
def test_settlement_never_creates_or_loses_money(
    table: tuple[Rules, dict[Bet, int]], out: Outcome
) -> None:
    rules, bets = table
    result = settle(rules, out, bets)
    assert [r.bet for r in result.results] == list(bets)
    assert [r.stake for r in result.results] == list(bets.values())
    assert result.total_stake == sum(bets.values())
    assert result.total_stake + result.total_net == result.total_returned
    for r in result.results:
        assert r.returned >= 0
        if r.payout_class == "lose":
            assert (r.net, r.returned) == (-r.stake, 0)
        elif r.payout_class == "push":
            assert (r.net, r.returned) == (0, r.stake)
        else:
            assert r.net >= 0


@settings(max_examples=300)
@given(
    rounding=st.sampled_from(list(Rounding)),
    out=coups(),
    stake=st.integers(min_value=1, max_value=10**6),
)
def test_settlement_pays_what_the_rules_table_says(
    rounding: Rounding, out: Outcome, stake: int
) -> None:
    for table in PRESETS.values():
        rules = table.replace(rounding=rounding)
        result = settle(rules, out, dict.fromkeys(rules.offered_bets, stake))
        for r in result.results:
            odds = expected_odds(rules, r.bet, out)
            assert r.odds == odds, (rules.name, r)
            exact = r.stake * odds
            # Rounding moves the exact payout by less than one minor unit, never up for FLOOR.
            assert abs(r.net - exact) < 1
            if rounding is Rounding.FLOOR:
                assert r.net <= exact


@given(table=rules_and_bets(), out=coups())
def test_settlement_is_deterministic_and_order_free(
    table: tuple[Rules, dict[Bet, int]], out: Outcome
) -> None:
    rules, bets = table
    first = settle(rules, out, bets)
    assert settle(rules, out, bets) == first
    assert settle(rules, CoupFacts.of(out), bets) == first
    reverse = settle(rules, out, dict(reversed(list(bets.items()))))
    assert {r.bet: r for r in reverse.results} == {r.bet: r for r in first.results}
    assert reverse.total_net == first.total_net


@given(table=rules_and_bets())
def test_refund_returns_every_stake(table: tuple[Rules, dict[Bet, int]]) -> None:
    _, bets = table
    result = refund(bets)
    assert all(r.payout_class == VOID and r.net == 0 for r in result.results)
    assert [r.returned for r in result.results] == list(bets.values())
    assert result.total_returned == result.total_stake == sum(bets.values())
    assert result.total_net == 0


# -- worked examples from the documents ------------------------------------------------


def one(rules: Rules, cards: str, bet: Bet, stake: int) -> BetResult:
    (result,) = settle(rules, deal_coup(parse_cards(cards)), {bet: stake}).results
    return result


def test_m17_m18_100_on_banker_at_5_percent_commission_nets_95() -> None:
    r = one(preset("macau"), "2S 9H 3D 9C", Bet.BANKER, 10_000)
    assert (r.payout_class, r.odds, r.net, r.returned) == ("win", Fraction(19, 20), 9_500, 19_500)


def test_settlement_docstring_example_banker_and_player() -> None:
    s = settle(
        preset("macau"),
        deal_coup(parse_cards("2S 9H 3D 9C")),
        {Bet.BANKER: 10_000, Bet.PLAYER: 10_000},
    )
    assert [(r.bet, r.net) for r in s.results] == [(Bet.BANKER, 9_500), (Bet.PLAYER, -10_000)]
    assert (s.total_net, s.total_stake, s.total_returned) == (-500, 20_000, 19_500)
    assert (s.net_of(Bet.BANKER), s.net_of(Bet.TIE)) == (9_500, 0)


def test_l_no_commission_banker_win_with_6_pays_half() -> None:
    r = one(preset("no_commission"), "KS 3H 4D 3C KC", Bet.BANKER, 10_000)
    assert (r.payout_class, r.net, r.returned) == ("win_on_6", 5_000, 15_000)


def test_m17_tie_pays_8_to_1() -> None:
    r = one(preset("macau"), "5S 4H 2D 3C", Bet.TIE, 1_000)
    assert (r.net, r.returned) == (8_000, 9_000)


def test_m17_player_pays_1_to_1() -> None:
    r = one(preset("macau"), "9S 8D KH 7C", Bet.PLAYER, 10_000)
    assert (r.net, r.returned) == (10_000, 20_000)


def test_l_o_main_bets_push_on_a_tie_and_are_returned() -> None:
    r = one(preset("online_8deck"), "5S 4H 2D 3C", Bet.BANKER, 10_000)
    assert (r.payout_class, r.net, r.returned) == ("push", 0, 10_000)


def test_an_empty_bet_map_settles_to_nothing() -> None:
    s = settle(preset("macau"), deal_coup(parse_cards("5S 4H 2D 3C")), {})
    assert s == Settlement(())
    assert (s.total_stake, s.total_net, s.total_returned) == (0, 0, 0)


# -- refused stakes --------------------------------------------------------------------


@pytest.mark.parametrize("stake", [0, -100, True])
def test_settle_and_refund_refuse_a_stake_that_is_not_a_positive_whole_number(
    stake: int,
) -> None:
    out = deal_coup(parse_cards("5S 4H 2D 3C"))
    with pytest.raises(AmountError, match="Banker stake must be a positive whole number"):
        settle(preset("macau"), out, {Bet.BANKER: stake})
    with pytest.raises(AmountError, match="Banker stake must be a positive whole number"):
        refund({Bet.BANKER: stake})


def test_settle_refuses_a_bet_the_table_does_not_offer() -> None:
    out = deal_coup(parse_cards("5S 4H 2D 3C"))
    with pytest.raises(BetNotOfferedError):
        settle(preset("super_punto_banco"), out, {Bet.PLAYER_PAIR: 500})


def test_settle_and_refund_refuse_a_key_that_is_not_a_bet() -> None:
    out = deal_coup(parse_cards("5S 4H 2D 3C"))
    bets: dict[Bet, int] = {"banker": 500}  # type: ignore[dict-item]
    with pytest.raises(UnknownBetError, match="not a bet: 'banker'"):
        settle(preset("macau"), out, bets)
    with pytest.raises(UnknownBetError, match="not a bet: 'banker'"):
        refund(bets)
