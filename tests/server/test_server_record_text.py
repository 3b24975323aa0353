"""A hand's record is written from pieces encoded while the hand was played (each event's
JSON as it was published; each result once, shared by the settled event and the results):
the stored text is exactly the record encoded whole, in one sorted, canonical JSON text."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from ledger_support import BACKENDS
from server_support import TableClient, server_on
from sqlalchemy import text

pytestmark = [pytest.mark.asyncio, pytest.mark.parametrize("backend", BACKENDS)]


async def test_the_stored_record_is_the_whole_record_encoded_once(
    backend: str, tmp_path: Path
) -> None:
    async with server_on(backend, tmp_path, betting_seconds=30.0) as server:
        async with (
            TableClient.connect(server, "live-1", await server.token("dana")) as dealer,
            TableClient.connect(server, "live-1", await server.token("cleo")) as cleo,
            TableClient.connect(server, "live-1", await server.token("ann")) as ann,
        ):
            await dealer.ok({"type": "start_shoe"})
            for player, seat in ((cleo, 1), (ann, 2)):
                await player.take_seat(seat, chip=1000)
            await dealer.ok({"type": "open_betting"})
            opened = await cleo.next_of("betting_opened")
            game = str(opened["event"]["game"])
            for player, bets in ((cleo, ("player", "player", "tie")), (ann, ("banker",))):
                for bet in bets:
                    await player.ok({"type": "add_chip", "bet": bet})
                await player.ok({"type": "confirm"})
            await dealer.ok({"type": "close_betting"})
            await dealer.deal("9S", "8D", "KH", "7C")  # a Player natural 9 [M9]
            await cleo.next_of("balance", lambda m: m["reason"] == "settled")
        async with server.node.ledger.engine.connect() as conn:
            raw = await conn.scalar(
                text("SELECT record FROM server_hands WHERE game = :g"), {"g": game}
            )
    assert isinstance(raw, str)
    record = json.loads(raw)
    whole = orjson.dumps(record, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    assert raw == whole.decode()  # every piece sorted and encoded as the whole would be
    kinds = [e["kind"] for e in record["events"]]
    assert kinds.count("chip_added") == 4
    assert kinds.count("bets_confirmed") == 2
    (settled,) = (e for e in record["events"] if e["kind"] == "hand_settled")
    assert {r["player"]: r for r in settled["results"]} == record["results"]
    assert record["results"]["cleo"]["settlement"]["total_net"] == 2000 - 1000  # tie lost
    assert record["results"]["ann"]["settlement"]["total_net"] == -1000
