"""The rules document: every field of Rules as JSON, both ways, with typed errors naming
the field; ``punto rules show`` and ``--rules FILE.json`` on the commands that deal."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from punto.bets import Bet
from punto.cli import main
from punto.errors import PresetError, RulesError
from punto.rules import PRESETS, BurnRule, LastHandRule, preset
from punto.rules_document import (
    DOCUMENT_FIELDS,
    compose,
    load_rules,
    rules_from_document,
    rules_to_document,
)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_round_trips_through_its_document(name: str) -> None:
    rules = preset(name)
    doc = rules_to_document(rules)
    assert list(doc) == [f.name for f in dataclasses.fields(rules)]
    # Through JSON text too: the document is plain data.
    assert rules_from_document(json.loads(json.dumps(doc))) == rules


def test_document_names_paytables_and_policies_by_name() -> None:
    doc = rules_to_document(preset("online_8deck"))
    assert doc["paytables"]["super_tie_0"] == "super_tie_0_150"
    assert doc["close_from_hand"] == {
        "big": 31,
        "small": 31,
        **{f"super_tie_{k}": 31 for k in range(10)},
    }
    assert doc["tie_policy"] == "return"
    assert doc["limit_tiers"][0]["bet_limits"] == {"tie": [500, 50000]}


@pytest.mark.parametrize(
    ("overrides", "check"),
    [
        ({"decks": 6}, lambda r: r.decks == 6),
        ({"demo_hands": 3}, lambda r: r.demo_hands == 3),
        ({"burn": "none"}, lambda r: r.burn is BurnRule.NONE),
        ({"last_hand": "last_hand"}, lambda r: r.last_hand is LastHandRule.LAST_HAND),
        ({"tie_policy": "sjm"}, lambda r: r.tie_policy.name == "sjm"),
        ({"max_imbalance": None}, lambda r: r.max_imbalance is None),
        ({"close_from_hand": {"tie": 40}}, lambda r: dict(r.close_from_hand) == {Bet.TIE: 40}),
        ({"continuous_shuffler": True}, lambda r: r.continuous_shuffler),
    ],
)
def test_compose_overrides_any_field(overrides: dict[str, Any], check: Any) -> None:
    assert check(compose("macau", overrides))


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        ({"decks": 13}, "decks", "decks must be 1-12"),
        ({"decks": "8"}, "decks", "whole number"),
        ({"demo_hands": 4}, "demo_hands", "demo hands must be 0-3"),
        ({"burn": "half"}, "burn", "not one of: none, decks, first_card_value"),
        ({"tie_policy": "kind"}, "tie_policy", "not one of"),
        ({"paytables": {"banker": "tie_8"}}, "paytables", "is for tie, not banker"),
        ({"paytables": {"banker": "nope"}}, "paytables", "unknown paytable"),
        ({"paytables": {"blackjack": "player"}}, "paytables", "not a bet"),
        ({"paytables": {}}, "paytables", "at least one bet"),
        ({"cut_min_from_end": 2}, "cut_min_from_end", "at least 12 cards"),
        ({"max_imbalance": -5}, "max_imbalance", "positive"),
        ({"limit_tiers": [{"name": "x"}]}, "limit_tiers", "needs max_bet"),
        ({"one_side_only": 1}, "one_side_only", "true or false"),
        ({"colour": "red"}, "colour", "not a rules setting"),
    ],
)
def test_bad_overrides_are_typed_errors_naming_the_field(
    overrides: dict[str, Any], field: str, words: str
) -> None:
    with pytest.raises(RulesError, match=words) as caught:
        compose("macau", overrides)
    assert caught.value.field == field


def test_unknown_preset_and_incomplete_document() -> None:
    with pytest.raises(PresetError) as caught:
        compose("vegas")
    assert caught.value.field == "preset"
    doc = rules_to_document(preset("macau"))
    del doc["tie_policy"]
    with pytest.raises(RulesError, match="missing") as missing:
        rules_from_document(doc)
    assert missing.value.field == "tie_policy"
    assert set(DOCUMENT_FIELDS) == set(rules_to_document(preset("macau")))


def _write(tmp_path: Path, doc: dict[str, Any]) -> str:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_rules_show_json_is_the_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "show", "macau", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == rules_to_document(preset("macau"))
    assert main(["rules", "list"]) == 0
    assert "super_punto_banco" in capsys.readouterr().out


def test_commands_take_a_rules_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = rules_to_document(preset("macau"))
    doc["paytables"]["tie"] = "tie_9"
    doc["demo_hands"] = 2
    path = _write(tmp_path, doc)
    assert load_rules(path).paytables[Bet.TIE] == "tie_9"
    assert main(["edge", "--json", "--rules", path]) == 0
    assert json.loads(capsys.readouterr().out)["bets"]["tie"]["paytable"] == "tie_9"
    assert main(["shoe", "--json", "--rules", path, "--seed", "3", "--hands", "2"]) == 0
    assert len(json.loads(capsys.readouterr().out)["demo_hands"]) == 2
    assert main(["settle", "--json", "--rules", path, "--bets", "tie=10", "5S 4D 4C 5H"]) == 0
    assert json.loads(capsys.readouterr().out)["net"]["tie"] == 90
    assert main(["simulate", "--json", "--rules", path, "--hands", "200", "--seed", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["hands"] == 200


def test_a_bad_document_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = rules_to_document(preset("macau"))
    doc["decks"] = 0
    assert main(["edge", "--rules", _write(tmp_path, doc)]) == 2
    assert "decks must be 1-12, not 0" in capsys.readouterr().err
    assert main(["edge", "--rules", str(tmp_path / "missing.json")]) == 2
    assert "cannot read the rules document" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    assert main(["shoe", "--rules", str(tmp_path / "bad.json")]) == 2
    assert "is not JSON" in capsys.readouterr().err
