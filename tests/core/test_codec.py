"""The typed wire: every event and error has a pinned wire name, and every event
round-trips through :mod:`punto.codec` (what a server sends and stores it can read back).

A renamed class must not change the protocol or the stored hand records: the tables below
are the protocol's names (docs/protocol.md), written out by hand on purpose.
"""

from __future__ import annotations

import enum
import json
import typing
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType, UnionType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from punto import errors
from punto.bets import Bet
from punto.cards import Card
from punto.codec import (
    EVENT_CLASSES,
    event_from_json,
    event_json,
    jsonable,
    outcome_from_json,
    outcome_json,
)
from punto.errors import BetLimitError, ProtocolError, PuntoError, RemoteError
from punto.ledger import wallet
from punto.limits import LimitTier
from punto.outcome import Outcome
from punto.settlement import BetResult, Settlement
from punto.shoe import ShoeReveal
from punto.table import events
from punto.table.fault_catalogue import Fault
from punto.table.reasons import Reason, Why
from punto.table.records import GameNumber, PlayerResult

EVENT_NAMES: dict[type[Any], str] = {
    events.TableOpened: "table_opened",
    events.TablePaused: "table_paused",
    events.TableResumed: "table_resumed",
    events.PauseRequested: "pause_requested",
    events.PauseCalledOff: "pause_called_off",
    events.TableClosed: "table_closed",
    events.DealerChanged: "dealer_changed",
    events.LimitsChanged: "limits_changed",
    events.RulesChanged: "rules_changed",
    events.BettingTimeChanged: "betting_time_changed",
    events.ChangePending: "change_pending",
    events.VipSettingsChanged: "vip_settings_changed",
    events.ShoeOpened: "shoe_opened",
    events.CardsBurned: "cards_burned",
    events.DemoHandDealt: "demo_hand_dealt",
    events.CutCardOut: "cut_card_out",
    events.ShoeClosed: "shoe_closed",
    events.PlayerJoined: "player_joined",
    events.BalanceTransferred: "balance_transferred",
    events.PlayerSat: "player_sat",
    events.PlayerWatching: "player_watching",
    events.PlayerStood: "player_stood",
    events.PlayerConnection: "player_connection",
    events.PlayerLeft: "player_left",
    events.BettingOpened: "betting_opened",
    events.SideBetsClosed: "side_bets_closed",
    events.LightningDrawn: "lightning_drawn",
    events.BettingExtended: "betting_extended",
    events.OpenCardsRequested: "open_cards_requested",
    events.ChipChosen: "chip_chosen",
    events.ChipAdded: "chip_added",
    events.ChipsUndone: "chips_undone",
    events.BetsCleared: "bets_cleared",
    events.BetsDoubled: "bets_doubled",
    events.RebetPlaced: "rebet_placed",
    events.BetsConfirmed: "bets_confirmed",
    events.TieBetsChanged: "tie_bets_changed",
    events.BettingClosed: "betting_closed",
    events.BlankHandStarted: "blank_hand_started",
    events.CardsHeld: "cards_held",
    events.CardPlaced: "card_placed",
    events.CardsRevealed: "cards_revealed",
    events.HandRestarted: "hand_restarted",
    events.HandResult: "hand_result",
    events.HandSettled: "hand_settled",
    events.BetsRefunded: "bets_refunded",
    events.HandVoided: "hand_voided",
    events.HandResettled: "hand_resettled",
    events.FaultReported: "fault_reported",
}

ERROR_NAMES: dict[type[PuntoError], str] = {
    errors.PuntoError: "punto",
    errors.TransportError: "transport",
    errors.MissingExtraError: "missing_extra",
    errors.CardError: "card",
    errors.RulesError: "rules",
    errors.PresetError: "preset",
    errors.NegativeEdgeError: "negative_edge",
    errors.ShoeError: "shoe",
    errors.ShoeExhaustedError: "shoe_exhausted",
    errors.CoupError: "coup",
    errors.TableauError: "tableau",
    errors.IncompleteCoupError: "incomplete_coup",
    errors.BetError: "bet",
    errors.UnknownBetError: "unknown_bet",
    errors.BetNotOfferedError: "bet_not_offered",
    errors.AmountError: "amount",
    errors.BetLimitError: "bet_limit",
    errors.BetCombinationError: "bet_combination",
    errors.BetClosedError: "bet_closed",
    errors.PaytableError: "paytable",
    errors.TieOptionError: "tie_option",
    errors.RoadError: "road",
    errors.LedgerError: "ledger",
    errors.UnbalancedTransactionError: "unbalanced_transaction",
    errors.IdempotencyConflictError: "idempotency_conflict",
    errors.InsufficientFundsError: "insufficient_funds",
    errors.RoundStateError: "round_state",
    errors.WalletError: "wallet",
    errors.WalletRolledBackError: "wallet_rolled_back",
    errors.WalletUnavailableError: "wallet_unavailable",
    errors.WalletCurrencyError: "wallet_currency",
    errors.AmountUnitsError: "amount_units",
    errors.CompositionError: "composition",
    errors.CardNotInShoeError: "card_not_in_shoe",
    errors.SimulationError: "simulation",
    errors.TableError: "table",
    errors.PhaseError: "phase",
    errors.SeatError: "seat",
    errors.AccessError: "access",
    errors.BettingError: "betting",
    errors.TableBalanceError: "table_balance",
    errors.SqueezeError: "squeeze",
    errors.FaultError: "fault",
    errors.ServerError: "server",
    errors.ProtocolError: "bad_message",
    errors.AuthError: "unauthorized",
    errors.ForbiddenError: "forbidden",
    errors.NotFoundError: "not_found",
    errors.NoVideoError: "no_video",
    errors.ChatError: "chat",
    errors.TooManyTablesError: "too_many_tables",
    errors.VideoGoneError: "video_gone",
    errors.ConflictError: "conflict",
    errors.UnavailableError: "unavailable",
    errors.RateLimitedError: "rate_limited",
    errors.ReaderError: "card_reader",
    errors.RemoteError: "remote",
    errors.JurisdictionError: "jurisdiction",
}


def test_every_event_class_has_its_pinned_wire_name() -> None:
    assert set(EVENT_NAMES) == set(EVENT_CLASSES)
    for cls, name in EVENT_NAMES.items():
        assert cls.__dict__["kind"] == name, cls.__name__  # declared, never inherited


def test_event_wire_names_are_unique() -> None:
    assert len(set(EVENT_NAMES.values())) == len(EVENT_NAMES)


def _subclasses(cls: type[PuntoError]) -> set[type[PuntoError]]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def test_every_error_class_has_its_pinned_wire_name() -> None:
    public = {cls for cls in _subclasses(PuntoError) if cls.__module__ == "punto.errors"}
    assert set(ERROR_NAMES) == public | {PuntoError}
    for cls, name in ERROR_NAMES.items():
        assert cls.__dict__["kind"] == name, cls.__name__


def test_every_error_class_anywhere_declares_its_own_wire_name() -> None:
    assert wallet  # imported so that its private error class is counted
    for cls in _subclasses(PuntoError):
        assert "kind" in cls.__dict__, cls.__qualname__
    assert len(set(ERROR_NAMES.values())) == len(ERROR_NAMES)


def test_error_code_reads_the_declared_name() -> None:
    from punto.server.fanout.protocol import error_code

    assert error_code(ProtocolError("x")) == "bad_message"
    assert error_code(BetLimitError("x", limit="max", value=1)) == "bet_limit"
    assert error_code(RemoteError("x", code="seat")) == "seat"
    assert error_code(RuntimeError("x")) == "internal"


@pytest.mark.parametrize(
    "cls",
    [
        errors.AuthError,
        errors.UnavailableError,
        errors.RateLimitedError,
        errors.ReaderError,
        errors.WalletError,
        errors.WalletUnavailableError,
        errors.WalletRolledBackError,
        errors.WalletCurrencyError,
    ],
)
def test_transport_errors_are_not_value_errors(cls: type[PuntoError]) -> None:
    assert issubclass(cls, errors.TransportError)
    assert not issubclass(cls, ValueError)


def test_every_other_error_is_a_value_error() -> None:
    for cls in ERROR_NAMES:
        if cls not in (PuntoError, errors.TransportError, errors.MissingExtraError):
            assert issubclass(cls, ValueError) != issubclass(cls, errors.TransportError), cls


# -- every event round-trips --------------------------------------------------------

_CARDS = [Card.parse(rank + suit) for rank in "A23456789TJQK" for suit in "SHDC"]
_CARD = st.sampled_from(_CARDS)
_HAND = st.lists(_CARD, min_size=2, max_size=3)
_AMOUNT = st.integers(min_value=-(10**12), max_value=10**12)
_TEXT = st.text(max_size=12)


def _tier(low: int, spread: int, name: str, bets: dict[Bet, tuple[int, int]]) -> LimitTier:
    return LimitTier(
        name=name,
        min_bet=low,
        max_bet=low + spread,
        side_min=low,
        side_max=low + spread,
        bet_limits=bets,
    )


_RANGE = st.tuples(st.integers(1, 10**6), st.integers(0, 10**6)).map(lambda p: (p[0], sum(p)))
_VALUES: dict[Any, st.SearchStrategy[Any]] = {
    int: _AMOUNT,
    float: st.floats(allow_nan=False, allow_infinity=False),
    str: _TEXT,
    bool: st.booleans(),
    Card: _CARD,
    GameNumber: st.builds(
        GameNumber,
        table=st.text("AbZ-_7", min_size=1, max_size=8),
        shoe=st.integers(0, 99_999),
        hand=st.integers(0, 99_999),
    ),
    Outcome: st.builds(Outcome.from_hands, _HAND, _HAND),
    Settlement: st.builds(
        Settlement,
        st.lists(
            st.builds(
                BetResult,
                st.sampled_from(list(Bet)),
                st.integers(0, 10**9),
                _TEXT,
                st.fractions(max_denominator=1000),
                _AMOUNT,
            ),
            max_size=3,
        ).map(tuple),
    ),
    LimitTier: st.builds(
        _tier,
        st.integers(1, 10**6),
        st.integers(0, 10**6),
        st.text(min_size=1, max_size=8),
        st.dictionaries(st.sampled_from(list(Bet)), _RANGE, max_size=2),
    ),
    ShoeReveal: st.builds(
        ShoeReveal, order=st.lists(_CARD, max_size=8).map(tuple), salt=st.text("0123456789abcdef")
    ),
}
_VALUES[PlayerResult] = st.builds(
    PlayerResult,
    player=_TEXT,
    settlement=_VALUES[Settlement],
    returned=_AMOUNT,
    standing=st.dictionaries(st.sampled_from(list(Bet)), _AMOUNT, max_size=3).map(MappingProxyType),
)
_VALUES[Why] = st.builds(
    Why,
    st.sampled_from(list(Reason)),
    st.dictionaries(st.sampled_from(["rule", "by", "game", "text"]), _TEXT, max_size=2),
)


def _values(hint: Any) -> st.SearchStrategy[Any]:
    """Any value of an event field's type."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is UnionType or origin is typing.Union:
        return st.one_of([_values(arg) for arg in args])
    if hint is type(None):
        return st.none()
    if hint in _VALUES:
        return _VALUES[hint]
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return st.sampled_from(list(hint))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(_values(args[0]), max_size=3).map(tuple)
    if origin is tuple:
        return st.tuples(*(_values(arg) for arg in args))
    if origin is Mapping:
        return st.dictionaries(_values(args[0]), _values(args[1]), max_size=3).map(MappingProxyType)
    raise AssertionError(f"no strategy for {hint!r}")


def _events_of(cls: type[Any]) -> st.SearchStrategy[Any]:
    hints = typing.get_type_hints(cls, vars(events))
    fields = {name: _values(hint) for name, hint in hints.items() if name != "kind"}
    return st.builds(cls, **fields)


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=lambda cls: cls.__name__)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_every_event_round_trips_through_json(cls: type[Any], data: st.DataObject) -> None:
    event = data.draw(_events_of(cls))
    sent = json.loads(json.dumps(event_json(event)))
    assert sent["kind"] == EVENT_NAMES[cls]
    assert event_from_json(sent) == event


def test_a_reason_travels_as_a_code_with_parameters() -> None:
    burn = events.CardsBurned(
        at=1.0, shoe=2, count=1, cards=None, reason=Why(Reason.DISCARDED, {"rule": "S2"})
    )
    sent = event_json(burn)
    assert (sent["reason"], sent["reason_params"]) == ("discarded", {"rule": "S2"})
    settled = events.HandSettled(
        at=1.0, game=GameNumber("t", 1, 2), results=(), void_reason=None, last=False
    )
    assert (event_json(settled)["void_reason"], event_json(settled)["void_reason_params"]) == (
        None,
        {},
    )


@pytest.mark.parametrize(
    ("old", "why"),
    [
        ("start [M2]", Why(Reason.BURN_START)),
        ("mid_shoe [M8]", Why(Reason.BURN_MID_SHOE)),
        ("blank hand [S3]", Why(Reason.BLANK_HAND)),
        ("discarded [S2]", Why(Reason.DISCARDED, {"rule": "S2"})),
        ("last hand [M3]", Why(Reason.LAST_HAND)),
        ("changed by the owner ann [O]", Why(Reason.CHANGED_BY_OWNER, {"by": "ann"})),
        ("play at another table", Why(Reason.OTHER_TABLE)),
        ("no seated player is left [O]", Why(Reason.NO_SEATED_PLAYER)),
        ("void of macau-1-001-002", Why(Reason.VOID_OF, {"game": "macau-1-001-002"})),
        (
            f"{Fault.S7_CARD_COUNT_VOID.spec.case} {Fault.S7_CARD_COUNT_VOID.spec.rule}",
            Why(Reason.FAULT, {"fault": "s7_card_count_void", "rule": "S7"}),
        ),
        ("the dealer needed a break", Why.typed("the dealer needed a break")),
        ("", Why.typed("")),
    ],
)
def test_a_stored_record_with_an_english_reason_is_read_as_its_code(old: str, why: Why) -> None:
    """Hand records stored before the reason codes still read (a sentence the server did
    not write stays typed text)."""
    stored = {"kind": "hand_voided", "at": 1.0, "game": "t-001-002", "reason": old}
    assert event_from_json(stored) == events.HandVoided(
        at=1.0, game=GameNumber("t", 1, 2), reason=why
    )


def test_an_old_void_reason_of_a_settled_hand_is_read() -> None:
    stored = {
        "kind": "hand_settled",
        "at": 1.0,
        "game": "t-001-002",
        "results": [],
        "void_reason": "",
        "last": False,
    }
    assert event_from_json(stored).void_reason is None  # type: ignore[union-attr]
    stored["void_reason"] = "[S5] minimum seven cards or void: 5 cards left in the shoe"
    assert event_from_json(stored).void_reason == Why(Reason.SEVEN_CARDS_OR_VOID)  # type: ignore[union-attr]


def test_bad_reason_parameters_are_refused() -> None:
    stored = {
        "kind": "hand_voided",
        "at": 1.0,
        "game": "t-001-002",
        "reason": "void_of",
        "reason_params": {"game": 7},
    }
    with pytest.raises(ProtocolError, match="reason"):
        event_from_json(stored)


def test_an_unknown_or_incomplete_event_is_refused() -> None:
    with pytest.raises(ProtocolError, match="unknown event kind"):
        event_from_json({"kind": "card_teleported", "at": 1.0})
    with pytest.raises(ProtocolError, match="chip: missing"):
        event_from_json({"kind": "chip_chosen", "at": 1.0, "player": "ann"})
    with pytest.raises(ProtocolError, match="chip: expected a whole number"):
        event_from_json({"kind": "chip_chosen", "at": 1.0, "player": "ann", "chip": "5"})


def test_table_opened_names_the_table_kind_apart_from_the_event_kind() -> None:
    assert "kind_of_table" in events.TableOpened.__dataclass_fields__


@given(player=_HAND, banker=_HAND)
def test_the_one_outcome_codec_round_trips(player: list[Card], banker: list[Card]) -> None:
    outcome = Outcome.from_hands(player, banker)
    assert outcome_from_json(json.loads(json.dumps(outcome_json(outcome)))) == outcome
    assert outcome.as_dict() == {**outcome_json(outcome), "cards_used": outcome.cards_used}


def test_odds_survive_exactly() -> None:
    settlement = Settlement((BetResult(Bet.BANKER, 100, "win", Fraction(19, 20), 95),))
    result = PlayerResult(player="ann", settlement=settlement, returned=195)
    event = events.HandSettled(
        at=1.0,
        game=GameNumber("T1", 1, 1),
        results=(result,),
        void_reason=None,
        last=False,
    )
    back = event_from_json(json.loads(json.dumps(event_json(event))))
    assert isinstance(back, events.HandSettled)
    assert back.results[0].settlement.results[0].odds == Fraction(19, 20)


def test_m12_a_tie_change_stored_before_its_reason_reads_as_the_players_own() -> None:
    """``tie_bets_changed`` gained ``reason`` (the table's act [M12]); a hand record saved
    before it has none and reads back as the player's own change, not a typed reason."""
    stored = {
        "kind": "tie_bets_changed",
        "at": 1.0,
        "game": "T1-001-002",
        "player": "ann",
        "action": "raise",
        "bets": {"banker": 3000},
        "debited": 1000,
        "credited": 0,
    }
    event = event_from_json(stored)
    assert isinstance(event, events.TieBetsChanged)
    assert event.reason is None
    staked = events.TieBetsChanged(
        at=1.0,
        game=GameNumber.parse("T1-001-002"),
        player="ann",
        action=event.action,
        bets=event.bets,
        debited=0,
        credited=0,
        reason=Why(Reason.STANDING_STAKED),
    )
    assert event_from_json(event_json(staked)) == staked
    with pytest.raises(ProtocolError, match="debited: missing"):
        event_from_json({k: v for k, v in stored.items() if k != "debited"})


def test_jsonable_encodes_by_type_and_refuses_what_it_does_not_know_every_time() -> None:
    """Each type's encoding is looked up once and kept: a subclass gets its base's (a
    ``dict`` subclass is a mapping, an ``IntEnum`` stays the number it is), a mapping
    proxy and a frozenset are encoded like a dict and a list, and an unknown type is
    refused on every call, not only the first."""

    class Counts(dict[str, int]):
        pass

    class Level(enum.IntEnum):
        HIGH = 3

    assert jsonable(Counts(a=1)) == {"a": 1}
    assert jsonable(MappingProxyType({Bet.TIE: 5})) == {"tie": 5}
    assert jsonable(frozenset({Bet.PLAYER})) == ["player"]
    assert jsonable(Level.HIGH) == 3
    assert jsonable(Fraction(1, 2)) == "1/2"
    for _ in range(2):
        with pytest.raises(TypeError, match="cannot serialize object"):
            jsonable(object())
