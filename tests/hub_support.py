"""Connections of a hub without sockets, for tests of what each client gets: each one's
texts wait in its writer task's queue."""

from __future__ import annotations

import json
from typing import Any

from punto.server.auth import Actor
from punto.server.hub import Connection, Hub


def connect(hub: Hub, actor: Actor, table_id: str = "t1") -> Connection:
    """A connection of ``actor`` to ``table_id``, its snapshot sent and taken."""
    conn = hub.connect(table_id, actor)  # no socket: the writer task's queue gets the texts
    conn.start("snapshot", seq=0)
    assert conn.queue.get_nowait() == "snapshot"
    return conn


def texts(conn: Connection) -> list[str]:
    """The texts waiting for ``conn``, taken."""
    out: list[str] = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        assert text is not None
        out.append(text)
    return out


def event_of(text: str) -> dict[str, Any]:
    """The event of an ``event`` message's text."""
    message: dict[str, Any] = json.loads(text)
    assert message["type"] == "event"
    event: dict[str, Any] = message["event"]
    return event
