"""The betting round [L], limits [M14], [M18], [S11], [O], "wait for me" [O] and the tie
options [M12]."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_support import close, deal, make_table, open_round, place, play, seat, state_of

from punto.bets import Bet
from punto.errors import (
    AmountError,
    BetClosedError,
    BetCombinationError,
    BetLimitError,
    BetNotOfferedError,
    BettingError,
    PuntoError,
    TableBalanceError,
    TieOptionError,
    UnknownBetError,
)
from punto.rules import preset
from punto.table import Dealing, Phase
from punto.table.events import BetsConfirmed, BettingClosed, BettingOpened
from punto.tie_options import TIE_POLICIES, TieAction

P, B, T = Bet.PLAYER, Bet.BANKER, Bet.TIE
TIE_CARDS = "4S 4H 5D 5C"  # Player 9, Banker 9: a natural tie


def test_l_choose_chip_add_undo_clear_double_confirm() -> None:
    table, _ = make_table()
    seat(table, "ann", 1)
    table.open_betting()
    with pytest.raises(BettingError, match="choose a chip"):
        table.add_chip("ann", P)
    with pytest.raises(BettingError, match="no chip"):
        table.choose_chip("ann", 333)
    table.choose_chip("ann", 1_000)
    table.add_chip("ann", P)
    table.add_chip("ann", P)
    assert dict(table.pending("ann")) == {P: 2_000}
    table.undo("ann")
    table.double("ann")
    assert dict(table.pending("ann")) == {P: 2_000}
    table.undo("ann")  # takes the doubling back
    assert dict(table.pending("ann")) == {P: 1_000}
    table.clear("ann")
    assert dict(table.pending("ann")) == {}
    with pytest.raises(BettingError, match="nothing to undo"):
        table.undo("ann")
    table.choose_chip("ann", 5_000)
    table.add_chip("ann", P)
    event = table.confirm("ann")
    assert (event.debited, dict(event.bets)) == (5_000, {P: 5_000})
    assert table.balance("ann") == 995_000
    # Confirmed bets can be neither undone, cleared nor doubled.
    for action in (table.undo, table.clear, table.double):
        with pytest.raises(BettingError):
            action("ann")
    assert dict(table.bets("ann")) == {P: 5_000}


def test_l_confirm_with_bets_puts_them_down_and_confirms_at_once() -> None:
    table, _ = make_table()
    seat(table, "ann", 1, balance=20_000)
    table.open_betting()
    before = len(table.events)
    event = table.confirm("ann", {P: 5_000, T: 1_500})  # no chip chosen: none is needed
    assert len(table.events) == before + 1  # one event: the confirm, no chip events
    assert (event.debited, dict(event.added)) == (6_500, {P: 5_000, T: 1_500})
    assert dict(table.pending("ann")) == {}
    assert table.balance("ann") == 13_500
    again = table.confirm("ann", {P: 1_000})  # adds to the confirmed bets, like a confirm
    assert dict(again.bets) == {P: 6_000, T: 1_500}
    assert table._slips["ann"].spot == 1  # on the player's own spot
    assert table.can_confirm("ann", {T: 500})
    assert not table.can_confirm("ann", {T: 600})


@pytest.mark.parametrize(
    ("bets", "error", "match"),
    [
        ({}, BettingError, "no bets to confirm"),
        ({P: 600}, AmountError, "not made of this table's chips"),
        ({P: 0}, AmountError, "must be positive"),
        ({P: -500}, AmountError, "must be positive"),
        ({P: True}, AmountError, "not a whole number"),
        ({P: 500.0}, AmountError, "not a whole number"),
        ({"player": 500}, UnknownBetError, "not a bet"),
        ({Bet.LUCKY6: 500}, BetNotOfferedError, "not offered"),
        ({P: 50_000}, TableBalanceError, "more than the balance"),
        ({P: 20_000, B: 500}, BetLimitError, "below this table.s minimum"),
    ],
)
def test_l_a_refused_confirm_with_bets_changes_nothing(
    bets: dict[object, object], error: type[PuntoError], match: str
) -> None:
    table, _ = make_table()
    seat(table, "ann", 1, balance=30_000)
    table.open_betting()
    snapshot = (len(table.events), table.balances, dict(table.bets("ann")))
    with pytest.raises(error, match=match):
        table.confirm("ann", bets)  # type: ignore[arg-type]
    assert not table.can_confirm("ann", bets)  # type: ignore[arg-type]
    assert (len(table.events), table.balances, dict(table.bets("ann"))) == snapshot
    assert dict(table.pending("ann")) == {}


def test_l_confirm_with_bets_needs_an_empty_layout() -> None:
    table, _ = make_table()
    seat(table, "ann", 1)
    table.open_betting()
    place(table, "ann", {P: 1_000}, confirm=False)
    with pytest.raises(BettingError, match="unconfirmed chips are on the layout"):
        table.confirm("ann", {B: 1_000})
    assert dict(table.pending("ann")) == {P: 1_000}
    assert dict(table.bets("ann")) == {}


def test_l_chips_added_after_a_confirm_need_a_new_confirm() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    open_round(table, {"ann": {P: 5_000}})
    place(table, "ann", {P: 1_000}, confirm=False)
    close(table, clock)
    closed = table.events[-1]
    assert isinstance(closed, BettingClosed)
    assert closed.discarded == (("ann", 1_000),)
    assert dict(table.bets("ann")) == {P: 5_000}
    assert table.balance("ann") == 995_000


def test_l_nothing_is_accepted_after_the_timer() -> None:
    table, clock = make_table(betting_seconds=10)
    seat(table, "ann", 1)
    table.open_betting()
    table.choose_chip("ann", 5_000)
    table.add_chip("ann", P)
    clock.advance(10)
    assert table.phase is Phase.BETTING_OPEN  # the dealer has not closed yet
    for check in (lambda: table.add_chip("ann", P), lambda: table.confirm("ann")):
        with pytest.raises(BettingError, match="countdown has ended"):
            check()
    assert not table.can_confirm("ann")
    close(table, clock)
    assert dict(table.bets("ann")) == {}
    assert table.balance("ann") == 1_000_000


def test_l_confirm_checks_the_balance() -> None:
    table, _ = make_table()
    seat(table, "ann", 1, balance=3_000)
    table.open_betting()
    place(table, "ann", {P: 5_000}, confirm=False)
    before = len(table.events)
    with pytest.raises(TableBalanceError):
        table.confirm("ann")
    assert len(table.events) == before
    assert table.balance("ann") == 3_000


def test_l_confirm_checks_every_limit_of_the_player_tier() -> None:
    table, _ = make_table()
    table.join("ann", balance=10_000_000)
    table.sit("ann", 1, tier="low")
    table.join("bob", balance=10_000_000)
    table.sit("bob", 2, tier="high")
    table.open_betting()
    place(table, "ann", {P: 5_000})  # low: 10-1,000
    place(table, "bob", {P: 5_000}, confirm=False)  # high: 500-100,000
    with pytest.raises(BetLimitError, match=r"below this table's minimum of 500\.00$"):
        table.confirm("bob")


def test_l_chips_go_on_a_bet_area_only_up_to_the_table_limit() -> None:
    table, _ = make_table()
    table.join("ann", balance=10_000_000)
    table.sit("ann", 1, tier="low")  # low: Player 10-1,000
    table.open_betting()
    place(table, "ann", {P: 95_000})
    table.choose_chip("ann", 5_000)
    table.add_chip("ann", P)  # 1,000.00 on Player: exactly the maximum
    before = state_of(table)
    with pytest.raises(BetLimitError, match=r"above this table's maximum of 1,000\.00$") as refused:
        table.add_chip("ann", P)
    assert refused.value.limit == "player_max"
    assert state_of(table) == before
    with pytest.raises(BetLimitError, match=r"above this table's maximum of 1,000\.00$"):
        table.double("ann")
    assert state_of(table) == before
    assert table.confirm("ann").bets == {P: 100_000}


def test_l_rebet_puts_last_hands_confirmed_bets_back() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    table.open_betting()
    with pytest.raises(BettingError, match="no confirmed bets"):
        table.rebet("ann")
    close(table, clock)
    deal(table, "9S 8H KD KC")
    table.settle()
    play(table, clock, "9S 8H KD KC", {"ann": {P: 5_000, T: 1_000}})
    table.open_betting()
    table.rebet("ann")
    assert dict(table.pending("ann")) == {P: 5_000, T: 1_000}
    assert table.confirm("ann").debited == 6_000


def test_o_wait_for_me_extends_the_countdown_within_a_bound() -> None:
    table, clock = make_table(betting_seconds=15, wait_seconds=10, max_waits=2)
    for n, player in enumerate(("ann", "bob", "carl"), start=1):
        seat(table, player, n)
    table.open_betting()
    assert table.wait_for_me("ann").closes_at == 25
    with pytest.raises(BettingError, match="already asked"):
        table.wait_for_me("ann")
    assert table.wait_for_me("bob").closes_at == 35
    with pytest.raises(BettingError, match="extended 2 times"):
        table.wait_for_me("carl")
    clock.advance(30)
    place(table, "carl", {P: 5_000})  # still open thanks to the waits


def test_m14_imbalance_between_banker_and_player_bets() -> None:
    table, _ = make_table(preset("macau").replace(max_imbalance=20_000))
    for n, player in enumerate(("ann", "bob", "carl"), start=1):
        seat(table, player, n)
    table.open_betting()
    place(table, "ann", {B: 10_000})
    place(table, "bob", {B: 20_000}, confirm=False)
    with pytest.raises(BetLimitError, match=r"imbalance limit of 200\.00$"):
        table.confirm("bob")
    place(table, "carl", {P: 10_000})
    table.confirm("bob")  # Banker 30,000 against Player 10,000: within the limit


def test_m18_banker_bets_in_multiples_of_the_table_minimum() -> None:
    table, _ = make_table("macau")
    seat(table, "ann", 1)
    table.open_betting()
    place(table, "ann", {B: 1_500}, confirm=False)
    with pytest.raises(BetLimitError, match=r"multiple of the table minimum 10\.00$"):
        table.confirm("ann")


def test_s11_player_or_banker_not_both() -> None:
    table, _ = make_table("super_punto_banco")
    seat(table, "ann", 1)
    table.open_betting()
    place(table, "ann", {P: 5_000, B: 5_000}, confirm=False)
    with pytest.raises(BetCombinationError, match=r"Player or on Banker, not both"):
        table.confirm("ann")


def test_l_the_house_may_refuse_tiger_bets_to_a_main_bettor() -> None:
    table, _ = make_table(preset("live_tiger").replace(tiger_with_main=False))
    seat(table, "ann", 1)
    table.open_betting()
    place(table, "ann", {P: 5_000})
    place(table, "ann", {Bet.BIG_TIGER: 1_000}, confirm=False)  # a second confirm: same check
    before = (len(table.events), table.balance("ann"), dict(table.bets("ann")))
    with pytest.raises(BetCombinationError, match=r"Tiger side bets .* Player or Banker$"):
        table.confirm("ann")
    assert (len(table.events), table.balance("ann"), dict(table.bets("ann"))) == before


def test_o_big_small_and_super_tie_closed_from_the_31st_hand() -> None:
    table, clock = make_table("online_8deck", dealing=Dealing.RNG)
    seat(table, "ann", 1)
    for _ in range(30):
        play(table, clock)
    table.open_betting()
    assert table.game is not None
    assert table.game.hand == 31
    place(table, "ann", {Bet.BIG: 1_000}, confirm=False)
    with pytest.raises(BetClosedError, match=r"closed from hand 31 of the shoe"):
        table.confirm("ann")


# -- [M12] tie options ----------------------------------------------------------


def test_m12_tie_returns_main_bets_at_an_online_table() -> None:
    table, clock = make_table("online_8deck")
    seat(table, "ann", 1)
    settled = play(table, clock, TIE_CARDS, {"ann": {P: 10_000, T: 5_000}})
    assert settled.results[0].returned == 10_000 + 5_000 * 9
    assert table.money_in_play() == 0
    assert table.balance("ann") == 1_000_000 + 40_000


def test_m12_bets_stand_after_a_tie_and_may_be_switched() -> None:
    table, clock = make_table("macau")  # the Macau tie option: every change allowed
    seat(table, "ann", 1)
    settled = play(table, clock, TIE_CARDS, {"ann": {B: 10_000}})
    assert (settled.results[0].returned, dict(settled.results[0].standing)) == (0, {B: 10_000})
    assert table.money_in_play() == 10_000
    assert table.money_check()
    opened = table.open_betting()
    assert isinstance(opened, BettingOpened)
    assert [(p, dict(b)) for p, b in opened.standing] == [("ann", {B: 10_000})]
    assert table.can_leave("ann")  # leaving would take them back: they may be cancelled
    event = table.change_tie_bets("ann", {P: 10_000})
    assert (event.action, event.debited, event.credited) == (TieAction.SWITCH, 0, 0)
    close(table, clock)
    deal(table, "9S 8H KD KC")  # Player natural 9 wins
    settled = table.settle()
    assert settled.results[0].returned == 20_000
    assert table.balance("ann") == 1_000_000 + 10_000


@pytest.mark.parametrize(
    ("new", "action", "debited", "credited"),
    [
        ({}, TieAction.CANCEL, 0, 10_000),
        ({B: 10_000}, TieAction.KEEP, 0, 0),
        ({B: 20_000}, TieAction.RAISE, 10_000, 0),
        ({B: 5_000}, TieAction.LOWER, 0, 5_000),
    ],
)
def test_m12_macau_cancel_keep_raise_lower(
    new: dict[Bet, int], action: TieAction, debited: int, credited: int
) -> None:
    table, clock = make_table("macau")
    seat(table, "ann", 1)
    play(table, clock, TIE_CARDS, {"ann": {B: 10_000}})
    table.open_betting()
    event = table.change_tie_bets("ann", new)
    assert (event.action, event.debited, event.credited) == (action, debited, credited)
    assert table.money_in_play() == sum(new.values())
    assert table.money_check()


def test_m12_sjm_allows_only_keeping_or_raising() -> None:
    rules = preset("macau").replace(tie_policy=TIE_POLICIES["sjm"])
    table, clock = make_table(rules)
    seat(table, "ann", 1)
    play(table, clock, TIE_CARDS, {"ann": {B: 10_000}})
    table.open_betting()
    for forbidden in ({}, {P: 10_000}, {B: 5_000}):
        with pytest.raises(TieOptionError, match=r"keep, raise \[M12\]"):
            table.change_tie_bets("ann", forbidden)
    assert table.change_tie_bets("ann", {B: 20_000}).action is TieAction.RAISE


def test_limit_tiers_are_per_player() -> None:
    table, _ = make_table()
    table.join("ann", balance=1_000_000)
    table.sit("ann", 1, tier="low")
    table.join("bob", balance=1_000_000)
    table.sit("bob", 2, tier="standard")
    table.open_betting()
    place(table, "ann", {P: 1_000})
    place(table, "bob", {P: 1_000}, confirm=False)
    with pytest.raises(BetLimitError):
        table.confirm("bob")  # standard: 50 minimum


def test_a_failed_action_changes_nothing() -> None:
    table, _ = make_table()
    seat(table, "ann", 1, balance=2_000)
    table.open_betting()
    place(table, "ann", {P: 1_000})
    place(table, "ann", {P: 5_000}, confirm=False)
    snapshot = (len(table.events), table.balances, dict(table.bets("ann")), table.phase)
    failing: list[Callable[[], object]] = [
        lambda: table.confirm("ann"),
        lambda: table.settle(),
        lambda: table.deal_card(),
        lambda: table.sit("ann", 2),
        lambda: table.join("ann", balance=5),
        lambda: table.open_betting(),
    ]
    for action in failing:
        with pytest.raises(PuntoError):
            action()
        assert (len(table.events), table.balances, dict(table.bets("ann")), table.phase) == (
            snapshot
        )


def test_can_answers_for_a_stranger_without_raising() -> None:
    # every can_* of the betting round answers no for someone not at the table (the round's
    # quick "is betting open to them" test must not look them up as a participant)
    table, _ = make_table()
    table.open_betting()
    stranger = "zoe"
    assert not table.can_bet(stranger)
    assert not table.can_add_chip(stranger, Bet.PLAYER)
    assert not table.can_undo(stranger)
    assert not table.can_clear(stranger)
    assert not table.can_double(stranger)
    assert not table.can_rebet(stranger)
    assert not table.can_confirm(stranger)
    assert not table.can_wait_for_me(stranger)
    assert not table.can_fly(stranger)


def _offered() -> list[Bet]:
    rules = make_table()[0].rules
    offered = []
    for bet in Bet:
        try:
            rules.paytable_for(bet)
        except PuntoError:
            continue
        offered.append(bet)
    return offered


_AMOUNTS = st.integers(min_value=1, max_value=60).map(lambda n: n * 500)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    before=st.dictionaries(st.sampled_from(_offered()), _AMOUNTS, max_size=2),
    bets=st.dictionaries(st.sampled_from(_offered()), _AMOUNTS, min_size=1, max_size=3),
    balance=st.integers(min_value=0, max_value=80).map(lambda n: n * 1_000),
)
def test_l_a_confirm_with_bets_is_chips_then_a_confirm(
    before: dict[Bet, int], bets: dict[Bet, int], balance: int
) -> None:
    """One rule for both ways of betting: putting ``bets`` down chip by chip and
    confirming is accepted exactly when confirming them in one action is, and leaves the
    same bets, balance and confirm event (after the same earlier bets, if any)."""
    tables = []
    for _ in range(2):
        table, _clock = make_table()
        seat(table, "ann", 1, balance=balance + sum(before.values()))
        table.open_betting()
        if before:
            try:
                place(table, "ann", before)
            except PuntoError:
                return  # the earlier bets themselves break a rule: nothing to compare
        tables.append(table)
    clicked, placed = tables
    try:
        place(clicked, "ann", bets)
        by_chips = clicked.events[-1]
    except PuntoError:
        by_chips = None
    try:
        at_once = placed.confirm("ann", bets)
    except PuntoError:
        at_once = None
    assert (by_chips is None) == (at_once is None), (before, bets, balance)
    if by_chips is None or at_once is None:
        return
    assert isinstance(by_chips, BetsConfirmed)
    assert (dict(by_chips.added), dict(by_chips.bets), by_chips.debited) == (
        dict(at_once.added),
        dict(at_once.bets),
        at_once.debited,
    )
    assert clicked.balance("ann") == placed.balance("ann")
    assert dict(clicked.bets("ann")) == dict(placed.bets("ann"))
