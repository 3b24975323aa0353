"""The shoe procedure [M2], [M3], [M7.2], [M8], [S5], [L] and the rules it reads."""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from punto.bets import Bet
from punto.cards import RANKS, Card, deck, parse_cards
from punto.coup import Coup, deal_coup
from punto.dealing import (
    VOID_MIN_CARDS,
    CardsBurned,
    CutCardOut,
    DealerPhase,
    DemoHandDealt,
    HandDealt,
    ShoeDealer,
    ShoeEnded,
    ShoeEvent,
    ShoeStarted,
)
from punto.errors import PresetError, RulesError, ShoeError
from punto.rules import (
    DEFAULT_TIERS,
    MAX_DEMO_HANDS,
    PRESETS,
    BurnRule,
    LastHandRule,
    Rules,
    preset,
    preset_names,
)
from punto.shoe import Shoe, ShoeReveal, verify_commitment

E = TypeVar("E")

# Four cards, both hands stand on a natural: P 9S KH = 9, B 8D KC = 8.
NATURAL = parse_cards("9S 8D KH KC")
# Six cards: P AS AD = 2 draws 2S (4); B KH KC = 0 draws 5H.
SIX_CARDS = parse_cards("AS KH AD KC 2S 5H")
# Five cards: P 4S KD = 4 draws 5D; B 7H KC = 7 stands.
FIVE_CARDS = parse_cards("4S 7H KD KC 5D")


def table_rules(**changes: object) -> Rules:
    """One-deck rules that burn nothing at the start, with some settings changed."""
    base = Rules(name="test", decks=1, cut_min_from_end=12, cut_max_from_end=12, burn=BurnRule.NONE)
    return base.replace(**changes)


def given_shoe(cards: Sequence[Card], cut_index: int) -> Shoe:
    return Shoe(cards, cut_index=cut_index, salt="00")


def natural_shoe(cards: int, cut_index: int) -> Shoe:
    """``cards`` cards of four-card coups: hand k takes cards 4(k-1) to 4k-1."""
    return given_shoe((NATURAL * 30)[:cards], cut_index)


def hands(events: Sequence[ShoeEvent]) -> list[HandDealt]:
    return [e for e in events if isinstance(e, HandDealt)]


def of_type(events: Sequence[ShoeEvent], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def cards_taken(events: Sequence[ShoeEvent]) -> list[Card]:
    """Every card the events took out of the shoe, in order."""
    taken: list[Card] = []
    for event in events:
        if isinstance(event, CardsBurned):
            taken += event.cards
        elif isinstance(event, DemoHandDealt | HandDealt):
            # Dealing order [M7]: P1 B1 P2 B2, then the third cards.
            out = event.outcome
            taken += [out.player[0], out.banker[0], out.player[1], out.banker[1]]
            taken += out.player[2:] + out.banker[2:]
    return taken


def run_shoe(rules: Rules, shoe: Shoe) -> list[ShoeEvent]:
    return list(ShoeDealer(rules, shoe).deal_all())


# -- [M2] start of shoe: burns -------------------------------------------------------------


def test_m2_burn_none_burns_nothing() -> None:
    dealer = ShoeDealer(table_rules(burn=BurnRule.NONE), natural_shoe(40, 30))
    events = dealer.start()
    assert events == (ShoeStarted(40, None, 30, dealer.shoe.commitment),)
    assert dealer.shoe.dealt == 0
    assert dealer.phase is DealerPhase.READY


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_m2_burn_as_many_cards_as_decks(decks: int) -> None:
    order = list(deck()) * decks
    dealer = ShoeDealer(table_rules(decks=decks, burn=BurnRule.DECKS), Shoe(order, decks=decks))
    started, burned = dealer.start()
    assert started == ShoeStarted(52 * decks, decks, 52 * decks, dealer.shoe.commitment)
    assert burned == CardsBurned(tuple(order[:decks]), "start")
    assert dealer.shoe.dealt == decks


@pytest.mark.parametrize(
    ("first", "more"),
    [("AS", 1), ("2H", 2), ("5D", 5), ("9C", 9), ("TS", 10), ("JH", 10), ("QD", 10), ("KC", 10)],
)
def test_m2_burn_turns_the_first_card_and_burns_its_value_ten_and_faces_ten(
    first: str, more: int
) -> None:
    order = [Card.parse(first), *deck()]
    dealer = ShoeDealer(table_rules(burn=BurnRule.FIRST_CARD_VALUE), given_shoe(order, 40))
    _, burned = dealer.start()
    assert burned == CardsBurned(tuple(order[: 1 + more]), "start")
    assert dealer.shoe.dealt == 1 + more
    # The first hand starts with the card after the burn.
    assert dealer.deal_hand().outcome.player[0] == order[1 + more]


def test_m2_start_only_once() -> None:
    dealer = ShoeDealer(table_rules(), natural_shoe(40, 30))
    dealer.start()
    with pytest.raises(ShoeError, match="needs new"):
        dealer.start()


# -- [M2] demonstration hands --------------------------------------------------------------


def test_m2_up_to_the_rules_demo_hands_before_hand_one() -> None:
    dealer = ShoeDealer(table_rules(demo_hands=MAX_DEMO_HANDS), natural_shoe(40, 30))
    dealer.start()
    demos = [dealer.deal_demo_hand() for _ in range(3)]
    assert [d.number for d in demos] == [1, 2, 3]
    assert all(d.outcome.player == (NATURAL[0], NATURAL[2]) for d in demos)
    with pytest.raises(ShoeError, match="at most 3 demonstration hands"):
        dealer.deal_demo_hand()
    first = dealer.deal_hand()
    assert first.number == 1
    assert dealer.shoe.dealt == 16


def test_m2_no_demo_hand_after_hand_one() -> None:
    dealer = ShoeDealer(table_rules(demo_hands=2), natural_shoe(40, 30))
    dealer.start()
    dealer.deal_hand()
    with pytest.raises(ShoeError, match="before the first hand"):
        dealer.deal_demo_hand()


def test_m2_no_demo_hand_when_the_rules_allow_none() -> None:
    dealer = ShoeDealer(table_rules(), natural_shoe(40, 30))
    dealer.start()
    with pytest.raises(ShoeError, match="at most 0"):
        dealer.deal_demo_hand()


def test_m2_no_demo_hand_before_the_start() -> None:
    with pytest.raises(ShoeError, match="needs ready"):
        ShoeDealer(table_rules(demo_hands=1), natural_shoe(40, 30)).deal_demo_hand()


def test_m2_deal_all_deals_the_demo_hands_first() -> None:
    events = run_shoe(table_rules(demo_hands=2), natural_shoe(40, 30))
    kinds = [type(e).__name__ for e in events]
    assert kinds[:4] == ["ShoeStarted", "DemoHandDealt", "DemoHandDealt", "HandDealt"]
    assert [d.number for d in of_type(events, DemoHandDealt)] == [1, 2]
    assert hands(events)[0].number == 1


# -- [M3], [S5] last hand ------------------------------------------------------------------


def check_last_hand(
    events: Sequence[ShoeEvent], *, last: int, during: int | None, cards: int
) -> None:
    dealt = hands(events)
    assert [h.number for h in dealt] == list(range(1, last + 1))
    assert [h.last for h in dealt] == [False] * (last - 1) + [True]
    assert of_type(events, CutCardOut) == [CutCardOut(during, last)]
    ended = events[-1]
    assert isinstance(ended, ShoeEnded)
    assert ended.hands == last
    assert ended.cards_left == cards - len(cards_taken(events))


@pytest.mark.parametrize(
    ("cut_index", "last", "during"),
    [(16, 5, None), (17, 5, 5), (18, 5, 5), (19, 5, 5), (20, 6, None), (21, 6, 6)],
)
def test_m3_last_hand_rule_the_current_hand_is_the_last(
    cut_index: int, last: int, during: int | None
) -> None:
    events = run_shoe(table_rules(last_hand=LastHandRule.LAST_HAND), natural_shoe(40, cut_index))
    check_last_hand(events, last=last, during=during, cards=40)


@pytest.mark.parametrize(
    ("cut_index", "last", "during"),
    [(16, 6, None), (17, 6, 5), (19, 6, 5), (20, 7, None)],
)
def test_m3_one_more_rule_plays_one_more_hand(
    cut_index: int, last: int, during: int | None
) -> None:
    events = run_shoe(table_rules(last_hand=LastHandRule.ONE_MORE), natural_shoe(40, cut_index))
    check_last_hand(events, last=last, during=during, cards=40)


def test_m3_cut_card_during_a_hand_is_announced_before_that_hand_ends() -> None:
    events = run_shoe(table_rules(), natural_shoe(40, 18))
    kinds = [type(e).__name__ for e in events]
    cut = kinds.index("CutCardOut")
    assert kinds[cut - 1 : cut + 3] == ["HandDealt", "CutCardOut", "HandDealt", "ShoeEnded"]
    assert hands(events)[-1].number == 5


def test_m3_cut_card_between_hands_makes_the_next_hand_the_last() -> None:
    dealer = ShoeDealer(table_rules(), natural_shoe(40, 16))
    dealer.start()
    for _ in range(3):
        dealer.deal_hand()
        assert not dealer.next_is_last
        assert dealer.last_hand_number is None
    dealer.deal_hand()  # hand 4 takes cards 12-15: the cut card is next
    assert dealer.next_is_last
    # Reading the property changes nothing; announcing the cut card does.
    assert dealer.last_hand_number is None
    assert dealer.announce_cut_card() == CutCardOut(None, 5)
    assert dealer.announce_cut_card() is None
    assert dealer.next_is_last
    assert dealer.last_hand_number == 5
    assert dealer.events[-1] == CutCardOut(None, 5)
    fifth = dealer.deal_hand()
    assert (fifth.number, fifth.last, fifth.void) == (5, True, False)
    assert dealer.finished


def test_m3_cut_card_during_a_hand_of_varying_size() -> None:
    # Hand 1 takes 6 cards (0-5), hand 2 five (6-10): the cut card after card 7 is in hand 2.
    order = SIX_CARDS + FIVE_CARDS + NATURAL * 5
    events = run_shoe(table_rules(), given_shoe(order, 8))
    check_last_hand(events, last=2, during=2, cards=len(order))
    assert [h.outcome.cards_used for h in hands(events)] == [6, 5]


@pytest.mark.parametrize(("cards", "void"), [(26, True), (27, False), (40, False)])
def test_s5_minimum_seven_cards_or_void_when_the_cut_card_comes_out_during_the_hand(
    cards: int, void: bool
) -> None:
    # The cut card comes out during hand 5 (cards 16-19); cards - 20 are left after it.
    events = run_shoe(
        table_rules(last_hand=LastHandRule.MIN_SEVEN_OR_VOID), natural_shoe(cards, 18)
    )
    check_last_hand(events, last=5, during=5, cards=cards)
    last = hands(events)[-1]
    assert last.void is void
    assert all(not h.void for h in hands(events)[:-1])
    left = cards - 20
    assert (left < VOID_MIN_CARDS) is void
    if void:
        assert (
            last.void_reason == f"[S5] minimum seven cards or void: {left} cards left in the shoe"
        )
    else:
        assert last.void_reason == ""


def test_s5_six_card_last_hand_leaving_five_is_void() -> None:
    order = NATURAL * 4 + SIX_CARDS + NATURAL[:3] + FIVE_CARDS[:2]  # 16 + 6 + 5 cards
    events = run_shoe(table_rules(last_hand=LastHandRule.MIN_SEVEN_OR_VOID), given_shoe(order, 19))
    check_last_hand(events, last=5, during=5, cards=len(order))
    assert hands(events)[-1].void
    assert "5 cards left" in hands(events)[-1].void_reason


def test_s5_no_void_when_the_cut_card_comes_out_between_hands() -> None:
    # The cut card shows after hand 4: hand 5 is announced as the last; only 3 cards remain
    # after it, but [S5] voids only a hand during which the cut card came out.
    events = run_shoe(table_rules(last_hand=LastHandRule.MIN_SEVEN_OR_VOID), natural_shoe(23, 16))
    check_last_hand(events, last=5, during=None, cards=23)
    assert not any(h.void for h in hands(events))


@pytest.mark.parametrize("rule", [LastHandRule.LAST_HAND, LastHandRule.ONE_MORE])
def test_s5_void_only_under_the_minimum_seven_rule(rule: LastHandRule) -> None:
    events = run_shoe(table_rules(last_hand=rule), natural_shoe(28, 18))
    assert hands(events)[-1].last
    assert not any(h.void for h in hands(events))


def test_m3_house_may_change_the_shoe_after_any_hand() -> None:
    dealer = ShoeDealer(table_rules(), natural_shoe(40, 30))
    published = dealer.start()[0]
    assert isinstance(published, ShoeStarted)
    for _ in range(3):
        dealer.deal_hand()
    ended = dealer.end_shoe()
    assert (ended.hands, ended.cards_left) == (3, 28)
    assert dealer.finished
    assert not any(h.last for h in hands(dealer.events))
    assert ended.reveal is not None
    assert published.commitment is not None
    assert verify_commitment(published.commitment, ended.reveal)
    with pytest.raises(ShoeError, match="finished"):
        dealer.deal_hand()
    with pytest.raises(ShoeError, match="finished"):
        dealer.end_shoe()


# -- [M8] mid-shoe burns, [L] --------------------------------------------------------------


def test_m8_mid_shoe_burn_takes_the_next_cards_before_a_hand() -> None:
    order = NATURAL * 10
    dealer = ShoeDealer(table_rules(mid_shoe_burns=True), given_shoe(order, 30))
    dealer.start()
    dealer.deal_hand()
    assert dealer.burn(2) == CardsBurned(tuple(order[4:6]), "mid_shoe")
    assert dealer.burn() == CardsBurned((order[6],), "mid_shoe")
    assert dealer.events[-1] == CardsBurned((order[6],), "mid_shoe")
    second = dealer.deal_hand()
    assert second.number == 2
    assert second.outcome.player[0] == order[7]


@pytest.mark.parametrize("count", [0, -2, True, 1.5])
def test_m8_burn_at_least_one_card(count: int) -> None:
    dealer = ShoeDealer(table_rules(), natural_shoe(40, 30))
    dealer.start()
    with pytest.raises(ShoeError, match="at least one card"):
        dealer.burn(count)
    assert not dealer.can_burn(count)
    assert dealer.shoe.dealt == 0


def test_m8_can_burn_answers_what_burn_would_do() -> None:
    dealer = ShoeDealer(table_rules(), natural_shoe(40, 18))
    assert not dealer.can_burn()  # before the start
    dealer.start()
    for _ in range(4):
        dealer.deal_hand()
    assert (dealer.can_burn(2), dealer.can_burn(3)) == (True, False)
    assert dealer.shoe.dealt == 16  # asking changes nothing
    dealer.begin_hand()
    assert not dealer.can_burn()
    assert not ShoeDealer(table_rules(mid_shoe_burns=False), natural_shoe(40, 30)).can_burn()


def test_m2_can_deal_demo_hand_answers_what_deal_demo_hand_would_do() -> None:
    dealer = ShoeDealer(table_rules(demo_hands=1), natural_shoe(40, 30))
    assert not dealer.can_deal_demo_hand()  # before the start
    dealer.start()
    assert dealer.can_deal_demo_hand()
    assert dealer.shoe.dealt == 0
    dealer.deal_demo_hand()
    assert not dealer.can_deal_demo_hand()  # at most one under these rules


@pytest.mark.parametrize("name", ["live_tiger", "online_8deck"])
def test_l_live_tables_burn_nothing_between_hands(name: str) -> None:
    dealer = ShoeDealer(preset(name), seed=1)
    dealer.start()
    dealer.deal_hand()
    with pytest.raises(ShoeError, match=f"the {name} rules burn no cards between hands"):
        dealer.burn()


def test_l_mid_shoe_burn_refused_when_the_rules_forbid_it() -> None:
    dealer = ShoeDealer(table_rules(mid_shoe_burns=False), natural_shoe(40, 30))
    dealer.start()
    with pytest.raises(ShoeError, match="burn no cards between hands"):
        dealer.burn()
    assert dealer.shoe.dealt == 0


def test_m8_no_burn_past_the_cut_card() -> None:
    dealer = ShoeDealer(table_rules(), natural_shoe(40, 18))
    dealer.start()
    for _ in range(4):
        dealer.deal_hand()  # 16 cards taken, the cut card is after card 18
    with pytest.raises(ShoeError, match="past its cut card"):
        dealer.burn(3)
    assert dealer.shoe.dealt == 16
    dealer.burn(2)  # up to the cut card: it comes out between hands
    with pytest.raises(ShoeError, match="past its cut card"):
        dealer.burn(1)
    assert dealer.next_is_last
    fifth = dealer.deal_hand()
    assert (fifth.number, fifth.last) == (5, True)
    assert of_type(dealer.events, CutCardOut) == [CutCardOut(None, 5)]


def test_m8_no_burn_during_a_hand() -> None:
    dealer = ShoeDealer(table_rules(), natural_shoe(40, 30))
    dealer.start()
    dealer.begin_hand()
    with pytest.raises(ShoeError, match="in_hand"):
        dealer.burn()


# -- [M7.2] continuous shuffler ------------------------------------------------------------


def csm_rules(**changes: object) -> Rules:
    return table_rules(continuous_shuffler=True, burn=BurnRule.DECKS, **changes)


FULL_RANKS = Counter(dict.fromkeys(RANKS, 4))


def test_m7_2_continuous_shuffler_deals_every_hand_from_a_full_shoe() -> None:
    dealer = ShoeDealer(csm_rules(), seed=7)
    started = dealer.start()
    assert started == (ShoeStarted(52, 1, 52, None),)  # no commitment, no burn [M2]
    for number in range(1, 41):
        assert dealer.begin_hand() == number
        assert dealer.shoe.remaining == 52
        coup = Coup()
        while not coup.is_complete:
            coup.deal(dealer.draw())
        hand = dealer.end_hand(coup.outcome)
        assert not hand.last
        assert dealer.shoe.remaining == len(dealer.shoe) == 52
        assert dealer.shoe.remaining_ranks() == FULL_RANKS
    assert of_type(dealer.events, CutCardOut) == []
    assert dealer.end_shoe() == ShoeEnded(40, 52, None)


def test_m7_2_continuous_shuffler_demo_hands_from_a_full_shoe() -> None:
    dealer = ShoeDealer(csm_rules(demo_hands=2), seed=7)
    dealer.start()
    for _ in range(2):
        dealer.deal_demo_hand()
        assert dealer.shoe.remaining == 52


def test_m7_2_continuous_shuffler_needs_a_number_of_hands() -> None:
    with pytest.raises(ShoeError, match="never ends"):
        list(ShoeDealer(csm_rules(), seed=7).deal_all())
    dealer = ShoeDealer(csm_rules(), seed=7)
    with pytest.raises(ShoeError, match="never ends"):
        next(dealer.deal_all())
    assert dealer.phase is DealerPhase.NEW  # refused before the shoe was started
    events = list(dealer.deal_all(max_hands=25))
    assert events[0] == ShoeStarted(52, 1, 52, None)
    assert [h.number for h in hands(events)] == list(range(1, 26))
    assert events[-1] == ShoeEnded(25, 52, None)


def test_m7_2_continuous_shuffler_burns_nothing() -> None:
    dealer = ShoeDealer(csm_rules(mid_shoe_burns=True), seed=7)
    dealer.start()
    dealer.deal_hand()
    with pytest.raises(ShoeError, match="full shoe"):
        dealer.burn()
    assert dealer.shoe.remaining == 52


def test_m7_2_continuous_shuffler_refuses_a_fixed_card_order() -> None:
    shoe = natural_shoe(40, 30)
    with pytest.raises(ShoeError, match="continuous shuffler reshuffles after every hand"):
        ShoeDealer(csm_rules(), shoe)
    assert shoe.dealt == 0  # refused before a card was taken


def test_m7_2_continuous_shuffler_deals_a_given_shuffled_shoe() -> None:
    shoe = Shoe.shuffled(decks=1, cut_from_end=(0, 0), seed=9)
    events = list(ShoeDealer(csm_rules(), shoe).deal_all(max_hands=5))
    assert [h.number for h in hands(events)] == [1, 2, 3, 4, 5]


def test_m7_2_continuous_shuffler_is_reproducible_from_a_seed() -> None:
    one = list(ShoeDealer(csm_rules(), seed=3).deal_all(max_hands=30))
    two = list(ShoeDealer(csm_rules(), seed=3).deal_all(max_hands=30))
    assert one == two


# -- commitment ------------------------------------------------------------------------------


def test_commitment_published_at_start_revealed_after_the_last_hand() -> None:
    dealer = ShoeDealer(preset("macau"), seed=2024)
    started = dealer.start()[0]
    assert isinstance(started, ShoeStarted)
    assert started.commitment == dealer.shoe.commitment
    dealer.deal_hand()
    with pytest.raises(ShoeError, match="only after its last hand"):
        dealer.shoe.reveal()
    events = list(dealer.deal_all())
    ended = events[-1]
    assert isinstance(ended, ShoeEnded)
    assert ended.reveal is not None
    assert verify_commitment(started.commitment, ended.reveal)
    order = list(ended.reveal.order)
    order[0], order[-1] = order[-1], order[0]
    assert order != list(ended.reveal.order)
    assert not verify_commitment(started.commitment, ShoeReveal(tuple(order), ended.reveal.salt))


@settings(max_examples=6, deadline=None, derandomize=True)
@given(seed=st.integers(min_value=0, max_value=2**32))
@pytest.mark.parametrize("name", preset_names())
def test_every_preset_deals_a_whole_shoe(name: str, seed: int) -> None:
    rules = preset(name)
    events = list(ShoeDealer(rules, seed=seed).deal_all())
    started, ended = events[0], events[-1]
    assert isinstance(started, ShoeStarted)
    assert isinstance(ended, ShoeEnded)
    assert ended.reveal is not None
    assert started.commitment is not None
    assert verify_commitment(started.commitment, ended.reveal)
    # Composition: every card taken is the next card of the committed order [M1].
    taken = cards_taken(events)
    assert taken == list(ended.reveal.order[: len(taken)])
    assert ended.cards_left == rules.cards - len(taken)
    assert Counter(ended.reveal.order) == Counter(dict.fromkeys(deck(), rules.decks))
    # [M3] hands numbered from 1, exactly one last hand, the final one.
    dealt = hands(events)
    assert [h.number for h in dealt] == list(range(1, len(dealt) + 1))
    assert [h.last for h in dealt].count(True) == 1
    assert dealt[-1].last
    (cut,) = of_type(events, CutCardOut)
    assert cut.last_hand == len(dealt)
    assert rules.cards - rules.cut_max_from_end <= started.cut_index
    assert started.cut_index <= rules.cards - rules.cut_min_from_end
    if rules.last_hand is not LastHandRule.MIN_SEVEN_OR_VOID:
        assert not any(h.void for h in dealt)
    # The same seed deals the same shoe.
    assert list(ShoeDealer(rules, seed=seed).deal_all()) == events


def test_rng_and_seed_together_are_refused() -> None:
    with pytest.raises(ShoeError, match="either an rng or a seed"):
        ShoeDealer(table_rules(), rng=random.Random(1), seed=1)


@pytest.mark.parametrize(
    "random_source", [{"seed": 1}, {"rng": random.Random(1)}], ids=["seed", "rng"]
)
def test_a_given_shoe_with_a_random_source_is_refused(random_source: dict[str, object]) -> None:
    with pytest.raises(ShoeError, match="either a shoe or a random source"):
        ShoeDealer(table_rules(), natural_shoe(40, 30), **random_source)  # type: ignore[arg-type]


def test_m1_a_given_shoe_must_hold_the_decks_of_the_rules() -> None:
    shoe = Shoe.shuffled(decks=2, cut_from_end=(12, 12), seed=1)
    with pytest.raises(ShoeError, match="the test rules deal 1 decks; this shoe holds 2"):
        ShoeDealer(table_rules(), shoe)
    assert ShoeDealer(table_rules(decks=2), shoe).shoe is shoe


def test_a_given_shoe_must_be_new() -> None:
    shoe = natural_shoe(40, 30)
    shoe.draw()
    with pytest.raises(ShoeError, match="must be new"):
        ShoeDealer(table_rules(), shoe)


@pytest.mark.parametrize("max_hands", [-1, True, 2.5])
def test_deal_all_refuses_a_number_of_hands_that_is_not_0_or_more(max_hands: object) -> None:
    dealer = ShoeDealer(table_rules(), natural_shoe(40, 30))
    with pytest.raises(ShoeError, match="number of hands to deal must be 0 or more"):
        next(dealer.deal_all(max_hands=max_hands))  # type: ignore[arg-type]
    assert dealer.phase is DealerPhase.NEW
    assert dealer.events == []


# -- phases ----------------------------------------------------------------------------------


def test_card_by_card_is_the_same_as_deal_hand() -> None:
    by_hand = ShoeDealer(preset("macau"), seed=5)
    by_card = ShoeDealer(preset("macau"), seed=5)
    by_hand.start()
    by_card.start()
    for _ in range(10):
        expected = by_hand.deal_hand()
        number = by_card.begin_hand()
        assert by_card.phase is DealerPhase.IN_HAND
        coup = Coup()
        while not coup.is_complete:
            coup.deal(by_card.draw())
        assert by_card.end_hand(coup.outcome) == expected
        assert number == expected.number
    assert by_card.events == by_hand.events


def test_hand_actions_out_of_phase_are_refused() -> None:
    dealer = ShoeDealer(table_rules(), natural_shoe(40, 30))
    with pytest.raises(ShoeError, match="needs ready"):
        dealer.begin_hand()
    with pytest.raises(ShoeError, match="needs in_hand"):
        dealer.draw()
    dealer.start()
    with pytest.raises(ShoeError, match="needs in_hand"):
        dealer.end_hand(deal_coup(NATURAL))
    dealer.begin_hand()
    with pytest.raises(ShoeError, match="needs ready"):
        dealer.begin_hand()
    with pytest.raises(ShoeError, match="needs ready"):
        dealer.deal_hand()


# -- rules -----------------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [0, 13, -1])
def test_m1_rules_refuse_decks_outside_1_to_12(decks: int) -> None:
    with pytest.raises(RulesError, match=f"decks must be 1-12, not {decks}"):
        table_rules(decks=decks)


@pytest.mark.parametrize("decks", [1, 6, 8, 12])
def test_m1_rules_accept_1_to_12_decks(decks: int) -> None:
    rules = table_rules(decks=decks)
    assert rules.cards == 52 * decks
    assert rules.playable is (decks >= 6)


@pytest.mark.parametrize("demo_hands", [4, -1])
def test_m2_rules_refuse_more_than_three_demo_hands(demo_hands: int) -> None:
    with pytest.raises(RulesError, match=f"demo hands must be 0-3, not {demo_hands}"):
        table_rules(demo_hands=demo_hands)


@pytest.mark.parametrize(
    ("rule", "need"),
    [
        (LastHandRule.LAST_HAND, 6),
        (LastHandRule.MIN_SEVEN_OR_VOID, 6),
        (LastHandRule.ONE_MORE, 12),
    ],
)
def test_m3_rules_refuse_a_cut_card_too_close_to_the_end_for_the_last_hand_rule(
    rule: LastHandRule, need: int
) -> None:
    with pytest.raises(RulesError, match=f"at least {need} cards from the end"):
        table_rules(last_hand=rule, cut_min_from_end=need - 1, cut_max_from_end=need - 1)
    assert table_rules(last_hand=rule, cut_min_from_end=need).min_cards_after_cut == need


def test_m2_rules_refuse_an_empty_cut_card_range() -> None:
    with pytest.raises(RulesError, match="cut card range is empty: 16 > 14"):
        table_rules(cut_min_from_end=16, cut_max_from_end=14)


def test_m2_rules_refuse_a_cut_card_outside_the_shoe() -> None:
    with pytest.raises(RulesError, match="inside a shoe of 52 cards"):
        table_rules(cut_max_from_end=52)


def test_rules_need_a_name() -> None:
    with pytest.raises(RulesError, match="needs a name"):
        table_rules(name="")


def test_rules_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        preset("macau").decks = 6  # type: ignore[misc]


def test_rules_keep_a_frozen_copy_of_the_mappings_they_are_given() -> None:
    paytables = dict(preset("macau").paytables)
    closing = {Bet.TIE: 31}
    tiers = list(DEFAULT_TIERS)
    rules = table_rules(paytables=paytables, close_from_hand=closing, limit_tiers=tiers)
    paytables[Bet.TIE] = "tie_9"
    closing[Bet.TIE] = 1
    tiers.clear()
    assert rules.paytables[Bet.TIE] == "tie_8"
    assert rules.close_from_hand[Bet.TIE] == 31
    assert rules.limit_tiers == DEFAULT_TIERS
    with pytest.raises(TypeError):
        rules.paytables[Bet.TIE] = "tie_9"  # type: ignore[index]


@pytest.mark.parametrize(
    ("setting", "value", "message"),
    [
        ("decks", 8.5, "decks must be a whole number, not 8.5"),
        ("decks", True, "decks must be a whole number, not True"),
        ("cut_min_from_end", "14", "cut_min_from_end must be a whole number"),
        ("demo_hands", 1.0, "demo_hands must be a whole number"),
        ("currency_digits", None, "currency_digits must be a whole number"),
        ("max_imbalance", 100.5, "max_imbalance must be a whole number"),
        ("burn", "decks", "burn cannot be 'decks'"),
        ("last_hand", "one_more", "last_hand cannot be 'one_more'"),
        ("rounding", "floor", "rounding cannot be 'floor'"),
        ("continuous_shuffler", 1, "continuous_shuffler cannot be 1"),
        ("mid_shoe_burns", "no", "mid_shoe_burns cannot be 'no'"),
        ("one_side_only", None, "one_side_only cannot be None"),
        ("tie_policy", "sjm", "tie_policy cannot be 'sjm'"),
        ("paytables", {"player": "player"}, "name bets by Bet, not 'player'"),
        ("paytables", {Bet.PLAYER: 1}, "paytable is named by a string, not 1"),
        ("close_from_hand", {"big": 31}, "name bets by Bet, not 'big'"),
        ("limit_tiers", ("low",), "must be a LimitTier, not 'low'"),
        ("description", None, "description cannot be None"),
    ],
)
def test_rules_refuse_a_setting_of_the_wrong_type(
    setting: str, value: object, message: str
) -> None:
    with pytest.raises(RulesError, match=re.escape(message)):
        table_rules(**{setting: value})


def test_rules_refuse_two_limit_tiers_of_one_name() -> None:
    with pytest.raises(RulesError, match="limit tier names must differ: low, low"):
        table_rules(limit_tiers=(DEFAULT_TIERS[0], DEFAULT_TIERS[0]))


@pytest.mark.parametrize("hand", [0, -31, True])
def test_o_rules_refuse_a_closing_hand_below_1(hand: int) -> None:
    message = r"Big closes from a hand number of 1 or more, not .* \[O\]"
    with pytest.raises(RulesError, match=message):
        preset("online_8deck").replace(close_from_hand={Bet.BIG: hand})


def test_rules_replace_validates_again() -> None:
    assert preset("macau").replace(decks=6).decks == 6
    with pytest.raises(RulesError):
        preset("macau").replace(decks=13)


def test_presets_are_found_by_name() -> None:
    assert preset_names() == sorted(PRESETS)
    assert set(preset_names()) >= {"macau", "super_punto_banco", "live_tiger"}
    for name in preset_names():
        assert preset(name).name == name
        assert preset(name).playable


def test_preset_rules_match_the_documents() -> None:
    assert preset("macau").last_hand is LastHandRule.ONE_MORE
    assert preset("macau").burn is BurnRule.FIRST_CARD_VALUE
    assert preset("super_punto_banco").last_hand is LastHandRule.MIN_SEVEN_OR_VOID
    assert preset("super_punto_banco").decks == 6
    assert not preset("live_tiger").mid_shoe_burns


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(PresetError, match="unknown rules preset 'nope'") as info:
        preset("nope")
    for name in preset_names():
        assert name in str(info.value)
    assert isinstance(info.value, RulesError)
