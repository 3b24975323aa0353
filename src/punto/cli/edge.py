"""``punto edge [--json] [--rules NAME] [--decks N] [--removed CARD…]
[--remaining RANK=COUNT,…] [--eor]``: the exact edge of every bet.

The shoe is a fresh one of ``--decks`` decks (default: the preset's), less the
``--removed`` cards; or exactly the ``--remaining`` rank counts (ranks not listed hold
none), less the ``--removed`` cards. JSON: ``outcomes`` (``banker``, ``player``, ``tie``
probabilities) and ``bets``, bet name to ``house_edge`` (a fraction of the stake,
positive when the house wins), ``rtp``, ``std_dev``, ``hit_frequency``, plus the bet's
``paytable`` and the probability of each payout class; ``--eor`` adds
``effect_of_removal`` (bet to rank to the change in house edge when one card of that rank
is removed).

A multiplier table [LB] (``--rules lightning``) and a Peek table [PK] (``--rules peek``)
price their bets exactly with the lightning draw and fee, or the optimal raise: their
``rtp`` and ``house_edge`` are per unit *paid* (stake plus fees), the paytable's alone
are kept as ``base_rtp`` and ``base_house_edge`` (a multiplier bet's ``std_dev`` is per
unit paid too, the paytable's ``base_std_dev``; ``hit_frequency`` stays the paytable's).
JSON adds ``lightning`` (the draw, fee, cap and per-bet figures; ``--stake`` applies
the cap to that stake) or ``peek`` (the raise rules and, per bet, the optimal raise by
two-card totals, ``raise_by_totals``, -1 where it depends on the cards, and by cards,
``raise_by_cards``); the text adds the same.
"""

from __future__ import annotations

import argparse
from typing import Any

from punto.analysis import Analysis, Composition, EffectOfRemoval, analyze, effect_of_removal
from punto.analysis.lightning import LightningAnalysis, lightning_analysis
from punto.analysis.peek import PeekAnalysis, peek_analysis
from punto.cards import RANKS, parse_cards
from punto.cli.output import write_json
from punto.cli.rules import RULES_HELP
from punto.rules_document import load_rules

__all__ = ["register", "run"]

DEFAULT_RULES = "macau"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``edge`` subcommand."""
    parser = subparsers.add_parser(
        "edge",
        help="exact house edge of every bet for a shoe",
        description="Exact probabilities, house edge, RTP, standard deviation and hit "
        "frequency of every bet of a rules preset, for a fresh shoe or what is left of one.",
    )
    parser.add_argument("--json", action="store_true", help="answer in JSON")
    parser.add_argument(
        "--rules",
        default=DEFAULT_RULES,
        metavar="NAME|FILE.json",
        help=f"{RULES_HELP} (default {DEFAULT_RULES})",
    )
    shoe = parser.add_mutually_exclusive_group()
    shoe.add_argument("--decks", type=int, metavar="N", help="a fresh shoe of N decks (1-12)")
    shoe.add_argument(
        "--remaining",
        metavar="RANK=COUNT,...",
        help="the shoe holds exactly these cards, e.g. A=30,2=31,T=32 (others: none)",
    )
    parser.add_argument(
        "--removed", nargs="+", default=[], metavar="CARD", help="cards dealt: AS TD 10D KH"
    )
    parser.add_argument(
        "--eor", action="store_true", help="also the effect of removing one card of each rank"
    )
    parser.add_argument(
        "--stake",
        type=int,
        metavar="MINOR",
        help="multiplier tables: apply the round's payout cap to this stake (minor units)",
    )
    parser.set_defaults(handler=run)


def composition_of(args: argparse.Namespace, decks: int) -> Composition:
    """The shoe the arguments describe (typed errors for anything that cannot be)."""
    removed = parse_cards(" ".join(args.removed))
    if args.remaining is not None:
        return Composition.parse(args.remaining).removing(removed)
    return Composition.after_removing(removed, decks=decks if args.decks is None else args.decks)


def run(args: argparse.Namespace) -> int:
    """Analyse and print."""
    rules = load_rules(args.rules)
    shoe = composition_of(args, rules.decks)
    result = analyze(rules, shoe)
    eor = effect_of_removal(rules, shoe) if args.eor else None
    lightning = (
        lightning_analysis(rules, shoe, stake=args.stake) if rules.lightning is not None else None
    )
    peek = peek_analysis(rules, shoe) if rules.peek is not None else None
    if args.json:
        doc = result.as_dict()
        if args.remaining is None:
            doc["decks"] = rules.decks if args.decks is None else args.decks
        if eor is not None:
            doc["effect_of_removal"] = eor.as_dict()
        _variant_json(doc, lightning, peek)
        write_json(doc)
    else:
        for line in edge_lines(result, eor):
            print(line)
        for line in variant_lines(lightning, peek):
            print(line)
    return 0


def _variant_json(
    doc: dict[str, Any], lightning: LightningAnalysis | None, peek: PeekAnalysis | None
) -> None:
    """The variant's figures over the paytable's, and its own block."""
    figures: dict[str, tuple[float, float]] = {}
    if lightning is not None:
        doc["lightning"] = lightning.as_dict()
        figures = {b.value: (float(r.rtp), float(r.house_edge)) for b, r in lightning.bets.items()}
        for bet, r in lightning.bets.items():
            doc["bets"][bet.value]["base_std_dev"] = doc["bets"][bet.value]["std_dev"]
            doc["bets"][bet.value]["std_dev"] = r.as_dict()["std_dev"]
    if peek is not None:
        doc["peek"] = peek.as_dict()
        figures = {b.value: (float(r.rtp), float(r.house_edge)) for b, r in peek.bets.items()}
    bets = doc["bets"]
    for name, (rtp, edge) in figures.items():
        bets[name]["base_rtp"] = bets[name]["rtp"]
        bets[name]["base_house_edge"] = bets[name]["house_edge"]
        bets[name]["rtp"] = rtp
        bets[name]["house_edge"] = edge


def variant_lines(lightning: LightningAnalysis | None, peek: PeekAnalysis | None) -> list[str]:
    """The text of a multiplier or Peek table's exact figures (and the raise table)."""
    lines: list[str] = []
    if lightning is not None:
        table = lightning.table
        cap = (
            "no cap"
            if lightning.stake is None
            else f"cap {table.cap} on a stake of {lightning.stake}"
        )
        lines.append(f"lightning [LB] {table.name}: fee {_pct(float(table.fee))}, {cap}")
        lines.append(f"{'bet':<14} {'RTP':>10} {'house edge':>11} {'lit wins':>10} {'mean M':>8}")
        for bet, r in lightning.bets.items():
            lines.append(
                f"{bet.value:<14} {_pct(float(r.rtp)):>10} {_pct(float(r.house_edge)):>11} "
                f"{_pct(float(r.multiplied_probability)):>10} {float(r.expected_multiplier):>8.4f}"
            )
    if peek is not None:
        rules = peek.peek
        lines.append(
            f"peek [PK] {rules.name}: stake fee {_pct(float(rules.stake_fee))}, raise fee "
            f"{_pct(float(rules.raise_fee))} of the raise, {rules.revealed} cards seen"
        )
        for bet, p in peek.bets.items():
            lines.append(
                f"{bet.value}: RTP {_pct(float(p.rtp))} with the optimal raise (never raised "
                f"{_pct(float(p.base_rtp))}), raises {_pct(float(p.raise_probability))} of hands"
            )
            if p.revealed == 4:
                lines.append(
                    "  raise by totals (rows Player, columns Banker; ? depends on the cards):"
                )
                lines.append("      " + " ".join(f"{b:>2}" for b in range(10)))
                for pt, row in p.by_totals().items():
                    cells = " ".join(
                        f"{'?' if row.get(str(b), 0) < 0 else row.get(str(b), 0):>2}"
                        for b in range(10)
                    )
                    lines.append(f"  {pt:>2}  {cells}")
    return lines


def _pct(value: float) -> str:
    return f"{100 * value:.4f}%"


def edge_lines(result: Analysis, eor: EffectOfRemoval | None = None) -> list[str]:
    """The text rendering: outcomes, then one line per bet (and the EoR table)."""
    o = result.outcomes.as_dict()
    lines = [
        f"{result.rules}: {result.composition.cards} cards",
        f"outcomes: banker {_pct(o['banker'])}  player {_pct(o['player'])}  tie {_pct(o['tie'])}",
        f"{'bet':<14} {'paytable':<22} {'house edge':>11} {'RTP':>10} {'std dev':>8} "
        f"{'hit freq':>10}",
    ]
    for bet, figures in result.bets.items():
        view = figures.as_dict()
        lines.append(
            f"{bet.value:<14} {figures.paytable:<22} {_pct(view['house_edge']):>11} "
            f"{_pct(view['rtp']):>10} {view['std_dev']:>8.4f} {_pct(view['hit_frequency']):>10}"
        )
    favourable = [bet.value for bet, f in result.bets.items() if f.house_edge < 0]
    if favourable:
        lines.append(f"player-favourable: {', '.join(favourable)}")
    if eor is not None:
        ranks = [rank for rank in RANKS if rank in next(iter(eor.effects.values()), {})]
        lines.append("effect of removal (change in house edge, percentage points):")
        lines.append(f"{'bet':<14} " + " ".join(f"{rank.char:>7}" for rank in ranks))
        for bet, effects in eor.effects.items():
            cells = " ".join(f"{100 * float(effects[rank]):>7.4f}" for rank in ranks)
            lines.append(f"{bet.value:<14} {cells}")
    return lines
