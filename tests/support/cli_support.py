"""``punto`` with only the subcommands a test drives, each added by its module's
``register`` and run as :func:`punto.cli.main` runs the whole command line."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import pytest

from punto.cli import main, run


class Subcommand(Protocol):
    """A ``punto.cli`` module: it adds its parser and sets ``handler``."""

    def register(self, subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        """Add the subcommand's parser."""


def command_line(*commands: Subcommand) -> Callable[[Sequence[str]], int]:
    """A ``punto`` that knows only ``commands``; it returns the exit status."""

    def punto(argv: Sequence[str]) -> int:
        parser = argparse.ArgumentParser(prog="punto")
        subparsers = parser.add_subparsers(dest="command", required=True)
        for command in commands:
            command.register(subparsers)
        return run(parser, argv)

    return punto


def json_output(
    capsys: pytest.CaptureFixture[str],
    punto: Callable[[Sequence[str]], int],
    argv: Sequence[str],
) -> dict[str, Any]:
    """The JSON document a successful ``punto`` call prints."""
    assert punto(argv) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


def punto_output(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The whole ``punto`` command line run with ``argv``: its exit status, what it
    printed and what it said on standard error."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err
