"""The hub writes ready frames to a client's socket where the WebSocket layer lends it
(issue 11, fan-out): a text for thousands is framed once, what one client has waiting goes
in one write, a client whose socket takes nothing waits in its bounded queue and is
dropped (4408) when that fills, and closing writes what waited before the close frame."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

from punto.server.auth import ANONYMOUS, Actor, Role
from punto.server.fanout.frames import text_frame
from punto.server.fanout.hub import OUTBOX_TURNS, Connection, Hub

pytestmark = pytest.mark.asyncio


class Socket:
    """A socket lent to the hub, in memory: what was written, and whether it takes more."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.taking = True
        self.gone = False
        self.on_writable: Callable[[], None] | None = None

    def writable(self) -> bool:
        return self.taking

    def write(self, texts: Sequence[str], frame: Callable[[str], bytes]) -> bool:
        if self.gone:
            return False
        self.writes.append(frame(texts[0]) if len(texts) == 1 else b"".join(map(frame, texts)))
        return True

    def drain(self) -> None:
        """The peer read everything: the socket takes data again."""
        self.taking = True
        if self.on_writable is not None:
            self.on_writable()

    def texts(self) -> list[str]:
        """The messages written, parsed back as a WebSocket client does."""
        client = ClientProtocol(parse_uri("ws://punto.test/"), state=State.OPEN, max_size=None)
        client.receive_data(b"".join(self.writes))
        out: list[str] = []
        for frame in client.events_received():
            assert isinstance(frame, Frame)
            assert frame.opcode is Opcode.TEXT
            assert frame.fin
            out.append(bytes(frame.data).decode())
        assert client.parser_exc is None
        return out


async def turn() -> None:
    """Let the event loop run the hub's writes (the turns it waits, then one more)."""
    for _ in range(OUTBOX_TURNS + 1):
        await asyncio.sleep(0)


def connect(hub: Hub, actor: Actor = ANONYMOUS) -> tuple[Connection, Socket]:
    socket = Socket()
    conn = hub.connect("t1", actor, sink=socket)
    conn.start('{"type":"snapshot"}', seq=0)
    return conn, socket


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65_535, 65_536, 200_000])
async def test_a_frame_holds_any_text_whole_as_a_client_reads_it(size: int) -> None:
    text = "é" * (size // 2) + "x" * (size % 2)
    socket = Socket()
    socket.writes.append(text_frame(text))
    assert socket.texts() == [text]


async def test_everything_one_client_has_waiting_goes_in_one_write() -> None:
    hub = Hub(queue_size=100)
    conn, socket = connect(hub)
    assert conn.direct
    assert conn.queue.empty()  # no writer task involved
    for n in range(5):
        hub.deliver({"table": "t1", "message": {"type": "countdown", "n": n}})
    await turn()
    assert len(socket.writes) == 1
    texts = socket.texts()
    assert texts[0] == '{"type":"snapshot"}'
    assert texts[1:] == [f'{{"type":"countdown","n":{n}}}' for n in range(5)]


async def test_a_text_for_many_clients_is_framed_once() -> None:
    hub = Hub(queue_size=100)
    sockets = [connect(hub)[1] for _ in range(50)]
    await turn()
    for socket in sockets:
        socket.writes.clear()
    hub.deliver({"table": "t1", "message": {"type": "bet_totals", "table": "t1"}})
    await turn()
    first = sockets[0].writes[0]
    assert all(socket.writes == [first] for socket in sockets)
    assert all(socket.writes[0] is first for socket in sockets)  # the same bytes object


async def test_a_socket_that_takes_nothing_keeps_messages_waiting_then_writes_them_in_order() -> (
    None
):
    hub = Hub(queue_size=10)
    conn, socket = connect(hub)
    await turn()
    socket.taking = False
    for n in range(4):
        conn.send(f'{{"n":{n}}}')
    await turn()
    assert len(socket.writes) == 1  # the snapshot only
    socket.drain()
    await turn()
    assert socket.texts()[1:] == [f'{{"n":{n}}}' for n in range(4)]
    assert not conn.slow


async def test_a_client_whose_queue_fills_is_dropped_and_the_others_are_not() -> None:
    hub = Hub(queue_size=3)
    dropped: list[Connection] = []
    slow, stuck = connect(hub)
    _fast, socket = connect(hub)
    slow.on_slow = dropped.append
    await turn()
    stuck.taking = False
    for n in range(4):  # the fourth finds the queue full
        hub.deliver({"table": "t1", "message": {"type": "countdown", "n": n}})
    await turn()
    assert slow.slow
    assert dropped == [slow]
    assert len(socket.texts()) == 5  # the fast client got every one
    stuck.drain()  # too late: a dropped client gets nothing more
    hub.deliver({"table": "t1", "message": {"type": "countdown", "n": 9}})
    await turn()
    assert len(stuck.texts()) == 1


async def test_closing_writes_what_waited_then_has_the_close_frame_sent_once() -> None:
    hub = Hub(queue_size=10)
    conn, socket = connect(hub)
    closed: list[Connection] = []
    conn.on_closed = closed.append
    conn.send('{"type":"last"}')
    conn.close()  # before the loop's turn: written now, ahead of the close frame
    assert socket.texts() == ['{"type":"snapshot"}', '{"type":"last"}']
    assert closed == [conn]  # no writer task waits: the WebSocket layer sends the close
    conn.close()
    assert closed == [conn]
    assert conn.queue.empty()
    conn.send('{"type":"after"}')
    await turn()
    assert len(socket.texts()) == 2


async def test_a_socket_gone_takes_nothing_and_the_hub_goes_on() -> None:
    hub = Hub(queue_size=10)
    gone, dead = connect(hub, Actor("p1", Role.PLAYER))
    _alive, socket = connect(hub, Actor("p2", Role.PLAYER))
    dead.gone = True
    hub.deliver({"table": "t1", "message": {"type": "countdown"}})
    await turn()
    assert dead.writes == []
    assert len(socket.texts()) == 2
    hub.disconnect(gone)
    assert hub.count("t1") == 1


async def test_without_a_socket_the_writer_task_gets_the_texts() -> None:
    hub = Hub(queue_size=10)
    conn = hub.connect("t1", ANONYMOUS)
    conn.start("snapshot", seq=0)
    hub.deliver({"table": "t1", "message": {"type": "countdown"}})
    assert not conn.direct
    assert [conn.queue.get_nowait(), conn.queue.get_nowait()] == [
        "snapshot",
        '{"type":"countdown"}',
    ]


async def test_a_confirms_events_and_its_answer_go_in_one_write() -> None:
    """The group commit publishes a batch's events, then sets each confirm's future; the
    player's task, awaiting it through ``asyncio.shield`` (``ConfirmBatcher.submit``),
    sends the answer two turns of the loop later: it joins the events' write."""
    hub = Hub(queue_size=100)
    conn, socket = connect(hub)
    await turn()
    socket.writes.clear()
    durable: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def player() -> None:
        await asyncio.shield(durable)
        conn.send('{"type":"ok"}')

    task = asyncio.create_task(player())
    await asyncio.sleep(0)  # the player waits for the batch
    hub.deliver({"table": "t1", "message": {"type": "balance"}})  # the batch's messages
    durable.set_result(None)  # then its answers
    await task
    await turn()
    assert socket.texts() == ['{"type":"balance"}', '{"type":"ok"}']
    assert len(socket.writes) == 1
