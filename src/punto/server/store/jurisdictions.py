"""Jurisdiction profiles and launched players' play sessions under them
(:mod:`punto.server.operators.jurisdictions`, :mod:`punto.server.operators.sessions`)."""

from __future__ import annotations

import json
from typing import Any, cast

from sqlalchemy import Row, Table, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from punto.ledger.model import TransactionKind
from punto.ledger.tables import EntryRow, TransactionRow
from punto.server.operators.jurisdictions import Jurisdiction
from punto.server.operators.sessions import PlaySession
from punto.server.store.schema import JurisdictionRow, PlaySessionRow

__all__ = ["JurisdictionStore"]

_J = cast(Table, JurisdictionRow.__table__)
_S = cast(Table, PlaySessionRow.__table__)
_TX = cast(Table, TransactionRow.__table__)
_EN = cast(Table, EntryRow.__table__)

_PLAY = tuple(
    kind.value
    for kind in (
        TransactionKind.STAKE,
        TransactionKind.CANCEL,
        TransactionKind.SETTLE,
        TransactionKind.REFUND,
        TransactionKind.CORRECTION,
        TransactionKind.VOID,
        TransactionKind.ROLLBACK,
    )
)
"""The kinds of transaction that are play (not a deposit or a withdrawal)."""


def _profile(row: Row[Any]) -> Jurisdiction:
    return Jurisdiction(
        id=row.id,
        name=row.name,
        reality_check_interval=row.reality_check_interval,
        session_limit=row.session_limit,
        min_hand_interval=row.min_hand_interval,
        features_off=tuple(json.loads(row.features_off)),
    )


def _session(row: Row[Any]) -> PlaySession:
    return PlaySession(
        user_id=row.user_id,
        jurisdiction_id=row.jurisdiction_id,
        started_at=row.started_at,
        checked_at=row.checked_at,
        ended_at=row.ended_at,
        last_bet_at=row.last_bet_at,
        last_bet_hand=row.last_bet_hand,
        ledger_seq=int(row.ledger_seq),
    )


class JurisdictionStore:
    """The profiles' and the play sessions' tables in the server's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    # -- profiles --------------------------------------------------------------------

    async def put(self, profile: Jurisdiction, *, now: float) -> bool:
        """Add ``profile``, or replace the one of its id; True when it is new (a player
        launched on the old one plays on the new switches from their next request)."""
        values = {
            "name": profile.name,
            "reality_check_interval": profile.reality_check_interval,
            "session_limit": profile.session_limit,
            "min_hand_interval": profile.min_hand_interval,
            "features_off": json.dumps(list(profile.features_off)),
            "updated_at": now,
        }
        try:
            async with self._engine.begin() as conn:
                await conn.execute(insert(_J).values(id=profile.id, **values))
            return True
        except IntegrityError:
            pass
        async with self._engine.begin() as conn:
            await conn.execute(update(_J).where(_J.c.id == profile.id).values(**values))
        return False

    async def get(self, profile_id: str) -> Jurisdiction | None:
        """The profile ``profile_id``, if any."""
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(_J).where(_J.c.id == profile_id))).first()
        return None if row is None else _profile(row)

    async def all(self) -> list[Jurisdiction]:
        """Every profile, by id."""
        async with self._engine.connect() as conn:
            rows = (await conn.execute(select(_J).order_by(_J.c.id))).all()
        return [_profile(row) for row in rows]

    async def remove(self, profile_id: str) -> bool:
        """Remove a profile (False: there was none); its players' sessions end with it."""
        async with self._engine.begin() as conn:
            done = await conn.execute(delete(_J).where(_J.c.id == profile_id))
            await conn.execute(delete(_S).where(_S.c.jurisdiction_id == profile_id))
        return bool(done.rowcount)

    # -- play sessions ---------------------------------------------------------------

    async def start(self, user_id: str, profile_id: str | None, *, now: float) -> None:
        """A launched player's new session under ``profile_id`` (``None``: under none, any
        earlier session is dropped); its net result counts from the ledger as it is now."""
        async with self._engine.begin() as conn:
            await conn.execute(delete(_S).where(_S.c.user_id == user_id))
            if profile_id is None:
                return
            seq = (await conn.execute(select(func.coalesce(func.max(_TX.c.seq), 0)))).scalar()
            await conn.execute(
                insert(_S).values(
                    user_id=user_id,
                    jurisdiction_id=profile_id,
                    started_at=now,
                    checked_at=now,
                    ended_at=None,
                    last_bet_at=None,
                    last_bet_hand=None,
                    ledger_seq=int(seq or 0),
                )
            )

    async def session(self, user_id: str) -> tuple[PlaySession, Jurisdiction] | None:
        """The player's play session and its profile, if they have one."""
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    select(_S, _J)
                    .join(_J, _J.c.id == _S.c.jurisdiction_id)
                    .where(_S.c.user_id == user_id)
                )
            ).first()
        if row is None:
            return None
        return _session(row), _profile(row)

    async def checked(self, user_id: str, *, now: float) -> None:
        """The player acknowledged a reality check at ``now``."""
        async with self._engine.begin() as conn:
            await conn.execute(update(_S).where(_S.c.user_id == user_id).values(checked_at=now))

    async def end(self, user_id: str, *, now: float) -> None:
        """The player's session ends at ``now`` (their next launch starts another)."""
        async with self._engine.begin() as conn:
            await conn.execute(
                update(_S)
                .where(_S.c.user_id == user_id, _S.c.ended_at.is_(None))
                .values(ended_at=now)
            )

    async def bet(self, user_id: str, hand: str, *, now: float) -> None:
        """The player bet on ``hand`` at ``now``."""
        async with self._engine.begin() as conn:
            await conn.execute(
                update(_S)
                .where(_S.c.user_id == user_id)
                .values(last_bet_at=now, last_bet_hand=hand)
            )

    async def net(self, session: PlaySession) -> int:
        """The player's net result of the session (minor units of their currency): what
        their settled hands since it started won or lost, the house's side of them."""
        async with self._engine.connect() as conn:
            total = (
                await conn.execute(
                    select(func.coalesce(func.sum(_EN.c.amount), 0))
                    .select_from(_EN.join(_TX, _TX.c.id == _EN.c.transaction_id))
                    .where(
                        _TX.c.player_id == session.user_id,
                        _TX.c.seq > session.ledger_seq,
                        _TX.c.kind.in_(_PLAY),
                        _EN.c.account_code.like("house:%"),
                    )
                )
            ).scalar()
        return -int(total or 0)
