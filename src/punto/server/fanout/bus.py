"""How processes talk: table envelopes fanned out to every process, and requests to the
process that owns a table.

- :class:`LocalBus`: one process; envelopes go straight to the local hub.
- :class:`RedisBus`: several processes on one Redis. An envelope goes to the publishing
  process's own clients at once and is published on ``<prefix>:table:<id>`` for the
  others (every process subscribes to ``<prefix>:table:*`` and delivers what other
  processes publish to its own clients; the prefix is ``punto`` unless
  ``PUNTO_REDIS_PREFIX`` says otherwise). Redis pub/sub keeps nothing for a subscriber
  that is away: when the subscription comes back after a loss, every client of the
  process is sent a ``resync`` message and asks for a new snapshot. Requests go to
  ``<prefix>:proc:<owner>`` and the answer comes back on the asking process's channel,
  matched by request id.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol, cast

import redis.asyncio as aioredis

from punto.errors import ProtocolError, UnavailableError
from punto.server.fanout.envelopes import Envelope, envelope_from_json
from punto.server.fanout.hub import Hub
from punto.server.fanout.protocol import error_message

__all__ = ["Bus", "LocalBus", "RedisBus", "RequestHandler", "reach_redis"]

_LOG = logging.getLogger("punto.server.fanout.bus")

_START_PATIENCE = 10.0
"""Seconds a starting process waits for its Redis subscription."""
_RETRY_FIRST = 0.1
_RETRY_MAX = 2.0
"""Pauses between tries to reach Redis again (seconds, doubling)."""
_PUBLISH_PATIENCE = 30.0
"""How long a table waits for Redis to publish an event before giving up."""

RequestHandler = Callable[[Mapping[str, Any]], Awaitable[dict[str, Any]]]
"""Answers a request sent to this process (a forwarded command, a snapshot …)."""


class Bus(Protocol):
    """Fan-out of table envelopes and requests between processes."""

    async def start(self, handler: RequestHandler) -> None:
        """Start listening; ``handler`` answers requests for this process."""
        ...

    async def publish(self, envelope: Envelope) -> None:
        """Send a table envelope to every process's clients."""
        ...

    async def request(
        self, process: str, payload: Mapping[str, Any], *, timeout: float = 5.0
    ) -> dict[str, Any]:
        """Ask ``process`` and wait for its answer."""
        ...

    async def close(self) -> None:
        """Stop listening."""
        ...


class LocalBus:
    """A single process: envelopes go to the local hub; there is no other process."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub

    async def start(self, handler: RequestHandler) -> None:
        """Nothing to start."""

    async def publish(self, envelope: Envelope) -> None:
        """Deliver to this process's clients."""
        self._hub.deliver(envelope)

    async def request(
        self, process: str, payload: Mapping[str, Any], *, timeout: float = 5.0
    ) -> dict[str, Any]:
        """There is no other process to ask."""
        raise UnavailableError(f"process {process} is not reachable without Redis")

    async def close(self) -> None:
        """Nothing to close."""


def _shown(url: str) -> str:
    """A Redis URL with its password hidden."""
    scheme, sep, rest = url.partition("://")
    auth, at, host = rest.rpartition("@")
    if not at or ":" not in auth:
        return url
    return f"{scheme}{sep}{auth.partition(':')[0]}:***@{host}"


async def reach_redis(url: str, *, timeout: float = 10.0) -> None:
    """Ask Redis at ``url`` for a ``PING``, or raise :class:`UnavailableError` saying which
    Redis (its password hidden) and why: a process starting without its Redis stops with
    one line (``punto serve``: exit 2). Once started, a Redis that goes away is waited
    for (:class:`RedisBus` subscribes again)."""
    client: aioredis.Redis = aioredis.from_url(url, socket_connect_timeout=timeout)
    try:
        async with asyncio.timeout(timeout):
            await cast(Awaitable[bool], client.ping())
    except TimeoutError:
        raise UnavailableError(
            f"cannot reach Redis at {_shown(url)}: no answer within {timeout:g} s"
        ) from None
    except (aioredis.RedisError, OSError) as exc:
        raise UnavailableError(f"cannot reach Redis at {_shown(url)}: {exc}") from None
    finally:
        await client.aclose()


class RedisBus:
    """Several processes sharing one Redis (pub/sub)."""

    def __init__(self, url: str, hub: Hub, *, process_id: str, prefix: str = "punto") -> None:
        # named, so that an operator (or a test) can tell this process's connections apart
        self._redis: aioredis.Redis = aioredis.from_url(url, client_name=f"punto-{process_id}")
        self._url = url
        self._prefix = prefix
        self._hub = hub
        self._me = process_id
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._task: asyncio.Task[None] | None = None
        self._handler: RequestHandler | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._ready = asyncio.Event()
        self._lost = False
        """The subscription was lost: messages may have been missed."""

    async def start(self, handler: RequestHandler) -> None:
        """Subscribe to every table and to this process's channel."""
        self._handler = handler
        self._task = asyncio.create_task(self._listen(), name="punto-redis-bus")
        try:
            await asyncio.wait_for(self._ready.wait(), timeout=_START_PATIENCE)
        except TimeoutError:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            raise UnavailableError(
                f"cannot reach Redis at {_shown(self._url)}: not subscribed within "
                f"{_START_PATIENCE:g} s"
            ) from None

    async def _listen(self) -> None:
        """Deliver what arrives; when Redis goes away (a restart), subscribe again with a
        growing pause, so this process's clients keep getting their tables' events."""
        pause = _RETRY_FIRST
        while True:
            try:
                await self._listen_once()
            except asyncio.CancelledError:
                raise
            except (aioredis.RedisError, OSError) as exc:
                _LOG.warning(
                    "redis subscription lost; subscribing again", extra={"error": str(exc)}
                )
                # What other processes published meanwhile is gone (pub/sub keeps
                # nothing): once subscribed again, every client here asks for a snapshot.
                self._lost = True
                await asyncio.sleep(pause)
                pause = min(_RETRY_MAX, pause * 2)
            else:  # pragma: no cover - _listen_once returns only by an exception
                return

    async def _listen_once(self) -> None:
        pubsub = self._redis.pubsub()
        try:
            await pubsub.psubscribe(f"{self._prefix}:table:*")
            await pubsub.subscribe(f"{self._prefix}:proc:{self._me}")
            self._ready.set()
            if self._lost:
                self._lost = False
                self._hub.resync_all()
            while True:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if message is None:
                    continue
                try:
                    data = json.loads(message["data"])
                except (TypeError, ValueError):
                    continue
                channel = message["channel"]
                channel = channel.decode() if isinstance(channel, bytes) else str(channel)
                if channel.startswith(f"{self._prefix}:table:"):
                    if isinstance(data, dict) and data.get("origin") == self._me:
                        continue  # published here: delivered here already
                    try:
                        envelope = envelope_from_json(data)
                    except ProtocolError:
                        _LOG.warning("dropped a malformed envelope", extra={"channel": channel})
                        continue
                    self._hub.deliver(envelope)
                elif data.get("op") == "reply":
                    future = self._pending.pop(str(data.get("rid")), None)
                    if future is not None and not future.done():
                        future.set_result(data)
                else:
                    task = asyncio.create_task(self._answer(data))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _answer(self, data: Mapping[str, Any]) -> None:
        assert self._handler is not None
        try:
            answer = await self._handler(data)
        except Exception as exc:  # answered as an error; the asker raises it
            answer = {"error": error_message(exc)}
        answer = {**answer, "op": "reply", "rid": data.get("rid")}
        await self._redis.publish(f"{self._prefix}:proc:{data.get('from')}", json.dumps(answer))

    async def publish(self, envelope: Envelope) -> None:
        """Deliver to this process's clients at once, then publish on the table's channel
        for the other processes (marked with this process as its ``origin``, which this
        process's listener skips): a client never depends on Redis for what its own
        process publishes. While Redis is away (a restart) the table waits, retrying with
        a growing pause, rather than lose the event for the others; after
        ``_PUBLISH_PATIENCE`` seconds it gives up with :class:`UnavailableError`."""
        self._hub.deliver(envelope)
        channel = f"{self._prefix}:table:{envelope['table']}"
        text = json.dumps({**envelope, "origin": self._me}, separators=(",", ":"))
        pause, waited = _RETRY_FIRST, 0.0
        while True:
            try:
                await self._redis.publish(channel, text)
                return
            except (aioredis.RedisError, OSError) as exc:
                if waited >= _PUBLISH_PATIENCE:
                    raise UnavailableError(f"redis does not answer: {exc}") from exc
                await asyncio.sleep(pause)
                waited += pause
                pause = min(_RETRY_MAX, pause * 2)

    async def request(
        self, process: str, payload: Mapping[str, Any], *, timeout: float = 5.0
    ) -> dict[str, Any]:
        """Send a request to ``process`` and wait for its answer."""
        rid = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        message = {**payload, "rid": rid, "from": self._me}
        try:
            await self._redis.publish(f"{self._prefix}:proc:{process}", json.dumps(message))
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise UnavailableError(
                f"the process owning this table ({process}) did not answer"
            ) from None
        finally:
            self._pending.pop(rid, None)

    async def close(self) -> None:
        """Stop listening and close the connection."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for task in list(self._tasks):
            task.cancel()
        await self._redis.aclose()
