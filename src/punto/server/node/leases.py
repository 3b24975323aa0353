"""The tables this process owns: taking their leases, opening them, keeping the leases
alive, and giving them up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable

from punto.server.config import Settings
from punto.server.fanout.protocol import hand_record_json
from punto.server.metrics import Metrics
from punto.server.money.bank import Bank
from punto.server.node.roster import DealerRoster
from punto.server.services import Services
from punto.server.store.storage import ServerStore
from punto.server.tables.configs import TableConfig
from punto.server.tables.runner import TableRunner
from punto.table.reasons import Why

__all__ = ["Leases"]

_LOG = logging.getLogger("punto.server.node")


class Leases:
    """The tables whose lease (``server_table_leases``) this process holds, one
    :class:`TableRunner` each in ``runners`` (the dict it fills). A process ``alone`` on
    its database takes a lease a stopped predecessor left at once; ``stopping`` says the
    process is shutting down (no table is opened then)."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: ServerStore,
        bank: Bank,
        metrics: Metrics,
        services: Services,
        runners: dict[str, TableRunner],
        roster: DealerRoster,
        alone: bool,
        stopping: Callable[[], bool],
    ) -> None:
        self._settings = settings
        self._id = settings.process_id
        self._store = store
        self._bank = bank
        self._metrics = metrics
        self._services = services
        self._roster = roster
        self._alone = alone
        self._stopping = stopping
        self.runners = runners
        """The tables owned here, by id (filled here; others are handed it to read)."""
        self._acquiring = asyncio.Lock()
        """One look for tables to open at a time: a new table (the admin API) and the
        lease loop's round would otherwise both open it, two runners dealing one table."""
        self._rng = random.Random(settings.rng_seed) if settings.rng_seed is not None else None

    async def acquire(self) -> None:
        """Take every enabled table no live process owns (one caller at a time)."""
        async with self._acquiring:
            await self._acquire_free()

    async def _acquire_free(self) -> None:
        if self._stopping():
            return
        for config in await self._store.tables(enabled_only=True):
            if config.id in self.runners:
                continue
            if not await self._store.acquire_lease(
                config.id, self._id, ttl=self._settings.lease_seconds, force=self._alone
            ):
                continue
            try:
                await self.open_table(config)
            except Exception:
                _LOG.exception("could not open table", extra={"table": config.id})
                await self._store.release_leases([config.id], self._id)
        self._metrics.tables_owned.set(len(self.runners))

    async def open_table(self, config: TableConfig) -> None:
        """Recover a table's ledger rounds and lost records, and start dealing it."""
        rules = config.settings(betting_seconds=None).rules
        recovery = await self._bank.recover(config.id, rules=rules)
        if recovery.settled or recovery.voided:
            _LOG.info(
                "rounds recovered",
                extra={
                    "table": config.id,
                    "settled": len(recovery.settled),
                    "voided": len(recovery.voided),
                },
            )
        await self.save_lost_records(config)
        await self._store.clear_table(config.id)
        rng = None if self._rng is None else random.Random(self._rng.getrandbits(64))
        roster = self._roster.names()
        runner = TableRunner(
            config,
            self._services,
            first_shoe=await self._store.last_shoe(config.id),
            rng=rng,
            dealer=roster[len(self.runners) % len(roster)],
        )
        self.runners[config.id] = runner
        runner.start()

    async def save_lost_records(self, config: TableConfig) -> None:
        """Save the hand records a stopped process owed of this table (it stopped between
        a settlement's commit and its record's, or left rounds open that the restart just
        closed), rebuilt from the ledger (:meth:`Bank.lost_records`), before the table
        deals again: a player's history, a complaint by game number and the roads find
        every hand whose money moved [L]."""
        settings = config.settings(betting_seconds=None)
        for info, record in await self._bank.lost_records(config.id, rules=settings.rules):
            data = hand_record_json(record)
            data["rules_version"] = settings.rules_version
            data["recovered"] = True
            saved = await self._store.save_hand(
                game=info.id,
                table_id=config.id,
                shoe=record.game.shoe,
                hand=record.game.hand,
                opened_at=record.opened_at,
                closed_at=record.closed_at,
                status=info.status.value,
                record=data,
                players=sorted(set(record.bets) | set(record.results)),
                replace=False,  # the table's own record, if it came meanwhile, stays
            )
            if saved:
                _LOG.warning(
                    "hand record rebuilt from the ledger",
                    extra={"table": config.id, "game": info.id, "status": info.status.value},
                )

    async def loop(self) -> None:
        """Renew the leases a third of their time apart; a table whose lease was lost
        stops here at once; then take the tables nobody owns."""
        interval = self._settings.lease_seconds / 3
        while True:
            await asyncio.sleep(interval)
            try:
                owned = await self._store.renew_leases(
                    list(self.runners), self._id, ttl=self._settings.lease_seconds
                )
                for table_id in [t for t in self.runners if t not in owned]:
                    _LOG.warning("lease lost", extra={"table": table_id})
                    await self.runners.pop(table_id).abandon()
                await self.acquire()
            except asyncio.CancelledError:
                raise
            except Exception:
                _LOG.exception("lease renewal failed")

    async def close(self, table_id: str, reason: Why) -> None:
        """Stop a table owned here (its hand in play void, ``reason`` told) and give its
        lease up."""
        runner = self.runners.pop(table_id)
        await runner.stop(reason=reason)
        await self._store.release_leases([table_id], self._id)
        self._metrics.tables_owned.set(len(self.runners))

    async def reopen(self, table_id: str) -> None:
        """A closed table enabled again: its runner goes, its lease is given up, and it
        is opened afresh (here or by another process)."""
        await self.runners.pop(table_id).stop()
        await self._store.release_leases([table_id], self._id)
        await self.acquire()

    async def stop(self) -> None:
        """Stop every table owned here (:meth:`TableRunner.stop`) and give the leases up."""
        runners = list(self.runners.values())
        await asyncio.gather(*(r.stop() for r in runners), return_exceptions=True)
        with contextlib.suppress(Exception):  # unreleased, they run out by themselves
            await self._store.release_leases([r.id for r in runners], self._id)
        self.runners.clear()
