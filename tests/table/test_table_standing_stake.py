"""[M12] Standing bets that wait for the house's stake: at a table whose wallet is the
operator's (``TableSettings.standing_awaits_stake``), the main bets a tie left standing
stay on the layout when the next hand opens, but wait for the server to stake them again
(the operator's debit, made without holding the table): :meth:`Table.stake_standing` once
it is made, :meth:`Table.return_standing` when it is refused; those still waiting when
betting closes go back to their player. Pure: tables with a manual clock."""

from __future__ import annotations

import pytest
from table_support import close, deal, make_table, play, seat

from punto.bets import Bet
from punto.errors import BettingError, PhaseError
from punto.rules import preset
from punto.table import Action, Table, Viewer
from punto.table.events import BettingClosed, TieBetsChanged
from punto.table.reasons import Reason, Why
from punto.tie_options import TIE_POLICIES, TieAction, TiePolicy

B, P = Bet.BANKER, Bet.PLAYER
TIE_CARDS = "4S 4H 5D 5C"  # Player 9, Banker 9: a natural tie
LATE = Why(Reason.STANDING_NOT_STAKED)


def _after_a_tie(*, awaits: bool = True, rules: str = "macau") -> Table:
    """Ann (Banker 10,000) and bob (Player 5,000) after a tie, the next hand open."""
    table, clock = make_table(rules, standing_awaits_stake=awaits)
    seat(table, "ann", 1)
    seat(table, "bob", 2)
    play(table, clock, TIE_CARDS, {"ann": {B: 10_000}, "bob": {P: 5_000}})
    table.open_betting()
    return table


def test_m12_standing_bets_wait_for_their_stake_and_stay_once_staked() -> None:
    table = _after_a_tie()
    assert table.can_stake_standing("ann")
    assert table.can_stake_standing("bob")
    event = table.stake_standing("ann")
    assert isinstance(event, TieBetsChanged)
    assert (event.action, event.debited, event.credited) == (TieAction.KEEP, 0, 0)
    assert dict(event.bets) == {B: 10_000}
    assert event.reason == Why(Reason.STANDING_STAKED)
    assert not table.can_stake_standing("ann")  # once
    with pytest.raises(BettingError, match=r"waiting for their stake \[M12\]"):
        table.stake_standing("ann")
    assert table.money_in_play() == 15_000
    assert table.money_check()


def test_m12_standing_bets_still_waiting_when_betting_closes_go_back() -> None:
    table = _after_a_tie()
    table.stake_standing("ann")
    start = table.event_count
    table.close_betting()
    returned, closed = table.events[start:]
    assert isinstance(returned, TieBetsChanged)
    assert isinstance(closed, BettingClosed)
    assert (returned.player, returned.action) == ("bob", TieAction.CANCEL)
    assert (returned.credited, dict(returned.bets), returned.reason) == (5_000, {}, LATE)
    assert table.bets("bob") == {}
    assert table.bets("ann") == {B: 10_000}
    assert table.balance("bob") == 1_000_000  # the tie pushed: nothing lost
    assert table.money_in_play() == 10_000
    assert table.money_check()


def test_m12_a_refused_stake_returns_the_bets_whatever_the_tie_option() -> None:
    """The house's return is not the player's cancel: a tie option that forbids
    cancelling (SJM: keep or raise) still gets back bets no wallet staked."""
    rules = preset("macau").replace(tie_policy=TIE_POLICIES["sjm"])
    table, clock = make_table(rules, standing_awaits_stake=True)
    seat(table, "ann", 1)
    play(table, clock, TIE_CARDS, {"ann": {B: 10_000}})
    table.open_betting()
    assert not table.can_change_tie_bets("ann", {})
    event = table.return_standing("ann", LATE)
    assert (event.action, event.credited, event.reason) == (TieAction.CANCEL, 10_000, LATE)
    assert not table.can_return_standing("ann")
    assert table.money_in_play() == 0
    assert table.money_check()


def test_m12_only_the_standing_part_goes_back_when_more_was_confirmed_on_it() -> None:
    table = _after_a_tie()
    table.confirm("ann", {B: 2_000, Bet.TIE: 1_000})  # more while the stake is on its way
    table.return_standing("ann", LATE)
    assert table.bets("ann") == {B: 2_000, Bet.TIE: 1_000}
    assert table.money_in_play() == 5_000 + 3_000
    assert table.money_check()


def test_m12_a_leave_ends_the_wait_and_a_change_waits_for_its_own_stake() -> None:
    table = _after_a_tie()
    table.stake_standing("ann")
    table.change_tie_bets("ann", {B: 20_000})  # staked anew by the house, later
    assert table.can_stake_standing("ann")
    assert not table.can_change_tie_bets("ann", {B: 30_000})  # one change a hand
    table.leave("bob")  # takes the standing bets back [M12]
    assert not table.can_stake_standing("bob")
    event = table.stake_standing("ann")
    assert (event.action, dict(event.bets), event.reason) == (
        TieAction.KEEP,
        {B: 20_000},
        Why(Reason.STANDING_STAKED),
    )
    start = table.event_count
    table.close_betting()
    assert [type(e) for e in table.events[start:]] == [BettingClosed]
    assert table.bets("ann") == {B: 20_000}
    assert table.money_check()


def test_m12_bets_changed_where_the_house_stakes_wait_for_it_as_a_whole() -> None:
    """The server gives a changed player's old stake back whole and stakes the changed
    bets anew, outside the table's lock: every bet of theirs on the hand waits for that
    stake, and goes back whole when it is refused or too late."""
    table = _after_a_tie()
    table.stake_standing("ann")
    table.confirm("ann", {Bet.TIE: 1_000})  # more on top of the standing bet
    changed = table.change_tie_bets("ann", {P: 4_000})
    assert (changed.action, changed.debited, changed.credited) == (TieAction.SWITCH, 0, 6_000)
    assert table.bets("ann") == {P: 4_000, Bet.TIE: 1_000}
    assert table.money_in_play() == 5_000 + 5_000
    event = table.return_standing("ann", LATE)
    assert (event.action, event.credited, dict(event.bets)) == (TieAction.CANCEL, 5_000, {})
    assert table.bets("ann") == {}
    assert table.balance("ann") == 1_000_000  # the tie pushed, the rest came back
    assert not table.can_return_standing("ann")
    assert table.money_in_play() == 5_000
    assert table.money_check()
    # still waiting when betting closes: back likewise
    later = _after_a_tie()
    later.stake_standing("ann")
    later.change_tie_bets("ann", {B: 12_000})
    start = later.event_count
    later.close_betting()
    returned = [e for e in later.events[start:] if isinstance(e, TieBetsChanged)]
    assert [(e.player, e.credited, e.reason) for e in returned] == [
        ("ann", 12_000, LATE),
        ("bob", 5_000, LATE),
    ]
    assert later.money_in_play() == 0
    assert later.money_check()


def test_m12_without_the_setting_standing_bets_are_staked_with_the_opening() -> None:
    table = _after_a_tie(awaits=False)
    assert not table.can_stake_standing("ann")
    with pytest.raises(BettingError):
        table.stake_standing("ann")
    start = table.event_count
    table.close_betting()
    assert [type(e) for e in table.events[start:]] == [BettingClosed]
    assert table.bets("ann") == {B: 10_000}
    assert table.bets("bob") == {P: 5_000}
    # the house may still return bets the ledger refused (the internal wallet moved)
    table2 = _after_a_tie(awaits=False)
    assert table2.return_standing("ann", LATE).credited == 10_000
    # a change is staked by the server with the change: nothing waits
    table3 = _after_a_tie(awaits=False)
    table3.change_tie_bets("ann", {B: 20_000})
    assert not table3.can_stake_standing("ann")
    assert not table3.can_return_standing("ann")


def test_m12_stake_and_return_only_while_betting_is_open() -> None:
    table, clock = make_table("macau", standing_awaits_stake=True)
    seat(table, "ann", 1)
    play(table, clock, TIE_CARDS, {"ann": {B: 10_000}})
    with pytest.raises(PhaseError):
        table.stake_standing("ann")
    with pytest.raises(PhaseError):
        table.return_standing("ann", LATE)
    table.open_betting()
    table.stake_standing("ann")
    close(table, clock)
    deal(table, "9S 8H KD KC")  # Player natural 9: Banker loses
    assert table.settle().results[0].settlement.total_net == -10_000
    assert table.money_check()


@pytest.mark.parametrize("awaits", [False, True])
def test_m12_the_change_is_a_legal_action_once_a_hand_while_a_change_is_allowed(
    awaits: bool,
) -> None:
    """``change_tie_bets`` is among a player's legal actions while their standing bets
    are on the layout, betting is open and the tie option allows some change; a change
    ends it (the client shows the tie option from it, restating no rule)."""
    table = _after_a_tie(awaits=awaits)
    legal = table.legal_actions(Viewer.PLAYER, "ann")
    assert Action.CHANGE_TIE_BETS in legal
    if awaits:
        table.stake_standing("ann")
    assert table.can_change_standing("ann") == table.can_change_tie_bets("ann", {P: 1_000})
    table.change_tie_bets("ann", {P: 1_000})
    assert Action.CHANGE_TIE_BETS not in table.legal_actions(Viewer.PLAYER, "ann")
    assert not table.can_change_standing("ann")
    assert Action.CHANGE_TIE_BETS in table.legal_actions(Viewer.PLAYER, "bob")
    table.close_betting()
    assert not table.can_change_standing("bob")
    # a tie option that allows only keeping them: nothing to change
    rules = preset("macau").replace(
        tie_policy=TiePolicy("keep", stand=True, allowed=frozenset({TieAction.KEEP}))
    )
    keep, clock = make_table(rules)
    seat(keep, "ann", 1)
    play(keep, clock, TIE_CARDS, {"ann": {B: 10_000}})
    keep.open_betting()
    assert keep.bets("ann") == {B: 10_000}
    assert Action.CHANGE_TIE_BETS not in keep.legal_actions(Viewer.PLAYER, "ann")
