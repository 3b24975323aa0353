"""The dealers' names a process's tables rotate through."""

from __future__ import annotations

from collections.abc import Sequence

from punto.server.auth import Role
from punto.server.services import DEALER_ROSTER
from punto.server.store.storage import ServerStore

__all__ = ["DealerRoster"]


class DealerRoster:
    """The display names of the dealer accounts (the built-in names while there are
    none), read again whenever a dealer account is made."""

    def __init__(self, store: ServerStore) -> None:
        self._store = store
        self._names: list[str] = list(DEALER_ROSTER)

    def names(self) -> Sequence[str]:
        """The current names (never empty)."""
        return self._names

    async def load(self) -> None:
        """Read the dealer accounts again."""
        dealers = [u.display_name for u in await self._store.users() if u.role is Role.DEALER]
        self._names = dealers or list(DEALER_ROSTER)
