"""Signed game launch: an operator's server asks for a URL that puts its logged-in player
at the game; the page exchanges the URL's one-time token for a session.

A launch call is refused (and changes nothing) when it is unsigned or badly signed, from an
unknown or disabled operator, stale (its ``timestamp`` more than :data:`SKEW` seconds from
the server's clock), a replay of a call already seen, or asks for a currency or language the
operator has not enabled, a limit group it does not have or a jurisdiction profile the
server does not keep (``punto jurisdictions``). A launch naming a profile starts the
player's play session under it when its link is opened.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import quote, urlsplit

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, field_validator

from punto.errors import AuthError, ConflictError, ForbiddenError, ProtocolError
from punto.ledger.signing import verify
from punto.server.operators.model import (
    LANGUAGES,
    Operator,
    check_player_id,
    minor_units,
    user_id_of,
)
from punto.server.store.jurisdictions import JurisdictionStore
from punto.server.store.operators import LaunchRecord, OperatorPlayer, OperatorStore

__all__ = ["SKEW", "TOKEN_TTL", "Launch", "LaunchRequest", "Launcher"]

SKEW = 300.0
"""How far a call's ``timestamp`` may be from the server's clock (seconds)."""
TOKEN_TTL = 120.0
"""How long a launch URL's token may be used (seconds): the operator's page opens it at once."""

_Url = Annotated[str, Field(min_length=8, max_length=500)]


class LaunchRequest(BaseModel):
    """``POST /api/operator/v1/launch``'s body."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    player_id: Annotated[str, Field(min_length=1, max_length=47)]
    display_name: Annotated[str, Field(min_length=1, max_length=100)]
    currency: Annotated[str, Field(min_length=3, max_length=3)]
    language: Annotated[str, Field(min_length=2, max_length=8)]
    timestamp: StrictInt
    """When the operator signed the call (Unix seconds)."""
    table: Annotated[str | None, Field(min_length=1, max_length=40, pattern=r"^[\w-]+$")] = None
    limit_group: Annotated[str | None, Field(min_length=1, max_length=40)] = None
    lobby_url: _Url | None = None
    cashier_url: _Url | None = None
    responsible_gaming_url: _Url | None = None
    jurisdiction: Annotated[str | None, Field(min_length=1, max_length=40)] = None

    @field_validator("lobby_url", "cashier_url", "responsible_gaming_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is not None:
            parts = urlsplit(value)
            if parts.scheme not in ("https", "http") or not parts.hostname:
                raise ValueError("must be an http(s) address")
        return value

    @field_validator("display_name")
    @classmethod
    def _printable(cls, value: str) -> str:
        if not value.isprintable():
            raise ValueError("must be printable text")
        return value


@dataclass(frozen=True, slots=True)
class Launch:
    """A launch granted: the URL to open (with its one-time token) and until when."""

    url: str
    expires_at: float
    user_id: str
    first: bool
    """The player's first launch (its account was made now)."""


class Launcher:
    """Checks operators' signed calls and grants and redeems launches."""

    def __init__(
        self,
        store: OperatorStore,
        *,
        now: Callable[[], float],
        jurisdictions: JurisdictionStore | None = None,
    ) -> None:
        self.store = store
        self._now = now
        self._jurisdictions = jurisdictions

    async def authenticate(
        self, operator_id: str | None, body: bytes, signature: str | None
    ) -> Operator:
        """The operator that signed ``body``; :class:`AuthError` when the operator is
        unknown or the signature wrong, :class:`ForbiddenError` when it is disabled."""
        if not operator_id:
            raise AuthError("name the operator: X-Punto-Operator: <operator id>")
        secret = await self.store.secret(operator_id)
        if secret is None:
            # the same answer as a wrong signature: an unknown id is not told apart
            verify("x" * 48, body, signature)
            raise AuthError("the request's X-Punto-Signature does not match its body")
        verify(secret, body, signature)
        operator = await self.store.get(operator_id)
        assert operator is not None
        if operator.disabled:
            raise ForbiddenError(f"the operator {operator_id!r} is disabled on this server")
        return operator

    def recent(self, timestamp: int) -> None:
        """Refuse a call whose ``timestamp`` is more than :data:`SKEW` seconds from the
        server's clock (a signature that leaked stops working)."""
        if abs(self._now() - timestamp) > SKEW:
            raise AuthError(
                f"the call's timestamp is more than {SKEW:.0f} s from the server's clock "
                "(sign each call when it is made; check the clock)"
            )

    async def fresh(self, operator: Operator, timestamp: int, signature: str) -> None:
        """Refuse a stale call or a replay of a call seen within twice :data:`SKEW`."""
        self.recent(timestamp)
        now = self._now()
        digest = hashlib.sha256(signature.encode()).hexdigest()
        if not await self.store.first_sight(operator.id, digest, now=now, keep=2 * SKEW):
            raise ConflictError("this signed call was sent before: sign each launch anew")

    @staticmethod
    def parse(body: bytes) -> LaunchRequest:
        """The launch's fields (:class:`ProtocolError` naming the first bad one)."""
        try:
            return LaunchRequest.model_validate_json(body)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(str(part) for part in error["loc"]) or "body"
            raise ProtocolError(f"launch {where}: {error['msg']}") from None

    async def launch(self, operator: Operator, request: LaunchRequest, *, root: str) -> Launch:
        """Grant a launch of ``request``'s player: the player exists from now on; the URL
        opens the web client at ``root`` (the lobby, or the table asked for)."""
        check_player_id(request.player_id)
        currency = request.currency.upper()
        minor_units(currency)
        if currency not in operator.currencies:
            raise ProtocolError(
                f"the operator {operator.id!r} has not enabled {currency} "
                f"(it enables {', '.join(operator.currencies)})"
            )
        if request.language not in LANGUAGES or request.language not in operator.languages:
            raise ProtocolError(
                f"language {request.language!r} is not one of {', '.join(operator.languages)}"
            )
        if request.limit_group is not None and request.limit_group not in operator.limit_groups:
            known = ", ".join(sorted(operator.limit_groups)) or "none"
            raise ProtocolError(
                f"the operator {operator.id!r} has no limit group {request.limit_group!r} "
                f"(it has {known})"
            )
        if request.jurisdiction is not None and (
            self._jurisdictions is None
            or await self._jurisdictions.get(request.jurisdiction) is None
        ):
            raise ProtocolError(f"no jurisdiction profile {request.jurisdiction!r} on this server")
        now = self._now()
        user_id = user_id_of(operator.id, request.player_id)
        first = await self.store.launched(
            OperatorPlayer(
                operator.id,
                request.player_id,
                user_id,
                currency,
                request.language,
                request.limit_group,
                request.jurisdiction,
            ),
            display_name=request.display_name,
            now=now,
        )
        token = secrets.token_urlsafe(24)
        expires_at = now + TOKEN_TTL
        details: dict[str, Any] = {
            "display_name": request.display_name,
            "currency": currency,
            "language": request.language,
            "limit_group": request.limit_group,
            "jurisdiction": request.jurisdiction,
            "links": {
                key: value
                for key in ("lobby_url", "cashier_url", "responsible_gaming_url")
                if (value := getattr(request, key)) is not None
            },
        }
        await self.store.put_token(
            token,
            user_id=user_id,
            operator_id=operator.id,
            expires_at=expires_at,
            details=details,
            now=now,
        )
        screen = f"#/table/{quote(request.table)}" if request.table else "#/"
        return Launch(f"{root.rstrip('/')}/?launch={token}{screen}", expires_at, user_id, first)

    async def redeem(self, token: str) -> LaunchRecord:
        """The launch a token grants, once; :class:`AuthError` when it is unknown, used
        or expired."""
        record = await self.store.redeem(token, now=self._now())
        if record is None:
            raise AuthError("this launch link was used or has expired: launch the game again")
        return record
