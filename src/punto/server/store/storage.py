"""The server's records in the database (async SQLAlchemy): users, table configurations,
ownership leases, shoes, hand records, amendments, presence and the wallet outbox.

Money is not here: it lives in the ledger (:mod:`punto.ledger.store`), in the same
database. Every method is one short transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import orjson
from sqlalchemy import (
    Table,
    and_,
    delete,
    false,
    func,
    insert,
    literal,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from punto.cards import parse_cards
from punto.errors import ConflictError, NotFoundError, TooManyTablesError
from punto.ledger.model import WALLET_CALL_KINDS, TransactionKind
from punto.ledger.tables import EntryRow, TransactionRow
from punto.server.auth import Role
from punto.server.store.schema import (
    AlarmRow,
    AmendmentRow,
    HandPlayerRow,
    HandRow,
    LeaseRow,
    OutboxRow,
    OutboxSweepRow,
    PlayerTurnRow,
    PresenceRow,
    RevokedTokenRow,
    ShoeRow,
    TableRow,
    TableRulesRow,
    UserRow,
)
from punto.server.tables.configs import TableConfig, tiers_to_json
from punto.shoe import ShoeReveal, verify_commitment

__all__ = [
    "OUTBOX_DONE",
    "OUTBOX_FAILED",
    "OUTBOX_PENDING",
    "OUTBOX_REFUSED",
    "Outbox",
    "ServerStore",
    "Unwritten",
    "User",
]

_LOG = logging.getLogger("punto.server.store.storage")

_T = TypeVar("_T")
_U = cast(Table, UserRow.__table__)
_TB = cast(Table, TableRow.__table__)
_L = cast(Table, LeaseRow.__table__)
_S = cast(Table, ShoeRow.__table__)
_H = cast(Table, HandRow.__table__)
_HP = cast(Table, HandPlayerRow.__table__)
_AM = cast(Table, AmendmentRow.__table__)
_P = cast(Table, PresenceRow.__table__)
_O = cast(Table, OutboxRow.__table__)
_OS = cast(Table, OutboxSweepRow.__table__)
_PT = cast(Table, PlayerTurnRow.__table__)
_RT = cast(Table, RevokedTokenRow.__table__)
_R = cast(Table, TableRulesRow.__table__)
_AL = cast(Table, AlarmRow.__table__)

TURN_REFRESH = 2.0
"""Seconds between a held turn's notes that its holder is alive (:meth:`ServerStore.turn`)."""

TURN_STALE = 10.0
"""Seconds without such a note after which a player's turn is taken over: its holder
stopped (a process killed during a join, a deposit or a withdrawal). A single process
gives back at its start every turn its predecessor left (:meth:`ServerStore.release_turns`)."""


@dataclass(frozen=True, slots=True)
class User:
    """A user as stored (the password only as its hash)."""

    id: str
    role: Role
    display_name: str
    password_hash: str

    def to_json(self) -> dict[str, Any]:
        """The user object of the admin API."""
        return {"user_id": self.id, "role": self.role.value, "display_name": self.display_name}


OUTBOX_PENDING = "pending"
"""A wallet call not answered yet (it is retried)."""
OUTBOX_DONE = "done"
"""The operator took the call."""
OUTBOX_REFUSED = "refused"
"""The operator refused a debit: nothing moved."""
OUTBOX_FAILED = "failed"
"""The operator refused a call Punto owes it (a credit, a rollback): an operator must look."""


@dataclass(frozen=True, slots=True)
class Outbox:
    """A seamless-wallet call written down (:class:`~punto.server.money.outbox.WalletOutbox`)."""

    id: int
    transaction_id: str
    player_id: str
    amount: int
    kind: str
    round_id: str | None
    attempts: int = 0
    state: str = OUTBOX_PENDING
    last_error: str | None = None
    created_at: float = 0.0


@dataclass(frozen=True, slots=True)
class Unwritten:
    """A seamless wallet call the ledger owes a player and the outbox never wrote down
    (:meth:`ServerStore.wallet_calls_unwritten`): ``amount`` > 0 a credit, < 0 a debit."""

    seq: int
    transaction_id: str
    kind: str
    player_id: str
    round_id: str | None
    amount: int


def _table_values(config: TableConfig) -> dict[str, Any]:
    return {
        "name": config.name,
        "rules": config.rules,
        "kind": config.kind.value,
        "dealing": config.dealing.value,
        "reading": None if config.reading is None else config.reading.value,
        "seats": config.seats,
        "betting_seconds": config.betting_seconds,
        "vip_min_balance": config.vip_min_balance,
        "limits": tiers_to_json(config.limits),
        "enabled": config.enabled,
        "overrides": json.dumps(dict(config.overrides), sort_keys=True),
        "rules_version": config.rules_version,
        "stream_url": config.stream_url,
        "names": json.dumps(dict(config.names), ensure_ascii=False, sort_keys=True),
    }


def _rules_version_values(config: TableConfig) -> dict[str, Any]:
    return {
        "table_id": config.id,
        "version": config.rules_version,
        "preset": config.rules,
        "overrides": json.dumps(dict(config.overrides), sort_keys=True),
        "document": json.dumps(config.to_json()["document"], sort_keys=True),
        "at": time.time(),
    }


_RECORD_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
"""A hand record's text. orjson: a hand of thousands of bets is encoded in milliseconds, not
a fifth of a second (the same JSON text as ``json.dumps(sort_keys=True)`` but for
spacing)."""


def record_piece(data: Mapping[str, Any]) -> orjson.Fragment:
    """A part of a hand record (one event's JSON) encoded now, as the record's text will
    hold it: a record made of pieces encoded while the hand was played is written at its
    end without encoding them all again (a busy table's hand has tens of thousands of
    events)."""
    return orjson.Fragment(orjson.dumps(data, option=_RECORD_OPTIONS))


async def _enter(conn: AsyncConnection, player_id: str, table_id: str, limit: int) -> None:
    """Note that ``player_id`` is at ``table_id`` too, within ``limit`` tables
    (:class:`TooManyTablesError`); nothing when they are there already."""
    found = list(await conn.scalars(select(_P.c.table_id).where(_P.c.player_id == player_id)))
    if table_id in found:
        return
    if len(found) >= limit:
        raise TooManyTablesError(
            f"{player_id} is at {len(found)} tables ({', '.join(sorted(found))}); "
            f"one player may be at {limit} at a time: leave one first",
            limit=limit,
        )
    await conn.execute(insert(_P).values(player_id=player_id, table_id=table_id, since=time.time()))


class ServerStore:
    """The server's tables on an engine shared with the ledger."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def _run(self, unit: Callable[[AsyncConnection], Awaitable[_T]]) -> _T:
        async with self._engine.begin() as conn:
            return await unit(conn)

    async def _read_one(self, unit: Callable[[AsyncConnection], Awaitable[_T]]) -> _T:
        """Run ``unit``, which reads with **one** statement: on PostgreSQL outside a
        transaction block (the statement is its own transaction, with the same snapshot),
        one round trip instead of three (``BEGIN``, the query, ``COMMIT``); elsewhere as
        :meth:`_run`."""
        if self._engine.dialect.name != "postgresql":
            return await self._run(unit)
        async with self._engine.connect() as conn:
            return await unit(await conn.execution_options(isolation_level="AUTOCOMMIT"))

    # -- users ----------------------------------------------------------------------

    async def create_user(
        self, user_id: str, *, role: Role, display_name: str, password_hash: str
    ) -> User:
        """Add a user; :class:`ConflictError` if the name is taken."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(_U).values(
                    id=user_id,
                    role=role.value,
                    display_name=display_name,
                    password_hash=password_hash,
                )
            )

        try:
            await self._run(unit)
        except IntegrityError:
            raise ConflictError(f"the user name {user_id!r} is taken") from None
        return User(user_id, role, display_name, password_hash)

    async def user(self, user_id: str) -> User | None:
        """The user ``user_id``, if any."""

        async def unit(conn: AsyncConnection) -> User | None:
            row = (await conn.execute(select(_U).where(_U.c.id == user_id))).first()
            if row is None:
                return None
            return User(row.id, Role(row.role), row.display_name, row.password_hash)

        return await self._run(unit)

    async def users(self) -> list[User]:
        """Every user, by name."""

        async def unit(conn: AsyncConnection) -> list[User]:
            rows = await conn.execute(select(_U).order_by(_U.c.id))
            return [User(r.id, Role(r.role), r.display_name, r.password_hash) for r in rows]

        return await self._run(unit)

    # -- tables ---------------------------------------------------------------------

    async def create_table(self, config: TableConfig) -> TableConfig:
        """Add a table; :class:`ConflictError` if the id is taken."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(insert(_TB).values(id=config.id, **_table_values(config)))
            await conn.execute(insert(_R).values(**_rules_version_values(config)))

        try:
            await self._run(unit)
        except IntegrityError:
            raise ConflictError(f"there is already a table {config.id!r}") from None
        return config

    async def update_table(self, config: TableConfig) -> TableConfig:
        """Store a changed table configuration."""

        async def unit(conn: AsyncConnection) -> None:
            result = await conn.execute(
                update(_TB).where(_TB.c.id == config.id).values(**_table_values(config))
            )
            if result.rowcount != 1:
                raise NotFoundError(f"no table {config.id!r}")
            known = await conn.scalar(
                select(_R.c.version).where(
                    _R.c.table_id == config.id, _R.c.version == config.rules_version
                )
            )
            if known is None:
                await conn.execute(insert(_R).values(**_rules_version_values(config)))

        await self._run(unit)
        return config

    async def tables(self, *, enabled_only: bool = False) -> list[TableConfig]:
        """Every table configuration, by id."""

        async def unit(conn: AsyncConnection) -> list[TableConfig]:
            query = select(_TB).order_by(_TB.c.created_at, _TB.c.id)
            if enabled_only:
                query = query.where(_TB.c.enabled.is_(True))
            return [TableConfig.from_json(dict(row._mapping)) for row in await conn.execute(query)]

        return await self._run(unit)

    async def table(self, table_id: str) -> TableConfig:
        """The table ``table_id``; :class:`NotFoundError` if there is none."""

        async def unit(conn: AsyncConnection) -> TableConfig:
            row = (await conn.execute(select(_TB).where(_TB.c.id == table_id))).first()
            if row is None:
                raise NotFoundError(f"no table {table_id!r}")
            return TableConfig.from_json(dict(row._mapping))

        return await self._run(unit)

    async def last_shoe(self, table_id: str) -> int:
        """The number of the table's last shoe (0: none yet)."""

        async def unit(conn: AsyncConnection) -> int:
            value = await conn.scalar(select(_TB.c.last_shoe).where(_TB.c.id == table_id))
            return int(value or 0)

        return await self._run(unit)

    # -- ownership leases -------------------------------------------------------------

    async def acquire_lease(
        self, table_id: str, owner: str, *, ttl: float, force: bool = False
    ) -> bool:
        """Take or renew the table's lease for ``owner``; ``False`` while another owner's
        lease runs (unless ``force``: a single process taking its tables back after a
        crash)."""
        now = time.time()

        async def unit(conn: AsyncConnection) -> bool:
            free = or_(_L.c.owner == owner, _L.c.expires_at < now, true() if force else false())
            result = await conn.execute(
                update(_L)
                .where(_L.c.table_id == table_id, free)
                .values(owner=owner, expires_at=now + ttl)
            )
            if result.rowcount == 1:
                return True
            row = {"table_id": table_id, "owner": owner, "expires_at": now + ttl}
            stmt = _insert(conn, _L).values(row).on_conflict_do_nothing()
            return bool((await conn.execute(stmt)).rowcount == 1)

        return await self._run(unit)

    async def renew_leases(self, table_ids: Iterable[str], owner: str, *, ttl: float) -> set[str]:
        """Renew ``owner``'s leases; returns the tables still owned."""
        ids = list(table_ids)
        now = time.time()

        async def unit(conn: AsyncConnection) -> set[str]:
            if not ids:
                return set()
            await conn.execute(
                update(_L)
                .where(_L.c.table_id.in_(ids), _L.c.owner == owner)
                .values(expires_at=now + ttl)
            )
            rows = await conn.execute(
                select(_L.c.table_id).where(_L.c.table_id.in_(ids), _L.c.owner == owner)
            )
            return {r.table_id for r in rows}

        return await self._run(unit)

    async def release_leases(self, table_ids: Iterable[str], owner: str) -> None:
        """Give the tables up (a graceful shutdown)."""
        ids = list(table_ids)

        async def unit(conn: AsyncConnection) -> None:
            if ids:
                await conn.execute(delete(_L).where(_L.c.table_id.in_(ids), _L.c.owner == owner))

        await self._run(unit)

    async def owners(self) -> dict[str, str]:
        """The owner of every table whose lease runs now."""
        now = time.time()

        async def unit(conn: AsyncConnection) -> dict[str, str]:
            rows = await conn.execute(select(_L).where(_L.c.expires_at >= now))
            return {r.table_id: r.owner for r in rows}

        return await self._run(unit)

    # -- shoes ----------------------------------------------------------------------

    async def shoe_opened(
        self,
        table_id: str,
        shoe: int,
        *,
        cards: int,
        commitment: str | None,
        at: float,
        rules_version: int | None = None,
    ) -> None:
        """Record a shoe's commitment and rules version (and the table's last shoe)."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(_S).values(
                    table_id=table_id,
                    shoe=shoe,
                    cards=cards,
                    commitment=commitment,
                    opened_at=at,
                    rules_version=rules_version,
                )
            )
            await conn.execute(update(_TB).where(_TB.c.id == table_id).values(last_shoe=shoe))

        await self._run(unit)

    async def shoe_closed(
        self,
        table_id: str,
        shoe: int,
        *,
        at: float,
        hands: int,
        reason: str,
        order: str | None,
        salt: str | None,
    ) -> bool | None:
        """Record a shoe's end and reveal, and audit it: the reveal is checked against the
        commitment stored when the shoe opened; a mismatch (or a reveal missing) raises a
        ``shoe_audit`` alarm. Returns the audit (``None``: a live shoe, nothing to check)."""

        async def unit(conn: AsyncConnection) -> bool | None:
            commitment = await conn.scalar(
                select(_S.c.commitment).where(_S.c.table_id == table_id, _S.c.shoe == shoe)
            )
            verified = _audit(commitment, order, salt)
            await conn.execute(
                update(_S)
                .where(_S.c.table_id == table_id, _S.c.shoe == shoe)
                .values(
                    closed_at=at,
                    hands=hands,
                    reason=reason,
                    reveal_order=order,
                    reveal_salt=salt,
                    verified=verified,
                )
            )
            if verified is False:
                detail = {"commitment": commitment, "reveal_present": order is not None}
                await conn.execute(
                    insert(_AL).values(
                        table_id=table_id,
                        kind="shoe_audit",
                        shoe=shoe,
                        at=at,
                        detail=json.dumps(detail, sort_keys=True),
                    )
                )
            return verified

        return await self._run(unit)

    async def shoes(self, table_id: str, *, limit: int = 10) -> list[dict[str, Any]]:
        """The table's latest shoes, newest first."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            rows = await conn.execute(
                select(_S).where(_S.c.table_id == table_id).order_by(_S.c.shoe.desc()).limit(limit)
            )
            return [dict(r._mapping) for r in rows]

        return await self._run(unit)

    # -- hands ----------------------------------------------------------------------

    async def save_hand(
        self,
        *,
        game: str,
        table_id: str,
        shoe: int,
        hand: int,
        opened_at: float,
        closed_at: float | None,
        status: str,
        record: Mapping[str, Any],
        players: Sequence[str],
        after: Awaitable[bool] | None = None,
        replace: bool = True,
    ) -> bool:
        """Store (or replace) a hand's record and who bet on it; whether it was stored.

        ``replace=False``: stored only if the hand has no record yet (a record rebuilt
        from the ledger never takes the place of the one the table saved).

        ``after``: stored only if it comes true — a settlement's ledger transaction, so
        that no record says *settled* of money that did not move. On PostgreSQL the
        record is written meanwhile, in a transaction held open until ``after`` says
        whether to commit (the two transactions' work overlaps); on SQLite, which has
        one writer, it is written once ``after`` is true."""
        encoded = orjson.dumps(record, option=_RECORD_OPTIONS).decode()

        values = {
            "table_id": table_id,
            "shoe": shoe,
            "hand": hand,
            "opened_at": opened_at,
            "closed_at": closed_at,
            "status": status,
            "record": encoded,
        }
        wanted = sorted(set(players))
        # the transaction waits for ``after`` on PostgreSQL; SQLite's one writer first
        held = after if self._engine.dialect.name == "postgresql" else None

        async def unit(conn: AsyncConnection) -> bool:
            # An upsert, not delete-then-insert: two saves of one hand at once (the table's
            # and a supervisor's amendment) never collide on the key or deadlock.
            # The update takes the inserted row's values (``excluded``): the record (megabytes
            # at a table of thousands) is sent and parsed once, not a second time for it.
            stmt = _insert(conn, _H).values(game=game, **values)
            if not replace:
                done = await conn.execute(stmt.on_conflict_do_nothing(index_elements=[_H.c.game]))
                if not done.rowcount:
                    return False  # the hand has its record: left as it is
            else:
                again = {name: stmt.excluded[name] for name in values}
                await conn.execute(
                    stmt.on_conflict_do_update(index_elements=[_H.c.game], set_=again)
                )
            # Who bet is written once: a hand saved again (an amendment) changes the
            # list rarely, so only the difference is written, and a first save of a
            # hand of thousands of players is one bulk insert.
            before = set(await conn.scalars(select(_HP.c.player_id).where(_HP.c.game == game)))
            gone = sorted(before - set(wanted))
            if gone:
                await conn.execute(delete(_HP).where(_HP.c.game == game, _HP.c.player_id.in_(gone)))
            if before:
                await conn.execute(
                    update(_HP).where(_HP.c.game == game).values(closed_at=closed_at)
                )
            new = [p for p in wanted if p not in before]
            if new and conn.dialect.name == "postgresql":
                await conn.execute(_ADD_HAND_PLAYERS, {"g": game, "p": new, "c": closed_at})
            elif new:
                rows = [{"game": game, "player_id": p, "closed_at": closed_at} for p in new]
                # executemany: one statement compiled once (two saves of one hand at once
                # may both insert a player: the second does nothing)
                await conn.execute(_insert(conn, _HP).on_conflict_do_nothing(), rows)
            if held is not None and not await held:
                raise _WithdrawnError  # rolls the transaction back
            return True

        if after is not None and held is None and not await after:
            return False
        try:
            return await self._run(unit)
        except _WithdrawnError:
            return False

    async def hand(self, game: str) -> dict[str, Any] | None:
        """A hand's stored record (with ``status``), if any."""

        async def unit(conn: AsyncConnection) -> dict[str, Any] | None:
            row = (await conn.execute(select(_H).where(_H.c.game == game))).first()
            if row is None:
                return None
            record: dict[str, Any] = json.loads(row.record)
            record["status"] = row.status
            return record

        return await self._run(unit)

    async def saved_hands(self, games: Sequence[str]) -> set[str]:
        """Which of ``games`` have a stored record."""

        async def unit(conn: AsyncConnection) -> set[str]:
            return set(await conn.scalars(select(_H.c.game).where(_H.c.game.in_(games))))

        return await self._run(unit) if games else set()

    async def hands(self, table_id: str, *, limit: int = 20) -> list[dict[str, Any]]:
        """The table's latest hands, newest first."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            rows = await conn.execute(
                select(_H.c.record, _H.c.status)
                .where(_H.c.table_id == table_id)
                .order_by(_H.c.opened_at.desc())
                .limit(limit)
            )
            return [json.loads(r.record) | {"status": r.status} for r in rows]

        return await self._run(unit)

    async def shoe_hands(self, table_id: str, shoe: int) -> list[dict[str, Any]]:
        """Every hand record of one shoe of a table, by hand number."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            rows = await conn.execute(
                select(_H.c.record, _H.c.status)
                .where(_H.c.table_id == table_id, _H.c.shoe == shoe)
                .order_by(_H.c.hand)
            )
            return [json.loads(r.record) | {"status": r.status} for r in rows]

        return await self._run(unit)

    async def player_hands(
        self, player_id: str, *, limit: int = 50, before: float | None = None
    ) -> list[dict[str, Any]]:
        """The hands a player bet on, newest first."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            query = (
                select(_H.c.record, _H.c.status)
                .join(_HP, _HP.c.game == _H.c.game)
                .where(_HP.c.player_id == player_id)
                .order_by(_H.c.opened_at.desc())
                .limit(limit)
            )
            if before is not None:
                query = query.where(_H.c.opened_at < before)
            return [json.loads(r.record) | {"status": r.status} for r in await conn.execute(query)]

        return await self._run(unit)

    # -- amendments -------------------------------------------------------------------

    async def add_amendment(
        self,
        *,
        game: str,
        table_id: str,
        kind: str,
        key: str,
        author: str,
        reason: str,
        outcome: Mapping[str, Any] | None,
        corrections: Mapping[str, int],
    ) -> tuple[dict[str, Any], bool]:
        """Record a correction or a void of a settled hand, once per ``key`` (``void``,
        ``correction:<id>``); the amendment recorded and whether it is this one (``False``:
        an earlier one with the same key, returned as it was)."""
        row = {
            "game": game,
            "table_id": table_id,
            "kind": kind,
            "key": key,
            "author": author,
            "reason": reason,
            "at": time.time(),
            "outcome": None if outcome is None else json.dumps(outcome),
            "corrections": json.dumps(dict(corrections), sort_keys=True),
        }

        async def unit(conn: AsyncConnection) -> tuple[dict[str, Any], bool]:
            stmt = _insert(conn, _AM).values(row).on_conflict_do_nothing()
            if (await conn.execute(stmt)).rowcount == 1:
                return _amendment(row), True
            found = (
                await conn.execute(select(_AM).where(_AM.c.game == game, _AM.c.key == key))
            ).first()
            assert found is not None  # the conflict was on this key
            return _amendment(dict(found._mapping)), False

        return await self._run(unit)

    async def amendments(
        self, *, game: str | None = None, table_id: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """Amendments, newest first."""
        conditions = []
        if game is not None:
            conditions.append(_AM.c.game == game)
        if table_id is not None:
            conditions.append(_AM.c.table_id == table_id)

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            rows = await conn.execute(
                select(_AM).where(and_(true(), *conditions)).order_by(_AM.c.id.desc()).limit(limit)
            )
            return [_amendment(dict(r._mapping)) for r in rows]

        return await self._run(unit)

    # -- presence -------------------------------------------------------------------

    async def enter_table(self, player_id: str, table_id: str, *, limit: int = 1) -> None:
        """Note that the player is at ``table_id`` too; :class:`TooManyTablesError` when
        they are at ``limit`` other tables already (the caller holds the player's
        :meth:`turn`, so two joins never count at once)."""

        async def unit(conn: AsyncConnection) -> None:
            await _enter(conn, player_id, table_id, limit)

        try:
            await self._run(unit)
        except IntegrityError:
            raise ConflictError(f"{player_id} is joining table {table_id} already") from None

    async def leave_table(self, player_id: str, table_id: str) -> None:
        """The player is no longer at ``table_id``."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                delete(_P).where(_P.c.player_id == player_id, _P.c.table_id == table_id)
            )

        await self._run(unit)

    async def clear_table(self, table_id: str) -> None:
        """Nobody is at ``table_id`` any more (it restarted)."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(delete(_P).where(_P.c.table_id == table_id))

        await self._run(unit)

    async def tables_of(self, player_id: str) -> list[str]:
        """The tables the player is at, in the order they joined them."""

        async def unit(conn: AsyncConnection) -> list[str]:
            rows = await conn.execute(
                select(_P.c.table_id)
                .where(_P.c.player_id == player_id)
                .order_by(_P.c.since, _P.c.table_id)
            )
            return [str(table_id) for (table_id,) in rows]

        return await self._run(unit)

    async def tables_of_many(self, player_ids: Iterable[str]) -> dict[str, list[str]]:
        """The tables each of the players is at (one query however many players: a
        settlement's thousands of players cost one look-up); players at no table are
        left out."""
        wanted = sorted(set(player_ids))
        found: dict[str, list[str]] = {}
        if not wanted:
            return found

        async def unit(conn: AsyncConnection) -> None:
            if conn.dialect.name == "postgresql":
                # one statement's text whatever the number of players: an IN list of as
                # many parameters as players was a new statement for the server to
                # prepare at nearly every batch of confirms (a round trip, and the
                # connection's cache of prepared statements churned)
                chunks = [await conn.execute(_PRESENCE_PG, {"ids": wanted})]
            else:
                chunks = [
                    await conn.execute(
                        select(_P.c.player_id, _P.c.table_id)
                        .where(_P.c.player_id.in_(wanted[start : start + 1000]))
                        .order_by(_P.c.player_id, _P.c.since, _P.c.table_id)
                    )
                    for start in range(0, len(wanted), 1000)
                ]
            for rows in chunks:
                for player_id, table_id in rows:
                    found.setdefault(str(player_id), []).append(str(table_id))

        await self._read_one(unit)  # asked after every batch of confirms
        return found

    async def table_of(self, player_id: str) -> str | None:
        """The first table the player joined of those they are at, if any."""
        tables = await self.tables_of(player_id)
        return tables[0] if tables else None

    # -- revoked tokens -----------------------------------------------------------------

    async def revoke_token(self, token_id: str, *, user_id: str, expires_at: float) -> None:
        """Refuse the token ``token_id`` from now on (idempotent); forget tokens that
        have expired anyway."""
        row = {"token_id": token_id, "user_id": user_id, "expires_at": expires_at}

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(delete(_RT).where(_RT.c.expires_at < time.time()))
            stmt = _insert(conn, _RT).values(row).on_conflict_do_nothing()
            await conn.execute(stmt)

        await self._run(unit)

    async def token_revoked(self, token_id: str) -> bool:
        """Whether the token ``token_id`` was revoked."""

        async def unit(conn: AsyncConnection) -> bool:
            found = await conn.scalar(select(_RT.c.token_id).where(_RT.c.token_id == token_id))
            return found is not None

        return await self._run(unit)

    # -- players' turns ---------------------------------------------------------------

    async def take_turn(
        self,
        player_id: str,
        token: str,
        *,
        now: float | None = None,
        entering: str | None = None,
        limit: int = 1,
    ) -> bool:
        """Take ``player_id``'s turn (``False``: someone else holds it). ``entering``: in
        the same transaction, note that they are at that table too (:meth:`enter_table`;
        refused, the turn is not taken either)."""
        now = time.time() if now is None else now
        row = {"player_id": player_id, "token": token, "since": now}

        async def unit(conn: AsyncConnection) -> bool:
            stmt = _insert(conn, _PT).values(row).on_conflict_do_nothing()
            if (await conn.execute(stmt)).rowcount != 1:
                stale = await conn.execute(
                    update(_PT)
                    .where(_PT.c.player_id == player_id, _PT.c.since < now - TURN_STALE)
                    .values(token=token, since=now)
                )
                if stale.rowcount != 1:
                    return False
            if entering is not None:
                await _enter(conn, player_id, entering, limit)
            return True

        try:
            return await self._run(unit)
        except IntegrityError:
            raise ConflictError(f"{player_id} is joining table {entering} already") from None

    async def release_turns(self) -> int:
        """Give back every player's turn; how many were held. For a process that is the
        only one on its database, at its start: a turn held then was its stopped
        predecessor's (killed during a join, a deposit or a withdrawal), and the player
        need not wait ``TURN_STALE`` seconds to join again. What that move did to the
        money is the ledger's, which a restart recovers (its rounds, the wallet outbox)."""

        async def unit(conn: AsyncConnection) -> int:
            return (await conn.execute(delete(_PT))).rowcount

        return await self._run(unit)

    async def refresh_turn(self, player_id: str, token: str, *, now: float | None = None) -> bool:
        """Note that the holder of ``player_id``'s turn ``token`` is alive (its ``since``
        set to ``now``); ``False`` when that turn is not held (anymore)."""
        now = time.time() if now is None else now

        async def unit(conn: AsyncConnection) -> bool:
            done = await conn.execute(
                update(_PT)
                .where(_PT.c.player_id == player_id, _PT.c.token == token)
                .values(since=now)
            )
            return done.rowcount == 1

        return await self._run(unit)

    async def _keep_turn(self, player_id: str, token: str) -> None:
        """While a turn is held: note every ``TURN_REFRESH`` seconds that its holder is
        alive, so that only a stopped holder's turn goes stale (``TURN_STALE``)."""
        while True:
            await asyncio.sleep(TURN_REFRESH)
            try:
                if not await self.refresh_turn(player_id, token):
                    _LOG.warning(
                        "a player's turn was taken over while held", extra={"player": player_id}
                    )
                    return
            except Exception:  # the database is away: tried again at the next interval
                _LOG.warning(
                    "a player's turn not refreshed", extra={"player": player_id}, exc_info=True
                )

    async def end_turn(self, player_id: str, token: str) -> None:
        """Give the turn back."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                delete(_PT).where(_PT.c.player_id == player_id, _PT.c.token == token)
            )

        await self._run(unit)

    @contextlib.asynccontextmanager
    async def turn(
        self, player_id: str, *, wait: float = 0.0, entering: str | None = None, limit: int = 1
    ) -> AsyncIterator[None]:
        """Hold ``player_id``'s turn while their money moves in or out of a table (join,
        deposit, withdrawal), across processes; :class:`ConflictError` when another move
        of theirs does not end within ``wait`` seconds. ``entering`` (a join): the player
        is noted at that table in the transaction that takes the turn, one commit for the
        two (:class:`TooManyTablesError`, nothing taken, beyond ``limit`` tables)."""
        token = secrets.token_hex(16)
        deadline = time.monotonic() + wait
        while not await self.take_turn(player_id, token, entering=entering, limit=limit):
            if time.monotonic() >= deadline:
                raise ConflictError(
                    f"{player_id}'s money is being moved right now (a join, deposit or "
                    "withdrawal): try again"
                )
            await asyncio.sleep(0.02)
        keeper = asyncio.create_task(self._keep_turn(player_id, token), name="punto-turn")
        try:
            yield
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
            await self.end_turn(player_id, token)

    # -- wallet outbox ----------------------------------------------------------------

    async def outbox_add(self, items: Sequence[Outbox], *, hold: float) -> None:
        """Write wallet calls down before they are made (idempotent by transaction id);
        the retry loop leaves them alone for ``hold`` seconds (the call is in flight)."""
        now = time.time()
        rows = [
            {
                "transaction_id": i.transaction_id,
                "player_id": i.player_id,
                "amount": i.amount,
                "kind": i.kind,
                "round_id": i.round_id,
                "attempts": 0,
                "state": OUTBOX_PENDING,
                "next_attempt_at": now + hold,
                "created_at": now,
                "updated_at": now,
            }
            for i in items
        ]

        async def unit(conn: AsyncConnection) -> None:
            if not rows:
                return
            stmt = _insert(conn, _O).values(rows).on_conflict_do_nothing()
            await conn.execute(stmt)

        await self._run(unit)

    async def outbox_due(self, *, now: float, hold: float, limit: int = 100) -> list[Outbox]:
        """Pending wallet calls whose time has come, oldest first; each is put off by
        ``hold`` seconds so that two processes rarely send the same call at once."""

        async def unit(conn: AsyncConnection) -> list[Outbox]:
            rows = await conn.execute(
                select(_O)
                .where(_O.c.state == OUTBOX_PENDING, _O.c.next_attempt_at <= now)
                .order_by(_O.c.id)
                .limit(limit)
            )
            due = [_outbox(r) for r in rows]
            if due:
                await conn.execute(
                    update(_O)
                    .where(_O.c.id.in_([d.id for d in due]))
                    .values(next_attempt_at=now + hold)
                )
            return due

        return await self._run(unit)

    async def outbox_items(self, *, states: Iterable[str] | None = None) -> list[Outbox]:
        """Every wallet call written down (of ``states``), oldest first."""

        async def unit(conn: AsyncConnection) -> list[Outbox]:
            query = select(_O).order_by(_O.c.id)
            if states is not None:
                query = query.where(_O.c.state.in_(list(states)))
            return [_outbox(r) for r in await conn.execute(query)]

        return await self._run(unit)

    async def stakes_not_debited(self, *, limit: int = 1000) -> list[tuple[str, str, int]]:
        """Stakes the ledger funded from the operator (seamless) whose debit the outbox
        does not show as taken (no row, rolled back, refused or failed): ``(confirmation
        id, player, amount)`` — money in the books the operator never gave."""
        key = _confirmation_of(_LTX)

        async def unit(conn: AsyncConnection) -> list[tuple[str, str, int]]:
            rows = await conn.execute(
                select(key, _LTX.c.player_id, _LEN.c.amount)
                .join(_LEN, _LEN.c.transaction_id == _LTX.c.id)
                .outerjoin(_O, _O.c.transaction_id == key)
                .where(
                    _LTX.c.kind == "stake",
                    _LEN.c.account_code.like("operator:%"),
                    or_(
                        _O.c.id.is_(None),
                        _O.c.kind == "rollback",
                        _O.c.state.in_([OUTBOX_REFUSED, OUTBOX_FAILED]),
                    ),
                )
                .order_by(_LTX.c.seq)
                .limit(limit)
            )
            return [(str(r[0]), str(r[1]), -int(r[2])) for r in rows]

        return await self._run(unit)

    async def ledger_last_seq(self) -> int:
        """The sequence number of the ledger's latest transaction (0: none)."""

        async def unit(conn: AsyncConnection) -> int:
            return int((await conn.execute(select(func.max(_LTX.c.seq)))).scalar() or 0)

        return await self._run(unit)

    async def outbox_swept(self) -> int:
        """Up to which ledger sequence number the wallet calls owed were written down."""

        async def unit(conn: AsyncConnection) -> int:
            found = (await conn.execute(select(_OS.c.ledger_seq).where(_OS.c.id == 1))).scalar()
            return int(found or 0)

        return await self._run(unit)

    async def outbox_swept_to(self, seq: int) -> None:
        """Note that the wallet calls owed up to ledger sequence number ``seq`` are written
        down (it never goes back: several processes note it)."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                _insert(conn, _OS).values(id=1, ledger_seq=0).on_conflict_do_nothing()
            )
            await conn.execute(
                update(_OS).where(_OS.c.id == 1, _OS.c.ledger_seq < seq).values(ledger_seq=seq)
            )

        await self._run(unit)

    async def wallet_calls_unwritten(
        self, *, after: int = 0, upto: int | None = None, limit: int = 1000
    ) -> list[Unwritten]:
        """Seamless wallet calls the ledger owes players that the outbox never wrote down
        (the process stopped between the ledger's commit and the outbox's row): every
        transaction of :data:`~punto.ledger.model.WALLET_CALL_KINDS` with an entry on the
        operator's account and no outbox row of its id, of sequence numbers in
        (``after``, ``upto``], in their order. A cancel credited under its confirmation's
        name (``cancel:<confirmation id>``, as the server once wrote it) is written down."""
        stake = _LTX.alias("stake")
        legacy = _O.alias("legacy")
        credited_by_confirmation = (
            select(legacy.c.id)
            .select_from(
                stake.join(
                    legacy, legacy.c.transaction_id == literal("cancel:") + _confirmation_of(stake)
                )
            )
            .where(stake.c.id == _LTX.c.reference_id)
            .exists()
        )

        async def unit(conn: AsyncConnection) -> list[Unwritten]:
            query = (
                select(
                    _LTX.c.seq,
                    _LTX.c.id,
                    _LTX.c.kind,
                    _LTX.c.player_id,
                    _LTX.c.round_id,
                    _LEN.c.amount,
                )
                .join(
                    _LEN,
                    and_(
                        _LEN.c.transaction_id == _LTX.c.id,
                        _LEN.c.account_code.like("operator:%"),
                    ),
                )
                .outerjoin(_O, _O.c.transaction_id == _LTX.c.id)
                .where(
                    _LTX.c.seq > after,
                    _LTX.c.kind.in_(sorted(k.value for k in WALLET_CALL_KINDS)),
                    _LTX.c.player_id.is_not(None),
                    _LEN.c.amount != 0,
                    _O.c.id.is_(None),
                    or_(_LTX.c.kind != TransactionKind.CANCEL.value, ~credited_by_confirmation),
                )
                .order_by(_LTX.c.seq)
                .limit(limit)
            )
            if upto is not None:
                query = query.where(_LTX.c.seq <= upto)
            return [
                Unwritten(
                    int(r.seq), str(r.id), str(r.kind), str(r.player_id), r.round_id, int(r.amount)
                )
                for r in await conn.execute(query)
            ]

        return await self._run(unit)

    async def outbox_item(self, transaction_id: str) -> Outbox | None:
        """The wallet call ``transaction_id``, if written down."""

        async def unit(conn: AsyncConnection) -> Outbox | None:
            row = (
                await conn.execute(select(_O).where(_O.c.transaction_id == transaction_id))
            ).first()
            return None if row is None else _outbox(row)

        return await self._run(unit)

    async def outbox_update(
        self,
        transaction_id: str,
        *,
        state: str,
        kind: str | None = None,
        error: str | None = None,
        attempted: bool = True,
        next_attempt_at: float = 0.0,
    ) -> None:
        """Note an attempt's result (or turn a stake into its rollback: ``kind``)."""
        values: dict[str, Any] = {
            "state": state,
            "last_error": error,
            "next_attempt_at": next_attempt_at,
            "updated_at": time.time(),
        }
        if attempted:
            values["attempts"] = _O.c.attempts + 1
        if kind is not None:
            values["kind"] = kind

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                update(_O).where(_O.c.transaction_id == transaction_id).values(**values)
            )

        await self._run(unit)

    # -- back office: rules versions, alarms, hands for the statistics ------------------

    async def rules_versions(self, table_id: str) -> list[dict[str, Any]]:
        """Every version of a table's rules, oldest first."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            rows = await conn.execute(
                select(_R).where(_R.c.table_id == table_id).order_by(_R.c.version)
            )
            return [
                {
                    "version": r.version,
                    "preset": r.preset,
                    "overrides": json.loads(r.overrides),
                    "document": json.loads(r.document),
                    "at": r.at,
                }
                for r in rows
            ]

        return await self._run(unit)

    async def add_alarm(
        self, table_id: str, *, kind: str, shoe: int | None, at: float, detail: Mapping[str, Any]
    ) -> None:
        """Raise an alarm for the supervisors."""

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(_AL).values(
                    table_id=table_id,
                    kind=kind,
                    shoe=shoe,
                    at=at,
                    detail=json.dumps(detail, sort_keys=True),
                )
            )

        await self._run(unit)

    async def alarms(
        self, *, table_id: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        """Alarms, newest first."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            query = select(_AL).order_by(_AL.c.id.desc()).limit(limit)
            if table_id is not None:
                query = query.where(_AL.c.table_id == table_id)
            return [
                {
                    "id": r.id,
                    "table": r.table_id,
                    "kind": r.kind,
                    "shoe": r.shoe,
                    "at": r.at,
                    "detail": json.loads(r.detail),
                }
                for r in await conn.execute(query)
            ]

        return await self._run(unit)

    async def hand_records(
        self,
        table_id: str,
        *,
        shoe: int | None = None,
        since: float | None = None,
        until: float | None = None,
    ) -> list[dict[str, Any]]:
        """A table's settled hand records in dealing order (one shoe, or a time range)."""

        async def unit(conn: AsyncConnection) -> list[dict[str, Any]]:
            query = select(_H.c.record, _H.c.status).where(_H.c.table_id == table_id)
            if shoe is not None:
                query = query.where(_H.c.shoe == shoe)
            if since is not None:
                query = query.where(_H.c.closed_at >= since)
            if until is not None:
                query = query.where(_H.c.closed_at < until)
            rows = await conn.execute(query.order_by(_H.c.shoe, _H.c.hand))
            return [json.loads(r.record) | {"status": r.status} for r in rows]

        return await self._run(unit)

    async def shoe(self, table_id: str, shoe: int) -> dict[str, Any] | None:
        """One shoe's row (commitment, reveal, audit, rules version)."""

        async def unit(conn: AsyncConnection) -> dict[str, Any] | None:
            row = (
                await conn.execute(select(_S).where(_S.c.table_id == table_id, _S.c.shoe == shoe))
            ).first()
            return None if row is None else dict(row._mapping)

        return await self._run(unit)


_LTX = cast(Table, TransactionRow.__table__)
_LEN = cast(Table, EntryRow.__table__)


def _confirmation_of(stakes: Any) -> Any:
    """The confirmation id of a stake transaction of ``stakes`` (its key is
    ``stake:<confirmation id>``), as a column expression."""
    return func.substr(stakes.c.idempotency_key, len("stake:") + 1)


class _WithdrawnError(Exception):
    """A record saved alongside a settlement that did not happen (rolled back)."""


_PRESENCE_PG = text(
    "SELECT s.player_id, s.table_id FROM unnest(CAST(:ids AS varchar[])) AS v(id) "
    "JOIN server_presence AS s ON s.player_id = v.id ORDER BY s.player_id, s.since, s.table_id"
)
"""Where each of many players (distinct) is (:meth:`ServerStore.tables_of_many`), on
PostgreSQL: a join with the array's elements, which a generic plan runs as fast as one
made for the values (``player_id = ANY(…)`` on a generic plan compares every row with
every id: ``punto.ledger.store._LOCK_PG``)."""
_ADD_HAND_PLAYERS = text(
    "INSERT INTO server_hand_players (game, player_id, closed_at) "
    "SELECT CAST(:g AS varchar), p, CAST(:c AS double precision) "
    "FROM unnest(CAST(:p AS varchar[])) AS p "
    "ON CONFLICT DO NOTHING"
)
"""A hand's players in one statement (PostgreSQL): thousands of them, one array."""


def _insert(conn: AsyncConnection, table: Table) -> Any:
    """An ``INSERT`` of the connection's dialect (with ``ON CONFLICT`` clauses)."""
    return (pg_insert if conn.dialect.name == "postgresql" else sqlite_insert)(table)


def _outbox(row: Any) -> Outbox:
    return Outbox(
        id=row.id,
        transaction_id=row.transaction_id,
        player_id=row.player_id,
        amount=int(row.amount),
        kind=row.kind,
        round_id=row.round_id,
        attempts=row.attempts,
        state=row.state,
        last_error=row.last_error,
        created_at=float(row.created_at),
    )


def _audit(commitment: str | None, order: str | None, salt: str | None) -> bool | None:
    """Whether a closed shoe's reveal matches its commitment (``None``: no commitment, a
    live shoe)."""
    if commitment is None:
        return None
    if order is None or salt is None:
        return False
    try:
        return verify_commitment(commitment, ShoeReveal(tuple(parse_cards(order)), salt))
    except ValueError:
        return False


def _amendment(row: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "game": row["game"],
        "table": row["table_id"],
        "kind": row["kind"],
        "author": row["author"],
        "reason": row["reason"],
        "at": row["at"],
        "outcome": None if row["outcome"] is None else json.loads(row["outcome"]),
        "corrections": json.loads(row["corrections"]),
    }
