"""Clients at a table: their commands, snapshots, roads and presence, at the table
wherever it is owned."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import Any, cast

from punto.errors import PuntoError, UnavailableError
from punto.server.auth import Actor, Role
from punto.server.fanout.protocol import Chat, ChatMute, Command, event_json
from punto.server.fanout.requests import GetRoads, GetSnapshot, RunCommand, SetConnected
from punto.server.features.chat import ChatRoom
from punto.server.money.bank import Bank
from punto.server.node.jurisdiction import SessionRules
from punto.server.node.routing import Routing
from punto.server.tables.runner import TableRunner
from punto.server.tables.snapshot import Snapshot
from punto.table.events import Event

__all__ = ["TablePlay"]


class TablePlay:
    """What clients ask of a table: straight to its runner when it is owned here
    (``runners``), through ``routing`` otherwise; it counts each player's connections to
    each table on this process. ``stopping`` says the process is shutting down."""

    def __init__(
        self,
        *,
        runners: Mapping[str, TableRunner],
        routing: Routing,
        bank: Bank,
        chat: ChatRoom,
        rules: SessionRules,
        stopping: Callable[[], bool],
    ) -> None:
        self._runners = runners
        self._rules = rules
        self._routing = routing
        self._bank = bank
        self._chat = chat
        self._stopping = stopping
        self._presence: dict[tuple[str, str], int] = {}

    async def command(self, table_id: str, actor: Actor, command: Command) -> list[dict[str, Any]]:
        """Apply a client command at its table, wherever the table is owned; the events
        it produced (as an auditor sees them)."""
        here = await self._command_here(table_id, actor, command)
        if here is not None:
            return [event_json(e) for e in here]
        return await self._command_routed(table_id, actor, command)

    async def command_count(self, table_id: str, actor: Actor, command: Command) -> int:
        """:meth:`command` for a client told only how many events its command produced
        (the WebSocket's ``ok``): at a table owned here, none is encoded for it (its
        viewers' texts are made by the fan-out)."""
        here = await self._command_here(table_id, actor, command)
        if here is not None:
            return len(here)
        return len(await self._command_routed(table_id, actor, command))

    async def _command_here(
        self, table_id: str, actor: Actor, command: Command
    ) -> tuple[Event, ...] | None:
        """The events of a command at a table owned here; ``None`` if it is owned elsewhere."""
        if self._stopping():
            raise UnavailableError("the server is shutting down")
        runner = self._runners.get(table_id)
        if runner is None:
            return None
        if isinstance(command, Chat | ChatMute):
            await self.chat_here(runner, actor, command)
            return ()
        return await self.execute_here(runner, actor, command)

    async def execute_here(
        self, runner: TableRunner, actor: Actor, command: Command
    ) -> tuple[Event, ...]:
        """A command at a table owned here, within the player's jurisdiction switches."""
        found = await self._rules.before(runner, actor, command)
        produced = await runner.execute(actor, command)
        await self._rules.after(runner, actor, command, found)
        return produced

    async def _command_routed(
        self, table_id: str, actor: Actor, command: Command
    ) -> list[dict[str, Any]]:
        answer = await self._routing.route(
            RunCommand(table_id, actor, command.model_dump(mode="json"))
        )
        return list(answer["events"])

    async def chat_here(self, runner: TableRunner, actor: Actor, command: Chat | ChatMute) -> None:
        """A chat line or mute at a table owned here (tagged with the hand in play)."""
        if isinstance(command, Chat):
            await self._rules.chat(actor)
        game = runner.table.game
        await self._chat.handle(runner.id, None if game is None else str(game), actor, command)

    async def snapshot(self, table_id: str, actor: Actor) -> Snapshot:
        """The ``snapshot`` message for ``actor``."""
        wallet = None
        if actor.role is Role.PLAYER and actor.user_id is not None:
            with contextlib.suppress(PuntoError):
                wallet = await self._bank.balance(actor.user_id)
        runner = self._runners.get(table_id)
        if runner is not None:
            return runner.snapshot(actor, wallet=wallet)
        answer = await self._routing.route(GetSnapshot(table_id, actor, wallet))
        snapshot = answer.get("snapshot")
        if not isinstance(snapshot, dict) or snapshot.get("type") != "snapshot":
            raise UnavailableError(f"the owner of {table_id} sent no snapshot; try again")
        return cast(Snapshot, snapshot)  # made by the owner's TableRunner.snapshot

    async def roads(self, table_id: str, *, svg: bool = False) -> dict[str, Any]:
        """The ``roads`` message of a table's current shoe."""
        runner = self._runners.get(table_id)
        if runner is not None:
            return runner.roads_message(svg=svg)
        return dict((await self._routing.route(GetRoads(table_id, svg)))["roads"])

    async def connected(self, table_id: str, player: str, *, connected: bool) -> None:
        """Count a player's connections to a table on this process; the first opened and
        the last closed tell the table [L]."""
        if self._stopping():
            return
        key = (table_id, player)
        count = self._presence.get(key, 0)
        if connected:
            self._presence[key] = count + 1
            if count:
                return
        elif count > 1:
            self._presence[key] = count - 1
            return
        else:
            self._presence.pop(key, None)
        runner = self._runners.get(table_id)
        with contextlib.suppress(PuntoError):
            if runner is not None:
                await runner.set_connected(player, connected)
            else:
                await self._routing.route(SetConnected(table_id, player, connected))
