"""[S14] Changes asked for during a hand: the table records them and makes them itself
when the hand ends (settled or void); between hands they take effect at once."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from table_support import close, deal, make_table, open_round, phase, seat

from punto.bets import Bet
from punto.cards import Card
from punto.errors import PhaseError, TableError
from punto.limits import LimitTier
from punto.rules_document import compose
from punto.table import Fault, ManualClock, Phase, Table
from punto.table.events import (
    BettingTimeChanged,
    ChangePending,
    Event,
    HandSettled,
    HandVoided,
    LimitsChanged,
    PauseCalledOff,
    PauseRequested,
    PendingChange,
    RulesChanged,
    TablePaused,
    TableResumed,
)
from punto.table.reasons import Why

P = Bet.PLAYER
LOW = LimitTier(name="low", min_bet=20_000, max_bet=200_000, side_min=500, side_max=25_000)
ODD = LimitTier(name="odd", min_bet=1_000, max_bet=2_000, side_min=500, side_max=1_000)


_End = Callable[[Table], None]


def _mid_hand() -> tuple[Table, ManualClock]:
    """A live table with ann seated and a hand dealing."""
    table, clock = make_table()
    seat(table, "ann", 1)
    open_round(table, {"ann": {P: 5_000}})
    close(table, clock)
    table.deal_card(Card.parse("9S"))
    assert table.phase is Phase.DEALING
    return table, clock


def _settle(table: Table) -> None:
    deal(table, "8H KD KC")
    table.settle()


def _void(table: Table) -> None:
    table.deal_card(Card.parse("8H"))
    table.report_fault(Fault.M10_MISDEAL_VOID)


def _kinds_after(table: Table, start: int) -> list[str]:
    return [e.kind for e in table.events[start:]]


def _last(table: Table, cls: type[Event]) -> Event:
    return next(e for e in reversed(table.events) if isinstance(e, cls))


# -- the pause --------------------------------------------------------------------------


@pytest.mark.parametrize("end", [_settle, _void], ids=["settled", "void"])
def test_s14_a_pause_asked_for_mid_hand_is_taken_when_the_hand_ends(
    end: _End,
) -> None:
    table, _ = _mid_hand()
    asked = table.request_pause("count")
    assert isinstance(asked, PauseRequested)
    assert asked.reason == Why.typed("count")
    assert table.phase is Phase.DEALING  # the hand goes on
    assert table.pending_changes.pause == Why.typed("count")
    start = len(table.events)
    end(table)
    kinds = _kinds_after(table, start)
    ended = "hand_settled" if end is _settle else "hand_voided"
    assert kinds.index(ended) < kinds.index("table_paused") == len(kinds) - 1
    assert phase(table) is Phase.PAUSED
    paused = _last(table, TablePaused)
    assert isinstance(paused, TablePaused)
    assert paused.reason == Why.typed("count")
    assert not table.pending_changes.any
    assert isinstance(table.resume(), TableResumed)
    assert phase(table) is Phase.SETTLED


def test_s14_a_pause_between_hands_is_taken_at_once() -> None:
    table, _ = make_table()
    event = table.request_pause("break")
    assert isinstance(event, TablePaused)
    assert table.phase is Phase.PAUSED
    with pytest.raises(PhaseError):
        table.request_pause("again")  # paused already
    assert not table.can_request_pause()


def test_s14_resume_calls_off_a_pause_only_asked_for() -> None:
    table, _ = _mid_hand()
    assert not table.can_resume()
    table.request_pause("count")
    assert table.can_resume()
    called_off = table.resume()
    assert isinstance(called_off, PauseCalledOff)
    assert table.pending_changes.pause is None
    _settle(table)
    assert phase(table) is Phase.SETTLED  # no pause
    assert not any(isinstance(e, TablePaused) for e in table.events)


def test_s14_a_closed_table_refuses_the_requests() -> None:
    table, _ = _mid_hand()
    table.request_pause("count")
    table.close_table()
    assert not table.pending_changes.any
    assert not table.can_request_pause()
    assert not table.can_change_limits([LOW])
    assert not table.can_change_betting_time(20.0)
    assert not table.can_change_rules(table.rules, version=2)


# -- limits and betting time -----------------------------------------------------------


@pytest.mark.parametrize("end", [_settle, _void], ids=["settled", "void"])
def test_s14_limits_asked_for_mid_hand_apply_when_the_hand_ends(
    end: _End,
) -> None:
    table, _ = _mid_hand()
    waiting = table.change_limits([LOW])
    assert isinstance(waiting, ChangePending)
    assert (waiting.change, waiting.tiers) == (PendingChange.LIMITS, (LOW,))
    assert table.rules.limit_tiers != (LOW,)
    end(table)
    changed = table.events[-1]
    assert isinstance(changed, LimitsChanged)
    assert changed.tiers == (LOW,)
    assert table.rules.limit_tiers == (LOW,)
    assert table.pending_changes.limits is None


def test_s14_limits_between_hands_apply_at_once() -> None:
    table, _ = make_table()
    assert isinstance(table.change_limits([LOW]), LimitsChanged)
    assert table.rules.limit_tiers == (LOW,)
    with pytest.raises(TableError):
        table.change_limits([])


def test_s14_limits_wait_while_a_seated_players_tier_would_go() -> None:
    table, _ = make_table()
    seat(table, "ann", 1)  # on the low tier
    waiting = table.change_limits([ODD])
    assert isinstance(waiting, ChangePending)
    assert table.pending_changes.limits == (ODD,)
    table.leave("ann")  # nobody plays on it now: the table makes the change
    assert isinstance(table.events[-1], LimitsChanged)
    assert table.rules.limit_tiers == (ODD,)


@pytest.mark.parametrize("end", [_settle, _void], ids=["settled", "void"])
def test_s14_betting_time_asked_for_mid_hand_applies_when_the_hand_ends(
    end: _End,
) -> None:
    table, _ = _mid_hand()
    before = table.settings.betting_seconds
    waiting = table.change_betting_time(before + 5)
    assert isinstance(waiting, ChangePending)
    assert (waiting.change, waiting.seconds) == (PendingChange.BETTING_TIME, before + 5)
    assert table.settings.betting_seconds == before
    end(table)
    changed = table.events[-1]
    assert isinstance(changed, BettingTimeChanged)
    assert changed.seconds == before + 5
    assert table.settings.betting_seconds == before + 5


def test_s14_betting_time_between_hands_or_paused_applies_at_once() -> None:
    table, clock = make_table()
    assert isinstance(table.change_betting_time(20.0), BettingTimeChanged)
    table.pause()
    assert isinstance(table.change_betting_time(25.0), BettingTimeChanged)
    table.resume()
    opened = table.open_betting()
    assert opened.closes_at == clock.now() + 25.0
    assert isinstance(table.change_betting_time(30.0), ChangePending)  # betting is open
    with pytest.raises(TableError):
        table.change_betting_time(0)


# -- rules ------------------------------------------------------------------------------


def test_s14_rules_wait_for_the_shoe_and_replace_a_waiting_limit_change() -> None:
    table, _ = _mid_hand()
    newer = compose("macau", {"demo_hands": 2})
    assert isinstance(table.change_limits([LOW]), ChangePending)
    waiting = table.change_rules(newer, version=2)
    assert isinstance(waiting, ChangePending)
    assert (waiting.change, waiting.rules, waiting.version) == (PendingChange.RULES, "macau", 2)
    _settle(table)  # the hand ends, the shoe does not: the limits apply, the rules wait
    assert isinstance(table.events[-1], LimitsChanged)
    assert table.pending_changes.rules is not None
    table.change_limits([ODD])  # between hands, ann on low: waits
    assert table.pending_changes.limits == (ODD,)
    start = len(table.events)
    table.change_shoe()  # the shoe ends: the rules apply, and replace the limit change
    assert _kinds_after(table, start) == ["shoe_closed", "rules_changed"]
    changed = table.events[-1]
    assert isinstance(changed, RulesChanged)
    assert changed.version == 2
    assert table.settings.rules_version == 2
    assert not table.pending_changes.any
    assert table.rules.limit_tiers == newer.limit_tiers


def test_s14_rules_with_no_shoe_in_play_apply_at_once() -> None:
    table, _ = make_table(start=False)
    changed = table.change_rules(compose("macau", {"demo_hands": 2}), version=3)
    assert isinstance(changed, RulesChanged)
    assert table.settings.rules_version == 3


def test_s14_rules_waiting_while_paused_apply_when_the_table_resumes() -> None:
    table, _ = make_table()
    table.change_shoe()
    table.pause()
    waiting = table.change_rules(compose("macau", {"demo_hands": 2}), version=2)
    assert isinstance(waiting, ChangePending)  # paused: no rules change
    table.resume()
    assert isinstance(table.events[-1], RulesChanged)
    assert table.settings.rules_version == 2


def test_s14_a_pause_and_changes_asked_for_together_change_first_then_pause() -> None:
    table, _ = _mid_hand()
    table.change_limits([LOW])
    table.change_betting_time(20.0)
    table.request_pause("count")
    start = len(table.events)
    _settle(table)
    kinds = _kinds_after(table, start)
    assert kinds[-3:] == ["limits_changed", "betting_time_changed", "table_paused"]
    assert any(isinstance(e, HandSettled) for e in table.events[start:])
    assert not any(isinstance(e, HandVoided) for e in table.events[start:])
    assert table.money_check()
