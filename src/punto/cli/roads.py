"""``punto roads [--json | --svg] [--height N] [RESULTS]``: draw the roads of a shoe [O].

RESULTS is one character a hand, ``B``, ``P`` or ``T``, each optionally followed by ``b``
(Banker pair) and/or ``p`` (Player pair): ``BBpPTB``. With no RESULTS, reads one shoe per
line from standard input and answers each line (JSON Lines with ``--json``; in text or
SVG, each answer is followed by a blank line); a line that fails answers an error object
and the rest go on (exit status 1 if any line failed).
"""

from __future__ import annotations

import argparse

from punto.cli.output import answer_lines, write_json
from punto.roads import DEFAULT_HEIGHT, RoadBoard, parse_results
from punto.roads_render import render_svg, render_text, roads_dict

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``roads`` subcommand."""
    parser = subparsers.add_parser(
        "roads",
        help="draw the roads (scoreboards) of a shoe's results",
        description="Draw the bead plate, Big Road, Big Eye Boy, Small Road and Cockroach Pig "
        "of a shoe's results, with Ask Banker / Ask Player and the counts. With no RESULTS, "
        "read one shoe per line from standard input.",
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="answer in JSON (JSON Lines)")
    output.add_argument("--svg", action="store_true", help="answer a standalone SVG document")
    parser.add_argument(
        "--height",
        type=int,
        default=DEFAULT_HEIGHT,
        metavar="N",
        help=f"rows of every road grid (default {DEFAULT_HEIGHT})",
    )
    parser.add_argument(
        "results",
        nargs="?",
        metavar="RESULTS",
        help="one B, P or T a hand, each optionally followed by b (Banker pair) and/or "
        "p (Player pair): BBpPTB",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Draw the roads of the given results, or of each line of standard input."""
    RoadBoard(height=args.height)  # a bad height fails once, before any line is read
    if args.results is not None:
        _answer(_board(args.results, args.height), args)
        return 0
    return answer_lines(
        lambda line: _answer(_board(line, args.height), args, separate=True),
        as_json=args.json,
        separator="\n",
    )


def _board(text: str, height: int) -> RoadBoard:
    return RoadBoard.replay(parse_results(text), height=height)


def _answer(board: RoadBoard, args: argparse.Namespace, *, separate: bool = False) -> None:
    if args.json:
        write_json(roads_dict(board))
        return
    print(render_svg(board) if args.svg else render_text(board))
    if separate:
        print()
