"""The load client ``examples/bot.py`` against a real server: many bots started at the same
moment at one table all finish (a seat taken first is watched from instead), a bot whose
socket is dropped reconnects and carries on, a join refused while the player's money is
being moved is tried again, and a real failure exits non-zero saying why."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import io
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from server_support import RunningServer, server_on

from punto.errors import ConflictError
from punto.server.auth import Actor
from punto.server.fanout.protocol import Command
from punto.table.events import Event

pytestmark = pytest.mark.asyncio

ROOT = Path(__file__).resolve().parents[2]


def _bot_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("punto_example_bot", ROOT / "examples" / "bot.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


BOT = _bot_module()


async def _bots(server: RunningServer, count: int, *, hands: int) -> list[int]:
    args = ["--url", server.url, "--hands", str(hands), "--table", "macau-1", "--timeout", "120"]
    return list(await asyncio.gather(*(BOT.main(args) for _ in range(count))))


@pytest.mark.slow
async def test_a_hundred_bots_started_together_at_one_table_all_finish(tmp_path: Path) -> None:
    async with server_on("sqlite", tmp_path) as server:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            codes = await _bots(server, 100, hands=1)
        assert codes == [0] * 100
        balances = out.getvalue().split()
        assert len(balances) == 100
        assert all(b.isdigit() for b in balances)
        report = await server.node.bank.ledger.check()
        assert report.ok, report.problems


@pytest.mark.slow
async def test_a_bot_whose_socket_is_dropped_reconnects_and_finishes(tmp_path: Path) -> None:
    async with server_on("sqlite", tmp_path) as server:
        hub = server.node.hub
        runner = server.node.runners["macau-1"]
        execute = runner.execute
        dropped: list[str] = []

        async def dropping(actor: Actor, command: Command) -> tuple[Event, ...]:
            """Drop the bot's socket (as a slow client's is, 4408) right after it joined
            (before it sat down) and right after its first confirm (mid-hand)."""
            events = await execute(actor, command)
            if command.type in ("join", "confirm") and command.type not in dropped:
                dropped.append(command.type)
                for conn in list(hub._tables.get("macau-1", ())):
                    if conn.actor.user_id == actor.user_id:
                        conn.slow = True
                        conn.close()
            return events

        runner.execute = dropping  # type: ignore[method-assign]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            (code,) = await _bots(server, 1, hands=2)
        assert dropped == ["join", "confirm"]
        assert code == 0
        assert out.getvalue().split()[-1].isdigit()


@pytest.mark.slow
async def test_a_bot_whose_catch_up_finds_the_server_gone_again_reconnects_and_finishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server is killed again just as the bot, connected once more, asks what it missed
    (the bet history over HTTP, every try refused): that is a lost connection like any
    other, not a failure (it exited 1, a kill test saw it)."""
    async with server_on("sqlite", tmp_path) as server:
        hub = server.node.hub
        deliver = hub.deliver
        dropped: list[str] = []

        def dropping(envelope: Any) -> None:
            """The bot's socket dropped just before the settlement of the first hand it bet
            on reaches it (a settled hand's envelope has each bettor's own text)."""
            bettors = [p for p in envelope.get("own") or {} if p.startswith("bot")]
            if not dropped and bettors:
                dropped.append("settled")
                for conn in list(hub._tables.get("macau-1", ())):
                    if conn.actor.user_id == bettors[0]:
                        conn.slow = True
                        conn.close()
            deliver(envelope)

        request = BOT.request
        refused: list[str] = []

        async def gone_once(http: httpx.AsyncClient, method: str, url: str, **kw: Any) -> Any:
            if url == "/api/me/bets" and not refused:
                refused.append(url)
                raise httpx.ConnectError("All connection attempts failed")
            return await request(http, method, url, **kw)

        hub.deliver = dropping  # type: ignore[method-assign]
        monkeypatch.setattr(BOT, "request", gone_once)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            (code,) = await _bots(server, 1, hands=2)
        assert dropped == ["settled"]
        assert refused == ["/api/me/bets"]
        assert code == 0


@pytest.mark.slow
async def test_a_bot_refused_a_join_while_its_money_moves_tries_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server killed during a join leaves the player's turn held (with several
    processes, until it goes stale, 10 s): a join meanwhile is refused as a conflict, and
    the bot tries again instead of failing (it did, in the kill test)."""
    async with server_on("sqlite", tmp_path) as server:
        store = server.node.store
        assert await store.take_turn("ann", "held-by-a-dead-process")
        runner = server.node.runners["macau-1"]
        execute = runner.execute
        refused: list[str] = []

        async def refusing(actor: Actor, command: Command) -> tuple[Event, ...]:
            """The turn is given back once the bot's join was refused (twice)."""
            try:
                return await execute(actor, command)
            except ConflictError as exc:
                refused.append(str(exc))
                if len(refused) == 2:
                    await store.end_turn("ann", "held-by-a-dead-process")
                raise

        runner.execute = refusing  # type: ignore[method-assign]
        args = ["--url", server.url, "--hands", "1", "--table", "macau-1", "--user", "ann"]
        code = await BOT.main([*args, "--timeout", "120"])
    assert code == 0, capsys.readouterr().err
    assert len(refused) == 2
    assert "ann's money is being moved right now" in refused[0]
    assert capsys.readouterr().err.count("bot: join: ") == 2


async def test_a_real_failure_exits_non_zero_saying_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with server_on("sqlite", tmp_path) as server:
        code = await BOT.main(["--url", server.url, "--hands", "1", "--table", "no-such-table"])
    assert code == 1
    assert "no table 'no-such-table'" in capsys.readouterr().err
