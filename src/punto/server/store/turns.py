"""Players' turns: one move of a player's money in or out of a table (a join, a deposit,
a withdrawal) at a time, across processes, with a holder that notes it is alive."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from typing import cast

from sqlalchemy import Table, delete, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.errors import ConflictError
from punto.server.store.database import StorePart, dialect_insert
from punto.server.store.presence import enter
from punto.server.store.schema import PlayerTurnRow

__all__ = ["TURN_REFRESH", "TURN_STALE", "TurnStore"]

_LOG = logging.getLogger("punto.server.store.turns")

_PT = cast(Table, PlayerTurnRow.__table__)

TURN_REFRESH = 2.0
"""Seconds between a held turn's notes that its holder is alive (:meth:`TurnStore.turn`)."""

TURN_STALE = 10.0
"""Seconds without such a note after which a player's turn is taken over: its holder
stopped (a process killed during a join, a deposit or a withdrawal). A single process
gives back at its start every turn its predecessor left (:meth:`TurnStore.release_turns`)."""


class TurnStore(StorePart):
    """The players' turns."""

    async def take_turn(
        self,
        player_id: str,
        token: str,
        *,
        now: float | None = None,
        entering: str | None = None,
        limit: int = 1,
    ) -> bool:
        """Take ``player_id``'s turn (``False``: someone else holds it). ``entering``: in
        the same transaction, note that they are at that table too
        (:meth:`~punto.server.store.presence.PresenceStore.enter_table`; refused, the turn
        is not taken either)."""
        wall = self._db.clock()
        at = wall if now is None else now
        row = {"player_id": player_id, "token": token, "since": at}

        async def unit(conn: AsyncConnection) -> bool:
            stmt = dialect_insert(conn, _PT).values(row).on_conflict_do_nothing()
            if (await conn.execute(stmt)).rowcount != 1:
                stale = await conn.execute(
                    update(_PT)
                    .where(_PT.c.player_id == player_id, _PT.c.since < at - TURN_STALE)
                    .values(token=token, since=at)
                )
                if stale.rowcount != 1:
                    return False
            if entering is not None:
                await enter(conn, player_id, entering, limit=limit, now=wall)
            return True

        try:
            return await self._db.run(unit)
        except IntegrityError:
            raise ConflictError(f"{player_id} is joining table {entering} already") from None

    async def release_turns(self) -> int:
        """Give back every player's turn; how many were held. For a process that is the
        only one on its database, at its start: a turn held then was its stopped
        predecessor's (killed during a join, a deposit or a withdrawal), and the player
        need not wait ``TURN_STALE`` seconds to join again. What that move did to the
        money is the ledger's, which a restart recovers (its rounds, the wallet outbox)."""

        async def unit(conn: AsyncConnection) -> int:
            return (await conn.execute(delete(_PT))).rowcount

        return await self._db.run(unit)

    async def refresh_turn(self, player_id: str, token: str, *, now: float | None = None) -> bool:
        """Note that the holder of ``player_id``'s turn ``token`` is alive (its ``since``
        set to ``now``); ``False`` when that turn is not held (anymore)."""
        at = self._db.clock() if now is None else now

        async def unit(conn: AsyncConnection) -> bool:
            done = await conn.execute(
                update(_PT)
                .where(_PT.c.player_id == player_id, _PT.c.token == token)
                .values(since=at)
            )
            return done.rowcount == 1

        return await self._db.run(unit)

    async def _keep_turn(self, player_id: str, token: str) -> None:
        """While a turn is held: note every ``TURN_REFRESH`` seconds that its holder is
        alive, so that only a stopped holder's turn goes stale (``TURN_STALE``)."""
        while True:
            await asyncio.sleep(TURN_REFRESH)
            try:
                if not await self.refresh_turn(player_id, token):
                    _LOG.warning(
                        "a player's turn was taken over while held", extra={"player": player_id}
                    )
                    return
            except Exception:  # the database is away: tried again at the next interval
                _LOG.warning(
                    "a player's turn not refreshed", extra={"player": player_id}, exc_info=True
                )

    async def end_turn(self, player_id: str, token: str) -> None:
        """Give the turn back."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                delete(_PT).where(_PT.c.player_id == player_id, _PT.c.token == token)
            )

        await self._db.run(unit)

    @contextlib.asynccontextmanager
    async def turn(
        self, player_id: str, *, wait: float = 0.0, entering: str | None = None, limit: int = 1
    ) -> AsyncIterator[None]:
        """Hold ``player_id``'s turn while their money moves in or out of a table (join,
        deposit, withdrawal), across processes; :class:`ConflictError` when another move
        of theirs does not end within ``wait`` seconds. ``entering`` (a join): the player
        is noted at that table in the transaction that takes the turn, one commit for the
        two (:class:`TooManyTablesError`, nothing taken, beyond ``limit`` tables)."""
        token = secrets.token_hex(16)
        deadline = self._db.clock() + wait
        while not await self.take_turn(player_id, token, entering=entering, limit=limit):
            if self._db.clock() >= deadline:
                raise ConflictError(
                    f"{player_id}'s money is being moved right now (a join, deposit or "
                    "withdrawal): try again"
                )
            await asyncio.sleep(0.02)
        keeper = asyncio.create_task(self._keep_turn(player_id, token), name="punto-turn")
        try:
            yield
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
            await self.end_turn(player_id, token)
