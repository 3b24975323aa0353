"""The process-wide group commit of confirms (:mod:`punto.server.money.groupcommit`): batches of
several tables written together, each answered as if alone [L]. Deterministic: a write
is held on an event, never on a sleep."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from punto.errors import ServerError
from punto.server.config import Settings
from punto.server.money.groupcommit import GroupCommit

pytestmark = pytest.mark.asyncio


class _Writer:
    """A write that records what it got and, while ``hold`` is clear, waits for it."""

    def __init__(self) -> None:
        self.writes: list[list[int]] = []
        self.hold = asyncio.Event()
        self.hold.set()
        self.started = asyncio.Event()
        self.fail: Exception | None = None

    async def __call__(self, items: list[int]) -> list[int]:
        self.writes.append(list(items))
        self.started.set()
        await self.hold.wait()
        if self.fail is not None:
            error, self.fail = self.fail, None
            raise error
        return [n * 10 for n in items]


async def _started(writer: _Writer) -> None:
    await writer.started.wait()
    writer.started.clear()


async def _under_way(
    size: int,
) -> tuple[_Writer, GroupCommit[int, int], asyncio.Task[list[int]]]:
    """A group commit whose first write (of ``[1]``) is under way, held."""
    writer = _Writer()
    writer.hold.clear()
    commits = GroupCommit(writer, size=size)
    first = asyncio.create_task(commits.write([1]))
    await _started(writer)
    return writer, commits, first


async def test_an_idle_group_commit_writes_a_batch_at_once_and_alone() -> None:
    writer = _Writer()
    commits = GroupCommit(writer, size=10)
    assert await commits.write([1, 2]) == [10, 20]
    assert writer.writes == [[1, 2]]
    assert commits.writes == 1


async def test_batches_that_wait_for_a_write_go_together_in_the_next_each_answered_alone() -> None:
    writer, commits, first = await _under_way(10)  # the first write is under way, held
    later = [asyncio.create_task(commits.write(items)) for items in ([2, 3], [4], [5, 6])]
    await asyncio.sleep(0)
    assert writer.writes == [[1]]  # nothing else is written while one write is under way
    writer.hold.set()
    assert await first == [10]
    assert [await t for t in later] == [[20, 30], [40], [50, 60]]
    assert writer.writes == [[1], [2, 3, 4, 5, 6]]  # in the order they came, one write


async def test_a_write_takes_at_most_size_items_and_never_splits_a_batch() -> None:
    writer, commits, first = await _under_way(3)
    waiting = [
        asyncio.create_task(commits.write(items))
        for items in ([2, 3], [4, 5], [6, 7, 8, 9, 10], [11])
    ]
    await asyncio.sleep(0)
    writer.hold.set()
    await first
    answers = [await t for t in waiting]
    assert answers == [[20, 30], [40, 50], [60, 70, 80, 90, 100], [110]]
    # [2, 3] fills two of three; [4, 5] would pass the bound: the next write; a batch
    # larger than the bound is written alone, whole
    assert writer.writes == [[1], [2, 3], [4, 5], [6, 7, 8, 9, 10], [11]]


async def test_a_failed_write_fails_every_batch_in_it_and_the_next_write_goes_on() -> None:
    writer, commits, first = await _under_way(10)
    writer.fail = ConnectionError("the database went away")
    together = [asyncio.create_task(commits.write(items)) for items in ([2], [3])]
    await asyncio.sleep(0)
    writer.hold.set()
    with pytest.raises(ConnectionError):
        await first  # the first write failed: its one batch
    assert await together[0] == [20]  # the next write (both waiting batches) went on
    assert await together[1] == [30]
    writer.hold.clear()
    writer.fail = ConnectionError("again")
    both = [asyncio.create_task(commits.write(items)) for items in ([4], [5])]
    await _started(writer)
    writer.hold.set()
    for task in both:  # one write, both its batches failed with the same error
        with pytest.raises(ConnectionError, match="again"):
            await task
    assert writer.writes == [[1], [2, 3], [4, 5]]
    assert await commits.write([6]) == [60]


async def test_a_write_that_answers_the_wrong_number_of_items_refuses_them_all() -> None:
    async def short(items: list[int]) -> list[int]:
        return items[:-1]

    commits = GroupCommit(short, size=10)
    with pytest.raises(RuntimeError, match="wrote 2 items and got 1 answers"):
        await commits.write([1, 2])


async def test_a_stopped_caller_takes_back_a_waiting_batch_but_not_one_being_written() -> None:
    writer, commits, under_way = await _under_way(10)
    waiting = asyncio.create_task(commits.write([2]))
    staying = asyncio.create_task(commits.write([3]))
    await asyncio.sleep(0)
    assert commits.waiting == 2
    waiting.cancel()  # no write has taken it: withdrawn, nothing of it written
    under_way.cancel()  # its write is under way (and another table's): it goes on
    for task in (waiting, under_way):
        with pytest.raises(asyncio.CancelledError):
            await task
    assert commits.waiting == 1
    writer.hold.set()
    assert await staying == [30]
    assert writer.writes == [[1], [3]]


async def test_a_group_commit_needs_a_size() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        GroupCommit(_Writer(), size=0)


async def test_two_writers_write_a_second_batch_at_once_and_the_rest_together_after() -> None:
    writer = _Writer()
    writer.hold.clear()
    under_way = 0
    most = 0
    call = writer.__call__

    async def counted(items: list[int]) -> list[int]:
        nonlocal under_way, most
        under_way += 1
        most = max(most, under_way)
        try:
            return await call(items)
        finally:
            under_way -= 1

    commits = GroupCommit(counted, size=10, writers=2)
    first = asyncio.create_task(commits.write([1]))
    await _started(writer)
    second = asyncio.create_task(commits.write([2]))  # a second writer takes it at once
    await _started(writer)
    assert writer.writes == [[1], [2]]
    later = [asyncio.create_task(commits.write(items)) for items in ([3], [4, 5])]
    await asyncio.sleep(0)
    assert commits.waiting == 2  # both writers busy: these wait
    assert commits.under_way == 2
    writer.hold.set()
    assert [await first, await second] == [[10], [20]]
    assert [await t for t in later] == [[30], [40, 50]]
    assert writer.writes == [[1], [2], [3, 4, 5]]  # the waiting batches in one write
    assert most == 2


async def test_a_batch_handed_over_as_the_last_write_ends_is_written() -> None:
    # a batch handed over in the very turn of the loop its writer ends in (its task done,
    # nothing else run since) starts a writer of its own: none is left waiting for a writer
    # that is gone
    writes: list[list[int]] = []
    later: list[asyncio.Task[list[int]]] = []

    async def write(items: list[int]) -> list[int]:
        writes.append(items)
        if not later:  # the next batch's first step runs before this write's task ends
            later.append(asyncio.create_task(commits.write([2])))
        return [n * 10 for n in items]

    commits = GroupCommit(write, size=10)
    assert await commits.write([1]) == [10]
    assert await asyncio.wait_for(later[0], 10) == [20]  # never stranded (10 s: a hang)
    assert writes == [[1], [2]]
    assert commits.under_way == 0


async def test_a_group_commit_needs_a_writer() -> None:
    with pytest.raises(ValueError, match="at least one writer"):
        GroupCommit(_Writer(), size=1, writers=0)


async def test_the_writers_and_the_batch_are_settings() -> None:
    assert Settings.from_env({}).confirm_writers == 4
    assert Settings.from_env({"PUNTO_CONFIRM_WRITERS": "1"}).confirm_writers == 1
    for name in ("PUNTO_CONFIRM_WRITERS", "PUNTO_CONFIRM_BATCH"):
        for bad in ("0", "-2"):
            with pytest.raises(ServerError, match="at least 1"):
                Settings.from_env({name: bad})
        with pytest.raises(ServerError, match="bad server setting"):
            Settings.from_env({name: "two"})


async def test_a_second_writer_starts_only_once_enough_waits() -> None:
    writer = _Writer()
    writer.hold.clear()
    commits = GroupCommit(writer, size=100, writers=2, spare_from=4)
    first = asyncio.create_task(commits.write([1]))
    await _started(writer)
    small = [asyncio.create_task(commits.write(items)) for items in ([2], [3, 4])]
    await asyncio.sleep(0)
    assert commits.under_way == 1  # three items wait: less than a transaction is worth
    large = asyncio.create_task(commits.write([5, 6]))  # five wait now: a second write
    await _started(writer)
    assert commits.under_way == 2
    assert writer.writes == [[1], [2, 3, 4, 5, 6]]
    writer.hold.set()
    assert [await first, *[await t for t in small], await large] == [
        [10],
        [20],
        [30, 40],
        [50, 60],
    ]
    with pytest.raises(ValueError, match="at least 1 item"):
        GroupCommit(_Writer(), size=1, writers=2, spare_from=0)


async def test_a_writer_cancelled_before_its_first_step_is_no_writer_any_more() -> None:
    """A writer's task cancelled before it ever ran (its ``finally`` never runs) leaves the
    writers all the same: the batch it was to take is cancelled (its caller takes it back)
    and the next batch gets a writer of its own."""
    writer = _Writer()
    commit = GroupCommit(writer, size=10)
    caller = asyncio.create_task(commit.write([1]))
    await asyncio.sleep(0)  # the caller handed its batch over; the writer has not run yet
    (drain,) = [t for t in asyncio.all_tasks() if t.get_name() == "punto-group-commit"]
    drain.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(caller, 5)  # the time bounds a failure only (a hang)
    assert commit.under_way == 0
    assert commit.waiting == 0
    assert await asyncio.wait_for(commit.write([2]), 5) == [20]  # bounds a failure only
    assert writer.writes == [[2]]


class _Hold:
    """A writer's hold (what a write needs, kept from one write to the next while batches
    wait): counts its entries and exits; its exit waits on ``leaving`` when cleared, and
    its entry fails with ``fail`` when set. Its writes are ``writer``'s, marked as held."""

    def __init__(self, writer: _Writer) -> None:
        self.writer = writer
        self.entered = 0
        self.left = 0
        self.inside = False
        self.held_writes: list[list[int]] = []
        self.leaving = asyncio.Event()
        self.leaving.set()
        self.at_exit = asyncio.Event()
        self.fail: Exception | None = None

    @contextlib.asynccontextmanager
    async def __call__(self) -> AsyncIterator[Callable[[list[int]], Awaitable[list[int]]]]:
        if self.fail is not None:
            raise self.fail
        self.entered += 1
        self.inside = True

        async def write(items: list[int]) -> list[int]:
            assert self.inside
            self.held_writes.append(list(items))
            return await self.writer(items)

        try:
            yield write
        finally:
            self.at_exit.set()
            await self.leaving.wait()
            self.inside = False
            self.left += 1


async def test_a_writer_keeps_its_hold_while_batches_wait_and_leaves_it_when_none_do() -> None:
    """Writes made one after the other, while batches wait, share one hold (the server's
    keeps a database connection); it is left once nothing waits, and the next batch
    enters it again."""
    writer = _Writer()
    writer.hold.clear()
    hold = _Hold(writer)
    commits = GroupCommit(writer, size=10, hold=hold)
    first = asyncio.create_task(commits.write([1]))
    await _started(writer)
    second = asyncio.create_task(commits.write([2]))
    third = asyncio.create_task(commits.write([3]))
    await asyncio.sleep(0)
    writer.hold.set()
    assert [await first, await second, await third] == [[10], [20], [30]]
    assert hold.held_writes == [[1], [2, 3]]  # two writes, one hold
    assert (hold.entered, hold.left) == (1, 1)
    assert await commits.write([4]) == [40]
    assert (hold.entered, hold.left) == (2, 2)
    assert commits.under_way == 0


async def test_a_batch_handed_over_while_the_writer_leaves_its_hold_is_written() -> None:
    """A batch that arrives while the writer is leaving its hold (giving a connection back
    takes a turn of the loop) finds the writer still counted: the writer takes it, in a
    new hold, rather than leaving it with no writer (cancelled)."""
    writer = _Writer()
    hold = _Hold(writer)
    hold.leaving.clear()
    commits = GroupCommit(writer, size=10, hold=hold)
    first = asyncio.create_task(commits.write([1]))
    await hold.at_exit.wait()  # written; the writer is leaving its hold
    assert await first == [10]
    late = asyncio.create_task(commits.write([2]))
    await asyncio.sleep(0)
    assert commits.under_way == 1  # no second writer: the one leaving takes it
    hold.leaving.set()
    assert await asyncio.wait_for(late, 5) == [20]  # the time bounds a failure only
    assert hold.held_writes == [[1], [2]]
    assert (hold.entered, hold.left) == (2, 2)
    assert commits.under_way == 0


async def test_a_hold_that_cannot_be_entered_leaves_the_writes_to_go_on_without_it() -> None:
    writer = _Writer()
    hold = _Hold(writer)
    hold.fail = ConnectionError("no connection to keep")
    commits = GroupCommit(writer, size=10, hold=hold)
    assert await commits.write([1, 2]) == [10, 20]
    assert writer.writes == [[1, 2]]
    assert hold.held_writes == []
    assert commits.under_way == 0
