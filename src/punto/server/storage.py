"""The server's records in the database (async SQLAlchemy): users, table configurations,
ownership leases, shoes, hand records, amendments, presence and the wallet outbox.

Money is not here: it lives in the ledger (:mod:`punto.ledger.store`), in the same
database. Every method is one short transaction.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import orjson
from sqlalchemy import Table, and_, delete, false, insert, or_, select, true, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from punto.errors import ConflictError, NotFoundError
from punto.server.auth import Role
from punto.server.schema import (
    AmendmentRow,
    HandPlayerRow,
    HandRow,
    LeaseRow,
    OutboxRow,
    PresenceRow,
    ShoeRow,
    TableRow,
    UserRow,
)
from punto.server.tables import TableConfig, tiers_to_json

__all__ = ["Outbox", "ServerStore", "User"]

_T = TypeVar("_T")
_U = cast(Table, UserRow.__table__)
_TB = cast(Table, TableRow.__table__)
_L = cast(Table, LeaseRow.__table__)
_S = cast(Table, ShoeRow.__table__)
_H = cast(Table, HandRow.__table__)
_HP = cast(Table, HandPlayerRow.__table__)
_AM = cast(Table, AmendmentRow.__table__)
_P = cast(Table, PresenceRow.__table__)
_O = cast(Table, OutboxRow.__table__)


@dataclass(frozen=True, slots=True)
class User:
    """A user as stored (the password only as its hash)."""

    id: str
    role: Role
    display_name: str
    password_hash: str

    def to_json(self) -> dict[str, Any]:
        """The user object of the admin API."""
        return {"user_id": self.id, "role": self.role.value, "display_name": self.display_name}


@dataclass(frozen=True, slots=True)
class Outbox:
    """A wallet call still to be made (seamless wallet)."""

    id: int
    transaction_id: str
    player_id: str
    amount: int
    kind: str
    round_id: str | None
    attempts: int


def _table_values(config: TableConfig) -> dict[str, Any]:
    return {
        "name": config.name,
        "rules": config.rules,
        "kind": config.kind.value,
        "dealing": config.dealing.value,
        "reading": None if config.reading is None else config.reading.value,
        "seats": config.seats,
        "betting_seconds": config.betting_seconds,
        "vip_min_balance": config.vip_min_balance,
        "limits": tiers_to_json(config.limits),
        "enabled": config.enabled,
    }


class ServerStore:
    """The server's tables on an engine shared with the ledger."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def _run(self, unit: Callable[[AsyncConnection], Awaitable[_T]]) -> _T:
        async with self._engine.begin() as conn:
            return await unit(conn)

    # -- users ----------------------------------------------------------------------

    async def create_user(
        self, user_id: str, *, role: Role, display_name: str, password_hash: str
    ) -> User:
        """Add a user; :class:`ConflictError` if the name is taken."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(_U).values(
                    id=user_id,
                    role=role.value,
                    display_name=display_name,
                    password_hash=password_hash,
                )
            )

        try:
            await self._run(unit)
        except IntegrityError:
            raise ConflictError(f"the user name {user_id!r} is taken") from None
        return User(user_id, role, display_name, password_hash)

    async def user(self, user_id: str) -> User | None:
        """The user ``user_id``, if any."""

        async def unit(conn: AsyncConnection) -> User | None:
            row = (await conn.execute(select(_U).where(_U.c.id == user_id))).first()
            if row is None:
                return None
            return User(row.id, Role(row.role), row.display_name, row.password_hash)

        return await self._run(unit)

    async def users(self) -> list[User]:
        """Every user, by name."""

        async def unit(conn: AsyncConnection) -> list[User]:
            rows = await conn.execute(select(_U).order_by(_U.c.id))
            return [User(r.id, Role(r.role), r.display_name, r.password_hash) for r in rows]

        return await self._run(unit)

    # -- tables ---------------------------------------------------------------------

    async def create_table(self, config: TableConfig) -> TableConfig:
        """Add a table; :class:`ConflictError` if the id is taken."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(insert(_TB).values(id=config.id, **_table_values(config)))

        try:
            await self._run(unit)
        except IntegrityError:
            raise ConflictError(f"there is already a table {config.id!r}") from None
        return config

    async def update_table(self, config: TableConfig) -> TableConfig:
        """Store a changed table configuration."""

        async def unit(conn: AsyncConnection) -> None:
            result = await conn.execute(
                update(_TB).where(_TB.c.id == config.id).values(**_table_values(config))
            )
            if result.rowcount != 1:
                raise NotFoundError(f"no table {config.id!r}")

        await self._run(unit)
        return config

    async def tables(self, *, enabled_only: bool = False) -> list[TableConfig]:
        """Every table configuration, by id."""

        async def unit(conn: AsyncConnection) -> list[TableConfig]:
            query = select(_TB).order_by(_TB.c.created_at, _TB.c.id)
            if enabled_only:
                query = query.where(_TB.c.enabled.is_(True))
            return [TableConfig.from_json(dict(row._mapping)) for row in await conn.execute(query)]

        return await self._run(unit)

    async def table(self, table_id: str) -> TableConfig:
        """The table ``table_id``; :class:`NotFoundError` if there is none."""

        async def unit(conn: AsyncConnection) -> TableConfig:
            row = (await conn.execute(select(_TB).where(_TB.c.id == table_id))).first()
            if row is None:
                raise NotFoundError(f"no table {table_id!r}")
            return TableConfig.from_json(dict(row._mapping))

        return await self._run(unit)

    async def last_shoe(self, table_id: str) -> int:
        """The number of the table's last shoe (0: none yet)."""

        async def unit(conn: AsyncConnection) -> int:
            value = await conn.scalar(select(_TB.c.last_shoe).where(_TB.c.id == table_id))
            return int(value or 0)

        return await self._run(unit)

    # -- ownership leases -------------------------------------------------------------

    async def acquire_lease(
        self, table_id: str, owner: str, *, ttl: float, force: bool = False
    ) -> bool:
        """Take or renew the table's lease for ``owner``; ``False`` while another owner's
        lease runs (unless ``force``: a single process taking its tables back after a
        crash)."""
        now = time.time()

        async def unit(conn: AsyncConnection) -> bool:
            free = or_(_L.c.owner == owner, _L.c.expires_at < now, true() if force else false())
            result = await conn.execute(
                update(_L)
                .where(_L.c.table_id == table_id, free)
                .values(owner=owner, expires_at=now + ttl)
            )
            if result.rowcount == 1:
                return True
            row = {"table_id": table_id, "owner": owner, "expires_at": now + ttl}
            if conn.dialect.name == "postgresql":
                stmt: Any = pg_insert(_L).values(row).on_conflict_do_nothing()
            else:
                stmt = sqlite_insert(_L).values(row).on_conflict_do_nothing()
            return bool((await conn.execute(stmt)).rowcount == 1)

        return await self._run(unit)

    async def renew_leases(self, table_ids: Iterable[str], owner: str, *, ttl: float) -> set[str]:
        """Renew ``owner``'s leases; returns the tables still owned."""
        ids = list(table_ids)
        now = time.time()

        async def unit(conn: AsyncConnection) -> set[str]:
            if not ids:
                return set()
            await conn.execute(
                update(_L)
                .where(_L.c.table_id.in_(ids), _L.c.owner == owner)
                .values(expires_at=now + ttl)
            )
            rows = await conn.execute(
                select(_L.c.table_id).where(_L.c.table_id.in_(ids), _L.c.owner == owner)
            )
            return {r.table_id for r in rows}

        return await self._run(unit)

    async def release_leases(self, table_ids: Iterable[str], owner: str) -> None:
        """Give the tables up (a graceful shutdown)."""
        ids = list(table_ids)

        async def unit(conn: AsyncConnection) -> None:
            if ids:
                await conn.execute(delete(_L).where(_L.c.table_id.in_(ids), _L.c.owner == owner))

        await self._run(unit)

    async def owners(self) -> dict[str, str]:
        """The owner of every table whose lease runs now."""
        now = time.time()

        async def unit(conn: AsyncConnection) -> dict[str, str]:
            rows = await conn.execute(select(_L).where(_L.c.expires_at >= now))
            return {r.table_id: r.owner for r in rows}

        return await self._run(unit)

    # -- shoes ----------------------------------------------------------------------

    async def shoe_opened(
        self, table_id: str, shoe: int, *, cards: int, commitment: str | None, at: float
    ) -> None:
        """Record a shoe's commitment (and the table's last shoe number)."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(_S).values(
                    table_id=table_id, shoe=shoe, cards=cards, commitment=commitment, opened_at=at
                )
            )
            await conn.execute(update(_TB).where(_TB.c.id == table_id).values(last_shoe=shoe))

        await self._run(unit)

    async def shoe_closed(
        self,
        table_id: str,
        shoe: int,
        *,
        at: float,
        hands: int,
        reason: str,
        order: str | None,
        salt: str | None,
    ) -> None:
        """Record a shoe's end and reveal."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                update(_S)
                .where(_S.c.table_id == table_id, _S.c.shoe == shoe)
                .values(
                    closed_at=at, hands=hands, reason=reason, reveal_order=order, reveal_salt=salt
                )
            )

        await self._run(unit)

    async def shoes(self, table_id: str, *, limit: int = 10) -> list[dict[str, Any]]:
        """The table's latest shoes, newest first."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            rows = await conn.execute(
                select(_S).where(_S.c.table_id == table_id).order_by(_S.c.shoe.desc()).limit(limit)
            )
            return [dict(r._mapping) for r in rows]

        return await self._run(unit)

    # -- hands ----------------------------------------------------------------------

    async def save_hand(
        self,
        *,
        game: str,
        table_id: str,
        shoe: int,
        hand: int,
        opened_at: float,
        closed_at: float | None,
        status: str,
        record: Mapping[str, Any],
        players: Sequence[str],
    ) -> None:
        """Store (or replace) a hand's record and who bet on it."""
        # orjson: a hand of thousands of bets is encoded in milliseconds, not a fifth of a
        # second (the same JSON text as json.dumps(sort_keys=True) but for spacing)
        text = orjson.dumps(record, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(delete(_HP).where(_HP.c.game == game))
            await conn.execute(delete(_H).where(_H.c.game == game))
            await conn.execute(
                insert(_H).values(
                    game=game,
                    table_id=table_id,
                    shoe=shoe,
                    hand=hand,
                    opened_at=opened_at,
                    closed_at=closed_at,
                    status=status,
                    record=text,
                )
            )
            if players:
                await conn.execute(
                    insert(_HP),
                    [{"game": game, "player_id": p, "closed_at": closed_at} for p in players],
                )

        await self._run(unit)

    async def hand(self, game: str) -> dict[str, Any] | None:
        """A hand's stored record (with ``status``), if any."""

        async def unit(conn: AsyncConnection) -> dict[str, Any] | None:
            row = (await conn.execute(select(_H).where(_H.c.game == game))).first()
            if row is None:
                return None
            record: dict[str, Any] = json.loads(row.record)
            record["status"] = row.status
            return record

        return await self._run(unit)

    async def hands(self, table_id: str, *, limit: int = 20) -> list[dict[str, Any]]:
        """The table's latest hands, newest first."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            rows = await conn.execute(
                select(_H.c.record, _H.c.status)
                .where(_H.c.table_id == table_id)
                .order_by(_H.c.opened_at.desc())
                .limit(limit)
            )
            return [json.loads(r.record) | {"status": r.status} for r in rows]

        return await self._run(unit)

    async def player_hands(
        self, player_id: str, *, limit: int = 50, before: float | None = None
    ) -> list[dict[str, Any]]:
        """The hands a player bet on, newest first."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            query = (
                select(_H.c.record, _H.c.status)
                .join(_HP, _HP.c.game == _H.c.game)
                .where(_HP.c.player_id == player_id)
                .order_by(_H.c.opened_at.desc())
                .limit(limit)
            )
            if before is not None:
                query = query.where(_H.c.opened_at < before)
            return [json.loads(r.record) | {"status": r.status} for r in await conn.execute(query)]

        return await self._run(unit)

    # -- amendments -------------------------------------------------------------------

    async def add_amendment(
        self,
        *,
        game: str,
        table_id: str,
        kind: str,
        author: str,
        reason: str,
        outcome: Mapping[str, Any] | None,
        corrections: Mapping[str, int],
    ) -> dict[str, Any]:
        """Record a correction or a void of a settled hand."""
        row = {
            "game": game,
            "table_id": table_id,
            "kind": kind,
            "author": author,
            "reason": reason,
            "at": time.time(),
            "outcome": None if outcome is None else json.dumps(outcome),
            "corrections": json.dumps(dict(corrections), sort_keys=True),
        }

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(insert(_AM).values(**row))

        await self._run(unit)
        return _amendment(row)

    async def amendments(
        self, *, game: str | None = None, table_id: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """Amendments, newest first."""
        conditions = []
        if game is not None:
            conditions.append(_AM.c.game == game)
        if table_id is not None:
            conditions.append(_AM.c.table_id == table_id)

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            rows = await conn.execute(
                select(_AM).where(and_(true(), *conditions)).order_by(_AM.c.id.desc()).limit(limit)
            )
            return [_amendment(dict(r._mapping)) for r in rows]

        return await self._run(unit)

    # -- presence -------------------------------------------------------------------

    async def enter_table(self, player_id: str, table_id: str) -> None:
        """Note that the player is at ``table_id``; :class:`ConflictError` if at another."""

        async def unit(conn: AsyncConnection) -> None:
            found = await conn.scalar(select(_P.c.table_id).where(_P.c.player_id == player_id))
            if found is not None and found != table_id:
                raise ConflictError(
                    f"{player_id} is at table {found}: leave it before joining another"
                )
            if found is None:
                await conn.execute(
                    insert(_P).values(player_id=player_id, table_id=table_id, since=time.time())
                )

        try:
            await self._run(unit)
        except IntegrityError:
            raise ConflictError(f"{player_id} is joining another table") from None

    async def leave_table(self, player_id: str, table_id: str) -> None:
        """The player is no longer at ``table_id``."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                delete(_P).where(_P.c.player_id == player_id, _P.c.table_id == table_id)
            )

        await self._run(unit)

    async def clear_table(self, table_id: str) -> None:
        """Nobody is at ``table_id`` any more (it restarted)."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(delete(_P).where(_P.c.table_id == table_id))

        await self._run(unit)

    async def table_of(self, player_id: str) -> str | None:
        """The table the player is at."""

        async def unit(conn: AsyncConnection) -> str | None:
            found = await conn.scalar(select(_P.c.table_id).where(_P.c.player_id == player_id))
            return None if found is None else str(found)

        return await self._run(unit)

    # -- wallet outbox ----------------------------------------------------------------

    async def add_outbox(
        self, *, transaction_id: str, player_id: str, amount: int, kind: str, round_id: str | None
    ) -> None:
        """Queue a wallet call (idempotent by ``transaction_id``)."""
        row = {
            "transaction_id": transaction_id,
            "player_id": player_id,
            "amount": amount,
            "kind": kind,
            "round_id": round_id,
            "attempts": 0,
            "done": False,
        }

        async def unit(conn: AsyncConnection) -> None:
            if conn.dialect.name == "postgresql":
                stmt: Any = pg_insert(_O).values(row).on_conflict_do_nothing()
            else:
                stmt = sqlite_insert(_O).values(row).on_conflict_do_nothing()
            await conn.execute(stmt)

        await self._run(unit)

    async def pending_outbox(self, *, limit: int = 100) -> list[Outbox]:
        """Wallet calls not yet delivered, oldest first."""

        async def unit(conn: AsyncConnection) -> list[Outbox]:
            rows = await conn.execute(
                select(_O).where(_O.c.done.is_(False)).order_by(_O.c.id).limit(limit)
            )
            return [
                Outbox(
                    r.id, r.transaction_id, r.player_id, r.amount, r.kind, r.round_id, r.attempts
                )
                for r in rows
            ]

        return await self._run(unit)

    async def outbox_done(self, item_id: int, *, error: str | None) -> None:
        """Mark a wallet call delivered (``error`` None) or note a failed attempt."""

        async def unit(conn: AsyncConnection) -> None:
            values: dict[str, Any] = {"attempts": _O.c.attempts + 1, "last_error": error}
            if error is None:
                values["done"] = True
            await conn.execute(update(_O).where(_O.c.id == item_id).values(**values))

        await self._run(unit)


def _amendment(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "game": row["game"],
        "table": row["table_id"],
        "kind": row["kind"],
        "author": row["author"],
        "reason": row["reason"],
        "at": row["at"],
        "outcome": None if row["outcome"] is None else json.loads(row["outcome"]),
        "corrections": json.loads(row["corrections"]),
    }
