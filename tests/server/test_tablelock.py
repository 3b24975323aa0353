"""A table's lock: commands alone, batches of confirms checked while earlier ones are
written, a player's own chips beside the batches that do not hold them."""

from __future__ import annotations

import asyncio

import pytest

from punto.server.money.tablelock import TableLock

pytestmark = pytest.mark.asyncio


async def _settle() -> None:
    """Let every task that can run, run (a few loop turns)."""
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_command_waits_for_the_open_batches_and_no_batch_opens_meanwhile() -> None:
    lock, seen = TableLock(), []
    async with lock.checking(["ann"]):
        pass
    assert lock.open == 1

    async def command() -> None:
        async with lock:
            seen.append("command")

    async def batch() -> None:
        async with lock.checking(["bob"]):
            seen.append("bob checked")
        lock.taken(["bob"])

    waiting = asyncio.create_task(command())
    await _settle()
    later = asyncio.create_task(batch())  # comes after the command: waits for it
    await _settle()
    assert seen == []
    async with lock.taking():
        seen.append("ann taken")
    lock.taken(["ann"])
    await asyncio.gather(waiting, later)
    assert seen == ["ann taken", "command", "bob checked"]
    assert lock.open == 0


async def test_batches_are_checked_while_others_are_open() -> None:
    lock = TableLock()
    for player in ("ann", "bob", "cleo"):
        async with lock.checking([player]):
            pass
    assert lock.open == 3
    for player in ("ann", "bob", "cleo"):
        async with lock.taking():
            pass
        lock.taken([player])
    assert lock.open == 0
    with pytest.raises(RuntimeError, match="no batch of confirms is open"):
        lock.taken()


async def test_a_players_own_chips_wait_only_for_a_batch_holding_that_player() -> None:
    lock, seen = TableLock(), []
    async with lock.checking(["ann"]):
        pass

    async def chips(player: str) -> None:
        async with lock.for_player(player):
            seen.append(player)

    bob = asyncio.create_task(chips("bob"))
    ann = asyncio.create_task(chips("ann"))
    await _settle()
    assert seen == ["bob"]  # ann's confirm is being written: her chips wait for it
    lock.taken(["ann"])
    await asyncio.gather(bob, ann)
    assert seen == ["bob", "ann"]


async def test_a_polite_holder_does_not_keep_batches_from_being_checked() -> None:
    lock, seen = TableLock(), []
    async with lock.checking(["ann"]):
        pass

    async def step() -> None:
        async with lock.politely():
            seen.append("step")

    waiting = asyncio.create_task(step())
    await _settle()
    async with lock.checking(["bob"]):  # not held off by the polite step
        seen.append("bob checked")
    lock.taken(["ann"])
    await _settle()
    assert seen == ["bob checked"]  # bob's batch is still open
    lock.taken(["bob"])
    await waiting
    assert seen == ["bob checked", "step"]


async def test_a_command_given_up_while_it_waits_holds_no_batch_off() -> None:
    lock = TableLock()
    async with lock.checking(["ann"]):
        pass

    async def command() -> None:
        async with lock:
            pass  # pragma: no cover - cancelled while it waits

    waiting = asyncio.create_task(command())
    await _settle()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    async with lock.checking(["bob"]):  # would wait for ever if the command still counted
        pass
    assert lock.open == 2


async def test_a_batch_whose_checks_raise_is_not_open() -> None:
    lock = TableLock()
    with pytest.raises(ValueError, match="bad"):
        async with lock.checking(["ann"]):
            raise ValueError("bad")
    assert lock.open == 0
    async with lock:  # nothing to wait for
        pass
