"""Table chat without a server: the line as kept, the rate limit, the protocol messages
and their typed refusals; the Big Road's streak the lobby's alerts read [O]."""

from __future__ import annotations

import pytest

from punto.errors import ChatError, ProtocolError, RateLimitedError
from punto.outcome import Winner
from punto.roads import RoadBoard, RoadStreak, parse_results
from punto.server.fanout.protocol import (
    CHAT_MAX_LENGTH,
    Chat,
    ChatMute,
    error_message,
    parse_command,
)
from punto.server.features.chat import ChatLimiter, chat_text


def test_a_chat_line_is_kept_without_surrounding_spaces() -> None:
    assert chat_text("  hello dealer  ") == "hello dealer"
    assert chat_text("<b>big</b> & 'quotes'") == "<b>big</b> & 'quotes'"  # kept as typed


@pytest.mark.parametrize("text", ["", "   ", "\u3000"])
def test_an_empty_chat_line_is_refused_with_its_reason(text: str) -> None:
    with pytest.raises(ChatError) as caught:
        chat_text(text)
    assert error_message(caught.value)["params"] == {"reason": "empty"}
    assert error_message(caught.value)["error"] == "chat"


def test_direction_controls_are_refused() -> None:
    with pytest.raises(ProtocolError):
        chat_text("win \u202e niw")


def test_the_chat_message_parses_and_its_bad_forms_are_typed_errors() -> None:
    chat = parse_command('{"type": "chat", "text": "hi", "request_id": "r1"}')
    assert isinstance(chat, Chat)
    assert chat.text == "hi"
    mute = parse_command({"type": "chat_mute", "player": "ann"})
    assert isinstance(mute, ChatMute)
    assert mute.muted is True
    bad = [
        '{"type": "chat", "text": "a\\u0000b"}',  # NUL
        '{"type": "chat", "text": "a\\u001bb"}',  # ESC
        '{"type": "chat", "text": "line\\nbreak"}',
        '{"type": "chat", "text": ""}',
        '{"type": "chat", "text": 5}',
        '{"type": "chat"}',
        '{"type": "chat", "text": "' + "x" * (CHAT_MAX_LENGTH + 1) + '"}',
        '{"type": "chat", "text": "hi", "html": true}',
        '{"type": "chat_mute", "player": "ann", "muted": "yes"}',
    ]
    for raw in bad:
        with pytest.raises(ProtocolError):
            parse_command(raw)
    assert parse_command('{"type": "chat", "text": "' + "字" * CHAT_MAX_LENGTH + '"}')


def test_the_rate_limit_counts_each_sender_in_a_sliding_window() -> None:
    limiter = ChatLimiter(messages=3, window=10.0)
    for at in (0.0, 1.0, 2.0):
        limiter.check("ann", now=at)
    with pytest.raises(RateLimitedError) as caught:
        limiter.check("ann", now=5.0)
    assert caught.value.retry_after == pytest.approx(5.0)
    assert error_message(caught.value)["error"] == "rate_limited"
    assert error_message(caught.value)["params"] == {"retry_after": 5}
    limiter.check("bob", now=5.0)  # another sender is not held up
    limiter.check("ann", now=10.0)  # the first line left the window
    with pytest.raises(RateLimitedError):
        limiter.check("ann", now=10.5)  # a refused line is not counted, the others are


@pytest.mark.parametrize(
    ("results", "streak"),
    [
        ("", RoadStreak(None, 0, 0)),
        ("TT", RoadStreak(None, 0, 0)),
        ("PBBBB", RoadStreak(Winner.BANKER, 4, 0)),
        ("BBTBTB", RoadStreak(Winner.BANKER, 4, 0)),  # ties do not break a streak
        ("BPPPP", RoadStreak(Winner.PLAYER, 4, 0)),
        ("BBPBPBP", RoadStreak(Winner.PLAYER, 1, 5)),
        ("PBPBB", RoadStreak(Winner.BANKER, 2, 0)),
    ],
)
def test_o_the_big_roads_streak_and_ping_pong(results: str, streak: RoadStreak) -> None:
    assert RoadBoard.replay(parse_results(results)).streak == streak
