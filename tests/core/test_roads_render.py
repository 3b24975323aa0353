"""Road renderings [O]: plain text, standalone SVG and the ``--json`` data."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from punto.errors import RoadError
from punto.outcome import Winner
from punto.roads import RoadBoard, RoadResult, parse_results
from punto.roads_render import (
    BLUE,
    GREEN,
    RED,
    SECTIONS,
    bead_plate_svg,
    big_road_svg,
    derived_road_svg,
    render_svg,
    render_text,
    roads_dict,
)

SVG = "{http://www.w3.org/2000/svg}"


def board_of(text: str, *, height: int = 6) -> RoadBoard:
    return RoadBoard.replay(parse_results(text), height=height)


def parse_svg(document: str) -> ET.Element:
    root = ET.fromstring(document)
    assert root.tag == f"{SVG}svg"
    width, height = float(root.attrib["width"]), float(root.attrib["height"])
    assert root.attrib["viewBox"] == f"0 0 {root.attrib['width']} {root.attrib['height']}"
    assert width > 0
    assert height > 0
    assert root.find(f"{SVG}title") is not None
    return root


def section(root: ET.Element, name: str) -> ET.Element:
    found = root.find(f"{SVG}g[@class='{name}']")
    assert found is not None, name
    return found


def circles(element: ET.Element, **attrs: str) -> list[ET.Element]:
    return [
        c
        for c in element.iter(f"{SVG}circle")
        if all(c.attrib.get(k.replace("_", "-")) == v for k, v in attrs.items())
    ]


# --- text ------------------------------------------------------------------------------

WORKED_EXAMPLE_TEXT = """\
Hand 9 | Banker 5 | Player 4 | Tie 0 | Banker pair 0 | Player pair 0 | Natural 0
Bead plate
B P
B B
P B
P .
P .
B .
Big Road
B P B P B
B P . . B
. P . . .
. . . . .
. . . . .
. . . . .
Big Eye Boy
R B R B
. B . .
. B . .
. . . .
. . . .
. . . .
Small Road
B
B
B
.
.
.
Cockroach Pig
B R
. .
. .
. .
. .
. .
Ask Banker: Big Eye Boy R, Small Road R, Cockroach Pig R
Ask Player: Big Eye Boy B, Small Road B, Cockroach Pig B"""


def test_o_text_of_the_roads_md_worked_example() -> None:
    assert render_text(board_of("BBPPPBPBB")) == WORKED_EXAMPLE_TEXT


def test_o_text_shows_pairs_on_the_bead_plate_and_ties_on_the_big_road() -> None:
    text = render_text(board_of("TTBbPpTBbp"), sections=("bead_plate", "big_road"))
    assert text.splitlines()[:3] == ["Bead plate", "T", "T"]
    assert "Bb" in text
    assert "Pp" in text
    assert "Bbp" in text
    big_road = text.split("Big Road\n")[1].splitlines()
    assert big_road[0] == "B/2 P/  B"


def test_o_text_of_a_dragon_tail() -> None:
    text = render_text(board_of("B" * 8 + "P" * 7), sections=("big_road",))
    assert text.splitlines() == [
        "Big Road",
        "B P . .",
        "B P . .",
        "B P . .",
        "B P . .",
        "B P P P",
        "B B B .",
    ]


def test_o_text_of_only_ties_shows_them_on_the_first_cell() -> None:
    text = render_text(board_of("TTT"), sections=("big_road", "big_eye_boy"))
    assert text.splitlines()[:2] == ["Big Road", "/3"]
    assert text.splitlines()[-1] == "Big Eye Boy (empty)"


def test_o_text_of_an_empty_board() -> None:
    assert render_text(RoadBoard(), sections=("stats", "bead_plate", "big_road")).splitlines() == [
        "Hand 0 | Banker 0 | Player 0 | Tie 0 | Banker pair 0 | Player pair 0 | Natural 0",
        "Bead plate (empty)",
        "Big Road (empty)",
    ]


def test_o_text_columns_show_the_latest_columns() -> None:
    board = board_of("BP" * 10)
    lines = render_text(board, columns=4, sections=("big_road",)).splitlines()
    assert lines[0] == "Big Road (last 4 of 20 columns)"
    assert lines[1] == "B P B P"
    padded = render_text(board_of("B"), columns=3, sections=("big_road",)).splitlines()
    assert padded[:2] == ["Big Road", "B . ."]


def test_o_text_follows_the_grid_height() -> None:
    lines = render_text(board_of("BBBB", height=2), sections=("big_road",)).splitlines()
    assert lines == ["Big Road", "B . .", "B B B"]


def test_o_text_bad_sections_and_columns_are_refused() -> None:
    with pytest.raises(RoadError, match="unknown road text sections"):
        render_text(RoadBoard(), sections=("bead",))
    with pytest.raises(RoadError, match="at least 1 column"):
        render_text(board_of("B"), columns=0)
    assert SECTIONS[0] == "stats"


# --- SVG -------------------------------------------------------------------------------


def test_o_svg_is_a_standalone_document_with_every_road() -> None:
    root = parse_svg(render_svg(board_of("BBPPPBPBB")))
    names = [g.attrib["class"] for g in root.findall(f"{SVG}g")]
    assert names == [
        "counts",
        "bead-plate",
        "big-road",
        "big-eye-boy",
        "small-road",
        "cockroach-pig",
    ]


def test_o_svg_bead_plate_red_blue_green_with_pair_dots() -> None:
    root = parse_svg(bead_plate_svg(board_of("BbPpTbpB")))
    beads = section(root, "bead-plate")
    big = [c for c in circles(beads) if float(c.attrib["r"]) > 5]
    assert [c.attrib["fill"] for c in big] == [RED, BLUE, GREEN, RED]
    dots = [c for c in circles(beads) if float(c.attrib["r"]) <= 5]
    # Banker pair red top-left, Player pair blue bottom-right; the tie has both.
    assert [c.attrib["fill"] for c in dots] == [RED, BLUE, RED, BLUE]
    banker_dot, player_dot = dots[2], dots[3]
    assert float(banker_dot.attrib["cx"]) < float(player_dot.attrib["cx"])
    assert float(banker_dot.attrib["cy"]) < float(player_dot.attrib["cy"])
    assert [t.text for t in beads.iter(f"{SVG}text")][1:] == ["B", "P", "T", "B"]


def test_o_svg_bead_plate_can_show_winning_totals() -> None:
    results = [
        RoadResult(Winner.BANKER, player_total=3, banker_total=7),
        RoadResult(Winner.TIE, player_total=5, banker_total=5),
        RoadResult(Winner.PLAYER),  # no total known: the letter stays
    ]
    root = parse_svg(bead_plate_svg(RoadBoard.replay(results), totals=True))
    assert [t.text for t in root.iter(f"{SVG}text")][1:] == ["7", "5", "P"]


def test_o_svg_big_road_hollow_rings_tie_slashes_and_counts() -> None:
    root = parse_svg(big_road_svg(board_of("TTBPTB")))
    road = section(root, "big-road")
    rings = circles(road, fill="none")
    assert [c.attrib["stroke"] for c in rings] == [RED, BLUE, RED]
    slashes = [line for line in road.iter(f"{SVG}line") if line.attrib["stroke"] == GREEN]
    assert len(slashes) == 2
    counts = [t.text for t in road.iter(f"{SVG}text") if t.attrib["fill"] == GREEN]
    assert counts == ["2"]  # one tie is a slash alone; two show the number


def test_o_svg_big_road_of_only_ties_shows_the_slash_and_count() -> None:
    road = section(parse_svg(big_road_svg(board_of("TTT"))), "big-road")
    assert circles(road) == []
    assert len(list(road.iter(f"{SVG}line"))) == 1
    assert [t.text for t in road.iter(f"{SVG}text")][1:] == ["3"]


def test_o_svg_derived_roads_circles_dots_and_slashes() -> None:
    board = board_of("BBPPPBPBB")
    root = parse_svg(render_svg(board))
    big_eye_boy = circles(section(root, "big-eye-boy"), fill="none")
    assert [c.attrib["stroke"] for c in big_eye_boy] == [RED, BLUE, BLUE, BLUE, RED, BLUE]
    small_road = circles(section(root, "small-road"))
    assert [c.attrib["fill"] for c in small_road] == [BLUE, BLUE, BLUE]
    cockroach = list(section(root, "cockroach-pig").iter(f"{SVG}line"))
    assert [line.attrib["stroke"] for line in cockroach] == [BLUE, RED]
    alone = parse_svg(derived_road_svg(board.cockroach_pig))
    assert len(list(alone.iter(f"{SVG}line"))) == 2


def test_o_svg_columns_crop_to_the_latest_and_derived_roads_get_twice_as_many() -> None:
    board = board_of("BP" * 10)
    root = parse_svg(render_svg(board, columns=4))
    assert len(circles(section(root, "big-road"))) == 4
    assert len(circles(section(root, "big-eye-boy"))) == 8
    with pytest.raises(RoadError, match="at least 1 column"):
        big_road_svg(board, columns=-2)


def test_o_svg_of_an_empty_board_is_valid() -> None:
    root = parse_svg(render_svg(RoadBoard()))
    assert circles(root) == []


@settings(derandomize=True, database=None, deadline=None, max_examples=40)
@given(st.text(alphabet="BPTbp", max_size=120).map(lambda s: s.lstrip("bp")), st.integers(1, 7))
def test_o_svg_is_always_well_formed(text: str, height: int) -> None:
    try:
        board = board_of(text, height=height)
    except RoadError:
        return  # a repeated pair flag: not a shoe
    root = parse_svg(render_svg(board, bead_totals=True))
    bead = section(root, "bead-plate")
    assert len([c for c in circles(bead) if "stroke" not in c.attrib]) == len(board)


# --- plain data ------------------------------------------------------------------------


def test_o_roads_dict_has_the_documented_keys() -> None:
    doc = roads_dict(board_of("BBpPTB"))
    assert list(doc) == [
        "bead_plate",
        "big_road",
        "big_eye_boy",
        "small_road",
        "cockroach_pig",
        "ask",
        "counts",
    ]
    assert doc["bead_plate"] == [
        {"col": 0, "row": 0, "result": "B", "banker_pair": False, "player_pair": False},
        {"col": 0, "row": 1, "result": "B", "banker_pair": False, "player_pair": True},
        {"col": 0, "row": 2, "result": "P", "banker_pair": False, "player_pair": False},
        {"col": 0, "row": 3, "result": "T", "banker_pair": False, "player_pair": False},
        {"col": 0, "row": 4, "result": "B", "banker_pair": False, "player_pair": False},
    ]
    assert doc["big_road"] == [
        {"col": 0, "row": 0, "result": "B", "ties": 0, "logical_col": 0, "logical_row": 0},
        {"col": 0, "row": 1, "result": "B", "ties": 0, "logical_col": 0, "logical_row": 1},
        {"col": 1, "row": 0, "result": "P", "ties": 1, "logical_col": 1, "logical_row": 0},
        {"col": 2, "row": 0, "result": "B", "ties": 0, "logical_col": 2, "logical_row": 0},
    ]
    assert doc["big_eye_boy"] == {"marks": "B", "cells": [{"col": 0, "row": 0, "colour": "B"}]}
    assert doc["small_road"] == {"marks": "", "cells": []}
    assert doc["ask"] == {
        "banker": {"big_eye_boy": "B", "small_road": "R", "cockroach_pig": None},
        "player": {"big_eye_boy": "R", "small_road": "B", "cockroach_pig": None},
    }
    assert doc["counts"] == {
        "hands": 5,
        "banker": 3,
        "player": 1,
        "tie": 1,
        "banker_pair": 0,
        "player_pair": 1,
        "natural": 0,
    }
    json.dumps(doc)  # plain data all the way down
