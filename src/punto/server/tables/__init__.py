"""Live tables: a :class:`punto.table.Table` driven by this process with a real clock.

Owns the table configurations, the runner (one asyncio task per owned table: its loop and
the dispatch of its effects) and the objects it is made of (``parts``): the client commands
it accepts, the confirm pipeline, the standing bets, the payouts, the hand recorder, the
fan-out, settlement pending, what clients read of it (the snapshot a joining client gets,
the ``legal_actions`` it sends), the effects its events map to, and one truth per hand.
May import everything below it (:mod:`~punto.server.money`, :mod:`~punto.server.fanout`,
:mod:`~punto.server.store`, :mod:`~punto.server.features`); the HTTP layer and the node
import it, never the reverse.
"""
