"""The table's effects as a plain list (:mod:`punto.server.tables.effects`): every event kind maps
to its effects, in order, and money comes first — no message goes out before the money
effect it speaks of [L]. Pure: real tables played with a manual clock, no server."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from table_support import close, deal, make_table, open_round, seat

from punto.bets import Bet
from punto.outcome import Side
from punto.server.tables.effects import (
    AddRoad,
    CancelStakes,
    CloseShoe,
    Countdown,
    Effect,
    Failure,
    Forget,
    Hand,
    HoldCards,
    LeaveTable,
    OpenShoe,
    Publish,
    PublishBalances,
    PublishRoads,
    RecordResult,
    Refund,
    RememberChip,
    SaveRecord,
    SendSnapshots,
    Settle,
    Stake,
    StartHand,
    Stop,
    effects_of,
)
from punto.settlement import refund
from punto.table.events import (
    BalanceTransferred,
    BetsConfirmed,
    BetsRefunded,
    BettingClosed,
    BettingExtended,
    BettingOpened,
    BettingTimeChanged,
    BlankHandStarted,
    CardPlaced,
    CardsHeld,
    ChangePending,
    ChipChosen,
    Event,
    HandResettled,
    HandRestarted,
    HandResult,
    HandSettled,
    HandVoided,
    OpenCardsRequested,
    PauseCalledOff,
    PauseRequested,
    PendingChange,
    PlayerJoined,
    PlayerLeft,
    RulesChanged,
    ShoeClosed,
    ShoeOpened,
    TableClosed,
    TieBetsChanged,
)
from punto.table.fault_catalogue import Fault
from punto.table.reasons import Reason, Why, fault_reason
from punto.table.records import GameNumber, PlayerResult

_MONEY = (Stake, RecordResult, Settle, Refund, CancelStakes)
_MESSAGES = (Publish, PublishBalances, PublishRoads, SendSnapshots)
"""What tells clients of the events (a ``countdown`` says only how long betting lasts)."""


def _kinds(effects: Sequence[Effect]) -> list[type[Effect]]:
    return [type(e) for e in effects]


def _of(events: Sequence[Event], *, hand: Hand | None = None, first: int = 0) -> list[Effect]:
    return effects_of(events, first=first, hand=hand or Hand(), now=100.0)


def _money_first(effects: Sequence[Effect]) -> None:
    """No message before a money effect, and every record after the money too."""
    money = [n for n, e in enumerate(effects) if isinstance(e, _MONEY)]
    said = [n for n, e in enumerate(effects) if isinstance(e, (*_MESSAGES, SaveRecord))]
    if money and said:
        assert max(money) < min(said), _kinds(effects)


def _settled_hand() -> tuple[list[Event], int]:
    """A real live hand, start to settlement: its events and where the hand starts."""
    table, clock = make_table()
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    start = table.event_count
    open_round(table, {"ann": {Bet.PLAYER: 1000}, "bob": {Bet.BANKER: 2000}})
    close(table, clock)
    deal(table, "9S 8D KH 7C")  # Player natural 9 [M9]
    table.settle()
    return list(table.events), start


def test_l_a_whole_hand_stakes_settles_saves_then_publishes_in_that_order() -> None:
    events, start = _settled_hand()
    effects = _of(events[start:], first=start)
    kinds = _kinds(effects)
    assert kinds.index(RecordResult) < kinds.index(Settle) < kinds.index(SaveRecord)
    assert kinds.index(SaveRecord) < kinds.index(Publish) < kinds.index(PublishBalances)
    assert kinds[-1] is PublishRoads  # the hand joined the roads
    assert kinds.index(AddRoad) < kinds.index(PublishRoads)
    _money_first(effects)
    publish = next(e for e in effects if isinstance(e, Publish))
    assert (publish.first, publish.count) == (start, len(events) - start)
    balances = next(e for e in effects if isinstance(e, PublishBalances))
    assert dict(balances.notes) == {"ann": "settled", "bob": "settled"}
    assert str(balances.game) == str(next(e for e in events if isinstance(e, HandSettled)).game)


def test_l_settle_carries_the_outcome_recorded_in_an_earlier_step() -> None:
    events, start = _settled_hand()
    result = next(e for e in events if isinstance(e, HandResult))
    settled = [e for e in events if isinstance(e, HandSettled)]
    alone = _of(settled, hand=Hand(start=start, outcome=result.outcome))
    # the hand's events the record beside the settlement holds: from its start on
    assert Settle(str(result.game), result.outcome, first=start, done=len(settled)) in alone
    assert AddRoad(result.outcome) in alone
    _money_first(alone)
    unknown = _of(settled, hand=Hand(start=start))  # no result: nothing to settle
    assert not any(isinstance(e, (Settle, AddRoad, PublishRoads)) for e in unknown)


def test_o_a_blank_hand_settles_without_a_road() -> None:
    events, start = _settled_hand()
    result = next(e for e in events if isinstance(e, HandResult))
    settled = [e for e in events if isinstance(e, HandSettled)]
    effects = _of(settled, hand=Hand(start=start, outcome=result.outcome, blank=True))
    assert any(isinstance(e, Settle) for e in effects)
    assert not any(isinstance(e, (AddRoad, PublishRoads)) for e in effects)
    blank = BlankHandStarted(at=1.0, game=result.game, reason=Why(Reason.BLANK_HAND))
    assert _kinds(_of([blank], first=9)) == [StartHand, Publish]
    assert _of([blank], first=9)[0] == StartHand(9, blank=True)


def test_l_a_hand_void_at_settlement_is_refunded_by_the_table() -> None:
    game = GameNumber("T1", 1, 4)
    void = HandSettled(at=2.0, game=game, results=(), void_reason=Why.typed("misdeal"), last=False)
    effects = _of([void], hand=Hand(start=0))
    assert effects[0] == Refund(str(game), "misdeal", by_table=True)
    assert not any(isinstance(e, (Settle, AddRoad)) for e in effects)
    assert _kinds(effects) == [Refund, SaveRecord, Publish, PublishBalances]
    _money_first(effects)


def test_l_voids_and_refunds_move_money_before_any_word_of_it() -> None:
    game = GameNumber("T1", 1, 5)
    voided = HandVoided(at=1.0, game=game, reason=Why.typed("shoe error"))
    assert _kinds(_of([voided])) == [Refund, SaveRecord, Publish, PublishBalances]
    closed = Why(Reason.CLOSED_BY_SUPERVISOR)
    refunded = BetsRefunded(at=1.0, game=game, refunds=(), reason=closed, everyone=True)
    assert _kinds(_of([refunded])) == [Refund, Publish, PublishBalances]
    left = Why(Reason.LEFT)
    outside = BetsRefunded(at=1.0, game=None, refunds=(), reason=left, everyone=False)  # no round
    assert _kinds(_of([outside])) == [Publish]
    for effects in (_of([voided]), _of([refunded])):
        _money_first(effects)
        assert all(e.failure is Failure.PAUSE for e in effects if isinstance(e, _MONEY))


def test_m12_a_player_removed_while_betting_is_open_has_only_their_stakes_cancelled() -> None:
    """A player who leaves while betting is open with the main bets a tie left standing
    [M12] takes back their stake, not the round (every other player's stays)."""
    game = GameNumber("T1", 2, 1)
    theirs = PlayerResult(player="ann", settlement=refund({Bet.BANKER: 1000}), returned=1000)
    left = BetsRefunded(
        at=1.0, game=game, refunds=(theirs,), reason=Why(Reason.LEFT), everyone=False
    )
    effects = _of([left])
    assert effects[0] == CancelStakes(str(game), ("ann",), "left")
    assert _kinds(effects) == [CancelStakes, Publish, PublishBalances]
    assert effects[0].failure is Failure.PAUSE
    _money_first(effects)


def test_m12_standing_bets_are_staked_again_when_betting_opens() -> None:
    game = GameNumber("T1", 2, 1)
    opened = BettingOpened(
        at=1.0,
        game=game,
        closes_at=16.0,
        last_hand=False,
        standing=(("ann", {Bet.PLAYER: 1000}), ("bob", {Bet.BANKER: 500})),
    )
    effects = _of([opened], first=40)
    stakes = (("ann", {Bet.PLAYER: 1000}), ("bob", {Bet.BANKER: 500}))
    assert effects[:2] == [StartHand(40), Stake(str(game), stakes)]  # one for all: one commit
    assert Stake(str(game), stakes).confirmation_id("ann") == f"standing:{game}:ann"
    assert _kinds(effects)[2:] == [Publish, PublishBalances]
    _money_first(effects)


def test_events_of_the_runners_memory_and_records_map_to_their_effects() -> None:
    game = GameNumber("T1", 1, 2)
    cases: list[tuple[Event, list[type[Effect]]]] = [
        (ChipChosen(at=1.0, player="ann", chip=500), [RememberChip, Publish]),
        (
            CardsHeld(at=1.0, game=game, side=Side.PLAYER, player="ann", took_over_from=None),
            [
                HoldCards,
                Publish,
                SendSnapshots,
            ],
        ),
        (BettingExtended(at=1.0, game=game, player="ann", closes_at=20.0), [Countdown, Publish]),
        (
            BettingClosed(at=1.0, game=game, by=None, early=False, discarded=()),
            [
                Countdown,
                Publish,
            ],
        ),
        (OpenCardsRequested(at=1.0, game=game, player="ann"), [Publish]),
        (
            HandRestarted(at=1.0, game=game, reason=fault_reason(Fault.S7_CARD_COUNT_RESTARTED)),
            [Forget, Publish],
        ),
        (
            PlayerLeft(at=1.0, player="ann", cashed_out=0, reason=Why(Reason.LEFT)),
            [
                LeaveTable,
                Publish,
                PublishBalances,
            ],
        ),
        (TableClosed(at=1.0, reason=Why.typed("night")), [Stop, Publish]),
        (
            ShoeClosed(at=1.0, shoe=1, hands=60, reason=Why(Reason.LAST_HAND), reveal=None),
            [
                CloseShoe,
                Publish,
            ],
        ),
    ]
    for event, kinds in cases:
        assert _kinds(_of([event])) == kinds, event


def test_countdown_carries_the_time_passed_in() -> None:
    closed = BettingClosed(at=1.0, game=GameNumber("T1", 1, 1), by=None, early=False, discarded=())
    effects = effects_of([closed], first=0, hand=Hand(), now=123.5)
    assert effects[0] == Countdown(123.5)


def test_shoes_are_stored_and_the_roads_start_again() -> None:
    table, _clock = make_table(start=False)
    table.start_shoe()
    opened = [e for e in table.events if isinstance(e, ShoeOpened)]
    effects = _of(opened)
    assert effects[0] == OpenShoe(opened[0])
    assert _kinds(effects)[-1] is PublishRoads


def test_new_rules_send_everyone_a_snapshot() -> None:
    changed = RulesChanged(at=1.0, rules="macau", version=2)
    assert _kinds(_of([changed])) == [Publish, SendSnapshots]
    assert _of([changed])[-1] == SendSnapshots(everyone=True)


def test_balance_notes_say_why_the_last_word_wins() -> None:
    table, _clock = make_table()
    seat(table, "ann", 1)
    table.transfer("ann", 500, reason=Why(Reason.DEPOSIT))
    joined = [e for e in table.events if isinstance(e, (PlayerJoined, BalanceTransferred))]
    notes = dict(next(e for e in _of(joined) if isinstance(e, PublishBalances)).notes)
    assert notes == {"ann": "transferred"}  # joined, then a deposit: the last word
    open_round(table, {"ann": {Bet.PLAYER: 1000}})
    confirmed = [e for e in table.events if isinstance(e, (BetsConfirmed, TieBetsChanged))]
    balances = next(e for e in _of(confirmed) if isinstance(e, PublishBalances))
    assert dict(balances.notes) == {"ann": "confirmed"}


def test_l_resettled_hand_saves_its_record_with_amendments_then_tells_the_players() -> None:
    events, _start = _settled_hand()
    result = next(e for e in events if isinstance(e, HandResult))
    resettled = HandResettled(
        at=3.0, game=result.game, outcome=result.outcome, results=(), corrections=(("ann", 50),)
    )
    effects = _of([resettled])
    assert effects[0] == SaveRecord(result.game, resettled=True, first=0, done=1)
    assert dict(next(e for e in effects if isinstance(e, PublishBalances)).notes) == {
        "ann": "corrected"
    }


def test_cards_placed_are_only_published() -> None:
    events, start = _settled_hand()
    cards = [e for e in events if isinstance(e, CardPlaced)]
    assert _kinds(_of(cards, first=start)) == [Publish]
    assert _of([]) == []


@pytest.mark.parametrize("cut", range(1, 12))
def test_l_money_first_holds_for_any_slice_of_a_hand(cut: int) -> None:
    events, start = _settled_hand()
    hand = events[start:]
    head, tail = hand[:cut], hand[cut:]
    first = _of(head, first=start)
    known = next((e.outcome for e in head if isinstance(e, HandResult)), None)
    second = _of(tail, first=start + cut, hand=Hand(start=start, outcome=known))
    for effects in (first, second):
        _money_first(effects)
    settles = [e for e in first + second if isinstance(e, Settle)]
    assert len(settles) == 1  # the hand is settled once, whatever the steps


def test_s14_pending_changes_are_only_told() -> None:
    changes: list[Event] = [
        PauseRequested(at=1.0, reason=Why.typed("count")),
        PauseCalledOff(at=2.0),
        ChangePending(at=3.0, change=PendingChange.BETTING_TIME, seconds=20.0),
        BettingTimeChanged(at=4.0, seconds=20.0),
    ]
    for event in changes:
        assert _kinds(_of([event])) == [Publish], event
