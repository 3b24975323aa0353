"""Who holds the cards, as pure functions of the bet slips and the seats
(:mod:`punto.table.squeeze`): one test per selection rule, [M16], [S], [O]. The table-level
tests of the same rules are in test_table_squeeze.py."""

from __future__ import annotations

from punto.bets import Bet
from punto.coup import Position
from punto.outcome import Side
from punto.table.seat_plan import Seats
from punto.table.slip import BetSlip
from punto.table.squeeze import (
    Claim,
    Reading,
    choose_holders,
    claims_of,
    holder_choice,
    is_face_down,
    may_hand_over,
    takeovers,
)

P, B = Side.PLAYER, Side.BANKER


def _seats() -> Seats:
    """Ann sits at 1, bob at 3, carl watches, dora stood up keeping seat 5 marked."""
    seats = Seats(7)
    for player in ("ann", "bob", "carl", "dora"):
        seats.join(player)
    seats.sit("ann", 1, tier="low")
    seats.sit("bob", 3, tier="low")
    seats.watch("carl", tier="low")
    seats.sit("dora", 5, tier="low")
    seats.stand("dora", mark=True)
    return seats


def test_claims_of_lists_main_game_bettors_with_their_seat_and_presence() -> None:
    slips = [
        BetSlip("ann", confirmed={Bet.PLAYER: 500}, first_confirmed={Bet.PLAYER: 4}),
        BetSlip("bob", confirmed={Bet.TIE: 100}),  # no main bet: no claim
        BetSlip("carl", spot=6, confirmed={Bet.BANKER: 900}),
        BetSlip("dora", confirmed={Bet.BANKER: 300}, from_seat=True),
        BetSlip("eve", confirmed={Bet.BANKER: 300}),  # not at the table
    ]
    claims = claims_of(slips, _seats())
    assert claims == [
        (Claim("ann", seat=1, player_bet=500, player_since=4), True),
        (Claim("carl", seat=6, banker_bet=900, present=False), False),
        (Claim("dora", seat=5, banker_bet=300, present=False), True),
    ]


def test_claims_of_puts_a_watcher_without_a_spot_after_the_last_seat() -> None:
    ((claim, from_seat),) = claims_of([BetSlip("carl", confirmed={Bet.PLAYER: 1})], _seats())
    assert (claim.seat, from_seat) == (8, False)


def test_m16_the_largest_bet_holds_its_side() -> None:
    claims = [Claim("ann", seat=1, player_bet=500), Claim("bob", seat=2, banker_bet=800)]
    assert choose_holders(Reading.LARGEST_BETTOR, claims) == {B: "bob"}


def test_m16_the_earlier_bet_holds_on_equal_amounts() -> None:
    claims = [
        Claim("ann", seat=1, player_bet=500, player_since=9),
        Claim("bob", seat=2, banker_bet=500, banker_since=3),
    ]
    assert choose_holders(Reading.LARGEST_BETTOR, claims) == {B: "bob"}


def test_s_the_largest_player_bettor_reads_and_the_button_breaks_ties() -> None:
    claims = [
        Claim("ann", seat=2, player_bet=500),
        Claim("bob", seat=5, player_bet=500),
        Claim("cleo", seat=6, banker_bet=9_000),  # a Banker bet never reads [S]
    ]
    assert choose_holders(Reading.BUTTON, claims, button=5, seats=7) == {P: "bob"}
    assert choose_holders(Reading.BUTTON, claims, button=6, seats=7) == {P: "ann"}


def test_s_the_dealer_reads_without_a_player_bet() -> None:
    assert choose_holders(Reading.BUTTON, [Claim("ann", seat=1, banker_bet=5)]) == {}


def test_o_bid_the_largest_bettor_of_each_side_squeezes_it() -> None:
    claims = [
        Claim("ann", seat=1, player_bet=500, banker_bet=100),
        Claim("bob", seat=2, banker_bet=800),
    ]
    assert choose_holders(Reading.BID, claims) == {P: "ann", B: "bob"}


def test_o_bid_one_player_with_equal_bets_squeezes_player() -> None:
    claims = [
        Claim("ann", seat=1, player_bet=500, banker_bet=500),
        Claim("bob", seat=2, banker_bet=100),
    ]
    assert choose_holders(Reading.BID, claims) == {P: "ann", B: "bob"}


def test_o_bid_only_players_present_at_their_seat_squeeze() -> None:
    claims = [Claim("ann", seat=1, banker_bet=900, present=False)]
    assert choose_holders(Reading.BID, claims) == {}
    assert choose_holders(Reading.BID, claims, present_only=False) == {B: "ann"}


def test_o_vip_the_owner_squeezes_the_sides_they_bet_on_when_squeeze_is_on() -> None:
    claims = [
        Claim("olga", seat=1, player_bet=100, banker_bet=100),
        Claim("bob", seat=2, banker_bet=9_000),
    ]
    assert choose_holders(Reading.OWNER, claims, owner="olga") == {P: "olga", B: "olga"}
    assert choose_holders(Reading.OWNER, claims, owner="olga", squeeze_on=False) == {}


def test_dealer_reading_has_no_holder() -> None:
    assert choose_holders(Reading.DEALER, [Claim("ann", seat=1, player_bet=9)]) == {}


def test_o_bid_a_watchers_free_spot_bet_never_designates_a_squeezer() -> None:
    ann = Claim("ann", seat=1, banker_bet=200, present=False)
    bob = Claim("bob", seat=2, banker_bet=100)
    carl = Claim("carl", seat=7, banker_bet=900, present=False)  # a watcher's free spot
    choice = holder_choice(Reading.BID, [(ann, True), (bob, True), (carl, False)])
    assert choice.now == {B: "bob"}
    assert choice.designated == {B: "ann"}


def test_o_bid_the_largest_present_bettor_takes_over_before_the_squeeze() -> None:
    assert takeovers(Reading.BID, {B: "ann"}, {B: "bob"}, turned=()) == {B: "bob"}
    assert takeovers(Reading.BID, {B: "bob"}, {B: "ann"}, turned=()) == {B: "ann"}  # back


def test_o_bid_no_takeover_once_the_squeeze_has_begun_or_with_no_one_to_take_over() -> None:
    assert takeovers(Reading.BID, {B: "ann"}, {B: "bob"}, turned={B}) == {}
    assert takeovers(Reading.BID, {B: "ann"}, {}, turned=()) == {}
    assert takeovers(Reading.BID, {B: "ann", P: "bob"}, {B: "ann", P: "bob"}, turned=()) == {}


def test_takeovers_are_a_bid_squeeze_rule_only() -> None:
    assert takeovers(Reading.LARGEST_BETTOR, {B: "ann"}, {B: "bob"}, turned=()) == {}


def test_o_a_bid_holder_may_hand_over_until_their_sides_squeeze_begins() -> None:
    holders = {P: "ann", B: "bob"}
    assert may_hand_over(Reading.BID, holders, (), "ann")
    assert may_hand_over(Reading.BID, holders, {B}, "ann")
    assert not may_hand_over(Reading.BID, holders, {P}, "ann")
    assert not may_hand_over(Reading.LARGEST_BETTOR, holders, (), "ann")  # [M16]


def test_s_the_reader_reads_only_the_first_two_player_cards() -> None:
    holders = {P: "ann"}
    assert is_face_down(Reading.BUTTON, holders, Position.PLAYER_1)
    assert is_face_down(Reading.BUTTON, holders, Position.PLAYER_2)
    assert not is_face_down(Reading.BUTTON, holders, Position.PLAYER_3)
    assert not is_face_down(Reading.BUTTON, holders, Position.BANKER_1)


def test_m16_every_card_of_a_held_side_is_dealt_face_down() -> None:
    holders = {B: "bob"}
    assert is_face_down(Reading.LARGEST_BETTOR, holders, Position.BANKER_3)
    assert not is_face_down(Reading.LARGEST_BETTOR, holders, Position.PLAYER_1)
