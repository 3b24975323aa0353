"""Every reason a table writes into its events is a code with parameters, never an
English sentence (punto.table.reasons; the client translates it)."""

from __future__ import annotations

import json
from typing import Any

from table_support import close, deal, make_table, open_round, play, seat

from punto.bets import Bet
from punto.cards import Card
from punto.codec import event_from_json, event_json
from punto.table import Dealing, Fault, Phase, Table, TableKind
from punto.table.events import (
    BalanceTransferred,
    BetsRefunded,
    BlankHandStarted,
    CardsBurned,
    CardsRevealed,
    HandRestarted,
    HandVoided,
    PlayerLeft,
    ShoeClosed,
    TableClosed,
    TablePaused,
)
from punto.table.reasons import Reason, Why
from punto.table.squeeze import Reading

BETS = {"ann": {Bet.PLAYER: 10_000}}


def _last(table: Table, kind: type) -> Any:
    found = [e for e in table.events if isinstance(e, kind)]
    assert found, kind.__name__
    return found[-1]


def _why(table: Table, kind: type) -> Why:
    reason = _last(table, kind).reason
    assert isinstance(reason, Why)
    return reason


def _every_reason_is_a_code(table: Table) -> None:
    """No event's reason is English on the wire: a code, and the event reads back."""
    for event in table.events:
        sent = json.loads(json.dumps(event_json(event)))
        if "reason" in sent:
            assert sent["reason"] in {r.value for r in Reason}
        assert event_from_json(sent) == event


def test_m2_the_burn_at_the_start_of_a_shoe() -> None:
    table, _ = make_table(dealing=Dealing.RNG)
    assert _why(table, CardsBurned) == Why(Reason.BURN_START)
    _every_reason_is_a_code(table)


def test_m8_a_burn_in_the_middle_of_the_shoe() -> None:
    table, clock = make_table(dealing=Dealing.RNG)
    seat(table, "ann", 1)
    play(table, clock)
    table.burn(1)
    assert _why(table, CardsBurned) == Why(Reason.BURN_MID_SHOE)


def test_s2_discarded_cards_name_the_rule_as_a_parameter() -> None:
    table, clock = make_table(dealing=Dealing.RNG)
    seat(table, "ann", 1)
    open_round(table, BETS)
    close(table, clock)
    table.report_fault(Fault.S2_STUCK_DISCARDED, count=2)
    assert _why(table, CardsBurned) == Why(Reason.DISCARDED, {"rule": "S2"})
    _every_reason_is_a_code(table)


def test_a_faults_effect_names_the_fault_and_its_rule() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    open_round(table, BETS)
    close(table, clock)
    table.report_fault(Fault.M10_MISDEAL_VOID)
    expected = Why(Reason.FAULT, {"fault": "m10_misdeal_void", "rule": "M10"})
    assert _why(table, HandVoided) == expected
    assert _why(table, BetsRefunded) == expected
    _every_reason_is_a_code(table)


def test_s7_a_restarted_hand_and_s1_the_blank_hand_it_owes() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    open_round(table, BETS)
    close(table, clock)
    table.deal_card(Card.parse("9S"))
    table.report_fault(Fault.S7_CARD_COUNT_RESTARTED)
    assert _why(table, HandRestarted).code is Reason.FAULT
    deal(table, "9S 8H KD KC")
    table.settle()
    table.report_fault(Fault.S1_CARD_DRAWN_SEEN)
    table.start_blank_hand()
    assert _why(table, BlankHandStarted) == Why(
        Reason.FAULT, {"fault": "s1_card_drawn_seen", "rule": "S1"}
    )
    _every_reason_is_a_code(table)


def test_the_dealer_opens_the_cards() -> None:
    table, clock = make_table(reading=Reading.LARGEST_BETTOR)
    seat(table, "ann", 1)
    open_round(table, BETS)
    close(table, clock)
    deal(table, "9S 8H KD KC")
    reveals = [e.reason for e in table.events if isinstance(e, CardsRevealed)]
    assert reveals
    assert set(reveals) == {Why(Reason.DEALER)}


def test_a_player_leaves_is_gone_and_has_a_deposit() -> None:
    table, _ = make_table()
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    table.transfer("ann", 500, reason=Why(Reason.DEPOSIT))
    assert _why(table, BalanceTransferred) == Why(Reason.DEPOSIT)
    table.leave("ann")
    assert _why(table, PlayerLeft) == Why(Reason.LEFT)
    table.disconnect("bob")
    table.release("bob", grace=0.0)
    assert _why(table, PlayerLeft) == Why(Reason.GONE)
    _every_reason_is_a_code(table)


def test_o_an_owner_changing_the_shoe_is_a_parameter() -> None:
    table, clock = make_table("online_8deck", kind=TableKind.VIP, dealing=Dealing.RNG)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    for _ in range(30):
        play(table, clock)
    table.change_shoe(by="olga")
    assert _why(table, ShoeClosed) == Why(Reason.CHANGED_BY_OWNER, {"by": "olga"})
    table.leave("olga")
    _every_reason_is_a_code(table)


def test_m3_the_house_changes_the_shoe() -> None:
    table, _ = make_table()
    table.change_shoe()
    assert _why(table, ShoeClosed) == Why(Reason.CHANGED_BY_HOUSE)


def test_s14_typed_words_stay_typed_and_a_close_says_who() -> None:
    table, _ = make_table()
    table.pause("coffee break")
    assert _why(table, TablePaused) == Why.typed("coffee break")
    sent = event_json(_last(table, TablePaused))
    assert (sent["reason"], sent["reason_params"]) == ("typed", {"text": "coffee break"})
    table.resume()
    table.close_table()
    assert _why(table, TableClosed) == Why(Reason.CLOSED_BY_SUPERVISOR)
    assert table.phase is Phase.CLOSED


def test_a_ledger_row_keeps_the_code_and_its_parameters_as_text() -> None:
    """The ledger's reason column is text: ``str`` of the reason (the client reads it)."""
    assert str(Why(Reason.VOID_OF, {"game": "macau-1-001-002"})) == "void_of game=macau-1-001-002"
    assert str(Why(Reason.DEPOSIT)) == "deposit"
    assert str(Why.typed("dealer error")) == "dealer error"
