"""Table balances that follow a player's wallet: money moved at one table, or outside
any (a correction, a transfer), moves the player's balance at each of their other
tables the same way (multi-table play)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any

from punto.errors import UnavailableError
from punto.server.fanout.requests import TableRequest, Transfer
from punto.server.store.storage import ServerStore
from punto.server.tables.runner import TableRunner
from punto.table.reasons import Reason, Why

__all__ = ["Mirror"]

_LOG = logging.getLogger("punto.server.node")

Route = Callable[[TableRequest], Awaitable[dict[str, Any]]]
"""Ask a table's owner (another process): :meth:`Routing.route`."""


class Mirror:
    """Follows moves of players' money to their other tables. ``runners`` are the tables
    owned here; ``route`` reaches the others; a process ``alone`` on its database owns
    every table, so its own tables say where players are; ``stopping`` says the process
    is shutting down (no move is followed then)."""

    def __init__(
        self,
        *,
        runners: Mapping[str, TableRunner],
        store: ServerStore,
        route: Route,
        alone: bool,
        stopping: Callable[[], bool],
    ) -> None:
        self._runners = runners
        self._store = store
        self._route = route
        self._alone = alone
        self._stopping = stopping
        self._moves: list[tuple[str, int, str]] = []
        """Moves of players' money by play at a table, for their other tables to follow
        (:meth:`moved`): ``(player, amount, table)`` in the order they happened."""
        self._mirroring: asyncio.Task[None] | None = None

    def moved(self, player: str, amount: int, table_id: str) -> None:
        """Play at ``table_id`` moved ``amount`` of ``player``'s wallet (a stake, a
        settlement, a refund): their other tables move their table balance the same way,
        so each shows what the player has. Queued for one task of the process, never run
        under a table's lock: it looks up at once where all the players whose money moved
        meanwhile are (a settlement's thousands of players, a batch of confirms), then
        follows each move in the order it happened. A process alone on its database owns
        every table there is, so its own tables say where players are; with others
        (Redis), one query of the database's presence does."""
        if self._stopping() or not amount:
            return
        self._moves.append((player, amount, table_id))
        if self._mirroring is None or self._mirroring.done():
            self._mirroring = asyncio.create_task(self._follow_moves(), name="punto-mirror")

    async def drain(self, *, timeout: float) -> None:
        """Wait (up to ``timeout`` seconds) for the moves queued to be followed."""
        if self._mirroring is not None and not self._mirroring.done():
            await asyncio.wait({self._mirroring}, timeout=timeout)

    async def transfer(
        self, player: str, amount: int, *, reason: Why, skip: str | None = None
    ) -> None:
        """Money moved in a player's wallet outside a table's hand: every table they are at
        (but ``skip``, where it moved) moves their table balance the same way."""
        if not amount:
            return
        tables = [t for t in await self._store.tables_of(player) if t != skip]
        await self._transfer_at(tables, player, amount, reason=reason)

    async def _follow_moves(self) -> None:
        while self._moves:
            moves, self._moves = self._moves, []
            try:
                players = [player for player, _, _ in moves]
                where = (
                    self._tables_here(players)
                    if self._alone
                    else await self._store.tables_of_many(players)
                )
            except Exception:  # a display figure: the ledger holds the money
                _LOG.exception("table balances not followed", extra={"moves": len(moves)})
                continue
            for player, amount, skip in moves:
                tables = [t for t in where.get(player, ()) if t != skip]
                if not tables:
                    continue
                try:
                    await self._transfer_at(tables, player, amount, reason=Why(Reason.OTHER_TABLE))
                except Exception:
                    _LOG.exception("table balance not followed", extra={"player": player})

    def _tables_here(self, players: Iterable[str]) -> dict[str, list[str]]:
        """The tables of this process each of ``players`` is at (as
        :meth:`ServerStore.tables_of_many`, from the tables' own seats: no query for a
        process alone on its database, which owns every table; players at none are left
        out)."""
        wanted = set(players)
        found: dict[str, list[str]] = {}
        for table_id, runner in self._runners.items():
            for player in wanted:  # the few who moved, not the table's thousands
                if runner.at_table(player):
                    found.setdefault(player, []).append(table_id)
        return found

    async def _transfer_at(
        self, tables: Sequence[str], player: str, amount: int, *, reason: Why
    ) -> None:
        for table_id in tables:
            runner = self._runners.get(table_id)
            if runner is not None:
                await runner.transfer(player, amount, reason=reason)
                continue
            with contextlib.suppress(UnavailableError):
                await self._route(Transfer(table_id, player, amount, reason))
