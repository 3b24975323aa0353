"""Alembic environment of the ledger's migrations.

Alembic runs this file; :mod:`punto.ledger.migrate` hands it an open connection in
``config.attributes["connection"]`` (no ``alembic.ini`` is needed). Importing it outside
Alembic does nothing.
"""

from __future__ import annotations

from alembic import context

from punto.ledger.migrate import run_environment
from punto.ledger.tables import VERSION_TABLE, Base

if hasattr(context, "config"):  # only when Alembic runs this file
    run_environment(Base.metadata, VERSION_TABLE, upgrade="punto.ledger.migrate.upgrade(url)")
