"""The server's own records in the database: every line of the server's SQL lives here.

Owns the table declarations (:mod:`~punto.server.store.schema`), their Alembic migrations
and one store a concept over them — users, tables, leases, shoes, hands, amendments,
presence, turns, the wallet outbox, alarms, chat, complaints, lobby preferences and the
server's reads of the ledger's books — which :class:`~punto.server.store.storage.ServerStore`
puts behind one object. The ledger's own books are :mod:`punto.ledger.store`'s. May import
the rules core, :mod:`punto.codec`, the ledger's table declarations and SQLAlchemy; of the
server, only its roles (:mod:`punto.server.auth`) and table configurations
(:mod:`punto.server.tables.configs`).
"""
