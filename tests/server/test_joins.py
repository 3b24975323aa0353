"""Joining watchers share one snapshot per table state (``punto.server.fanout.joins``):
made once for a burst, made again once the table's clients were sent anything new or the
text is older than ``SHARE_SECONDS``; a failure reaches every joiner waiting and the next
one asks again; one joiner going away takes nobody else's snapshot with it."""

from __future__ import annotations

import asyncio

import pytest

from punto.errors import UnavailableError
from punto.server.fanout.joins import Joins, Made, with_request_id

pytestmark = pytest.mark.asyncio


class _Table:
    """The hub's count of a table's deliveries and a clock, both moved by the test."""

    def __init__(self) -> None:
        self.deliveries = 0
        self.now = 0.0

    def joins(self) -> Joins:
        return Joins(
            version=lambda table: self.deliveries, monotonic=lambda: self.now, share_seconds=0.1
        )


class _Maker:
    """A snapshot maker that counts its calls and finishes when the test says."""

    def __init__(self) -> None:
        self.calls = 0
        self.release = asyncio.Event()
        self.release.set()
        self.error: Exception | None = None

    async def __call__(self) -> Made:
        self.calls += 1
        n = self.calls
        await self.release.wait()
        if self.error is not None:
            raise self.error
        return f'{{"type":"snapshot","seq":{n}}}', n


async def test_a_burst_of_joiners_shares_one_text() -> None:
    table, make = _Table(), _Maker()
    joins = table.joins()
    make.release.clear()
    waiting = [asyncio.create_task(joins.shared("t1", make)) for _ in range(500)]
    await asyncio.sleep(0)
    make.release.set()
    made = await asyncio.gather(*waiting)
    assert make.calls == 1
    assert len({id(text) for text, _ in made}) == 1  # the very same string for all
    assert {seq for _, seq in made} == {1}


async def test_a_delivery_to_the_table_means_a_new_snapshot_for_the_next_joiner() -> None:
    table, make = _Table(), _Maker()
    joins = table.joins()
    first = await joins.shared("t1", make)
    assert await joins.shared("t1", make) is first
    table.deliveries += 1  # an event, a countdown, a chat line reached the table's clients
    second = await joins.shared("t1", make)
    assert second == ('{"type":"snapshot","seq":2}', 2)
    assert make.calls == 2


async def test_a_shared_snapshot_serves_for_share_seconds_at_most() -> None:
    table, make = _Table(), _Maker()
    joins = table.joins()
    await joins.shared("t1", make)
    table.now += 0.1
    await joins.shared("t1", make)
    assert make.calls == 1
    table.now += 0.01  # its closes_in would now be more than a tenth of a second late
    await joins.shared("t1", make)
    assert make.calls == 2


async def test_each_table_and_part_has_its_own() -> None:
    table, make = _Table(), _Maker()
    joins = table.joins()
    await joins.shared("t1", make)
    await joins.shared("t2", make)
    await joins.shared("t1", make, part="chat_history")
    assert make.calls == 3


async def test_a_failure_reaches_every_joiner_waiting_and_the_next_asks_again() -> None:
    table, make = _Table(), _Maker()
    joins = table.joins()
    make.release.clear()
    make.error = UnavailableError("the owner of t1 sent no snapshot; try again")
    waiting = [asyncio.create_task(joins.shared("t1", make)) for _ in range(3)]
    await asyncio.sleep(0)
    make.release.set()
    outcomes = await asyncio.gather(*waiting, return_exceptions=True)
    assert all(isinstance(o, UnavailableError) for o in outcomes)
    make.error = None
    assert await joins.shared("t1", make) == ('{"type":"snapshot","seq":2}', 2)


async def test_a_joiner_that_goes_away_leaves_the_others_their_snapshot() -> None:
    table, make = _Table(), _Maker()
    joins = table.joins()
    make.release.clear()
    gone = asyncio.create_task(joins.shared("t1", make))
    staying = asyncio.create_task(joins.shared("t1", make))
    await asyncio.sleep(0)
    gone.cancel()
    make.release.set()
    assert await staying == ('{"type":"snapshot","seq":1}', 1)
    assert gone.cancelled()


async def test_turns_let_only_builds_snapshots_be_made_at_once() -> None:
    joins = Joins(version=lambda table: 0, monotonic=lambda: 0.0, builds=2)
    inside = most = 0
    release = asyncio.Event()

    async def build() -> None:
        nonlocal inside, most
        async with joins.turn():
            inside += 1
            most = max(most, inside)
            await release.wait()
            inside -= 1

    tasks = [asyncio.create_task(build()) for _ in range(10)]
    for _ in range(3):
        await asyncio.sleep(0)
    assert inside == 2
    release.set()
    await asyncio.gather(*tasks)
    assert most == 2


async def test_a_resync_answer_is_the_shared_text_with_its_request_id_last() -> None:
    shared = '{"type":"snapshot","seq":7,"settlement_pending":null}'
    answer = with_request_id(shared, 'r"1', lambda s: '"r\\"1"')
    assert answer == '{"type":"snapshot","seq":7,"settlement_pending":null,"request_id":"r\\"1"}'
