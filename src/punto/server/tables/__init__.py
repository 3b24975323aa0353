"""Live tables: a :class:`punto.table.Table` driven by this process with a real clock.

Owns the table configurations, the runner (one asyncio task per owned table), the client
commands it accepts, the effects its events map to, the snapshot a joining client gets, the
``legal_actions`` it sends, and one truth per hand. May import everything below it
(:mod:`~punto.server.money`, :mod:`~punto.server.fanout`, :mod:`~punto.server.store`,
:mod:`~punto.server.features`); the HTTP layer and the node import it, never the reverse.
"""
