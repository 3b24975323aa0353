"""``punto settle [--json] --rules NAME --bets NAME=AMOUNT[,…] [--tier T] CARD...``.

Settles the bets on the coup dealt from the cards. With no card arguments, one coup
per line from standard input, one answer per line (a failing line answers an error
and the rest go on; exit status 1 if any failed). JSON: the coup (as ``punto coup``)
plus ``net`` (bet name -> net result in the stake's units) and ``total_net``.
"""

from __future__ import annotations

import argparse

from punto.bets import Bet
from punto.cards import iter_cards
from punto.cli.bets_arg import parse_bet_list
from punto.cli.output import answer_lines, describe_outcome, number, write_json
from punto.coup import deal_coup
from punto.limits import check_bets
from punto.money import show_amount
from punto.rules import Rules, preset, preset_names
from punto.settlement import Settlement, settle

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``settle`` subcommand."""
    parser = subparsers.add_parser(
        "settle",
        help="settle bets on a coup",
        description="Settle bets on the coup dealt from the given cards (shoe order). "
        "With no cards, read one coup per line from standard input.",
    )
    parser.add_argument("--json", action="store_true", help="answer in JSON (JSON Lines)")
    parser.add_argument(
        "--rules", required=True, metavar="NAME", help=f"preset: {', '.join(preset_names())}"
    )
    parser.add_argument(
        "--bets", required=True, metavar="NAME=AMOUNT[,...]", help="e.g. banker=100,tie=10"
    )
    parser.add_argument(
        "--tier", metavar="TIER", help="also check the bets against this limit tier's limits"
    )
    parser.add_argument(
        "--hand", type=int, default=1, metavar="N", help="hand number in the shoe (limits)"
    )
    parser.add_argument("cards", nargs="*", metavar="CARD", help="card codes: AS TD 10D KH 9C")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Settle and print."""
    rules = preset(args.rules)
    bets = parse_bet_list(args.bets, digits=rules.currency_digits)
    if args.tier is not None:
        check_bets(rules, bets, tier=args.tier, hand_number=args.hand)
    else:
        for bet in bets:
            rules.paytable_for(bet)
    if args.cards:
        _answer(rules, bets, args.cards, as_json=args.json)
        return 0
    return answer_lines(
        lambda line: _answer(rules, bets, line, as_json=args.json), as_json=args.json
    )


def _answer(rules: Rules, bets: dict[Bet, int], cards: str | list[str], *, as_json: bool) -> None:
    outcome = deal_coup(iter_cards(cards))
    result = settle(rules, outcome, bets)
    if as_json:
        write_json({**outcome.as_dict(), **settlement_json(rules, result)})
        return
    print(describe_outcome(outcome))
    for line in settlement_lines(rules, result):
        print(line)


def settlement_json(rules: Rules, result: Settlement) -> dict[str, object]:
    """``net`` and ``total_net`` in the stake's units."""
    d = rules.currency_digits
    return {
        "net": {r.bet.value: number(r.net, digits=d) for r in result.results},
        "total_net": number(result.total_net, digits=d),
    }


def settlement_lines(rules: Rules, result: Settlement) -> list[str]:
    """One line per bet, then the total."""
    d = rules.currency_digits
    lines = [
        f"  {r.bet.value} {show_amount(r.stake, digits=d)}: {r.payout_class} {_signed(r.net, d)}"
        for r in result.results
    ]
    lines.append(f"  total {_signed(result.total_net, d)}")
    return lines


def _signed(minor: int, digits: int) -> str:
    text = show_amount(minor, digits=digits)
    return text if minor < 0 else f"+{text}"
