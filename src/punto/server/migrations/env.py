"""Alembic environment of the server's migrations.

:mod:`punto.server.migrate` hands it an open connection in
``config.attributes["connection"]``. Importing it outside Alembic does nothing.
"""

from __future__ import annotations

from alembic import context

from punto.ledger.migrate import run_environment
from punto.server.schema import VERSION_TABLE, Base

if hasattr(context, "config"):  # only when Alembic runs this file
    run_environment(Base.metadata, VERSION_TABLE, upgrade="punto.server.migrate.upgrade_async(url)")
