"""Every ``punto … --help`` is plain text for a terminal: no reStructuredText marks."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from punto.cli import build_parser


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                yield from _parsers(child)


def test_no_help_shows_rst_marks() -> None:
    helps = {p.prog: p.format_help() for p in _parsers(build_parser())}
    assert "punto serve" in helps
    assert "punto video prune" in helps
    marked = {prog: text for prog, text in helps.items() if "``" in text or ":class:`" in text}
    assert marked == {}
    assert "With --demo (make run)" in " ".join(helps["punto serve"].split())
