"""Accounts and sessions: logins, session tokens, logout, and new users."""

from __future__ import annotations

import asyncio
import math
import secrets
from collections.abc import Awaitable, Callable

from punto.errors import AuthError, RateLimitedError
from punto.ledger.wallet import Wallet
from punto.server.auth import (
    Actor,
    Role,
    TokenSigner,
    check_password,
    check_user_name,
    hash_password,
)
from punto.server.clock import ServerClock
from punto.server.config import Settings
from punto.server.fanout.hub import Connection
from punto.server.logins import LoginThrottle, client_key
from punto.server.money.bank import Bank
from punto.server.store.storage import ServerStore

__all__ = ["Accounts"]


class Accounts:
    """A process's logins and sessions: it signs and checks session tokens, throttles
    the clients that fail to log in (never the accounts they try), ends sessions (and
    this process's sockets opened with them), and makes users (``dealer_added`` runs when
    a new one is a dealer)."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: ServerStore,
        bank: Bank,
        wallet: Wallet,
        clock: ServerClock,
        dealer_added: Callable[[], Awaitable[None]],
    ) -> None:
        self._settings = settings
        self._store = store
        self._bank = bank
        self._wallet = wallet
        self._clock = clock
        self._dealer_added = dealer_added
        self.signer = TokenSigner(
            settings.secret or secrets.token_hex(32), ttl=settings.token_ttl, clock=clock
        )
        self.logins = LoginThrottle(
            per_account=settings.login_attempts,
            per_address=settings.login_address_attempts,
            delay=settings.login_delay,
            longest=settings.login_window,
        )
        self._decoy_hash: str | None = None
        self.sessions: dict[str, set[Connection]] = {}
        """This process's WebSocket connections by session token id (logout closes them)."""
        self.ended: set[Connection] = set()
        """Connections closed because their session ended (they close with 4401)."""

    async def authenticate(self, token: str) -> Actor:
        """The actor a session token names: :class:`AuthError` if it is forged, expired
        or revoked."""
        actor = self.signer.verify(token)
        if actor.token_id is not None and await self._store.token_revoked(actor.token_id):
            raise AuthError("this session was ended: log in again")
        return actor

    async def check_login(self, user_id: str, password: str, *, address: str) -> Actor:
        """The user a username and password name, or :class:`AuthError`. An unknown name
        costs the same work as a known one (no timing oracle); the hash runs off the event
        loop; a client past its free failures waits its cool-down (:class:`RateLimitedError`,
        the password unchecked), whatever the account, which stays open to other clients."""
        client = client_key(address)
        wait = self.logins.wait(user_id, client, now=self._clock.monotonic())
        if wait is not None:
            seconds = max(1, math.ceil(wait))
            raise RateLimitedError(
                f"too many failed logins: try again in {seconds} s", retry_after=seconds
            )
        self.logins.attempt(user_id, client, now=self._clock.monotonic())
        user = await self._store.user(user_id)
        if self._decoy_hash is None:
            self._decoy_hash = await asyncio.to_thread(
                hash_password, secrets.token_hex(16), cost=self._settings.password_cost
            )
        stored = self._decoy_hash if user is None else user.password_hash
        good = await asyncio.to_thread(check_password, password, stored)
        if user is None or not good:
            raise AuthError("wrong username or password")
        self.logins.succeeded(user_id, client, now=self._clock.monotonic())
        return Actor(user.id, user.role, user.display_name)

    async def revoke(self, actor: Actor, *, close: bool = True) -> None:
        """End the session of ``actor``'s token (logout; a renewal, ``close`` false, lets
        the sockets opened with it run to its expiry): the token is refused from now on,
        and with ``close`` this process's sockets opened with it close with 4401."""
        if actor.token_id is not None and actor.user_id is not None:
            await self._store.revoke_token(
                actor.token_id,
                user_id=actor.user_id,
                expires_at=actor.expires_at or self._clock.now(),
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
        check_user_name(user_id)
        await self._store.create_user(
            user_id,
            role=role,
            display_name=name,
            password_hash=await asyncio.to_thread(
                hash_password, password, cost=self._settings.password_cost
            ),
        )
        if role is Role.PLAYER and self._settings.demo and not self._bank.seamless:
            await self._wallet.credit(
                user_id, self._settings.demo_balance, transaction_id=f"demo:{user_id}"
            )
        if role is Role.DEALER:
            await self._dealer_added()
