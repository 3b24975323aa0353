"""Every fault case ([M10], [S1]–[S9], [L]) as its own test, named after its rule id: the fault is
an explicit action and has exactly its documented effect, and no fault loses or creates
money."""

from __future__ import annotations

import sys

import pytest
from table_support import close, deal, make_table, open_round, phase, play, seat

from punto.bets import Bet
from punto.cards import Card, parse_cards
from punto.coup import Position
from punto.errors import FaultError, PhaseError, TableauError
from punto.outcome import Outcome, Side
from punto.table import FAULTS, Dealing, Effect, Fault, Phase, Reading, Table
from punto.table.clock import ManualClock
from punto.table.events import (
    BetsRefunded,
    CardsBurned,
    CardsRevealed,
    FaultReported,
    HandRestarted,
    HandSettled,
    HandVoided,
    ShoeClosed,
    ShoeOpened,
    TableClosed,
)

P, B = Bet.PLAYER, Bet.BANKER
BETS = {"ann": {P: 10_000}, "bob": {B: 10_000}}
HAND = "4S 7H KD 8C 5S 2D"  # Player 4 draws 5, Banker 5 draws 2: Player 9 beats Banker 7


def _hand(
    *, dealing: Dealing = Dealing.LIVE, reading: Reading | None = None, seed: int = 1
) -> tuple[Table, ManualClock]:
    """A table whose betting just closed on ann's Player and bob's Banker bets."""
    table, clock = make_table(dealing=dealing, reading=reading, seed=seed)
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    open_round(table, BETS)
    close(table, clock)
    return table, clock


def _scan(table: Table, codes: str) -> None:
    for card in parse_cards(codes):
        table.deal_card(card)


def _refunded(table: Table) -> None:
    assert table.balances == {"ann": 1_000_000, "bob": 1_000_000}
    assert table.money_in_play() == 0
    assert table.money_check()


def _of(table: Table, kind: type) -> list[object]:
    return [e for e in table.events if isinstance(e, kind)]


def _recorded(table: Table, fault: Fault) -> None:
    """The fault is in the event list and in the hand's record."""
    reported = [e for e in table.events if isinstance(e, FaultReported)]
    assert reported
    assert reported[-1].fault is fault
    assert reported[-1].effect is FAULTS[fault].effect
    if reported[-1].game is not None:
        record = next(r for r in table.records() if r.game == reported[-1].game)
        assert fault in record.faults


def _settles_normally(table: Table) -> HandSettled:
    deal(table, "5S 2D" if table.coup and len(table.coup.events) == 4 else "")
    settled = table.settle()
    assert not settled.void_reason
    assert table.balances == {"ann": 1_010_000, "bob": 990_000}
    assert table.money_check()
    return settled


def _record_only(fault: Fault) -> None:
    table, _ = _hand()
    _scan(table, "4S 7H KD 8C")
    before = (table.phase, table.coup.events if table.coup else ())
    table.report_fault(fault, detail="seen by the supervisor")
    assert (table.phase, table.coup.events if table.coup else ()) == before
    _recorded(table, fault)
    _settles_normally(table)


def _held_hand() -> tuple[Table, ManualClock]:
    """[M16]: ann holds the Player cards, dealt face down."""
    table, clock = _hand(reading=Reading.LARGEST_BETTOR)
    return table, clock


# -- [M4], [M10] ---------------------------------------------------------------------


def test_m4_card_exposed_is_valid() -> None:
    table, _ = _held_hand()
    placed = table.deal_card(Card.parse("4S"))
    assert not placed.face_up
    table.report_fault(Fault.M4_CARD_EXPOSED, position=Position.PLAYER_1)
    revealed = _of(table, CardsRevealed)[-1]
    assert isinstance(revealed, CardsRevealed)
    assert [(pos, c.code) for pos, c in revealed.cards] == [(Position.PLAYER_1, "4S")]
    _scan(table, "7H KD 8C")
    table.squeeze("ann", Side.PLAYER)
    _recorded(table, Fault.M4_CARD_EXPOSED)
    _settles_normally(table)


def test_m10_misdeal_corrected_the_hand_is_dealt_again() -> None:
    table, _ = _hand()
    _scan(table, "4S 7H KD 8C")
    table.report_fault(Fault.M10_MISDEAL_CORRECTED)
    assert _of(table, HandRestarted)
    assert table.coup is not None
    assert not table.coup.events
    assert table.phase is Phase.DEALING
    _scan(table, HAND)  # the same cards, scanned again in the right order
    _recorded(table, Fault.M10_MISDEAL_CORRECTED)
    assert table.settle().results
    record = table.records()[-1]
    assert [c.code for _, c in record.cards] == HAND.split()


def test_m10_misdeal_corrected_rng_deals_the_same_cards_again() -> None:
    table, _ = _hand(dealing=Dealing.RNG)
    deal(table)
    first = table.records()[-1].cards
    table.report_fault(Fault.M10_MISDEAL_CORRECTED)
    deal(table)
    assert table.records()[-1].cards == first
    table.settle()
    assert table.money_check()


def test_m10_misdeal_that_cannot_be_corrected_voids_the_hand() -> None:
    table, _ = _hand()
    _scan(table, "4S 7H")
    table.report_fault(Fault.M10_MISDEAL_VOID)
    assert _of(table, HandVoided)
    assert table.phase is Phase.SETTLED
    _refunded(table)
    assert table.records()[-1].void
    table.open_betting()  # the shoe goes on


# -- [S1]-[S9] -------------------------------------------------------------------------


def test_s1_card_drawn_by_mistake_unseen_play_on() -> None:
    _record_only(Fault.S1_CARD_DRAWN_UNSEEN)


def test_s1_card_drawn_by_mistake_seen_next_hand_is_blank() -> None:
    table, clock = _hand()
    _scan(table, "4S 7H KD 8C")
    table.report_fault(Fault.S1_CARD_DRAWN_SEEN)
    _settles_normally(table)
    with pytest.raises(PhaseError, match=r"blank hand"):
        table.open_betting()
    table.start_blank_hand()
    assert not table.can_add_chip("ann", P)
    deal(table, "9S 8H KD KC")
    blank = table.settle()
    assert blank.results == ()
    assert table.records()[-1].blank
    table.open_betting()  # back to normal hands
    close(table, clock)


def test_s1_first_card_of_the_shoe_seen_blank_hand() -> None:
    table, _ = make_table()
    table.report_fault(Fault.S1_FIRST_CARD_SEEN)
    assert table.blank_owed
    assert not table.can_open_betting()
    table.start_blank_hand()
    deal(table, "9S 8H KD KC")
    table.settle()
    assert not table.blank_owed
    assert not table.can_report_fault(Fault.S1_FIRST_CARD_SEEN)  # not the first card now


def test_s2_stuck_cards_reordered_play_on() -> None:
    _record_only(Fault.S2_STUCK_REORDERED)


def test_s2_stuck_cards_that_cannot_be_reordered_are_discarded() -> None:
    twin, _ = _hand(dealing=Dealing.RNG, seed=5)
    deal(twin)
    order = [c for _, c in twin.records()[-1].cards]
    table, _ = _hand(dealing=Dealing.RNG, seed=5)
    table.report_fault(Fault.S2_STUCK_DISCARDED, count=2)
    burned = _of(table, CardsBurned)[-1]
    assert isinstance(burned, CardsBurned)
    assert burned.cards == tuple(order[:2])
    deal(table)
    dealt = [c for _, c in table.records()[-1].cards]
    assert dealt[: len(order) - 2] == order[2:]
    table.settle()
    assert table.money_check()


def test_s2_live_discarded_cards_count_against_the_shoe() -> None:
    table, _ = _hand()
    stuck = [Card.parse("AS")] * 8
    table.report_fault(Fault.S2_STUCK_DISCARDED, count=8, cards=stuck)
    with pytest.raises(Exception, match="9th copy"):
        table.deal_card(Card.parse("AS"))


def test_s3_dropped_card_goes_back_into_play() -> None:
    _record_only(Fault.S3_DROPPED_CARD)


def test_s3_dropped_first_card_blank_hand_refund() -> None:
    table, _ = _hand()
    _scan(table, "4S")
    table.report_fault(Fault.S3_DROPPED_FIRST_CARD)
    refunds = _of(table, BetsRefunded)
    assert refunds
    assert table.bets("ann") == {}
    _refunded(table)
    _scan(table, "7H KD 8C 5S 2D")  # the hand is finished, with no bets
    settled = table.settle()
    assert settled.results == ()
    record = table.records()[-1]
    assert record.blank
    assert set(record.results) == {"ann", "bob"}
    _refunded(table)


def test_s4_soiled_card_is_replaced() -> None:
    _record_only(Fault.S4_SOILED_CARD)


def test_s6_swapped_cards_corrected() -> None:
    _record_only(Fault.S6_SWAPPED_CORRECTED)


def test_s6_swapped_cards_that_cannot_be_corrected_void_the_hand() -> None:
    table, _ = _hand()
    _scan(table, "4S 7H KD")
    table.report_fault(Fault.S6_SWAPPED_VOID)
    _refunded(table)
    assert table.phase is Phase.SETTLED
    assert table.records()[-1].void


def test_s7_card_count_wrong_restarted() -> None:
    table, _ = _hand()
    _scan(table, "4S 7H KD")
    table.report_fault(Fault.S7_CARD_COUNT_RESTARTED)
    assert table.coup is not None
    assert not table.coup.events
    _scan(table, HAND)
    _recorded(table, Fault.S7_CARD_COUNT_RESTARTED)
    table.settle()
    assert table.balances == {"ann": 1_010_000, "bob": 990_000}


def test_s7_card_count_wrong_not_restarted_voids_the_hand() -> None:
    table, _ = _hand()
    _scan(table, "4S 7H KD")
    table.report_fault(Fault.S7_CARD_COUNT_VOID)
    _refunded(table)


def test_s8_third_card_against_the_tableau_is_refused_and_the_hand_restarted() -> None:
    table, _ = _hand()
    _scan(table, "9S 8H KD KC")  # natural: no third card
    before = len(table.events)
    with pytest.raises(TableauError, match="complete"):
        table.deal_card(Card.parse("5S"))
    assert len(table.events) == before
    assert table.phase is Phase.RESULT
    table.report_fault(Fault.S8_THIRD_CARD_AGAINST_TABLEAU)
    _scan(table, "9S 8H KD KC")
    assert table.settle().results[0].returned == 20_000


def test_s8_scanner_position_against_the_tableau_is_refused() -> None:
    table, _ = _hand()
    _scan(table, "4S 7H KD 8C")
    with pytest.raises(TableauError, match=r"Banker's third card is against the tableau"):
        table.deal_card(Card.parse("5S"), position=Position.BANKER_3)
    table.deal_card(Card.parse("5S"), position=Position.PLAYER_3)


def test_s9_wrong_total_announced_the_cards_speak() -> None:
    table, _ = _hand()
    _scan(table, HAND)
    table.report_fault(Fault.S9_WRONG_TOTAL_ANNOUNCED, detail="dealer called Banker 8")
    _recorded(table, Fault.S9_WRONG_TOTAL_ANNOUNCED)
    table.settle()
    assert table.balances == {"ann": 1_010_000, "bob": 990_000}


# -- [L] electronic faults ---------------------------------------------------------


def test_l_card_not_scanned_is_scanned_again() -> None:
    table, _ = _hand()
    _scan(table, "4S")
    with pytest.raises(FaultError, match="no failed scan"):
        table.rescan(Card.parse("7H"))
    table.report_fault(Fault.L_CARD_NOT_SCANNED)
    placed = table.rescan(Card.parse("7H"))
    assert placed.rescan
    assert placed.position is Position.BANKER_1
    assert not table.can_rescan(Card.parse("KD"))  # one rescan per failed scan
    _scan(table, "KD 8C")
    _settles_normally(table)


def test_l_rng_tables_scan_nothing() -> None:
    table, _ = _hand(dealing=Dealing.RNG)
    assert not table.can_report_fault(Fault.L_CARD_NOT_SCANNED)


def test_l_player_device_fault_changes_no_result() -> None:
    table, _ = _hand()
    _scan(table, "4S 7H KD 8C")
    with pytest.raises(FaultError, match="name the player"):
        table.report_fault(Fault.L_PLAYER_DEVICE_FAULT)
    table.report_fault(Fault.L_PLAYER_DEVICE_FAULT, player="ann")
    _recorded(table, Fault.L_PLAYER_DEVICE_FAULT)
    _settles_normally(table)


def test_l_operator_system_fault_voids_the_hand_and_closes_the_table() -> None:
    table, _ = _hand()
    _scan(table, "4S 7H")
    table.report_fault(Fault.L_OPERATOR_SYSTEM_FAULT)
    assert table.phase is Phase.CLOSED
    assert _of(table, TableClosed)
    assert _of(table, HandVoided)
    assert table.cashed_out == 2_000_000
    assert table.money_check()


# -- [L] physical faults -------------------------------------------------------------


def _void_new_shoe(fault: Fault, *, held: bool = False, codes: str = "4S 7H") -> None:
    table, _ = _held_hand() if held else _hand()
    _scan(table, codes)
    table.report_fault(fault)
    _refunded(table)
    closed = _of(table, ShoeClosed)
    assert closed
    assert table.phase is Phase.SHOE_END
    assert table.records()[-1].void
    table.start_shoe()
    assert table.shoe_number == 2


def test_l_two_cards_out_at_once_aborts_refunds_new_shoe() -> None:
    _void_new_shoe(Fault.L_TWO_CARDS_OUT)


def test_l_card_exposed_while_shuffling_reshuffles() -> None:
    table, clock = make_table(dealing=Dealing.RNG)
    first = _of(table, ShoeOpened)[-1]
    table.report_fault(Fault.L_CARD_EXPOSED_WHILE_SHUFFLING)
    second = _of(table, ShoeOpened)[-1]
    assert isinstance(first, ShoeOpened)
    assert isinstance(second, ShoeOpened)
    assert first.commitment != second.commitment
    assert table.phase is Phase.SHOE_START
    play(table, clock)
    assert not table.can_report_fault(Fault.L_CARD_EXPOSED_WHILE_SHUFFLING)


def test_l_card_dropped_under_the_table_void_new_shoe() -> None:
    _void_new_shoe(Fault.L_CARD_DROPPED_UNDER_TABLE)


def test_l_extra_card_after_the_hand_result_stands_new_shoe() -> None:
    table, _ = _hand()
    _scan(table, HAND)
    table.report_fault(Fault.L_EXTRA_CARD_AFTER_HAND)
    table.settle()
    assert table.balances == {"ann": 1_010_000, "bob": 990_000}
    assert table.phase is Phase.SHOE_END
    assert _of(table, ShoeClosed)


def test_l_extra_card_after_a_settled_hand_ends_the_shoe_at_once() -> None:
    table, _ = _hand()
    _scan(table, HAND)
    table.settle()
    table.report_fault(Fault.L_EXTRA_CARD_AFTER_HAND)
    assert table.phase is Phase.SHOE_END
    assert table.money_check()


def test_l_card_on_the_wrong_spot_is_moved_as_the_screen_says() -> None:
    _record_only(Fault.L_CARD_ON_WRONG_SPOT)


def test_l_dealer_reveals_early_the_hand_is_valid() -> None:
    table, _ = _held_hand()
    _scan(table, "4S 7H")
    table.report_fault(Fault.L_DEALER_REVEALS_EARLY)
    revealed = _of(table, CardsRevealed)[-1]
    assert isinstance(revealed, CardsRevealed)
    assert [(pos, c.code) for pos, c in revealed.cards] == [(Position.PLAYER_1, "4S")]
    _scan(table, "KD 8C")  # the hand goes on: the Player's second card is still held
    table.squeeze("ann", Side.PLAYER)
    _settles_normally(table)


def test_l_dealer_forgets_to_reveal_the_supervisor_reveals() -> None:
    table, _ = _held_hand()
    _scan(table, "9S 8H KD KC")  # complete, Player cards still face down
    assert table.phase is Phase.SQUEEZE
    table.report_fault(Fault.L_DEALER_FORGETS_REVEAL)
    assert phase(table) is Phase.RESULT
    assert table.settle().results[0].returned == 20_000


def test_l_cards_cleared_before_the_reveal_void_refund_new_shoe() -> None:
    _void_new_shoe(Fault.L_CARDS_CLEARED_BEFORE_REVEAL, held=True, codes="4S 7H KD 8C")


def test_l_cards_cleared_after_the_reveal_are_restored_and_the_result_stands() -> None:
    table, _ = _hand()
    _scan(table, HAND)
    table.report_fault(Fault.L_CARDS_CLEARED_AFTER_REVEAL)
    _recorded(table, Fault.L_CARDS_CLEARED_AFTER_REVEAL)
    table.settle()
    assert table.balances == {"ann": 1_010_000, "bob": 990_000}


# -- [O] -----------------------------------------------------------------------------


def test_o_settlement_error_is_resettled_from_the_recorded_result() -> None:
    table, _ = _hand()
    _scan(table, HAND)
    table.settle()
    game = table.records()[-1].game
    unchanged = table.report_fault(Fault.O_SETTLEMENT_ERROR, game=game)
    assert unchanged.game == game
    assert table.balances == {"ann": 1_010_000, "bob": 990_000}
    # The video shows Banker 8 natural against Player 5: Banker wins (0.95).
    video = Outcome.from_hands(parse_cards("2S 3D"), parse_cards("9H 9C"))
    table.report_fault(Fault.O_SETTLEMENT_ERROR, game=game, outcome=video)
    assert table.balances == {"ann": 990_000, "bob": 1_009_500}
    record = table.records()[-1]
    assert record.corrections == {"ann": -20_000, "bob": 19_500}
    assert record.outcome == video
    assert table.money_check()
    assert table.house_result == 500


def test_o_settlement_error_is_resettled_while_the_table_is_paused() -> None:
    table, _ = _hand()
    _scan(table, HAND)
    table.settle()
    table.pause("re-settlement [O]")
    video = Outcome.from_hands(parse_cards("2S 3D"), parse_cards("9H 9C"))
    table.report_fault(Fault.O_SETTLEMENT_ERROR, game=table.records()[-1].game, outcome=video)
    assert table.balances == {"ann": 990_000, "bob": 1_009_500}
    assert table.phase is Phase.PAUSED
    assert table.money_check()


def test_o_settlement_error_needs_a_coup_the_tableau_deals() -> None:
    table, _ = _hand()
    _scan(table, HAND)
    table.settle()
    game = table.records()[-1].game
    bogus = Outcome.from_hands(parse_cards("2S 3D 4C"), parse_cards("9H 9C"))
    with pytest.raises(FaultError, match="tableau"):
        table.report_fault(Fault.O_SETTLEMENT_ERROR, game=game, outcome=bogus)


# -- every fault ----------------------------------------------------------------------


def test_a_fault_where_it_cannot_happen_is_refused() -> None:
    table, _ = make_table()
    before = len(table.events)
    with pytest.raises(FaultError, match="cannot be reported while the table is shoe_start"):
        table.report_fault(Fault.L_TWO_CARDS_OUT)
    assert len(table.events) == before


@pytest.mark.parametrize("fault", list(Fault))
def test_every_fault_has_its_own_test_and_a_documented_effect(fault: Fault) -> None:
    spec = FAULTS[fault]
    assert spec.rule
    assert spec.case
    assert spec.effect_text
    assert spec.phases
    assert isinstance(spec.effect, Effect)
    prefix = "test_" + fault.value.split("_", 1)[0] + "_"
    words = fault.value.split("_")[1:3]
    module = sys.modules[__name__]
    names = [n for n in dir(module) if n.startswith(prefix) and all(w in n for w in words)]
    assert names, f"no test for {fault.value}"
