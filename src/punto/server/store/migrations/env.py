"""Alembic environment of the server's migrations.

:mod:`punto.server.store.migrate` hands it an open connection in
``config.attributes["connection"]``. Importing it outside Alembic does nothing.
"""

from __future__ import annotations

from alembic import context

from punto.ledger.migrate import run_environment
from punto.server.store.schema import VERSION_TABLE, Base

if hasattr(context, "config"):  # only when Alembic runs this file
    run_environment(
        Base.metadata, VERSION_TABLE, upgrade="punto.server.store.migrate.upgrade_async(url)"
    )
