"""The server's own records in the database: every line of the server's SQL lives here.

Owns the table declarations (:mod:`~punto.server.store.schema`), their Alembic migrations
and the async store over them. The ledger's books are :mod:`punto.ledger.store`'s. May
import the rules core, :mod:`punto.codec` and SQLAlchemy; nothing else of the server.
"""
