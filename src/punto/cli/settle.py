"""``punto settle [--json] --rules NAME --bets NAME=AMOUNT[,…] [--tier T [--hand N]]
[--lightning CARD=MULT,…] CARD...``.

Settles the bets on the coup dealt from the cards. With no card arguments, one coup
per line from standard input, one answer line per input line (a failing line answers an
error and the rest go on; exit status 1 if any failed). JSON: the coup (as ``punto coup``)
plus ``net`` (bet name -> net result in the stake's units) and ``total_net``.

A multiplier table [LB] settles with the hand's lightning cards, ``--lightning
7S=8,AH=2`` (required there; the fee is paid with the bet, so ``net`` leaves it out).
"""

from __future__ import annotations

import argparse

from punto.bets import Bet
from punto.cards import iter_cards
from punto.cli.bets_arg import parse_bet_list
from punto.cli.output import answer_lines, describe_outcome, number, write_json
from punto.cli.rules import RULES_HELP
from punto.coup import deal_coup
from punto.errors import BetError, RulesError
from punto.limits import check_bets
from punto.money import display_amount, show_amount
from punto.multipliers import LightningDraw
from punto.rules import Rules
from punto.rules_document import load_rules
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
    parser.add_argument("--rules", required=True, metavar="NAME|FILE.json", help=RULES_HELP)
    parser.add_argument(
        "--bets", required=True, metavar="NAME=AMOUNT[,...]", help="e.g. banker=100,tie=10"
    )
    parser.add_argument(
        "--tier", metavar="TIER", help="also check the bets against this limit tier's limits"
    )
    parser.add_argument(
        "--hand",
        type=int,
        metavar="N",
        help="with --tier: the hand's number in the shoe, for bets that close (default 1)",
    )
    parser.add_argument(
        "--lightning",
        metavar="CARD=MULT[,...]",
        help="a multiplier table: the hand's lightning cards, e.g. 7S=8,AH=2",
    )
    parser.add_argument("cards", nargs="*", metavar="CARD", help="card codes: AS TD 10D KH 9C")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Settle and print."""
    rules = load_rules(args.rules)
    bets = parse_bet_list(args.bets, digits=rules.currency_digits)
    if args.tier is not None:
        hand = 1 if args.hand is None else args.hand
        check_bets(rules, bets, tier=args.tier, hand_number=hand)
    elif args.hand is not None:
        raise BetError("--hand N is the hand number the limits are checked at: give --tier too")
    else:
        for bet in bets:
            rules.paytable_for(bet)
    draw = _lightning(rules, args.lightning)
    if args.cards:
        _answer(rules, bets, " ".join(args.cards), draw, as_json=args.json, one_line=False)
        return 0
    return answer_lines(
        lambda line: _answer(rules, bets, line, draw, as_json=args.json, one_line=True),
        as_json=args.json,
    )


def _lightning(rules: Rules, text: str | None) -> LightningDraw | None:
    """The ``--lightning`` draw: required at a multiplier table, refused elsewhere [LB]."""
    if rules.lightning is None:
        if text is not None:
            raise RulesError(f"the {rules.name} rules deal no lightning cards: drop --lightning")
        return None
    if text is None:
        raise RulesError(
            f"a {rules.name} hand settles with its lightning cards: give --lightning, "
            "e.g. --lightning 7S=8,AH=2"
        )
    return LightningDraw.parse(text)


def _answer(
    rules: Rules,
    bets: dict[Bet, int],
    cards: str,
    draw: LightningDraw | None,
    *,
    as_json: bool,
    one_line: bool,
) -> None:
    outcome = deal_coup(iter_cards(cards))
    result = settle(rules, outcome, bets, lightning=draw)
    if as_json:
        write_json({**outcome.as_dict(), **settlement_json(rules, result)})
    elif one_line:
        # Line mode: one answer line per input line, so a script can pair them up.
        print(f"{describe_outcome(outcome)} | {settlement_line(rules, result)}")
    else:
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


def settlement_lines(rules: Rules, result: Settlement, *, full: bool = False) -> list[str]:
    """One line per bet, then the total; amounts in their shortest form, or with
    ``full`` as a table shows them (all the currency's decimals, grouped: ``10.00``)."""
    d = rules.currency_digits
    shown = display_amount if full else show_amount
    lines = [
        f"  {r.bet.value} {shown(r.stake, digits=d)}: {r.payout_class} "
        f"{_signed(r.net, d, full=full)}"
        for r in result.results
    ]
    lines.append(f"  total {_signed(result.total_net, d, full=full)}")
    return lines


def settlement_line(rules: Rules, result: Settlement) -> str:
    """The settlement on one line: each bet, then the total.

    >>> from punto.cards import parse_cards
    >>> from punto.rules import preset
    >>> macau = preset("macau")
    >>> result = settle(macau, deal_coup(parse_cards("2S 9H 3D 9C")), {Bet.BANKER: 10000})
    >>> settlement_line(macau, result)
    'banker 100: win +95; total +95'
    """
    return "; ".join(line.strip() for line in settlement_lines(rules, result))


def _signed(minor: int, digits: int, *, full: bool = False) -> str:
    text = (display_amount if full else show_amount)(minor, digits=digits)
    return text if minor < 0 else f"+{text}"
