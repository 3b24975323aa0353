"""A player who has gone: their place is kept for a grace period, then released [S13];
bets in play stay and settle first; a player holding the cards stays [M16]."""

from __future__ import annotations

import pytest
from table_support import close, deal, make_table, open_round, place, seat, state_of, watcher

from punto.bets import Bet
from punto.errors import SeatError, TableError
from punto.rules import preset
from punto.table import Phase, Place, TableKind
from punto.table.events import PlayerLeft
from punto.table.reasons import Reason, Why
from punto.tie_options import TIE_POLICIES

P, B = Bet.PLAYER, Bet.BANKER
GRACE = 60.0


def test_s13_a_gone_player_keeps_the_seat_during_the_grace() -> None:
    table, clock = make_table()
    seat(table, "ann", 3)
    table.disconnect("ann")
    clock.advance(GRACE - 1)
    assert table.release_due(grace=GRACE) == ()
    with pytest.raises(SeatError, match=r"\[S13\]"):
        table.release("ann", grace=GRACE)
    table.join("bob", balance=1_000)
    with pytest.raises(SeatError, match="taken"):
        table.sit("bob", 3)
    assert table.next_release_at(grace=GRACE) == GRACE


def test_s13_a_reconnect_within_the_grace_keeps_the_seat() -> None:
    table, clock = make_table()
    seat(table, "ann", 3)
    table.disconnect("ann")
    clock.advance(GRACE - 1)
    table.reconnect("ann")
    clock.advance(10 * GRACE)
    assert table.release_due(grace=GRACE) == ()
    assert table.seats.occupant(3) == "ann"
    assert table.next_release_at(grace=GRACE) is None
    with pytest.raises(SeatError, match="connected"):
        table.verify_release("ann", grace=GRACE)


def test_s13_after_the_grace_the_seat_is_released_with_the_balance() -> None:
    table, clock = make_table()
    seat(table, "ann", 3, balance=50_000)
    table.stand("ann", mark=True)  # a mark is for a short absence: gone is gone [S13]
    table.disconnect("ann")
    clock.advance(GRACE)
    (left,) = table.release_due(grace=GRACE)
    assert left == PlayerLeft(at=GRACE, player="ann", cashed_out=50_000, reason=Why(Reason.GONE))
    assert "ann" not in table.seats.participants
    assert table.seats.marked_by(3) is None
    assert 3 in table.seats.free_seats()
    assert table.money_check()


def test_s13_bets_in_play_stay_and_settle_before_the_release() -> None:
    table, clock = make_table()
    seat(table, "ann", 1, balance=100_000)
    open_round(table, {"ann": {P: 10_000}})
    table.disconnect("ann")  # gone during betting: the confirmed bet stands [L]
    clock.advance(GRACE)
    with pytest.raises(TableError, match="bets in play"):
        table.verify_release("ann", grace=GRACE)
    assert table.release_due(grace=GRACE) == ()
    close(table, clock)
    deal(table, "9S 8D KH 7C")  # Player 9 beats Banker 5
    assert table.release_due(grace=GRACE) == ()  # not settled yet
    settled = table.settle()
    assert [r.player for r in settled.results] == ["ann"]
    (left,) = table.release_due(grace=GRACE)
    assert left.cashed_out == 110_000  # the winning bet was paid before the player went
    assert table.money_check()


def test_s13_unconfirmed_chips_do_not_hold_a_gone_player() -> None:
    table, clock = make_table()
    seat(table, "ann", 1, balance=100_000)
    table.open_betting()
    place(table, "ann", {B: 10_000}, confirm=False)
    table.disconnect("ann")
    clock.advance(GRACE)
    (left,) = table.release_due(grace=GRACE)
    assert left.cashed_out == 100_000
    assert table.phase is Phase.BETTING_OPEN


def test_m12_standing_bets_come_back_when_a_gone_player_is_released() -> None:
    rules = preset("online_8deck").replace(tie_policy=TIE_POLICIES["macau"])
    table, clock = make_table(rules)
    seat(table, "ann", 1, balance=100_000)
    open_round(table, {"ann": {P: 10_000}})
    table.disconnect("ann")
    clock.advance(GRACE)
    close(table, clock)
    deal(table, "4S 4H 5D 5C")  # a natural tie: the Player bet stands [M12]
    table.settle()
    assert table.money_in_play() == 10_000
    (left,) = table.release_due(grace=GRACE)
    assert left.cashed_out == 100_000
    assert table.money_check()


def test_o_vip_owner_gone_releases_everyone_between_hands() -> None:
    table, clock = make_table(kind=TableKind.VIP)
    table.join("ann", balance=1_000_000)
    table.take_table("ann", 1)
    watcher(table, "bob")
    table.disconnect("ann")
    clock.advance(GRACE)
    table.release_due(grace=GRACE)
    assert table.seats.participants == {}
    assert table.owner is None


def test_a_refused_release_changes_nothing() -> None:
    table, _ = make_table()
    seat(table, "ann", 1)
    table.disconnect("ann")
    before = state_of(table)
    assert not table.can_release("ann", grace=GRACE)
    assert state_of(table) == before
    assert table.seats.get("ann").place is Place.SEATED


def test_s13_only_players_who_have_gone_are_tried_for_release(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server tries the releases after every command and batch of confirms: at a
    table of thousands, every connected player was asked (and refused) each time. Only
    those who have gone are asked now; the released are the same."""
    table, clock = make_table()
    for n in range(1, 301):
        table.join(f"p{n:03}", balance=1_000)
    table.disconnect("p007")
    table.disconnect("p123")
    clock.advance(GRACE)
    table.reconnect("p123")  # back in time: not released
    asked: list[str] = []
    verify = type(table).verify_release

    def counted(self: object, player: str, *, grace: float) -> None:
        asked.append(player)
        verify(table, player, grace=grace)

    monkeypatch.setattr(type(table), "verify_release", counted)
    (left,) = table.release_due(grace=GRACE)
    assert left.player == "p007"
    assert sorted(set(asked)) == ["p007"]
    assert table.release_due(grace=GRACE) == ()
