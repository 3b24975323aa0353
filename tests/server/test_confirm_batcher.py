"""A table's confirm batches: bounded, one confirm of a player at a time, and up to
*depth* batches flushed at once (the next one checked while one is written)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from server_support import lone_table

from punto.server.money.confirms import ConfirmBatcher, Pending
from punto.server.tables.confirming import CONFIRM_DEPTH

pytestmark = pytest.mark.asyncio


class _Gated:
    """A flush that records its batches and answers each once let go."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.under_way = 0
        self.most = 0
        self.go = asyncio.Event()

    async def __call__(self, batch: list[Pending[str, str]]) -> None:
        self.batches.append([p.item for p in batch])
        self.under_way += 1
        self.most = max(self.most, self.under_way)
        await self.go.wait()
        self.under_way -= 1
        for pending in batch:
            pending.future.set_result(pending.item.upper())


async def _until(condition: object, *, turns: int = 200) -> None:
    for _ in range(turns):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")


async def test_the_next_batch_is_flushed_while_one_is_under_way() -> None:
    flush = _Gated()
    batcher: ConfirmBatcher[str, str] = ConfirmBatcher(flush, window=0, size=2, depth=2)
    first = [asyncio.create_task(batcher.submit(p, p)) for p in ("ann", "bob")]
    await _until(lambda: len(flush.batches) == 1)
    second = [asyncio.create_task(batcher.submit(p, p)) for p in ("cleo", "dev")]
    await _until(lambda: len(flush.batches) == 2)  # while the first is still gated
    third = asyncio.create_task(batcher.submit("eve", "eve"))
    for _ in range(20):
        await asyncio.sleep(0)
    assert len(flush.batches) == 2  # two at most
    flush.go.set()
    assert await asyncio.gather(*first, *second, third) == ["ANN", "BOB", "CLEO", "DEV", "EVE"]
    assert flush.batches == [["ann", "bob"], ["cleo", "dev"], ["eve"]]
    assert flush.most == 2
    await batcher.close()


async def test_a_tables_depth_of_batches_under_way_and_no_more() -> None:
    assert CONFIRM_DEPTH == 3
    flush = _Gated()
    batcher: ConfirmBatcher[str, str] = ConfirmBatcher(flush, window=0, size=1, depth=CONFIRM_DEPTH)
    players = [f"p{n}" for n in range(CONFIRM_DEPTH + 2)]
    answers = []
    for n, player in enumerate(players[:CONFIRM_DEPTH]):
        answers.append(asyncio.create_task(batcher.submit(player, player)))
        await _until(lambda n=n: len(flush.batches) == n + 1)  # each while the others wait
    answers += [asyncio.create_task(batcher.submit(p, p)) for p in players[CONFIRM_DEPTH:]]
    for _ in range(20):
        await asyncio.sleep(0)
    assert len(flush.batches) == CONFIRM_DEPTH  # the rest wait for one of them to end
    flush.go.set()
    assert await asyncio.gather(*answers) == [p.upper() for p in players]
    assert flush.most == CONFIRM_DEPTH
    await batcher.close()


async def test_an_online_table_has_that_depth(tmp_path: Path) -> None:
    async with lone_table(f"sqlite:///{tmp_path / 'ledger.sqlite3'}") as (runner, *_):
        assert runner.table.rules.max_imbalance is None  # no Banker-Player limit [M14]
        assert runner.confirms.depth() == CONFIRM_DEPTH


async def test_a_players_next_confirm_waits_for_the_batch_holding_their_last() -> None:
    flush = _Gated()
    batcher: ConfirmBatcher[str, str] = ConfirmBatcher(flush, window=0, size=10, depth=2)
    first = asyncio.create_task(batcher.submit("ann", "ann-1"))
    await _until(lambda: len(flush.batches) == 1)
    again = asyncio.create_task(batcher.submit("ann", "ann-2"))  # another connection
    other = asyncio.create_task(batcher.submit("bob", "bob-1"))
    await _until(lambda: len(flush.batches) == 2)
    assert flush.batches[1] == ["bob-1"]  # not ann's second: hers is under way
    flush.go.set()
    assert list(await asyncio.gather(first, again, other)) == ["ANN-1", "ANN-2", "BOB-1"]
    assert flush.batches == [["ann-1"], ["bob-1"], ["ann-2"]]
    await batcher.close()


async def test_a_depth_of_one_flushes_one_batch_at_a_time() -> None:
    flush = _Gated()
    batcher: ConfirmBatcher[str, str] = ConfirmBatcher(flush, window=0, size=1, depth=1)
    answers = [asyncio.create_task(batcher.submit(p, p)) for p in ("ann", "bob")]
    await _until(lambda: len(flush.batches) == 1)
    for _ in range(20):
        await asyncio.sleep(0)
    assert len(flush.batches) == 1
    flush.go.set()
    assert await asyncio.gather(*answers) == ["ANN", "BOB"]
    assert flush.most == 1
    await batcher.close()


async def test_a_batch_is_bounded_and_the_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="depth"):
        ConfirmBatcher(_Gated(), window=0, size=1, depth=0)
