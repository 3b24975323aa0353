"""Alembic migrations of the server's tables (version table ``server_alembic_version``)."""
