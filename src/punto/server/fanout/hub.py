"""Fan-out of table messages to this process's connected clients, with backpressure.

Each connection has a bounded queue of outgoing texts; a client whose queue is full
(``PUNTO_WS_QUEUE`` messages not yet taken by its socket) is too slow and is dropped
(closed with code 4408 by the WebSocket layer) rather than slowing the table or the other
clients down.

**Written once.** Where the WebSocket layer lends the connection's socket
(:mod:`punto.server.fanout.direct`, under ``punto serve``), the :class:`Outbox` writes the
waiting texts as frames once per turn of the event loop: a text sent to thousands of
clients is framed once, and everything one client has waiting goes in one write. Under
another ASGI server the connection's writer task sends them one by one.

**Encoded once.** A table event travels as an envelope of ready texts, one per kind of
viewer (:func:`event_texts`: ``auditor``, ``dealer``, ``watcher`` — players and
spectators — and ``self``, the player the event concerns or the holder of face-down
cards); every connection of a kind gets the same string object, so an event costs one
encoding per kind, however many clients watch. A ready ``message`` for everyone at the
table is encoded once too; one for a single player (``to``) reaches that player's
connections through an index, without looking at anyone else's. A ``legal_actions``
envelope (:mod:`punto.server.tables.legalcast`) carries a text per kind of viewer and one per
player whose value changed.

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
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import orjson

from punto.server.auth import Actor
from punto.server.fanout.envelopes import VIEW_KINDS, Envelope, EventEnvelope, LegalEnvelope
from punto.server.fanout.frames import Sink, text_frame
from punto.table.views import Viewer

__all__ = ["OUTBOX_TURNS", "Connection", "Hub", "Outbox", "dumps", "event_texts"]


def dumps(message: Mapping[str, Any]) -> str:
    """A message as compact JSON text (orjson: the encoder of every message sent)."""
    return orjson.dumps(message).decode()


def event_texts(table_id: str, seq: int, views: Mapping[str, Any]) -> EventEnvelope:
    """The envelope of one event: the ``event`` message of each kind of viewer, encoded
    once (``None``: that kind does not see it), from
    :func:`punto.server.fanout.protocol.event_views`; ``player`` names the player who gets
    ``self``; ``own``, of an event that concerns many players (a settled hand), each
    one's text, which their connections get instead of the ``watcher`` text."""
    texts: dict[str, str | None] = {}
    made: dict[int, str] = {}  # kinds of viewer that see the same JSON share its text
    for key in VIEW_KINDS:
        view = views.get(key)
        if view is None:
            texts[key] = None
            continue
        text = made.get(id(view))
        if text is None:
            text = dumps({"type": "event", "table": table_id, "seq": seq, "event": view})
            made[id(view)] = text
        texts[key] = text
    envelope = EventEnvelope(table=table_id, seq=seq, texts=texts, player=views.get("player"))
    own: Mapping[str, Any] | None = views.get("own")
    if own:
        envelope["own"] = {
            player: dumps({"type": "event", "table": table_id, "seq": seq, "event": view})
            for player, view in own.items()
        }
    return envelope


class Connection:
    """One client's subscription to a table: its viewer, its outgoing messages, its state.

    Messages wait in a bounded queue (``queue_size``; then the client is too slow). With a
    :class:`~punto.server.fanout.frames.Sink` (the socket, lent by the WebSocket layer) they are
    written by the hub's :class:`Outbox` as ready frames, everything waiting in one write,
    and wait only while the socket takes nothing more; without one, the connection's
    writer task sends them one by one through ASGI (:attr:`queue`)."""

    def __init__(
        self,
        table_id: str,
        actor: Actor,
        *,
        queue_size: int,
        sink: Sink | None = None,
        outbox: Outbox | None = None,
    ) -> None:
        self.table_id = table_id
        self.actor = actor
        self.view_key = _view_key(actor.viewer)
        """Which view of an event this client gets (``self`` is chosen per event)."""
        self._queue: asyncio.Queue[str | None] | None = None
        self.on_closed: Callable[[Connection], None] | None = None
        """With a sink: called once when the hub closes the connection (no writer task
        waits for a ``None``: the WebSocket layer sends the close frame)."""
        self.slow = False
        self.closed = False
        self._started = False
        self._buffer: list[tuple[int | None, str]] = []
        self._after = 0
        self.on_slow: Callable[[Connection], None] | None = None
        self._limit = queue_size
        self._sink = sink
        self._outbox = outbox if sink is not None else None
        self._waiting: list[str] = []
        """With a sink: the texts not yet written (at most ``queue_size`` while the
        socket takes nothing: a client is slow when its socket is, not when one turn of
        the loop has many messages for it)."""
        if sink is not None and outbox is not None:
            sink.on_writable = self._writable
        else:
            self._queue = asyncio.Queue(maxsize=queue_size)

    @property
    def queue(self) -> asyncio.Queue[str | None]:
        """The writer task's texts, ending with ``None``, the signal to close (made on
        first use for a connection with a sink, which needs no writer task)."""
        if self._queue is None:
            self._queue = asyncio.Queue(maxsize=self._limit)
        return self._queue

    @property
    def direct(self) -> bool:
        """Whether the hub writes this client's frames to its socket itself."""
        return self._outbox is not None

    def start(self, snapshot: str, *, seq: int) -> None:
        """Send the snapshot first, then what arrived meanwhile after event ``seq``."""
        self._after = seq
        self._started = True
        self._put(snapshot)
        for event_seq, text in self._buffer:
            if event_seq is None or event_seq > seq:
                self._put(text)
        self._buffer.clear()

    def renumber(self) -> None:
        """The table's events are numbered from 0 again (a new owner): let every event
        through until the client's resync brings a snapshot and its number."""
        self._after = -1

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
        outbox = self._outbox
        if outbox is None:
            try:
                self.queue.put_nowait(text)
            except asyncio.QueueFull:
                self._too_slow()
            return
        waiting = self._waiting
        if len(waiting) >= self._limit and not self._writable_now():
            self._too_slow()
            return
        waiting.append(text)
        if len(waiting) == 1:
            outbox.add(self)

    def _too_slow(self) -> None:
        self.slow = True
        self._waiting = []  # a dropped client gets nothing more
        if self.on_slow is not None:
            self.on_slow(self)

    def _writable_now(self) -> bool:
        return self._sink is not None and self._sink.writable()

    def _writable(self) -> None:
        """The socket takes data again: write what waited."""
        if self._waiting and self._outbox is not None:
            self._outbox.add(self)

    def write(self, frames: Callable[[str], bytes]) -> int:
        """Write the waiting texts, framed by ``frames``, to the sink in one write, unless
        the socket takes nothing now (then they wait for it); how many were written."""
        waiting = self._waiting
        sink = self._sink
        if not waiting or sink is None or not sink.writable():
            return 0
        self._waiting = []
        sink.write(waiting, frames)
        return len(waiting)

    def close(self) -> None:
        """Stop the writer (a ``None`` wakes it); with a sink, what waits is written first
        when the socket takes it, then :attr:`on_closed` has the close frame sent."""
        if self.closed:
            return
        self.closed = True
        if self._outbox is not None:
            if not self.slow:
                self._outbox.count(self.write(text_frame))
            self._waiting = []
            if self.on_closed is not None:
                self.on_closed(self)
            return
        while True:
            try:
                self.queue.put_nowait(None)
                return
            except asyncio.QueueFull:
                self.queue.get_nowait()


OUTBOX_TURNS = 3
"""Turns of the event loop the :class:`Outbox` lets run between a first message waiting
and its write. A confirm's events are published when its batch is durable, and its
answer (``ok``) is sent by the player's task, woken two turns later (the confirm's
future, then the task awaiting it): waiting three turns puts the player's events, balance,
what they may do next and the answer in one write. A turn costs nothing but the callbacks
already due."""


class Outbox:
    """Writes the waiting frames of every connection that has some, a few turns of the
    event loop after the first (:data:`OUTBOX_TURNS`): a text sent to thousands is framed
    once, and a connection that got several messages meanwhile gets them in one write."""

    def __init__(self, sent: Callable[[int], None] | None = None) -> None:
        self._dirty: list[Connection] = []
        self._scheduled = False
        self._sent = sent
        self.writes = 0
        """Writes made so far (tests)."""

    def add(self, conn: Connection) -> None:
        """``conn`` has frames to write: :data:`OUTBOX_TURNS` turns of the loop from now."""
        self._dirty.append(conn)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._wait, OUTBOX_TURNS - 1)

    def _wait(self, turns: int) -> None:
        if turns:
            asyncio.get_running_loop().call_soon(self._wait, turns - 1)
        else:
            self.flush()

    def flush(self) -> None:
        """Write every waiting connection's frames now."""
        self._scheduled = False
        dirty, self._dirty = self._dirty, []
        made: dict[int, tuple[str, bytes]] = {}  # each text framed once per flush

        def frame(text: str) -> bytes:
            known = made.get(id(text))
            if known is None:
                known = made[id(text)] = (text, text_frame(text))  # the text kept alive
            return known[1]

        sent = 0
        for conn in dirty:
            if not conn.closed:
                written = conn.write(frame)
                sent += written
                self.writes += written > 0
        self.count(sent)

    def count(self, sent: int) -> None:
        """Count ``sent`` messages written (the ``punto_ws_messages_total`` counter)."""
        if self._sent is not None and sent:
            self._sent(sent)


class Hub:
    """Every connected client of this process, by table (and by player)."""

    def __init__(self, *, queue_size: int, sent: Callable[[int], None] | None = None) -> None:
        self._queue_size = queue_size
        self.outbox = Outbox(sent)
        """Writes the frames of the connections that have a sink (``sent``: counts them)."""
        self._tables: dict[str, set[Connection]] = {}
        self._kinds: dict[tuple[str, str], set[Connection]] = {}
        """Each table's connections by kind of viewer (an event seen by the dealer alone
        costs one look-up, not a walk over every spectator)."""
        self._players: dict[tuple[str, str], set[Connection]] = {}
        self._versions: dict[str, int] = {}
        self.delivered = 0
        self.dropped = 0

    def connect(self, table_id: str, actor: Actor, *, sink: Sink | None = None) -> Connection:
        """Subscribe a client to a table (``sink``: its socket, for ready frames)."""
        conn = Connection(
            table_id, actor, queue_size=self._queue_size, sink=sink, outbox=self.outbox
        )
        self._tables.setdefault(table_id, set()).add(conn)
        self._kinds.setdefault((table_id, conn.view_key), set()).add(conn)
        if actor.user_id is not None and actor.viewer is Viewer.PLAYER:
            self._players.setdefault((table_id, actor.user_id), set()).add(conn)
        return conn

    def disconnect(self, conn: Connection) -> None:
        """Unsubscribe a client."""
        _discard(self._tables, conn.table_id, conn)
        _discard(self._kinds, (conn.table_id, conn.view_key), conn)
        if conn.actor.user_id is not None:
            _discard(self._players, (conn.table_id, conn.actor.user_id), conn)
        conn.close()

    def close_all(self) -> None:
        """Close every connection (a shutdown: the writers close with 1001)."""
        for conns in list(self._tables.values()):
            for conn in list(conns):
                conn.close()

    def resync_all(self) -> None:
        """Tell every client to ask for a new snapshot (a ``resync`` message): messages
        may have been lost on the way to this process (its Redis subscription was
        down)."""
        for table_id, conns in list(self._tables.items()):
            self._versions[table_id] = self._versions.get(table_id, 0) + 1
            text = dumps({"type": "resync", "table": table_id})
            for conn in list(conns):
                conn.send(text)

    def connections(self, table_id: str) -> list[Connection]:
        """The table's connected clients."""
        return list(self._tables.get(table_id, ()))

    def count(self, table_id: str | None = None) -> int:
        """Connected clients (of one table)."""
        if table_id is not None:
            return len(self._tables.get(table_id, ()))
        return sum(len(c) for c in self._tables.values())

    def version(self, table_id: str) -> int:
        """How many envelopes this process has delivered to the table's clients: a
        snapshot made while it holds serves any client that joins before it moves on
        (:class:`punto.server.fanout.shared.SharedSnapshots`)."""
        return self._versions.get(table_id, 0)

    def deliver(self, envelope: Envelope) -> None:
        """Send an envelope to the table's clients, each the view it may see."""
        table_id = envelope["table"]
        self._versions[table_id] = self._versions.get(table_id, 0) + 1
        if "texts" in envelope:
            self._deliver_event(table_id, envelope)
            return
        if "legal" in envelope:
            self._deliver_legal(table_id, envelope)
            return
        if envelope.get("renumber"):
            for conn in self._tables.get(table_id, ()):
                conn.renumber()
        to = envelope.get("to")
        conns = self._tables.get(table_id) if to is None else self._players.get((table_id, to))
        if not conns:
            return
        text = dumps(envelope["message"])
        seq = envelope.get("seq")  # a message that follows event ``seq`` (``bet_totals``)
        for conn in list(conns):
            conn.send(text, seq=seq)
        self.delivered += len(conns)

    def _deliver_event(self, table_id: str, envelope: EventEnvelope) -> None:
        texts = envelope["texts"]
        seq = envelope["seq"]
        concerned = envelope["player"]
        mine = self._players.get((table_id, concerned), _NONE) if concerned else _NONE
        sent = 0
        personal = envelope.get("own")
        for kind in _KINDS:
            text = texts.get(kind)
            conns = self._kinds.get((table_id, kind))
            if text is None or not conns:
                continue
            if personal and kind == "watcher":
                for conn in list(conns):
                    player = conn.actor.user_id if conn.actor.viewer is Viewer.PLAYER else None
                    conn.send(personal.get(player, text) if player else text, seq=seq)
                sent += len(conns)
                continue
            for conn in list(conns):
                if conn not in mine:
                    conn.send(text, seq=seq)
                    sent += 1
        own = texts.get("self")
        if own is not None:
            for conn in list(mine):
                conn.send(own, seq=seq)
                sent += 1
        self.delivered += sent

    def _deliver_legal(self, table_id: str, envelope: LegalEnvelope) -> None:
        """A :class:`~punto.server.tables.legalcast.LegalCast` envelope: each kind's text to that
        kind's connections, each player's text to that player's connections only."""
        seq = envelope["seq"]
        sent = 0
        kinds = envelope["legal"]
        for kind, text in kinds.items():
            for conn in list(self._kinds.get((table_id, kind), _NONE)):
                conn.send(text, seq=seq)
                sent += 1
        players = envelope["players"]
        for player, text in players.items():
            for conn in list(self._players.get((table_id, player), ())):
                conn.send(text, seq=seq)
                sent += 1
        self.delivered += sent


_KINDS = ("auditor", "dealer", "watcher")
_NONE: frozenset[Connection] = frozenset()


def _view_key(viewer: Viewer) -> str:
    if viewer is Viewer.AUDITOR:
        return "auditor"
    if viewer is Viewer.DEALER:
        return "dealer"
    return "watcher"


_K = TypeVar("_K")


def _discard(index: dict[_K, set[Connection]], key: _K, conn: Connection) -> None:
    conns = index.get(key)
    if conns is not None:
        conns.discard(conn)
        if not conns:
            del index[key]
