"""Presence: which tables each player is at, within the number of tables one player may
be at at a time."""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from sqlalchemy import Table, delete, insert, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.errors import ConflictError, TooManyTablesError
from punto.server.store.database import StorePart
from punto.server.store.schema import PresenceRow

__all__ = ["PresenceStore", "enter"]

_P = cast(Table, PresenceRow.__table__)

_PRESENCE_PG = text(
    "SELECT s.player_id, s.table_id FROM unnest(CAST(:ids AS varchar[])) AS v(id) "
    "JOIN server_presence AS s ON s.player_id = v.id ORDER BY s.player_id, s.since, s.table_id"
)
"""Where each of many players (distinct) is (:meth:`PresenceStore.tables_of_many`), on
PostgreSQL: a join with the array's elements, which a generic plan runs as fast as one
made for the values (``player_id = ANY(…)`` on a generic plan compares every row with
every id: ``punto.ledger.posting.LOCK_PG``)."""


async def enter(
    conn: AsyncConnection, player_id: str, table_id: str, *, limit: int, now: float
) -> None:
    """Note in ``conn``'s transaction that ``player_id`` is at ``table_id`` too, within
    ``limit`` tables (:class:`TooManyTablesError`); nothing when they are there already."""
    found = list(await conn.scalars(select(_P.c.table_id).where(_P.c.player_id == player_id)))
    if table_id in found:
        return
    if len(found) >= limit:
        raise TooManyTablesError(
            f"{player_id} is at {len(found)} tables ({', '.join(sorted(found))}); "
            f"one player may be at {limit} at a time: leave one first",
            limit=limit,
        )
    await conn.execute(insert(_P).values(player_id=player_id, table_id=table_id, since=now))


class PresenceStore(StorePart):
    """Who is at which table."""

    async def enter_table(self, player_id: str, table_id: str, *, limit: int = 1) -> None:
        """Note that the player is at ``table_id`` too; :class:`TooManyTablesError` when
        they are at ``limit`` other tables already (the caller holds the player's
        turn, :meth:`~punto.server.store.turns.TurnStore.turn`, so two joins never count
        at once)."""
        now = self._db.clock()

        async def unit(conn: AsyncConnection) -> None:
            await enter(conn, player_id, table_id, limit=limit, now=now)

        try:
            await self._db.run(unit)
        except IntegrityError:
            raise ConflictError(f"{player_id} is joining table {table_id} already") from None

    async def leave_table(self, player_id: str, table_id: str) -> None:
        """The player is no longer at ``table_id``."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                delete(_P).where(_P.c.player_id == player_id, _P.c.table_id == table_id)
            )

        await self._db.run(unit)

    async def clear_table(self, table_id: str) -> None:
        """Nobody is at ``table_id`` any more (it restarted)."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(delete(_P).where(_P.c.table_id == table_id))

        await self._db.run(unit)

    async def tables_of(self, player_id: str) -> list[str]:
        """The tables the player is at, in the order they joined them."""

        async def unit(conn: AsyncConnection) -> list[str]:
            rows = await conn.execute(
                select(_P.c.table_id)
                .where(_P.c.player_id == player_id)
                .order_by(_P.c.since, _P.c.table_id)
            )
            return [str(table_id) for (table_id,) in rows]

        return await self._db.run(unit)

    async def tables_of_many(self, player_ids: Iterable[str]) -> dict[str, list[str]]:
        """The tables each of the players is at (one query however many players: a
        settlement's thousands of players cost one look-up); players at no table are
        left out."""
        wanted = sorted(set(player_ids))
        found: dict[str, list[str]] = {}
        if not wanted:
            return found

        async def unit(conn: AsyncConnection) -> None:
            if conn.dialect.name == "postgresql":
                # one statement's text whatever the number of players: an IN list of as
                # many parameters as players was a new statement for the server to
                # prepare at nearly every batch of confirms (a round trip, and the
                # connection's cache of prepared statements churned)
                chunks = [await conn.execute(_PRESENCE_PG, {"ids": wanted})]
            else:
                chunks = [
                    await conn.execute(
                        select(_P.c.player_id, _P.c.table_id)
                        .where(_P.c.player_id.in_(wanted[start : start + 1000]))
                        .order_by(_P.c.player_id, _P.c.since, _P.c.table_id)
                    )
                    for start in range(0, len(wanted), 1000)
                ]
            for rows in chunks:
                for player_id, table_id in rows:
                    found.setdefault(str(player_id), []).append(str(table_id))

        await self._db.read_one(unit)  # asked after every batch of confirms
        return found

    async def table_of(self, player_id: str) -> str | None:
        """The first table the player joined of those they are at, if any."""
        tables = await self.tables_of(player_id)
        return tables[0] if tables else None
