"""A table's display names per language (punto.server.tables.configs.TableConfig ``names``): only
the client's languages, each a non-empty name of at most 100 characters without control
characters (anything else a typed ProtocolError); they survive to_json/from_json and the
stored form (JSON text); every demo table has its Simplified and Traditional Chinese name."""

from __future__ import annotations

import json
from typing import Any

import pytest

from punto.errors import ProtocolError
from punto.server.tables.configs import DEMO_TABLES, NAME_LANGUAGES, NAME_MAX, TableConfig


def _config(**extra: Any) -> TableConfig:
    return TableConfig.from_json({"id": "t1", "name": "Macau", "rules": "macau", **extra})


def test_names_round_trip_through_json_and_storage_text() -> None:
    config = _config(names={"zh-Hant": "澳門", "zh": "澳门"})
    assert dict(config.names) == {"zh": "澳门", "zh-Hant": "澳門"}
    assert TableConfig.from_json(config.to_json()) == config
    stored = {**config.to_json(), "names": json.dumps(dict(config.names), ensure_ascii=False)}
    assert TableConfig.from_json(stored) == config
    assert _config().names == {}
    assert _config(names=None).names == {}
    assert TableConfig.from_json({**config.to_json(), "names": "{}"}).names == {}


def test_names_are_read_only() -> None:
    config = _config(names={"zh": "澳门"})
    with pytest.raises(TypeError):
        config.names["zh"] = "x"  # type: ignore[index]


@pytest.mark.parametrize(
    "names",
    [
        {"fr": "Macao"},  # not a language of the client
        {"zh-TW": "澳門"},
        {"ZH": "澳门"},
        {"zh": ""},
        {"zh": "   "},
        {"zh": "x" * (NAME_MAX + 1)},
        {"zh": "澳\n门"},
        {"zh": "澳\x00门"},
        {"zh": "澳\u2028门"},
        {"zh": 7},
        {"zh": None},
        ["zh", "澳门"],
        "not json",
        "[1]",
    ],
)
def test_bad_names_are_a_typed_error(names: object) -> None:
    with pytest.raises(ProtocolError):
        _config(names=names)


@pytest.mark.parametrize("name", ["", " ", "a\tb", "x" * (NAME_MAX + 1)])
def test_the_default_name_is_checked_too(name: str) -> None:
    with pytest.raises(ProtocolError):
        _config(name=name)
    with pytest.raises(ProtocolError):
        _config().replace(name=name)


def test_the_longest_name_and_every_language_are_accepted() -> None:
    names = dict.fromkeys(NAME_LANGUAGES, "名" * NAME_MAX)
    assert dict(_config(names=names).names) == names
    assert _config().replace(names={"zh": "澳门"}).names == {"zh": "澳门"}


def test_every_demo_table_has_chinese_names() -> None:
    for table in DEMO_TABLES:
        assert set(table.names) == {"zh", "zh-Hant"}, table.id
        assert all(not n.isascii() for n in table.names.values()), table.id
    macau = next(t for t in DEMO_TABLES if t.id == "macau-1")
    assert (macau.name, macau.names["zh"], macau.names["zh-Hant"]) == ("Macau", "澳门", "澳門")
