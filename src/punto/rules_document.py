"""The rules document: every setting of :class:`~punto.rules.Rules` as plain JSON data.

One codec, both ways: :func:`rules_to_document` writes every field of the dataclass
(paytables and the tie policy by name, enums by value, limits in minor units) and
:func:`rules_from_document` reads it back, validating every key and value. A document
is what ``punto rules show NAME --json`` prints, what ``--rules FILE.json`` reads and
what the back office stores with a table. :func:`compose` builds one from a preset (a
named starting point) plus overrides of any field.

Every refusal is a :class:`~punto.errors.RulesError` whose ``field`` names the key to
blame, so a form can point at it.

>>> doc = rules_to_document(preset("macau"))
>>> doc["burn"], doc["paytables"]["banker"], doc["tie_policy"]
('first_card_value', 'banker_commission', 'macau')
>>> rules_from_document(doc) == preset("macau")
True
>>> compose("macau", {"demo_hands": 3}).demo_hands
3
>>> compose("macau", {"decks": 13})
Traceback (most recent call last):
...
punto.errors.RulesError: decks must be 1-12, not 13
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from punto.bets import Bet
from punto.codec import tier_from_json, tier_json
from punto.errors import PresetError, RulesError
from punto.limits import LimitTier
from punto.money import Rounding
from punto.multipliers import LightningTable
from punto.paytables import paytable
from punto.peek import PeekRules
from punto.rules import BurnRule, LastHandRule, Rules, preset
from punto.tie_options import TIE_POLICIES, TiePolicy

__all__ = [
    "DOCUMENT_FIELDS",
    "OPTIONAL_FIELDS",
    "compose",
    "load_rules",
    "overrides_of",
    "rules_from_document",
    "rules_to_document",
]

DOCUMENT_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))
"""The keys of a rules document: every field of :class:`Rules`, in its order."""


def rules_to_document(rules: Rules) -> dict[str, Any]:
    """Every field of ``rules`` as JSON data (the inverse of :func:`rules_from_document`)."""
    doc: dict[str, Any] = {}
    for name in DOCUMENT_FIELDS:
        value = getattr(rules, name)
        if name == "paytables":
            value = {bet.value: table for bet, table in value.items()}
        elif name == "close_from_hand":
            value = {bet.value: hand for bet, hand in value.items()}
        elif name == "limit_tiers":
            value = [tier_json(tier) for tier in value]
        elif name == "tie_policy":
            value = value.name
        elif name == "lightning" and value is not None:
            value = _lightning_json(value)
        elif name == "peek" and value is not None:
            value = _peek_json(value)
        elif isinstance(value, enum.Enum):
            value = value.value
        doc[name] = value
    return doc


def _fraction_text(value: Fraction) -> str:
    """A fraction as text that reads back exactly (``"1/5"``, ``"5"``)."""
    return str(value)


def _lightning_json(table: LightningTable) -> dict[str, Any]:
    return {
        "name": table.name,
        "count_weights": {str(k): w for k, w in table.count_weights.items()},
        "multiplier_weights": {str(m): w for m, w in table.multiplier_weights.items()},
        "fee": _fraction_text(table.fee),
        "cap": table.cap,
        "multiplied_odds": {
            bet.value: _fraction_text(odds) for bet, odds in table.multiplied_odds.items()
        },
        "source": table.source,
    }


def _peek_json(peek: PeekRules) -> dict[str, Any]:
    return {
        "name": peek.name,
        "raises": list(peek.raises),
        "stake_fee": _fraction_text(peek.stake_fee),
        "raise_fee": _fraction_text(peek.raise_fee),
        "revealed": peek.revealed,
        "source": peek.source,
    }


def _fail(field: str, message: str) -> RulesError:
    return RulesError(f"{field}: {message}", field=field)


def _bet(field: str, key: object) -> Bet:
    try:
        return Bet(key)
    except ValueError:
        raise _fail(field, f"{key!r} is not a bet") from None


def _mapping(field: str, value: object) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise _fail(field, f"must be an object, not {value!r}")
    return value


def _whole(field: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(field, f"must be a whole number, not {value!r}")
    return value


_E = TypeVar("_E", bound=enum.Enum)


def _enum(kind: type[_E]) -> Callable[[str, object], _E]:
    def read(field: str, value: object) -> _E:
        try:
            return kind(value)
        except ValueError:
            known = ", ".join(str(member.value) for member in kind)
            raise _fail(field, f"{value!r} is not one of: {known}") from None

    return read


def _paytables(field: str, value: object) -> Mapping[Bet, str]:
    out: dict[Bet, str] = {}
    for key, name in _mapping(field, value).items():
        bet = _bet(field, key)
        if not isinstance(name, str):
            raise _fail(field, f"the paytable of {key} is named by a string, not {name!r}")
        try:
            paytable(name)
        except RulesError as exc:
            raise _fail(field, str(exc)) from None
        out[bet] = name
    return MappingProxyType(out)


def _close_from_hand(field: str, value: object) -> Mapping[Bet, int]:
    return MappingProxyType(
        {_bet(field, key): _whole(field, hand) for key, hand in _mapping(field, value).items()}
    )


def _tier(field: str, data: object) -> LimitTier:
    try:
        return tier_from_json(data)
    except RulesError as exc:
        raise _fail(field, str(exc)) from None


def _tiers(field: str, value: object) -> tuple[LimitTier, ...]:
    if not isinstance(value, list | tuple):
        raise _fail(field, f"must be a list of limit tiers, not {value!r}")
    return tuple(_tier(field, item) for item in value)


def _tie_policy(field: str, value: object) -> TiePolicy:
    if not isinstance(value, str) or value not in TIE_POLICIES:
        raise _fail(field, f"{value!r} is not one of: {', '.join(TIE_POLICIES)}")
    return TIE_POLICIES[value]


def _text(field: str, value: object) -> str:
    if not isinstance(value, str):
        raise _fail(field, f"must be text, not {value!r}")
    return value


def _flag(field: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise _fail(field, f"must be true or false, not {value!r}")
    return value


def _optional_whole(field: str, value: object) -> int | None:
    return None if value is None else _whole(field, value)


def _optional_seconds(field: str, value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _fail(field, f"must be a number of seconds or null, not {value!r}")
    return float(value)


def _optional_edge(field: str, value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _fail(field, f"must be a fraction of the stake (0.01 is 1%) or null, not {value!r}")
    return float(value)


def _read_fraction(field: str, key: str, value: object) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise _fail(field, f'{key} must be a fraction as text (e.g. "1/5"), not {value!r}')
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise _fail(
            field, f'{key} must be a fraction as text (e.g. "1/5"), not {value!r}'
        ) from None


def _int_keys(field: str, key: str, value: object) -> dict[int, int]:
    out: dict[int, int] = {}
    for k, w in _mapping(field, value).items():
        if not isinstance(k, str) or not k.isdigit():
            raise _fail(field, f"{key}: {k!r} is not a whole number")
        out[int(k)] = _whole(field, w)
    return out


def _keys(field: str, data: Mapping[str, Any], required: set[str], known: set[str]) -> None:
    unknown = sorted(set(data) - known)
    if unknown:
        raise _fail(field, f"{unknown[0]!r} is not a {field} setting")
    missing = sorted(required - set(data))
    if missing:
        raise _fail(field, f"{missing[0]!r} is missing")


def _lightning(field: str, value: object) -> LightningTable | None:
    """[LB] A multiplier table from its document (``null``: none)."""
    if value is None:
        return None
    data = _mapping(field, value)
    known = {
        "name",
        "count_weights",
        "multiplier_weights",
        "fee",
        "cap",
        "multiplied_odds",
        "source",
    }
    _keys(field, data, {"name", "count_weights", "multiplier_weights"}, known)
    settings: dict[str, Any] = {
        "name": _text(field, data["name"]),
        "count_weights": _int_keys(field, "count_weights", data["count_weights"]),
        "multiplier_weights": _int_keys(field, "multiplier_weights", data["multiplier_weights"]),
    }
    if "fee" in data:
        settings["fee"] = _read_fraction(field, "fee", data["fee"])
    if "cap" in data:
        settings["cap"] = _optional_whole(field, data["cap"])
    if "multiplied_odds" in data:
        settings["multiplied_odds"] = {
            _bet(field, k): _read_fraction(field, "multiplied_odds", v)
            for k, v in _mapping(field, data["multiplied_odds"]).items()
        }
    if "source" in data:
        settings["source"] = _text(field, data["source"])
    return LightningTable(**settings)


def _peek(field: str, value: object) -> PeekRules | None:
    """[PK] Peek rules from their document (``null``: none)."""
    if value is None:
        return None
    data = _mapping(field, value)
    known = {"name", "raises", "stake_fee", "raise_fee", "revealed", "source"}
    _keys(field, data, {"name"}, known)
    settings: dict[str, Any] = {"name": _text(field, data["name"])}
    if "raises" in data:
        raises = data["raises"]
        if not isinstance(raises, list | tuple):
            raise _fail(field, f"raises must be a list, not {raises!r}")
        settings["raises"] = tuple(_whole(field, r) for r in raises)
    for key in ("stake_fee", "raise_fee"):
        if key in data:
            settings[key] = _read_fraction(field, key, data[key])
    if "revealed" in data:
        settings["revealed"] = _whole(field, data["revealed"])
    if "source" in data:
        settings["source"] = _text(field, data["source"])
    return PeekRules(**settings)


_READERS: Mapping[str, Callable[[str, object], object]] = MappingProxyType(
    {
        "name": _text,
        "description": _text,
        "decks": _whole,
        "cut_min_from_end": _whole,
        "cut_max_from_end": _whole,
        "burn": _enum(BurnRule),
        "demo_hands": _whole,
        "last_hand": _enum(LastHandRule),
        "continuous_shuffler": _flag,
        "mid_shoe_burns": _flag,
        "paytables": _paytables,
        "rounding": _enum(Rounding),
        "currency_digits": _whole,
        "limit_tiers": _tiers,
        "max_imbalance": _optional_whole,
        "banker_multiple_of_min": _flag,
        "one_side_only": _flag,
        "close_from_hand": _close_from_hand,
        "tiger_with_main": _flag,
        "tie_policy": _tie_policy,
        "betting_seconds": _optional_seconds,
        "card_seconds": _optional_seconds,
        "result_seconds": _optional_seconds,
        "close_below_edge": _optional_edge,
        "lightning": _lightning,
        "peek": _peek,
    }
)
OPTIONAL_FIELDS: frozenset[str] = frozenset({"close_below_edge", "lightning", "peek"})
"""Keys a document written before they existed may lack (read as ``null``)."""
assert set(_READERS) == set(DOCUMENT_FIELDS), "a rules field without a document reader"


def _settings(data: Mapping[str, Any]) -> dict[str, object]:
    unknown = sorted(set(data) - set(DOCUMENT_FIELDS))
    if unknown:
        raise _fail(unknown[0], "not a rules setting")
    return {key: _READERS[key](key, value) for key, value in data.items()}


def rules_from_document(data: object) -> Rules:
    """The :class:`Rules` a complete document describes; :class:`RulesError` (its
    ``field`` set) for a missing, unknown or invalid key."""
    doc = _mapping("document", data)
    missing = [name for name in DOCUMENT_FIELDS if name not in doc and name not in OPTIONAL_FIELDS]
    if missing:
        raise _fail(missing[0], "missing from the rules document")
    return Rules(**_settings(doc))  # type: ignore[arg-type]


def compose(base: str, overrides: Mapping[str, Any] | None = None) -> Rules:
    """The preset ``base`` with some settings overridden (document keys and values).

    >>> compose("macau", {"tie_policy": "sjm", "burn": "decks"}).tie_policy.name
    'sjm'

    An override replaces the whole setting: ``paytables`` lists every bet offered.
    """
    try:
        start = preset(base)
    except PresetError as exc:
        raise PresetError(str(exc), field="preset") from None
    changes = _settings(_mapping("overrides", overrides or {}))
    return start.replace(**changes)


def overrides_of(base: str, rules: Rules) -> dict[str, Any]:
    """The settings of ``rules`` that differ from the preset ``base``, as document keys
    and values: ``compose(base, overrides_of(base, rules)) == rules``.

    >>> overrides_of("macau", preset("macau").replace(demo_hands=2))
    {'demo_hands': 2}
    """
    start = rules_to_document(preset(base))
    return {k: v for k, v in rules_to_document(rules).items() if start[k] != v}


def load_rules(text: str) -> Rules:
    """Rules from a preset name or the path of a rules document (``.json``)."""
    if not text.endswith(".json"):
        return preset(text)
    path = Path(text)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RulesError(f"cannot read the rules document {text}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise RulesError(f"the rules document {text} is not JSON: {exc}") from None
    return rules_from_document(data)
