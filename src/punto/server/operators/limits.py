"""An operator's limit groups: which amounts its players bet on each table tier, in each
of its currencies.

A table's tiers (``low``, ``high``, ``vip`` …) and chips are in the house currency. A
limit group names, for each currency, the chips and each tier's amounts there::

    {"standard": {"JPY": {"chips": [100, 500, 1000, 5000],
                          "tiers": {"low": {"min_bet": 100, "max_bet": 100000,
                                            "side_min": 100, "side_max": 20000}}}}}

A launch may name one of its operator's groups (``limit_group``); with none, the group
``default`` if the operator has one. A player in the house currency with no amounts of the
group plays on the table's own; a player in another currency needs them: no exchange rate
turns one currency's limits into another's.

>>> groups = limit_groups_from_json({"standard": {"JPY": {"chips": [100, 500], "tiers": {
...     "low": {"min_bet": 100, "max_bet": 100000, "side_min": 100, "side_max": 20000}}}}})
>>> groups["standard"].purse("JPY", digits=0, book="JPY").tier("low").max_bet
100000
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from punto.codec import tier_from_json, tier_json
from punto.errors import ProtocolError, PuntoError, SeatError
from punto.table.purses import Purse
from punto.tiers import LimitTier

__all__ = [
    "DEFAULT_GROUP",
    "CurrencyLimits",
    "LimitGroup",
    "limit_groups_from_json",
    "limit_groups_json",
]

DEFAULT_GROUP = "default"
"""The group of a launch that names none."""

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$")
_CODE = re.compile(r"^[A-Z]{3}$")


@dataclass(frozen=True, slots=True)
class CurrencyLimits:
    """One currency's chips and tier amounts in a limit group."""

    chips: tuple[int, ...]
    tiers: Mapping[str, LimitTier]


@dataclass(frozen=True, slots=True)
class LimitGroup:
    """A named set of amounts by currency."""

    name: str
    currencies: Mapping[str, CurrencyLimits]

    def purse(self, currency: str, *, digits: int, book: str) -> Purse:
        """The purse of a player of this group in ``currency``; :class:`SeatError` when
        the group has no amounts in it."""
        limits = self.currencies.get(currency)
        if limits is None:
            raise SeatError(f"the limit group {self.name!r} has no limits in {currency}")
        return Purse(currency, digits=digits, book=book, tiers=limits.tiers, chips=limits.chips)


def limit_groups_from_json(data: object) -> dict[str, LimitGroup]:
    """Limit groups from their JSON, checked; :class:`ProtocolError` says what is wrong."""
    if not isinstance(data, Mapping):
        raise ProtocolError("limit groups are an object of groups by name")
    groups: dict[str, LimitGroup] = {}
    for name, by_currency in data.items():
        if not isinstance(name, str) or not _NAME.match(name):
            raise ProtocolError(f"a limit group's name is 1-32 of A-Z a-z 0-9 _ -, not {name!r}")
        if not isinstance(by_currency, Mapping) or not by_currency:
            raise ProtocolError(f"limit group {name!r} maps currencies to their limits")
        currencies: dict[str, CurrencyLimits] = {}
        for code, limits in by_currency.items():
            if not isinstance(code, str) or not _CODE.match(code):
                raise ProtocolError(f"limit group {name!r}: {code!r} is not an ISO 4217 code")
            currencies[code] = _currency_limits(name, code, limits)
        groups[name] = LimitGroup(name, currencies)
    return groups


def _currency_limits(group: str, code: str, data: object) -> CurrencyLimits:
    where = f"limit group {group!r} in {code}"
    if not isinstance(data, Mapping) or set(data) != {"chips", "tiers"}:
        raise ProtocolError(f"{where}: an object of chips and tiers")
    chips, tiers = data["chips"], data["tiers"]
    if not isinstance(chips, list) or not chips:
        raise ProtocolError(f"{where}: chips are a list of amounts in minor units")
    if not isinstance(tiers, Mapping) or not tiers:
        raise ProtocolError(f"{where}: tiers map a table tier's name to its amounts")
    parsed: dict[str, LimitTier] = {}
    for tier_name, amounts in tiers.items():
        if not isinstance(amounts, Mapping):
            raise ProtocolError(f"{where}: the {tier_name!r} amounts are an object")
        try:
            parsed[str(tier_name)] = tier_from_json({**amounts, "name": tier_name})
        except PuntoError as exc:
            raise ProtocolError(f"{where}, tier {tier_name!r}: {exc}") from None
    try:
        # a purse checks the chips as a player's table would
        Purse(code, digits=0, book=code, tiers=parsed, chips=tuple(chips))
    except PuntoError as exc:
        raise ProtocolError(f"{where}: {exc}") from None
    return CurrencyLimits(tuple(chips), parsed)


def limit_groups_json(groups: Mapping[str, LimitGroup]) -> dict[str, Any]:
    """Limit groups as JSON (what :func:`limit_groups_from_json` reads)."""
    out: dict[str, Any] = {}
    for name, group in groups.items():
        out[name] = {
            code: {
                "chips": list(limits.chips),
                "tiers": {
                    t: {k: v for k, v in tier_json(tier).items() if k != "name"}
                    for t, tier in limits.tiers.items()
                },
            }
            for code, limits in group.currencies.items()
        }
    return out
