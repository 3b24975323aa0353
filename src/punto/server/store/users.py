"""Accounts: the users (their role, display name and password hash) and the tokens
revoked before they expire."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, delete, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from punto.errors import ConflictError
from punto.server.auth import Role
from punto.server.store.database import StorePart, dialect_insert
from punto.server.store.schema import RevokedTokenRow, UserRow

__all__ = ["User", "UserStore"]

_U = cast(Table, UserRow.__table__)
_RT = cast(Table, RevokedTokenRow.__table__)


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


def _user(row: Any) -> User:
    return User(row.id, Role(row.role), row.display_name, row.password_hash)


class UserStore(StorePart):
    """The users and the revoked tokens."""

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
            await self._db.run(unit)
        except IntegrityError:
            raise ConflictError(f"the user name {user_id!r} is taken") from None
        return User(user_id, role, display_name, password_hash)

    async def user(self, user_id: str) -> User | None:
        """The user ``user_id``, if any."""

        async def unit(conn: AsyncConnection) -> User | None:
            row = (await conn.execute(select(_U).where(_U.c.id == user_id))).first()
            return None if row is None else _user(row)

        return await self._db.run(unit)

    async def users(self) -> list[User]:
        """Every user, by name."""

        async def unit(conn: AsyncConnection) -> list[User]:
            return [_user(r) for r in await conn.execute(select(_U).order_by(_U.c.id))]

        return await self._db.run(unit)

    async def revoke_token(self, token_id: str, *, user_id: str, expires_at: float) -> None:
        """Refuse the token ``token_id`` from now on (idempotent); forget tokens that
        have expired anyway."""
        row = {"token_id": token_id, "user_id": user_id, "expires_at": expires_at}
        now = self._db.clock()

        async def unit(conn: AsyncConnection) -> None:
            await conn.execute(delete(_RT).where(_RT.c.expires_at < now))
            stmt = dialect_insert(conn, _RT).values(row).on_conflict_do_nothing()
            await conn.execute(stmt)

        await self._db.run(unit)

    async def token_revoked(self, token_id: str) -> bool:
        """Whether the token ``token_id`` was revoked."""

        async def unit(conn: AsyncConnection) -> bool:
            found = await conn.scalar(select(_RT.c.token_id).where(_RT.c.token_id == token_id))
            return found is not None

        return await self._db.run(unit)
