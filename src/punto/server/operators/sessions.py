"""A launched player's play session under a jurisdiction profile, and what its switches
refuse now: pure rules over the session, the profile and the time (the server's clock
hands ``now`` in, so a test moves it by hand).

>>> from punto.server.operators.jurisdictions import jurisdiction
>>> uk = jurisdiction("uk", name="UK", reality_check="60m", min_hand_interval="2.5s")
>>> s = PlaySession("acme.p1", "uk", started_at=0.0, checked_at=0.0)
>>> bet_refusal(s, uk, now=10.0, hand="T1-1-1") is None
True
>>> bet_refusal(s, uk, now=3600.0, hand="T1-1-1").reason
'reality_check_due'
>>> s = PlaySession("acme.p1", "uk", 0.0, 0.0, last_bet_at=10.0, last_bet_hand="T1-1-1")
>>> bet_refusal(s, uk, now=11.0, hand="T1-1-2").reason
'too_soon'
>>> bet_refusal(s, uk, now=11.0, hand="T1-1-1") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from punto.bets import Bet
from punto.errors import JurisdictionError
from punto.server.operators.jurisdictions import Jurisdiction
from punto.table.legal import LegalActions

__all__ = [
    "NOT_SIDE_BETS",
    "PlaySession",
    "bet_refusal",
    "chat_refusal",
    "due_at",
    "ends_at",
    "side_bet_refusal",
    "without_side_bets",
]

NOT_SIDE_BETS = frozenset({Bet.PLAYER, Bet.BANKER, Bet.TIE})
"""The bets that are not side bets: a profile with ``side_bets`` off keeps these."""


def without_side_bets(legal: LegalActions) -> LegalActions:
    """``legal`` without its side-bet areas (a player whose jurisdiction turns them off)."""
    kept = tuple(room for room in legal.bets if room.bet in NOT_SIDE_BETS)
    return legal if len(kept) == len(legal.bets) else replace(legal, bets=kept)


@dataclass(frozen=True, slots=True)
class PlaySession:
    """A launched player's session: when it started, when a reality check was last
    acknowledged (its start, at first), when it ended, the last hand bet on and when."""

    user_id: str
    jurisdiction_id: str
    started_at: float
    checked_at: float
    ended_at: float | None = None
    last_bet_at: float | None = None
    last_bet_hand: str | None = None
    ledger_seq: int = 0
    """The ledger's last transaction when it started (its net result counts after it)."""


def due_at(session: PlaySession, profile: Jurisdiction) -> float | None:
    """When the next reality check is due (``None``: the profile has none)."""
    interval = profile.reality_check_interval
    return None if interval is None else session.checked_at + interval


def ends_at(session: PlaySession, profile: Jurisdiction) -> float | None:
    """When the session's time is up (``None``: the profile sets no limit)."""
    limit = profile.session_limit
    return None if limit is None else session.started_at + limit


def bet_refusal(
    session: PlaySession, profile: Jurisdiction, *, now: float, hand: str | None
) -> JurisdictionError | None:
    """Why the profile refuses a bet on ``hand`` at ``now``, or ``None``: the session
    ended or its time is up (``session_limit``), a reality check is due
    (``reality_check_due``), or the player bet on another hand less than the least
    interval ago (``too_soon``)."""
    end = ends_at(session, profile)
    if session.ended_at is not None or (end is not None and now >= end):
        return JurisdictionError(
            "this session's time is up: no more bets in it", reason="session_limit"
        )
    due = due_at(session, profile)
    if due is not None and now >= due:
        return JurisdictionError(
            "a reality check is due: acknowledge it (continue or leave) before the next bet",
            reason="reality_check_due",
        )
    least = profile.min_hand_interval
    last = session.last_bet_at
    if (
        least is not None
        and last is not None
        and hand is not None
        and session.last_bet_hand != hand
        and now - last < least
    ):
        wait = least - (now - last)
        return JurisdictionError(
            f"too soon after the last hand's bet: wait {wait:.1f} s",
            reason="too_soon",
            retry_after=wait,
        )
    return None


def side_bet_refusal(profile: Jurisdiction, bets: list[Bet]) -> JurisdictionError | None:
    """Why the profile refuses bets on ``bets`` (side bets while they are off), or ``None``."""
    if profile.off("side_bets") and any(bet not in NOT_SIDE_BETS for bet in bets):
        return JurisdictionError(
            "side bets are not offered to this player", reason="feature_off", feature="side_bets"
        )
    return None


def chat_refusal(profile: Jurisdiction) -> JurisdictionError | None:
    """Why the profile refuses a chat line, or ``None``."""
    if profile.off("chat"):
        return JurisdictionError(
            "chat is not offered to this player", reason="feature_off", feature="chat"
        )
    return None
