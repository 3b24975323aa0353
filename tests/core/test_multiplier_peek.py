"""Multiplier baccarat [LB] and Peek [PK]: rules data, exact figures against brute
force on small shoes, published figures, the rules document and the simulator."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from fractions import Fraction
from importlib import resources

import pytest

from punto.analysis import Composition, cell_index, enumerate_coups
from punto.analysis.lightning import lightning_analysis, multiplier_distribution
from punto.analysis.peek import peek_analysis
from punto.analysis.ranks import enumerate_ranks, pattern_index
from punto.bets import Bet, CoupFacts, classify
from punto.cards import Card, Rank, Suit, parse_cards
from punto.coup import deal_coup
from punto.errors import CompositionError, RulesError, SimulationError
from punto.multipliers import IDENTITIES, LightningDraw, LightningTable
from punto.peek import PeekRules
from punto.rules import Rules, preset
from punto.rules_document import compose, rules_from_document, rules_to_document
from punto.settlement import settle
from punto.simulation import max_workers, simulate
from punto.strategies import BettingSystem, evaluate

SMALL = LightningTable(
    name="small", count_weights={1: 2, 2: 1}, multiplier_weights={2: 1, 3: 2}, fee=Fraction(1, 5)
)
"""A reduced lightning draw, small enough to enumerate draw by draw."""

SUITS = tuple(Suit)


def _shoe(ranks: tuple[Rank, ...], copies: int) -> list[Card]:
    return [Card(r, s) for r in ranks for s in SUITS for _ in range(copies)]


def _identity(card: Card) -> int:
    return (card.rank.value - 1) * 4 + SUITS.index(card.suit)


def _draws(table: LightningTable) -> list[tuple[Fraction, dict[int, int]]]:
    """Every lightning draw, one by one: (probability, identity → multiplier)."""
    out = []
    for count in table.count_weights:
        pk = table.count_probability(count)
        for cards in itertools.combinations(range(IDENTITIES), count):
            for mults in itertools.product(table.multipliers, repeat=count):
                p = pk / math.comb(IDENTITIES, count)
                for m in mults:
                    p *= table.multiplier_probability(m)
                out.append((p, dict(zip(cards, mults, strict=True))))
    return out


def _brute_lightning(rules: Rules, cards: list[Card]) -> dict[Bet, tuple[Fraction, Fraction]]:
    """RTP and variance per unit paid by every ordered six-card draw of physical cards
    and every lightning draw, explicitly."""
    table = rules.lightning
    assert table is not None
    groups: Counter[tuple[Bet, Fraction, tuple[int, ...]]] = Counter()
    orders = math.perm(len(cards), 6)
    for order in itertools.permutations(range(len(cards)), 6):
        outcome = deal_coup([cards[i] for i in order])
        facts = CoupFacts.of(outcome)
        for bet in rules.offered_bets:
            odds = rules.paytable_for(bet).odds(classify(bet, facts))
            hand = {
                Bet.PLAYER: outcome.player,
                Bet.BANKER: outcome.banker,
                Bet.TIE: (*outcome.player, *outcome.banker),
            }[bet]
            groups[(bet, odds, tuple(sorted(_identity(c) for c in hand)))] += 1
    draws = _draws(table)
    returned: dict[Bet, Fraction] = dict.fromkeys(rules.offered_bets, Fraction(0))
    square: dict[Bet, Fraction] = dict.fromkeys(rules.offered_bets, Fraction(0))
    for (bet, odds, identities), n in groups.items():
        for p, lit in draws:
            product = math.prod(lit.get(i, 1) for i in identities)
            back = (1 + table.net_odds(bet, odds, product)) / (1 + table.fee)
            returned[bet] += n * p * back
            square[bet] += n * p * back * back
    out = {}
    for bet in rules.offered_bets:
        rtp = returned[bet] / orders
        out[bet] = (rtp, square[bet] / orders - rtp * rtp)
    return out


@pytest.mark.parametrize(
    ("ranks", "copies"), [((Rank.ACE, Rank.KING), 1), ((Rank.ACE,), 2), ((Rank.NINE,), 2)]
)
def test_lb_exact_rtp_agrees_with_brute_force_on_small_shoes(
    ranks: tuple[Rank, ...], copies: int
) -> None:
    rules = preset("lightning").replace(decks=1, cut_min_from_end=6, cut_max_from_end=6,
                                        lightning=SMALL)  # fmt: skip
    cards = _shoe(ranks, copies)
    composition = Composition.from_counts(dict.fromkeys(ranks, 4 * copies))
    exact = lightning_analysis(rules, composition)
    brute = _brute_lightning(rules, cards)
    assert {bet: (r.rtp, r.variance) for bet, r in exact.bets.items()} == brute


def test_lb_multiplier_distribution_of_a_pair_counts_a_card_dealt_twice() -> None:
    """Two cards of one rank from 8 decks are the same card with chance 7/31; lit, its
    multiplier counts twice."""
    dist = multiplier_distribution(SMALL, (2,), 8)
    assert sum(dist.values()) == 1
    assert {4, 6, 9} <= set(dist)  # 2*2 (one card dealt twice, or two lit), 2*3, 3*3


def test_lb_preset_figures_near_the_published_house_edges() -> None:
    """Published edges are rounded to 0.01 point and the operator's draw weights are not
    published: ours are fitted to them, Player within its rounding (0.01 point), Banker
    and Tie within 0.1 (the Banker's commission on the stake sets its gap to Player)."""
    data = json.loads(
        resources.files("punto.data").joinpath("reallivedealer_lightning_baccarat.json").read_text()
    )
    published = data["house_edge_percent"]
    result = lightning_analysis(preset("lightning"))
    tolerance = {"player": 0.01, "banker": 0.1, "tie": 0.1}
    for bet, figures in result.bets.items():
        assert abs(100 * float(figures.house_edge) - published[bet.value]) <= tolerance[bet.value]


def test_lb_cap_lowers_the_rtp_only_where_it_binds() -> None:
    rules = preset("lightning")
    free = lightning_analysis(rules)
    small = lightning_analysis(rules, stake=100)  # 1.00: 512:1 is far below the cap
    big = lightning_analysis(rules, stake=5_000_000)
    assert small.bets[Bet.PLAYER].rtp == free.bets[Bet.PLAYER].rtp
    assert big.bets[Bet.TIE].rtp < free.bets[Bet.TIE].rtp


def test_lb_a_shoe_without_known_suits_is_refused() -> None:
    with pytest.raises(CompositionError):
        lightning_analysis(
            preset("lightning"), Composition.after_removing([Card(Rank.ACE, Suit.SPADES)])
        )


@pytest.mark.parametrize(
    "bad",
    [
        {"count_weights": {0: 1}, "multiplier_weights": {2: 1}},
        {"count_weights": {1: 1}, "multiplier_weights": {1: 1}},
        {"count_weights": {1: 1}, "multiplier_weights": {2: 1}, "fee": Fraction(1)},
        {"count_weights": {1: 1}, "multiplier_weights": {2: 1}, "cap": 0},
    ],
)
def test_lb_invalid_tables_raise_rules_error(bad: dict[str, object]) -> None:
    with pytest.raises(RulesError) as caught:
        LightningTable(name="bad", **bad)  # type: ignore[arg-type]
    assert caught.value.field == "lightning"


@pytest.mark.parametrize("name", ["lightning", "peek"])
def test_lb_pk_rules_documents_round_trip(name: str) -> None:
    doc = json.loads(json.dumps(rules_to_document(preset(name))))
    assert rules_from_document(doc) == preset(name)


def test_lb_pk_a_document_written_before_the_variants_still_loads() -> None:
    doc = rules_to_document(preset("macau"))
    del doc["lightning"], doc["peek"]
    assert rules_from_document(doc) == preset("macau")


def test_lb_pk_document_refuses_bad_variant_settings_naming_the_field() -> None:
    with pytest.raises(RulesError) as caught:
        compose("macau", {"peek": {"name": "p", "revealed": 5}})
    assert caught.value.field == "peek"
    with pytest.raises(RulesError) as caught:
        compose("macau", {"lightning": {"name": "l", "count_weights": {"1": 1}}})
    assert caught.value.field == "lightning"


def _brute_peek(rules: Rules, cards: list[Card]) -> dict[Bet, Fraction]:
    """Optimal raise and RTP by every ordered draw of physical cards, grouped by what
    the player sees (the four first cards' ranks, each hand's two sorted)."""
    peek = rules.peek
    assert peek is not None
    states: dict[tuple[Bet, tuple[int, ...]], list[Fraction]] = {}
    for order in itertools.permutations(range(len(cards)), 6):
        dealt = [cards[i] for i in order]
        facts = CoupFacts.of(deal_coup(dealt))
        r = [c.rank.value for c in dealt[:4]]
        seen = (
            (*sorted((r[0], r[2])), *sorted((r[1], r[3])))
            if peek.revealed == 4
            else tuple(r[: peek.revealed])
        )
        for bet in (Bet.PLAYER, Bet.BANKER):
            states.setdefault((bet, seen), []).append(
                rules.paytable_for(bet).odds(classify(bet, facts))
            )
    returned: dict[Bet, Fraction] = {}
    paid: dict[Bet, Fraction] = {}
    for (bet, _), nets in states.items():
        ev = sum(nets, Fraction(0)) / len(nets)
        raised = max(peek.raises) if ev > peek.raise_fee else 0
        back = sum(((1 + raised) * (1 + n) for n in nets), Fraction(0))
        returned[bet] = returned.get(bet, Fraction(0)) + back
        paid[bet] = paid.get(bet, Fraction(0)) + len(nets) * peek.cost(raised)
    return {bet: Fraction(returned[bet]) / paid[bet] for bet in returned}


@pytest.mark.parametrize(
    "peek",
    [
        PeekRules(name="four"),
        PeekRules(name="one", revealed=1, stake_fee=Fraction(1, 5), raise_fee=Fraction(0)),
        PeekRules(name="two", revealed=2, raises=(1,), raise_fee=Fraction(1, 10)),
        PeekRules(name="three", revealed=3, raises=(2, 3), raise_fee=Fraction(1, 4)),
    ],
    ids=lambda p: p.name,
)
def test_pk_exact_rtp_and_strategy_agree_with_brute_force_on_a_small_shoe(
    peek: PeekRules,
) -> None:
    rules = preset("peek").replace(decks=1, cut_min_from_end=6, cut_max_from_end=6, peek=peek)
    cards = _shoe((Rank.ACE, Rank.NINE), 1)
    composition = Composition.from_counts({Rank.ACE: 4, Rank.NINE: 4})
    exact = peek_analysis(rules, composition)
    assert {bet: r.rtp for bet, r in exact.bets.items()} == _brute_peek(rules, cards)
    assert all(0 < r.raise_probability < 1 for r in exact.bets.values())  # a real choice


def test_pk_raises_a_natural_nine_against_a_five_and_never_a_lost_cause() -> None:
    result = peek_analysis(preset("peek")).bets
    assert result[Bet.PLAYER].decision(9, 2, 10, 3) == 2
    assert result[Bet.BANKER].decision(9, 2, 10, 3) == 0
    assert result[Bet.PLAYER].by_totals()["9"]["0"] == 2
    assert result[Bet.PLAYER].rtp > result[Bet.PLAYER].base_rtp


def test_pk_invalid_rules_raise_rules_error() -> None:
    with pytest.raises(RulesError):
        PeekRules(name="p", raises=(0,))
    with pytest.raises(RulesError):
        preset("peek").replace(lightning=preset("lightning").lightning)


@pytest.mark.parametrize("name", ["lightning", "peek"])
def test_lb_pk_simulated_return_lies_within_its_interval(name: str) -> None:
    """A modest fixed-seed run: each bet's exact return per unit paid within 4 half-widths
    of the 95% interval (about 8 sigma: never by chance at this seed, fails on a rule
    error of a fraction of a percent)."""
    result = simulate(preset(name), hands=300_000, seed=11, workers=1)
    assert result.hands + result.void_hands == 300_000
    for figures in result.bets.values():
        half = (figures.ci95[1] - figures.ci95[0]) / 2
        assert abs(figures.observed_return - figures.exact_return) <= 4 * half


@pytest.mark.parametrize("name", ["lightning", "peek"])
def test_lb_pk_betting_systems_are_refused_at_a_variant_table(name: str) -> None:
    """Sessions are priced by cell; a variant's payouts are not, so it is refused."""
    system = BettingSystem(unit=100, bankroll=10_000)
    with pytest.raises(SimulationError, match="multiplier or Peek"):
        evaluate(preset(name), system, sessions=1)


def test_lb_pk_simulation_is_the_same_for_any_number_of_workers() -> None:
    rules = preset("lightning")
    one = simulate(rules, hands=5_000, seed=4, workers=1, stream_hands=1_000)
    two = simulate(rules, hands=5_000, seed=4, workers=min(2, max_workers()), stream_hands=1_000)
    assert one.cell_counts == two.cell_counts
    assert one.bets == two.bets


def test_lb_settle_multiplies_the_winning_hand_by_its_lightning_cards() -> None:
    """Player 7S AD (8) beats Banker 2H 3C (5): 7S x8 and AD x2 make 16 to 1; 3C is the
    Banker's, so it counts for no winning bet."""
    coup = deal_coup(parse_cards("7S 2H AD 3C"))
    draw = LightningDraw.parse("7S=8,AD=2,3C=5")
    result = settle(preset("lightning"), coup, {Bet.PLAYER: 1000, Bet.TIE: 100}, lightning=draw)
    assert [(r.bet, r.odds, r.net) for r in result.results] == [
        (Bet.PLAYER, Fraction(16), 16_000),
        (Bet.TIE, Fraction(-1), -100),
    ]


def test_lb_settle_banker_keeps_its_commission_on_the_stake() -> None:
    coup = deal_coup(parse_cards("7S 2H AD 7C"))  # Banker 9 beats Player 8
    result = settle(
        preset("lightning"), coup, {Bet.BANKER: 1000}, lightning=LightningDraw.parse("2H=8")
    )
    assert result.total_net == 7950  # 8 to 1 less 5% of the stake


def test_lb_settle_tie_counts_both_hands() -> None:
    coup = deal_coup(parse_cards("KS KH 7D 7C"))  # 7 all
    draw = LightningDraw.parse("KS=2,7C=3")
    result = settle(preset("lightning"), coup, {Bet.TIE: 100, Bet.PLAYER: 100}, lightning=draw)
    assert result.net_of(Bet.TIE) == 100 * 5 * 6
    assert result.net_of(Bet.PLAYER) == 0  # a push stays a push


def test_lb_settle_caps_a_players_winnings_of_the_round() -> None:
    coup = deal_coup(parse_cards("7S 2H AD 3C"))
    draw = LightningDraw.parse("7S=8,AD=8")
    rules = preset("lightning")
    assert rules.lightning is not None
    result = settle(rules, coup, {Bet.PLAYER: 10_000_000}, lightning=draw)
    assert result.total_net == rules.lightning.cap == 50_000_000


def test_lb_settle_refuses_a_draw_the_table_cannot_make() -> None:
    coup = deal_coup(parse_cards("7S 2H AD 3C"))
    with pytest.raises(RulesError):
        settle(preset("lightning"), coup, {Bet.PLAYER: 100}, lightning=LightningDraw.parse("7S=7"))
    with pytest.raises(RulesError):
        settle(preset("macau"), coup, {Bet.PLAYER: 100}, lightning=LightningDraw.parse("7S=8"))
    with pytest.raises(RulesError):
        LightningDraw.parse("7S=8,7S=2")


def test_lb_draw_by_rng_follows_the_table() -> None:
    rules = preset("lightning")
    table = rules.lightning
    assert table is not None
    rng = random.Random(3)
    counts: Counter[int] = Counter()
    for _ in range(2_000):
        draw = table.draw(rng)
        table.check(draw)
        counts[len(draw.cards)] += 1
    assert set(counts) <= set(table.count_weights)
    assert counts[3] > counts[2] > counts[1]  # weights 65, 19, 1


@pytest.mark.parametrize(
    "composition",
    [Composition.fresh(8), Composition.parse("A=3,2=7,5=1,9=4,T=6,K=2"), Composition.fresh(1)],
    ids=["fresh8", "depleted", "fresh1"],
)
def test_lb_pk_rank_level_counts_agree_with_the_cell_enumeration(
    composition: Composition,
) -> None:
    """Every tally of the rank-level kernel sums, cell by cell, to the analysis' own."""
    deals = enumerate_ranks(composition)
    cells = enumerate_coups(composition).weights
    for tally in (deals.player, deals.banker, deals.both):
        assert (tally.sum(axis=1) == cells).all()
    assert int(deals.first_four.sum()) == deals.total == int(cells.sum())


def test_lb_rank_patterns_agree_with_every_order_of_a_small_shoe() -> None:
    composition = Composition.parse("A=2,5=1,9=2,K=2")
    cards = [
        Card(Rank(r), Suit.SPADES) for r, n in ((1, 2), (5, 1), (9, 2), (13, 2)) for _ in range(n)
    ]
    expected: Counter[tuple[str, int, int]] = Counter()
    for order in itertools.permutations(cards, 6):
        outcome = deal_coup(list(order))
        cell = cell_index(CoupFacts.of(outcome))
        hands = {"player": outcome.player, "banker": outcome.banker,
                 "both": (*outcome.player, *outcome.banker)}  # fmt: skip
        for name, hand in hands.items():
            expected[(name, cell, pattern_index(tuple(c.rank.value for c in hand)))] += 1
    deals = enumerate_ranks(composition)
    got: Counter[tuple[str, int, int]] = Counter()
    for name, tally in (("player", deals.player), ("banker", deals.banker), ("both", deals.both)):
        for cell, pattern in zip(*tally.nonzero(), strict=True):
            got[(name, int(cell), int(pattern))] = int(tally[cell, pattern])
    assert got == expected
