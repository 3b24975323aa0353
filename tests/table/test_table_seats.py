"""Seats, watchers and table kinds: [M15], [S13], [S14], VIP and bid-squeeze tables [O]."""

from __future__ import annotations

import pytest
from table_support import (
    close,
    deal,
    make_table,
    open_round,
    phase,
    place,
    play,
    seat,
    state_of,
    watcher,
)

from punto.bets import Bet
from punto.cards import Card
from punto.errors import (
    AccessError,
    AmountError,
    BetLimitError,
    BettingError,
    PhaseError,
    SeatError,
    SqueezeError,
    TableBalanceError,
    TableError,
)
from punto.limits import LimitTier
from punto.outcome import Side
from punto.rules import preset
from punto.table import Dealing, ManualClock, Phase, Place, Table, TableKind, Viewer
from punto.table.events import (
    BalanceTransferred,
    BetsRefunded,
    BettingClosed,
    CardsRevealed,
    DealerChanged,
    PlayerLeft,
    ShoeClosed,
)
from punto.table.reasons import Reason, Why
from punto.tie_options import TIE_POLICIES

P, B = Bet.PLAYER, Bet.BANKER


def test_m15_watchers_may_not_bet_on_a_seated_players_spot() -> None:
    table, _ = make_table()
    seat(table, "ann", 3)
    watcher(table, "wes")
    table.open_betting()
    table.choose_chip("wes", 5_000)
    with pytest.raises(SeatError, match=r"\[M15\]"):
        table.add_chip("wes", P, spot=3)
    table.stand("ann", mark=True)  # a marked seat is still reserved
    with pytest.raises(SeatError, match=r"\[M15\]"):
        table.add_chip("wes", P, spot=3)


def test_m15_watchers_bet_from_their_area_or_a_free_spot() -> None:
    table, _ = make_table()
    seat(table, "ann", 3)
    watcher(table, "wes")
    table.open_betting()
    table.choose_chip("wes", 5_000)
    assert table.add_chip("wes", P, spot=4).spot == 4
    with pytest.raises(SeatError, match="spot 4"):
        table.add_chip("wes", P)  # the watchers' area: not where the first chip went
    table.choose_chip("ann", 5_000)
    with pytest.raises(SeatError, match="own spot"):
        table.add_chip("ann", P, spot=4)


def test_s13_a_marked_seat_may_not_be_taken() -> None:
    table, _ = make_table()
    seat(table, "ann", 1)
    table.join("bob", balance=1_000)
    table.stand("ann", mark=True)
    with pytest.raises(SeatError, match=r"marked .* \[S13\]"):
        table.sit("bob", 1)
    table.sit("ann", 1)  # the owner of the mark comes back


def test_s13_a_seat_left_unmarked_is_lost() -> None:
    table, _ = make_table()
    seat(table, "ann", 1)
    table.join("bob", balance=1_000)
    table.stand("ann")
    table.sit("bob", 1)
    with pytest.raises(SeatError, match="taken"):
        table.sit("ann", 1)


def test_m1_seven_seats_then_only_watching() -> None:
    table, _ = make_table()
    for n in range(1, 8):
        seat(table, f"p{n}", n)
    table.join("late", balance=1_000)
    assert not any(table.can_sit("late", n) for n in range(1, 9))
    table.watch("late")
    assert table.seats.get("late").place is Place.WATCHING


def test_l_a_player_leaves_with_their_balance_once_bets_are_settled() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    open_round(table, {"ann": {P: 5_000}})
    with pytest.raises(TableError, match="bets on this hand"):
        table.leave("ann")
    close(table, clock)
    deal(table, "9S 8H KD KC")
    table.settle()
    left = table.leave("ann")
    assert left.cashed_out == 1_005_000
    assert table.money_check()
    assert table.cashed_out == 1_005_000


# -- VIP ------------------------------------------------------------------------


def test_o_vip_an_empty_table_can_only_be_taken_by_an_owner() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.VIP)
    table.join("ann", balance=5_000_000)
    with pytest.raises(SeatError, match="taken by an owner"):
        table.sit("ann", 1)
    with pytest.raises(SeatError, match="taken by an owner"):
        table.watch("ann")
    assert table.take_table("ann", 1).owner
    table.join("bob", balance=5_000_000)
    assert not table.can_take_table("bob", 2)
    table.sit("bob", 2)


def test_o_vip_owner_plays_the_vip_limits_and_the_others_the_normal_ones() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.VIP)
    table.join("olga", balance=5_000_000)
    assert table.take_table("olga", 1).tier == "vip"
    table.join("bob", balance=5_000_000)
    with pytest.raises(SeatError, match="VIP limits"):
        table.sit("bob", 2, tier="vip")
    assert table.sit("bob", 2).tier == "low"
    table.open_betting()
    place(table, "olga", {P: 50_000}, confirm=False)
    with pytest.raises(BetLimitError):
        table.confirm("olga")  # the VIP minimum is 1,000


def test_o_vip_a_full_table_only_lets_one_watch() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.VIP)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    for n in range(2, 8):
        seat(table, f"p{n}", n)
    table.join("late", balance=1_000)
    assert not any(table.can_sit("late", n) for n in range(1, 8))
    table.watch("late")


def test_o_vip_password() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.VIP)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    event = table.set_vip_settings("olga", password="s3cret")
    assert event.password_set
    assert event.password_digest is not None
    table.join("bob", balance=1_000)
    with pytest.raises(AccessError, match="password"):
        table.sit("bob", 2)
    with pytest.raises(AccessError, match="password"):
        table.watch("bob", password="wrong")
    table.watch("bob", password="s3cret")
    table.join("eve", balance=1_000)
    with pytest.raises(AccessError, match="owner"):
        table.set_vip_settings("eve", clear_password=True)


def test_o_vip_when_the_owner_leaves_everyone_leaves() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.VIP)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    seat(table, "bob", 2)
    watcher(table, "wes", balance=3_000)
    table.leave("olga")
    left = [e for e in table.events if isinstance(e, PlayerLeft)]
    assert [(e.player, e.cashed_out) for e in left] == [
        ("olga", 5_000_000),
        ("bob", 1_000_000),
        ("wes", 3_000),
    ]
    assert table.owner is None
    assert not table.seats.participants
    assert table.money_check()


def test_o_vip_owner_leaves_while_betting_and_the_bets_on_the_layout_come_back() -> None:
    table, clock = make_table("online_8deck", kind=TableKind.VIP, dealing=Dealing.RNG)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    seat(table, "bob", 2)
    open_round(table, {"bob": {P: 5_000}})
    assert table.can_leave("olga")  # no cards dealt yet: the owner may go [O]
    table.leave("olga")
    refunded = [e for e in table.events if isinstance(e, BetsRefunded)]
    assert [(r.player, r.returned) for e in refunded for r in e.refunds] == [("bob", 5_000)]
    left = [(e.player, e.cashed_out) for e in table.events if isinstance(e, PlayerLeft)]
    assert left == [("olga", 5_000_000), ("bob", 1_000_000)]
    assert table.money_check()
    # the round goes on with nobody at the table
    close(table, clock)
    deal(table)
    assert table.settle().results == ()


def test_o_vip_owner_may_not_leave_with_a_bet_or_once_betting_closed() -> None:
    table, clock = make_table("online_8deck", kind=TableKind.VIP, dealing=Dealing.RNG)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    seat(table, "bob", 2)
    open_round(table, {"olga": {P: 100_000}})
    with pytest.raises(TableError, match="has bets on this hand"):
        table.leave("olga")
    close(table, clock)
    deal(table)
    table.settle()
    open_round(table, {"bob": {P: 5_000}})
    close(table, clock)
    with pytest.raises(TableError, match="between hands or while betting is open"):
        table.leave("olga")
    assert table.owner == "olga"


def test_o_vip_owner_changes_the_dealer() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.VIP)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    seat(table, "bob", 2)
    with pytest.raises(AccessError):
        table.change_dealer("Max", by="bob")
    event = table.change_dealer("Max", by="olga")
    assert isinstance(event, DealerChanged)
    assert table.dealer == "Max"


def test_o_vip_owner_changes_the_shoe_once_it_dealt_30_hands() -> None:
    table, clock = make_table("online_8deck", kind=TableKind.VIP, dealing=Dealing.RNG)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    for _ in range(29):
        play(table, clock)
    with pytest.raises(AccessError, match="30 hands"):
        table.change_shoe(by="olga")
    play(table, clock)
    event = table.change_shoe(by="olga")
    assert isinstance(event, ShoeClosed)
    assert event.hands == 30
    assert table.phase is Phase.SHOE_END
    table.start_shoe()
    assert table.shoe_number == 2


def test_o_vip_owner_flies_the_cards_without_bets() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.VIP, dealing=Dealing.RNG)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    seat(table, "bob", 2)
    open_round(table, {"bob": {P: 5_000}})
    with pytest.raises(AccessError):
        table.fly("bob")
    event = table.fly("olga")
    assert (event.by, event.early) == ("olga", True)
    deal(table)
    settled = table.settle()
    assert [r.player for r in settled.results] == ["bob"]


def test_o_vip_owner_with_bets_may_not_fly() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.VIP)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    open_round(table, {"olga": {P: 100_000}})
    assert not table.can_fly("olga")


# -- bid-squeeze ---------------------------------------------------------------------


def test_o_bid_sitting_needs_the_vip_minimum_balance() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.BID_SQUEEZE, vip_min_balance=500_000)
    table.join("ann", balance=600_000)
    assert table.sit("ann", 1).tier == "vip"
    table.join("bob", balance=100_000)
    with pytest.raises(SeatError, match="watch and bet instead"):
        table.sit("bob", 2)
    assert table.watch("bob").tier == "low"


def test_o_bid_an_empty_table_can_only_be_sat_at() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.BID_SQUEEZE, vip_min_balance=500_000)
    table.join("bob", balance=100_000)
    with pytest.raises(SeatError, match="only be sat at"):
        table.watch("bob")


def test_o_bid_watchers_without_bets_leave_at_once_when_no_seated_player_is_left() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.BID_SQUEEZE, vip_min_balance=500_000)
    seat(table, "ann", 1)
    watcher(table, "wes", balance=100_000)
    table.leave("ann")
    left = [e.player for e in table.events if isinstance(e, PlayerLeft)]
    assert left == ["ann", "wes"]


def test_o_bid_watchers_with_bets_leave_after_the_settlement() -> None:
    table, clock = make_table("online_8deck", kind=TableKind.BID_SQUEEZE, vip_min_balance=500_000)
    seat(table, "ann", 1)
    watcher(table, "wes", balance=100_000)
    open_round(table, {"wes": {P: 5_000}})
    table.stand("ann")  # ann now watches too, without a bet: she goes at once
    assert "ann" not in table.seats.participants
    assert "wes" in table.seats.participants
    close(table, clock)
    deal(table, "9S 8H KD KC")
    table.settle()
    assert "wes" not in table.seats.participants
    assert table.money_check()


def test_o_bid_watchers_removed_after_a_tie_take_their_standing_bets_with_them() -> None:
    # [M12] main bets stand after a tie; [O] the watcher is removed once the hand is
    # settled: the standing bets go back to the balance it cashes out, never lost.
    rules = preset("online_8deck").replace(tie_policy=TIE_POLICIES["macau"])
    table, clock = make_table(rules, kind=TableKind.BID_SQUEEZE, vip_min_balance=500_000)
    seat(table, "ann", 1)
    watcher(table, "wes", balance=100_000)
    open_round(table, {"wes": {B: 5_000}})
    table.stand("ann")
    close(table, clock)
    deal(table, "4S 4H 5D 5C")  # a natural tie: the Banker bet stands
    table.settle()
    assert "wes" not in table.seats.participants
    refunded = [e for e in table.events if isinstance(e, BetsRefunded)]
    assert [(r.player, r.returned) for e in refunded for r in e.refunds] == [("wes", 5_000)]
    left = [e for e in table.events if isinstance(e, PlayerLeft) and e.player == "wes"]
    assert [e.cashed_out for e in left] == [100_000]
    assert table.money_in_play() == 0
    assert table.money_check()


def test_o_bid_seated_players_may_ask_the_dealer_to_open_the_cards() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.BID_SQUEEZE, vip_min_balance=500_000)
    seat(table, "ann", 1)
    watcher(table, "wes", balance=100_000)
    table.open_betting()
    with pytest.raises(AccessError, match="seated"):
        table.request_open_cards("wes")
    table.request_open_cards("ann")  # the only seated player: the dealer opens now
    closed = [e for e in table.events if isinstance(e, BettingClosed)]
    assert phase(table) is Phase.BETTING_CLOSED
    assert closed[-1].early


def test_o_bid_betting_closes_early_once_every_seated_player_asked_to_open() -> None:
    table, _ = make_table("online_8deck", kind=TableKind.BID_SQUEEZE, vip_min_balance=500_000)
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    table.open_betting()
    table.request_open_cards("ann")
    assert phase(table) is Phase.BETTING_OPEN
    with pytest.raises(BettingError, match="already asked"):
        table.request_open_cards("ann")
    table.request_open_cards("bob")
    assert phase(table) is Phase.BETTING_CLOSED


def test_o_bid_seated_players_may_ask_to_open_the_cards_during_the_squeeze() -> None:
    # [O] "seated players may ask the dealer to open the cards": during the squeeze the
    # face-down cards are turned once every seated player (the squeezers too) asked.
    table, clock = make_table("online_8deck", kind=TableKind.BID_SQUEEZE, vip_min_balance=500_000)
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    watcher(table, "wes", balance=100_000)
    open_round(table, {"ann": {B: 200_000}, "bob": {P: 100_000}})
    table.request_open_cards("bob")  # asked while betting: counts for betting only
    close(table, clock)
    deal(table, "9S 8H KD KC", reveal=False)
    assert phase(table) is Phase.SQUEEZE
    assert dict(table.awaiting_squeeze) == {Side.PLAYER: "bob", Side.BANKER: "ann"}
    with pytest.raises(AccessError, match="seated"):
        table.request_open_cards("wes")
    table.request_open_cards("bob")
    assert phase(table) is Phase.SQUEEZE  # ann still squeezes: a squeezer is not overruled
    with pytest.raises(SqueezeError, match="already asked"):
        table.request_open_cards("bob")
    table.request_open_cards("ann")
    revealed = [e for e in table.events if isinstance(e, CardsRevealed)]
    assert len(revealed[-1].cards) == 4
    assert revealed[-1].by is None
    assert phase(table) is Phase.RESULT
    with pytest.raises(PhaseError):
        table.request_open_cards("ann")


# -- [S14] the supervisor ----------------------------------------------------------


def test_s14_the_supervisor_changes_the_limits_within_a_shoe() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    play(table, clock, "9S 8H KD KC", {"ann": {P: 5_000}})
    low = LimitTier(name="low", min_bet=20_000, max_bet=200_000, side_min=500, side_max=25_000)
    with pytest.raises(TableError, match="ann plays on the low limits"):
        table.set_limit_tiers([LimitTier(name="x", min_bet=1, max_bet=2, side_min=1, side_max=2)])
    table.set_limit_tiers([low])
    table.open_betting()
    with pytest.raises(PhaseError):
        table.set_limit_tiers([low])
    place(table, "ann", {P: 5_000}, confirm=False)
    with pytest.raises(BetLimitError, match="minimum of 200"):
        table.confirm("ann")


def test_s14_the_supervisor_ends_the_game_without_notice() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    open_round(table, {"ann": {P: 5_000}, "bob": {B: 10_000}})
    close(table, clock)
    table.deal_card(Card.parse("4S"))
    table.close_table()
    assert table.phase is Phase.CLOSED
    left = {e.player: e.cashed_out for e in table.events if isinstance(e, PlayerLeft)}
    assert left == {"ann": 1_000_000, "bob": 1_000_000}  # stakes refunded, then cashed out
    assert table.money_check()
    assert not table.can_open_betting()
    assert not table.can_join("carl", balance=1)


def test_pause_and_resume_between_hands() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    table.pause("dealer break")
    assert table.phase is Phase.PAUSED
    assert not table.can_open_betting()
    table.resume()
    assert phase(table) is Phase.SHOE_START
    table.open_betting()
    with pytest.raises(PhaseError):
        table.pause()
    close(table, clock)


def test_a_transfer_moves_a_players_table_balance_as_their_wallet_moved() -> None:
    table, _ = make_table()
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    before = table.balance("ann")
    table.transfer("ann", 25_000, reason=Why(Reason.DEPOSIT))
    table.transfer("ann", -5_000, reason=Why(Reason.VOID_OF, {"game": "T-001-001"}))
    assert table.balance("ann") == before + 20_000
    assert table.money_check()
    state = state_of(table)
    for amount, error in ((0, AmountError), (True, AmountError), (-(10**9), TableBalanceError)):
        with pytest.raises(error):
            table.transfer("ann", amount, reason=Why(Reason.DEPOSIT))
        assert state_of(table) == state
    with pytest.raises(SeatError):
        table.transfer("zed", 100, reason=Why(Reason.DEPOSIT))
    mine = next(e for e in table.view(Viewer.PLAYER, "ann") if isinstance(e, BalanceTransferred))
    assert mine.amount == 25_000
    theirs = [e for e in table.view(Viewer.PLAYER, "bob") if isinstance(e, BalanceTransferred)]
    assert [e.amount for e in theirs] == [None, None]


# -- leaving after a tie [M12] ------------------------------------------------------


def _after_a_tie(policy: str) -> tuple[Table, ManualClock]:
    """Ann's 50.00 Banker bet stands after a natural tie, under the tie ``policy``."""
    rules = preset("macau").replace(tie_policy=TIE_POLICIES[policy])
    table, clock = make_table(rules)
    seat(table, "ann", 1)
    open_round(table, {"ann": {B: 5_000}})
    close(table, clock)
    deal(table, "4S 4H 5D 5C")  # a natural tie: the Banker bet stands
    table.settle()
    return table, clock


def test_m12_leaving_after_a_tie_takes_the_standing_bets_back_where_they_may_be_cancelled() -> None:
    table, _ = _after_a_tie("macau")
    assert table.can_leave("ann")
    left = table.leave("ann")
    assert left.cashed_out == 1_000_000  # the standing 50.00 came back first
    refunded = [e for e in table.events if isinstance(e, BetsRefunded)]
    assert [(r.player, r.returned) for e in refunded for r in e.refunds] == [("ann", 5_000)]
    assert table.money_in_play() == 0
    assert table.money_check()


def test_m12_standing_bets_the_table_keeps_or_new_bets_beside_them_keep_the_player() -> None:
    table, _ = _after_a_tie("sjm")  # the SJM variant: standing bets may only be raised
    with pytest.raises(TableError, match="has bets on this hand"):
        table.leave("ann")
    table, clock = _after_a_tie("macau")
    open_round(table, {"ann": {Bet.TIE: 1_000}})  # a new bet beside the standing one
    with pytest.raises(TableError, match="has bets on this hand"):
        table.leave("ann")
    close(table, clock)
    with pytest.raises(TableError, match="has bets on this hand"):
        table.leave("ann")
