"""The ledger's database tables (SQLAlchemy 2 ORM declarations).

The schema is created and changed only by the Alembic migrations in
:mod:`punto.ledger.migrations`; a test checks that they match these declarations.
Every table name starts with ``ledger_`` so the ledger can share a database with the
server's own tables.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = [
    "VERSION_TABLE",
    "AccountRow",
    "Base",
    "EntryRow",
    "RoundBetRow",
    "RoundRow",
    "TransactionRow",
    "identifier",
]

VERSION_TABLE = "ledger_alembic_version"
"""Alembic's version table for the ledger's migrations."""

_ID = BigInteger().with_variant(Integer(), "sqlite")  # SQLite autoincrements INTEGER keys only


def identifier(length: int) -> String:
    """The type of a name rows are looked up by (an account code, a transaction, round,
    game or player id): compared byte by byte. SQLite's strings compare so already;
    PostgreSQL's take ``COLLATE "C"``, since under a database's language collation every
    comparison of an index look-up or insert goes through the locale's rules (ledger
    migration 0005, server migration s0013)."""
    return String(length).with_variant(String(length, collation="C"), "postgresql")


class Base(DeclarativeBase):
    """Declarative base of the ledger tables."""

    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(table_name)s_%(column_0_name)s",
            "uq": "uq_%(table_name)s_%(column_0_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


class AccountRow(Base):
    """An account; ``balance`` caches the sum of its entries (the check compares them)."""

    __tablename__ = "ledger_accounts"

    code: Mapped[str] = mapped_column(identifier(255), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    key: Mapped[str] = mapped_column(String(200))
    balance: Mapped[int] = mapped_column(BigInteger, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class TransactionRow(Base):
    """A posted transaction; ``seq`` orders them, ``idempotency_key`` is unique."""

    __tablename__ = "ledger_transactions"

    seq: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    id: Mapped[str] = mapped_column(identifier(36), unique=True)
    idempotency_key: Mapped[str] = mapped_column(identifier(255), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    round_id: Mapped[str | None] = mapped_column(identifier(200), index=True)
    player_id: Mapped[str | None] = mapped_column(identifier(200))
    reference_id: Mapped[str | None] = mapped_column(
        identifier(36), ForeignKey("ledger_transactions.id")
    )
    author: Mapped[str | None] = mapped_column(String(200))
    reason: Mapped[str | None] = mapped_column(Text)
    lines: Mapped[str] = mapped_column(Text)
    fingerprint: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class EntryRow(Base):
    """One entry of a transaction (of a posted transaction, on an existing account: the
    ledger's check, not a foreign key, proves it); a transaction has at most one entry on
    an account, so the two name the entry."""

    __tablename__ = "ledger_entries"

    # No foreign keys: one look-up per row was most of a bulk settlement's time; the
    # ledger writes an entry with its transaction, after locking its account, and
    # ``punto ledger check`` proves both exist (migration 0002). No serial key either:
    # the transaction and the account are the key, which serves the look-ups by
    # transaction and spares a bulk settlement a sequence and an index (migration 0004).
    transaction_id: Mapped[str] = mapped_column(identifier(36), primary_key=True)
    account_code: Mapped[str] = mapped_column(identifier(255), primary_key=True, index=True)
    amount: Mapped[int] = mapped_column(BigInteger)


class RoundRow(Base):
    """A round (hand) whose bets the ledger holds; ``result`` is the recorded outcome."""

    __tablename__ = "ledger_rounds"
    # a table's latest rounds, read when a process starts the table (migration 0006)
    __table_args__ = (Index("ix_ledger_rounds_table_id_created_at", "table_id", "created_at"),)

    id: Mapped[str] = mapped_column(identifier(200), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(16), index=True)
    result: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class RoundBetRow(Base):
    """One confirmed bet of a round; ``funding`` is the account its stake came from."""

    __tablename__ = "ledger_round_bets"
    # a round's bets by player: a confirm looks up how the player's earlier bets in the
    # round were funded, so a round of 10,000 bets is not read whole for each batch
    __table_args__ = (Index("ix_ledger_round_bets_round_id_player_id", "round_id", "player_id"),)

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    round_id: Mapped[str] = mapped_column(identifier(200), ForeignKey("ledger_rounds.id"))
    player_id: Mapped[str] = mapped_column(identifier(200))
    bet: Mapped[str] = mapped_column(String(32))
    stake: Mapped[int] = mapped_column(BigInteger)
    transaction_id: Mapped[str] = mapped_column(
        identifier(36), ForeignKey("ledger_transactions.id"), index=True
    )
    funding: Mapped[str] = mapped_column(identifier(255), ForeignKey("ledger_accounts.code"))
    status: Mapped[str] = mapped_column(String(16))
