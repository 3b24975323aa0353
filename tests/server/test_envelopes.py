"""The typed envelopes a table publishes: each shape survives the trip through JSON (as
between processes over Redis), anything else is refused with a typed error, and a
malformed envelope on the Redis channel is dropped without stopping delivery."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

import pytest
from server_support import redis_answers

from punto.errors import ProtocolError
from punto.server.auth import ANONYMOUS
from punto.server.fanout.bus import RedisBus
from punto.server.fanout.envelopes import (
    Envelope,
    EventEnvelope,
    LegalEnvelope,
    MessageEnvelope,
    envelope_from_json,
)
from punto.server.fanout.hub import Hub, event_texts

EVENT = event_texts("t1", 4, {"auditor": {"kind": "x"}, "watcher": {"kind": "x"}, "player": None})
LEGAL = LegalEnvelope(table="t1", seq=5, legal={"dealer": "{}"}, players={"ann": "{}"})
MESSAGE = MessageEnvelope(table="t1", message={"type": "countdown", "closes_in": 3.0})
TO_ONE = MessageEnvelope(table="t1", message={"type": "balance"}, to="ann", seq=6)
RENUMBER = MessageEnvelope(table="t1", message={"type": "table_opened"}, renumber=True)


@pytest.mark.parametrize("envelope", [EVENT, LEGAL, MESSAGE, TO_ONE, RENUMBER])
def test_every_shape_survives_json(envelope: Envelope) -> None:
    assert envelope_from_json(json.loads(json.dumps(envelope))) == envelope


def test_an_event_envelope_carries_each_kind_of_viewers_text() -> None:
    envelope: EventEnvelope = EVENT
    assert envelope["texts"]["dealer"] is None  # that kind does not see it
    auditor = envelope["texts"]["auditor"]
    assert auditor is not None
    assert json.loads(auditor) == {"type": "event", "table": "t1", "seq": 4, "event": {"kind": "x"}}


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ([], "naming its table"),
        ({"table": 7, "message": {}}, "naming its table"),
        ({"table": "t1"}, "texts, legal or message"),
        ({"table": "t1", "seq": True, "message": {}}, "integer"),
        ({"table": "t1", "seq": "4", "message": {}}, "integer"),
        ({"table": "t1", "texts": {"dealer": "x"}, "player": None}, "seq, texts"),
        ({"table": "t1", "seq": 1, "texts": {"dealer": 5}, "player": None}, "seq, texts"),
        ({"table": "t1", "seq": 1, "texts": {}, "player": 3}, "seq, texts"),
        ({"table": "t1", "seq": 1, "legal": {"dealer": "{}"}}, "legal and players"),
        ({"table": "t1", "seq": 1, "legal": {"dealer": None}, "players": {}}, "legal and"),
        ({"table": "t1", "message": "countdown"}, "is an object"),
        ({"table": "t1", "message": {}, "to": 5}, "names a player"),
    ],
)
def test_anything_else_is_refused(data: Any, says: str) -> None:
    with pytest.raises(ProtocolError, match=says):
        envelope_from_json(data)


@pytest.mark.integration
@pytest.mark.asyncio
@pytest.mark.skipif(not redis_answers(), reason="no Redis server answers at 127.0.0.1:6379")
async def test_a_malformed_envelope_on_redis_is_dropped_and_delivery_goes_on() -> None:
    import redis.asyncio as aioredis

    prefix = f"punto-test-{secrets.token_hex(4)}"
    hub = Hub(queue_size=10)
    conn = hub.connect("t1", ANONYMOUS)
    conn.start("snapshot", seq=0)
    bus = RedisBus("redis://127.0.0.1:6379/0", hub, process_id="p1", prefix=prefix)

    async def nothing(_: object) -> dict[str, Any]:
        return {}

    await bus.start(nothing)
    raw = aioredis.from_url("redis://127.0.0.1:6379/0")
    try:
        channel = f"{prefix}:table:t1"
        await raw.publish(channel, json.dumps({"table": "t1", "message": "not an object"}))
        await raw.publish(channel, "not json")
        await bus.publish(MESSAGE)
        texts = [await asyncio.wait_for(conn.queue.get(), 10) for _ in range(2)]
        assert texts[0] == "snapshot"
        assert texts[1] is not None
        assert json.loads(texts[1]) == MESSAGE["message"]
        assert conn.queue.empty()
    finally:
        await raw.aclose()
        await bus.close()


async def _bus(hub: Hub, prefix: str, process: str) -> RedisBus:
    async def nothing(_: object) -> dict[str, Any]:
        return {}

    bus = RedisBus("redis://127.0.0.1:6379/0", hub, process_id=process, prefix=prefix)
    await bus.start(nothing)
    return bus


@pytest.mark.integration
@pytest.mark.asyncio
@pytest.mark.skipif(not redis_answers(), reason="no Redis server answers at 127.0.0.1:6379")
async def test_a_process_delivers_its_own_envelopes_once_without_redis_and_others_through_it() -> (
    None
):
    prefix = f"punto-test-{secrets.token_hex(4)}"
    here, there = Hub(queue_size=10), Hub(queue_size=10)
    conn, far = here.connect("t1", ANONYMOUS), there.connect("t1", ANONYMOUS)
    conn.start("snapshot", seq=0)
    far.start("snapshot", seq=0)
    mine = await _bus(here, prefix, f"p-{secrets.token_hex(4)}")
    theirs = await _bus(there, prefix, f"p-{secrets.token_hex(4)}")
    try:
        await mine.publish(MESSAGE)
        assert conn.queue.qsize() == 2  # delivered here at once: snapshot, then MESSAGE
        await theirs.publish(TO_ONE | {"to": "nobody"})  # after MESSAGE, on Redis too
        other = MessageEnvelope(table="t1", message={"type": "roads"})
        await theirs.publish(other)
        texts = [await asyncio.wait_for(conn.queue.get(), 10) for _ in range(3)]
        # MESSAGE once (its echo from Redis, which came before `other`, was skipped)
        assert [None if t is None else json.loads(t) for t in texts[1:]] == [
            MESSAGE["message"],
            other["message"],
        ]
        assert conn.queue.empty()
        far_texts = [await asyncio.wait_for(far.queue.get(), 10) for _ in range(3)]
        assert far_texts[1] is not None
        assert json.loads(far_texts[1]) == MESSAGE["message"]  # the other got it via Redis
    finally:
        await mine.close()
        await theirs.close()


@pytest.mark.integration
@pytest.mark.asyncio
@pytest.mark.skipif(not redis_answers(), reason="no Redis server answers at 127.0.0.1:6379")
async def test_clients_resync_when_the_subscription_comes_back() -> None:
    import redis.asyncio as aioredis

    # pub/sub keeps nothing for a subscriber that is away: its clients must take a snapshot
    prefix = f"punto-test-{secrets.token_hex(4)}"
    process = f"p-{secrets.token_hex(4)}"
    hub = Hub(queue_size=10)
    conn = hub.connect("t1", ANONYMOUS)
    conn.start("snapshot", seq=0)
    bus = await _bus(hub, prefix, process)
    raw = aioredis.from_url("redis://127.0.0.1:6379/0")
    try:
        clients = await raw.client_list()
        subscriber = [
            c["id"] for c in clients if c.get("name") == f"punto-{process}" and c.get("psub") == "1"
        ]
        assert len(subscriber) == 1, clients
        await raw.client_kill_filter(_id=subscriber[0])
        texts = [await asyncio.wait_for(conn.queue.get(), 20) for _ in range(2)]
        assert texts[1] is not None
        assert json.loads(texts[1]) == {"type": "resync", "table": "t1"}
        await bus.publish(MESSAGE)  # and the bus works again
        text = await asyncio.wait_for(conn.queue.get(), 10)
        assert text is not None
        assert json.loads(text) == MESSAGE["message"]
    finally:
        await raw.aclose()
        await bus.close()
