"""A scripted player for load tests: logs in (or registers) a demo player, joins a table,
bets every hand for N hands over the WebSocket protocol, leaves, and prints its final
wallet balance (minor units) as its last line.

    python examples/bot.py --url http://127.0.0.1:8000 --hands 20
    python examples/bot.py --url http://127.0.0.1:8000 --hands 5 --user ann --bet banker

It speaks only the public protocol (docs/protocol.md): REST for the account, one
WebSocket for the table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
from collections.abc import Sequence
from typing import Any

import httpx
import websockets


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The bot's options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--url", required=True, help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("--hands", type=int, required=True, help="hands to bet on")
    parser.add_argument("--user", help="log in as this player (default: a new bot player)")
    parser.add_argument("--password", help="its password (default: <user>-demo)")
    parser.add_argument("--table", help="table id (default: the first open RNG table)")
    parser.add_argument("--bet", default="player", help="the bet to place (default player)")
    parser.add_argument("--chips", type=int, default=1, help="chips per hand (default 1)")
    parser.add_argument("--timeout", type=float, default=600.0, help="give up after (s)")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.chips < 1:
        parser.error("--hands and --chips must be at least 1")
    return args


async def session(http: httpx.AsyncClient, user: str | None, password: str | None) -> str:
    """A session token: log in, or register a new player."""
    if user is not None:
        answer = await http.post(
            "/api/auth/login", json={"username": user, "password": password or f"{user}-demo"}
        )
        if answer.status_code == 200:
            return str(answer.json()["token"])
        if answer.status_code != 401:
            answer.raise_for_status()
    name = user or f"bot-{secrets.token_hex(4)}"
    answer = await http.post(
        "/api/auth/register",
        json={"username": name, "password": password or f"{name}-demo", "display_name": name},
    )
    answer.raise_for_status()
    return str(answer.json()["token"])


async def pick_table(http: httpx.AsyncClient, wanted: str | None) -> str:
    """The table to play at."""
    tables = (await http.get("/api/lobby")).json()["tables"]
    if wanted is not None:
        return wanted
    for table in tables:
        if table["dealing"] == "rng" and table["kind"] == "normal":
            return str(table["id"])
    raise SystemExit("bot: no open RNG table")


class Bot:
    """One player at one table."""

    def __init__(self, ws: Any, args: argparse.Namespace) -> None:
        self.ws = ws
        self.args = args
        self.n = 0
        self.settled = 0
        self.pending: set[str] = set()
        self.player = ""

    async def send(self, message: dict[str, Any]) -> None:
        """Send a command (answers arrive as ``ok`` / ``error`` messages)."""
        self.n += 1
        await self.ws.send(json.dumps({**message, "request_id": f"b{self.n}"}))

    async def bet(self) -> None:
        """Put the chips down and confirm."""
        for _ in range(self.args.chips):
            await self.send({"type": "add_chip", "bet": self.args.bet})
        await self.send({"type": "confirm"})

    async def run(self) -> None:
        """Play until ``--hands`` hands with our bets are settled."""
        snapshot = json.loads(await self.ws.recv())
        if snapshot.get("type") != "snapshot":
            raise SystemExit(f"bot: {snapshot.get('message', snapshot)}")
        table, you = snapshot["table"], snapshot["you"]
        self.player = you["user_id"]
        tier = table["limits"][0]
        chip = min((c for c in table["chips"] if c >= tier["min_bet"]), default=table["chips"][-1])
        if not you["at_table"]:
            await self.send({"type": "join"})
            taken = {s["seat"] for s in snapshot["state"]["seats"]}
            free = [s for s in range(1, table["seats"] + 1) if s not in taken]
            if free and table["kind"] == "normal":
                await self.send({"type": "sit", "seat": free[0], "tier": tier["name"]})
            else:
                await self.send({"type": "watch", "tier": tier["name"]})
        await self.send({"type": "choose_chip", "chip": chip})
        if snapshot["state"]["phase"] == "betting_open":
            await self.bet()
        while self.settled < self.args.hands:
            message = json.loads(await self.ws.recv())
            kind = message.get("type")
            if kind == "error" and message.get("error") not in ("betting", "phase"):
                print(f"bot: {message['error']}: {message['message']}", file=sys.stderr)
            if kind != "event":
                continue
            event = message["event"]
            if event["kind"] == "betting_opened":
                await self.bet()
            elif event["kind"] == "hand_settled":
                mine = [r for r in event["results"] if r["player"] == self.player]
                if mine:
                    self.settled += 1
                    net = mine[0]["settlement"]["total_net"]
                    print(f"hand {event['game']}: net {net}", file=sys.stderr)
        await self.send({"type": "stand"})
        await self.send({"type": "leave"})
        while True:  # until the leave is answered
            message = json.loads(await self.ws.recv())
            if message.get("type") in ("ok", "error") and message["request_id"] == f"b{self.n}":
                return


async def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot; print the final wallet balance as the last line."""
    args = parse_args(argv)
    async with httpx.AsyncClient(base_url=args.url.rstrip("/"), timeout=30) as http:
        token = await session(http, args.user, args.password)
        table = await pick_table(http, args.table)
        ws_url = args.url.rstrip("/").replace("http", "ws", 1) + f"/ws/tables/{table}?token={token}"
        async with websockets.connect(ws_url, max_size=2**24) as ws:
            await asyncio.wait_for(Bot(ws, args).run(), args.timeout)
        me = (await http.get("/api/me", headers={"Authorization": f"Bearer {token}"})).json()
    print(me["balance"])
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
