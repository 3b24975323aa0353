"""One server process: its stores, its bank, the tables it owns, and the way to the others.

A :class:`Node` owns the tables whose lease it holds (``server_table_leases``), runs one
:class:`~punto.server.tables.runner.TableRunner` for each, and routes every request about a table
to its owner: straight to the runner when the table is here, through the bus (Redis) when
another process owns it. On start it migrates the database, creates the demo tables and
accounts (``make run``), recovers each table's ledger rounds and starts dealing. On stop it
finishes or safely stops each table's hand, then gives its leases up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import re
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from typing import Any, cast

from punto.errors import (
    AuthError,
    NotFoundError,
    ProtocolError,
    PuntoError,
    RateLimitedError,
    RemoteError,
    ServerError,
    UnavailableError,
)
from punto.ledger.model import TransactionKind, settle_players
from punto.ledger.store import LedgerStore, RoundStatus, create_engine
from punto.ledger.wallet import InternalWallet, SeamlessWallet, Wallet
from punto.outcome import Outcome
from punto.server.auth import (
    Actor,
    LoginLimiter,
    Role,
    TokenSigner,
    check_password,
    hash_password,
)
from punto.server.config import Settings
from punto.server.fanout.bus import Bus, LocalBus, RedisBus
from punto.server.fanout.hub import Connection, Hub
from punto.server.fanout.protocol import (
    Chat,
    ChatMute,
    Command,
    error_message,
    event_json,
    hand_record_json,
    outcome_from_json,
    outcome_json,
    parse_command,
    tier_json,
)
from punto.server.fanout.requests import (
    CloseTable,
    Correct,
    Describe,
    GetRoads,
    GetSnapshot,
    Reconfigure,
    RefreshRoads,
    RunCommand,
    SetConnected,
    StatusAll,
    TableRequest,
    Transfer,
    request_from_json,
    request_json,
)
from punto.server.features.backoffice import rules_of_hand
from punto.server.features.chat import ChatRoom
from punto.server.features.recordings import Recordings
from punto.server.metrics import Metrics
from punto.server.money.bank import Bank
from punto.server.money.outbox import WalletOutbox
from punto.server.services import DEALER_ROSTER, ServerClock, Services, WallClock
from punto.server.store.migrate import upgrade_async
from punto.server.store.storage import ServerStore
from punto.server.tables.configs import DEMO_TABLES, TableConfig
from punto.server.tables.runner import TableRunner
from punto.server.tables.snapshot import Snapshot, table_json
from punto.server.tables.truth import amend_record
from punto.table.events import Event
from punto.table.reasons import Reason, Why
from punto.table.records import GameNumber

__all__ = ["DEMO_USERS", "Node"]

_LOG = logging.getLogger("punto.server.node")

_TURN_WAIT = 5.0
"""How long an amendment waits for a join of one of its players to end."""

_USER_NAME = re.compile(r"^[a-z0-9_-]{3,32}$")

DEMO_USERS: tuple[tuple[str, Role, str], ...] = (
    ("ann", Role.PLAYER, "Ann"),
    ("bob", Role.PLAYER, "Bob"),
    ("cleo", Role.PLAYER, "Cleo"),
    ("dev", Role.PLAYER, "Dev"),
    ("dana", Role.DEALER, "Dana"),
    ("lin", Role.DEALER, "Lin"),
    ("sam", Role.SUPERVISOR, "Sam"),
    ("admin", Role.ADMIN, "Admin"),
)
"""The demo accounts ``make run`` creates; each one's password is ``<name>-demo``."""


def _raise_remote(answer: Mapping[str, Any]) -> None:
    error = answer.get("error")
    if isinstance(error, Mapping):
        params = error.get("params")
        raise RemoteError(
            str(error.get("message", "")),
            code=str(error.get("error", "internal")),
            params=dict(params) if isinstance(params, Mapping) else None,
        )


class Node:
    """One server process (see the module docstring)."""

    def __init__(
        self, settings: Settings, *, wallet: Wallet | None = None, clock: ServerClock | None = None
    ) -> None:
        self.settings = settings
        self.clock: ServerClock = clock or WallClock()
        """The tables' clock (a test's own, moved by hand, makes grace periods exact)."""
        self.engine = create_engine(settings.database_url, pool=settings.database_pool)
        self.ledger = LedgerStore(self.engine)
        self.store = ServerStore(self.engine)
        self._own_wallet = wallet is None
        if wallet is None:
            if settings.wallet == "seamless":
                assert settings.wallet_url is not None
                wallet = SeamlessWallet(settings.wallet_url, api_key=settings.wallet_api_key)
            else:
                wallet = InternalWallet(self.ledger, operator_id=settings.operator_id)
        self.wallet = wallet
        self.bank = Bank(
            self.ledger,
            wallet,
            self.store,
            seamless=settings.wallet == "seamless",
            operator_id=settings.operator_id,
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
            ),
        )
        self.metrics = Metrics()
        self.hub = Hub(
            queue_size=settings.ws_queue, sent=self.metrics.ws_messages.labels("out").inc
        )
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
            engine=self.engine,
            store=self.store,
            bus=self.bus,
            messages=settings.chat_messages,
            window=settings.chat_window,
        )
        self.recordings = (
            Recordings(settings.recordings_dir) if settings.recordings_dir is not None else None
        )
        """The tables' video recordings (``None``: this server keeps none)."""
        self.signer = TokenSigner(settings.secret or secrets.token_hex(32), ttl=settings.token_ttl)
        self.logins = LoginLimiter(
            per_account=settings.login_attempts,
            per_address=settings.login_address_attempts,
            window=settings.login_window,
        )
        self._decoy_hash: str | None = None
        self.sessions: dict[str, set[Connection]] = {}
        """This process's WebSocket connections by session token id (logout closes them)."""
        self.ended: set[Connection] = set()
        """Connections closed because their session ended (they close with 4401)."""
        self.runners: dict[str, TableRunner] = {}
        self._roster: list[str] = list(DEALER_ROSTER)
        self._owners: dict[str, str] = {}
        self._owners_at = 0.0
        self._owners_lookup: asyncio.Future[dict[str, str]] | None = None
        self._configs: dict[str, tuple[float, asyncio.Future[TableConfig]]] = {}
        """Other processes' tables' configurations, looked up once per second at most (a
        burst of thousands of clients connecting costs one query, not one each)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._acquiring = asyncio.Lock()
        """One look for tables to open at a time: a new table (the admin API) and the
        lease loop's round would otherwise both open it, two runners dealing one table."""
        self._presence: dict[tuple[str, str], int] = {}
        self._moves: list[tuple[str, int, str]] = []
        """Moves of players' money by play at a table, for their other tables to follow
        (:meth:`_mirror`): ``(player, amount, table)`` in the order they happened."""
        self._mirroring: asyncio.Task[None] | None = None
        self._hand_locks: dict[str, tuple[asyncio.Lock, int]] = {}
        self._rng = random.Random(settings.rng_seed) if settings.rng_seed is not None else None
        self.shutting_down = False
        self.started = False

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
            await self._demo_data()
        await self._load_roster()
        if self.alone:  # a turn held now was its stopped predecessor's
            released = await self.store.release_turns()
            if released:
                _LOG.warning(
                    "players' turns left by a stopped process given back", extra={"turns": released}
                )
        await self.bus.start(self._answer)
        await self._acquire_tables()
        self._tasks.append(asyncio.create_task(self._lease_loop(), name="punto-leases"))
        if self.bank.seamless:
            # what a stopped process left: the ledger since the last look, once now
            # (noted as looked at by the retry loop only, once every transaction in it
            # has surely committed)
            await self._write_owed(upto=await self.store.ledger_last_seq(), advance=False)
            self._tasks.append(asyncio.create_task(self._outbox_loop(), name="punto-outbox"))
        if self.recordings is not None:
            self._tasks.append(asyncio.create_task(self._prune_loop(), name="punto-video-prune"))
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
        if self._mirroring is not None and not self._mirroring.done():
            await asyncio.wait({self._mirroring}, timeout=10)
        runners = list(self.runners.values())
        await asyncio.gather(*(r.stop() for r in runners), return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.store.release_leases([r.id for r in runners], self.id)
        self.runners.clear()
        self.hub.close_all()
        await self.bus.close()

    async def close(self) -> None:
        """Release the connections (after :meth:`stop`, once nothing serves requests)."""
        await self.stop()
        if self._own_wallet and isinstance(self.wallet, SeamlessWallet):
            await self.wallet.aclose()
        await self.engine.dispose()

    async def _demo_data(self) -> None:
        """Demo tables and accounts on first start (``make run``)."""
        if not await self.store.tables():
            for config in DEMO_TABLES:
                with contextlib.suppress(PuntoError):
                    await self.store.create_table(config)
        for user_id, role, name in DEMO_USERS:
            if await self.store.user(user_id) is None:
                with contextlib.suppress(PuntoError):
                    await self.create_user(user_id, f"{user_id}-demo", role=role, name=name)

    async def _load_roster(self) -> None:
        dealers = [u.display_name for u in await self.store.users() if u.role is Role.DEALER]
        self._roster = dealers or list(DEALER_ROSTER)

    # -- sessions --------------------------------------------------------------------

    async def authenticate(self, token: str) -> Actor:
        """The actor a session token names: :class:`AuthError` if it is forged, expired
        or revoked."""
        actor = self.signer.verify(token)
        if actor.token_id is not None and await self.store.token_revoked(actor.token_id):
            raise AuthError("this session was ended: log in again")
        return actor

    async def check_login(self, user_id: str, password: str, *, address: str) -> Actor:
        """The user a username and password name, or :class:`AuthError`. An unknown name
        costs the same work as a known one (no timing oracle); the hash runs off the event
        loop; past the limits of failed attempts, :class:`RateLimitedError`."""
        wait = self.logins.wait(user_id, address, now=time.monotonic())
        if wait is not None:
            raise RateLimitedError(
                f"too many failed logins: try again in {math.ceil(wait)} s",
                retry_after=math.ceil(wait),
            )
        user = await self.store.user(user_id)
        if self._decoy_hash is None:
            self._decoy_hash = await asyncio.to_thread(
                hash_password, secrets.token_hex(16), cost=self.settings.password_cost
            )
        stored = self._decoy_hash if user is None else user.password_hash
        good = await asyncio.to_thread(check_password, password, stored)
        if user is None or not good:
            self.logins.failed(user_id, address, now=time.monotonic())
            raise AuthError("wrong username or password")
        self.logins.succeeded(user_id)
        return Actor(user.id, user.role, user.display_name)

    async def revoke(self, actor: Actor, *, close: bool = True) -> None:
        """End the session of ``actor``'s token (logout; a renewal, ``close`` false, lets
        the sockets opened with it run to its expiry): the token is refused from now on,
        and with ``close`` this process's sockets opened with it close with 4401."""
        if actor.token_id is not None and actor.user_id is not None:
            await self.store.revoke_token(
                actor.token_id, user_id=actor.user_id, expires_at=actor.expires_at or time.time()
            )
            for conn in self.sessions.pop(actor.token_id, set()) if close else ():
                self.end_session(conn)

    def end_session(self, conn: Connection) -> None:
        """Close ``conn`` because its session ended (logout, expiry): its writer writes
        what waits (the error saying why) and closes with 4401."""
        self.ended.add(conn)
        conn.close()

    async def create_user(self, user_id: str, password: str, *, role: Role, name: str) -> None:
        """A new user (:class:`ProtocolError` for a bad name); a new player gets the demo
        balance when the server runs demo data."""
        if not _USER_NAME.match(user_id):
            raise ProtocolError("a username is 3-32 characters of a-z 0-9 _ -")
        await self.store.create_user(
            user_id,
            role=role,
            display_name=name,
            password_hash=await asyncio.to_thread(
                hash_password, password, cost=self.settings.password_cost
            ),
        )
        if role is Role.PLAYER and self.settings.demo and not self.bank.seamless:
            await self.wallet.credit(
                user_id, self.settings.demo_balance, transaction_id=f"demo:{user_id}"
            )
        if role is Role.DEALER:
            await self._load_roster()

    # -- ownership -------------------------------------------------------------------

    def _services(self) -> Services:
        return Services(
            settings=self.settings,
            store=self.store,
            bank=self.bank,
            bus=self.bus,
            metrics=self.metrics,
            roster=lambda: self._roster,
            clock=self.clock,
            moved=self._mirror,
        )

    def _mirror(self, player: str, amount: int, table_id: str) -> None:
        """Play at ``table_id`` moved ``amount`` of ``player``'s wallet (a stake, a
        settlement, a refund): their other tables move their table balance the same way,
        so each shows what the player has. Queued for one task of the process, never run
        under a table's lock: it looks up at once where all the players whose money moved
        meanwhile are (a settlement's thousands of players, a batch of confirms), then
        follows each move in the order it happened. A process alone on its database owns
        every table there is, so its own tables say where players are; with others
        (Redis), one query of the database's presence does."""
        if self.shutting_down or not amount:
            return
        self._moves.append((player, amount, table_id))
        if self._mirroring is None or self._mirroring.done():
            self._mirroring = asyncio.create_task(self._follow_moves(), name="punto-mirror")

    async def _follow_moves(self) -> None:
        while self._moves:
            moves, self._moves = self._moves, []
            try:
                players = [player for player, _, _ in moves]
                where = (
                    self._tables_here(players)
                    if self.alone
                    else await self.store.tables_of_many(players)
                )
            except Exception:  # a display figure: the ledger holds the money
                _LOG.exception("table balances not followed", extra={"moves": len(moves)})
                continue
            for player, amount, skip in moves:
                tables = [t for t in where.get(player, ()) if t != skip]
                if not tables:
                    continue
                try:
                    await self._transfer_at(tables, player, amount, reason=Why(Reason.OTHER_TABLE))
                except Exception:
                    _LOG.exception("table balance not followed", extra={"player": player})

    def _tables_here(self, players: Iterable[str]) -> dict[str, list[str]]:
        """The tables of this process each of ``players`` is at (as
        :meth:`ServerStore.tables_of_many`, from the tables' own seats: no query for a
        process alone on its database, which owns every table; players at none are left
        out)."""
        wanted = set(players)
        found: dict[str, list[str]] = {}
        for table_id, runner in self.runners.items():
            for player in wanted:  # the few who moved, not the table's thousands
                if runner.at_table(player):
                    found.setdefault(player, []).append(table_id)
        return found

    async def _acquire_tables(self) -> None:
        """Take every enabled table no live process owns (one caller at a time)."""
        async with self._acquiring:
            await self._acquire_free_tables()

    async def _acquire_free_tables(self) -> None:
        if self.shutting_down:
            return
        for config in await self.store.tables(enabled_only=True):
            if config.id in self.runners:
                continue
            if not await self.store.acquire_lease(
                config.id, self.id, ttl=self.settings.lease_seconds, force=self.alone
            ):
                continue
            try:
                await self._open_table(config)
            except Exception:
                _LOG.exception("could not open table", extra={"table": config.id})
                await self.store.release_leases([config.id], self.id)
        self.metrics.tables_owned.set(len(self.runners))

    async def _open_table(self, config: TableConfig) -> None:
        rules = config.settings(betting_seconds=None).rules
        recovery = await self.bank.recover(config.id, rules=rules)
        if recovery.settled or recovery.voided:
            _LOG.info(
                "rounds recovered",
                extra={
                    "table": config.id,
                    "settled": len(recovery.settled),
                    "voided": len(recovery.voided),
                },
            )
        await self._save_lost_records(config)
        await self.store.clear_table(config.id)
        rng = None if self._rng is None else random.Random(self._rng.getrandbits(64))
        runner = TableRunner(
            config,
            self._services(),
            first_shoe=await self.store.last_shoe(config.id),
            rng=rng,
            dealer=self._roster[len(self.runners) % len(self._roster)],
        )
        self.runners[config.id] = runner
        runner.start()

    async def _save_lost_records(self, config: TableConfig) -> None:
        """Save the hand records a stopped process owed of this table (it stopped between
        a settlement's commit and its record's, or left rounds open that the restart just
        closed), rebuilt from the ledger (:meth:`Bank.lost_records`), before the table
        deals again: a player's history, a complaint by game number and the roads find
        every hand whose money moved [L]."""
        settings = config.settings(betting_seconds=None)
        for info, record in await self.bank.lost_records(config.id, rules=settings.rules):
            data = hand_record_json(record)
            data["rules_version"] = settings.rules_version
            data["recovered"] = True
            saved = await self.store.save_hand(
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

    async def _lease_loop(self) -> None:
        interval = self.settings.lease_seconds / 3
        while True:
            await asyncio.sleep(interval)
            try:
                owned = await self.store.renew_leases(
                    list(self.runners), self.id, ttl=self.settings.lease_seconds
                )
                for table_id in [t for t in self.runners if t not in owned]:
                    _LOG.warning("lease lost", extra={"table": table_id})
                    await self.runners.pop(table_id).abandon()
                await self._acquire_tables()
            except asyncio.CancelledError:
                raise
            except Exception:
                _LOG.exception("lease renewal failed")

    async def _write_owed(self, *, upto: int, advance: bool = True) -> None:
        """Write down the wallet calls the ledger owes players, up to its transaction
        ``upto``, that no process wrote (:meth:`WalletOutbox.write_owed`)."""
        try:
            await self.bank.outbox.write_owed(upto=upto, advance=advance)
        except asyncio.CancelledError:
            raise
        except Exception:  # the retry loop looks again
            _LOG.exception("wallet calls owed not written down")

    async def _outbox_loop(self) -> None:
        """Retry the wallet calls the operator has not answered yet, until it does; and
        write down those the ledger owes that no process wrote (it stopped between the
        ledger's commit and the outbox's row), once the outbox's hold has passed since
        their commit (the process that owes one writes it well within that)."""
        seen: deque[tuple[float, int]] = deque()
        while True:
            await asyncio.sleep(self.settings.outbox_seconds)
            try:
                await self.bank.outbox.deliver()
                now = time.monotonic()
                seen.append((now, await self.store.ledger_last_seq()))
            except asyncio.CancelledError:
                raise
            except Exception:
                _LOG.exception("wallet outbox delivery failed")
                continue
            upto = None
            while seen and now - seen[0][0] >= self.bank.outbox.hold:
                upto = seen.popleft()[1]
            if upto is not None:
                await self._write_owed(upto=upto)

    async def _prune_loop(self) -> None:
        """Delete the recordings older than the retention [L], now and then every
        ``video_prune_seconds``."""
        recordings = self.recordings
        assert recordings is not None
        while True:
            try:
                pruned = await asyncio.to_thread(
                    recordings.prune, now=time.time(), retention=self.settings.video_retention
                )
                if pruned.segments or pruned.playlists:
                    _LOG.info(
                        "recordings pruned",
                        extra={"segments": pruned.segments, "bytes": pruned.bytes},
                    )
            except asyncio.CancelledError:
                raise
            except Exception:
                _LOG.exception("pruning the recordings failed")
            await asyncio.sleep(self.settings.video_prune_seconds)

    async def owner(self, table_id: str) -> str | None:
        """The process owning ``table_id`` (``None``: nobody now)."""
        if table_id in self.runners:
            return self.id
        now = time.monotonic()
        if table_id not in self._owners or now - self._owners_at > 1.0:
            if self._owners_lookup is None:  # one query for everyone asking meanwhile
                self._owners_lookup = asyncio.ensure_future(self.store.owners())
            lookup = self._owners_lookup
            try:
                owners = await asyncio.shield(lookup)
            finally:
                if self._owners_lookup is lookup and lookup.done():
                    self._owners_lookup = None
            if self._owners_at < now:
                self._owners, self._owners_at = owners, now
            return owners.get(table_id)
        return self._owners.get(table_id)

    async def _route(self, request: TableRequest) -> dict[str, Any]:
        """Ask the owner of the request's table (another process)."""
        table_id = request.table
        owner = await self.owner(table_id)
        if owner is None or owner == self.id:
            await self.config(table_id)  # NotFoundError for an unknown table
            raise UnavailableError(f"table {table_id} is not open right now; try again")
        answer = await self.bus.request(owner, request_json(request))
        _raise_remote(answer)
        return answer

    async def _answer(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Answer a request another process forwarded about a table owned here
        (:mod:`punto.server.fanout.requests`; a malformed one is a :class:`ProtocolError`)."""
        request = request_from_json(data)
        if isinstance(request, StatusAll):
            return {"tables": {t: r.status() for t, r in self.runners.items()}}
        runner = self.runners.get(request.table)
        if runner is None:
            return {"error": error_message(UnavailableError("the table moved; try again"))}
        match request:
            case RunCommand(actor=actor):
                command = parse_command(request.command)
                if isinstance(command, Chat | ChatMute):
                    await self._chat_here(runner, actor, command)
                    return {"events": []}
                return {"events": [event_json(e) for e in await runner.execute(actor, command)]}
            case GetSnapshot(actor=actor, wallet=wallet):
                return {"snapshot": runner.snapshot(actor, wallet=wallet)}
            case Describe():
                return {"table": runner.describe()}
            case GetRoads(svg=svg):
                return {"roads": runner.roads_message(svg=svg)}
            case SetConnected(player=player, connected=connected):
                await runner.set_connected(player, connected)
            case Reconfigure():
                await runner.reconfigure(await self.store.table(runner.id))
            case Correct():
                return await self._correct_here(runner, request)
            case RefreshRoads():
                await runner.refresh_roads()
            case Transfer(player=player, amount=amount, reason=reason):
                await runner.transfer(player, amount, reason=reason)
            case CloseTable(reason=reason):
                await self._close_here(runner.id, reason)
        return {}

    # -- tables ----------------------------------------------------------------------

    async def config(self, table_id: str) -> TableConfig:
        """A table's configuration; :class:`NotFoundError` if there is none. A table
        owned elsewhere is read from the database at most once per
        :data:`_CONFIG_SECONDS`, however many ask at once."""
        runner = self.runners.get(table_id)
        if runner is not None:
            return runner.config
        now = time.monotonic()
        cached = self._configs.get(table_id)
        if cached is None or now - cached[0] > _CONFIG_SECONDS:
            if len(self._configs) >= _CONFIG_ENTRIES:  # unknown names cannot fill memory
                self._configs = {
                    k: v for k, v in self._configs.items() if now - v[0] <= _CONFIG_SECONDS
                }
                if len(self._configs) >= _CONFIG_ENTRIES:
                    self._configs.clear()
            lookup = asyncio.ensure_future(self.store.table(table_id))
            lookup.add_done_callback(lambda done: self._config_done(table_id, done))
            cached = self._configs[table_id] = (now, lookup)
        return await asyncio.shield(cached[1])

    def _config_done(self, table_id: str, lookup: asyncio.Future[TableConfig]) -> None:
        """A lookup that failed for another reason than "no such table" is not kept."""
        if lookup.cancelled() or not isinstance(lookup.exception(), (NotFoundError, type(None))):
            entry = self._configs.get(table_id)
            if entry is not None and entry[1] is lookup:
                del self._configs[table_id]

    async def describe(self, table_id: str) -> dict[str, Any]:
        """``GET /api/tables/{id}``."""
        runner = self.runners.get(table_id)
        if runner is not None:
            out = runner.describe()
        else:
            config = await self.store.table(table_id)
            try:
                out = dict((await self._route(Describe(table_id)))["table"])
            except UnavailableError:
                out = table_json(config, config.settings(betting_seconds=None))
                out["phase"] = "closed" if not config.enabled else "waiting"
        out["process"] = await self.owner(table_id)
        out["stream_url"] = (await self.store.table(table_id)).stream_url
        return out

    async def lobby(self) -> list[dict[str, Any]]:
        """``GET /api/lobby``: every enabled table with its live status."""
        configs = await self.store.tables()
        statuses: dict[str, dict[str, Any]] = {t: r.status() for t, r in self.runners.items()}
        owners = await self.store.owners()
        remote = {o for t, o in owners.items() if t not in statuses and o != self.id}
        for process in remote:
            with contextlib.suppress(PuntoError):
                answer = await self.bus.request(process, request_json(StatusAll()), timeout=2.0)
                statuses.update(answer.get("tables", {}))
        out = []
        for config in configs:
            if not config.enabled:
                continue
            settings = config.settings(betting_seconds=self.settings.betting_seconds)
            tiers = settings.rules.limit_tiers
            entry: dict[str, Any] = {
                "id": config.id,
                "name": config.name,
                "names": dict(config.names),
                "rules": config.rules,
                "kind": config.kind.value,
                "dealing": config.dealing.value,
                "reading": settings.table_reading.value,
                "seats": config.seats,
                "currency_digits": settings.rules.currency_digits,
                "phase": "waiting",
                "game": None,
                "closes_at": None,
                "dealer": None,
                "seated": 0,
                "watching": 0,
                "owner": None,
                "password": False,
                "min_bet": min(t.min_bet for t in tiers),
                "max_bet": max(t.max_bet for t in tiers),
                "tiers": [tier_json(t) for t in tiers],
                "last_results": "",
                "streak": {"side": None, "length": 0, "ping_pong": 0},
            }
            entry.update(statuses.get(config.id, {}))
            out.append(entry)
        return out

    async def command(self, table_id: str, actor: Actor, command: Command) -> list[dict[str, Any]]:
        """Apply a client command at its table, wherever the table is owned; the events
        it produced (as an auditor sees them)."""
        here = await self._command_here(table_id, actor, command)
        if here is not None:
            return [event_json(e) for e in here]
        return await self._command_routed(table_id, actor, command)

    async def command_count(self, table_id: str, actor: Actor, command: Command) -> int:
        """:meth:`command` for a client told only how many events its command produced
        (the WebSocket's ``ok``): at a table owned here, none is encoded for it (its
        viewers' texts are made by the fan-out)."""
        here = await self._command_here(table_id, actor, command)
        if here is not None:
            return len(here)
        return len(await self._command_routed(table_id, actor, command))

    async def _command_here(
        self, table_id: str, actor: Actor, command: Command
    ) -> tuple[Event, ...] | None:
        """The events of a command at a table owned here; ``None`` if it is owned elsewhere."""
        if self.shutting_down:
            raise UnavailableError("the server is shutting down")
        runner = self.runners.get(table_id)
        if runner is None:
            return None
        if isinstance(command, Chat | ChatMute):
            await self._chat_here(runner, actor, command)
            return ()
        return await runner.execute(actor, command)

    async def _command_routed(
        self, table_id: str, actor: Actor, command: Command
    ) -> list[dict[str, Any]]:
        answer = await self._route(RunCommand(table_id, actor, command.model_dump(mode="json")))
        return list(answer["events"])

    async def _chat_here(self, runner: TableRunner, actor: Actor, command: Chat | ChatMute) -> None:
        """A chat line or mute at a table owned here (tagged with the hand in play)."""
        game = runner.table.game
        await self.chat.handle(runner.id, None if game is None else str(game), actor, command)

    async def snapshot(self, table_id: str, actor: Actor) -> Snapshot:
        """The ``snapshot`` message for ``actor``."""
        wallet = None
        if actor.role is Role.PLAYER and actor.user_id is not None:
            with contextlib.suppress(PuntoError):
                wallet = await self.bank.balance(actor.user_id)
        runner = self.runners.get(table_id)
        if runner is not None:
            return runner.snapshot(actor, wallet=wallet)
        answer = await self._route(GetSnapshot(table_id, actor, wallet))
        snapshot = answer.get("snapshot")
        if not isinstance(snapshot, dict) or snapshot.get("type") != "snapshot":
            raise UnavailableError(f"the owner of {table_id} sent no snapshot; try again")
        return cast(Snapshot, snapshot)  # made by the owner's TableRunner.snapshot

    async def roads(self, table_id: str, *, svg: bool = False) -> dict[str, Any]:
        """The ``roads`` message of a table's current shoe."""
        runner = self.runners.get(table_id)
        if runner is not None:
            return runner.roads_message(svg=svg)
        return dict((await self._route(GetRoads(table_id, svg)))["roads"])

    async def connected(self, table_id: str, player: str, *, connected: bool) -> None:
        """Count a player's connections to a table on this process; the first opened and
        the last closed tell the table [L]."""
        if self.shutting_down:
            return
        key = (table_id, player)
        count = self._presence.get(key, 0)
        if connected:
            self._presence[key] = count + 1
            if count:
                return
        elif count > 1:
            self._presence[key] = count - 1
            return
        else:
            self._presence.pop(key, None)
        runner = self.runners.get(table_id)
        with contextlib.suppress(PuntoError):
            if runner is not None:
                await runner.set_connected(player, connected)
            else:
                await self._route(SetConnected(table_id, player, connected))

    # -- administration ----------------------------------------------------------------

    async def create_table(self, config: TableConfig) -> TableConfig:
        """Add a table; this process opens it at once when it can."""
        await self.store.create_table(config)
        self._configs.pop(config.id, None)
        await self._acquire_tables()
        return config

    async def update_table(self, config: TableConfig) -> TableConfig:
        """Store a changed configuration; the owner applies it between hands, or closes the
        table (``enabled`` false: a hand in play is void and refunded)."""
        before = await self.store.table(config.id)
        await self.store.update_table(config)
        self._configs.pop(config.id, None)
        if before.enabled and not config.enabled:
            await self.close_table(config.id, reason=Why(Reason.CLOSED_BY_ADMIN))  # [S14]
            return config
        runner = self.runners.get(config.id)
        if runner is not None:
            if runner.table.phase.value == "closed":
                await self.runners.pop(config.id).stop()
                await self.store.release_leases([config.id], self.id)
                await self._acquire_tables()
            else:
                await runner.reconfigure(config)
        elif config.enabled:
            with contextlib.suppress(UnavailableError):
                await self._route(Reconfigure(config.id))
            await self._acquire_tables()
        return config

    async def close_table(self, table_id: str, *, reason: Why) -> None:
        """Close a table wherever it is owned and release it."""
        if table_id in self.runners:
            await self._close_here(table_id, reason)
            return
        with contextlib.suppress(UnavailableError):
            await self._route(CloseTable(table_id, reason))

    async def _close_here(self, table_id: str, reason: Why) -> None:
        runner = self.runners.pop(table_id)
        await runner.stop(reason=reason)
        await self.store.release_leases([table_id], self.id)
        self.metrics.tables_owned.set(len(self.runners))

    async def transfer(
        self, player: str, amount: int, *, reason: Why, skip: str | None = None
    ) -> None:
        """Money moved in a player's wallet outside a table's hand: every table they are at
        (but ``skip``, where it moved) moves their table balance the same way."""
        if not amount:
            return
        tables = [t for t in await self.store.tables_of(player) if t != skip]
        await self._transfer_at(tables, player, amount, reason=reason)

    async def _transfer_at(
        self, tables: Sequence[str], player: str, amount: int, *, reason: Why
    ) -> None:
        for table_id in tables:
            runner = self.runners.get(table_id)
            if runner is not None:
                await runner.transfer(player, amount, reason=reason)
                continue
            with contextlib.suppress(UnavailableError):
                await self._route(Transfer(table_id, player, amount, reason))

    # -- corrections [O] ------------------------------------------------------------------

    async def correct(
        self,
        game: str,
        outcome: Outcome,
        *,
        author: str,
        reason: str,
        correction_id: str | None,
    ) -> dict[str, Any]:
        """Re-settle a settled hand from corrected cards: the difference only, as new
        ledger transactions referencing the originals (nothing is overwritten)."""
        number = _game(game)
        record = await self.store.hand(game)
        if record is None:
            raise NotFoundError(f"no hand {game}")
        correction_id = correction_id or secrets.token_hex(8)
        async with self._hand_lock(game):
            done = await self._corrected(game, correction_id)
            if done is not None:
                return done
        request = Correct(number.table, game, outcome_json(outcome), author, reason, correction_id)
        runner = self.runners.get(number.table)
        if runner is not None:
            return await self._correct_here(runner, request)
        with contextlib.suppress(UnavailableError):
            answer = await self._route(request)
            return {k: answer[k] for k in ("game", "corrections", "transactions")}
        return await self._correct_offline(number, outcome, author, reason, correction_id)

    @contextlib.asynccontextmanager
    async def _hand_lock(self, game: str) -> AsyncIterator[None]:
        """Amendments of one hand, one at a time in this process (the owner of a live
        table makes every correction of it; the ledger and the amendments' unique keys
        keep anything else idempotent)."""
        lock, users = self._hand_locks.get(game, (asyncio.Lock(), 0))
        self._hand_locks[game] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._hand_locks[game]
            if users == 1:
                del self._hand_locks[game]
            else:
                self._hand_locks[game] = (lock, users - 1)

    @contextlib.asynccontextmanager
    async def _players_turns(self, game: str) -> AsyncIterator[None]:
        """Hold the turns of every player of a hand (in one order: no deadlock) while an
        amendment moves their money, so that no join reads a wallet between the ledger's
        move and the table's."""
        async with contextlib.AsyncExitStack() as stack:
            for player in sorted(await self.bank.round_bets(game)):
                await stack.enter_async_context(self.store.turn(player, wait=_TURN_WAIT))
            yield

    async def _corrected(self, game: str, correction_id: str) -> dict[str, Any] | None:
        """The answer of the correction ``correction_id`` if it was made: a retry gets what
        the first call did, nothing more."""
        done = [
            tx
            for tx in await self.ledger.transactions(round_id=game)
            if tx.kind is TransactionKind.CORRECTION
            and tx.idempotency_key.endswith(f":{correction_id}")
        ]
        if not done:
            return None
        return {
            "game": game,
            "corrections": self.bank.moved(done),
            "transactions": [_tx_json(tx) for tx in done],
            "replayed": True,
        }

    async def _correct_here(self, runner: TableRunner, request: Correct) -> dict[str, Any]:
        game = request.game
        async with self._hand_lock(game):
            done = await self._corrected(game, request.correction_id)
            if done is not None:
                return done
            async with self._players_turns(game):
                return await self._correct_on(runner, request)

    async def _correct_on(self, runner: TableRunner, request: Correct) -> dict[str, Any]:
        number = _game(request.game)
        outcome = outcome_from_json(request.outcome)
        done = await runner.correct(
            number,
            outcome,
            author=request.author,
            reason=request.reason,
            correction_id=request.correction_id,
        )
        return await self._amended(
            number,
            "correction",
            request.author,
            request.reason,
            outcome,
            done["corrections"],
            done["transactions"],
            key=f"correction:{request.correction_id}",
            table_followed=bool(done["on_table"]),
        )

    async def _correct_offline(
        self,
        number: GameNumber,
        outcome: Outcome,
        author: str,
        reason: str,
        correction_id: str,
    ) -> dict[str, Any]:
        async with self._hand_lock(str(number)):
            done = await self._corrected(str(number), correction_id)
            if done is not None:
                return done
            rules = await rules_of_hand(self.store, str(number), number.table)
            bets = await self.bank.round_bets(str(number))
            nobody = await self.bank.status(str(number)) is None  # the record alone moves
            async with self._players_turns(str(number)):
                moved: Mapping[str, int] = {}
                posted: Any = ()
                if not nobody:
                    moved, posted = await self.bank.correct(
                        str(number),
                        settle_players(rules, outcome, bets),
                        correction_id=correction_id,
                        author=author,
                        reason=reason,
                    )
                return await self._amended(
                    number,
                    "correction",
                    author,
                    reason,
                    outcome,
                    moved,
                    posted,
                    key=f"correction:{correction_id}",
                )

    async def void_hand(self, game: str, *, author: str, reason: str) -> dict[str, Any]:
        """Void a settled hand: every player back to a full refund, as new transactions."""
        number = _game(game)
        if await self.store.hand(game) is None:
            raise NotFoundError(f"no hand {game}")
        async with self._hand_lock(game):
            if await self.bank.status(game) is RoundStatus.VOIDED:
                done = [
                    tx
                    for tx in await self.ledger.transactions(round_id=game)
                    if tx.kind is TransactionKind.VOID
                ]
                return {
                    "game": game,
                    "corrections": self.bank.moved(done),
                    "transactions": [_tx_json(tx) for tx in done],
                    "replayed": True,
                }
            if await self.bank.status(game) is None:  # nobody bet: the record alone
                return await self._amended(number, "void", author, reason, None, {}, (), key="void")
            async with self._players_turns(game):
                moved = await self.bank.void(game, author=author, reason=reason)
                posted = tuple(
                    tx
                    for tx in await self.ledger.transactions(round_id=game)
                    if tx.kind is TransactionKind.VOID
                )
                return await self._amended(
                    number, "void", author, reason, None, moved, posted, key="void"
                )

    async def _amended(
        self,
        number: GameNumber,
        kind: str,
        author: str,
        reason: str,
        outcome: Outcome | None,
        moved: Mapping[str, int],
        posted: Any,
        *,
        key: str,
        table_followed: bool = False,
    ) -> dict[str, Any]:
        """Record an amendment and its effects, once per ``key``: unless the table itself
        re-settled the hand (``table_followed``), the table balances of players still
        seated follow. An amendment already recorded (another process made it) is
        answered as it was, and nothing follows twice."""
        game = str(number)
        amendment, first = await self.store.add_amendment(
            game=game,
            table_id=number.table,
            kind=kind,
            key=key,
            author=author,
            reason=reason,
            outcome=None if outcome is None else outcome_json(outcome),
            corrections=moved,
        )
        answer = {
            "game": game,
            "corrections": dict(moved),
            "transactions": [_tx_json(tx) for tx in posted],
        }
        if not first:
            return {**answer, "corrections": amendment["corrections"], "replayed": True}
        if not table_followed:
            for player, delta in moved.items():
                why = Why(
                    Reason.CORRECTION_OF if kind == "correction" else Reason.VOID_OF, {"game": game}
                )
                await self.transfer(player, delta, reason=why)
        await self._amend_record(number, amendment, kind, reason, outcome)
        for player in moved:
            wallet = None
            with contextlib.suppress(PuntoError):
                wallet = await self.bank.balance(player)
            await self.bus.publish(
                {
                    "table": number.table,
                    "to": player,
                    "message": {
                        "type": "balance",
                        "table": number.table,
                        "table_balance": None,
                        "wallet_balance": wallet,
                        "game": game,
                        "reason": "corrected",
                    },
                }
            )
        return answer

    async def _amend_record(
        self,
        number: GameNumber,
        amendment: Mapping[str, Any],
        kind: str,
        reason: str,
        outcome: Outcome | None,
    ) -> None:
        """One truth per hand: the record shows the amended hand (the original kept in
        it), the table's roads are built again from the records, and every open client
        is told to refresh its roads and records (``records`` message)."""
        game = str(number)
        record = await self.store.hand(game)
        if record is None:
            return
        record.setdefault("amendments", []).append(dict(amendment))
        rules = None
        with contextlib.suppress(PuntoError):
            config = await self.store.table(number.table)
            rules = config.settings(betting_seconds=None).rules
        record = amend_record(
            record,
            kind=kind,
            reason=reason,
            outcome=outcome,
            rules=rules,
            moved=await self.bank.amendments(game),
        )
        status = await self.bank.status(game)
        status_text = record.pop("status", "settled")
        await self.store.save_hand(
            game=game,
            table_id=number.table,
            shoe=number.shoe,
            hand=number.hand,
            opened_at=float(record.get("opened_at") or 0.0),
            closed_at=record.get("closed_at"),
            status=status_text if status is None else status.value,
            record=record,
            players=sorted(set(record.get("bets", {})) | set(record.get("results", {}))),
        )
        runner = self.runners.get(number.table)
        if runner is not None:
            await runner.refresh_roads()
        else:
            with contextlib.suppress(UnavailableError):
                await self._route(RefreshRoads(number.table))
        await self.bus.publish(
            {
                "table": number.table,
                "message": {"type": "records", "table": number.table, "game": game, "kind": kind},
            }
        )


_CONFIG_SECONDS = 1.0
"""How long another process's table configuration is taken as read (as its owner is)."""
_CONFIG_ENTRIES = 1024


def _game(text: str) -> GameNumber:
    try:
        return GameNumber.parse(text)
    except (ValueError, PuntoError):
        raise NotFoundError(f"no hand {text!r}: a game number is TABLE-SHOE-HAND") from None


def _tx_json(tx: Any) -> dict[str, Any]:
    return {
        "id": tx.id,
        "kind": tx.kind.value,
        "round_id": tx.round_id,
        "player": tx.player_id,
        "entries": [{"account": e.account.code, "amount": e.amount} for e in tx.entries],
        "reference": tx.reference,
        "author": tx.author,
        "reason": tx.reason,
    }
