"""Request signatures of operator calls, both ways (a launch to Punto, a wallet call to the
operator): ``X-Punto-Signature: sha256=<hex HMAC-SHA256(secret, signed bytes)>``; the signed
bytes are the raw body, or for a call with no body its path and query.

>>> header = signature("s3cret", b'{"player_id": "p1"}')
>>> header.startswith("sha256=") and len(header) == 71
True
>>> verify("s3cret", b'{"player_id": "p1"}', header)
>>> verify("s3cret", b'{"player_id": "p2"}', header)
Traceback (most recent call last):
...
punto.errors.AuthError: the request's X-Punto-Signature does not match its body
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from punto.errors import AuthError

__all__ = ["SIGNATURE_HEADER", "new_secret", "signature", "verify"]

SIGNATURE_HEADER = "X-Punto-Signature"
_PREFIX = "sha256="


def new_secret() -> str:
    """A new operator secret: 256 random bits, URL-safe."""
    return f"pso_{secrets.token_urlsafe(32)}"


def signature(secret: str, body: bytes) -> str:
    """The signature header's value for ``body``."""
    return _PREFIX + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify(secret: str, body: bytes, header: str | None) -> None:
    """Nothing when ``header`` signs ``body`` with ``secret``; :class:`AuthError` otherwise
    (compared in constant time)."""
    if not header:
        raise AuthError(f"sign the request: {SIGNATURE_HEADER}: sha256=<hex HMAC-SHA256>")
    if not header.startswith(_PREFIX):
        raise AuthError(f"{SIGNATURE_HEADER} must be sha256=<hex HMAC-SHA256 of the body>")
    if not hmac.compare_digest(signature(secret, body), header.strip()):
        raise AuthError(f"the request's {SIGNATURE_HEADER} does not match its body")
