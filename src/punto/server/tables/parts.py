"""A live table and the objects its runner is made of, each handed what it needs."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from punto.server.money.tablelock import TableLock
from punto.server.services import DEALER_ROSTER, Services
from punto.server.tables.commands import Commands, Locked
from punto.server.tables.configs import TableConfig
from punto.server.tables.confirming import ConfirmPipeline
from punto.server.tables.payouts import Payouts
from punto.server.tables.pending import MoneyPending
from punto.server.tables.recorder import HandRecorder
from punto.server.tables.stakes import RoundStakes
from punto.server.tables.standing import StandingStakes
from punto.server.tables.tablecast import TableCast
from punto.server.tables.view import TableView
from punto.table import Table
from punto.table.clock import HeldClock

__all__ = ["TableParts", "live_table"]


def live_table(
    config: TableConfig,
    services: Services,
    *,
    clock: HeldClock,
    rng: random.Random | None,
    dealer: str | None,
    first_shoe: int,
) -> Table:
    """The table of ``config`` as this server runs it, on ``clock``, its shoes numbered
    from ``first_shoe`` on (game numbers stay unique across restarts)."""
    settings = config.settings(betting_seconds=services.settings.betting_seconds)
    settings = settings.replace(
        pace=services.settings.pace.for_rules(settings.rules),
        # the operator's debits of standing bets are made without the table [M12]
        standing_awaits_stake=services.bank.seamless,
    )
    roster = list(services.roster()) or list(DEALER_ROSTER)
    table = Table(settings, clock=clock, rng=rng, dealer=dealer or roster[0])
    table.shoe_number = first_shoe
    return table


@dataclass(frozen=True, slots=True)
class TableParts:
    """One table's objects: what clients read of it, its fan-out, its recorder, its round's
    stakes, its payouts, settlement pending, its confirm pipeline, its standing bets [M12]
    and its client commands."""

    view: TableView
    cast: TableCast
    recorder: HandRecorder
    stakes: RoundStakes
    payouts: Payouts
    pending: MoneyPending
    confirms: ConfirmPipeline
    standing: StandingStakes
    commands: Commands

    @classmethod
    def build(
        cls,
        table: Table,
        services: Services,
        *,
        table_id: str,
        lock: TableLock,
        clock: HeldClock,
        verify: Callable[[], None],
        process: Callable[[], Awaitable[None]],
        wake: Callable[[], None],
        locked: Locked,
    ) -> TableParts:
        """Make them for ``table``, run by a runner whose lock is ``lock``, whose table's
        clock is ``clock``: ``verify`` refuses while the table takes no command, ``process``
        runs the new events' effects, ``wake`` wakes its loop and ``locked`` makes a change
        under the lock and runs its effects."""
        stakes = RoundStakes(table)
        cast = TableCast(table, services, table_id=table_id, lock=lock)
        recorder = HandRecorder(table, services, table_id=table_id, cast=cast)
        payouts = Payouts(table, services, table_id=table_id, stakes=stakes, recorder=recorder)
        confirms = ConfirmPipeline(
            table,
            services,
            lock=lock,
            clock=clock,
            stakes=stakes,
            payouts=payouts,
            verify=verify,
            process=process,
            wake=wake,
        )
        standing = StandingStakes(
            table,
            services,
            table_id=table_id,
            lock=lock,
            stakes=stakes,
            payouts=payouts,
            confirms=confirms,
            process=process,
            wake=wake,
        )
        commands = Commands(
            table,
            services,
            stakes=stakes,
            payouts=payouts,
            standing=standing,
            cast=cast,
            locked=locked,
        )
        return cls(
            view=TableView(table, table_id=table_id),
            cast=cast,
            recorder=recorder,
            stakes=stakes,
            payouts=payouts,
            pending=MoneyPending(table_id, clock=services.clock, bus=services.bus),
            confirms=confirms,
            standing=standing,
            commands=commands,
        )
