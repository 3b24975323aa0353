"""The table server: an ASGI application (FastAPI) that a person opens in a browser.

One module per concept:

- :mod:`~punto.server.config` — :class:`Settings` from ``PUNTO_*`` variables;
- :mod:`~punto.server.auth` — roles, signed session tokens, password hashes;
- :mod:`~punto.server.protocol` — the WebSocket messages, parsed and validated (no I/O),
  and events as JSON (``docs/protocol.md``);
- :mod:`~punto.server.schema`, :mod:`~punto.server.migrate`, :mod:`~punto.server.storage`
  — the server's tables, their Alembic migrations and the store;
- :mod:`~punto.server.tables` — table configurations and the demo tables;
- :mod:`~punto.server.bank` — stakes, settlements, voids and corrections through the
  ledger and the wallet; :mod:`~punto.server.outbox` — every seamless-wallet call written
  down and retried until the operator answers, and the reconciliation with it;
- :mod:`~punto.server.services`, :mod:`~punto.server.runner`,
  :mod:`~punto.server.commands` — one asyncio task per owned table, driving a
  :class:`punto.table.Table` with a real clock; its client commands;
- :mod:`~punto.server.snapshot` — what a client sees when it connects;
- :mod:`~punto.server.hub`, :mod:`~punto.server.bus` — fan-out to clients (bounded
  queues) and between processes (Redis pub/sub);
- :mod:`~punto.server.node` — one server process: its tables and their leases, routing to
  the owner of a table, corrections, demo data;
- :mod:`~punto.server.api`, :mod:`~punto.server.ws` — the REST API and the WebSocket
  endpoint; :mod:`~punto.server.app` — the application factory and its lifespan;
  :mod:`~punto.server.guard` — input limits checked before parsing, security headers;
- :mod:`~punto.server.reports` — turnover, payouts and observed RTP from the ledger;
- :mod:`~punto.server.metrics`, :mod:`~punto.server.logging` — Prometheus metrics and
  JSON logs.
"""

from punto.server.config import Settings

__all__ = ["Settings"]
