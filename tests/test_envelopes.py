"""The typed envelopes a table publishes: each shape survives the trip through JSON (as
between processes over Redis), anything else is refused with a typed error, and a
malformed envelope on the Redis channel is dropped without stopping delivery."""

from __future__ import annotations

import asyncio
import json
import secrets
from typing import Any

import pytest

from punto.errors import ProtocolError
from punto.server.auth import ANONYMOUS
from punto.server.bus import RedisBus
from punto.server.envelopes import (
    Envelope,
    EventEnvelope,
    LegalEnvelope,
    MessageEnvelope,
    envelope_from_json,
)
from punto.server.hub import Hub, event_texts
from server_support import redis_answers

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
