"""Requests other processes forward about a table owned here, answered
(:mod:`punto.server.fanout.requests`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from punto.errors import UnavailableError
from punto.server.fanout.protocol import Chat, ChatMute, error_message, event_json, parse_command
from punto.server.fanout.requests import (
    CloseTable,
    Correct,
    Describe,
    GetRoads,
    GetSnapshot,
    Reconfigure,
    RefreshRoads,
    RunCommand,
    SetConnected,
    StatusAll,
    Transfer,
    request_from_json,
)
from punto.server.node.corrections import Corrections
from punto.server.node.leases import Leases
from punto.server.node.play import TablePlay
from punto.server.store.storage import ServerStore

__all__ = ["Answers"]


class Answers:
    """The bus's handler of this process: each request about a table goes to its runner
    (``leases``), a chat line to ``play``, a correction to ``corrections``."""

    def __init__(
        self,
        *,
        store: ServerStore,
        leases: Leases,
        play: TablePlay,
        corrections: Corrections,
    ) -> None:
        self._store = store
        self._leases = leases
        self._play = play
        self._corrections = corrections

    async def __call__(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Answer a request another process forwarded about a table owned here (a
        malformed one is a :class:`ProtocolError`)."""
        request = request_from_json(data)
        runners = self._leases.runners
        if isinstance(request, StatusAll):
            return {"tables": {t: r.status() for t, r in runners.items()}}
        runner = runners.get(request.table)
        if runner is None:
            return {"error": error_message(UnavailableError("the table moved; try again"))}
        match request:
            case RunCommand(actor=actor):
                command = parse_command(request.command)
                if isinstance(command, Chat | ChatMute):
                    await self._play.chat_here(runner, actor, command)
                    return {"events": []}
                done = await self._play.execute_here(runner, actor, command)
                return {"events": [event_json(e) for e in done]}
            case GetSnapshot(actor=actor, wallet=wallet):
                return {"snapshot": runner.snapshot(actor, wallet=wallet)}
            case Describe():
                return {"table": runner.describe()}
            case GetRoads(svg=svg):
                return {"roads": runner.roads_message(svg=svg)}
            case SetConnected(player=player, connected=connected):
                await runner.set_connected(player, connected)
            case Reconfigure():
                await runner.reconfigure(await self._store.table(runner.id))
            case Correct():
                return await self._corrections.correct_here(runner, request)
            case RefreshRoads():
                await runner.refresh_roads()
            case Transfer(player=player, amount=amount, reason=reason):
                await runner.transfer(player, amount, reason=reason)
            case CloseTable(reason=reason):
                await self._leases.close(runner.id, reason)
        return {}
