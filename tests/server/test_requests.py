"""The typed requests between server processes: each survives the trip through JSON
(as over Redis), and anything malformed is a typed error, never a crash at the owner."""

from __future__ import annotations

import json
from typing import Any

import pytest

from punto.errors import ProtocolError
from punto.server.auth import Actor, Role
from punto.server.fanout.requests import (
    CloseTable,
    Correct,
    Describe,
    GetRoads,
    GetSnapshot,
    Reconfigure,
    RefreshRoads,
    Request,
    RunCommand,
    SetConnected,
    StatusAll,
    Transfer,
    request_from_json,
    request_json,
)
from punto.table.reasons import SHUTDOWN, Reason, Why

ANN = Actor(user_id="ann", role=Role.PLAYER, name="Ann")
EVERY: list[Request] = [
    StatusAll(),
    RunCommand("macau-1", ANN, {"type": "confirm"}),
    RunCommand("macau-1", Actor(user_id=None, role=None), {"type": "watch"}),
    GetSnapshot("macau-1", ANN, 125_000),
    GetSnapshot("macau-1", ANN),
    Describe("macau-1"),
    GetRoads("macau-1", svg=True),
    SetConnected("macau-1", "ann", connected=False),
    Reconfigure("macau-1"),
    Correct("macau-1", "macau-1-001-002", {"player": ["AS", "8D"]}, "sue", "misread", "c1"),
    RefreshRoads("macau-1"),
    Transfer("macau-1", "ann", -5_000, Why(Reason.VOID_OF, {"game": "macau-1-001-002"})),
    Transfer("macau-1", "ann", 5_000),
    CloseTable("macau-1", SHUTDOWN),
]


@pytest.mark.parametrize("request_", EVERY, ids=lambda r: type(r).__name__)
def test_every_request_survives_json(request_: Request) -> None:
    data = json.loads(json.dumps(request_json(request_)))
    assert data["op"] == request_.op
    assert request_from_json(data) == request_


def test_each_request_has_its_own_wire_name() -> None:
    ops = {type(r).op for r in EVERY}
    assert len(ops) == len({type(r) for r in EVERY}) == 11


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"op": 3},
        {"op": "fly", "table": "t"},
        {"op": "describe"},
        {"op": "describe", "table": 5},
        {"op": "command", "table": "t", "command": {"type": "confirm"}},
        {"op": "command", "table": "t", "actor": {"role": "king"}, "command": {}},
        {"op": "command", "table": "t", "actor": {"user_id": 5}, "command": {}},
        {"op": "command", "table": "t", "actor": {}, "command": "confirm"},
        {"op": "snapshot", "table": "t", "actor": {}, "wallet": "100"},
        {"op": "snapshot", "table": "t", "actor": {}, "wallet": True},
        {"op": "roads", "table": "t", "svg": "yes"},
        {"op": "connected", "table": "t", "player": "ann"},
        {"op": "transfer", "table": "t", "player": "ann", "amount": 1.5},
        {"op": "transfer", "table": "t", "player": "ann"},
        {"op": "correct", "table": "t", "game": "g", "outcome": {}, "author": "s"},
    ],
)
def test_a_malformed_request_is_a_typed_error(data: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError):
        request_from_json(data)
