"""Scripted full shoes (RNG and live), shoe procedure at the table [M2], [M3], [M7.2],
[M8], [S5], the hand records [L] and the per-viewer projections."""

from __future__ import annotations

from collections import Counter

import pytest
from table_support import DEALING_PHASES, close, deal, make_table, open_round, place, play, seat

from punto.bets import Bet
from punto.cards import Card, parse_cards
from punto.dealing import HandDealt, ShoeDealer
from punto.errors import CardError, IncompleteCoupError, ShoeError, TableError
from punto.outcome import Outcome, Side
from punto.rules import BurnRule, preset
from punto.shoe import Shoe, verify_commitment
from punto.table import (
    Dealing,
    GameNumber,
    ManualClock,
    Phase,
    Reading,
    Table,
    TableKind,
    TableSettings,
    Viewer,
    bet_records,
)
from punto.table.events import (
    CardPlaced,
    CardsBurned,
    ChipAdded,
    CutCardOut,
    DemoHandDealt,
    HandSettled,
    PlayerJoined,
    ShoeClosed,
    ShoeOpened,
    VipSettingsChanged,
)
from punto.table.phases import Step
from punto.table.reasons import Reason, Why
from punto.table.squeeze import expected_call

P, B, T = Bet.PLAYER, Bet.BANKER, Bet.TIE


def _in_dealing_order(outcome: Outcome) -> list[Card]:
    first = [outcome.player[0], outcome.banker[0], outcome.player[1], outcome.banker[1]]
    return first + list(outcome.player[2:]) + list(outcome.banker[2:])


def _bet_every_hand(table: Table) -> None:
    wanted = {"ann": {P: 5_000}, "bob": {B: 10_000}, "carl": {T: 1_000}}
    for player, bets in wanted.items():
        if not table.bets(player):  # main bets a tie left standing stay as they are [M12]
            place(table, player, bets)


@pytest.mark.parametrize("name", ["macau", "super_punto_banco", "live_tiger", "online_8deck"])
def test_rng_full_shoe_with_bets_every_hand(name: str) -> None:
    rules = preset(name).replace(demo_hands=2)
    table, clock = make_table(rules, dealing=Dealing.RNG, seed=11)
    for n, player in enumerate(("ann", "bob", "carl"), start=1):
        seat(table, player, n, balance=10_000_000)
    demos = [table.deal_demo_hand(), table.deal_demo_hand()]
    assert not table.can_deal_demo_hand()
    hands = 0
    while table.phase is not Phase.SHOE_END:
        table.open_betting()
        _bet_every_hand(table)
        close(table, clock)
        deal(table)
        table.settle()
        hands += 1
        assert table.money_check()
    records = table.records()
    assert len(records) == hands > 40
    assert [r.game.hand for r in records] == list(range(1, hands + 1))
    assert all(r.outcome is not None and r.dealer == "Dana" and r.settled for r in records)
    # The shoe's revealed order is exactly burn, demonstration hands, then every hand.
    opened = next(e for e in table.events if isinstance(e, ShoeOpened))
    closed = next(e for e in table.events if isinstance(e, ShoeClosed))
    assert closed.reveal is not None
    assert opened.commitment is not None
    assert verify_commitment(opened.commitment, closed.reveal)
    burned = [c for e in table.events if isinstance(e, CardsBurned) for c in e.cards or ()]
    out = burned + [c for d in demos for c in _in_dealing_order(d.outcome)]
    out += [c for r in records for _, c in r.cards]
    assert out == list(closed.reveal.order[: len(out)])
    assert max(Counter(out).values()) <= rules.decks
    last = [e for e in table.events if isinstance(e, HandSettled)][-1]
    assert last.last
    assert closed.reason == Why(Reason.LAST_HAND)  # [M3]


def _drive_a_shoe_by_next_step(
    table: Table, clock: ManualClock, bets: dict[str, dict[Bet, int]]
) -> int:
    """Play every hand of the shoe, doing whatever ``next_step`` asks: holders squeeze or
    read (the call the tableau makes), the dealer does the rest. Returns the hands played."""
    hands = 0
    while (step := table.next_step) is not Step.START_SHOE:
        if step is Step.OPEN_BETTING:
            table.open_betting()
            for player, wanted in bets.items():
                if not table.bets(player):
                    place(table, player, wanted)
        elif step is Step.BETTING:
            clock.advance(table.betting_seconds_left or 0.0)
        elif step is Step.CLOSE_BETTING:
            table.close_betting()
        elif step is Step.DEAL_CARD:
            table.deal_card()
        elif step is Step.SQUEEZE:
            side, holder = next(iter(table.awaiting_squeeze.items()))
            assert holder is not None
            if table.settings.table_reading is Reading.BUTTON:
                coup = table.coup
                assert coup is not None
                table.read(holder, expected_call([c.value for c in coup.player_cards[:2]]))
            else:
                table.squeeze(holder, side)
        else:
            assert step is Step.SETTLE
            table.settle()
            hands += 1
            assert table.money_check()
    return hands


@pytest.mark.parametrize(
    ("name", "kind", "reading"),
    [
        ("super_punto_banco", TableKind.NORMAL, Reading.BUTTON),
        ("macau", TableKind.NORMAL, Reading.LARGEST_BETTOR),
        ("online_8deck", TableKind.BID_SQUEEZE, None),
    ],
)
def test_rng_full_shoe_with_every_hand_squeezed_or_read(
    name: str, kind: TableKind, reading: Reading | None
) -> None:
    table, clock = make_table(name, kind=kind, reading=reading, dealing=Dealing.RNG, seed=5)
    for n, player in enumerate(("ann", "bob"), start=1):
        table.join(player, balance=100_000_000)
        table.sit(player, n, tier=None if kind is TableKind.BID_SQUEEZE else "high")
    bob = {P: 100_000} if reading is Reading.BUTTON else {B: 200_000}
    hands = _drive_a_shoe_by_next_step(table, clock, {"ann": {P: 200_000}, "bob": bob})
    records = table.records()
    assert len(records) == hands > 40
    # ann's Player bet is the largest (and the earlier on equal amounts [M16]); at the
    # bid-squeeze table bob's Banker bet gives him the Banker cards [O].
    expected = {Side.PLAYER: "ann"} | (
        {Side.BANKER: "bob"} if kind is TableKind.BID_SQUEEZE else {}
    )
    assert all(dict(r.holders) == expected for r in records)
    assert table.shoe is not None
    assert table.shoe.finished


def _scripted_live_shoe(name: str, seed: int) -> tuple[Table, list[bool]]:
    """Scan a whole shuffled shoe at a live table; returns the table and each hand's void."""
    rules = preset(name)
    shoe = Shoe.shuffled(decks=rules.decks, cut_from_end=(14, 14), seed=seed)
    order = [shoe.draw() for _ in range(len(shoe))]
    cut = shoe.cut_index
    table, clock = make_table(rules, start=False)
    burn = 1 + (order[0].value or 10) if rules.burn is BurnRule.FIRST_CARD_VALUE else rules.decks
    table.start_shoe(burned=order[:burn])
    pos = burn
    seat(table, "ann", 1, balance=10_000_000)
    voids = []
    while table.phase is not Phase.SHOE_END:
        if pos >= cut and table.can_cut_card_out():
            table.cut_card_out()  # seen at the front of the shoe, between hands
        open_round(table, {"ann": {P: 5_000}})
        close(table, clock)
        while table.phase in DEALING_PHASES:
            if pos == cut and table.can_cut_card_out():
                table.cut_card_out()  # comes out during the hand
            table.deal_card(order[pos])
            pos += 1
        needs = table.shoe is not None and getattr(table.shoe, "needs_cards_left", False)
        settled = table.settle(cards_left=len(order) - pos) if needs else table.settle()
        voids.append(bool(settled.void_reason))
        assert table.money_check()
    return table, voids


@pytest.mark.parametrize(("name", "seed"), [("super_punto_banco", 3), ("macau", 4)])
def test_live_full_shoe_with_scanned_cards_matches_the_shoe_procedure(name: str, seed: int) -> None:
    table, voids = _scripted_live_shoe(name, seed)
    # The same shoe dealt by the shoe procedure: as many hands, the same [S5] voids.
    rules = preset(name)
    shoe = Shoe.shuffled(decks=rules.decks, cut_from_end=(14, 14), seed=seed)
    dealt = [e for e in ShoeDealer(rules, shoe).deal_all() if isinstance(e, HandDealt)]
    assert voids == [h.void for h in dealt]
    assert len(table.records()) == len(dealt)


def test_s5_minimum_seven_cards_or_void_at_a_live_table() -> None:
    table, clock = make_table("super_punto_banco")
    seat(table, "ann", 1)
    open_round(table, {"ann": {P: 5_000}})
    close(table, clock)
    table.deal_card(Card.parse("4S"))
    table.cut_card_out()  # during the hand: it is the last [S5]
    deal(table, "7H KD 8C 5S 2D")
    with pytest.raises(TableError, match=r"\[S5\] .* count the cards left"):
        table.settle()
    settled = table.settle(cards_left=6)
    assert settled.void_reason == Why(Reason.SEVEN_CARDS_OR_VOID)  # [S5]
    assert settled.last
    assert settled.results[0].returned == 5_000
    assert table.balance("ann") == 1_000_000
    assert table.phase is Phase.SHOE_END
    assert table.records()[-1].void


def test_s5_seven_cards_left_the_last_hand_stands() -> None:
    table, clock = make_table("super_punto_banco")
    seat(table, "ann", 1)
    open_round(table, {"ann": {P: 5_000}})
    close(table, clock)
    table.cut_card_out()  # before the first card: between hands, this hand is the last
    deal(table, "4S 7H KD 8C 5S 2D")
    # The cut card did not come out during the hand: the count does not void it.
    assert table.settle(cards_left=3).results[0].returned == 10_000
    assert table.phase is Phase.SHOE_END


def test_m3_cut_card_one_more_hand() -> None:
    table, clock = make_table("macau")  # [M3] one more hand after the cut card
    play(table, clock, "9S 8H KD KC")
    cut = table.cut_card_out()
    assert isinstance(cut, CutCardOut)
    assert (cut.during, cut.last_hand) == (None, 3)
    assert not table.can_cut_card_out()
    assert not table.open_betting().last_hand
    close(table, clock)
    deal(table, "9S 8H KD KC")
    table.settle()
    assert table.open_betting().last_hand
    close(table, clock)
    deal(table, "9S 8H KD KC")
    assert table.settle().last
    assert table.phase is Phase.SHOE_END


def test_m2_demonstration_hands_before_the_first_hand_only() -> None:
    rules = preset("macau").replace(demo_hands=1)
    table, clock = make_table(rules)
    with pytest.raises(IncompleteCoupError, match="needs more cards"):
        table.deal_demo_hand(cards=parse_cards("9S"))
    demo = table.deal_demo_hand(cards=parse_cards("9S 8H KD KC"))
    assert isinstance(demo, DemoHandDealt)
    assert demo.outcome.player_total == 9
    assert not table.can_deal_demo_hand(cards=parse_cards("9S 8H KD KC"))
    play(table, clock, "9S 8H KD KC")
    assert table.records()[0].game.hand == 1


def test_m8_burn_between_hands_and_l_live_tables_burn_nothing() -> None:
    table, clock = make_table("macau", dealing=Dealing.RNG)
    play(table, clock)
    event = table.burn(2)
    assert event.count == 2
    assert event.cards is not None
    assert len(event.cards) == 2
    table.open_betting()
    assert not table.can_burn()
    tiger, _ = make_table("live_tiger", dealing=Dealing.RNG)
    with pytest.raises(ShoeError, match="burn no cards"):
        tiger.burn()


def test_m7_2_continuous_shuffler_never_ends_its_shoe() -> None:
    rules = preset("online_8deck").replace(continuous_shuffler=True, burn=BurnRule.NONE)
    table, clock = make_table(rules, dealing=Dealing.RNG)
    opened = next(e for e in table.events if isinstance(e, ShoeOpened))
    assert opened.commitment is None
    assert opened.cut_index is None
    for _ in range(120):  # more cards than one pass through the shoe would allow
        play(table, clock)
    assert table.phase is Phase.SETTLED
    assert not table.can_burn()


def test_live_table_refuses_a_card_its_shoe_cannot_hold() -> None:
    table, clock = make_table()  # 8 decks
    for _ in range(4):
        play(table, clock, "AS AS 8D 9C")  # Player natural 9: two aces a hand
    before = len(table.events)
    open_round(table)
    close(table, clock)
    with pytest.raises(CardError, match="9th copy in a 8-deck shoe"):
        table.deal_card(Card.parse("AS"))
    assert table.phase is Phase.BETTING_CLOSED
    assert len(table.events) == before + 2


def test_rng_table_draws_its_own_cards() -> None:
    table, clock = make_table(dealing=Dealing.RNG)
    open_round(table)
    close(table, clock)
    with pytest.raises(TableError, match="draws its own cards"):
        table.deal_card(Card.parse("AS"))
    assert isinstance(table.deal_card(), CardPlaced)


# -- records [L] ---------------------------------------------------------------------


def test_l_every_hand_keeps_what_a_complaint_needs() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    clock.advance(100)
    play(table, clock, "4S 7H KD 8C 5S 2D", {"ann": {P: 5_000}, "bob": {B: 10_000}})
    table.change_dealer("Max")
    play(table, clock, "9S 8H KD KC", {"ann": {P: 5_000}})
    first, second = table.records()
    assert str(first.game) == "T1-001-001"
    assert GameNumber.parse("T1-001-002") == second.game
    assert (first.dealer, second.dealer) == ("Dana", "Max")
    assert first.opened_at == 100
    assert first.closed_at == 115
    assert [c.code for _, c in first.cards] == ["4S", "7H", "KD", "8C", "5S", "2D"]
    assert first.outcome is not None
    assert first.outcome.player_total == 9
    assert {p: dict(b) for p, b in first.bets.items()} == {"ann": {P: 5_000}, "bob": {B: 10_000}}
    assert first.results["ann"].settlement.total_net == 5_000
    assert first.results["bob"].returned == 0
    mine = bet_records(table.events, "bob")
    assert [r.game.hand for r in mine] == [1]
    assert set(mine[0].bets) == {"bob"}


# -- projections -------------------------------------------------------------------------


def test_views_are_projections_of_the_same_events() -> None:
    table, clock = make_table(dealing=Dealing.RNG, reading=Reading.LARGEST_BETTOR)
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    table.open_betting()
    place(table, "ann", {P: 5_000})
    place(table, "bob", {P: 1_000}, confirm=False)
    auditor = table.view(Viewer.AUDITOR)
    assert auditor == tuple(table.events)
    ann = table.view(Viewer.PLAYER, "ann")
    chips = [e for e in ann if isinstance(e, ChipAdded)]
    assert {e.player for e in chips} == {"ann"}  # bob's unconfirmed chips are his own
    joined = {e.player: e.balance for e in ann if isinstance(e, PlayerJoined)}
    assert joined == {"ann": 1_000_000, "bob": None}
    watcher = table.view(Viewer.WATCHER)
    assert not any(isinstance(e, ChipAdded) for e in watcher)
    assert all(e.balance is None for e in watcher if isinstance(e, PlayerJoined))
    burned = [e for e in watcher if isinstance(e, CardsBurned)]
    assert burned
    assert all(e.cards is None and e.count for e in burned)
    dealer = table.view(Viewer.DEALER)
    assert all(e.cards is not None for e in dealer if isinstance(e, CardsBurned))
    assert not any(isinstance(e, ChipAdded) for e in dealer)
    close(table, clock)
    table.deal_card()
    for view in (table.view(Viewer.PLAYER, "bob"), table.view(Viewer.WATCHER)):
        assert [e.card for e in view if isinstance(e, CardPlaced)] == [None]
    holder = table.view(Viewer.PLAYER, "ann")  # the largest bettor holds the cards [M16]
    assert [e.card is None for e in holder if isinstance(e, CardPlaced)] == [False]


def test_views_never_show_a_password_digest() -> None:
    from punto.table import TableKind

    table, _ = make_table("online_8deck", kind=TableKind.VIP)
    table.join("olga", balance=5_000_000)
    table.take_table("olga", 1)
    table.set_vip_settings("olga", password="pw")
    for viewer, who in ((Viewer.PLAYER, "olga"), (Viewer.DEALER, None), (Viewer.WATCHER, None)):
        shown = [e for e in table.view(viewer, who) if isinstance(e, VipSettingsChanged)]
        assert shown[0].password_set
        assert shown[0].password_digest is None
    assert table.view(Viewer.AUDITOR)[-1] == table.events[-1]
    with pytest.raises(TableError):
        table.view(Viewer.PLAYER)


def test_checking_an_action_never_draws_on_the_random_source() -> None:
    def commitments(*, check: bool) -> list[str | None]:
        table, _ = make_table(dealing=Dealing.RNG, seed=9, start=False)
        out = []
        for _ in range(2):
            if check:
                assert table.can_start_shoe()
            opened = table.start_shoe()
            if check:
                assert table.can_burn()
                assert table.can_change_shoe()
            out.append(opened.commitment)
            table.change_shoe()
        return out

    assert commitments(check=True) == commitments(check=False)


def test_an_rng_table_shuffles_with_the_system_source_by_default() -> None:
    rules = preset("macau").replace(demo_hands=1)
    clock = ManualClock()
    table = Table(TableSettings(table_id="T9", rules=rules), clock=clock)  # no rng given
    table.start_shoe()
    assert table.can_deal_demo_hand()
    assert table.can_burn()
    table.deal_demo_hand()
    table.burn()
    play(table, clock)
    assert table.records()[0].outcome is not None
