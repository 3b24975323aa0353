"""A scripted player for load tests: logs in (or registers) a demo player, joins a table,
bets every hand for N hands over the WebSocket protocol, leaves, and prints its final
wallet balance (minor units) as its last line.

    python examples/bot.py --url http://127.0.0.1:8000 --hands 20
    python examples/bot.py --url http://127.0.0.1:8000 --hands 5 --user ann --bet banker

It speaks only the public protocol (docs/protocol.md): REST for the account, one
WebSocket for the table. It behaves as a patient person would:

- a seat someone else took first (many bots starting at once all see seat 1 free) is no
  failure: it tries the next free seat, then watches instead (a watcher bets too);
- a dropped socket is no failure: it connects again (with a growing pause), reads the new
  snapshot and carries on where it was — a hand it bet on and whose settlement it missed
  is found in its bet history;
- a join refused because the player's money is being moved right now (a ``conflict``:
  after a server's crash, a join it had under way holds the player's turn until the turn
  goes stale) is tried again a second later;
- it exits 0 when its hands are settled, and non-zero only on a real failure (the server
  refused the login, the table does not exist, the money ran out, the time ran out),
  saying why on stderr.
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

RECONNECTS = 20
"""Connections lost in a row before the bot gives up."""

JOIN_TRIES = 60
"""Joins refused as a conflict (the player's money is being moved), a second apart, before
the bot gives up."""

_BENIGN = frozenset({"betting", "phase", "bet_closed", "unavailable", "table_balance", "seat"})
"""Refusals that are part of play (the countdown ended, the table is between hands, a seat
was taken, the table was paused): the bot waits for the next hand."""


class BotError(Exception):
    """A real failure: the bot stops and says why."""


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
    parser.add_argument("--watch", action="store_true", help="watch; do not try to sit")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.chips < 1:
        parser.error("--hands and --chips must be at least 1")
    return args


HTTP_TRIES = 5
"""Tries of one HTTP call before the bot gives up on it."""

_BUSY = frozenset({429, 502, 503, 504})
"""Answers that mean "later": rate limited, or the server busy or restarting."""


async def request(http: httpx.AsyncClient, method: str, url: str, **kwargs: Any) -> httpx.Response:
    """One HTTP call, tried again (waiting 0.5 s, 1 s, 2 s …, or the ``Retry-After`` the
    server asks for) when the connection fails, times out or the server says "later": a
    busy server is not a failure of the bot. The last failure is raised."""
    for attempt in range(HTTP_TRIES):
        wait = 0.5 * 2**attempt
        try:
            answer = await http.request(method, url, **kwargs)
        except httpx.TransportError:
            if attempt == HTTP_TRIES - 1:
                raise
        else:
            if answer.status_code not in _BUSY or attempt == HTTP_TRIES - 1:
                return answer
            retry_after = answer.headers.get("Retry-After", "")
            if retry_after.isdigit():
                wait = float(retry_after)
        await asyncio.sleep(wait)
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises


async def session(http: httpx.AsyncClient, user: str | None, password: str | None) -> str:
    """A session token: log in, or register a new player (a registration whose answer
    was lost and is tried again finds the name taken: then it logs in)."""
    if user is not None:
        answer = await request(
            http,
            "POST",
            "/api/auth/login",
            json={"username": user, "password": password or f"{user}-demo"},
        )
        if answer.status_code == 200:
            return str(answer.json()["token"])
        if answer.status_code != 401:
            raise BotError(f"login refused ({answer.status_code}): {answer.text[:200]}")
    name = user or f"bot-{secrets.token_hex(4)}"
    secret = password or f"{name}-demo"
    answer = await request(
        http,
        "POST",
        "/api/auth/register",
        json={"username": name, "password": secret, "display_name": name},
    )
    if answer.status_code == 409 and user is None:  # our own registration, answered late
        answer = await request(
            http, "POST", "/api/auth/login", json={"username": name, "password": secret}
        )
    if answer.status_code not in (200, 201):
        raise BotError(f"registration refused ({answer.status_code}): {answer.text[:200]}")
    return str(answer.json()["token"])


async def pick_table(http: httpx.AsyncClient, wanted: str | None) -> str:
    """The table to play at."""
    tables = (await request(http, "GET", "/api/lobby")).json()["tables"]
    if wanted is not None:
        if not any(t["id"] == wanted for t in tables):
            raise BotError(f"no table {wanted!r} in the lobby")
        return wanted
    for table in tables:
        if table["dealing"] == "rng" and table["kind"] == "normal":
            return str(table["id"])
    raise BotError("no open RNG table")


class Bot:
    """One player at one table, across reconnections."""

    def __init__(self, args: argparse.Namespace, http: httpx.AsyncClient, token: str) -> None:
        self.args = args
        self.http = http
        self.token = token
        self.n = 0
        self.player = ""
        self.chip = 0
        """The chip its tier bets with (each hand: ``--chips`` of them)."""
        self.bet_on: set[str] = set()
        """Games this bot's bets were confirmed in."""
        self.settled: set[str] = set()
        self.ws: Any = None
        self._answers: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._betting: set[asyncio.Task[None]] = set()
        self._done = asyncio.Event()
        self._failure: BaseException | None = None

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a command and wait for its ``ok`` or ``error`` (read by :meth:`_play`)."""
        self.n += 1
        rid = f"b{self.n}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._answers[rid] = future
        await self.ws.send(json.dumps({**message, "request_id": rid}))
        return await future

    async def run(self, url: str) -> None:
        """Play until ``--hands`` hands with our bets are settled, reconnecting as needed."""
        lost = 0
        while len(self.settled) < self.args.hands:
            try:
                async with websockets.connect(url, max_size=2**24, open_timeout=60) as ws:
                    self.ws = ws
                    await self._play()
                    return
            except (
                OSError,
                websockets.ConnectionClosed,
                websockets.InvalidHandshake,
                httpx.TransportError,  # the server went again while we caught up: the same
            ) as exc:
                code = getattr(getattr(exc, "rcvd", None), "code", None)
                if code in (4401, 4404):
                    raise BotError(f"the server closed the table socket ({code})") from exc
                lost += 1
                if lost > RECONNECTS:
                    raise BotError(f"lost the connection {lost} times: {exc}") from exc
                print(f"bot: connection lost ({exc}); reconnecting", file=sys.stderr)
                await asyncio.sleep(min(5.0, 0.2 * 2**lost) * (0.5 + secrets.randbelow(100) / 100))
            finally:
                for future in self._answers.values():
                    if not future.done():
                        future.cancel()
                self._answers.clear()

    async def _catch_up(self) -> None:
        """Once connected again (the server is up): the hands bet on whose settlement was
        missed while the connection was down."""
        if not self.bet_on - self.settled:
            return
        answer = await request(
            self.http, "GET", "/api/me/bets", headers={"Authorization": f"Bearer {self.token}"}
        )
        if answer.status_code == 200:
            for record in answer.json().get("records", []):
                game = record.get("game")
                if game in self.bet_on and game not in self.settled:  # a record: it is over
                    self.settled.add(game)
                    net = record.get("net") or 0  # (none: the hand was voided, refunded)
                    print(f"hand {game}: net {net} (caught up)", file=sys.stderr)
        if len(self.settled) >= self.args.hands:
            self._done.set()

    async def _play(self) -> None:
        snapshot = json.loads(await self.ws.recv())
        if snapshot.get("type") != "snapshot":
            raise BotError(f"no snapshot: {snapshot.get('message', snapshot)}")
        self._done = asyncio.Event()
        reader = asyncio.create_task(self._read())
        try:
            await self._catch_up()
            await self._seat(snapshot)
            state = snapshot["state"]
            if state["phase"] == "betting_open":
                await self._bet(str(state["game"]))
            done = asyncio.create_task(self._done.wait())
            await asyncio.wait({reader, done}, return_when=asyncio.FIRST_COMPLETED)
            done.cancel()
            if self._failure is not None:
                raise self._failure
            if reader.done():
                reader.result()  # the connection was lost: raises
            for task in list(self._betting):
                await task
            await self.request({"type": "stand"})
            await self.request({"type": "leave"})
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)

    async def _seat(self, snapshot: dict[str, Any]) -> None:
        """Join, sit (a taken seat: the next, then watch instead) and choose a chip."""
        table, you = snapshot["table"], snapshot["you"]
        self.player = you["user_id"]
        tier = table["limits"][0]
        chip = min((c for c in table["chips"] if c >= tier["min_bet"]), default=table["chips"][-1])
        if not you["at_table"]:
            await self._join()
        if you.get("place") not in ("seated", "watching"):  # (a drop between join and sit)
            taken = {s["seat"] for s in snapshot["state"]["seats"]}
            free = [s for s in range(1, table["seats"] + 1) if s not in taken]
            if self.args.watch or table["kind"] != "normal":
                free = []
            for seat in free[:3]:
                answer = await self.request({"type": "sit", "seat": seat, "tier": tier["name"]})
                if answer["type"] == "ok":
                    break
            else:
                await self._must(
                    await self.request({"type": "watch", "tier": tier["name"]}), "watch"
                )
        await self._must(await self.request({"type": "choose_chip", "chip": chip}), "chip")
        self.chip = chip

    async def _join(self) -> None:
        """Join; a join refused because the player's money is being moved is tried again
        (after a server's crash, a move it had under way holds the player's turn until the
        turn goes stale)."""
        for tries in range(1, JOIN_TRIES + 1):
            answer = await self.request({"type": "join"})
            if answer["type"] == "ok" or answer["error"] != "conflict" or tries == JOIN_TRIES:
                break
            print(f"bot: join: {answer['message']}; trying again", file=sys.stderr)
            await asyncio.sleep(1.0)
        await self._must(answer, "join")

    async def _must(self, answer: dict[str, Any], what: str) -> None:
        if answer["type"] == "error" and answer["error"] not in _BENIGN:
            raise BotError(f"{what}: {answer['error']}: {answer['message']}")

    async def _bet(self, game: str) -> None:
        """Put the chips down and confirm them, in one message (refusals of play are
        waited out)."""
        if game in self.bet_on:
            return
        amount = self.chip * self.args.chips
        answer = await self.request({"type": "confirm", "bets": {self.args.bet: amount}})
        if answer["type"] == "ok":
            self.bet_on.add(game)
        else:
            await self._refused(answer)

    async def _refused(self, answer: dict[str, Any]) -> None:
        if answer["error"] in ("betting", "phase", "bet_closed"):
            return  # the countdown ended: the next hand
        if answer["error"] in _BENIGN:
            print(f"bot: waiting: {answer['message']}", file=sys.stderr)
            return
        if answer["error"] in ("insufficient_funds", "table_balance"):
            raise BotError(f"out of money: {answer['message']}")
        print(f"bot: {answer['error']}: {answer['message']}", file=sys.stderr)

    async def _read(self) -> None:
        """Every message: answers to their requests, events to play by."""
        try:
            await self._read_all()
        except websockets.ConnectionClosed as exc:
            for future in self._answers.values():  # their requests fail: reconnect
                if not future.done():
                    future.set_exception(exc)
            raise

    def _bet_done(self, task: asyncio.Task[None]) -> None:
        self._betting.discard(task)
        if not task.cancelled() and isinstance(task.exception(), BotError):
            self._failure = task.exception()
            self._done.set()

    async def _read_all(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            kind = message.get("type")
            if kind in ("ok", "error") and message.get("request_id") in self._answers:
                future = self._answers.pop(message["request_id"])
                if not future.done():
                    future.set_result(message)
                continue
            if kind != "event":
                continue
            event = message["event"]
            if event["kind"] == "betting_opened" and len(self.settled) < self.args.hands:
                task = asyncio.create_task(self._bet(str(event["game"])))
                self._betting.add(task)
                task.add_done_callback(self._bet_done)
            elif event["kind"] == "hand_settled":
                mine = [r for r in event["results"] if r["player"] == self.player]
                if mine and str(event["game"]) not in self.settled:  # (not caught up on)
                    self.settled.add(str(event["game"]))
                    net = mine[0]["settlement"]["total_net"]
                    print(f"hand {event['game']}: net {net}", file=sys.stderr)
                if len(self.settled) >= self.args.hands:
                    self._done.set()
        raise websockets.ConnectionClosedError(None, None)


async def play(args: argparse.Namespace) -> int:
    """Run the bot; print the final wallet balance as the last line."""
    async with httpx.AsyncClient(base_url=args.url.rstrip("/"), timeout=60) as http:
        token = await session(http, args.user, args.password)
        table = await pick_table(http, args.table)
        ws_url = args.url.rstrip("/").replace("http", "ws", 1) + f"/ws/tables/{table}?token={token}"
        bot = Bot(args, http, token)
        try:
            await asyncio.wait_for(bot.run(ws_url), args.timeout)
        except TimeoutError:
            raise BotError(
                f"{len(bot.settled)} of {args.hands} hands settled in {args.timeout:g} s"
            ) from None
        me = (
            await request(http, "GET", "/api/me", headers={"Authorization": f"Bearer {token}"})
        ).json()
    print(me["balance"])
    return 0


async def main(argv: Sequence[str] | None = None) -> int:
    """The bot's exit status: 0 when its hands were played, 1 (saying why) when not."""
    args = parse_args(argv)
    try:
        return await play(args)
    except BotError as exc:
        print(f"bot: failed: {exc}", file=sys.stderr)
        return 1
    except httpx.HTTPError as exc:
        why = str(exc) or type(exc).__name__  # a timeout's message is empty
        print(f"bot: failed: the server did not answer over HTTP: {why}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
