"""``punto coup [--json] CARD...``: deal one coup from cards in shoe order.

With no card arguments, reads one coup per line from standard input and answers
one line each (JSON Lines with ``--json``); a line that fails answers an error
object and the rest go on (exit status 1 if any line failed).
"""

from __future__ import annotations

import argparse

from punto.cards import iter_cards
from punto.cli.output import answer_lines, describe_outcome, write_json
from punto.coup import deal_coup

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``coup`` subcommand."""
    parser = subparsers.add_parser(
        "coup",
        help="deal one coup from the given cards",
        description="Deal one coup from the given cards in shoe order (extra cards are "
        "ignored). With no cards, read one coup per line from standard input.",
    )
    parser.add_argument("--json", action="store_true", help="answer in JSON (JSON Lines)")
    parser.add_argument("cards", nargs="*", metavar="CARD", help="card codes: AS TD 10D KH 9C")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Deal the coup(s) and print the answer(s)."""
    if args.cards:
        # One string, so that "4S 7H KD 8C" in quotes or 4S,7H,KD,8C read as on a line.
        outcome = deal_coup(iter_cards(" ".join(args.cards)))
        _answer(outcome.as_dict() if args.json else describe_outcome(outcome), json=args.json)
        return 0

    def answer(line: str) -> None:
        outcome = deal_coup(iter_cards(line))
        _answer(outcome.as_dict() if args.json else describe_outcome(outcome), json=args.json)

    return answer_lines(answer, as_json=args.json)


def _answer(answer: object, *, json: bool) -> None:
    if json:
        write_json(answer)
    else:
        print(answer)
