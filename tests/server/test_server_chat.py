"""Table chat through the server: a line reaches every player and the dealer console, is
kept in the table's record with its hand (a supervisor reads it by table or hand), is
refused with a typed error when it is bad, muted or too frequent; a supervisor mutes and
unmutes; a client gets the recent chat after its snapshot. And the lobby's streaks and a
player's favourites and alerts."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from ledger_support import BACKENDS
from server_support import TableClient, server_on

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]

TABLE = "nocomm-1"


@pytest.mark.parametrize("backend", BACKENDS)
async def test_chat_fans_out_is_kept_limited_and_muted(backend: str, tmp_path: Path) -> None:
    async with server_on(backend, tmp_path, chat_messages=3, chat_window=3600.0) as server:
        tokens = {who: await server.token(who) for who in ("ann", "bob", "dana", "sam")}
        async with AsyncExitStack() as stack:
            c = {
                who: await stack.enter_async_context(TableClient.connect(server, TABLE, tok))
                for who, tok in tokens.items()
            }
            first = await c["ann"].next_of("chat_history")
            assert first["messages"] == []
            assert first["muted"] is False
            game = await c["ann"].betting_open()

            text = "<img src=x onerror=alert(1)> good luck 祝你好运"
            assert (await c["ann"].request({"type": "chat", "text": f"  {text} "}))["type"] == "ok"
            for who in ("ann", "bob", "dana", "sam"):
                line = await c[who].next_of("chat", lambda m: m["from"] == "ann")
                assert line["text"] == text  # kept as typed, without surrounding spaces
                assert line["role"] == "player"
                assert line["name"]
                assert line["table"] == TABLE
            said_in = line["game"]
            assert said_in is not None
            assert said_in.startswith(TABLE)
            assert game

            await c["dana"].ok({"type": "chat", "text": "Welcome, Ann!"})
            answer = await c["ann"].next_of("chat", lambda m: m["from"] == "dana")
            assert answer["role"] == "dealer"
            assert answer["text"] == "Welcome, Ann!"

            # bad input: typed errors, nothing sent or kept
            for bad, code in [
                ({"type": "chat", "text": "a\x00b"}, "bad_message"),
                ({"type": "chat", "text": "ring\x07"}, "bad_message"),
                ({"type": "chat", "text": "x" * 301}, "bad_message"),
                ({"type": "chat", "text": "   "}, "chat"),
                ({"type": "chat_mute", "player": "bob"}, "forbidden"),  # a player may not
            ]:
                refused = await c["ann"].request(bad)
                assert (refused["type"], refused["error"]) == ("error", code), bad
            assert (await c["dana"].request({"type": "chat_mute", "player": "ann"}))[
                "error"
            ] == "forbidden"

            # the rate limit: 3 lines per window for a player (the dealer is not limited)
            await c["ann"].ok({"type": "chat", "text": "two"})
            await c["ann"].ok({"type": "chat", "text": "three"})
            limited = await c["ann"].request({"type": "chat", "text": "four"})
            assert limited["error"] == "rate_limited"
            assert limited["params"]["retry_after"] > 0
            for n in range(4):
                await c["dana"].ok({"type": "chat", "text": f"dealer {n}"})

            # a supervisor mutes bob: everyone is told; bob is refused; then unmuted
            await c["bob"].ok({"type": "chat", "text": "hello"})
            await c["sam"].ok({"type": "chat_mute", "player": "bob"})
            told = await c["dana"].next_of("chat_muted")
            assert told["player"] == "bob"
            assert told["muted"] is True
            assert told["by"] == "sam"
            muted = await c["bob"].request({"type": "chat", "text": "spam"})
            assert muted["error"] == "chat"
            assert muted["params"] == {"reason": "muted"}
            missing = await c["sam"].request({"type": "chat_mute", "player": "nobody"})
            assert missing["error"] == "not_found"
            async with TableClient.connect(server, TABLE, tokens["bob"]) as again:
                assert (await again.next_of("chat_history"))["muted"] is True
            await c["sam"].ok({"type": "chat_mute", "player": "bob", "muted": False})
            await c["bob"].ok({"type": "chat", "text": "thanks"})
            await c["sam"].ok({"type": "chat", "text": "Please keep it friendly"})

        # the record: a supervisor reads the table's chat, and one hand's
        sam = {"Authorization": f"Bearer {tokens['sam']}"}
        url = f"/api/supervisor/tables/{TABLE}/chat"
        kept = (await server.http.get(url, headers=sam)).json()
        said = [(m["from"], m["text"]) for m in kept["messages"]]
        assert said[0] == ("ann", text)
        assert ("bob", "spam") not in said
        assert ("ann", "four") not in said
        assert ("bob", "thanks") in said
        assert ("sam", "Please keep it friendly") in said
        assert kept["muted"] == []
        hand = (await server.http.get(url, params={"game": said_in}, headers=sam)).json()
        assert hand["messages"][0]["text"] == text
        assert all(m["game"] == said_in for m in hand["messages"])
        ann = {"Authorization": f"Bearer {tokens['ann']}"}
        assert (await server.http.get(url, headers=ann)).status_code == 403
        none = await server.http.get("/api/supervisor/tables/nope/chat", headers=sam)
        assert none.status_code == 404

        # a new client gets the recent chat after its snapshot
        async with TableClient.connect(server, TABLE, tokens["ann"]) as late:
            history = await late.next_of("chat_history")
            assert next(m["text"] for m in history["messages"]) == text
        async with TableClient.connect(server, TABLE) as anonymous:
            await anonymous.next_of("chat_history")
            refused = await anonymous.request({"type": "chat", "text": "hi"})
            assert refused["error"] == "unauthorized"


async def test_lobby_streaks_favourites_and_alerts(tmp_path: Path) -> None:
    async with server_on("sqlite", tmp_path) as server:
        lobby = (await server.http.get("/api/lobby")).json()["tables"]
        for table in lobby:
            streak = table["streak"]
            assert set(streak) == {"side", "length", "ping_pong"}
            if streak["side"] is not None:
                assert streak["length"] >= 1

        ann = await server.headers("ann")
        url = "/api/me/lobby"
        assert (await server.http.get(url, headers=ann)).json() == {"favourites": [], "alerts": []}
        prefs = {
            "favourites": ["vip-1", "macau-1", "vip-1"],
            "alerts": [{"pattern": "banker", "length": 4}, {"pattern": "ping_pong", "length": 5}],
        }
        saved = await server.http.put(url, json=prefs, headers=ann)
        assert saved.status_code == 200, saved.text
        assert saved.json()["favourites"] == ["vip-1", "macau-1"]
        assert (await server.http.get(url, headers=ann)).json() == saved.json()
        bob = await server.headers("bob")
        assert (await server.http.get(url, headers=bob)).json()["favourites"] == []
        for bad in [
            {"favourites": ["x" * 41]},
            {"favourites": ["a\x00b"]},
            {"alerts": [{"pattern": "dragon", "length": 4}]},
            {"alerts": [{"pattern": "banker", "length": 1}]},
            {"alerts": [{"pattern": "banker", "length": "4"}]},
            {"favourites": [], "colour": "red"},
            {"alerts": [{"pattern": "banker", "length": n} for n in range(2, 14)]},
        ]:
            refused = await server.http.put(url, json=bad, headers=ann)
            assert refused.status_code == 400, (bad, refused.text)
        assert (await server.http.get(url, headers=ann)).json() == saved.json()
        assert (await server.http.get(url)).status_code == 401
