"""Table chat between players and the dealer (``docs/protocol.md`` §3, "Chat").

A player, the dealer or a supervisor sends ``chat``; the process that owns the table
checks it (:func:`chat_text`: no empty line, no direction-changing control characters;
the protocol already refused control characters and lines over
:data:`~punto.server.fanout.protocol.CHAT_MAX_LENGTH`), refuses a muted player (:class:`ChatError`,
``muted``) or one over the rate limit (:class:`ChatLimiter`, ``rate_limited``), keeps
the line in ``server_chat`` with the hand it was said during, and sends a ``chat``
message to everyone at the table. A supervisor mutes and unmutes a player at a table
(``chat_mute``, kept in ``server_chat_mutes``); each client gets the recent chat after
its snapshot (``chat_history``); a supervisor reads a table's or a hand's chat at
``GET /api/supervisor/tables/{id}/chat`` (:mod:`punto.server.features.chatlog`).

Clients show the text as text (never as markup): the server keeps it as typed.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from punto.errors import ChatError, ForbiddenError, NotFoundError, ProtocolError, RateLimitedError
from punto.server.auth import Actor, Role, require_role
from punto.server.fanout.protocol import Chat, ChatMute

if TYPE_CHECKING:
    from punto.server.fanout.bus import Bus
    from punto.server.store.storage import ServerStore

__all__ = ["HISTORY", "ChatLimiter", "ChatRoom", "chat_text"]

HISTORY = 50
"""How many recent lines a client gets after its snapshot."""

_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Direction marks and overrides: a line could show other words than it holds."""

_CHATTERS = frozenset({Role.PLAYER, Role.DEALER, Role.SUPERVISOR})


def chat_text(text: str) -> str:
    r"""A chat line as kept: without surrounding spaces; :class:`ChatError` (``empty``) for
    nothing but spaces, :class:`ProtocolError` for direction-changing characters.

    >>> chat_text("  good luck! ")
    'good luck!'
    >>> chat_text("   ")
    Traceback (most recent call last):
    ...
    punto.errors.ChatError: a chat message needs some text
    >>> chat_text("abc\u202edef")
    Traceback (most recent call last):
    ...
    punto.errors.ProtocolError: chat: text may not hold direction controls (\u202e)
    """
    found = _BIDI.search(text)
    if found is not None:
        raise ProtocolError(
            f"chat: text may not hold direction controls (\\u{ord(found.group()):04x})"
        )
    clean = text.strip()
    if not clean:
        raise ChatError("a chat message needs some text", reason="empty")
    return clean


class ChatLimiter:
    """At most ``messages`` lines per sender within any ``window`` seconds (a sliding
    window; the time is passed in).

    >>> limiter = ChatLimiter(messages=2, window=10.0)
    >>> limiter.check("ann", now=0.0); limiter.check("ann", now=1.0)
    >>> limiter.check("ann", now=2.0)
    Traceback (most recent call last):
    ...
    punto.errors.RateLimitedError: too many chat messages: at most 2 in 10 seconds; wait 8 s
    >>> limiter.check("bob", now=2.0); limiter.check("ann", now=10.5)
    """

    def __init__(self, *, messages: int, window: float) -> None:
        self.messages = messages
        self.window = window
        self._sent: dict[str, deque[float]] = {}

    def check(self, sender: str, *, now: float) -> None:
        """Count one line of ``sender`` at ``now``, or refuse it (:class:`RateLimitedError`
        with the seconds to wait) and count nothing."""
        sent = self._sent.setdefault(sender, deque())
        while sent and sent[0] <= now - self.window:
            sent.popleft()
        if len(sent) >= self.messages:
            wait = sent[0] + self.window - now
            raise RateLimitedError(
                f"too many chat messages: at most {self.messages} in {self.window:g} seconds; "
                f"wait {max(1, round(wait))} s",
                retry_after=wait,
            )
        sent.append(now)
        if len(self._sent) > 10_000:  # forget senders who went quiet (bounded memory)
            for who in [w for w, times in self._sent.items() if not times]:
                del self._sent[who]


class ChatRoom:
    """The chat of the tables this process owns: checks, stores and publishes lines and
    mutes (one per process; rate limits are counted here, per sender)."""

    def __init__(
        self,
        *,
        store: ServerStore,
        bus: Bus,
        messages: int,
        window: float,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._bus = bus
        self._clock = clock
        self.limiter = ChatLimiter(messages=messages, window=window)
        self._names: dict[str, str] = {}

    async def handle(
        self, table_id: str, game: str | None, actor: Actor, command: Chat | ChatMute
    ) -> None:
        """Run a ``chat`` or ``chat_mute`` from ``actor`` at ``table_id`` (now in hand
        ``game``)."""
        if isinstance(command, ChatMute):
            await self.mute(table_id, actor, command.player, muted=command.muted)
        else:
            await self.say(table_id, game, actor, command.text)

    async def say(self, table_id: str, game: str | None, actor: Actor, text: str) -> dict[str, Any]:
        """Keep and send one line; the ``chat`` message sent."""
        if actor.role not in _CHATTERS or actor.user_id is None:
            raise ForbiddenError("chat: only players, the dealer and supervisors chat")
        line = chat_text(text)
        who = actor.user_id
        if actor.role is Role.PLAYER:
            if await self.muted(table_id, who):
                raise ChatError("a supervisor muted your chat at this table", reason="muted")
            self.limiter.check(who, now=self._clock())
        values = {
            "table_id": table_id,
            "game": game,
            "at": self._clock(),
            "author_id": who,
            "author_name": await self._name(who),
            "role": actor.role.value,
            "text": line,
        }
        key = await self._store.add_chat_line(values)
        message = {"type": "chat", "id": key, **_fields(values)}
        await self._bus.publish({"table": table_id, "message": message})
        return message

    async def mute(self, table_id: str, actor: Actor, player: str, *, muted: bool) -> None:
        """A supervisor mutes (or unmutes) ``player`` at ``table_id``; everyone at the
        table is told (``chat_muted``)."""
        require_role(actor, Role.SUPERVISOR, action="mute a player's chat")
        assert actor.user_id is not None
        if await self._store.user(player) is None:
            raise NotFoundError(f"no player {player!r}")
        now = self._clock()
        await self._store.set_chat_muted(table_id, player, muted=muted, by=actor.user_id, at=now)
        message = {
            "type": "chat_muted",
            "table": table_id,
            "player": player,
            "muted": muted,
            "by": actor.user_id,
            "at": now,
        }
        await self._bus.publish({"table": table_id, "message": message})

    async def muted(self, table_id: str, player: str) -> bool:
        """Whether a supervisor muted ``player`` at ``table_id``."""
        return await self._store.chat_muted(table_id, player)

    async def history(self, table_id: str, actor: Actor) -> dict[str, Any]:
        """The ``chat_history`` message a client gets after its snapshot: the last
        :data:`HISTORY` lines, and whether this player is muted here."""
        lines = await self._store.chat_lines(table_id, limit=HISTORY)
        you_muted = False
        if actor.role is Role.PLAYER and actor.user_id is not None:
            you_muted = await self.muted(table_id, actor.user_id)
        return {"type": "chat_history", "table": table_id, "messages": lines, "muted": you_muted}

    async def _name(self, user_id: str) -> str:
        name = self._names.get(user_id)
        if name is None:
            user = await self._store.user(user_id)
            name = user.display_name if user is not None and user.display_name else user_id
            if len(self._names) > 10_000:
                self._names.clear()
            self._names[user_id] = name
        return name


def _fields(values: dict[str, Any]) -> dict[str, Any]:
    return {
        "table": values["table_id"],
        "game": values["game"],
        "at": values["at"],
        "from": values["author_id"],
        "name": values["author_name"],
        "role": values["role"],
        "text": values["text"],
    }
