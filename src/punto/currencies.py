"""ISO 4217 currencies and their minor units (the digits after the decimal point), read
once from ``punto/data/iso4217_minor_units.json``; what the operators' currencies and the
wallet dialects' amount conversions share.

>>> minor_units("EUR"), minor_units("JPY"), minor_units("KWD")
(2, 0, 3)
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from punto.errors import ProtocolError

__all__ = ["is_currency", "minor_units"]


@cache
def _iso4217() -> tuple[frozenset[str], dict[str, int], int]:
    text = resources.files("punto").joinpath("data", "iso4217_minor_units.json").read_text("utf-8")
    data = json.loads(text)
    return (
        frozenset(data["currencies"]),
        dict(data["minor_units"]),
        int(data["default_minor_units"]),
    )


def is_currency(code: str) -> bool:
    """Whether ``code`` is a current ISO 4217 currency code."""
    return code in _iso4217()[0]


def minor_units(currency: str) -> int:
    """The digits after the decimal point of an ISO 4217 currency (JPY 0, EUR 2, KWD 3);
    :class:`ProtocolError` for a code that is not one."""
    codes, units, default = _iso4217()
    if currency not in codes:
        raise ProtocolError(f"{currency!r} is not a current ISO 4217 currency code")
    return units.get(currency, default)
