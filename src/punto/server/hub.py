"""Fan-out of table messages to this process's connected clients, with backpressure.

Each connection has a bounded queue of outgoing texts drained by its own writer task; a
client whose queue is full is too slow and is dropped (closed with code 4408 by the
WebSocket layer) rather than slowing the table or the other clients down.

An envelope is either a table event with its per-viewer views (see
:func:`punto.server.protocol.event_views`) or a ready message (``message``) for everyone
at the table or for one player (``to``). Each view is serialized once per envelope.

>>> import asyncio
>>> from punto.server.auth import ANONYMOUS
>>> hub = Hub(queue_size=2)
>>> conn = hub.connect("t1", ANONYMOUS)
>>> conn.start("snapshot", seq=0)
>>> hub.deliver({"table": "t1", "message": {"type": "countdown"}})
>>> conn.queue.qsize()
2
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from typing import Any

from punto.server.auth import Actor
from punto.table.views import Viewer

__all__ = ["Connection", "Hub"]


class Connection:
    """One client's subscription to a table: its viewer, its queue, its state."""

    def __init__(self, table_id: str, actor: Actor, *, queue_size: int) -> None:
        self.table_id = table_id
        self.actor = actor
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=queue_size)
        self.slow = False
        self.closed = False
        self._started = False
        self._buffer: list[tuple[int | None, str]] = []
        self._after = 0
        self.on_slow: Callable[[Connection], None] | None = None

    @property
    def view_key(self) -> str:
        """Which view of an event this client gets (``self`` is chosen per event)."""
        viewer = self.actor.viewer
        if viewer is Viewer.AUDITOR:
            return "auditor"
        if viewer is Viewer.DEALER:
            return "dealer"
        return "watcher"

    def start(self, snapshot: str, *, seq: int) -> None:
        """Send the snapshot first, then what arrived meanwhile after event ``seq``."""
        self._after = seq
        self._started = True
        self._put(snapshot)
        for event_seq, text in self._buffer:
            if event_seq is None or event_seq > seq:
                self._put(text)
        self._buffer.clear()

    def restart(self) -> None:
        """Hold messages until the next :meth:`start` (a resync)."""
        self._started = False

    def send(self, text: str, *, seq: int | None = None) -> None:
        """Queue a text (an event with its ``seq``); drop the client if it is too slow."""
        if self.closed:
            return
        if not self._started:
            self._buffer.append((seq, text))
            return
        if seq is not None and seq <= self._after:
            return
        self._put(text)

    def _put(self, text: str) -> None:
        if self.slow:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.slow = True
            if self.on_slow is not None:
                self.on_slow(self)

    def close(self) -> None:
        """Stop the writer (a ``None`` wakes it)."""
        self.closed = True
        while True:
            try:
                self.queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.queue.get_nowait()


class Hub:
    """Every connected client of this process, by table."""

    def __init__(self, *, queue_size: int) -> None:
        self._queue_size = queue_size
        self._tables: dict[str, set[Connection]] = {}
        self.delivered = 0
        self.dropped = 0

    def connect(self, table_id: str, actor: Actor) -> Connection:
        """Subscribe a client to a table."""
        conn = Connection(table_id, actor, queue_size=self._queue_size)
        self._tables.setdefault(table_id, set()).add(conn)
        return conn

    def disconnect(self, conn: Connection) -> None:
        """Unsubscribe a client."""
        conns = self._tables.get(conn.table_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._tables[conn.table_id]
        conn.close()

    def close_all(self) -> None:
        """Close every connection (a shutdown: the writers close with 1001)."""
        for conns in list(self._tables.values()):
            for conn in list(conns):
                conn.close()

    def count(self, table_id: str | None = None) -> int:
        """Connected clients (of one table)."""
        if table_id is not None:
            return len(self._tables.get(table_id, ()))
        return sum(len(c) for c in self._tables.values())

    def deliver(self, envelope: Mapping[str, Any]) -> None:
        """Send an envelope to the table's clients, each the view it may see."""
        conns = self._tables.get(str(envelope.get("table")))
        if not conns:
            return
        if "views" in envelope:
            self._deliver_event(envelope, conns)
            return
        text = json.dumps(envelope["message"], separators=(",", ":"))
        to = envelope.get("to")
        for conn in list(conns):
            if to is None or (conn.actor.user_id == to and conn.actor.viewer is Viewer.PLAYER):
                conn.send(text)
                self.delivered += 1

    def _deliver_event(self, envelope: Mapping[str, Any], conns: set[Connection]) -> None:
        views: Mapping[str, Any] = envelope["views"]
        seq = int(envelope["seq"])
        concerned = envelope["views"].get("player")
        texts: dict[str, str | None] = {}
        for conn in list(conns):
            key = conn.view_key
            if key == "watcher" and concerned is not None and conn.actor.user_id == concerned:
                key = "self"
            if key not in texts:
                view = views.get(key)
                texts[key] = (
                    None
                    if view is None
                    else json.dumps(
                        {"type": "event", "table": envelope["table"], "seq": seq, "event": view},
                        separators=(",", ":"),
                    )
                )
            text = texts[key]
            if text is not None:
                conn.send(text, seq=seq)
                self.delivered += 1
