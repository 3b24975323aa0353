"""Renderings of a :class:`~punto.roads.RoadBoard`: plain text, SVG and plain data.

The text is for the terminal (``punto roads``, ``punto shoe``, ``punto play``); the SVG is
a standalone document drawn as casino boards draw the roads [O]: red, blue and green beads
with pair dots, Big Road hollow rings with green tie slashes and tie counts, Big Eye Boy
hollow circles, Small Road solid dots, Cockroach Pig slashes. :func:`roads_dict` is the
plain data behind ``punto roads --json``. Nothing here changes the board.

>>> from punto.roads import RoadBoard, parse_results
>>> board = RoadBoard.replay(parse_results("BBPPPBPBB"))
>>> print(render_text(board, sections=("big_road", "big_eye_boy")))
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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from xml.sax.saxutils import escape

from punto.errors import RoadError
from punto.outcome import Winner
from punto.roads import Colour, DerivedRoad, RoadBoard, RoadKind, RoadResult

__all__ = [
    "BLUE",
    "DEFAULT_CELL",
    "GREEN",
    "RED",
    "SECTIONS",
    "bead_plate_svg",
    "big_road_svg",
    "derived_road_svg",
    "render_svg",
    "render_text",
    "roads_dict",
]

RED = "#d32f2f"
"""Banker, and the red marks of the derived roads."""
BLUE = "#1565c0"
"""Player, and the blue marks of the derived roads."""
GREEN = "#2e7d32"
"""Ties."""
_GRID = "#cfd8dc"
_INK = "#263238"
_FONT = "font-family:Helvetica,Arial,sans-serif"

DEFAULT_CELL = 24
"""Side in pixels of a bead plate and Big Road cell; derived roads use half of it."""

SECTIONS = ("stats", "bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig", "ask")
"""The parts of :func:`render_text`, in order."""

_LETTER = {Winner.BANKER: "B", Winner.PLAYER: "P", Winner.TIE: "T"}
_FILL = {Winner.BANKER: RED, Winner.PLAYER: BLUE, Winner.TIE: GREEN}
_COLOUR = {Colour.RED: RED, Colour.BLUE: BLUE}
_MARGIN = 8
_TITLE = 18


# --- plain data -----------------------------------------------------------------------


def roads_dict(board: RoadBoard) -> dict[str, object]:
    """The ``punto roads --json`` document: every road, the ask-roads and the counts.

    >>> from punto.roads import RoadBoard, parse_results
    >>> doc = roads_dict(RoadBoard.replay(parse_results("TBp")))
    >>> doc["big_road"]
    [{'col': 0, 'row': 0, 'result': 'B', 'ties': 1, 'logical_col': 0, 'logical_row': 0}]
    >>> doc["ask"]
    {'banker': {'big_eye_boy': None, 'small_road': None, 'cockroach_pig': None}, \
'player': {'big_eye_boy': None, 'small_road': None, 'cockroach_pig': None}}
    """
    stats = board.stats
    doc: dict[str, object] = {
        "bead_plate": [
            {
                "col": c.col,
                "row": c.row,
                "result": _LETTER[c.result.winner],
                "banker_pair": c.result.banker_pair,
                "player_pair": c.result.player_pair,
            }
            for c in board.bead_plate
        ],
        "big_road": [
            {
                "col": c.col,
                "row": c.row,
                "result": _LETTER[c.winner],
                "ties": c.ties,
                "logical_col": c.logical_col,
                "logical_row": c.logical_row,
            }
            for c in board.big_road
        ],
    }
    for road in board.derived_roads:
        doc[road.kind.value] = {
            "marks": road.marks,
            "cells": [{"col": c.col, "row": c.row, "colour": c.colour.letter} for c in road.cells],
        }
    doc["ask"] = {
        side: {
            kind.value: None if (colour := ask.colour(kind)) is None else colour.letter
            for kind in RoadKind
        }
        for side, ask in (
            ("banker", board.ask(Winner.BANKER)),
            ("player", board.ask(Winner.PLAYER)),
        )
    }
    doc["counts"] = {
        "hands": stats.hands,
        "banker": stats.banker,
        "player": stats.player,
        "tie": stats.tie,
        "banker_pair": stats.banker_pair,
        "player_pair": stats.player_pair,
        "natural": stats.natural,
    }
    return doc


# --- text -----------------------------------------------------------------------------


def render_text(
    board: RoadBoard, *, columns: int | None = None, sections: Sequence[str] = SECTIONS
) -> str:
    """The roads as plain text, one grid row a line, ``.`` for an empty cell.

    Bead plate cells read like ``punto roads`` input (``Bbp``: Banker with both pairs);
    Big Road cells are ``B`` or ``P`` then ``/`` for a tie, ``/3`` for three; derived
    roads show ``R`` (red) and ``B`` (blue). ``columns`` shows exactly that many grid
    columns of each road, the latest ones (as a scrolling casino board does); by default
    every column. ``sections`` picks and orders the parts, from :data:`SECTIONS`.

    >>> from punto.roads import RoadBoard, parse_results
    >>> print(render_text(RoadBoard.replay(parse_results("TTBPp")), sections=("stats", "ask")))
    Hand 4 | Banker 1 | Player 1 | Tie 2 | Banker pair 0 | Player pair 1 | Natural 0
    Ask Banker: Big Eye Boy R, Small Road -, Cockroach Pig -
    Ask Player: Big Eye Boy B, Small Road -, Cockroach Pig -
    """
    unknown = [name for name in sections if name not in SECTIONS]
    if unknown:
        raise RoadError(f"unknown road text sections {unknown}; choose from {list(SECTIONS)}")
    lines: list[str] = []
    for name in sections:
        if name == "stats":
            lines.append(_stats_line(board))
        elif name == "bead_plate":
            cells = {(c.col, c.row): c.result.code for c in board.bead_plate}
            lines += _text_grid("Bead plate", cells, board.height, columns)
        elif name == "big_road":
            lines += _text_grid("Big Road", _big_road_labels(board), board.height, columns)
        elif name == "ask":
            lines += _ask_lines(board)
        else:
            road = _derived_by_name(board, name)
            cells = {(c.col, c.row): c.colour.letter for c in road.cells}
            lines += _text_grid(road.kind.title, cells, road.height, columns)
    return "\n".join(lines)


def _derived_by_name(board: RoadBoard, name: str) -> DerivedRoad:
    return next(road for road in board.derived_roads if road.kind.value == name)


def _stats_line(board: RoadBoard) -> str:
    s = board.stats
    return (
        f"Hand {s.hands} | Banker {s.banker} | Player {s.player} | Tie {s.tie} | "
        f"Banker pair {s.banker_pair} | Player pair {s.player_pair} | Natural {s.natural}"
    )


def _tie_mark(ties: int) -> str:
    return "" if ties == 0 else "/" if ties == 1 else f"/{ties}"


def _big_road_labels(board: RoadBoard) -> dict[tuple[int, int], str]:
    labels = {(c.col, c.row): _LETTER[c.winner] + _tie_mark(c.ties) for c in board.big_road}
    if not labels and board.leading_ties:
        # Only ties so far: they wait on the first cell [O].
        labels[(0, 0)] = _tie_mark(board.leading_ties)
    return labels


def _ask_lines(board: RoadBoard) -> list[str]:
    lines = []
    for side, winner in (("Banker", Winner.BANKER), ("Player", Winner.PLAYER)):
        ask = board.ask(winner)
        answers = []
        for kind in RoadKind:
            colour = ask.colour(kind)
            answers.append(f"{kind.title} {'-' if colour is None else colour.letter}")
        lines.append(f"Ask {side}: {', '.join(answers)}")
    return lines


def _window(used: int, columns: int | None) -> tuple[int, int]:
    """The first grid column shown and how many are shown."""
    if columns is None:
        return 0, used
    if columns < 1:
        raise RoadError(f"a road needs at least 1 column shown, not {columns}")
    return max(0, used - columns), columns


def _text_grid(
    title: str, labels: dict[tuple[int, int], str], height: int, columns: int | None
) -> list[str]:
    used = max((col for col, _ in labels), default=-1) + 1
    first, shown = _window(used, columns)
    if shown == 0:
        return [f"{title} (empty)"]
    if first:
        title += f" (last {shown} of {used} columns)"
    width = max((len(label) for label in labels.values()), default=1)
    rows = [
        " ".join(
            labels.get((col, row), ".").ljust(width) for col in range(first, first + shown)
        ).rstrip()
        for row in range(height)
    ]
    return [title, *rows]


# --- SVG ------------------------------------------------------------------------------


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _document(width: float, height: float, title: str, body: Iterable[str]) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(width)}" '
            f'height="{_num(height)}" viewBox="0 0 {_num(width)} {_num(height)}" role="img">',
            f"<title>{escape(title)}</title>",
            f'<rect width="{_num(width)}" height="{_num(height)}" fill="#ffffff"/>',
            *body,
            "</svg>",
        ]
    )


def _text(
    x: float, y: float, size: float, fill: str, content: str, *, middle: bool, extra: str = ""
) -> str:
    """Text with its baseline at ``y``, or centred on ``x``, ``y`` when ``middle``."""
    # dy rather than dominant-baseline: not every SVG renderer honours the latter.
    anchor = ' text-anchor="middle" dy="0.35em"' if middle else ""
    return (
        f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}" fill="{fill}" '
        f'style="{_FONT}"{anchor}{extra}>{escape(content)}</text>'
    )


def _circle(cx: float, cy: float, r: float, style: str) -> str:
    return f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" {style}/>'


def _slash(cx: float, cy: float, half: float, colour: str, width: float) -> str:
    """A line from bottom-left to top-right through the cell's centre."""
    return (
        f'<line x1="{_num(cx - half)}" y1="{_num(cy + half)}" x2="{_num(cx + half)}" '
        f'y2="{_num(cy - half)}" stroke="{colour}" stroke-width="{_num(width)}" '
        'stroke-linecap="round"/>'
    )


def _pair_dots(cx: float, cy: float, cell: float, *, banker: bool, player: bool) -> list[str]:
    """Banker pair: red dot top-left; Player pair: blue dot bottom-right [O]."""
    off, r, ring = cell * 0.3, cell * 0.11, f'stroke="#ffffff" stroke-width="{_num(cell * 0.03)}"'
    dots = []
    if banker:
        dots.append(_circle(cx - off, cy - off, r, f'fill="{RED}" {ring}'))
    if player:
        dots.append(_circle(cx + off, cy + off, r, f'fill="{BLUE}" {ring}'))
    return dots


_CellDrawer = Callable[[float, float, float], list[str]]
"""Draws one cell centred on ``cx``, ``cy`` with side ``cell``."""
_Section = tuple[str, list[str], float, float]
"""A drawn part of a document: its class name, elements, width and height."""


def _svg_grid(
    *,
    title: str,
    cell: float,
    height: int,
    cells: Sequence[tuple[int, int, _CellDrawer]],
    columns: int | None,
) -> _Section:
    """A titled grid drawn at the origin."""
    used = max((col for col, _, _ in cells), default=-1) + 1
    first, shown = _window(used, columns)
    shown = max(shown, 1)
    width, depth = shown * cell, height * cell
    top = _TITLE
    lines = [f"M{_num(i * cell)} {top}v{_num(depth)}" for i in range(shown + 1)]
    lines += [f"M0 {_num(top + j * cell)}h{_num(width)}" for j in range(height + 1)]
    out = [
        _text(0, _TITLE - 5, 12, _INK, title, middle=False),
        f'<path d="{"".join(lines)}" fill="none" stroke="{_GRID}" stroke-width="1"/>',
    ]
    for col, row, draw in cells:
        if col >= first:
            out += draw((col - first + 0.5) * cell, top + (row + 0.5) * cell, cell)
    return _slug(title), out, max(width, _title_width(title)), _TITLE + depth


def _slug(title: str) -> str:
    """The section's class in the SVG: ``Big Eye Boy`` -> ``big-eye-boy``."""
    return title.lower().replace(" ", "-")


def _title_width(title: str) -> float:
    return len(title) * 7.0


def _bead(result: RoadResult, *, totals: bool) -> _CellDrawer:
    def draw(cx: float, cy: float, cell: float) -> list[str]:
        label = _LETTER[result.winner]
        if totals and result.winning_total is not None:
            label = str(result.winning_total)
        return [
            _circle(cx, cy, cell * 0.42, f'fill="{_FILL[result.winner]}"'),
            _text(cx, cy, cell * 0.5, "#ffffff", label, middle=True),
            *_pair_dots(cx, cy, cell, banker=result.banker_pair, player=result.player_pair),
        ]

    return draw


def _big_road_cell(
    winner: Winner | None, ties: int, *, banker: bool = False, player: bool = False
) -> _CellDrawer:
    """A hollow ring (none for ties alone), a green slash for ties, the count past one."""

    def draw(cx: float, cy: float, cell: float) -> list[str]:
        out = []
        if winner is not None:
            ring = f'fill="none" stroke="{_FILL[winner]}" stroke-width="{_num(cell * 0.09)}"'
            out.append(_circle(cx, cy, cell * 0.34, ring))
        if ties:
            out.append(_slash(cx, cy, cell * 0.3, GREEN, cell * 0.09))
        if ties > 1:
            # The count sits on the ring, haloed in white so the slash does not hide it.
            halo = ' font-weight="bold" stroke="#ffffff" stroke-width="2" paint-order="stroke"'
            out.append(_text(cx, cy, cell * 0.5, GREEN, str(ties), middle=True, extra=halo))
        out += _pair_dots(cx, cy, cell, banker=banker, player=player)
        return out

    return draw


def _derived_cell(kind: RoadKind, colour: Colour) -> _CellDrawer:
    paint = _COLOUR[colour]

    def draw(cx: float, cy: float, cell: float) -> list[str]:
        if kind is RoadKind.BIG_EYE_BOY:
            ring = f'fill="none" stroke="{paint}" stroke-width="{_num(cell * 0.14)}"'
            return [_circle(cx, cy, cell * 0.32, ring)]
        if kind is RoadKind.SMALL_ROAD:
            return [_circle(cx, cy, cell * 0.36, f'fill="{paint}"')]
        return [_slash(cx, cy, cell * 0.32, paint, cell * 0.16)]

    return draw


def _bead_section(board: RoadBoard, cell: float, columns: int | None, totals: bool) -> _Section:
    cells = [(c.col, c.row, _bead(c.result, totals=totals)) for c in board.bead_plate]
    return _svg_grid(
        title="Bead plate", cell=cell, height=board.height, cells=cells, columns=columns
    )


def _big_road_section(board: RoadBoard, cell: float, columns: int | None) -> _Section:
    cells = [
        (
            c.col,
            c.row,
            _big_road_cell(
                c.winner, c.ties, banker=c.result.banker_pair, player=c.result.player_pair
            ),
        )
        for c in board.big_road
    ]
    if not cells and board.leading_ties:
        # Only ties so far: they wait on the first cell [O].
        cells = [(0, 0, _big_road_cell(None, board.leading_ties))]
    return _svg_grid(title="Big Road", cell=cell, height=board.height, cells=cells, columns=columns)


def _derived_section(road: DerivedRoad, cell: float, columns: int | None) -> _Section:
    cells = [(c.col, c.row, _derived_cell(road.kind, c.colour)) for c in road.cells]
    return _svg_grid(
        title=road.kind.title, cell=cell, height=road.height, cells=cells, columns=columns
    )


def _stack(title: str, sections: Sequence[_Section]) -> str:
    """Sections one under the other in a standalone document, with margins."""
    body: list[str] = []
    width, y = 0.0, float(_MARGIN)
    for name, part, part_width, part_height in sections:
        body += [f'<g class="{name}" transform="translate({_MARGIN} {_num(y)})">', *part, "</g>"]
        width = max(width, part_width)
        y += part_height + _MARGIN
    return _document(width + 2 * _MARGIN, y, title, body)


def bead_plate_svg(
    board: RoadBoard,
    *,
    cell: float = DEFAULT_CELL,
    columns: int | None = None,
    totals: bool = False,
) -> str:
    """The bead plate as a standalone SVG document; ``totals`` writes the winning total in
    each bead instead of B, P or T (where the board knows it).

    >>> from punto.roads import RoadBoard, parse_results
    >>> bead_plate_svg(RoadBoard.replay(parse_results("Bb"))).count("<circle")
    2
    """
    return _stack("Bead plate", [_bead_section(board, cell, columns, totals)])


def big_road_svg(
    board: RoadBoard, *, cell: float = DEFAULT_CELL, columns: int | None = None
) -> str:
    """The Big Road as a standalone SVG document."""
    return _stack("Big Road", [_big_road_section(board, cell, columns)])


def derived_road_svg(
    road: DerivedRoad, *, cell: float = DEFAULT_CELL / 2, columns: int | None = None
) -> str:
    """One derived road (Big Eye Boy, Small Road or Cockroach Pig) as a standalone SVG."""
    return _stack(road.kind.title, [_derived_section(road, cell, columns)])


def render_svg(
    board: RoadBoard,
    *,
    cell: float = DEFAULT_CELL,
    columns: int | None = None,
    bead_totals: bool = False,
) -> str:
    """Every road as one standalone SVG document: the counts, the bead plate, the Big Road
    and the three derived roads, one under the other. Derived roads use half-size cells, so
    ``columns`` (the latest grid columns shown) gives them twice as many.

    >>> from punto.roads import RoadBoard, parse_results
    >>> svg = render_svg(RoadBoard.replay(parse_results("BBPPPBPBB")))
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"'), svg.endswith("</svg>")
    (True, True)
    """
    stats = _stats_line(board)
    half_columns = None if columns is None else 2 * columns  # half-size cells, same width
    counts = ("counts", [_text(0, 12, 12, _INK, stats, middle=False)], len(stats) * 6.5, 14.0)
    return _stack(
        "Punto roads",
        [
            counts,
            _bead_section(board, cell, columns, bead_totals),
            _big_road_section(board, cell, columns),
            *(_derived_section(road, cell / 2, half_columns) for road in board.derived_roads),
        ],
    )
