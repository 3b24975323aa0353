"""The table server's settings: one frozen dataclass, read from the environment.

Every setting has a default that suits ``make run`` (SQLite in the working folder, demo
tables and accounts, the internal wallet). Tests pass short timers.

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
from punto.ledger.store import DEFAULT_DATABASE_URL, database_url

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
    secret: str = field(default_factory=lambda: secrets.token_hex(32))
    """HMAC key of the session tokens (random per run when not configured)."""
    token_ttl: float = 12 * 3600.0
    process_id: str = field(default_factory=_process_id)
    wallet: str = "internal"
    """``internal`` (transfer wallet in the ledger) or ``seamless`` (operator HTTP API)."""
    wallet_url: str | None = None
    wallet_api_key: str | None = None
    operator_id: str = "default"
    demo: bool = True
    """Create demo tables and accounts on first start; allow player self-registration."""
    demo_balance: int = 1_000_000
    betting_seconds: float | None = None
    """Override every table's betting time (tests, load runs); ``None``: the table's own."""
    card_delay: float = 0.6
    squeeze_seconds: float = 10.0
    result_seconds: float = 3.0
    lease_seconds: float = 10.0
    """How long a table's ownership lease lasts without renewal."""
    ws_queue: int = 1000
    """Outgoing messages a client may have waiting before it is dropped as too slow."""
    confirm_window: float = 0.002
    """Group commit: how long (seconds) a table waits for more confirms before writing a
    batch to the ledger (not at all when a full batch is waiting)."""
    confirm_batch: int = 500
    """Group commit: the most confirms written to the ledger in one transaction."""
    rng_seed: int | None = None
    """Seed the RNG tables' shuffles (tests only; ``None``: the system's randomness)."""
    password_cost: int = 2**14
    """scrypt's N for new password hashes."""
    web_dir: Path = WEB_DIR
    log_level: str = "INFO"

    def __post_init__(self) -> None:
        if self.wallet not in ("internal", "seamless"):
            raise ServerError(f"wallet must be internal or seamless, not {self.wallet!r}")
        if self.wallet == "seamless" and not self.wallet_url:
            raise ServerError("a seamless wallet needs PUNTO_WALLET_URL")
        if self.card_delay < 0 or self.result_seconds < 0 or self.squeeze_seconds < 0:
            raise ServerError("server timers cannot be negative")
        if self.betting_seconds is not None and self.betting_seconds <= 0:
            raise ServerError("the betting time must be positive")
        if self.lease_seconds <= 0 or self.ws_queue < 1:
            raise ServerError("the lease time and the client queue must be positive")
        object.__setattr__(self, "database_url", database_url(self.database_url))

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return "sqlite" if self.database_url.startswith("sqlite") else "postgresql"

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
            "PUNTO_OPERATOR_ID": "operator_id",
            "PUNTO_LOG_LEVEL": "log_level",
        }
        floats = {
            "PUNTO_TOKEN_TTL": "token_ttl",
            "PUNTO_BETTING_SECONDS": "betting_seconds",
            "PUNTO_CARD_DELAY": "card_delay",
            "PUNTO_SQUEEZE_SECONDS": "squeeze_seconds",
            "PUNTO_RESULT_SECONDS": "result_seconds",
            "PUNTO_LEASE_SECONDS": "lease_seconds",
            "PUNTO_CONFIRM_WINDOW": "confirm_window",
        }
        ints = {
            "PUNTO_WS_QUEUE": "ws_queue",
            "PUNTO_CONFIRM_BATCH": "confirm_batch",
            "PUNTO_RNG_SEED": "rng_seed",
            "PUNTO_DEMO_BALANCE": "demo_balance",
            "PUNTO_PASSWORD_COST": "password_cost",
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
        if env.get("PUNTO_WEB_DIR"):
            values["web_dir"] = Path(env["PUNTO_WEB_DIR"])
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
