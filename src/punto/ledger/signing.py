"""Request signatures of operator calls, both ways (a launch to Punto, a wallet call to the
operator): ``X-Punto-Signature: sha256=<hex HMAC-SHA256(secret, signed bytes)>``; the signed
bytes are the raw body, or for a call with no body its path and query.

The hub88 wallet dialect signs with a key pair instead: ``X-Hub88-Signature: <base64 of the
RSA PKCS#1 v1.5 SHA-256 signature of the raw body>`` by the caller's private key, checked
with its public key (:func:`rsa_signature`, :func:`rsa_verify`; the ``cryptography``
package, of the ``server`` extra).

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

import base64
import binascii
import hashlib
import hmac
import secrets
from typing import Any

from punto.errors import AuthError

__all__ = [
    "HUB88_SIGNATURE_HEADER",
    "SIGNATURE_HEADER",
    "new_rsa_key",
    "new_secret",
    "public_key_of",
    "rsa_signature",
    "rsa_verify",
    "signature",
    "verify",
]

SIGNATURE_HEADER = "X-Punto-Signature"
HUB88_SIGNATURE_HEADER = "X-Hub88-Signature"
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


def new_rsa_key(bits: int = 2048) -> str:
    """A new RSA private key, PEM (PKCS#8, unencrypted): what signs a hub88 wallet's calls."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


def _private(pem: str) -> Any:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    try:
        key = serialization.load_pem_private_key(pem.encode(), password=None)
    except (ValueError, TypeError) as exc:
        raise AuthError(f"not an unencrypted PEM private key: {exc}") from None
    if not isinstance(key, rsa.RSAPrivateKey):
        raise AuthError("the signing key is not an RSA key")
    return key


def public_key_of(private_pem: str) -> str:
    """The PEM public key (SubjectPublicKeyInfo) of a PEM private key: what the operator
    keeps to check Punto's calls."""
    from cryptography.hazmat.primitives import serialization

    public = _private(private_pem).public_key()
    return str(
        public.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        ).decode()
    )


def rsa_signature(private_pem: str, body: bytes) -> str:
    """``X-Hub88-Signature``'s value for ``body``: base64 of its RSA-SHA256 signature."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    signed = _private(private_pem).sign(body, padding.PKCS1v15(), hashes.SHA256())
    return base64.b64encode(signed).decode()


def rsa_verify(public_pem: str, body: bytes, header: str | None) -> None:
    """Nothing when ``header`` is the RSA-SHA256 signature of ``body`` by the private key
    of ``public_pem``; :class:`AuthError` otherwise."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import padding, rsa

    if not header:
        raise AuthError(f"sign the request: {HUB88_SIGNATURE_HEADER}: <base64 RSA-SHA256>")
    try:
        raw = base64.b64decode(header.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise AuthError(f"{HUB88_SIGNATURE_HEADER} is not base64") from None
    public = serialization.load_pem_public_key(public_pem.encode())
    if not isinstance(public, rsa.RSAPublicKey):
        raise AuthError("the checking key is not an RSA key")
    try:
        public.verify(raw, body, padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        raise AuthError(f"the request's {HUB88_SIGNATURE_HEADER} does not match its body") from None
