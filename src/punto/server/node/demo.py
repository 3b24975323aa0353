"""The demo data ``make run`` starts with: the demo tables and accounts."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from punto.errors import PuntoError
from punto.server.auth import Role
from punto.server.store.storage import ServerStore
from punto.server.tables.configs import DEMO_TABLES

__all__ = ["DEMO_USERS", "demo_data"]

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

CreateUser = Callable[[str, str, Role, str], Awaitable[None]]
"""Make an account: ``(user_id, password, role, display name)``."""


async def demo_data(store: ServerStore, create_user: CreateUser) -> None:
    """Demo tables and accounts on first start (``make run``)."""
    if not await store.tables():
        for config in DEMO_TABLES:
            with contextlib.suppress(PuntoError):
                await store.create_table(config)
    for user_id, role, name in DEMO_USERS:
        if await store.user(user_id) is None:
            with contextlib.suppress(PuntoError):
                await create_user(user_id, f"{user_id}-demo", role, name)
