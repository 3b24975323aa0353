"""The table server's settings: one frozen dataclass, read from the environment.

Every setting has a default that suits development (SQLite in the working folder, the
internal wallet); demo tables and accounts only with ``demo`` (``punto serve --demo``,
``make run``). Without demo data a server is in production mode and needs a configured
secret. Tests pass short timers.

>>> s = Settings.from_env({"PUNTO_BETTING_SECONDS": "2", "PUNTO_WALLET": "internal"})
>>> s.betting_seconds, s.wallet, s.database_url
(2.0, 'internal', 'sqlite+aiosqlite:///punto.sqlite3')
"""

from __future__ import annotations

import dataclasses
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from punto.errors import ServerError
from punto.ledger.store import DEFAULT_DATABASE_URL, DEFAULT_POOL, database_url
from punto.table.automation import Pace

__all__ = ["WEB_DIR", "Settings"]

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""Where the web client lives (served at ``/`` when the directory exists)."""


def _process_id() -> str:
    return f"p-{secrets.token_hex(3)}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Settings:
    """How one server process runs. Times are seconds, amounts minor units."""

    database_url: str = DEFAULT_DATABASE_URL
    redis_url: str | None = None
    """Redis for scale-out (table events and forwarded commands); ``None``: one process."""
    redis_prefix: str = "punto"
    """The channel prefix: deployments (or test runs) sharing one Redis stay apart."""
    secret: str | None = None
    """HMAC key of the session tokens; ``None``: a random one per run (development only:
    tokens die with the process, and several processes cannot share them)."""
    environment: str = "development"
    """``production`` (``PUNTO_ENV``) insists on a configured secret and no demo data."""
    token_ttl: float = 3600.0
    """Session token lifetime; a client renews its token before (``/api/auth/renew``)."""
    login_attempts: int = 5
    """Failed logins of one account from one client before that client must wait (429):
    the account stays open to its owner on any other client."""
    login_address_attempts: int = 20
    """Failed logins from one client, whatever the accounts, before it must wait."""
    login_delay: float = 1.0
    """A client's first cool-down past its free failures; each further failure doubles it."""
    login_window: float = 300.0
    """The longest cool-down; a client's failures are forgotten this long after its last
    cool-down ends."""
    process_id: str = field(default_factory=_process_id)
    wallet: str = "internal"
    """``internal`` (transfer wallet in the ledger) or ``seamless`` (operator HTTP API)."""
    wallet_url: str | None = None
    wallet_api_key: str | None = None
    wallet_secret: str | None = None
    """Signs every seamless-wallet call (``X-Punto-Signature``) when the operator asks."""
    wallet_dialect: str = "punto"
    """The contract the seamless wallet at ``wallet_url`` speaks: ``punto`` or ``hub88``."""
    wallet_key: str | None = None
    """A PEM private key file: signs every call of a hub88 seamless wallet."""
    wallet_currency: str | None = None
    """The currency of a hub88 seamless wallet's calls that name none (else the house
    currency)."""
    operator_id: str = "default"
    currency: str = "EUR"
    """The house currency (ISO 4217): the tables' limits and chips are in it, and so is
    the money of players of no other currency; every other currency an operator's
    players bring is a book of its own."""
    demo: bool = False
    """Create demo tables and accounts on first start; allow player self-registration
    (``punto serve --demo``, ``make run``)."""
    demo_balance: int = 1_000_000
    betting_seconds: float | None = None
    """Override every table's betting time (tests, load runs); ``None``: the table's own."""
    card_delay: float = 0.6
    """Seconds an RNG table waits after each card (the table's :class:`Pace`)."""
    squeeze_seconds: float = 10.0
    """Seconds a squeeze lasts before an RNG table turns the cards itself [O]."""
    result_seconds: float = 3.0
    """Seconds a result shows before an RNG table opens the next round."""
    lightning_seconds: float = 3.0
    """Seconds a multiplier table shows its lightning cards before the first card [LB]."""
    seat_grace: float = 60.0
    """How long (seconds) a player whose last connection to a table closed keeps their
    place there; then they leave it (bets in play stay and settle first) [S13]."""
    max_tables: int = 4
    """How many tables one player may be at together (multi-table play)."""
    lease_seconds: float = 10.0
    """How long a table's ownership lease lasts without renewal."""
    outbox_seconds: float = 1.0
    """How often pending wallet calls are retried (the first wait; it doubles per try)."""
    outbox_max_delay: float = 60.0
    """The longest wait between two tries of one wallet call."""
    outbox_hold: float = 60.0
    """How long a wallet call in flight is left to the process making it: the retry loop
    does not send it again, nor writes down a call the ledger owes, before this."""
    allowed_origins: tuple[str, ...] = ()
    """Other origins whose pages may open WebSockets (``https://app.example``; ``*`` any);
    the server's own origin always may, and clients that send no ``Origin`` (not
    browsers) are not checked."""
    ws_queue: int = 1000
    """Outgoing messages a client may have waiting before it is dropped as too slow."""
    ws_deflate: bool = True
    """Offer WebSocket compression (permessage-deflate) to clients that ask for it. Each
    frame is then compressed once per connection: off (``PUNTO_WS_DEFLATE=0``), a table
    event costs one encoding for all its clients, which saves most of a fan-out's CPU on
    a fast network."""
    database_pool: int = DEFAULT_POOL
    """PostgreSQL connections the process keeps open and shares (SQLite: one)."""
    confirm_window: float = 0.002
    """Group commit: how long (seconds) a table waits for more confirms before writing a
    batch to the ledger (not at all when a full batch is waiting)."""
    confirm_batch: int = 500
    """Group commit: the most confirms written to the ledger in one transaction."""
    confirm_writers: int = 4
    """Group commit: how many ledger writes of confirms may be under way at once on
    PostgreSQL (SQLite writes one transaction at a time: one). While writes wait for the
    database the server checks and answers the batches of others instead of waiting."""
    totals_interval: float = 0.25
    """The least time (seconds) between two ``bet_totals`` messages of one table: the
    first change after a quiet spell goes at once, the changes within the interval after
    it as one message at its end (0: one after every batch of confirms). At a table of
    thousands a batch of confirms every few milliseconds would otherwise send every
    client a frame each time."""
    rng_seed: int | None = None
    """Seed the RNG tables' shuffles (tests only; ``None``: the system's randomness)."""
    chat_messages: int = 5
    """Chat: the messages one player may send within ``chat_window`` seconds; one more is
    refused with ``rate_limited`` (the dealer and supervisors are not limited)."""
    chat_window: float = 10.0
    password_cost: int = 2**14
    """scrypt's N for new password hashes."""
    web_dir: Path = WEB_DIR
    log_level: str = "INFO"
    recordings_dir: Path | None = None
    """Where the studio keeps the tables' video recordings (HLS segments with
    EXT-X-PROGRAM-DATE-TIME, one folder per table id: ``DIR/macau-1/``); ``None``: no
    video by game number (docs/server.md, "Video by game number")."""
    video_retention: float = 24 * 3600.0
    """How long recordings are kept; older ones are pruned [L] (video is kept 24 hours)."""
    video_margin: float = 3.0
    """Seconds of video shown before a hand's start and after its end."""
    video_prune_seconds: float = 600.0
    """How often the server prunes recordings older than the retention."""
    dealer_photos: str | None = None
    """Where the studio keeps its dealers' photos, as a URL with ``{dealer}`` for the
    dealer's name (``https://studio.example/dealers/{dealer}.jpg``); ``None``: the lobby
    shows the dealer's initial instead."""

    def __post_init__(self) -> None:
        if self.environment not in ("development", "production"):
            raise ServerError(
                f"PUNTO_ENV must be development or production, not {self.environment!r}"
            )
        if self.wallet not in ("internal", "seamless"):
            raise ServerError(f"wallet must be internal or seamless, not {self.wallet!r}")
        if self.wallet == "seamless" and not self.wallet_url:
            raise ServerError("a seamless wallet needs PUNTO_WALLET_URL")
        if not (len(self.currency) == 3 and self.currency.isascii() and self.currency.isupper()):
            raise ServerError(f"PUNTO_CURRENCY must be an ISO 4217 code, not {self.currency!r}")
        if self.wallet_dialect not in ("punto", "hub88"):
            raise ServerError(f"wallet dialect must be punto or hub88, not {self.wallet_dialect!r}")
        if min(self.card_delay, self.result_seconds, self.squeeze_seconds) < 0 or (
            self.lightning_seconds < 0
        ):
            raise ServerError("server timers cannot be negative")
        if self.seat_grace < 0 or self.max_tables < 1:
            raise ServerError("seat_grace must be ≥ 0 and max_tables ≥ 1")
        if self.betting_seconds is not None and self.betting_seconds <= 0:
            raise ServerError("the betting time must be positive")
        if self.token_ttl <= 0 or self.login_window <= 0:
            raise ServerError("the token lifetime and the login window must be positive")
        if not 0 < self.login_delay <= self.login_window:
            raise ServerError("the login delay must be positive and at most the login window")
        if self.confirm_batch < 1 or self.confirm_writers < 1:
            raise ServerError("the confirm batch and the confirm writers must be at least 1")
        if self.login_attempts < 1 or self.login_address_attempts < 1:
            raise ServerError("the login attempt limits must be at least 1")
        if self.outbox_seconds <= 0 or self.outbox_max_delay < self.outbox_seconds:
            raise ServerError("the outbox retry times must be positive, the longest the longer")
        if self.outbox_hold <= 0:
            raise ServerError("the outbox hold must be positive")
        if self.video_retention <= 0 or self.video_margin < 0 or self.video_prune_seconds <= 0:
            raise ServerError(
                "the video retention and prune interval must be positive, the margin not negative"
            )
        if self.chat_messages < 1 or self.chat_window <= 0:
            raise ServerError("the chat rate limit needs at least 1 message in a positive window")
        if self.totals_interval < 0 or self.confirm_window < 0:
            raise ServerError("the totals interval and the confirm window cannot be negative")
        if self.lease_seconds <= 0 or self.ws_queue < 1:
            raise ServerError("the lease time and the client queue must be positive")
        if self.database_pool < 1:
            raise ServerError("the database pool needs at least one connection")
        object.__setattr__(self, "database_url", database_url(self.database_url))

    @property
    def production(self) -> bool:
        """Production mode: ``PUNTO_ENV=production``, or any server without demo data."""
        return self.environment == "production" or not self.demo

    def production_problems(self) -> list[str]:
        """Why this configuration may not serve in production mode (empty: it may)."""
        if not self.production:
            return []
        problems = []
        if self.secret is None:
            problems.append("set PUNTO_SECRET (at least 32 random characters) to sign tokens")
        elif len(self.secret) < 32:
            problems.append("PUNTO_SECRET must be at least 32 characters")
        if self.environment == "production" and self.demo:
            problems.append("demo accounts and self-registration are not for production")
        return problems

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return "sqlite" if self.database_url.startswith("sqlite") else "postgresql"

    @property
    def pace(self) -> Pace:
        """The pace of every table this server runs."""
        return Pace(
            card_seconds=self.card_delay,
            squeeze_seconds=self.squeeze_seconds,
            result_seconds=self.result_seconds,
            lightning_seconds=self.lightning_seconds,
        )

    def replace(self, **changes: object) -> Settings:
        """A copy with some settings changed."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> Settings:
        """Settings from ``PUNTO_*`` variables (``env``, default the process environment),
        then ``overrides`` (command-line options) where not ``None``."""
        env = os.environ if env is None else env
        values: dict[str, object] = {}
        text = {
            "PUNTO_DATABASE_URL": "database_url",
            "PUNTO_REDIS_URL": "redis_url",
            "PUNTO_REDIS_PREFIX": "redis_prefix",
            "PUNTO_SECRET": "secret",
            "PUNTO_PROCESS_ID": "process_id",
            "PUNTO_WALLET": "wallet",
            "PUNTO_WALLET_URL": "wallet_url",
            "PUNTO_WALLET_API_KEY": "wallet_api_key",
            "PUNTO_WALLET_SECRET": "wallet_secret",
            "PUNTO_WALLET_DIALECT": "wallet_dialect",
            "PUNTO_WALLET_KEY": "wallet_key",
            "PUNTO_WALLET_CURRENCY": "wallet_currency",
            "PUNTO_OPERATOR_ID": "operator_id",
            "PUNTO_CURRENCY": "currency",
            "PUNTO_LOG_LEVEL": "log_level",
            "PUNTO_ENV": "environment",
        }
        floats = {
            "PUNTO_TOKEN_TTL": "token_ttl",
            "PUNTO_LOGIN_WINDOW": "login_window",
            "PUNTO_LOGIN_DELAY": "login_delay",
            "PUNTO_BETTING_SECONDS": "betting_seconds",
            "PUNTO_CARD_DELAY": "card_delay",
            "PUNTO_SQUEEZE_SECONDS": "squeeze_seconds",
            "PUNTO_RESULT_SECONDS": "result_seconds",
            "PUNTO_LIGHTNING_SECONDS": "lightning_seconds",
            "PUNTO_LEASE_SECONDS": "lease_seconds",
            "PUNTO_OUTBOX_SECONDS": "outbox_seconds",
            "PUNTO_OUTBOX_MAX_DELAY": "outbox_max_delay",
            "PUNTO_OUTBOX_HOLD": "outbox_hold",
            "PUNTO_CONFIRM_WINDOW": "confirm_window",
            "PUNTO_TOTALS_INTERVAL": "totals_interval",
            "PUNTO_VIDEO_RETENTION": "video_retention",
            "PUNTO_VIDEO_MARGIN": "video_margin",
            "PUNTO_VIDEO_PRUNE_SECONDS": "video_prune_seconds",
            "PUNTO_CHAT_WINDOW": "chat_window",
            "PUNTO_SEAT_GRACE": "seat_grace",
        }
        ints = {
            "PUNTO_WS_QUEUE": "ws_queue",
            "PUNTO_CONFIRM_BATCH": "confirm_batch",
            "PUNTO_CONFIRM_WRITERS": "confirm_writers",
            "PUNTO_DATABASE_POOL": "database_pool",
            "PUNTO_MAX_TABLES": "max_tables",
            "PUNTO_RNG_SEED": "rng_seed",
            "PUNTO_DEMO_BALANCE": "demo_balance",
            "PUNTO_PASSWORD_COST": "password_cost",
            "PUNTO_LOGIN_ATTEMPTS": "login_attempts",
            "PUNTO_LOGIN_ADDRESS_ATTEMPTS": "login_address_attempts",
            "PUNTO_CHAT_MESSAGES": "chat_messages",
        }
        for name, attr in text.items():
            if env.get(name):
                values[attr] = env[name]
        try:
            for name, attr in floats.items():
                if env.get(name):
                    values[attr] = float(env[name])
            for name, attr in ints.items():
                if env.get(name):
                    values[attr] = int(env[name])
        except ValueError as exc:
            raise ServerError(f"bad server setting: {exc}") from None
        if env.get("PUNTO_DEMO"):
            values["demo"] = env["PUNTO_DEMO"].lower() not in ("0", "false", "no")
        if env.get("PUNTO_WS_DEFLATE"):
            values["ws_deflate"] = env["PUNTO_WS_DEFLATE"].lower() not in ("0", "false", "no")
        if env.get("PUNTO_ALLOWED_ORIGINS"):
            origins = env["PUNTO_ALLOWED_ORIGINS"].split(",")
            values["allowed_origins"] = tuple(o.strip().rstrip("/") for o in origins if o.strip())
        if env.get("PUNTO_WEB_DIR"):
            values["web_dir"] = Path(env["PUNTO_WEB_DIR"])
        if env.get("PUNTO_RECORDINGS_DIR"):
            values["recordings_dir"] = Path(env["PUNTO_RECORDINGS_DIR"])
        if env.get("PUNTO_DEALER_PHOTOS"):
            photos = env["PUNTO_DEALER_PHOTOS"].strip()
            if not photos.startswith(("https://", "http://", "/")) or "{dealer}" not in photos:
                raise ServerError(
                    "bad server setting: PUNTO_DEALER_PHOTOS is an http(s) or /path URL "
                    f"holding {{dealer}}, not {photos!r}"
                )
            values["dealer_photos"] = photos
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
