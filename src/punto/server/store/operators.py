"""The operators' records: operators and their secrets, their launched players, one-time
launch tokens and the signed calls seen lately (:mod:`punto.server.operators`)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Row, Table, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from punto.errors import ConflictError, NotFoundError
from punto.server.auth import Role
from punto.server.operators.limits import (
    LimitGroup,
    limit_groups_from_json,
    limit_groups_json,
)
from punto.server.operators.model import Operator
from punto.server.store.schema import (
    LaunchTokenRow,
    OperatorPlayerRow,
    OperatorRequestRow,
    OperatorRow,
    UserRow,
)

__all__ = ["LaunchRecord", "OperatorPlayer", "OperatorStore", "token_hash"]

_O = cast(Table, OperatorRow.__table__)
_OP = cast(Table, OperatorPlayerRow.__table__)
_LT = cast(Table, LaunchTokenRow.__table__)
_OR = cast(Table, OperatorRequestRow.__table__)
_U = cast(Table, UserRow.__table__)

NO_PASSWORD = "launched"
"""The password hash of a launched player: no password matches it (the operator
authenticates its players; they never log in with a password here)."""


def token_hash(token: str) -> str:
    """What is kept of a launch token: its SHA-256 (a leaked table launches no one)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class OperatorPlayer:
    """An operator's player: the server's user id, its currency and language."""

    operator_id: str
    player_id: str
    user_id: str
    currency: str
    language: str
    limit_group: str | None = None
    """The operator's limit group of its latest launch (``None``: its default)."""
    jurisdiction: str | None = None
    """The jurisdiction profile its latest launch named (``None``: none)."""


@dataclass(frozen=True, slots=True)
class LaunchRecord:
    """A launch token redeemed: whom it launches and what the launch asked for."""

    user_id: str
    operator_id: str
    details: dict[str, Any]


def _operator(row: Row[Any]) -> Operator:
    return Operator(
        id=row.id,
        name=row.name,
        currencies=tuple(json.loads(row.currencies)),
        languages=tuple(json.loads(row.languages)),
        origins=tuple(json.loads(row.origins)),
        wallet_url=row.wallet_url,
        dialect=row.dialect,
        disabled=bool(row.disabled),
        secret_version=row.secret_version,
        created_at=row.created_at,
        limit_groups=limit_groups_from_json(json.loads(row.limit_groups or "{}")),
    )


class OperatorStore:
    """The operators' tables in the server's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    # -- operators -------------------------------------------------------------------

    async def add(self, operator: Operator, *, secret: str, wallet_key: str | None = None) -> None:
        """Register ``operator`` (``wallet_key``: the PEM private key that signs Punto's
        calls to its hub88 wallet); :class:`ConflictError` when its id is taken."""
        try:
            async with self._engine.begin() as conn:
                await conn.execute(
                    insert(_O).values(
                        id=operator.id,
                        name=operator.name,
                        currencies=json.dumps(list(operator.currencies)),
                        languages=json.dumps(list(operator.languages)),
                        origins=json.dumps(list(operator.origins)),
                        wallet_url=operator.wallet_url,
                        dialect=operator.dialect,
                        secret=secret,
                        secret_version=operator.secret_version,
                        disabled=operator.disabled,
                        created_at=operator.created_at,
                        limit_groups=json.dumps(limit_groups_json(operator.limit_groups)),
                        wallet_key=wallet_key,
                    )
                )
        except IntegrityError:
            raise ConflictError(f"the operator id {operator.id!r} is taken") from None

    async def get(self, operator_id: str) -> Operator | None:
        """The operator ``operator_id``, if any."""
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(_O).where(_O.c.id == operator_id))).first()
        return None if row is None else _operator(row)

    async def secret(self, operator_id: str) -> str | None:
        """The secret that signs the operator's calls, if it exists."""
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(_O.c.secret).where(_O.c.id == operator_id))).first()
        return None if row is None else str(row.secret)

    async def wallet_key(self, operator_id: str) -> str | None:
        """The PEM private key that signs Punto's calls to the operator's hub88 wallet."""
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(select(_O.c.wallet_key).where(_O.c.id == operator_id))
            ).first()
        return None if row is None or row.wallet_key is None else str(row.wallet_key)

    async def all(self) -> list[Operator]:
        """Every operator, by id."""
        async with self._engine.connect() as conn:
            rows = (await conn.execute(select(_O).order_by(_O.c.id))).all()
        return [_operator(row) for row in rows]

    async def rotate(self, operator_id: str, secret: str) -> Operator:
        """Give the operator a new secret (the old one signs nothing from now on)."""
        async with self._engine.begin() as conn:
            done = await conn.execute(
                update(_O)
                .where(_O.c.id == operator_id)
                .values(secret=secret, secret_version=_O.c.secret_version + 1)
            )
        if done.rowcount != 1:
            raise NotFoundError(f"no operator {operator_id!r}")
        found = await self.get(operator_id)
        assert found is not None
        return found

    async def set_limit_groups(
        self, operator_id: str, groups: Mapping[str, LimitGroup]
    ) -> Operator:
        """Replace the operator's limit groups (players launched on a group that goes
        play on its default from their next table)."""
        async with self._engine.begin() as conn:
            done = await conn.execute(
                update(_O)
                .where(_O.c.id == operator_id)
                .values(limit_groups=json.dumps(limit_groups_json(groups)))
            )
        if done.rowcount != 1:
            raise NotFoundError(f"no operator {operator_id!r}")
        found = await self.get(operator_id)
        assert found is not None
        return found

    async def set_disabled(self, operator_id: str, disabled: bool) -> Operator:
        """Disable (or enable again) an operator: a disabled one launches no one."""
        async with self._engine.begin() as conn:
            done = await conn.execute(
                update(_O).where(_O.c.id == operator_id).values(disabled=disabled)
            )
        if done.rowcount != 1:
            raise NotFoundError(f"no operator {operator_id!r}")
        found = await self.get(operator_id)
        assert found is not None
        return found

    # -- players ---------------------------------------------------------------------

    async def player(self, user_id: str) -> OperatorPlayer | None:
        """The operator's player that the user ``user_id`` is, if any."""
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(_OP).where(_OP.c.user_id == user_id))).first()
        if row is None:
            return None
        return OperatorPlayer(
            row.operator_id,
            row.player_id,
            row.user_id,
            row.currency,
            row.language,
            row.limit_group,
            row.jurisdiction,
        )

    async def launched(
        self,
        player: OperatorPlayer,
        *,
        display_name: str,
        now: float,
    ) -> bool:
        """Record a launch of ``player``: the user exists from its first launch (True
        then), and its display name, currency and language are the latest launch's."""
        try:
            async with self._engine.begin() as conn:
                await conn.execute(
                    insert(_U).values(
                        id=player.user_id,
                        role=Role.PLAYER.value,
                        display_name=display_name,
                        password_hash=NO_PASSWORD,
                    )
                )
                await conn.execute(
                    insert(_OP).values(
                        operator_id=player.operator_id,
                        player_id=player.player_id,
                        user_id=player.user_id,
                        currency=player.currency,
                        language=player.language,
                        created_at=now,
                        limit_group=player.limit_group,
                        jurisdiction=player.jurisdiction,
                    )
                )
            return True
        except IntegrityError:  # launched before (or at this moment by another process)
            pass
        async with self._engine.begin() as conn:
            await conn.execute(
                update(_U).where(_U.c.id == player.user_id).values(display_name=display_name)
            )
            await conn.execute(
                update(_OP)
                .where(_OP.c.user_id == player.user_id)
                .values(
                    currency=player.currency,
                    language=player.language,
                    limit_group=player.limit_group,
                    jurisdiction=player.jurisdiction,
                )
            )
        return False

    # -- launch tokens ---------------------------------------------------------------

    async def put_token(
        self,
        token: str,
        *,
        user_id: str,
        operator_id: str,
        expires_at: float,
        details: dict[str, Any],
        now: float,
    ) -> None:
        """Keep a new launch token until ``expires_at`` (and drop the long-expired)."""
        async with self._engine.begin() as conn:
            await conn.execute(delete(_LT).where(_LT.c.expires_at < now - 3600))
            await conn.execute(
                insert(_LT).values(
                    token_hash=token_hash(token),
                    user_id=user_id,
                    operator_id=operator_id,
                    expires_at=expires_at,
                    used_at=None,
                    details=json.dumps(details),
                )
            )

    async def redeem(self, token: str, *, now: float) -> LaunchRecord | None:
        """Use a launch token once: its launch, or None when it is unknown, used or
        expired (exactly one of two processes redeeming it at once gets it)."""
        digest = token_hash(token)
        async with self._engine.begin() as conn:
            done = await conn.execute(
                update(_LT)
                .where(
                    _LT.c.token_hash == digest,
                    _LT.c.used_at.is_(None),
                    _LT.c.expires_at > now,
                )
                .values(used_at=now)
            )
            if done.rowcount != 1:
                return None
            row = (await conn.execute(select(_LT).where(_LT.c.token_hash == digest))).one()
        return LaunchRecord(row.user_id, row.operator_id, json.loads(row.details))

    # -- replays ---------------------------------------------------------------------

    async def first_sight(self, operator_id: str, digest: str, *, now: float, keep: float) -> bool:
        """Record a signed call; False when the same call was seen within ``keep``
        seconds (a replay). Older records are dropped."""
        try:
            async with self._engine.begin() as conn:
                await conn.execute(delete(_OR).where(_OR.c.seen_at < now - keep))
                await conn.execute(
                    insert(_OR).values(operator_id=operator_id, digest=digest, seen_at=now)
                )
        except IntegrityError:
            return False
        return True

    async def origins(self) -> Sequence[str]:
        """The framing origins of every enabled operator."""
        async with self._engine.connect() as conn:
            rows = (await conn.execute(select(_O.c.origins).where(_O.c.disabled.is_(False)))).all()
        found: list[str] = []
        for row in rows:
            for origin in json.loads(row.origins):
                if origin not in found:
                    found.append(origin)
        return found
