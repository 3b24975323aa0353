"""Connections of a hub without sockets, for tests of what each client gets: each one's
texts wait in its writer task's queue."""

from __future__ import annotations

import asyncio
import json
from typing import Any, NamedTuple

from punto.server.auth import ANONYMOUS, Actor, Role
from punto.server.fanout.envelopes import EventEnvelope
from punto.server.fanout.hub import Connection, Hub


def connect(hub: Hub, actor: Actor, table_id: str = "t1") -> Connection:
    """A connection of ``actor`` to ``table_id``, its snapshot sent and taken."""
    conn = hub.connect(table_id, actor)  # no socket: the writer task's queue gets the texts
    conn.start("snapshot", seq=0)
    assert conn.queue.get_nowait() == "snapshot"
    return conn


class Audience(NamedTuple):
    """Six connections to table ``t1``, one of each kind a table event reaches."""

    ann: Connection
    ann_again: Connection  # ann's second tab
    zoe: Connection  # a player at the table with no bet
    spectator: Connection
    dealer: Connection
    supervisor: Connection


def audience(hub: Hub) -> Audience:
    """The six connections of :class:`Audience`, in its order, their snapshots taken."""
    return Audience(
        connect(hub, Actor("ann", Role.PLAYER)),
        connect(hub, Actor("ann", Role.PLAYER)),
        connect(hub, Actor("zoe", Role.PLAYER)),
        connect(hub, ANONYMOUS),
        connect(hub, Actor("dana", Role.DEALER)),
        connect(hub, Actor("sam", Role.SUPERVISOR)),
    )


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


class Seen(NamedTuple):
    """The one ``event`` message a connection got: its event and its text's length."""

    event: dict[str, Any]
    size: int


class AudienceSeen(NamedTuple):
    """What each connection of an :class:`Audience` got, by the same names."""

    ann: Seen
    ann_again: Seen
    zoe: Seen
    spectator: Seen
    dealer: Seen
    supervisor: Seen


async def seen_by_audience(envelope: EventEnvelope) -> tuple[AudienceSeen, int]:
    """Deliver an event's envelope to a new hub's :func:`audience` of table ``t1``: what
    each of the six connections got (exactly one ``event`` message each, as
    :class:`Seen`, in :class:`Audience`'s order) and the hub's count of deliveries."""
    hub = Hub(queue_size=100)
    conns = audience(hub)
    hub.deliver(envelope)
    await asyncio.sleep(0)  # let the writer tasks the connections started run once
    seen = []
    for conn in conns:
        (text,) = texts(conn)
        seen.append(Seen(event_of(text), len(text)))
    return AudienceSeen(*seen), hub.delivered
