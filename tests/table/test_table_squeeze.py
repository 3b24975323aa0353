"""Who looks at the cards first: [M16], [S] reading with the button, [O] bid-squeeze and
the VIP owner; the dealer reads when no one may."""

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
    sides,
    watcher,
)

from punto.bets import Bet
from punto.cards import Card
from punto.coup import Position
from punto.errors import SqueezeError
from punto.outcome import Side
from punto.table import ManualClock, Phase, ReadCall, Reading, Table, TableKind, Viewer
from punto.table.events import CardPlaced, CardsHeld, CardsRevealed

P, B = Bet.PLAYER, Bet.BANKER


def _held(table: Table) -> list[CardsHeld]:
    return [e for e in table.events if isinstance(e, CardsHeld)]


def _deal_codes(table: Table, codes: str) -> None:
    for code in codes.split():
        table.deal_card(Card.parse(code))


# -- [M16] -------------------------------------------------------------------


def _m16_table() -> tuple[Table, ManualClock]:
    table, clock = make_table(reading=Reading.LARGEST_BETTOR)
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    watcher(table, "carl")
    open_round(table, {"ann": {P: 20_000}, "bob": {B: 10_000}, "carl": {P: 50_000}})
    close(table, clock)
    return table, clock


def test_m16_largest_seated_bettor_holds_cards() -> None:
    table, _ = _m16_table()
    # carl bet more but only watches: the largest *seated* bettor holds the cards.
    assert sides(table.holders) == {"player": "ann"}
    _deal_codes(table, "4S 7H KD 8C")
    assert [(e.side, e.player) for e in _held(table)] == [(Side.PLAYER, "ann")]
    placed = [e for e in table.events if isinstance(e, CardPlaced)]
    assert [e.face_up for e in placed] == [False, True, False, True]
    assert table.phase is Phase.SQUEEZE
    with pytest.raises(SqueezeError):
        table.squeeze("bob", Side.PLAYER)
    table.squeeze("ann", Side.PLAYER)
    assert phase(table) is Phase.DEALING


def test_m16_holder_may_not_leave_the_table() -> None:
    table, _ = _m16_table()
    _deal_codes(table, "4S 7H KD 8C")
    with pytest.raises(SqueezeError, match=r"\[M16\]"):
        table.stand("ann")
    with pytest.raises(SqueezeError, match=r"\[M16\]"):
        table.verify_leave("ann")
    assert table.can_stand("bob")


def test_m16_third_card_never_seen_with_the_first_two() -> None:
    table, _ = _m16_table()
    _deal_codes(table, "4S 7H KD 8C")
    # The holder squeezes the first two before the third card comes out.
    with pytest.raises(SqueezeError, match=r"\[M16\]"):
        table.deal_card(Card.parse("5S"))
    table.squeeze("ann", Side.PLAYER)
    table.deal_card(Card.parse("5S"))  # Player's third card, face down, squeezed alone
    assert table.phase is Phase.SQUEEZE
    revealed = table.squeeze("ann", Side.PLAYER)
    assert [pos for pos, _ in revealed.cards] == [Position.PLAYER_3]
    table.deal_card(Card.parse("2D"))
    assert phase(table) is Phase.RESULT


def test_m16_the_holder_looks_first_and_no_hidden_card_reaches_anyone_else() -> None:
    table, _ = _m16_table()
    _deal_codes(table, "4S 7H KD 8C")
    assert sides(table.holders) == {"player": "ann"}
    for viewer, who in ((Viewer.PLAYER, "bob"), (Viewer.WATCHER, None)):
        shown = [e for e in table.view(viewer, who) if isinstance(e, CardPlaced)]
        assert [e.card is None for e in shown] == [True, False, True, False]
    held = [e for e in table.view(Viewer.PLAYER, "ann") if isinstance(e, CardPlaced)]
    assert [e.card is None for e in held] == [False, False, False, False]  # she squeezes
    dealer = [e for e in table.view(Viewer.DEALER) if isinstance(e, CardPlaced)]
    assert all(e.card is not None for e in dealer)
    table.squeeze("ann", Side.PLAYER)
    revealed = [e for e in table.view(Viewer.PLAYER, "bob") if isinstance(e, CardsRevealed)]
    assert [c.code for _, c in revealed[0].cards] == ["4S", "KD"]


# -- [S] Super Punto Banco ----------------------------------------------------


def _spb_table() -> tuple[Table, ManualClock]:
    table, clock = make_table("super_punto_banco", reading=Reading.BUTTON)
    seat(table, "ann", 2)
    seat(table, "bob", 5)
    return table, clock


def _spb_hand(table: Table, clock: ManualClock, *, reader: str, call: ReadCall, codes: str) -> None:
    open_round(table, {"ann": {P: 10_000}, "bob": {P: 10_000}})
    close(table, clock)
    cards = codes.split()
    _deal_codes(table, " ".join(cards[:4]))
    assert sides(table.holders) == {"player": reader}
    table.read(reader, call)
    deal(table, " ".join(cards[4:]))
    table.settle()


def test_s_button_breaks_equal_player_bets_and_moves_every_hand() -> None:
    table, clock = _spb_table()
    assert table.button == 1  # the button starts at seat 1
    _spb_hand(table, clock, reader="ann", call=ReadCall.CARTA, codes="4S 7H KD 8C 5S 2D")
    assert table.button == 2
    _spb_hand(table, clock, reader="ann", call=ReadCall.NATURAL, codes="9S 7H KD 8C")
    assert table.button == 3
    # From seat 3 on, bob (seat 5) comes before ann (seat 2).
    _spb_hand(table, clock, reader="bob", call=ReadCall.NO_CARTA, codes="6S 7H KD KC")


def test_s_reader_may_never_decide_against_the_tableau() -> None:
    table, clock = _spb_table()
    open_round(table, {"ann": {P: 10_000}, "bob": {P: 5_000}})
    close(table, clock)
    _deal_codes(table, "4S 7H KD 8C")  # Player 4: carta
    for wrong in (ReadCall.NO_CARTA, ReadCall.NATURAL):
        with pytest.raises(SqueezeError, match=r"against the tableau"):
            table.read("ann", wrong)
    with pytest.raises(SqueezeError):
        table.read("bob", ReadCall.CARTA)  # not the reader
    event = table.read("ann", ReadCall.CARTA)
    assert event.call is ReadCall.CARTA
    # The dealer turns the cards; the third card is dealt face up.
    placed = table.deal_card(Card.parse("5S"))
    assert placed.face_up


def test_s_dealer_reads_without_a_player_bet() -> None:
    table, clock = _spb_table()
    open_round(table, {"ann": {B: 10_000}})
    close(table, clock)
    assert table.holders == {}
    _deal_codes(table, "9S 7H KD 8C")
    assert table.phase is Phase.RESULT
    assert not _held(table)


def test_s13_standing_players_may_not_read_the_player_cards() -> None:
    table, clock = _spb_table()
    watcher(table, "carl")
    open_round(table, {"ann": {P: 10_000}, "carl": {P: 50_000}})
    close(table, clock)
    assert sides(table.holders) == {"player": "ann"}


# -- [O] bid-squeeze ------------------------------------------------------------


def _bid_table() -> tuple[Table, ManualClock]:
    table, clock = make_table("online_8deck", kind=TableKind.BID_SQUEEZE, vip_min_balance=500_000)
    for n, player in enumerate(("ann", "bob", "carl", "dave"), start=1):
        seat(table, player, n, balance=5_000_000)
    table.open_betting()
    return table, clock


def test_o_bid_largest_bettor_of_each_side_squeezes_it() -> None:
    table, _ = _bid_table()
    place(table, "bob", {P: 100_000})
    place(table, "ann", {P: 200_000})
    place(table, "carl", {B: 300_000})
    place(table, "dave", {B: 100_000})
    assert sides(table.holders) == {"player": "ann", "banker": "carl"}


def test_o_bid_earlier_bet_wins_on_equal_amounts() -> None:
    table, _ = _bid_table()
    place(table, "bob", {B: 100_000})
    place(table, "ann", {B: 100_000})
    assert sides(table.holders) == {"banker": "bob"}


def test_o_bid_equal_banker_and_player_bets_squeeze_player() -> None:
    table, _ = _bid_table()
    place(table, "ann", {B: 200_000, P: 200_000})
    place(table, "bob", {B: 100_000})
    assert sides(table.holders) == {"player": "ann", "banker": "bob"}
    place(table, "carl", {P: 300_000})  # someone bets more on Player: ann keeps Banker
    assert sides(table.holders) == {"player": "carl", "banker": "ann"}


def test_o_bid_takeover_when_the_squeezer_is_gone() -> None:
    table, clock = _bid_table()
    place(table, "ann", {P: 200_000})
    place(table, "bob", {P: 100_000})
    close(table, clock)
    table.stand("ann", mark=True)
    assert sides(table.holders) == {"player": "bob"}
    _deal_codes(table, "4S")  # the first card fixes who holds the cards
    held = _held(table)[0]
    assert (held.player, held.took_over_from) == ("bob", "ann")


def test_o_bid_hand_back_on_return_before_the_squeeze() -> None:
    table, clock = _bid_table()
    place(table, "ann", {P: 200_000})
    place(table, "bob", {P: 100_000})
    close(table, clock)
    table.disconnect("ann")
    assert sides(table.holders) == {"player": "bob"}
    table.reconnect("ann")
    table.stand("ann", mark=True)
    table.sit("ann", 1)  # back at the marked seat before the squeeze
    assert sides(table.holders) == {"player": "ann"}
    _deal_codes(table, "4S")
    assert (_held(table)[0].player, _held(table)[0].took_over_from) == ("ann", None)


def _bid_squeeze_phase(table: Table, clock: ManualClock) -> None:
    """Ann bets 200,000 and Bob 100,000 on Player; four cards out, ann holds them."""
    place(table, "ann", {P: 200_000})
    place(table, "bob", {P: 100_000})
    close(table, clock)
    _deal_codes(table, "4S 7H KD 8C")  # Player 4 draws, Banker 5
    assert table.phase is Phase.SQUEEZE
    assert table.awaiting_squeeze == {Side.PLAYER: "ann"}


def test_o_bid_takeover_when_the_squeezer_disconnects_during_the_squeeze() -> None:
    table, clock = _bid_table()
    _bid_squeeze_phase(table, clock)
    table.disconnect("ann")
    held = _held(table)[-1]
    assert (held.player, held.took_over_from) == ("bob", "ann")
    assert table.awaiting_squeeze == {Side.PLAYER: "bob"}
    assert not table.can_squeeze("ann", Side.PLAYER)
    table.squeeze("bob", Side.PLAYER)
    assert table.records()[-1].holders == {Side.PLAYER: "bob"}


def test_o_bid_hand_back_when_the_squeezer_reconnects_before_the_squeeze() -> None:
    table, clock = _bid_table()
    _bid_squeeze_phase(table, clock)
    table.disconnect("ann")
    table.reconnect("ann")
    held = _held(table)[-1]
    assert (held.player, held.took_over_from) == ("ann", None)
    assert not table.can_squeeze("bob", Side.PLAYER)
    table.squeeze("ann", Side.PLAYER)


def test_o_bid_squeezer_who_stands_up_before_the_squeeze_is_replaced_and_sits_back() -> None:
    table, clock = _bid_table()
    _bid_squeeze_phase(table, clock)
    table.stand("ann", mark=True)  # [O] a bid squeezer may leave the seat before the squeeze
    assert sides(table.holders) == {"player": "bob"}
    table.sit("ann", 1)
    assert sides(table.holders) == {"player": "ann"}
    assert [(e.player, e.took_over_from) for e in _held(table)] == [
        ("ann", None),
        ("bob", "ann"),
        ("ann", None),
    ]


def test_o_bid_no_takeover_once_the_squeeze_has_begun() -> None:
    table, clock = _bid_table()
    _bid_squeeze_phase(table, clock)
    table.squeeze("ann", Side.PLAYER)
    table.deal_card(Card.parse("5S"))  # the Player's third card, face down, for ann
    assert table.awaiting_squeeze == {Side.PLAYER: "ann"}
    with pytest.raises(SqueezeError, match=r"\[M16\]"):
        table.stand("ann")
    table.disconnect("ann")
    assert sides(table.holders) == {"player": "ann"}  # no CardsHeld for bob
    assert [e.player for e in _held(table)] == ["ann"]
    assert not table.can_squeeze("bob", Side.PLAYER)
    table.reveal_cards()  # the dealer turns the card ann cannot squeeze
    table.deal_card(Card.parse("2D"))
    assert phase(table) is Phase.RESULT


def test_o_bid_with_no_one_to_take_over_the_dealer_turns_the_cards() -> None:
    table, clock = _bid_table()
    place(table, "ann", {P: 200_000})
    close(table, clock)
    _deal_codes(table, "4S 7H KD 8C")
    table.stand("ann")
    assert sides(table.holders) == {"player": "ann"}  # nobody seated to take over
    with pytest.raises(SqueezeError, match="only a seated player squeezes"):
        table.squeeze("ann", Side.PLAYER)
    table.reveal_cards()
    assert phase(table) is Phase.DEALING


def test_o_bid_a_watchers_free_spot_bet_never_designates_a_squeezer() -> None:
    table, clock = _bid_table()
    table.join("erin", balance=50_000_000)
    table.watch("erin", tier="high")
    place(table, "ann", {P: 200_000})
    table.choose_chip("erin", 100_000)
    for _ in range(5):
        table.add_chip("erin", P, spot=7)  # a free spot: erin bets more than ann
    table.confirm("erin")
    close(table, clock)
    _deal_codes(table, "4S")
    held = _held(table)[0]
    assert (held.player, held.took_over_from) == ("ann", None)  # nobody was replaced


def test_o_bid_watchers_never_squeeze() -> None:
    table, _ = _bid_table()
    watcher(table, "erin", balance=5_000_000)
    place(table, "erin", {P: 100_000})
    assert table.holders == {}


# -- [O] VIP owner ---------------------------------------------------------------


def test_o_vip_owner_squeezes_the_side_they_bet_on() -> None:
    table, clock = make_table("online_8deck", kind=TableKind.VIP)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    seat(table, "bob", 2)
    open_round(table, {"olga": {B: 100_000}, "bob": {P: 50_000}})
    assert sides(table.holders) == {"banker": "olga"}
    close(table, clock)
    _deal_codes(table, "4S 7H KD 8C")
    assert table.phase is Phase.SQUEEZE
    table.squeeze("olga", Side.BANKER)
    assert phase(table) is Phase.DEALING


def test_o_vip_squeeze_off_means_the_dealer_reads() -> None:
    table, clock = make_table("online_8deck", kind=TableKind.VIP)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    table.set_vip_settings("olga", squeeze=False, vertical_squeeze=True)
    assert table.vip.vertical_squeeze
    settled = play(table, clock, "4S 7H KD 8C 5S 2D", {"olga": {B: 100_000}})
    assert settled.results[0].player == "olga"
    assert not _held(table)


def test_dealer_reads_when_no_one_may() -> None:
    table, clock = make_table()  # a normal table: the dealer reads
    seat(table, "ann", 1)
    open_round(table, {"ann": {P: 10_000}})
    close(table, clock)
    assert table.holders == {}
    _deal_codes(table, "4S 7H KD 8C")
    assert table.phase is Phase.DEALING
    assert not table.can_reveal_cards()
