"""``punto roads`` [O]: driven through a tiny parser built with the module's ``register``."""

from __future__ import annotations

import argparse
import io
import json
import xml.etree.ElementTree as ET

import pytest

from punto.cards import parse_cards
from punto.cli import roads
from punto.cli.play import ROAD_SECTIONS, Game
from punto.errors import RoadError
from punto.outcome import Outcome
from punto.roads import RoadBoard, RoadResult
from punto.roads_render import render_text
from punto.rules import preset


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="punto")
    roads.register(top.add_subparsers(dest="command", required=True))
    return top


def punto(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str = "",
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    args = parser().parse_args(["roads", *argv])
    status: int = args.handler(args)
    return status, capsys.readouterr().out


def test_o_cli_json_has_the_documented_keys(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = punto(["--json", "BBPPPBPBB"], capsys, monkeypatch)
    assert status == 0
    doc = json.loads(out)
    assert {"bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig", "ask"} <= set(
        doc
    )
    assert doc["big_eye_boy"]["marks"] == "RBBBRB"
    assert doc["small_road"]["marks"] == "BBB"
    assert doc["cockroach_pig"]["marks"] == "BR"
    assert doc["cockroach_pig"]["cells"] == [
        {"col": 0, "row": 0, "colour": "B"},
        {"col": 1, "row": 0, "colour": "R"},
    ]
    assert doc["ask"] == {
        "banker": {"big_eye_boy": "R", "small_road": "R", "cockroach_pig": "R"},
        "player": {"big_eye_boy": "B", "small_road": "B", "cockroach_pig": "B"},
    }
    assert doc["big_road"][0] == {
        "col": 0,
        "row": 0,
        "result": "B",
        "ties": 0,
        "logical_col": 0,
        "logical_row": 0,
    }
    assert out.count("\n") == 1


def test_o_cli_text_answer(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = punto(["BBpPTB"], capsys, monkeypatch)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("Hand 5 | Banker 3 | Player 1 | Tie 1")
    assert "Big Road" in lines
    assert lines[-1] == "Ask Player: Big Eye Boy R, Small Road B, Cockroach Pig -"


def test_o_cli_svg_answer_and_height(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = punto(["--svg", "--height", "3", "BBBBP"], capsys, monkeypatch)
    assert status == 0
    root = ET.fromstring(out)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_o_cli_empty_argument_is_an_empty_shoe_not_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = punto(["--json", ""], capsys, monkeypatch, stdin="BBB\n")
    assert status == 0
    assert json.loads(out)["bead_plate"] == []


def test_o_cli_bad_argument_is_a_typed_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(RoadError, match="bad result character 'X' at position 3"):
        punto(["BBX"], capsys, monkeypatch)


def test_o_cli_bad_height_is_a_typed_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(RoadError, match="1 or more"):
        punto(["--height", "0"], capsys, monkeypatch, stdin="B\n")
    assert capsys.readouterr().out == ""


def test_o_cli_json_and_svg_do_not_mix(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["roads", "--json", "--svg", "B"])
    assert "not allowed with" in capsys.readouterr().err


def test_o_cli_lines_answer_one_each_and_a_bad_line_answers_an_error_object(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "BBPPPBPBB\nBBqP\nTTT\n\nBbb\nPPB\n"
    status, out = punto(["--json"], capsys, monkeypatch, stdin=stdin)
    assert status == 1
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == 6
    assert answers[0]["big_eye_boy"]["marks"] == "RBBBRB"
    assert answers[1] == {
        "error": "bad result character 'q' at position 3: expected B, P or T, each optionally "
        "followed by b (Banker pair) and/or p (Player pair)",
        "type": "RoadError",
    }
    assert answers[2]["big_road"] == []
    assert answers[2]["counts"]["tie"] == 3
    assert answers[3]["bead_plate"] == []
    assert answers[4]["type"] == "RoadError"
    assert "given twice" in answers[4]["error"]
    assert [c["result"] for c in answers[5]["big_road"]] == ["P", "P", "B"]


def test_o_cli_lines_in_text(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = punto([], capsys, monkeypatch, stdin="BP\nZ\nT\n")
    assert status == 1
    blocks = out.split("\n\n")
    assert blocks[0].startswith("Hand 2 |")
    assert blocks[1] == "error: bad result character 'Z' at position 1: expected B, P or T, " + (
        "each optionally followed by b (Banker pair) and/or p (Player pair)"
    )
    assert blocks[2].startswith("Hand 1 | Banker 0 | Player 0 | Tie 1")


def test_o_cli_lines_all_good_exit_0(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out = punto(["--json"], capsys, monkeypatch, stdin="B\nP\n")
    assert status == 0
    assert len(out.splitlines()) == 2


def test_o_play_shows_the_roads_of_its_shoe_after_each_hand() -> None:
    written: list[str] = []
    game = Game(preset("macau"), balance=1_000_000, tier="low", seed=7, write=written.append)
    results: list[RoadResult] = []
    for _ in range(40):
        start = len(written)
        game.command("deal")
        shown = written[start:]
        # The hand as printed (both hands' cards), read back into a road result.
        hand = next(line for line in shown if line.startswith("Player "))
        player, banker = (side.split("=")[0].split()[1:] for side in hand.split(" | ")[:2])
        outcome = Outcome.from_hands(parse_cards(" ".join(player)), parse_cards(" ".join(banker)))
        results.append(RoadResult.from_outcome(outcome))
        expected = render_text(RoadBoard.replay(results), sections=ROAD_SECTIONS)
        assert expected in shown
    game.command("roads")
    assert written[-1] == render_text(RoadBoard.replay(results))
    assert "Bead plate" in written[-1]
