"""The ledger's Alembic migrations; run them with :func:`punto.ledger.migrate.upgrade`."""
