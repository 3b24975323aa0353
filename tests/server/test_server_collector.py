"""The cycle collector kept out of a settlement (:mod:`punto.server.collector`): off while
a round's money moves and its players hear of it, back on when the pass ends, also when
the ledger refuses the settlement (the table then waits, *settlement pending*)."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from ledger_support import ledger_database
from server_support import lone_table

from punto.errors import UnavailableError
from punto.server import collector
from punto.server.auth import Actor, Role
from punto.server.money.bank import Bank
from punto.server.tables.runner import TableRunner


def test_blocks_that_overlap_give_the_collector_back_when_the_last_ends() -> None:
    assert gc.isenabled()
    first = collector.held()
    second = collector.held()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # the first to start ends first: still held
    assert not gc.isenabled()
    second.__exit__(None, None, None)
    assert gc.isenabled()
    gc.disable()  # a collector off before stays off
    try:
        with collector.held():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(ValueError, match="gives it back"), collector.held():
        raise ValueError("a failing block gives it back too")
    assert gc.isenabled()


def test_blocks_that_overlap_one_after_the_other_still_let_it_collect(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [100.0]
    monkeypatch.setattr(collector, "_now", lambda: clock[0])
    collections: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        first = collector.held()
        first.__enter__()
        second = collector.held()
        second.__enter__()
        clock[0] += collector.LONGEST / 2
        first.__exit__(None, None, None)  # off for less than LONGEST: nothing collected
        assert collections == []
        third = collector.held()
        third.__enter__()
        clock[0] += collector.LONGEST
        second.__exit__(None, None, None)  # off for longer: the young objects collected
        assert collections == [0]
        assert not gc.isenabled()  # the third block still holds it
        third.__exit__(None, None, None)
        assert gc.isenabled()
    finally:
        gc.callbacks.remove(seen)


@contextlib.asynccontextmanager
async def _one_table(tmp_path: Path) -> AsyncIterator[tuple[TableRunner, Bank, Callable[..., Any]]]:
    """A live table alone in its process (no other table's settlement holds the
    collector meanwhile), cleo with 10.00 on Player, three cards dealt; the dealer's
    command."""
    async with (
        ledger_database("sqlite", tmp_path) as url,
        lone_table(url) as (runner, bank, _ledger, deal),
    ):
        await deal({"type": "close_betting"})
        for card in ("9S", "8D", "KH"):
            await deal({"type": "deal_card", "card": card})
        yield runner, bank, deal


@pytest.mark.asyncio
async def test_a_settlement_runs_without_the_collector(tmp_path: Path) -> None:
    async with _one_table(tmp_path) as (runner, bank, deal):
        real_settle = bank.settle
        seen: list[bool] = []

        async def settle(*args: Any, **kwargs: Any) -> Any:
            seen.append(gc.isenabled())
            return await real_settle(*args, **kwargs)

        bank.settle = settle  # type: ignore[method-assign]
        assert gc.isenabled()
        await deal({"type": "deal_card", "card": "7C"})  # Player natural 9 [M9]
        if runner.table.phase.value != "settled":
            await deal({"type": "settle"})
        assert seen == [False]  # held while the money moved
        assert gc.isenabled()  # and given back once the pass ended
        assert await bank.balance("cleo") == 100_000 + 1000


@pytest.mark.asyncio
async def test_a_refused_settlement_gives_the_collector_back(tmp_path: Path) -> None:
    async with _one_table(tmp_path) as (runner, bank, deal):
        real_settle = bank.settle

        async def refused(*args: Any, **kwargs: Any) -> Any:
            raise UnavailableError("the ledger did not answer")

        bank.settle = refused  # type: ignore[method-assign]
        await deal({"type": "deal_card", "card": "7C"})
        if runner.table.phase.value != "settled":
            with contextlib.suppress(UnavailableError):
                await deal({"type": "settle"})
        dana = Actor("dana", Role.DEALER, "Dana")
        assert runner.snapshot(dana, wallet=None)["settlement_pending"] is not None
        assert gc.isenabled()  # the table waits for its retry with the collector on
        bank.settle = real_settle  # type: ignore[method-assign]
        await runner._process(retry=True)  # the loop's retry
        assert runner.snapshot(dana, wallet=None)["settlement_pending"] is None
        assert gc.isenabled()
        assert await bank.balance("cleo") == 100_000 + 1000
