"""The ``bets`` of a player's legal actions: how much more each area takes now and what
bounds it, from the same checks that refuse a chip or a confirm [L], [M18], [S11], [O];
and the phase each event leaves the table in."""

from __future__ import annotations

import pytest
from table_support import close, make_table, place, seat

from punto.bets import Bet
from punto.cards import parse_cards
from punto.codec import legal_actions_from_json, legal_actions_json
from punto.errors import BetClosedError, BetCombinationError
from punto.limits import AreaLimit, AreaRoom, Shortfall, area_room, check_bets
from punto.rules import preset
from punto.table import Action, LegalActions, Table, Viewer
from punto.table.events import phase_after

P, B = Bet.PLAYER, Bet.BANKER


def _rooms(table: Table, player: str = "ann") -> dict[Bet, AreaRoom]:
    return {r.bet: r for r in table.legal_actions(Viewer.PLAYER, player).bets}


def test_l_room_is_what_the_table_takes_of_each_chip() -> None:
    table, _ = make_table()
    seat(table, "ann", 1)
    table.open_betting()
    place(table, "ann", {Bet.TIE: 40_000}, confirm=False)
    rooms = _rooms(table)
    assert set(rooms) == set(table.rules.offered_bets)
    for bet, room in rooms.items():
        assert room.limit is AreaLimit.MAX
        for chip in table.settings.chips:
            table.choose_chip("ann", chip)
            assert table.can_add_chip("ann", bet) == (chip <= room.room), (bet, chip)
    assert rooms[Bet.TIE].room == rooms[Bet.TIE].value - 40_000  # type: ignore[operator]


def test_betting_closed_areas_take_nothing() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    rooms = _rooms(table)
    assert rooms
    assert all(r.room == 0 for r in rooms.values())
    assert {r.limit for r in rooms.values()} == {AreaLimit.BETTING_CLOSED}
    table.open_betting()
    assert Action.ADD_CHIP in table.legal_actions(Viewer.PLAYER, "ann")
    assert {r.limit for r in _rooms(table).values()} == {AreaLimit.MAX}
    close(table, clock)
    assert {r.limit for r in _rooms(table).values()} == {AreaLimit.BETTING_CLOSED}
    assert table.legal_actions(Viewer.DEALER).bets == ()


def test_s11_one_side_closes_the_other_side_as_the_confirm_refuses_it() -> None:
    table, _ = make_table("super_punto_banco")
    seat(table, "ann", 1)
    table.open_betting()
    place(table, "ann", {B: 10_000}, confirm=False)
    rooms = _rooms(table)
    assert (rooms[P].room, rooms[P].limit) == (0, AreaLimit.ONE_SIDE)
    assert rooms[Bet.TIE].limit is AreaLimit.MAX
    with pytest.raises(BetCombinationError):
        check_bets(table.rules, {B: 10_000, P: 10_000}, tier="low", hand_number=1)


def test_l_tiger_restriction_closes_tiger_areas_to_a_main_bettor() -> None:
    rules = preset("live_tiger").replace(tiger_with_main=False)
    staked = {P: 10_000}
    room = area_room(rules, Bet.LUCKY6, staked, tier="low", hand_number=1)
    assert (room.room, room.limit) == (0, AreaLimit.TIGER_WITH_MAIN)
    assert area_room(rules, Bet.TIE, staked, tier="low", hand_number=1).limit is AreaLimit.MAX
    with pytest.raises(BetCombinationError):
        check_bets(rules, {P: 10_000, Bet.LUCKY6: 1_000}, tier="low", hand_number=1)


def test_o_closed_from_hand_as_the_confirm_refuses_it() -> None:
    rules = preset("online_8deck")
    closes = rules.close_from_hand[Bet.BIG]
    before = area_room(rules, Bet.BIG, {}, tier="low", hand_number=closes - 1)
    after = area_room(rules, Bet.BIG, {}, tier="low", hand_number=closes)
    assert before.limit is AreaLimit.MAX
    assert before.room > 0
    assert (after.room, after.limit, after.value) == (0, AreaLimit.CLOSED_FROM, closes)
    with pytest.raises(BetClosedError):
        check_bets(rules, {Bet.BIG: 1_000}, tier="low", hand_number=closes)


def test_m18_incomplete_stakes_are_the_ones_the_confirm_refuses() -> None:
    table, _ = make_table()
    seat(table, "ann", 1)
    table.open_betting()
    low = table.rules.tier("low").min_bet
    place(table, "ann", {P: 500}, confirm=False)
    assert _rooms(table)[P].incomplete == Shortfall(AreaLimit.MIN, low, low - 500)
    assert not table.can_confirm("ann")
    table.clear("ann")
    place(table, "ann", {B: low + 500}, confirm=False)
    assert _rooms(table)[B].incomplete == Shortfall(AreaLimit.BANKER_MULTIPLE, low)
    assert not table.can_confirm("ann")
    table.clear("ann")
    place(table, "ann", {B: 2 * low}, confirm=False)
    assert _rooms(table)[B].incomplete is None
    assert table.can_confirm("ann")


def test_codec_round_trips_the_bets() -> None:
    value = LegalActions(
        frozenset({Action.ADD_CHIP}),
        bets=(
            AreaRoom(P, 0, AreaLimit.ONE_SIDE),
            AreaRoom(B, 9_000, AreaLimit.MAX, 10_000, Shortfall(AreaLimit.MIN, 1_000, 500)),
        ),
    )
    data = legal_actions_json(value)
    assert data["bets"] == {
        "player": {"room": 0, "limit": "one_side"},
        "banker": {
            "room": 9_000,
            "limit": "max",
            "value": 10_000,
            "incomplete": {"limit": "min", "value": 1_000, "short": 500},
        },
    }
    assert legal_actions_from_json(data) == value
    assert "bets" not in legal_actions_json(LegalActions())


def test_each_event_says_the_phase_it_leaves_the_table_in() -> None:
    """After each command, the last event that names a phase names the table's."""
    table, clock = make_table()
    seat(table, "ann", 1)
    seen = len(table.events)
    named = 0

    def check() -> None:
        nonlocal seen, named
        phases = [p for e in table.events[seen:] if (p := phase_after(e)) is not None]
        seen = len(table.events)
        if phases:
            named += 1
            assert phases[-1] is table.phase

    check()
    for _ in range(3):
        table.open_betting()
        check()
        place(table, "ann", {P: 10_000})
        check()
        close(table, clock)
        check()
        for card in parse_cards("9S KH 8D 7C"):
            table.deal_card(card)
            check()
        table.settle()
        check()
    table.request_pause()
    check()
    table.close_table()
    check()
    assert named >= 20
