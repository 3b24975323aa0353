"""One server process: :class:`Node` builds its stores, bank, hub and bus, composes the
objects that own each of its concerns, and runs its life cycle."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from punto.errors import ServerError
from punto.ledger.dialects import DialectWallet, wallet_for
from punto.ledger.store import LedgerStore, create_engine
from punto.ledger.wallet import InternalWallet, Wallet
from punto.outcome import Outcome
from punto.server.auth import Actor, Role
from punto.server.clock import ServerClock, server_clock
from punto.server.config import Settings
from punto.server.fanout.bus import Bus, LocalBus, RedisBus
from punto.server.fanout.hub import Connection, Hub
from punto.server.fanout.joins import Joins
from punto.server.fanout.protocol import Command
from punto.server.features.chat import ChatRoom
from punto.server.features.recordings import Recordings
from punto.server.metrics import Metrics
from punto.server.money.bank import Bank
from punto.server.money.outbox import WalletOutbox
from punto.server.money.routing import RoutingWallet
from punto.server.node.accounts import Accounts
from punto.server.node.admin import TableAdmin
from punto.server.node.answers import Answers
from punto.server.node.corrections import Corrections
from punto.server.node.demo import demo_data
from punto.server.node.jurisdiction import SessionRules
from punto.server.node.leases import Leases
from punto.server.node.lobby import Lobby
from punto.server.node.mirror import Mirror
from punto.server.node.play import TablePlay
from punto.server.node.roster import DealerRoster
from punto.server.node.routing import Routing
from punto.server.node.upkeep import Upkeep
from punto.server.operators.purses import Purses
from punto.server.services import Services
from punto.server.store.jurisdictions import JurisdictionStore
from punto.server.store.migrate import upgrade_async
from punto.server.store.operators import OperatorStore
from punto.server.store.storage import ServerStore
from punto.server.tables.configs import TableConfig
from punto.server.tables.runner import TableRunner
from punto.server.tables.snapshot import Snapshot
from punto.table.clock import Clock
from punto.table.reasons import Why

__all__ = ["Node"]

_LOG = logging.getLogger("punto.server.node")


class Node:
    """One server process (see :mod:`punto.server.node`). Its concerns are objects of
    their own: :attr:`accounts`, :attr:`leases` (the tables owned here),
    :attr:`routing`, :attr:`play`, :attr:`lobby_view`, :attr:`admin`,
    :attr:`corrections`, :attr:`mirror` and :attr:`upkeep`; its methods are theirs."""

    def __init__(
        self, settings: Settings, *, wallet: Wallet | None = None, clock: Clock | None = None
    ) -> None:
        self.settings = settings
        self.clock: ServerClock = server_clock(clock)
        """The process's clock (a test's own, moved by hand, makes grace periods exact)."""
        self.engine = create_engine(settings.database_url, pool=settings.database_pool)
        self.ledger = LedgerStore(self.engine)
        self.store = ServerStore(self.engine)
        self.purses = Purses(self.engine, currency=settings.currency)
        """Each player's currency and limits at a table (:mod:`punto.server.operators.purses`)."""
        self.jurisdictions = JurisdictionStore(self.engine)
        """The jurisdiction profiles and the play sessions under them."""
        self._own_wallet = wallet is None
        self._default_wallet: DialectWallet | None = None
        if wallet is None:
            if settings.wallet == "seamless":
                assert settings.wallet_url is not None
                self._default_wallet = wallet_for(
                    settings.wallet_dialect,
                    settings.wallet_url,
                    api_key=settings.wallet_api_key,
                    secret=settings.wallet_secret,
                    key=_read_key(settings.wallet_key),
                    currency=settings.wallet_currency or settings.currency,
                    operator_id=settings.operator_id,
                )
                # each operator's launched players go to its own registered wallet
                wallet = RoutingWallet(self._default_wallet, OperatorStore(self.engine))
            else:
                wallet = InternalWallet(
                    self.ledger, operator_id=settings.operator_id, currency=settings.currency
                )
        self.wallet = wallet
        self.bank = Bank(
            self.ledger,
            wallet,
            self.store,
            seamless=settings.wallet == "seamless",
            operator_id=settings.operator_id,
            currency=settings.currency,
            currency_of_player=self.purses.currency,
            commit_size=settings.confirm_batch,
            # SQLite's one connection writes one transaction at a time
            commit_writers=settings.confirm_writers
            if self.engine.dialect.name == "postgresql"
            else 1,
            outbox=WalletOutbox(
                self.store,
                wallet,
                self.ledger,
                base_delay=settings.outbox_seconds,
                max_delay=settings.outbox_max_delay,
                hold=settings.outbox_hold,
                currency=settings.currency,
            ),
        )
        self.metrics = Metrics()
        self.hub = Hub(
            queue_size=settings.ws_queue, sent=self.metrics.ws_messages.labels("out").inc
        )
        self.joins = Joins(version=self.hub.version, monotonic=time.monotonic)
        """Joining clients' snapshots: shared by anonymous watchers, in turns for others."""
        self.bus: Bus = (
            RedisBus(
                settings.redis_url,
                self.hub,
                process_id=settings.process_id,
                prefix=settings.redis_prefix,
            )
            if settings.redis_url
            else LocalBus(self.hub)
        )
        self.chat = ChatRoom(
            store=self.store,
            bus=self.bus,
            messages=settings.chat_messages,
            window=settings.chat_window,
        )
        self.recordings = (
            Recordings(settings.recordings_dir) if settings.recordings_dir is not None else None
        )
        """The tables' video recordings (``None``: this server keeps none)."""
        self.shutting_down = False
        self.started = False
        self._tasks: list[asyncio.Task[None]] = []
        self._compose()

    def _compose(self) -> None:
        """The objects owning the process's concerns, each handed what it needs."""
        settings = self.settings

        def stopping() -> bool:
            return self.shutting_down

        self.roster = DealerRoster(self.store)
        self.accounts = Accounts(
            settings,
            store=self.store,
            bank=self.bank,
            wallet=self.wallet,
            clock=self.clock,
            dealer_added=self.roster.load,
        )
        runners: dict[str, TableRunner] = {}
        """The tables owned here, by id: the leases fill it, the others read it."""
        self.routing = Routing(
            settings.process_id, runners=runners, store=self.store, bus=self.bus, clock=self.clock
        )
        self.mirror = Mirror(
            runners=runners,
            store=self.store,
            route=self.routing.route,
            alone=self.alone,
            stopping=stopping,
        )
        self.leases = Leases(
            settings,
            store=self.store,
            bank=self.bank,
            metrics=self.metrics,
            services=Services(
                settings=settings,
                store=self.store,
                bank=self.bank,
                bus=self.bus,
                metrics=self.metrics,
                roster=self.roster.names,
                clock=self.clock,
                moved=self.mirror.moved,
                purse=self.purses.purse,
            ),
            runners=runners,
            roster=self.roster,
            alone=self.alone,
            stopping=stopping,
        )
        self.runners = runners
        """The tables owned here, by id."""
        self.play = TablePlay(
            runners=self.runners,
            routing=self.routing,
            bank=self.bank,
            chat=self.chat,
            rules=SessionRules(self.jurisdictions, clock=self.clock),
            stopping=stopping,
        )
        self.lobby_view = Lobby(
            settings, runners=self.runners, store=self.store, bus=self.bus, routing=self.routing
        )
        self.corrections = Corrections(
            store=self.store,
            ledger=self.ledger,
            bank=self.bank,
            bus=self.bus,
            runners=self.runners,
            route=self.routing.route,
            mirror=self.mirror,
        )
        self.admin = TableAdmin(store=self.store, leases=self.leases, routing=self.routing)
        self.answers = Answers(
            store=self.store, leases=self.leases, play=self.play, corrections=self.corrections
        )
        self.upkeep = Upkeep(
            settings,
            bank=self.bank,
            store=self.store,
            recordings=self.recordings,
            clock=self.clock,
        )
        self.signer = self.accounts.signer
        self.sessions = self.accounts.sessions
        """This process's WebSocket connections by session token id (logout closes them)."""
        self.ended = self.accounts.ended
        """Connections closed because their session ended (they close with 4401)."""

    @property
    def id(self) -> str:
        """This process's id."""
        return self.settings.process_id

    @property
    def alone(self) -> bool:
        """Whether this process is the only one on its database (no Redis): what a
        crashed predecessor left — table leases, players' turns — is its own to take
        back at once."""
        return self.settings.redis_url is None

    # -- life cycle --------------------------------------------------------------------

    async def start(self) -> None:
        """Migrate, create the demo data, recover and open the tables this process can own.
        A production configuration with problems (no secret …) refuses to start."""
        problems = self.settings.production_problems()
        if problems:
            raise ServerError("refusing to start in production mode: " + "; ".join(problems))
        await upgrade_async(self.settings.database_url)
        if self.settings.demo:
            await demo_data(self.store, self._create_demo_user)
        await self.roster.load()
        if self.alone:  # a turn held now was its stopped predecessor's
            released = await self.store.release_turns()
            if released:
                _LOG.warning(
                    "players' turns left by a stopped process given back", extra={"turns": released}
                )
        await self.bus.start(self.answers)
        await self.leases.acquire()
        self._tasks.append(asyncio.create_task(self.leases.loop(), name="punto-leases"))
        if self.bank.seamless:
            # what a stopped process left: the ledger since the last look, once now
            # (noted as looked at by the retry loop only, once every transaction in it
            # has surely committed)
            await self.upkeep.write_owed(upto=await self.store.ledger_last_seq(), advance=False)
            self._tasks.append(asyncio.create_task(self.upkeep.outbox_loop(), name="punto-outbox"))
        if self.recordings is not None:
            self._tasks.append(
                asyncio.create_task(self.upkeep.prune_loop(), name="punto-video-prune")
            )
        self.started = True

    async def stop(self) -> None:
        """Graceful shutdown: stop opening hands, finish (RNG) or void (live) the hand in
        play, close the tables, give the leases up, close the connections. Idempotent."""
        if self.shutting_down:
            return
        self.shutting_down = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.mirror.drain(timeout=10)
        await self.leases.stop()
        self.hub.close_all()
        await self.bus.close()

    async def close(self) -> None:
        """Release the connections (after :meth:`stop`, once nothing serves requests)."""
        await self.stop()
        if self._own_wallet and isinstance(self.wallet, RoutingWallet):
            await self.wallet.aclose()
        if self._default_wallet is not None:
            await self._default_wallet.aclose()
        await self.engine.dispose()

    async def _create_demo_user(self, user_id: str, password: str, role: Role, name: str) -> None:
        await self.create_user(user_id, password, role=role, name=name)

    # -- sessions (:class:`Accounts`) ----------------------------------------------------

    async def authenticate(self, token: str) -> Actor:
        """:meth:`Accounts.authenticate`."""
        return await self.accounts.authenticate(token)

    async def check_login(self, user_id: str, password: str, *, address: str) -> Actor:
        """:meth:`Accounts.check_login`."""
        return await self.accounts.check_login(user_id, password, address=address)

    async def revoke(self, actor: Actor, *, close: bool = True) -> None:
        """:meth:`Accounts.revoke`."""
        await self.accounts.revoke(actor, close=close)

    def end_session(self, conn: Connection) -> None:
        """:meth:`Accounts.end_session`."""
        self.accounts.end_session(conn)

    async def create_user(self, user_id: str, password: str, *, role: Role, name: str) -> None:
        """:meth:`Accounts.create_user`."""
        await self.accounts.create_user(user_id, password, role=role, name=name)

    # -- tables (:class:`Routing`, :class:`TablePlay`, :class:`Lobby`) -------------------

    async def owner(self, table_id: str) -> str | None:
        """:meth:`Routing.owner`."""
        return await self.routing.owner(table_id)

    async def config(self, table_id: str) -> TableConfig:
        """:meth:`Routing.config`."""
        return await self.routing.config(table_id)

    async def describe(self, table_id: str) -> dict[str, Any]:
        """:meth:`Lobby.describe`."""
        return await self.lobby_view.describe(table_id)

    async def lobby(self) -> list[dict[str, Any]]:
        """:meth:`Lobby.lobby`."""
        return await self.lobby_view.lobby()

    async def command(self, table_id: str, actor: Actor, command: Command) -> list[dict[str, Any]]:
        """:meth:`TablePlay.command`."""
        return await self.play.command(table_id, actor, command)

    async def command_count(self, table_id: str, actor: Actor, command: Command) -> int:
        """:meth:`TablePlay.command_count`."""
        return await self.play.command_count(table_id, actor, command)

    async def snapshot(self, table_id: str, actor: Actor) -> Snapshot:
        """:meth:`TablePlay.snapshot`."""
        return await self.play.snapshot(table_id, actor)

    async def roads(self, table_id: str, *, svg: bool = False) -> dict[str, Any]:
        """:meth:`TablePlay.roads`."""
        return await self.play.roads(table_id, svg=svg)

    async def connected(self, table_id: str, player: str, *, connected: bool) -> None:
        """:meth:`TablePlay.connected`."""
        await self.play.connected(table_id, player, connected=connected)

    # -- administration (:class:`TableAdmin`, :class:`Mirror`, :class:`Corrections`) -----

    async def create_table(self, config: TableConfig) -> TableConfig:
        """:meth:`TableAdmin.create_table`."""
        return await self.admin.create_table(config)

    async def update_table(self, config: TableConfig) -> TableConfig:
        """:meth:`TableAdmin.update_table`."""
        return await self.admin.update_table(config)

    async def close_table(self, table_id: str, *, reason: Why) -> None:
        """:meth:`TableAdmin.close_table`."""
        await self.admin.close_table(table_id, reason=reason)

    async def transfer(
        self, player: str, amount: int, *, reason: Why, skip: str | None = None
    ) -> None:
        """:meth:`Mirror.transfer`."""
        await self.mirror.transfer(player, amount, reason=reason, skip=skip)

    async def correct(
        self,
        game: str,
        outcome: Outcome,
        *,
        author: str,
        reason: str,
        correction_id: str | None,
    ) -> dict[str, Any]:
        """:meth:`Corrections.correct`."""
        return await self.corrections.correct(
            game, outcome, author=author, reason=reason, correction_id=correction_id
        )

    async def void_hand(self, game: str, *, author: str, reason: str) -> dict[str, Any]:
        """:meth:`Corrections.void_hand`."""
        return await self.corrections.void_hand(game, author=author, reason=reason)


def _read_key(path: str | None) -> str | None:
    """The PEM key in the file ``path`` (a hub88 wallet's signing key)."""
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as exc:
        raise ServerError(f"cannot read the wallet key PUNTO_WALLET_KEY={path!r}: {exc}") from None
