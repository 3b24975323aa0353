"""``punto edge`` and ``punto rules show`` for multiplier [LB] and Peek [PK] tables."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from cli_support import command_line, json_output

from punto.cli import edge
from punto.cli import rules as rules_cli
from punto.cli import settle as settle_cli
from punto.cli.play import Game
from punto.rules import preset

_main = command_line(edge, rules_cli)


def _json(capsys: pytest.CaptureFixture[str], argv: Sequence[str]) -> dict[str, Any]:
    return json_output(capsys, _main, argv)


def test_lb_edge_json_prices_every_bet_with_the_fee(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, ["edge", "--json", "--rules", "lightning"])
    bets = doc["bets"]
    assert round(bets["player"]["house_edge"], 6) == 0.013318
    assert round(bets["tie"]["base_house_edge"], 6) == 0.429064  # 5 to 1 alone
    lightning = doc["lightning"]
    assert lightning["fee"] == 0.2
    assert lightning["stake"] is None
    assert set(lightning["bets"]) == {"player", "banker", "tie"}
    assert bets["banker"]["rtp"] == lightning["bets"]["banker"]["rtp"]


def test_lb_edge_stake_applies_the_cap(capsys: pytest.CaptureFixture[str]) -> None:
    free = _json(capsys, ["edge", "--json", "--rules", "lightning"])
    capped = _json(capsys, ["edge", "--json", "--rules", "lightning", "--stake", "500000"])
    assert capped["lightning"]["stake"] == 500000
    assert capped["bets"]["tie"]["rtp"] < free["bets"]["tie"]["rtp"]


def test_lb_edge_refuses_a_shoe_whose_suits_are_unknown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _main(["edge", "--rules", "lightning", "--removed", "AS"]) == 2
    assert "suits" in capsys.readouterr().err


def test_pk_edge_json_gives_the_raise_table(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, ["edge", "--json", "--rules", "peek"])
    player = doc["peek"]["bets"]["player"]
    assert player["raise_by_totals"]["9"]["0"] == 2
    assert player["raise_by_totals"]["0"]["9"] == 0
    assert player["raise_by_cards"]["9TA2"] == 2  # Player 9 and ten, Banker ace and 2
    assert doc["bets"]["player"]["rtp"] == player["rtp"]
    assert "tie" not in doc["peek"]["bets"]


def test_pk_edge_text_prints_the_raise_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert _main(["edge", "--rules", "peek"]) == 0
    out = capsys.readouterr().out
    assert "raise by totals" in out
    assert "with the optimal raise" in out


@pytest.mark.parametrize(
    ("name", "field"), [("lightning", "lightning.fee"), ("peek", "peek.raises")]
)
def test_lb_pk_rules_show_lists_the_variant_settings(
    capsys: pytest.CaptureFixture[str], name: str, field: str
) -> None:
    assert _main(["rules", "show", name]) == 0
    assert field in capsys.readouterr().out


_settle_main = command_line(settle_cli)


def test_lb_settle_pays_the_lightning_multipliers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["settle", "--json", "--rules", "lightning", "--bets", "player=10,banker=10"]
    assert _settle_main([*argv, "--lightning", "7S=8,AD=2", "7S", "2H", "AD", "3C"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["net"] == {"player": 160, "banker": -10}


def test_lb_settle_asks_for_the_lightning_cards(capsys: pytest.CaptureFixture[str]) -> None:
    assert _settle_main(["settle", "--rules", "lightning", "--bets", "player=10", "7S", "2H"]) == 2
    assert "--lightning" in capsys.readouterr().err
    assert _settle_main(["settle", "--rules", "macau", "--bets", "player=10",
                         "--lightning", "7S=8", "7S", "2H", "AD", "3C"]) == 2  # fmt: skip
    assert "no lightning" in capsys.readouterr().err


def test_lb_play_draws_lightning_cards_and_charges_the_fee() -> None:
    lines: list[str] = []
    game = Game(rules=preset("lightning"), balance=100_000, tier="low", seed=3,
                write=lines.append, sleep=lambda _: None)  # fmt: skip
    before = game.balance
    game.command("player 100")
    drawn = [line for line in lines if "lightning cards:" in line]
    assert len(drawn) == 1
    settled = [line for line in lines if line.strip().startswith("player 100")]
    net = float(settled[0].split()[-1].replace("+", ""))
    assert game.balance == before - 12_000 + 10_000 + round(100 * net)  # stake, 20% fee


def test_pk_play_asks_for_the_raise_and_suggests_the_best() -> None:
    lines: list[str] = []
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return "2"

    game = Game(rules=preset("peek"), balance=1_000_000, tier="low", seed=5,
                write=lines.append, sleep=lambda _: None, ask=ask)  # fmt: skip
    game.command("player 100")
    assert len(asked) == 1
    assert "best 2" in asked[0]
    assert any("player raised to 300.00" in line for line in lines)
    # stake 100 + fee 20, raise 200 + fee 100; returned 600 on this seed's natural 8 win
    assert game.balance == 1_000_000 - 42_000 + 60_000
