"""Alembic environment of the server's migrations.

:mod:`punto.server.migrate` hands it an open connection in
``config.attributes["connection"]``. Importing it outside Alembic does nothing.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from punto.server.schema import VERSION_TABLE, Base


def run_migrations(connection: Connection) -> None:
    """Run the pending migrations on ``connection`` in its transaction."""
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        version_table=VERSION_TABLE,
        transaction_per_migration=False,
    )
    with context.begin_transaction():
        context.run_migrations()


def _main() -> None:
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError("run the server migrations with punto.server.migrate.upgrade(url)")
    run_migrations(connection)


if hasattr(context, "config"):  # only when Alembic runs this file
    _main()
