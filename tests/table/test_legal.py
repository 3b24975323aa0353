"""legal_actions(viewer): what each viewer may do in each phase, and the dealer's guidance
[M7], [M9], [M16] — every answer the table's own ``can_*``."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from table_support import close, make_table, open_round, place, play, seat, watcher

from punto.bets import Bet
from punto.cards import Card
from punto.codec import legal_actions_from_json, legal_actions_json
from punto.coup import Coup, DrawReason, Position
from punto.errors import ProtocolError, PuntoError
from punto.outcome import Side
from punto.table import (
    Action,
    Dealing,
    Guidance,
    GuideReason,
    LegalActions,
    Phase,
    Reading,
    Table,
    Viewer,
)
from punto.table.kinds import TableKind
from punto.table.legal import HOUSE_AUTOMATED, STAFF_ACTIONS

A = Action
P, B = Bet.PLAYER, Bet.BANKER


def _dealer(table: Table) -> frozenset[Action]:
    return table.legal_actions(Viewer.DEALER).actions


def test_waiting_dealer_may_start_a_shoe_not_open_betting() -> None:
    table, _ = make_table(start=False)
    assert table.phase is Phase.WAITING
    legal = table.legal_actions(Viewer.DEALER)
    assert A.START_SHOE in legal
    assert {A.OPEN_BETTING, A.DEAL_CARD, A.SETTLE, A.RESUME} & legal.actions == set()
    assert {A.PAUSE, A.CHANGE_DEALER, A.CLOSE_TABLE} <= legal.actions
    assert legal.guidance is None


def test_m2_shoe_start_dealer_may_burn_demo_and_open_betting() -> None:
    table, _ = make_table()
    assert table.phase is Phase.SHOE_START
    assert {A.OPEN_BETTING, A.BURN, A.CHANGE_SHOE} <= _dealer(table)
    assert (A.DEAL_DEMO_HAND in _dealer(table)) == (table.rules.demo_hands > 0)
    assert A.START_SHOE not in _dealer(table)
    assert A.START_BLANK_HAND not in _dealer(table)


def test_l_betting_open_player_may_bet_and_dealer_may_close() -> None:
    table, _ = make_table()
    seat(table, "ann", 1)
    table.open_betting()
    assert _dealer(table) & {A.CLOSE_BETTING, A.REPORT_FAULT} == {A.CLOSE_BETTING, A.REPORT_FAULT}
    assert A.PAUSE in _dealer(table)  # asked for now, taken when the hand ends [S14]
    ann = table.legal_actions(Viewer.PLAYER, "ann").actions
    assert {A.CHOOSE_CHIP, A.ADD_CHIP} <= ann
    assert {A.CONFIRM, A.UNDO, A.CLEAR} & ann == set()  # nothing put down yet
    place(table, "ann", {P: 10_000}, confirm=False)
    ann = table.legal_actions(Viewer.PLAYER, "ann").actions
    assert {A.CONFIRM, A.UNDO, A.CLEAR} <= ann
    assert table.can_confirm("ann") == (A.CONFIRM in ann)


def test_players_not_at_the_table_and_spectators_may_do_nothing() -> None:
    table, _ = make_table()
    seat(table, "ann", 1)
    table.open_betting()
    assert table.legal_actions(Viewer.PLAYER, "zed") == LegalActions()
    assert table.legal_actions(Viewer.WATCHER) == LegalActions()
    assert table.legal_actions(Viewer.PLAYER) == LegalActions()


def test_s14_supervisor_gets_only_the_staff_actions() -> None:
    table, _ = make_table()
    staff = table.legal_actions(Viewer.AUDITOR)
    assert staff.actions <= STAFF_ACTIONS
    assert {A.PAUSE, A.CLOSE_TABLE, A.REPORT_FAULT} <= staff.actions
    assert staff.guidance is None
    table.pause("coffee")
    assert A.RESUME in table.legal_actions(Viewer.AUDITOR)
    assert A.RESUME in table.legal_actions(Viewer.DEALER)
    assert A.OPEN_BETTING not in table.legal_actions(Viewer.DEALER)


def test_rng_table_dealer_never_gets_the_steps_the_table_takes_itself() -> None:
    table, _ = make_table(dealing=Dealing.RNG, start=False)
    legal = table.legal_actions(Viewer.DEALER)
    assert legal.actions & HOUSE_AUTOMATED == set()
    assert A.PAUSE in legal


def test_m7_betting_closed_guidance_is_the_player_first_card() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    open_round(table, {"ann": {B: 10_000}})
    close(table, clock)
    legal = table.legal_actions(Viewer.DEALER)
    assert legal.guidance == Guidance(Position.PLAYER_1, GuideReason.DEAL)
    assert A.DEAL_CARD in legal
    assert A.RESCAN not in legal  # no failed scan reported [L]
    assert A.SETTLE not in legal
    assert table.legal_actions(Viewer.PLAYER, "ann").guidance is None


def test_m9_guidance_follows_the_tableau_to_the_result() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    open_round(table, {"ann": {B: 10_000}})
    close(table, clock)
    steps = []
    for code in ["4S", "7H", "KD", "8C", "5S", "2D"]:
        table.deal_card(Card.parse(code))
        steps.append(table.legal_actions(Viewer.DEALER).guidance)
    assert steps[3] == Guidance(Position.PLAYER_3, GuideReason.PLAYER_DRAWS)
    assert steps[4] == Guidance(Position.BANKER_3, GuideReason.BANKER_DRAWS)
    assert steps[5] == Guidance(None, GuideReason.COMPLETE)
    assert table.phase is Phase.RESULT
    legal = table.legal_actions(Viewer.DEALER)
    assert A.SETTLE in legal
    assert A.DEAL_CARD not in legal  # a card after the result is a fault [S8]


def test_m9_natural_ends_the_coup_in_the_guidance() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    open_round(table, {"ann": {B: 10_000}})
    close(table, clock)
    for code in ["9S", "2H", "KD", "3C"]:
        table.deal_card(Card.parse(code))
    assert table.legal_actions(Viewer.DEALER).guidance == Guidance(None, GuideReason.NATURAL)


def test_m16_held_cards_make_the_dealer_wait_and_the_holder_squeeze() -> None:
    table, clock = make_table(reading=Reading.LARGEST_BETTOR)
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    open_round(table, {"ann": {P: 20_000}, "bob": {B: 10_000}})
    close(table, clock)
    for code in ["4S", "7H", "KD", "8C"]:
        table.deal_card(Card.parse(code))
    assert table.phase is Phase.SQUEEZE
    dealer = table.legal_actions(Viewer.DEALER)
    assert dealer.guidance == Guidance(None, GuideReason.HELD)
    assert A.DEAL_CARD not in dealer
    assert A.REVEAL_CARDS in dealer
    assert A.SQUEEZE in table.legal_actions(Viewer.PLAYER, "ann")
    assert A.SQUEEZE not in table.legal_actions(Viewer.PLAYER, "bob")
    assert A.STAND not in table.legal_actions(Viewer.PLAYER, "ann")  # the holder stays
    table.squeeze("ann", Side.PLAYER)
    assert table.legal_actions(Viewer.DEALER).guidance == Guidance(
        Position.PLAYER_3, GuideReason.PLAYER_DRAWS
    )


def test_closed_table_allows_nothing() -> None:
    table, _ = make_table()
    table.close_table()
    assert _dealer(table) == frozenset()
    assert table.legal_actions(Viewer.AUDITOR).actions == frozenset()


@pytest.mark.parametrize("viewer", [Viewer.DEALER, Viewer.AUDITOR])
def test_every_action_listed_is_one_the_table_accepts(viewer: Viewer) -> None:
    # The dealer's start_shoe at a waiting table: listed, then accepted.
    table, _ = make_table(start=False)
    legal = table.legal_actions(viewer)
    if A.START_SHOE in legal:
        table.start_shoe()
    assert A.PAUSE in legal
    table.pause()
    assert table.phase is Phase.PAUSED


def test_m9_coup_reason_agrees_with_next_position_for_every_first_four() -> None:
    code = {0: "TS", 1: "AS", 2: "2S", 3: "3S", 4: "4S", 5: "5S", 6: "6S", 7: "7S", 8: "8S"}
    code[9] = "9S"
    draws = {DrawReason.DEAL, DrawReason.PLAYER_DRAWS, DrawReason.BANKER_DRAWS}
    for four in itertools.product(range(10), repeat=4):
        for third in [None, *range(10)]:
            coup = Coup()
            for value in four:
                coup.deal(Card.parse(code[value]))
            if third is not None:
                if coup.next_position is not Position.PLAYER_3:
                    continue
                coup.deal(Card.parse(code[third]))
            assert (coup.next_position is not None) == (coup.reason in draws), (four, third)


def test_codec_round_trips_legal_actions() -> None:
    values = [
        LegalActions(),
        LegalActions(frozenset(Action)),
        LegalActions(
            frozenset({A.DEAL_CARD}), Guidance(Position.BANKER_3, GuideReason.BANKER_DRAWS)
        ),
        LegalActions(frozenset(), Guidance(None, GuideReason.HELD)),
    ]
    for value in values:
        data = legal_actions_json(value)
        assert legal_actions_from_json(data) == value
    assert legal_actions_json(values[2]) == {
        "actions": ["deal_card"],
        "guidance": {"next": "B3", "reason": "banker_draws"},
    }
    with pytest.raises(ProtocolError):
        legal_actions_from_json({"actions": ["fly_away"], "guidance": None})


def test_action_names_are_the_protocol_command_types() -> None:
    from punto.server.fanout import protocol

    types: set[object] = set()
    for obj in vars(protocol).values():
        fields = getattr(obj, "model_fields", None)
        if isinstance(obj, type) and fields and "type" in fields:
            annotation = fields["type"].annotation
            types.update(getattr(annotation, "__args__", ()))
    assert {a.value for a in Action} <= types


def test_fan_out_sends_only_changed_values_and_shares_equal_texts() -> None:
    from punto.server.tables.legalcast import LegalCast

    table, _ = make_table()
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    cast = LegalCast()
    first = cast.envelope(table, table.events[-1:], table_id="T1", seq=1)
    assert first is not None
    assert set(first["legal"]) == set()  # a player's own event: only that player asked
    assert set(first["players"]) == {"bob"}
    start = table.event_count
    table.open_betting()
    opened = cast.envelope(table, table.events[start:], table_id="T1", seq=2)
    assert opened is not None
    assert set(opened["legal"]) == {"dealer", "auditor"}
    assert set(opened["players"]) == {"ann", "bob"}
    assert opened["players"]["ann"] is opened["players"]["bob"]  # encoded once
    assert cast.envelope(table, table.events[-1:], table_id="T1", seq=2) is None  # unchanged
    start = table.event_count
    place(table, "ann", {P: 10_000}, confirm=False)
    chips = cast.envelope(table, table.events[start:], table_id="T1", seq=3)
    assert chips is not None
    assert set(chips["players"]) == {"ann"}
    assert chips["legal"] == {}
    start = table.event_count
    table.leave("bob")
    gone = cast.envelope(table, table.events[start:], table_id="T1", seq=4)
    assert gone is not None
    assert '"actions":[]' in gone["players"]["bob"]


def test_l_rescan_is_legal_only_after_a_failed_scan_is_reported() -> None:
    from punto.table import Fault

    table, clock = make_table()
    seat(table, "ann", 1)
    open_round(table, {"ann": {B: 10_000}})
    close(table, clock)
    table.deal_card(Card.parse("4S"))
    assert A.RESCAN not in table.legal_actions(Viewer.DEALER)
    table.report_fault(Fault.L_CARD_NOT_SCANNED)
    assert A.RESCAN in table.legal_actions(Viewer.DEALER)
    table.rescan(Card.parse("7H"))
    assert A.RESCAN not in table.legal_actions(Viewer.DEALER)  # one rescan per failed scan


def _verified(verify: Callable[[str], object], player: str) -> bool:
    """Whether ``verify(player)`` passes."""
    try:
        verify(player)
    except PuntoError:
        return False
    return True


@pytest.mark.parametrize(
    ("kind", "reading", "stake"),
    [(TableKind.NORMAL, Reading.LARGEST_BETTOR, 20_000), (TableKind.BID_SQUEEZE, None, 100_000)],
)
def test_quick_answers_agree_with_the_verifications_in_every_phase(
    kind: TableKind, reading: Reading | None, stake: int
) -> None:
    """``can_stand``, ``can_leave``, ``can_request_open_cards`` and — for a player with
    no unconfirmed chips, or no bets last hand — ``can_undo``, ``can_clear``,
    ``can_double``, ``can_confirm`` and ``can_rebet`` answer most players at a busy table
    without building an error, and ``awaiting_squeeze`` is empty without face-down cards:
    each answer is still exactly what the verification says [L], [M12], [M16], [O]."""
    table, clock = make_table("online_8deck", kind=kind, reading=reading)
    for n, player in enumerate(("ann", "bob"), start=1):
        seat(table, player, n, balance=5_000_000)
    watcher(table, "cy", balance=5_000_000)
    table.join("dee", balance=5_000_000)  # in the lobby
    everyone = ("ann", "bob", "cy", "dee", "nobody")

    def agree() -> None:
        for p in everyone:
            assert table.can_stand(p) == _verified(table.verify_stand, p), p
            assert table.can_leave(p) == _verified(table.verify_leave, p), p
            assert table.can_request_open_cards(p) == _verified(
                table.verify_request_open_cards, p
            ), p
            for chips in ("undo", "clear", "double", "confirm", "rebet"):
                can = getattr(table, f"can_{chips}")(p)
                assert can == _verified(getattr(table, f"verify_{chips}"), p), (chips, p)
        game = table._game  # the property's answer against the open hand's own facts
        down = set() if game is None else {pos.side for pos in game.face_down}
        assert set(table.awaiting_squeeze) == down

    agree()  # between hands
    open_round(table, {"ann": {P: 2 * stake}, "bob": {B: stake}, "cy": {P: 1_000}})
    agree()  # betting open
    place(table, "cy", {P: 1_000}, confirm=False)
    agree()  # unconfirmed chips: each of the player's chip actions asks the whole check
    table.clear("cy")
    close(table, clock)
    agree()  # betting closed
    for code in ["4S", "7H", "KD", "8C"]:
        table.deal_card(Card.parse(code))
        agree()  # each card, face down to the holders or face up
    assert table.phase is Phase.SQUEEZE
    table.squeeze("ann", Side.PLAYER)
    agree()


def test_l_quick_chip_answers_agree_with_the_verifications_the_hand_after() -> None:
    """[L] The hand after a settled one: who bet last hand may rebet (and then undo,
    clear, double and confirm those chips, or rebet again), who did not may not; each
    quick answer is the verification's."""
    table, clock = make_table("online_8deck")
    seat(table, "ann", 1, balance=5_000_000)
    seat(table, "bob", 2, balance=5_000_000)
    play(table, clock, "9S 8D KH 7C", {"ann": {P: 20_000}})
    table.open_betting()
    actions = ("undo", "clear", "double", "confirm", "rebet")

    def answers(p: str) -> dict[str, bool]:
        got = {a: getattr(table, f"can_{a}")(p) for a in actions}
        assert got == {a: _verified(getattr(table, f"verify_{a}"), p) for a in actions}
        return got

    assert answers("ann") == dict.fromkeys(actions, False) | {"rebet": True}
    assert answers("bob") == dict.fromkeys(actions, False)
    table.rebet("ann")
    assert answers("ann") == dict.fromkeys(actions, True)  # the bets may go down again
    table.confirm("ann")
    assert answers("ann") == dict.fromkeys(actions, False) | {"rebet": True}


@pytest.mark.parametrize(
    ("kind", "reading", "stake", "cards", "card_brings_result"),
    [
        (TableKind.NORMAL, Reading.LARGEST_BETTOR, 20_000, "4S 7H KD 8C 2D 5C", False),
        (TableKind.NORMAL, Reading.DEALER, 20_000, "9S 8D KH 7C", True),
        (TableKind.VIP, Reading.OWNER, 100_000, "2S 3H 4D 5C 6S 7H", True),
        (TableKind.BID_SQUEEZE, None, 100_000, "4S 7H KD 8C 2D 5C", False),
    ],
)
def test_legal_fan_out_after_each_card_keeps_every_player_told_the_truth(
    kind: TableKind,
    reading: Reading | None,
    stake: int,
    cards: str,
    card_brings_result: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A card dealt mid-coup, and the last card with the result it brings, ask only the
    dealer, the card holders and the owner what they may do now (not every watcher at a
    table of thousands); at a bid-squeeze table everyone [O]. Whatever the pass, after it
    every player at the table has been told exactly the value the table gives now [M16],
    [O]."""
    from punto.server.tables.legalcast import LegalCast
    from punto.table.events import CardPlaced, HandResult

    table, clock = make_table("online_8deck", kind=kind, reading=reading)
    if kind is TableKind.VIP:  # ann takes the table as its owner [O]
        table.join("ann", balance=5_000_000)
        table.take_table("ann", 1)
        seat(table, "bob", 2, balance=5_000_000)
    else:
        for n, player in enumerate(("ann", "bob"), start=1):
            seat(table, player, n, balance=5_000_000)
    watcher(table, "cy", balance=5_000_000)
    table.join("dee", balance=5_000_000)  # in the lobby, no bet
    cast = LegalCast()
    sent = 0
    asked: list[str] = []
    value_of = table.legal_actions

    def spy(viewer: Viewer, player: str | None = None) -> LegalActions:
        if player is not None:
            asked.append(player)
        return value_of(viewer, player)

    monkeypatch.setattr(table, "legal_actions", spy)
    results = 0  # passes of the last card and the result that asked only those concerned

    def told() -> None:
        nonlocal sent, results
        events = table.events[sent:]
        asked.clear()
        cast.envelope(table, events, table_id="T1", seq=table.event_count)
        sent = table.event_count
        coup = all(isinstance(e, (CardPlaced, HandResult)) for e in events)
        if coup and kind is not TableKind.BID_SQUEEZE:
            concerned = {*table.holders.values(), table.owner}
            assert set(asked) <= concerned, (events, asked)
            results += any(isinstance(e, HandResult) for e in events)
        for p in table.seats.participants:
            assert cast.known(p) == value_of(Viewer.PLAYER, p), p

    told()
    open_round(table, {"ann": {P: 2 * stake}, "bob": {B: stake}, "cy": {P: 1_000}})
    told()
    close(table, clock)
    told()
    deck = [Card.parse(code) for code in cards.split()]
    for _ in range(40):  # deal, squeeze, read or turn until the coup is settled
        dealer = table.legal_actions(Viewer.DEALER).actions
        awaiting = {side: p for side, p in table.awaiting_squeeze.items() if p is not None}
        if awaiting:
            side, holder = next(iter(awaiting.items()))
            if table.can_squeeze(holder, side):
                table.squeeze(holder, side)
            else:
                table.reveal_cards(side=side)
        elif A.DEAL_CARD in dealer:
            table.deal_card(deck.pop(0))
        elif A.REVEAL_CARDS in dealer:
            table.reveal_cards()
        elif A.SETTLE in dealer:
            table.settle()
            told()
            break
        else:
            raise AssertionError(f"stuck in {table.phase}: {sorted(a.value for a in dealer)}")
        told()
    assert table.phase is Phase.SETTLED
    # where the last card came face up with the result, that pass asked only those
    # concerned (elsewhere a squeeze or a reveal brought the result; a bid-squeeze table
    # asks everyone)
    assert results == card_brings_result
