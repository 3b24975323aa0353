"""punto studio reader: a card-reading shoe dealing at a live table [L].

The reader signs in as the table's dealer and deals the cards its shoe reads, in order;
a failed read (a code that is no card, a read marked bad, a duplicate of a card on the
layout, a card the shoe cannot hold) is the fault "card not scanned", and the next good
read is dealt as its re-scan. See docs/studio.md.

SOURCE: - (standard input: a keyboard-wedge scanner, or a file piped in), a serial
device such as /dev/ttyUSB0 (read raw at --baud), tcp:HOST:PORT (a networked reader),
or a file of card codes, one a line.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import os
import sys
from typing import Any

__all__ = ["register"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``studio`` subcommand and its ``reader`` action."""
    parser = subparsers.add_parser(
        "studio",
        help="the studio's devices at a live table (the card-reading shoe)",
        description="The studio's devices at a live table.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    reader = actions.add_parser(
        "reader",
        help="deal the cards a shoe's card reader reads, as the table's dealer",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    reader.add_argument("--table", required=True, help="the live table's id")
    reader.add_argument(
        "--server",
        default=os.environ.get("PUNTO_SERVER_URL", "http://127.0.0.1:8000"),
        metavar="URL",
        help="the table server (default: $PUNTO_SERVER_URL or %(default)s)",
    )
    reader.add_argument(
        "--user",
        default=os.environ.get("PUNTO_READER_USER"),
        help="the dealer to sign in as (password: $PUNTO_READER_PASSWORD, or asked); "
        "or a session token in $PUNTO_READER_TOKEN",
    )
    reader.add_argument(
        "--source", default="-", metavar="SOURCE", help="where the reads come from (default: -)"
    )
    reader.add_argument(
        "--baud", type=int, default=9600, help="a serial reader's speed (default: %(default)s)"
    )
    reader.add_argument("--json", action="store_true", help="one JSON object a step, and a summary")
    reader.set_defaults(handler=run_reader)


def run_reader(args: argparse.Namespace) -> int:
    """Run the reader until its source ends; print each step and what was dealt."""
    from punto.errors import ReaderError
    from punto.studio.reader import run_reader as run
    from punto.studio.reader import sign_in
    from punto.studio.sources import check, lines

    def say(step: dict[str, Any]) -> None:
        if args.json:
            print(json.dumps(step, default=str), flush=True)
        else:
            print(_words(step), file=sys.stderr, flush=True)

    check(args.source, baud=args.baud)  # a source that cannot be read fails before sign-in

    async def main() -> dict[str, int]:
        token = os.environ.get("PUNTO_READER_TOKEN")
        if not token:
            if not args.user:
                raise ReaderError("name the dealer (--user) or set PUNTO_READER_TOKEN")
            password = os.environ.get("PUNTO_READER_PASSWORD")
            if password is None:
                try:
                    open("/dev/tty").close()  # getpass asks there; with no terminal, say so
                    password = getpass.getpass(f"{args.user}'s password: ")
                except (OSError, EOFError):
                    raise ReaderError("no password (set PUNTO_READER_PASSWORD)") from None
            token = await sign_in(args.server, args.user, password)
        report = await run(
            args.server, args.table, token, lines(args.source, baud=args.baud), say=say
        )
        return {
            "dealt": report.dealt,
            "rescans": report.rescans,
            "faults": report.faults,
            "failed_rescans": report.skipped,
            "cut_card": report.cut,
        }

    summary = asyncio.run(main())
    if args.json:
        print(json.dumps({"summary": summary}))
    else:
        print(
            f"dealt {summary['dealt']} cards ({summary['rescans']} re-scanned); "
            f"{summary['faults']} cards not scanned"
        )
    return 0


def _words(step: dict[str, Any]) -> str:
    kind = step.get("step")
    if kind == "deal":
        return f"dealt {step['card']}"
    if kind == "rescan":
        return f"re-scanned {step['card']}"
    if kind == "fault":
        return f"card not scanned ({_why(step['misread'])}: {step['read']}): scan it again"
    if kind == "skip":
        return f"the re-scan failed too ({_why(step['misread'])}): scan it again"
    if kind == "cut_card_out":
        return "the cut card is out"
    reason = step.get("refused") or step.get("waiting")
    return f"the table did not take {step.get('read')}: {reason}"


def _why(misread: object) -> str:
    return {
        "unknown_code": "no card code",
        "marked_bad": "marked bad",
        "duplicate": "the same card as one on the layout",
        "refused": "a card this shoe cannot hold",
    }.get(str(misread), str(misread))
