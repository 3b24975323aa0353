"""Hand records: each hand's record (its events as JSON text), who bet on it, and the
reads of them by hand, table, shoe, player and time."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, cast

import orjson
from sqlalchemy import Table, delete, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.server.store.database import StorePart, dialect_insert
from punto.server.store.schema import HandPlayerRow, HandRow

__all__ = ["HandStore", "record_piece"]

_H = cast(Table, HandRow.__table__)
_HP = cast(Table, HandPlayerRow.__table__)

_RECORD_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
"""A hand record's text. orjson: a hand of thousands of bets is encoded quickly (the same
JSON text as ``json.dumps(sort_keys=True)`` but for spacing)."""

_ADD_HAND_PLAYERS = text(
    "INSERT INTO server_hand_players (game, player_id, closed_at) "
    "SELECT CAST(:g AS varchar), p, CAST(:c AS double precision) "
    "FROM unnest(CAST(:p AS varchar[])) AS p "
    "ON CONFLICT DO NOTHING"
)
"""A hand's players in one statement (PostgreSQL): thousands of them, one array."""


def record_piece(data: Mapping[str, Any]) -> orjson.Fragment:
    """A part of a hand record (one event's JSON) encoded now, as the record's text will
    hold it: a record made of pieces encoded while the hand was played is written at its
    end without encoding them all again (a busy table's hand has tens of thousands of
    events)."""
    return orjson.Fragment(orjson.dumps(data, option=_RECORD_OPTIONS))


class _WithdrawnError(Exception):
    """A record saved alongside a settlement that did not happen (rolled back)."""


def _records(rows: Any) -> list[dict[str, Any]]:
    return [json.loads(r.record) | {"status": r.status} for r in rows]


class HandStore(StorePart):
    """The hands' records and players."""

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
        after: Awaitable[bool] | None = None,
        replace: bool = True,
        closed_bets: Sequence[str] | None = None,
    ) -> bool:
        """Store (or replace) a hand's record and who bet on it; whether it was stored.

        ``replace=False``: stored only if the hand has no record yet (a record rebuilt
        from the ledger never takes the place of the one the table saved).

        ``after``: stored only if it comes true — a settlement's ledger transaction, so
        that no record says *settled* of money that did not move. On PostgreSQL the
        record is written meanwhile, in a transaction held open until ``after`` says
        whether to commit (the two transactions' work overlaps); on SQLite, which has
        one writer, it is written once ``after`` is true.

        ``closed_bets``: the side bets the hand closed for the shoe's edge [EZ-C]
        (``None``: as stored, none for a new hand)."""
        encoded = orjson.dumps(record, option=_RECORD_OPTIONS).decode()

        values = {
            "table_id": table_id,
            "shoe": shoe,
            "hand": hand,
            "opened_at": opened_at,
            "closed_at": closed_at,
            "status": status,
            "record": encoded,
        }
        if closed_bets is not None:
            values["closed_bets"] = " ".join(closed_bets)
        wanted = sorted(set(players))
        # the transaction waits for ``after`` on PostgreSQL; SQLite's one writer first
        held = after if self._db.postgresql else None

        async def unit(conn: AsyncConnection) -> bool:
            # An upsert, not delete-then-insert: two saves of one hand at once (the table's
            # and a supervisor's amendment) never collide on the key or deadlock.
            # The update takes the inserted row's values (``excluded``): the record (megabytes
            # at a table of thousands) is sent and parsed once, not a second time for it.
            stmt = dialect_insert(conn, _H).values(game=game, **values)
            if not replace:
                done = await conn.execute(stmt.on_conflict_do_nothing(index_elements=[_H.c.game]))
                if not done.rowcount:
                    return False  # the hand has its record: left as it is
            else:
                again = {name: stmt.excluded[name] for name in values}
                await conn.execute(
                    stmt.on_conflict_do_update(index_elements=[_H.c.game], set_=again)
                )
            # Who bet is written once: a hand saved again (an amendment) changes the
            # list rarely, so only the difference is written, and a first save of a
            # hand of thousands of players is one bulk insert.
            before = set(await conn.scalars(select(_HP.c.player_id).where(_HP.c.game == game)))
            gone = sorted(before - set(wanted))
            if gone:
                await conn.execute(delete(_HP).where(_HP.c.game == game, _HP.c.player_id.in_(gone)))
            if before:
                await conn.execute(
                    update(_HP).where(_HP.c.game == game).values(closed_at=closed_at)
                )
            new = [p for p in wanted if p not in before]
            if new and conn.dialect.name == "postgresql":
                await conn.execute(_ADD_HAND_PLAYERS, {"g": game, "p": new, "c": closed_at})
            elif new:
                rows = [{"game": game, "player_id": p, "closed_at": closed_at} for p in new]
                # executemany: one statement compiled once (two saves of one hand at once
                # may both insert a player: the second does nothing)
                await conn.execute(dialect_insert(conn, _HP).on_conflict_do_nothing(), rows)
            if held is not None and not await held:
                raise _WithdrawnError  # rolls the transaction back
            return True

        if after is not None and held is None and not await after:
            return False
        try:
            return await self._db.run(unit)
        except _WithdrawnError:
            return False

    async def hand(self, game: str) -> dict[str, Any] | None:
        """A hand's stored record (with ``status``), if any."""

        async def unit(conn: AsyncConnection) -> dict[str, Any] | None:
            row = (await conn.execute(select(_H).where(_H.c.game == game))).first()
            if row is None:
                return None
            record: dict[str, Any] = json.loads(row.record)
            record["status"] = row.status
            return record

        return await self._db.run(unit)

    async def saved_hands(self, games: Sequence[str]) -> set[str]:
        """Which of ``games`` have a stored record."""

        async def unit(conn: AsyncConnection) -> set[str]:
            return set(await conn.scalars(select(_H.c.game).where(_H.c.game.in_(games))))

        return await self._db.run(unit) if games else set()

    async def hands(self, table_id: str, *, limit: int = 20) -> list[dict[str, Any]]:
        """The table's latest hands, newest first."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            return _records(
                await conn.execute(
                    select(_H.c.record, _H.c.status)
                    .where(_H.c.table_id == table_id)
                    .order_by(_H.c.opened_at.desc())
                    .limit(limit)
                )
            )

        return await self._db.run(unit)

    async def shoe_hands(self, table_id: str, shoe: int) -> list[dict[str, Any]]:
        """Every hand record of one shoe of a table, by hand number."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            return _records(
                await conn.execute(
                    select(_H.c.record, _H.c.status)
                    .where(_H.c.table_id == table_id, _H.c.shoe == shoe)
                    .order_by(_H.c.hand)
                )
            )

        return await self._db.run(unit)

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
            return _records(await conn.execute(query))

        return await self._db.run(unit)

    async def hand_records(
        self,
        table_id: str,
        *,
        shoe: int | None = None,
        since: float | None = None,
        until: float | None = None,
    ) -> list[dict[str, Any]]:
        """A table's settled hand records in dealing order (one shoe, or a time range)."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            query = select(_H.c.record, _H.c.status).where(_H.c.table_id == table_id)
            if shoe is not None:
                query = query.where(_H.c.shoe == shoe)
            if since is not None:
                query = query.where(_H.c.closed_at >= since)
            if until is not None:
                query = query.where(_H.c.closed_at < until)
            return _records(await conn.execute(query.order_by(_H.c.shoe, _H.c.hand)))

        return await self._db.run(unit)
