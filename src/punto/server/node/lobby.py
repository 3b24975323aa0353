"""The lobby: every enabled table with its live status, and one table described."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from punto.errors import PuntoError, UnavailableError
from punto.server.config import Settings
from punto.server.fanout.bus import Bus
from punto.server.fanout.protocol import tier_json
from punto.server.fanout.requests import Describe, StatusAll, request_json
from punto.server.node.routing import Routing
from punto.server.store.storage import ServerStore
from punto.server.tables.runner import TableRunner
from punto.server.tables.snapshot import table_json

__all__ = ["Lobby"]


class Lobby:
    """The tables as the lobby lists them: those owned here (``runners``) from their
    runners, the others from their owners (over ``bus``) or, when none answers, from
    their configurations."""

    def __init__(
        self,
        settings: Settings,
        *,
        runners: Mapping[str, TableRunner],
        store: ServerStore,
        bus: Bus,
        routing: Routing,
    ) -> None:
        self._settings = settings
        self._id = settings.process_id
        self._runners = runners
        self._store = store
        self._bus = bus
        self._routing = routing

    async def describe(self, table_id: str) -> dict[str, Any]:
        """``GET /api/tables/{id}``."""
        runner = self._runners.get(table_id)
        if runner is not None:
            out = runner.describe()
        else:
            config = await self._store.table(table_id)
            try:
                out = dict((await self._routing.route(Describe(table_id)))["table"])
            except UnavailableError:
                out = table_json(config, config.settings(betting_seconds=None))
                out["phase"] = "closed" if not config.enabled else "waiting"
        out["process"] = await self._routing.owner(table_id)
        out["video"] = (await self._store.table(table_id)).video.to_json()
        return out

    def _dealer_photo(self, dealer: object) -> str | None:
        """The dealer's photo from the studio's ``PUNTO_DEALER_PHOTOS``, or ``None``."""
        template = self._settings.dealer_photos
        if template is None or not isinstance(dealer, str) or not dealer:
            return None
        return template.replace("{dealer}", quote(dealer, safe=""))

    async def lobby(self) -> list[dict[str, Any]]:
        """``GET /api/lobby``: every enabled table with its live status."""
        configs = await self._store.tables()
        statuses: dict[str, dict[str, Any]] = {t: r.status() for t, r in self._runners.items()}
        owners = await self._store.owners()
        remote = {o for t, o in owners.items() if t not in statuses and o != self._id}
        for process in remote:
            with contextlib.suppress(PuntoError):
                answer = await self._bus.request(process, request_json(StatusAll()), timeout=2.0)
                statuses.update(answer.get("tables", {}))
        out = []
        for config in configs:
            if not config.enabled:
                continue
            settings = config.settings(betting_seconds=self._settings.betting_seconds)
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
            entry["still_url"] = config.video.still_url
            entry["video"] = bool(config.video)
            entry["dealer_photo"] = self._dealer_photo(entry["dealer"])
            out.append(entry)
        return out
