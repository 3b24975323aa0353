"""The ``punto`` command line: the scripting interface over the rules core.

Each subcommand lives in its own module with a ``register(subparsers)`` function
that adds its parser and sets ``handler``. Errors a user can cause are printed as
``punto: error: …`` with exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from punto import __version__
from punto.cli import (
    coup,
    edge,
    jurisdictions,
    ledger,
    operators,
    play,
    reports,
    roads,
    rules,
    serve,
    settle,
    shoe,
    simulate,
    studio,
    users,
    video,
)
from punto.errors import PuntoError

__all__ = ["build_parser", "main", "run"]

_COMMANDS = (
    coup,
    shoe,
    settle,
    edge,
    simulate,
    roads,
    play,
    rules,
    ledger,
    operators,
    jurisdictions,
    reports,
    users,
    serve,
    studio,
    video,
)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors read like every other user error:
    ``punto: error: …``, exit status 2 (subcommand parsers are of the same class)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"punto: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The ``punto`` argument parser with every subcommand."""
    parser = _Parser(prog="punto", description="Punto: an exact, fast baccarat system.")
    parser.add_argument("--version", action="version", version=f"punto {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in _COMMANDS:
        module.register(subparsers)
    return parser


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` with ``parser`` and run the chosen subcommand's ``handler``; a
    :class:`PuntoError` is printed as ``punto: error: …`` with exit status 2."""
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except PuntoError as exc:
        print(f"punto: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``punto`` with ``argv`` (default: the process arguments); return the exit status."""
    return run(build_parser(), argv)
