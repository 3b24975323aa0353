"""Phases: every change of phase is checked against ``TRANSITIONS``; an action in a phase
that does not allow it raises a typed error and changes nothing; ``next_step`` and the
other read-only helpers tell a server what the table waits for."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from table_support import close, deal, make_table, open_round, place, seat, state_of, watcher

from punto.bets import Bet
from punto.cards import Card
from punto.coup import Position
from punto.errors import (
    BettingError,
    FaultError,
    PhaseError,
    PuntoError,
    SeatError,
    SqueezeError,
    TableauError,
    TableBalanceError,
    TableError,
)
from punto.outcome import Side
from punto.table import TRANSITIONS, Fault, ManualClock, Phase, ReadCall, Reading, Step, Table
from punto.table.phases import verify_transition

P, B = Bet.PLAYER, Bet.BANKER


def _squeeze_and_deal(table: Table, codes: str) -> None:
    table.squeeze("ann", Side.PLAYER)
    deal(table, codes)


def _next(table: Table) -> Step:
    """The next step, read afresh (mypy would keep it narrowed across actions)."""
    return table.next_step


def _table_in(target: Phase) -> tuple[Table, ManualClock]:
    """A live [M16] table (ann holds the Player cards) brought to ``target``."""
    table, clock = make_table(reading=Reading.LARGEST_BETTOR, start=False)
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    script: list[tuple[Phase, Callable[[], object]]] = [
        (Phase.SHOE_START, table.start_shoe),
        (Phase.BETTING_OPEN, lambda: open_round(table, {"ann": {P: 10_000}, "bob": {B: 5_000}})),
        (Phase.BETTING_CLOSED, lambda: close(table, clock)),
        (Phase.DEALING, lambda: table.deal_card(Card.parse("4S"))),
        (Phase.SQUEEZE, lambda: [table.deal_card(Card.parse(c)) for c in ["7H", "KD", "8C"]]),
        (Phase.RESULT, lambda: _squeeze_and_deal(table, "5S 2D")),
        (Phase.SETTLED, table.settle),
        (Phase.PAUSED, table.pause),
    ]
    if target is Phase.SHOE_END:
        script = [*script[:1], (Phase.SHOE_END, table.change_shoe)]
    if target is Phase.CLOSED:
        script = [(Phase.CLOSED, table.close_table)]
    if target is not Phase.WAITING:
        for reached, step in script:
            step()
            assert table.phase is reached
            if reached is target:
                break
    assert table.phase is target
    return table, clock


# Dealer and house actions each phase refuses with a PhaseError.
REFUSED: dict[Phase, list[str]] = {
    Phase.WAITING: ["open_betting", "close_betting", "deal_card", "settle", "burn", "resume"],
    Phase.SHOE_START: ["start_shoe", "close_betting", "deal_card", "settle", "resume"],
    Phase.BETTING_OPEN: [
        "start_shoe",
        "open_betting",
        "deal_card",
        "settle",
        "burn",
        "change_shoe",
        "change_dealer",
        "pause",
        "start_blank_hand",
    ],
    Phase.BETTING_CLOSED: ["open_betting", "close_betting", "settle", "pause", "change_shoe"],
    Phase.DEALING: ["start_shoe", "open_betting", "close_betting", "settle", "pause", "burn"],
    Phase.SQUEEZE: ["open_betting", "close_betting", "settle", "pause", "change_dealer"],
    Phase.RESULT: ["open_betting", "close_betting", "pause", "reveal_cards", "change_shoe"],
    Phase.SETTLED: ["start_shoe", "close_betting", "deal_card", "settle", "resume"],
    Phase.SHOE_END: ["open_betting", "close_betting", "deal_card", "settle", "burn"],
    Phase.PAUSED: ["start_shoe", "open_betting", "deal_card", "settle", "pause", "burn"],
}


def _calls(table: Table, name: str) -> tuple[Callable[[], bool], Callable[[], object]]:
    """``can_X`` and ``X`` of a dealer action, with fixed arguments."""
    args: tuple[object, ...] = ()
    if name == "deal_card":
        args = (Card.parse("9S"),)
    elif name == "change_dealer":
        args = ("Max",)
    can, do = getattr(table, f"can_{name}"), getattr(table, name)
    return (lambda: bool(can(*args))), (lambda: do(*args))


@pytest.mark.parametrize("old", list(Phase))
def test_every_change_of_phase_outside_transitions_raises_phase_error(old: Phase) -> None:
    for new in Phase:
        if new is old or new in TRANSITIONS[old]:
            verify_transition(old, new)
        else:
            with pytest.raises(PhaseError, match=f"from {old.value} to {new.value}"):
                verify_transition(old, new)
    assert old not in TRANSITIONS[Phase.CLOSED]


@pytest.mark.parametrize("phase", list(REFUSED))
def test_an_action_the_phase_does_not_allow_raises_phase_error_and_changes_nothing(
    phase: Phase,
) -> None:
    table, _ = _table_in(phase)
    for name in REFUSED[phase]:
        can, do = _calls(table, name)
        before = state_of(table)
        assert not can(), name
        with pytest.raises(PhaseError):
            do()
        assert state_of(table) == before, name


def test_a_closed_table_refuses_everything_and_changes_nothing() -> None:
    table, _ = _table_in(Phase.CLOSED)
    before = state_of(table)
    for action in (
        table.start_shoe,
        table.open_betting,
        table.close_table,
        table.pause,
        lambda: table.join("zoe", balance=1),
        lambda: table.report_fault(Fault.S4_SOILED_CARD),
    ):
        with pytest.raises(TableError):
            action()
        assert state_of(table) == before
    assert table.next_step is Step.NONE


def _over_the_balance(table: Table) -> Callable[[], object]:
    watcher(table, "cat", balance=1_000)
    place(table, "cat", {B: 5_000}, confirm=False)
    return lambda: table.confirm("cat")


# (what, phase, the refused action (after any set-up), the typed error it raises)
REFUSALS: list[tuple[str, Phase, Callable[[Table], Callable[[], object]], type[PuntoError]]] = [
    ("confirm over the balance", Phase.BETTING_OPEN, _over_the_balance, TableBalanceError),
    ("sit while seated", Phase.BETTING_OPEN, lambda t: lambda: t.sit("ann", 3), SeatError),
    ("leave with bets", Phase.BETTING_CLOSED, lambda t: lambda: t.leave("ann"), TableError),
    (
        "a card against the tableau [S8]",
        Phase.DEALING,
        lambda t: lambda: t.deal_card(Card.parse("9S"), position=Position.BANKER_3),
        TableauError,
    ),
    (
        "a card before the squeeze [M16]",
        Phase.SQUEEZE,
        lambda t: lambda: t.deal_card(Card.parse("9S")),
        SqueezeError,
    ),
    (
        "the wrong squeezer",
        Phase.SQUEEZE,
        lambda t: lambda: t.squeeze("bob", Side.PLAYER),
        SqueezeError,
    ),
    (
        "a reader at an [M16] table",
        Phase.SQUEEZE,
        lambda t: lambda: t.read("ann", ReadCall.CARTA),
        SqueezeError,
    ),
    ("the holder stands [M16]", Phase.SQUEEZE, lambda t: lambda: t.stand("ann"), SqueezeError),
    (
        "a fault where it cannot happen",
        Phase.RESULT,
        lambda t: lambda: t.report_fault(Fault.L_TWO_CARDS_OUT),
        FaultError,
    ),
    (
        "a re-settlement of no hand [O]",
        Phase.SETTLED,
        lambda t: lambda: t.report_fault(Fault.O_SETTLEMENT_ERROR),
        FaultError,
    ),
    ("resume when not paused", Phase.BETTING_CLOSED, lambda t: lambda: t.resume(), PhaseError),
]


@pytest.mark.parametrize(
    ("what", "phase", "setup", "error"), REFUSALS, ids=[r[0] for r in REFUSALS]
)
def test_a_refused_action_raises_a_typed_error_and_changes_nothing(
    what: str,
    phase: Phase,
    setup: Callable[[Table], Callable[[], object]],
    error: type[PuntoError],
) -> None:
    table, _ = _table_in(phase)
    action = setup(table)
    before = state_of(table)
    with pytest.raises(error):
        action()
    assert state_of(table) == before, what


def test_nothing_is_accepted_after_the_timer_and_the_table_is_unchanged() -> None:
    table, clock = _table_in(Phase.BETTING_OPEN)
    place(table, "ann", {P: 5_000}, confirm=False)
    clock.advance(table.settings.betting_seconds)
    before = state_of(table)
    for action in (
        lambda: table.confirm("ann"),
        lambda: table.add_chip("ann", P),
        lambda: table.undo("ann"),
        lambda: table.double("ann"),
        lambda: table.wait_for_me("bob"),
    ):
        with pytest.raises(BettingError, match="countdown has ended"):
            action()
        assert state_of(table) == before


# -- read-only helpers for a server ----------------------------------------------------


def test_next_step_follows_a_hand_from_shoe_to_shoe() -> None:
    table, clock = make_table(reading=Reading.LARGEST_BETTOR, start=False, betting_seconds=10)
    seat(table, "ann", 1)
    assert _next(table) is Step.START_SHOE
    table.start_shoe()
    assert _next(table) is Step.OPEN_BETTING
    open_round(table, {"ann": {P: 10_000}})
    assert _next(table) is Step.BETTING
    assert table.betting_seconds_left == 10.0
    clock.advance(4)
    assert table.betting_seconds_left == 6.0
    clock.advance(6)
    assert table.betting_seconds_left == 0.0
    assert _next(table) is Step.CLOSE_BETTING
    table.close_betting()
    assert table.betting_seconds_left is None
    assert _next(table) is Step.DEAL_CARD
    for code in ["4S", "7H", "KD", "8C"]:
        table.deal_card(Card.parse(code))
    assert _next(table) is Step.SQUEEZE
    assert table.awaiting_squeeze == {Side.PLAYER: "ann"}
    table.squeeze("ann", Side.PLAYER)
    assert table.awaiting_squeeze == {}
    assert _next(table) is Step.DEAL_CARD
    deal(table, "5S 2D")
    assert _next(table) is Step.SETTLE
    assert not table.needs_cards_left
    table.settle()
    assert _next(table) is Step.OPEN_BETTING
    table.report_fault(Fault.S1_CARD_DRAWN_SEEN)
    assert _next(table) is Step.START_BLANK_HAND
    table.pause()
    assert _next(table) is Step.RESUME
    table.resume()
    table.change_shoe()
    assert _next(table) is Step.START_SHOE


def test_s5_needs_cards_left_says_when_the_dealer_must_count_the_shoe() -> None:
    table, clock = make_table("super_punto_banco")
    seat(table, "ann", 1)
    open_round(table, {"ann": {P: 5_000}})
    close(table, clock)
    table.deal_card(Card.parse("4S"))
    assert not table.needs_cards_left
    table.cut_card_out()  # during the last hand: minimum seven cards or void [S5]
    deal(table, "7H KD 8C 5S 2D")
    assert table.next_step is Step.SETTLE
    assert table.needs_cards_left
    assert not table.can_settle()
    assert table.can_settle(cards_left=6)


def test_awaiting_squeeze_names_the_reader_at_a_super_punto_banco_table() -> None:
    table, clock = make_table("super_punto_banco", reading=Reading.BUTTON)
    seat(table, "ann", 1)
    open_round(table, {"ann": {P: 10_000}})
    close(table, clock)
    for code in ["4S", "7H", "KD", "8C"]:
        table.deal_card(Card.parse(code))
    assert table.awaiting_squeeze == {Side.PLAYER: "ann"}
    table.read("ann", ReadCall.CARTA)
    assert table.awaiting_squeeze == {}
    assert list(table.holders) == [Side.PLAYER]  # the reader keeps the right [S]
