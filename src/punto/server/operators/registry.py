"""Registering an operator: its checked fields and its first secret (the CLI's
``punto operators add`` and the administrators' ``POST /api/admin/operators``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from punto.errors import ProtocolError
from punto.ledger.signing import new_rsa_key, new_secret
from punto.server.operators.limits import LimitGroup
from punto.server.operators.model import (
    DIALECTS,
    LANGUAGES,
    Operator,
    check_currencies,
    check_operator_id,
    check_origin,
)
from punto.server.store.operators import OperatorStore

__all__ = ["check_limit_groups", "register"]


def check_limit_groups(currencies: Sequence[str], groups: Mapping[str, LimitGroup]) -> None:
    """Refuse limit groups naming a currency the operator has not enabled."""
    for group in groups.values():
        for code in group.currencies:
            if code not in currencies:
                raise ProtocolError(
                    f"limit group {group.name!r} names {code}, which the operator has not "
                    f"enabled ({', '.join(currencies)})"
                )


async def register(
    store: OperatorStore,
    operator_id: str,
    *,
    name: str,
    currencies: Sequence[str],
    now: float,
    languages: Sequence[str] = LANGUAGES,
    origins: Sequence[str] = (),
    wallet_url: str | None = None,
    dialect: str = "punto",
    limit_groups: Mapping[str, LimitGroup] | None = None,
) -> tuple[Operator, str]:
    """Add an operator; it and its new secret (shown once, never again). A hub88 operator
    also gets the key pair that signs Punto's calls to its wallet (its public key:
    :func:`punto.ledger.signing.public_key_of` of ``store.wallet_key``)."""
    if dialect not in DIALECTS:
        raise ProtocolError(f"the wallet dialect is one of {', '.join(DIALECTS)}")
    unknown = [code for code in languages if code not in LANGUAGES]
    if unknown or not languages:
        raise ProtocolError(f"the languages are some of {', '.join(LANGUAGES)}")
    if not name.strip() or len(name) > 100 or not name.isprintable():
        raise ProtocolError("an operator's name is 1-100 printable characters")
    if wallet_url is not None and not wallet_url.startswith(("https://", "http://")):
        raise ProtocolError("the wallet URL is an http(s) address")
    operator = Operator(
        id=check_operator_id(operator_id),
        name=name.strip(),
        currencies=check_currencies(list(currencies)),
        languages=tuple(dict.fromkeys(languages)),
        origins=tuple(dict.fromkeys(check_origin(origin) for origin in origins)),
        wallet_url=wallet_url,
        dialect=dialect,
        disabled=False,
        secret_version=1,
        created_at=now,
        limit_groups=dict(limit_groups or {}),
    )
    check_limit_groups(operator.currencies, operator.limit_groups)
    secret = new_secret()
    key = new_rsa_key() if dialect == "hub88" else None
    await store.add(operator, secret=secret, wallet_key=key)
    return operator, secret
