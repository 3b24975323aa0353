"""The table server: an ASGI application (FastAPI) that a person opens in a browser.

One sub-package per concept, each saying in its own docstring what it owns and what it may
import:

- :mod:`~punto.server.tables` — live tables: configurations, the runner that drives a
  :class:`punto.table.Table` with a real clock, its commands, effects and snapshots;
- :mod:`~punto.server.money` — the bank, the confirm pipeline, group commit and the
  seamless-wallet outbox;
- :mod:`~punto.server.fanout` — the wire protocol, the hub, the bus between processes and
  the WebSocket endpoint;
- :mod:`~punto.server.store` — the server's tables, their migrations and all its SQL;
- :mod:`~punto.server.features` — chat, complaints, recall, video, back office, reports;
- :mod:`~punto.server.operators` — operators as tenants: signed game launch, the
  operators' look-ups and registry;
- :mod:`~punto.server.http` — the REST routes, hand records and the guard middleware.

Beside them: :mod:`~punto.server.config` (:class:`Settings` from ``PUNTO_*`` variables),
:mod:`~punto.server.auth` (roles, signed session tokens, password hashes),
:mod:`~punto.server.clock` (the server's time), :mod:`~punto.server.services` (what a
process's tables share), :mod:`~punto.server.node` (one server process, a module a concern:
its accounts, tables and leases, routing, lobby, corrections),
:mod:`~punto.server.app` (the application factory and its lifespan), and
:mod:`~punto.server.metrics`, :mod:`~punto.server.logging`,
:mod:`~punto.server.collector`.
"""

from punto.server.config import Settings

__all__ = ["Settings"]
