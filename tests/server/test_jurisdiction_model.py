"""Jurisdiction profiles and their durations, and the session rules (pure, no server)."""

from __future__ import annotations

import pytest

from punto.bets import Bet
from punto.errors import ProtocolError
from punto.server.operators.jurisdictions import (
    FEATURES,
    format_duration,
    jurisdiction,
    parse_duration,
)
from punto.server.operators.sessions import (
    PlaySession,
    bet_refusal,
    chat_refusal,
    side_bet_refusal,
)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("90s", 90.0),
        ("60m", 3600.0),
        ("2h", 7200.0),
        ("2.5s", 2.5),
        ("1h30m", 5400.0),
        (" 2H ", 7200.0),
        ("1m 30s", 90.0),
    ],
)
def test_durations_read_hours_minutes_and_seconds(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds
    assert parse_duration(format_duration(seconds)) == seconds


@pytest.mark.parametrize("text", ["", "10", "ten minutes", "5d", "0s", "-3m", "200h", "1.s"])
def test_bad_durations_are_refused_with_a_clear_message(text: str) -> None:
    with pytest.raises(ProtocolError):
        parse_duration(text)


def test_a_profile_is_checked_and_frozen() -> None:
    uk = jurisdiction(
        "uk",
        name=" United Kingdom ",
        reality_check="60m",
        session_limit=7200,
        min_hand_interval="2.5s",
        features_off="side_bets,chat",
    )
    assert uk.to_json() == {
        "id": "uk",
        "name": "United Kingdom",
        "reality_check_interval": 3600.0,
        "session_limit": 7200.0,
        "min_hand_interval": 2.5,
        "features_off": list(FEATURES),
    }
    with pytest.raises(AttributeError):
        uk.name = "x"  # type: ignore[misc]
    assert jurisdiction("es", name="Spain").to_json()["reality_check_interval"] is None


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"profile_id": "U"}, "jurisdiction id"),
        ({"profile_id": "-uk"}, "jurisdiction id"),
        ({"name": ""}, "name"),
        ({"name": "a\nb"}, "name"),
        ({"features_off": ["video"]}, "features_off"),
        ({"reality_check": 0}, "reality_check_interval"),
        ({"session_limit": "forever"}, "duration"),
        ({"min_hand_interval": True}, "min_hand_interval"),
    ],
)
def test_bad_profiles_are_refused_naming_the_field(kwargs: dict[str, object], says: str) -> None:
    args: dict[str, object] = {"profile_id": "uk", "name": "UK", **kwargs}
    with pytest.raises(ProtocolError, match=says):
        jurisdiction(**args)  # type: ignore[arg-type]


def test_the_session_rules() -> None:
    profile = jurisdiction(
        "uk",
        name="UK",
        reality_check="10m",
        session_limit="1h",
        min_hand_interval="3s",
        features_off=["chat", "side_bets"],
    )
    fresh = PlaySession("acme.p", "uk", started_at=100.0, checked_at=100.0)
    assert bet_refusal(fresh, profile, now=100.0, hand="h1") is None
    due = bet_refusal(fresh, profile, now=700.0, hand="h1")
    assert due is not None
    assert due.reason == "reality_check_due"
    acked = PlaySession("acme.p", "uk", 100.0, checked_at=700.0)
    assert bet_refusal(acked, profile, now=701.0, hand="h1") is None
    over = bet_refusal(acked, profile, now=3700.0, hand="h1")
    assert over is not None
    assert over.reason == "session_limit"
    ended = PlaySession("acme.p", "uk", 100.0, 100.0, ended_at=150.0)
    left = bet_refusal(ended, profile, now=160.0, hand="h1")
    assert left is not None
    assert left.reason == "session_limit"
    bet = PlaySession("acme.p", "uk", 100.0, 100.0, last_bet_at=200.0, last_bet_hand="h1")
    soon = bet_refusal(bet, profile, now=201.0, hand="h2")
    assert soon is not None
    assert soon.reason == "too_soon"
    assert soon.retry_after == 2.0
    assert bet_refusal(bet, profile, now=201.0, hand="h1") is None
    assert bet_refusal(bet, profile, now=203.0, hand="h2") is None
    side = side_bet_refusal(profile, [Bet.BANKER, Bet.PLAYER_PAIR])
    assert side is not None
    assert side.feature == "side_bets"
    assert side_bet_refusal(profile, [Bet.BANKER, Bet.TIE]) is None
    chat = chat_refusal(profile)
    assert chat is not None
    assert chat.feature == "chat"
    assert chat_refusal(jurisdiction("es", name="Spain")) is None
