"""An operator, its currencies (ISO 4217 codes and minor units) and its players' ids."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from punto.currencies import minor_units
from punto.errors import ProtocolError
from punto.server.operators.limits import LimitGroup, limit_groups_json

__all__ = [
    "DIALECTS",
    "LANGUAGES",
    "Operator",
    "check_currencies",
    "check_operator_id",
    "check_origin",
    "check_player_id",
    "minor_units",
    "user_id_of",
]

DIALECTS = ("punto", "hub88")
"""The wallet contracts an operator's wallet may speak (``docs/ledger.md``)."""

LANGUAGES = ("en", "zh", "zh-Hant")
"""The languages the web client speaks, as a launch names them."""

_OPERATOR_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{1,15}$")
_PLAYER_ID = re.compile(r"^[A-Za-z0-9_.:@-]{1,47}$")


@dataclass(frozen=True, slots=True)
class Operator:
    """An operator as the server keeps it (its secret is kept apart, never in this)."""

    id: str
    name: str
    currencies: tuple[str, ...]
    """The ISO 4217 codes its players may play in."""
    languages: tuple[str, ...]
    origins: tuple[str, ...]
    """The origins (``https://casino.example``) whose pages may frame the game."""
    wallet_url: str | None
    dialect: str
    disabled: bool
    secret_version: int
    """How many times its secret was made (1 at first): rotations are counted."""
    created_at: float
    limit_groups: Mapping[str, LimitGroup] = field(default_factory=dict)
    """Its players' amounts by table tier in each currency
    (:mod:`punto.server.operators.limits`)."""

    def to_json(self) -> dict[str, object]:
        """The operator as the CLI and the administration API show it."""
        return {
            "id": self.id,
            "name": self.name,
            "currencies": list(self.currencies),
            "languages": list(self.languages),
            "origins": list(self.origins),
            "wallet_url": self.wallet_url,
            "dialect": self.dialect,
            "disabled": self.disabled,
            "secret_version": self.secret_version,
            "created_at": self.created_at,
            "limit_groups": limit_groups_json(self.limit_groups),
        }


def check_currencies(codes: list[str]) -> tuple[str, ...]:
    """Current ISO 4217 codes, upper case, each once, in the order given."""
    seen: list[str] = []
    for code in (code.strip().upper() for code in codes):
        if not code:
            continue
        minor_units(code)
        if code not in seen:
            seen.append(code)
    if not seen:
        raise ProtocolError("an operator enables at least one currency")
    return tuple(seen)


def check_operator_id(operator_id: str) -> str:
    """An operator id: 2-16 characters of a-z 0-9 _ -, starting with a letter or digit."""
    if not _OPERATOR_ID.match(operator_id):
        raise ProtocolError(
            "an operator id is 2-16 characters of a-z 0-9 _ - (not starting with _ or -)"
        )
    return operator_id


def check_player_id(player_id: str) -> str:
    """An operator's own id of its player: 1-47 characters of A-Z a-z 0-9 _ . : @ -."""
    if not _PLAYER_ID.match(player_id):
        raise ProtocolError("a player_id is 1-47 characters of A-Z a-z 0-9 _ . : @ -")
    return player_id


def check_origin(origin: str) -> str:
    """A web origin an operator's pages are served from: ``https://host[:port]``."""
    parts = urlsplit(origin)
    if parts.scheme not in ("https", "http") or not parts.hostname or parts.path not in ("", "/"):
        raise ProtocolError(f"{origin!r} is not an origin such as https://casino.example")
    if parts.query or parts.fragment or parts.username:
        raise ProtocolError(f"{origin!r} is not an origin such as https://casino.example")
    return f"{parts.scheme}://{parts.netloc.lower()}"


def operator_of(user_id: str) -> str | None:
    """The operator of a launched player's user id (``None``: a password account, whose
    name has no dot).

    >>> operator_of("acme.u-7"), operator_of("alice")
    ('acme', None)
    """
    operator, dot, _ = user_id.partition(".")
    return operator if dot else None


def user_id_of(operator_id: str, player_id: str) -> str:
    """The server's user id of an operator's player: ``operator.player`` (so two
    operators' players with the same id are two users, each in its own operator's books)."""
    return f"{operator_id}.{player_id}"
