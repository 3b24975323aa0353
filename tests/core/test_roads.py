"""Roads [O] (docs/roads.md): bead plate, Big Road, derived roads, ask-roads.

Hand-worked cases first, then Hypothesis against a reference that reads the rules literally
from the whole history at once (the board itself works one hand at a time).
"""

from __future__ import annotations

import functools
import gc
import statistics
import sys
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import astuple
from types import FrameType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from punto.cards import parse_cards
from punto.errors import PuntoError, RoadError
from punto.outcome import Outcome, Winner
from punto.roads import (
    DEFAULT_HEIGHT,
    AskRoads,
    Colour,
    RoadBoard,
    RoadKind,
    RoadResult,
    RoadStats,
    format_results,
    parse_results,
)

SETTINGS = settings(derandomize=True, database=None, deadline=None, max_examples=200)

B, P, T = Winner.BANKER, Winner.PLAYER, Winner.TIE


def board_of(text: str, *, height: int = DEFAULT_HEIGHT) -> RoadBoard:
    return RoadBoard.replay(parse_results(text), height=height)


def big_road_places(board: RoadBoard) -> list[tuple[int, int]]:
    return [(c.col, c.row) for c in board.big_road]


def streaks(letters: str) -> str:
    """``RBBBRB`` -> ``R|BBB|R|B``: marks grouped by logical column."""
    groups: list[str] = []
    for letter, col in zip(letters, _logical_cols(letters), strict=True):
        if col == len(groups):
            groups.append("")
        groups[col] += letter
    return "|".join(groups)


def _logical_cols(letters: str) -> list[int]:
    cols, col = [], -1
    for i, letter in enumerate(letters):
        col += i == 0 or letter != letters[i - 1]
        cols.append(col)
    return cols


# --- the roads' worked example -------------------------------------------------------


def test_o_roads_md_worked_example_derived_roads() -> None:
    board = board_of("BBPPPBPBB")
    assert board.column_lengths == (2, 3, 1, 1, 2)
    assert streaks(board.big_eye_boy.marks) == "R|BBB|R|B"
    assert streaks(board.small_road.marks) == "BBB"
    assert streaks(board.cockroach_pig.marks) == "B|R"
    for road in board.derived_roads:
        assert [c.logical_col for c in road.cells] == _logical_cols(road.marks)


def test_o_roads_md_worked_example_big_road_places() -> None:
    board = board_of("BBPPPBPBB")
    # B B | P P P | B | P | B B: no tails, grid places equal the logical places.
    places = [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (2, 0), (3, 0), (4, 0), (4, 1)]
    assert big_road_places(board) == places
    assert [(c.logical_col, c.logical_row) for c in board.big_road] == big_road_places(board)
    assert [c.winner for c in board.big_road] == [B, B, P, P, P, B, P, B, B]


def test_o_roads_md_worked_example_derived_grids() -> None:
    board = board_of("BBPPPBPBB")
    assert [(c.col, c.row) for c in board.big_eye_boy.cells] == [
        (0, 0),
        (1, 0),
        (1, 1),
        (1, 2),
        (2, 0),
        (3, 0),
    ]
    assert [(c.col, c.row) for c in board.small_road.cells] == [(0, 0), (0, 1), (0, 2)]
    assert [(c.col, c.row) for c in board.cockroach_pig.cells] == [(0, 0), (1, 0)]


def test_o_roads_md_worked_example_ask() -> None:
    board = board_of("BBPPPBPBB")
    assert board.ask(B) == AskRoads(Colour.RED, Colour.RED, Colour.RED)
    assert board.ask(P) == AskRoads(Colour.BLUE, Colour.BLUE, Colour.BLUE)


# --- derived road rules, case by case --------------------------------------------------


def test_o_derived_road_starts_at_column_k_plus_1_row_2() -> None:
    # Column 2 has two entries: Big Eye Boy starts with the second, blue (m = 2 = p + 1).
    assert board_of("BP").big_eye_boy.marks == ""
    assert board_of("BPP").big_eye_boy.marks == "B"


def test_o_derived_road_starts_at_column_k_plus_2_row_1_when_column_k_plus_1_is_single() -> None:
    assert board_of("BP").big_eye_boy.marks == ""
    assert board_of("BPB").big_eye_boy.marks == "R"  # columns 2 and 1 both have 1 entry
    assert board_of("BBPB").big_eye_boy.marks == "B"  # columns 2 (1) and 1 (2) differ


@pytest.mark.parametrize(
    ("text", "kind", "marks"),
    [
        ("BPBP", RoadKind.SMALL_ROAD, "R"),  # first entry: column 4 row 1, cols 3 and 1 equal
        ("BPPBP", RoadKind.SMALL_ROAD, "R"),  # column 3 row 2 is not there: column 4 row 1
        ("BPBBP", RoadKind.SMALL_ROAD, "BB"),  # column 3 row 2 starts it, then column 4 row 1
        ("BPBPB", RoadKind.COCKROACH_PIG, "R"),
        ("BPBPPB", RoadKind.COCKROACH_PIG, "BB"),
    ],
)
def test_o_derived_road_start(text: str, kind: RoadKind, marks: str) -> None:
    board = board_of(text)
    road = next(r for r in board.derived_roads if r.kind is kind)
    assert road.marks == marks


def test_o_derived_road_straight_drop_is_red() -> None:
    # Column 1 has 1 entry; column 2 goes down to row 4: row 2 is blue (p + 1), rows 3-4 red.
    assert board_of("BPPPP").big_eye_boy.marks == "BRR"


def test_o_derived_road_red_while_column_k_back_is_as_long() -> None:
    # Column 1: 3 entries. Column 2 rows 2, 3 red (m <= 3), row 4 blue, row 5 red.
    assert board_of("BBBPPPPP").big_eye_boy.marks == "RRBR"


def test_o_derived_roads_ignore_ties() -> None:
    assert board_of("TBTTBPTPBPTB").big_eye_boy.marks == board_of("BBPPBPB").big_eye_boy.marks


def test_o_derived_road_has_its_own_dragon_tail() -> None:
    # Alternating B and P after a first pair: Big Eye Boy is all red, one streak of many.
    board = board_of("BB" + "PB" * 6)
    assert board.big_eye_boy.marks == "B" + "R" * 10
    places = [(c.col, c.row) for c in board.big_eye_boy.cells]
    assert places == [(0, 0), *[(1, r) for r in range(6)], (2, 5), (3, 5), (4, 5), (5, 5)]


# --- Big Road: dragon tails ------------------------------------------------------------


def test_o_big_road_dragon_tail_turns_right() -> None:
    board = board_of("B" * 9)
    assert big_road_places(board) == [(0, r) for r in range(6)] + [(1, 5), (2, 5), (3, 5)]
    assert [c.logical_row for c in board.big_road] == list(range(9))
    assert board.column_lengths == (9,)


def test_o_big_road_tails_do_not_push_later_streaks_right() -> None:
    board = board_of("B" * 9 + "P")
    assert big_road_places(board)[-1] == (1, 0)


def test_o_big_road_streak_meets_earlier_tail_turns_right_at_once() -> None:
    board = board_of("B" * 8 + "P" * 7)
    assert big_road_places(board)[8:] == [(1, r) for r in range(5)] + [(2, 4), (3, 4)]


def test_o_big_road_tail_never_comes_back_down() -> None:
    # The P streak turns right above the B tail (row index 4) and stays on that row past
    # the tail's end, though the cells below are free again.
    board = board_of("B" * 8 + "P" * 10)
    assert big_road_places(board)[8:] == [(1, r) for r in range(5)] + [(c, 4) for c in range(2, 7)]


def test_o_big_road_staircase_of_tails_and_start_pushed_past_row_1_tail() -> None:
    board = board_of("B" * 8 + "P" * 6 + "B" * 5 + "P" * 4 + "B" * 3 + "P" * 2 + "B")
    places = big_road_places(board)
    assert places[8:14] == [(1, r) for r in range(5)] + [(2, 4)]
    assert places[14:19] == [(2, r) for r in range(4)] + [(3, 3)]
    assert places[19:23] == [(3, r) for r in range(3)] + [(4, 2)]
    assert places[23:26] == [(4, 0), (4, 1), (5, 1)]
    # P P meets the tail at row index 1 at once and turns right along the top row ...
    assert places[26:28] == [(5, 0), (6, 0)]
    # ... so the next streak cannot start at column 6 (top cell filled): it starts at 7.
    assert places[28] == (7, 0)


def test_o_big_road_streaks_fill_down_to_an_earlier_tail() -> None:
    board = board_of("B" * 13 + "P" * 5 + "BB")
    places = big_road_places(board)
    assert places[13:18] == [(1, r) for r in range(5)]  # down to just above the B tail
    assert places[18:20] == [(2, 0), (2, 1)]


def test_o_big_road_grid_height_is_a_setting() -> None:
    board = board_of("BBBBBP", height=3)
    assert big_road_places(board) == [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (1, 0)]
    assert [(c.col, c.row) for c in board.bead_plate] == [(i // 3, i % 3) for i in range(6)]
    assert board.height == 3
    assert board.big_eye_boy.height == 3


def test_o_big_road_height_1_is_all_tails() -> None:
    board = board_of("BBPPB", height=1)
    assert big_road_places(board) == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]


@pytest.mark.parametrize("height", [0, -1, True, 2.5])
def test_o_road_height_below_1_is_refused(height: int) -> None:
    with pytest.raises(RoadError, match="1 or more"):
        RoadBoard(height=height)


# --- ties ------------------------------------------------------------------------------


def test_o_big_road_ties_first_are_kept_on_the_first_cell() -> None:
    board = board_of("TTB")
    assert board.leading_ties == 2
    assert [(c.col, c.row, c.ties) for c in board.big_road] == [(0, 0, 2)]


def test_o_big_road_ties_first_then_more_ties_add_up_on_the_first_cell() -> None:
    board = board_of("TBTTP")
    assert [c.ties for c in board.big_road] == [3, 0]
    assert board.leading_ties == 1


def test_o_big_road_ties_in_a_row_count_on_the_last_cell() -> None:
    board = board_of("BPTTTB")
    assert [c.ties for c in board.big_road] == [0, 3, 0]
    assert big_road_places(board) == [(0, 0), (1, 0), (2, 0)]


def test_o_big_road_tie_does_not_break_a_streak() -> None:
    board = board_of("BTB")
    assert big_road_places(board) == [(0, 0), (0, 1)]
    assert board.column_lengths == (2,)


def test_o_only_ties() -> None:
    board = board_of("TTT")
    assert board.big_road == ()
    assert board.leading_ties == 3
    assert board.column_lengths == ()
    assert all(len(road) == 0 for road in board.derived_roads)
    assert [(c.col, c.row) for c in board.bead_plate] == [(0, 0), (0, 1), (0, 2)]
    assert board.stats == RoadStats(3, 0, 0, 3, 0, 0, 0)
    assert board.ask(B) == board.ask(P) == AskRoads(None, None, None)


def test_o_bead_plate_keeps_ties_and_pairs_in_columns_of_6() -> None:
    board = board_of("BbPpTBbpPPPTP")
    cells = board.bead_plate
    assert [(c.col, c.row) for c in cells] == [(i // 6, i % 6) for i in range(9)]
    assert [c.result.code for c in cells] == ["Bb", "Pp", "T", "Bbp", "P", "P", "P", "T", "P"]


# --- ask-roads -------------------------------------------------------------------------


def test_o_ask_is_empty_before_any_result() -> None:
    assert RoadBoard().ask(B) == AskRoads(None, None, None)


def test_o_ask_a_tie_is_refused() -> None:
    with pytest.raises(RoadError, match="Banker or Player"):
        board_of("BP").ask(T)


def test_o_ask_does_not_change_the_board() -> None:
    board = board_of("BBPPPBPBB")
    before = snapshot(board)
    board.ask(B)
    board.ask(P)
    assert snapshot(board) == before


# --- counts, updates, results ----------------------------------------------------------


def test_o_stats_count_every_hand() -> None:
    results = [
        RoadResult(B, banker_pair=True, natural=True, player_total=2, banker_total=8),
        RoadResult(P, player_pair=True),
        RoadResult(T, banker_pair=True, player_pair=True, player_total=6, banker_total=6),
        RoadResult(B),
    ]
    stats = RoadBoard.replay(results).stats
    assert stats == RoadStats(
        hands=4, banker=2, player=1, tie=1, banker_pair=2, player_pair=2, natural=1
    )


def test_o_add_returns_what_changed() -> None:
    board = board_of("BBPPPBPB")
    update = board.add(RoadResult(B))
    assert update.hand == 9
    assert (update.bead.col, update.bead.row) == (1, 2)
    assert update.big_road == board.big_road[-1]
    assert update.big_eye_boy == board.big_eye_boy.cells[-1]
    assert update.small_road == board.small_road.cells[-1]
    assert update.cockroach_pig == board.cockroach_pig.cells[-1]
    tie = board.add(RoadResult(T))
    assert tie.big_road is not None
    assert tie.big_road.ties == 1
    assert (tie.big_eye_boy, tie.small_road, tie.cockroach_pig) == (None, None, None)
    assert RoadBoard().add(RoadResult(T)).big_road is None


def test_o_road_result_from_outcome() -> None:
    outcome = Outcome.from_hands(parse_cards("9S KH"), parse_cards("8D 8C"))
    result = RoadResult.from_outcome(outcome)
    assert result == RoadResult(P, banker_pair=True, natural=True, player_total=9, banker_total=6)
    assert result.winning_total == 9
    assert RoadResult(T, player_total=4, banker_total=4).winning_total == 4
    assert RoadResult(B).winning_total is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"winner": B, "player_total": 10, "banker_total": 3}, "Player total 10"),
        ({"winner": B, "banker_total": -1}, "Banker total -1"),
        ({"winner": B, "player_total": 5, "banker_total": 3}, "make a Player win, not a Banker"),
        ({"winner": T, "player_total": 5, "banker_total": 3}, "make a Player win, not a tie"),
        ({"winner": P, "player_total": 6, "banker_total": 6}, "make a tie, not a Player win"),
        ({"winner": P, "natural": True, "player_total": 7, "banker_total": 2}, "8 or 9"),
        ({"winner": "banker"}, "needs a Winner"),
        ({"winner": B, "banker_pair": "yes"}, "banker_pair must be True or False"),
        ({"winner": B, "player_pair": 1}, "player_pair must be True or False"),
        ({"winner": B, "natural": None}, "natural must be True or False"),
        ({"winner": B, "player_total": True, "banker_total": 3}, "Player total True"),
        ({"winner": B, "player_total": 2.0, "banker_total": 3}, "Player total 2.0"),
    ],
)
def test_o_road_result_refuses_impossible_hands(kwargs: dict[str, object], message: str) -> None:
    winner = kwargs.pop("winner")
    with pytest.raises(RoadError, match=message):
        RoadResult(winner, **kwargs)  # type: ignore[arg-type]


def test_o_parse_results_reads_pairs_and_ignores_whitespace() -> None:
    results = parse_results(" Bb Pp\tTbp Bpb P\n")
    assert [(r.winner, r.banker_pair, r.player_pair) for r in results] == [
        (B, True, False),
        (P, False, True),
        (T, True, True),
        (B, True, True),
        (P, False, False),
    ]
    assert parse_results("") == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("BBX", "bad result character 'X' at position 3: expected B, P or T"),
        ("bB", "pair flag 'b' at position 1 does not follow a B, P or T"),
        ("B p", "pair flag 'p' at position 3 does not follow"),
        ("Bbb", "pair flag 'b' at position 3 is given twice"),
        ("Ppbp", "pair flag 'p' at position 4 is given twice"),
        ("BbT t", "bad result character 't' at position 5"),
    ],
)
def test_o_parse_results_bad_input_is_a_typed_error(text: str, message: str) -> None:
    with pytest.raises(RoadError, match=message) as caught:
        parse_results(text)
    assert isinstance(caught.value, PuntoError)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("bad", ["B", None, B, ("B", False)])
def test_o_a_board_fed_something_else_than_a_road_result_refuses_it_and_is_unchanged(
    bad: object,
) -> None:
    board = board_of("BBPTPb")
    before = snapshot(board)
    with pytest.raises(RoadError, match="fed RoadResult values"):
        board.add(bad)  # type: ignore[arg-type]
    with pytest.raises(RoadError, match="fed RoadResult values"):
        board.extend([RoadResult(B), RoadResult(P), bad])  # type: ignore[list-item]
    assert snapshot(board) == before
    with pytest.raises(RoadError, match="fed RoadResult values"):
        RoadBoard.replay([RoadResult(T), bad])  # type: ignore[list-item]


# --- incremental: constant work per hand ------------------------------------------------

# Long streaks (dragon tails on every grid), streaks meeting tails, ties, pairs.
_CYCLE = parse_results("BBBBBBBBBPPPPPPPTBPBPPBBBTTPBBbPPpPBPBBBBBBBBBBBBP")


def _lines_executed(call: Callable[[], object]) -> int:
    """Python lines run by ``call()``, callees included: a measure of work that does not
    depend on the machine's speed or load."""
    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        count += event == "line"
        return tracer

    # No garbage collection meanwhile: a finalizer of some other test's leftovers (run by
    # the collector at any allocation) would count lines that are not the call's.
    gc.disable()
    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        call()
    finally:
        sys.settrace(previous)
        gc.enable()
    return count


def _bytes_allocated(call: Callable[[], object]) -> int:
    """Peak memory ``call()`` allocates (tracemalloc must be running)."""
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    call()
    return tracemalloc.get_traced_memory()[1] - before


def test_o_add_and_ask_do_constant_work_however_long_the_shoe() -> None:
    # The same cycle of hands fed again and again: adding a hand (and asking the roads)
    # runs exactly the same Python lines on a board of 29,000 hands as on one of 150, and
    # allocates no more, so no road is rebuilt or copied as the board grows.
    board = RoadBoard()
    work: dict[int, list[int]] = {}
    memory: dict[int, list[int]] = {}
    tracemalloc.start()
    try:
        for cycle in range(600):
            lines, allocated = work.setdefault(cycle, []), memory.setdefault(cycle, [])
            for result in _CYCLE:
                add = functools.partial(board.add, result)
                if cycle in (3, 599):
                    lines.append(_lines_executed(add))
                    lines.append(_lines_executed(functools.partial(board.ask, B)))
                    allocated.append(_bytes_allocated(functools.partial(board.ask, P)))
                elif cycle in (4, 598):
                    allocated.append(_bytes_allocated(add))
                else:
                    board.add(result)
    finally:
        tracemalloc.stop()
    assert len(board) == 600 * len(_CYCLE)
    assert work[599] == work[3]
    assert statistics.median(memory[598]) <= 2 * statistics.median(memory[4])
    assert statistics.median(memory[599]) <= 2 * statistics.median(memory[3])


# --- the reference: the rules read literally from the whole history -------------------


def reference_columns(results: Sequence[RoadResult]) -> list[int]:
    lengths: list[int] = []
    previous = None
    for r in results:
        if r.winner is T:
            continue
        if r.winner is previous:
            lengths[-1] += 1
        else:
            lengths.append(1)
        previous = r.winner
    return lengths


def reference_colours(lengths: list[int], k: int) -> list[Colour]:
    """The rules, 1-based, from the complete columns (each entry's left columns are done)."""
    if len(lengths) >= k + 1 and lengths[k] >= 2:
        start = (k + 1, 2)
    elif len(lengths) >= k + 2:
        start = (k + 2, 1)
    else:
        return []
    colours: list[Colour] = []
    for n in range(1, len(lengths) + 1):
        for m in range(1, lengths[n - 1] + 1):
            if (n, m) < start:
                continue
            if m == 1:
                same = lengths[n - 2] == lengths[n - 2 - k]
                colours.append(Colour.RED if same else Colour.BLUE)
                continue
            p = lengths[n - k - 1]
            if m <= p:
                colours.append(Colour.RED)
            elif m == p + 1:
                colours.append(Colour.BLUE)
            else:
                colours.append(Colour.RED)
    return colours


def reference_layout(streak_lengths: list[int], height: int) -> list[tuple[int, int]]:
    """Lay whole streaks on the grid, checking that no cell is used twice."""
    used: set[tuple[int, int]] = set()
    places: list[tuple[int, int]] = []
    start = -1
    for length in streak_lengths:
        col = start + 1
        while (col, 0) in used:
            col += 1
        start, row, turned = col, 0, False
        for i in range(length):
            if i:
                if not turned and row + 1 < height and (col, row + 1) not in used:
                    row += 1
                else:
                    turned = True
                    col += 1
            assert (col, row) not in used
            used.add((col, row))
            places.append((col, row))
    return places


def run_lengths(items: Sequence[object]) -> list[int]:
    lengths: list[int] = []
    for i, item in enumerate(items):
        if i and item == items[i - 1]:
            lengths[-1] += 1
        else:
            lengths.append(1)
    return lengths


def snapshot(board: RoadBoard) -> tuple[object, ...]:
    return (
        board.results,
        board.bead_plate,
        board.big_road,
        board.leading_ties,
        board.column_lengths,
        tuple(road.cells for road in board.derived_roads),
        board.stats,
        board.ask(B),
        board.ask(P),
    )


@st.composite
def shoes(draw: st.DrawFn) -> str:
    """Results with long streaks (for dragon tails), ties anywhere and some pairs."""
    runs = draw(st.lists(st.tuples(st.sampled_from("BPT"), st.integers(1, 14)), max_size=30))
    letters = "".join(letter * count for letter, count in runs)
    flags = draw(st.lists(st.sampled_from(["", "", "", "b", "p", "bp"]), min_size=len(letters)))
    return "".join(letter + flag for letter, flag in zip(letters, flags, strict=False))


heights = st.integers(1, 8)


@SETTINGS
@given(shoes(), heights)
def test_o_board_matches_roads_md_read_from_the_whole_history(text: str, height: int) -> None:
    results = parse_results(text)
    board = RoadBoard.replay(results, height=height)
    lengths = reference_columns(results)
    assert list(board.column_lengths) == lengths
    assert big_road_places(board) == reference_layout(lengths, height)
    for road in board.derived_roads:
        colours = reference_colours(lengths, road.kind.k)
        assert list(road.colours) == colours
        assert [(c.col, c.row) for c in road.cells] == reference_layout(
            run_lengths(colours), height
        )


@SETTINGS
@given(shoes(), heights)
def test_o_replaying_equals_feeding_one_by_one(text: str, height: int) -> None:
    results = parse_results(text)
    fed = RoadBoard(height=height)
    for result in results:
        fed.add(result)
    assert snapshot(fed) == snapshot(RoadBoard.replay(results, height=height))
    half = len(results) // 2
    extended = RoadBoard.replay(results[:half], height=height)
    extended.extend(results[half:])
    assert snapshot(extended) == snapshot(fed)


@SETTINGS
@given(shoes())
def test_o_ask_banker_and_ask_player_are_opposite_or_both_empty(text: str) -> None:
    board = board_of(text)
    banker, player = board.ask(B), board.ask(P)
    for kind in RoadKind:
        b, p = banker.colour(kind), player.colour(kind)
        assert (b is None and p is None) or (b is not None and p is not None and b is not p)


@SETTINGS
@given(shoes(), st.sampled_from([B, P]))
def test_o_ask_tells_what_the_next_hand_would_add(text: str, winner: Winner) -> None:
    board = board_of(text)
    ask = board.ask(winner)
    update = board.add(RoadResult(winner))
    added = (update.big_eye_boy, update.small_road, update.cockroach_pig)
    assert ask == AskRoads(*(None if cell is None else cell.colour for cell in added))


@SETTINGS
@given(shoes(), heights)
def test_o_every_grid_keeps_cells_apart_and_inside_the_rows(text: str, height: int) -> None:
    board = board_of(text, height=height)
    grids = [big_road_places(board)] + [
        [(c.col, c.row) for c in road.cells] for road in board.derived_roads
    ]
    for places in grids:
        assert len(set(places)) == len(places)
        assert all(0 <= row < height for _, row in places)


@SETTINGS
@given(shoes())
def test_o_stats_match_the_results(text: str) -> None:
    results = parse_results(text)
    stats = RoadBoard.replay(results).stats
    assert stats.hands == len(results)
    assert (stats.banker, stats.player, stats.tie) == tuple(
        sum(r.winner is w for r in results) for w in (B, P, T)
    )
    assert stats.banker_pair == sum(r.banker_pair for r in results)
    assert stats.player_pair == sum(r.player_pair for r in results)


@SETTINGS
@given(shoes())
def test_o_results_notation_round_trips(text: str) -> None:
    assert format_results(parse_results(text)) == text
    assert format_results(board_of(text).results) == text


def test_o_colour_letters_and_road_kinds() -> None:
    assert [c.letter for c in Colour] == ["R", "B"]
    assert [(k.value, k.k, k.title) for k in RoadKind] == [
        ("big_eye_boy", 1, "Big Eye Boy"),
        ("small_road", 2, "Small Road"),
        ("cockroach_pig", 3, "Cockroach Pig"),
    ]
    assert astuple(AskRoads(Colour.RED, None, Colour.BLUE)) == (Colour.RED, None, Colour.BLUE)
