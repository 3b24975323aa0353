"""The requests one server process sends another about a table the other owns
(docs/server.md): typed, each with its wire name ``op``, and checked on arrival.

A process that gets a client's command, snapshot or correction for a table it does not
own forwards it over the bus to the owner (:meth:`punto.server.node.routing.Routing.route`); the
owner answers (:class:`punto.server.node.answers.Answers`). :func:`request_json` and
:func:`request_from_json` are the two ends; anything that is not one of these requests
is a :class:`~punto.errors.ProtocolError`.

>>> from punto.table.reasons import SHUTDOWN
>>> close = CloseTable(table="macau-1", reason=SHUTDOWN)
>>> request_from_json(request_json(close)) == close
True
>>> request_from_json({"op": "fly", "table": "macau-1"})
Traceback (most recent call last):
...
punto.errors.ProtocolError: unknown request 'fly'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from punto.codec import why_from_json
from punto.errors import ProtocolError
from punto.server.auth import Actor, Role
from punto.table.reasons import NONE, Why

__all__ = [
    "CloseTable",
    "Correct",
    "Describe",
    "GetRoads",
    "GetSnapshot",
    "Reconfigure",
    "RefreshRoads",
    "Request",
    "RunCommand",
    "SetConnected",
    "StatusAll",
    "TableRequest",
    "Transfer",
    "request_from_json",
    "request_json",
]


@dataclass(frozen=True, slots=True)
class StatusAll:
    """Every table this process runs, with its status (the lobby)."""

    op: ClassVar[str] = "status_all"


@dataclass(frozen=True, slots=True)
class RunCommand:
    """A client's command (its JSON, parsed by the owner) from ``actor``."""

    op: ClassVar[str] = "command"
    table: str
    actor: Actor
    command: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class GetSnapshot:
    """The ``snapshot`` message for ``actor`` (``wallet``: their wallet balance)."""

    op: ClassVar[str] = "snapshot"
    table: str
    actor: Actor
    wallet: int | None = None


@dataclass(frozen=True, slots=True)
class Describe:
    """``GET /api/tables/{id}`` of a table owned elsewhere."""

    op: ClassVar[str] = "describe"
    table: str


@dataclass(frozen=True, slots=True)
class GetRoads:
    """The ``roads`` message (with the SVG when ``svg``)."""

    op: ClassVar[str] = "roads"
    table: str
    svg: bool = False


@dataclass(frozen=True, slots=True)
class SetConnected:
    """A player's first connection opened, or last one closed [S13]."""

    op: ClassVar[str] = "connected"
    table: str
    player: str
    connected: bool


@dataclass(frozen=True, slots=True)
class Reconfigure:
    """The table's configuration changed in the database: read it again [S14]."""

    op: ClassVar[str] = "reconfigure"
    table: str


@dataclass(frozen=True, slots=True)
class Correct:
    """Re-settle a settled hand from corrected cards [O] (``outcome``: its JSON)."""

    op: ClassVar[str] = "correct"
    table: str
    game: str
    outcome: Mapping[str, Any]
    author: str
    reason: str
    correction_id: str


@dataclass(frozen=True, slots=True)
class RefreshRoads:
    """Amendments changed the shoe's hands: derive the roads again."""

    op: ClassVar[str] = "refresh_roads"
    table: str


@dataclass(frozen=True, slots=True)
class Transfer:
    """Money moved in a player's wallet outside the table: their table balance follows."""

    op: ClassVar[str] = "transfer"
    table: str
    player: str
    amount: int
    reason: Why = field(default=NONE)


@dataclass(frozen=True, slots=True)
class CloseTable:
    """Close the table for good (everyone leaves with their balance)."""

    op: ClassVar[str] = "close"
    table: str
    reason: Why = field(default=NONE)


TableRequest = (
    RunCommand
    | GetSnapshot
    | Describe
    | GetRoads
    | SetConnected
    | Reconfigure
    | Correct
    | RefreshRoads
    | Transfer
    | CloseTable
)
"""A request about one table, sent to the process that owns it."""
Request = StatusAll | TableRequest
"""Anything one process asks another."""


def request_json(request: Request) -> dict[str, Any]:
    """A request as the JSON object the bus carries."""
    out: dict[str, Any] = {"op": request.op}
    for spec in dataclasses.fields(request):
        name, value = spec.name, getattr(request, spec.name)
        if isinstance(value, Actor):
            value = {
                "user_id": value.user_id,
                "role": None if value.role is None else value.role.value,
                "name": value.name,
            }
        elif isinstance(value, Why):
            out["reason_params"] = dict(value.params)
            value = value.code.value
        elif isinstance(value, Mapping):
            value = dict(value)
        out[name] = value
    return out


def request_from_json(data: Mapping[str, Any]) -> Request:
    """A request from :func:`request_json`'s object; :class:`ProtocolError` if it is
    none."""
    op = data.get("op")
    if op == StatusAll.op:
        return StatusAll()
    parse = _PARSERS.get(op) if isinstance(op, str) else None
    if parse is None:
        raise ProtocolError(f"unknown request {op!r}")
    try:
        return parse(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ProtocolError(f"a malformed {op} request: {exc}") from None


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise TypeError(f"{key} is text, not {value!r}")
    return value


def _flag(data: Mapping[str, Any], key: str, *, required: bool = False) -> bool:
    value = data[key] if required else data.get(key, False)
    if not isinstance(value, bool):
        raise TypeError(f"{key} is true or false, not {value!r}")
    return value


def _whole(value: object, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{key} is a whole number, not {value!r}")
    return value


def _object(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data[key]
    if not isinstance(value, Mapping):
        raise TypeError(f"{key} is an object, not {value!r}")
    return value


def _actor(data: Mapping[str, Any]) -> Actor:
    actor = _object(data, "actor")
    user_id, role, name = actor.get("user_id"), actor.get("role"), actor.get("name", "")
    if not (user_id is None or isinstance(user_id, str)) or not isinstance(name, str):
        raise TypeError(f"not an actor: {actor!r}")
    return Actor(user_id=user_id, role=None if role is None else Role(role), name=name)


def _reason(data: Mapping[str, Any]) -> Why:
    return why_from_json(data.get("reason"), data.get("reason_params")) or NONE


def _wallet(data: Mapping[str, Any]) -> int | None:
    wallet = data.get("wallet")
    return None if wallet is None else _whole(wallet, "wallet")


_PARSERS: dict[str, Callable[[Mapping[str, Any]], Request]] = {
    RunCommand.op: lambda d: RunCommand(_text(d, "table"), _actor(d), _object(d, "command")),
    GetSnapshot.op: lambda d: GetSnapshot(_text(d, "table"), _actor(d), _wallet(d)),
    Describe.op: lambda d: Describe(_text(d, "table")),
    GetRoads.op: lambda d: GetRoads(_text(d, "table"), _flag(d, "svg")),
    SetConnected.op: lambda d: SetConnected(
        _text(d, "table"), _text(d, "player"), _flag(d, "connected", required=True)
    ),
    Reconfigure.op: lambda d: Reconfigure(_text(d, "table")),
    Correct.op: lambda d: Correct(
        _text(d, "table"),
        _text(d, "game"),
        _object(d, "outcome"),
        _text(d, "author"),
        _text(d, "reason"),
        _text(d, "correction_id"),
    ),
    RefreshRoads.op: lambda d: RefreshRoads(_text(d, "table")),
    Transfer.op: lambda d: Transfer(
        _text(d, "table"), _text(d, "player"), _whole(d["amount"], "amount"), _reason(d)
    ),
    CloseTable.op: lambda d: CloseTable(_text(d, "table"), _reason(d)),
}
