"""Who is calling: roles, signed session tokens and password hashes.

A session token is ``base64url(claims) "." base64url(HMAC-SHA256(secret, claims))``; the
claims name the user, their role and when the token expires. Passwords are kept only as
scrypt hashes with a random salt (``hashlib.scrypt``).

>>> signer = TokenSigner("k" * 32, ttl=60)
>>> token, _ = signer.issue("ann", Role.PLAYER, "Ann", now=1000.0)
>>> signer.verify(token, now=1010.0).user_id
'ann'
>>> signer.verify(token, now=2000.0)
Traceback (most recent call last):
...
punto.errors.AuthError: the session token has expired: log in again
>>> check_password("open sesame", hash_password("open sesame", cost=2**10))
True
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass

from punto.errors import AuthError, ForbiddenError, ProtocolError
from punto.server.clock import WallClock
from punto.table.clock import Clock
from punto.table.views import Viewer

__all__ = [
    "ANONYMOUS",
    "Actor",
    "Role",
    "TokenSigner",
    "check_password",
    "check_user_name",
    "hash_password",
    "require_role",
]


class Role(enum.Enum):
    """A user's role; each may take only its own actions."""

    PLAYER = "player"
    DEALER = "dealer"
    SUPERVISOR = "supervisor"
    ADMIN = "admin"

    @property
    def viewer(self) -> Viewer:
        """How this role sees a table: players their own view, dealers every card,
        supervisors and administrators everything."""
        return {
            Role.PLAYER: Viewer.PLAYER,
            Role.DEALER: Viewer.DEALER,
            Role.SUPERVISOR: Viewer.AUDITOR,
            Role.ADMIN: Viewer.AUDITOR,
        }[self]


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sends a request: a user with a role, or an anonymous watcher (``role`` None)."""

    user_id: str | None
    role: Role | None
    name: str = ""
    expires_at: float | None = None
    token_id: str | None = None
    """The session token's id (``jti``), to revoke it."""

    @property
    def viewer(self) -> Viewer:
        """The table view this actor gets."""
        return Viewer.WATCHER if self.role is None else self.role.viewer

    @property
    def player(self) -> str:
        """The player id of a player actor; :class:`ForbiddenError` for anyone else."""
        if self.role is None or self.user_id is None:
            raise AuthError("log in as a player to do this")
        if self.role is not Role.PLAYER:
            raise ForbiddenError("only a logged-in player may do this")
        return self.user_id


ANONYMOUS = Actor(user_id=None, role=None, name="watcher")
"""A spectator without a token."""


def require_role(actor: Actor, *roles: Role, action: str) -> None:
    """Raise :class:`AuthError` for an anonymous actor and :class:`ForbiddenError` unless
    the actor has one of ``roles``.

    >>> require_role(Actor("dana", Role.DEALER), Role.SUPERVISOR, action="correct a hand")
    Traceback (most recent call last):
    ...
    punto.errors.ForbiddenError: a dealer may not correct a hand (needs: supervisor)
    """
    if actor.role is None:
        raise AuthError(f"log in to {action}")
    if actor.role not in roles:
        needs = ", ".join(r.value for r in roles)
        raise ForbiddenError(f"a {actor.role.value} may not {action} (needs: {needs})")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TokenSigner:
    """Issues and checks session tokens signed with HMAC-SHA256 under ``secret``; the
    time they are issued and checked at is ``clock``'s (epoch seconds), unless a call
    names its own ``now``."""

    def __init__(self, secret: str, *, ttl: float, clock: Clock | None = None) -> None:
        if len(secret) < 16:
            raise AuthError("the token secret must be at least 16 characters")
        self._key = secret.encode("utf-8")
        self._ttl = ttl
        self._clock: Clock = clock or WallClock()

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self._key, payload.encode("ascii"), hashlib.sha256).digest())

    def seal(self, purpose: str, text: str, *, expires: float) -> str:
        """A key proving this server granted ``text`` for ``purpose`` until ``expires``
        (a video clip's URL, which a ``<video>`` element fetches without the session
        token); :meth:`opens` checks it.

        >>> signer = TokenSigner("k" * 32, ttl=60)
        >>> key = signer.seal("clip", "T7-001-002", expires=100.0)
        >>> signer.opens(key, "clip", "T7-001-002", now=99.0)
        True
        >>> signer.opens(key, "clip", "T7-001-003", now=99.0)
        False
        >>> signer.opens(key, "clip", "T7-001-002", now=100.0)
        False
        """
        stamp = f"{int(expires)}"
        return f"{stamp}.{self._sign(f'{purpose}|{text}|{stamp}'.encode().hex())}"

    def opens(self, key: str, purpose: str, text: str, *, now: float | None = None) -> bool:
        """Whether ``key`` (from :meth:`seal`) grants ``text`` for ``purpose`` now."""
        stamp, dot, signature = key.partition(".")
        if not dot or not stamp.isdigit() or not key.isascii():
            return False
        expected = self._sign(f"{purpose}|{text}|{stamp}".encode().hex())
        if not hmac.compare_digest(signature.encode("ascii"), expected.encode("ascii")):
            return False
        return (self._clock.now() if now is None else now) < int(stamp)

    def issue(
        self, user_id: str, role: Role, name: str, *, now: float | None = None
    ) -> tuple[str, float]:
        """A token for ``user_id`` and when it expires."""
        issued = self._clock.now() if now is None else now
        expires = issued + self._ttl
        claims = {
            "sub": user_id,
            "role": role.value,
            "name": name,
            "iat": issued,
            "exp": expires,
            "jti": secrets.token_hex(12),
        }
        payload = _b64(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode())
        return f"{payload}.{self._sign(payload)}", expires

    def verify(self, token: str, *, now: float | None = None) -> Actor:
        """The actor a token names; :class:`AuthError` if it is forged, malformed or expired."""
        payload, dot, signature = token.strip().partition(".")
        if (
            not dot
            or not token.isascii()
            or not hmac.compare_digest(
                signature.encode("ascii", "replace"), self._sign(payload).encode("ascii")
            )
        ):
            raise AuthError("the session token is not valid: log in again")
        try:
            claims = json.loads(_unb64(payload))
            actor = Actor(
                user_id=str(claims["sub"]),
                role=Role(claims["role"]),
                name=str(claims.get("name", "")),
                expires_at=float(claims["exp"]),
                token_id=None if claims.get("jti") is None else str(claims["jti"]),
            )
        except (ValueError, KeyError, TypeError):
            raise AuthError("the session token is not valid: log in again") from None
        assert actor.expires_at is not None
        if (self._clock.now() if now is None else now) >= actor.expires_at:
            raise AuthError("the session token has expired: log in again")
        return actor


def hash_password(password: str, *, cost: int = 2**14) -> str:
    """``scrypt$N$r$p$salt$hash`` of ``password`` with a random salt."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=cost, r=8, p=1, dklen=32)
    return f"scrypt${cost}$8$1${_b64(salt)}${_b64(digest)}"


_USER_NAME = re.compile(r"^[a-z0-9_-]{3,32}$")


def check_user_name(user_id: str) -> str:
    """A username of a password account: 3-32 characters of a-z 0-9 _ - (a launched
    player's id, ``operator.player``, can never be one)."""
    if not _USER_NAME.match(user_id):
        raise ProtocolError("a username is 3-32 characters of a-z 0-9 _ -")
    return user_id


def check_password(password: str, stored: str) -> bool:
    """Whether ``password`` matches a :func:`hash_password` hash (constant time)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        mine = hashlib.scrypt(
            password.encode("utf-8"),
            salt=_unb64(salt),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(_unb64(digest)),
        )
    except ValueError:
        return False
    return hmac.compare_digest(mine, _unb64(digest))
