"""The server's own database tables (SQLAlchemy 2 declarations); every name starts with
``server_`` so they share a database with the ``ledger_`` tables. The schema comes only
from the Alembic migrations in :mod:`punto.server.store.migrations`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from punto.ledger.tables import identifier

__all__ = [
    "VERSION_TABLE",
    "AlarmRow",
    "AmendmentRow",
    "Base",
    "ChatMuteRow",
    "ChatRow",
    "ComplaintRow",
    "HandPlayerRow",
    "HandRow",
    "JurisdictionRow",
    "LaunchTokenRow",
    "LeaseRow",
    "LobbyPrefsRow",
    "OperatorPlayerRow",
    "OperatorRequestRow",
    "OperatorRow",
    "OutboxRow",
    "PlaySessionRow",
    "PlayerTurnRow",
    "PresenceRow",
    "RevokedTokenRow",
    "ShoeRow",
    "TableRow",
    "TableRulesRow",
    "UserRow",
]

VERSION_TABLE = "server_alembic_version"
"""Alembic's version table for the server's migrations."""

_ID = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    """Declarative base of the server tables."""

    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(table_name)s_%(column_0_name)s",
            "uq": "uq_%(table_name)s_%(column_0_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


class UserRow(Base):
    """A user: player, dealer, supervisor or administrator."""

    __tablename__ = "server_users"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    role: Mapped[str] = mapped_column(String(16))
    display_name: Mapped[str] = mapped_column(String(100))
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class TableRow(Base):
    """A table's configuration; ``last_shoe`` keeps game numbers unique across restarts."""

    __tablename__ = "server_tables"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    rules: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))
    dealing: Mapped[str] = mapped_column(String(8))
    reading: Mapped[str | None] = mapped_column(String(32))
    seats: Mapped[int] = mapped_column(Integer)
    betting_seconds: Mapped[float] = mapped_column(Float)
    vip_min_balance: Mapped[int] = mapped_column(BigInteger)
    limits: Mapped[str | None] = mapped_column(Text)
    enabled: Mapped[bool] = mapped_column(Boolean)
    overrides: Mapped[str | None] = mapped_column(Text)
    """Rules document keys that differ from the preset (JSON)."""
    rules_version: Mapped[int] = mapped_column(Integer, server_default="1")
    last_shoe: Mapped[int] = mapped_column(Integer, server_default="0")
    whep_url: Mapped[str | None] = mapped_column(String(500))
    """The table's live video over WebRTC (a WHEP endpoint), or none."""
    hls_url: Mapped[str | None] = mapped_column(String(500))
    """The table's live video playlist (HLS), or none."""
    video_qualities: Mapped[str] = mapped_column(Text, server_default="[]")
    """Other qualities of the video (JSON list of ``{name, whep_url, hls_url}``)."""
    still_url: Mapped[str | None] = mapped_column(String(500))
    """A still image of the table for the lobby (the studio's snapshot), or none."""
    names: Mapped[str] = mapped_column(Text, server_default="{}")
    """The display name per language (JSON object ``{"zh": "…"}``); ``name`` is the default."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class LeaseRow(Base):
    """Which process owns a table until when (epoch seconds)."""

    __tablename__ = "server_table_leases"

    table_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[float] = mapped_column(Float)


class ShoeRow(Base):
    """A shoe's commitment when it opened and its reveal when it closed."""

    __tablename__ = "server_shoes"

    table_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    shoe: Mapped[int] = mapped_column(Integer, primary_key=True)
    cards: Mapped[int] = mapped_column(Integer)
    commitment: Mapped[str | None] = mapped_column(String(64))
    opened_at: Mapped[float] = mapped_column(Float)
    closed_at: Mapped[float | None] = mapped_column(Float)
    hands: Mapped[int | None] = mapped_column(Integer)
    reason: Mapped[str | None] = mapped_column(Text)
    reveal_order: Mapped[str | None] = mapped_column(Text)
    reveal_salt: Mapped[str | None] = mapped_column(String(128))
    rules_version: Mapped[int | None] = mapped_column(Integer)
    verified: Mapped[bool | None] = mapped_column(Boolean)
    """The reveal checked against the commitment when the shoe closed (``None``: live)."""


class TableRulesRow(Base):
    """Every version of a table's rules: the preset, the overrides and the whole document."""

    __tablename__ = "server_table_rules"

    table_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    preset: Mapped[str] = mapped_column(String(64))
    overrides: Mapped[str] = mapped_column(Text)
    document: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class AlarmRow(Base):
    """An alarm for the supervisors: results drifting from the exact figures, or a shoe
    whose reveal does not match its commitment."""

    __tablename__ = "server_alarms"

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(40), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    shoe: Mapped[int | None] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)
    detail: Mapped[str] = mapped_column(Text)


class HandRow(Base):
    """A finished hand's full record (JSON, every player's bets) by game number."""

    __tablename__ = "server_hands"

    game: Mapped[str] = mapped_column(identifier(80), primary_key=True)
    table_id: Mapped[str] = mapped_column(identifier(40), index=True)
    shoe: Mapped[int] = mapped_column(Integer)
    hand: Mapped[int] = mapped_column(Integer)
    opened_at: Mapped[float] = mapped_column(Float)
    closed_at: Mapped[float | None] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16))
    record: Mapped[str] = mapped_column(Text)
    closed_bets: Mapped[str] = mapped_column(String(400), default="", server_default="")
    """[EZ-C] The side bets the hand closed for the shoe's edge (names, space-separated)."""


class HandPlayerRow(Base):
    """Who bet on a hand (a player's bet records)."""

    __tablename__ = "server_hand_players"

    game: Mapped[str] = mapped_column(identifier(80), primary_key=True)
    player_id: Mapped[str] = mapped_column(identifier(64), primary_key=True, index=True)
    closed_at: Mapped[float | None] = mapped_column(Float)


class AmendmentRow(Base):
    """A supervisor's correction or void of a settled hand: who, why, what moved."""

    __tablename__ = "server_amendments"
    __table_args__ = (UniqueConstraint("game", "key", name="uq_server_amendments_game_key"),)

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(80), index=True)
    table_id: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(16))
    author: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    outcome: Mapped[str | None] = mapped_column(Text)
    corrections: Mapped[str] = mapped_column(Text)
    key: Mapped[str | None] = mapped_column(String(120))
    """``void`` or ``correction:<id>``: a hand has one amendment per key."""


class PresenceRow(Base):
    """A table a player is at (up to ``Settings.max_tables`` at a time)."""

    __tablename__ = "server_presence"

    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(40), primary_key=True, index=True)
    since: Mapped[float] = mapped_column(Float)


class PlayerTurnRow(Base):
    """Whose turn it is to move a player's money in or out of a table: one join, deposit
    or withdrawal at a time (``token`` names the holder; a stale turn is taken over)."""

    __tablename__ = "server_player_turns"

    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    token: Mapped[str] = mapped_column(String(64))
    since: Mapped[float] = mapped_column(Float)


class RevokedTokenRow(Base):
    """A session token revoked (logout, renewal) before it expires."""

    __tablename__ = "server_revoked_tokens"

    token_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[float] = mapped_column(Float)


class OutboxRow(Base):
    """A seamless-wallet call, written down before it is made: ``kind`` ``stake`` (a
    confirm's debit), ``debit``, ``credit`` or ``rollback``; ``state`` ``pending`` until the
    operator answers, then ``done``, ``refused`` (nothing moved) or ``failed`` (the operator
    refused a call Punto owes it: an operator must look)."""

    __tablename__ = "server_wallet_outbox"

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    transaction_id: Mapped[str] = mapped_column(String(200), unique=True)
    player_id: Mapped[str] = mapped_column(String(64))
    amount: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(8))
    round_id: Mapped[str | None] = mapped_column(String(200))
    currency: Mapped[str | None] = mapped_column(String(3))
    attempts: Mapped[int] = mapped_column(Integer, server_default="0")
    last_error: Mapped[str | None] = mapped_column(Text)
    state: Mapped[str] = mapped_column(String(12), server_default="pending", index=True)
    next_attempt_at: Mapped[float] = mapped_column(Float, server_default="0")
    created_at: Mapped[float] = mapped_column(Float, server_default="0")
    updated_at: Mapped[float] = mapped_column(Float, server_default="0")


class OutboxSweepRow(Base):
    """How far the ledger's transactions were looked at for wallet calls owed and never
    written down (:meth:`punto.server.money.outbox.WalletOutbox.write_owed`): one row, ``id`` 1."""

    __tablename__ = "server_outbox_sweep"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    ledger_seq: Mapped[int] = mapped_column(BigInteger, server_default="0")


class ComplaintRow(Base):
    """A player's complaint about a hand [L] and its resolution by a supervisor."""

    __tablename__ = "server_complaints"

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(String(64), index=True)
    game: Mapped[str] = mapped_column(String(80), index=True)
    table_id: Mapped[str] = mapped_column(String(40))
    dealer: Mapped[str] = mapped_column(String(64))
    hand_at: Mapped[float] = mapped_column(Float)
    text: Mapped[str] = mapped_column(Text)
    filed_at: Mapped[float] = mapped_column(Float)
    state: Mapped[str] = mapped_column(String(16), index=True)
    """``open``, ``corrected``, ``voided`` or ``rejected``."""
    resolved_by: Mapped[str | None] = mapped_column(String(64))
    resolved_at: Mapped[float | None] = mapped_column(Float)
    resolution: Mapped[str | None] = mapped_column(Text)


class ChatRow(Base):
    """A line of table chat, kept in the table's record with the hand it was said during."""

    __tablename__ = "server_chat"

    id: Mapped[int] = mapped_column(_ID, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(40), index=True)
    game: Mapped[str | None] = mapped_column(String(80), index=True)
    at: Mapped[float] = mapped_column(Float)
    author_id: Mapped[str] = mapped_column(String(64))
    author_name: Mapped[str] = mapped_column(String(100))
    role: Mapped[str] = mapped_column(String(16))
    """``player``, ``dealer`` or ``supervisor``."""
    text: Mapped[str] = mapped_column(Text)


class ChatMuteRow(Base):
    """A player a supervisor muted at a table (no row: may chat)."""

    __tablename__ = "server_chat_mutes"

    table_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    muted_by: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)


class LobbyPrefsRow(Base):
    """A player's lobby favourites and road alerts (JSON lists)."""

    __tablename__ = "server_lobby_prefs"

    user_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    favourites: Mapped[str] = mapped_column(Text)
    alerts: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[float] = mapped_column(Float)


class OperatorRow(Base):
    """An operator (a tenant): its currencies, languages and framing origins as JSON lists,
    its wallet, and the secret that signs its calls."""

    __tablename__ = "server_operators"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    currencies: Mapped[str] = mapped_column(Text)
    languages: Mapped[str] = mapped_column(Text)
    origins: Mapped[str] = mapped_column(Text)
    wallet_url: Mapped[str | None] = mapped_column(String(500))
    dialect: Mapped[str] = mapped_column(String(16))
    secret: Mapped[str] = mapped_column(String(100))
    secret_version: Mapped[int] = mapped_column(Integer)
    disabled: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[float] = mapped_column(Float)
    limit_groups: Mapped[str] = mapped_column(Text, server_default="{}")
    """Its limit groups as JSON (:class:`punto.server.operators.limits.LimitGroups`)."""
    wallet_key: Mapped[str | None] = mapped_column(Text)
    """The PEM private key that signs Punto's calls to its hub88 wallet (server migration
    s0016w)."""


class OperatorPlayerRow(Base):
    """An operator's player as the server knows it: the user it is, its currency and
    language of its latest launch."""

    __tablename__ = "server_operator_players"

    operator_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(47), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(64), unique=True)
    currency: Mapped[str] = mapped_column(String(3))
    language: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[float] = mapped_column(Float)
    limit_group: Mapped[str | None] = mapped_column(String(32))
    jurisdiction: Mapped[str | None] = mapped_column(String(16))
    """The jurisdiction profile of its latest launch (server migration s0017j)."""


class LaunchTokenRow(Base):
    """A one-time launch token (kept as its SHA-256), until it is used or expires."""

    __tablename__ = "server_launch_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(64))
    operator_id: Mapped[str] = mapped_column(String(16))
    expires_at: Mapped[float] = mapped_column(Float, index=True)
    used_at: Mapped[float | None] = mapped_column(Float)
    details: Mapped[str] = mapped_column(Text)


class OperatorRequestRow(Base):
    """A signed operator call seen lately (its signature), so a replay of it is refused."""

    __tablename__ = "server_operator_requests"

    operator_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    seen_at: Mapped[float] = mapped_column(Float, index=True)


class JurisdictionRow(Base):
    """A jurisdiction profile: its switches (seconds; ``None``: none) and the features it
    turns off (a JSON list)."""

    __tablename__ = "server_jurisdictions"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    reality_check_interval: Mapped[float | None] = mapped_column(Float)
    session_limit: Mapped[float | None] = mapped_column(Float)
    min_hand_interval: Mapped[float | None] = mapped_column(Float)
    features_off: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[float] = mapped_column(Float)


class PlaySessionRow(Base):
    """A launched player's play session under a jurisdiction profile: when it started, the
    last reality check acknowledged, when it ended, its last hand bet on, and the ledger's
    position when it started (its net result is what moved since)."""

    __tablename__ = "server_play_sessions"

    user_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    jurisdiction_id: Mapped[str] = mapped_column(String(16))
    started_at: Mapped[float] = mapped_column(Float)
    checked_at: Mapped[float] = mapped_column(Float)
    ended_at: Mapped[float | None] = mapped_column(Float)
    last_bet_at: Mapped[float | None] = mapped_column(Float)
    last_bet_hand: Mapped[str | None] = mapped_column(String(200))
    ledger_seq: Mapped[int] = mapped_column(BigInteger)
