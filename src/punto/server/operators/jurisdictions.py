"""Jurisdiction profiles: the switches a launch may name for its player (a reality check
every so often, a session limit, the least time between a player's bets on consecutive
hands, features turned off), kept as data by an administrator.

>>> profile = jurisdiction("uk", name="United Kingdom", reality_check="60m",
...                        min_hand_interval="2.5s", features_off=["chat"])
>>> profile.reality_check_interval, profile.min_hand_interval, profile.features_off
(3600.0, 2.5, ('chat',))
>>> parse_duration("1h30m"), format_duration(5400.0), format_duration(2.5)
(5400.0, '1h30m', '2.5s')
>>> parse_duration("ten minutes")
Traceback (most recent call last):
...
punto.errors.ProtocolError: 'ten minutes' is not a duration such as 90s, 60m, 2h or 2.5s
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from punto.errors import ProtocolError

__all__ = [
    "FEATURES",
    "MAX_DURATION",
    "Jurisdiction",
    "check_features",
    "check_jurisdiction_id",
    "format_duration",
    "jurisdiction",
    "parse_duration",
]

FEATURES = ("chat", "side_bets")
"""The features a profile may turn off: table chat, and every bet but Player, Banker and Tie."""

MAX_DURATION = 7 * 24 * 3600.0
"""The longest switch a profile may set (seconds): a week."""

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{1,15}$")
_PART = re.compile(r"(\d+(?:\.\d+)?)([hms])")
_UNIT = {"h": 3600.0, "m": 60.0, "s": 1.0}


def parse_duration(text: str) -> float:
    """Seconds of a duration written as numbers with units ``h``, ``m`` and ``s``
    (``90s``, ``60m``, ``2h``, ``1h30m``, ``2.5s``); more than zero, at most a week."""
    cleaned = text.strip().lower().replace(" ", "")
    parts = _PART.findall(cleaned)
    if not cleaned or "".join(n + u for n, u in parts) != cleaned:
        raise ProtocolError(f"{text!r} is not a duration such as 90s, 60m, 2h or 2.5s")
    return check_seconds(sum(float(n) * _UNIT[u] for n, u in parts), "a duration")


def check_seconds(seconds: float, what: str) -> float:
    """``seconds`` if it is a finite number more than zero and at most :data:`MAX_DURATION`."""
    if isinstance(seconds, bool) or not math.isfinite(seconds) or seconds <= 0:
        raise ProtocolError(f"{what} is more than zero seconds")
    if seconds > MAX_DURATION:
        raise ProtocolError(f"{what} is at most a week (168h)")
    return float(seconds)


def format_duration(seconds: float) -> str:
    """``seconds`` as :func:`parse_duration` reads it (hours, minutes, seconds)."""
    hours, rest = divmod(seconds, 3600.0)
    minutes, secs = divmod(rest, 60.0)
    out = ""
    if hours:
        out += f"{int(hours)}h"
    if minutes:
        out += f"{int(minutes)}m"
    if secs or not out:
        out += f"{secs:g}s"
    return out


def check_jurisdiction_id(profile_id: str) -> str:
    """A profile id: a short slug, 2-16 characters of a-z 0-9 _ - (``uk``, ``es-madrid``)."""
    if not _ID.match(profile_id):
        raise ProtocolError(
            "a jurisdiction id is 2-16 characters of a-z 0-9 _ - (not starting with _ or -)"
        )
    return profile_id


def check_features(features: Iterable[str]) -> tuple[str, ...]:
    """Features to turn off, each one of :data:`FEATURES`, each once, in that order."""
    given = [f.strip() for f in features if f.strip()]
    unknown = [f for f in given if f not in FEATURES]
    if unknown:
        raise ProtocolError(
            f"features_off names {', '.join(unknown)}: the features are {', '.join(FEATURES)}"
        )
    return tuple(f for f in FEATURES if f in given)


@dataclass(frozen=True, slots=True)
class Jurisdiction:
    """A jurisdiction profile (every switch in seconds; ``None``: the profile sets none)."""

    id: str
    name: str
    reality_check_interval: float | None = None
    """How long a player plays before the game stops to show time played and net result."""
    session_limit: float | None = None
    """How long a session lasts: no bet after it."""
    min_hand_interval: float | None = None
    """The least time between a player's bet on one hand and on the next."""
    features_off: tuple[str, ...] = ()
    """Some of :data:`FEATURES`."""

    def off(self, feature: str) -> bool:
        """Whether the profile turns ``feature`` off."""
        return feature in self.features_off

    def to_json(self) -> dict[str, object]:
        """The profile as the CLI, the administration API and ``/api/me`` show it."""
        return {
            "id": self.id,
            "name": self.name,
            "reality_check_interval": self.reality_check_interval,
            "session_limit": self.session_limit,
            "min_hand_interval": self.min_hand_interval,
            "features_off": list(self.features_off),
        }


def _seconds(value: float | str | None, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, str):
        return parse_duration(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProtocolError(f"{what} is a number of seconds or a duration such as 60m")
    return check_seconds(float(value), what)


def jurisdiction(
    profile_id: str,
    *,
    name: str,
    reality_check: float | str | None = None,
    session_limit: float | str | None = None,
    min_hand_interval: float | str | None = None,
    features_off: Iterable[str] = (),
) -> Jurisdiction:
    """A checked profile (each switch: seconds, a duration such as ``60m``, or ``None``);
    :class:`ProtocolError` naming the first bad field."""
    if not isinstance(name, str) or not name.strip() or len(name) > 100 or not name.isprintable():
        raise ProtocolError("a jurisdiction's name is 1-100 printable characters")
    if isinstance(features_off, str):
        features_off = features_off.split(",")
    return Jurisdiction(
        id=check_jurisdiction_id(profile_id),
        name=name.strip(),
        reality_check_interval=_seconds(reality_check, "reality_check_interval"),
        session_limit=_seconds(session_limit, "session_limit"),
        min_hand_interval=_seconds(min_hand_interval, "min_hand_interval"),
        features_off=check_features(features_off),
    )
