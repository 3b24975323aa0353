"""``punto simulate [--json] --rules NAME --hands N [--seed S] [--workers W]
[--ray ADDRESS]``: deal real shoes and compare each bet's return with the exact value.

JSON: ``hands``, ``seconds``, ``hands_per_second``, ``outcomes`` (observed ``banker``,
``player``, ``tie`` frequencies) and ``bets``, bet name to ``observed_return``, ``ci95``
(``[low, high]``) and ``exact_return`` — returns per unit staked, so a house edge is a
negative return; also ``seed``, ``workers``, ``shoes`` and ``void_hands``.

With ``--strategy PROGRESSION`` it evaluates a betting system instead
(``--pattern``, ``--unit``, ``--bankroll``, ``--session-hands``, ``--sessions``,
``--max-bet``; amounts in the table's currency): its return and risk of ruin.

A first run after install compiles the kernel and says so on standard error
(``compiling the shoe loop (first run only)… 3.8 s``); the JSON reports it as
``compile_seconds``.
"""

from __future__ import annotations

import argparse
import sys

from punto.cli.cluster import check_ray_address
from punto.cli.output import write_json
from punto.cli.progress import progress_bar
from punto.cli.rules import RULES_HELP
from punto.errors import SimulationError
from punto.money import display_amount, parse_amount, show_amount
from punto.rules import Rules
from punto.rules_document import load_rules
from punto.simulation import SimulationResult, simulate
from punto.strategies import BettingSystem, Pattern, Progression, SystemResult, evaluate

__all__ = ["register", "run", "say_compiling"]

PROGRESS_MIN_HANDS = 10_000_000
"""Runs at least this long show a progress bar on a terminal."""


def say_compiling(seconds: float | None) -> None:
    """Tell the user on standard error that the kernel compiles (first run only), then
    how long it took."""
    if seconds is None:
        print("compiling the shoe loop (first run only)…", end=" ", file=sys.stderr, flush=True)
    else:
        print(f"{seconds:.1f} s", file=sys.stderr, flush=True)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``simulate`` subcommand."""
    parser = subparsers.add_parser(
        "simulate",
        help="deal real shoes and measure every bet (or a betting system)",
        description="Deal real shoes (cut card, burns, last-hand rule) and report each "
        "bet's observed return with a 95% confidence interval beside the exact value.",
    )
    parser.add_argument("--json", action="store_true", help="answer in JSON")
    parser.add_argument("--rules", required=True, metavar="NAME|FILE.json", help=RULES_HELP)
    parser.add_argument("--hands", type=int, metavar="N", help="hands to deal")
    parser.add_argument("--seed", type=int, metavar="S", help="seed for a reproducible run")
    parser.add_argument("--workers", type=int, default=1, metavar="W", help="threads (default 1)")
    parser.add_argument(
        "--ray", metavar="ADDRESS", help="run the streams on a Ray cluster ('auto', ray://…)"
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on standard error (default: on a terminal, for long runs)",
    )
    system = parser.add_argument_group("betting system")
    system.add_argument(
        "--strategy",
        choices=[p.value for p in Progression],
        help="evaluate a betting system with this stake progression",
    )
    system.add_argument(
        "--pattern",
        choices=[p.value for p in Pattern],
        default=Pattern.BANKER.value,
        help="which side to bet (default banker)",
    )
    system.add_argument("--unit", default="10", metavar="AMOUNT", help="base stake (default 10)")
    system.add_argument(
        "--bankroll", default="1000", metavar="AMOUNT", help="bankroll per session (default 1000)"
    )
    system.add_argument(
        "--session-hands", type=int, default=100, metavar="H", help="hands per session"
    )
    system.add_argument(
        "--sessions", type=int, default=10_000, metavar="S", help="sessions (default 10000)"
    )
    system.add_argument("--max-bet", metavar="AMOUNT", help="table maximum for one bet")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Simulate and print."""
    rules = load_rules(args.rules)
    if args.strategy is not None:
        # Refused rather than ignored: a user would read the answer as theirs.
        if args.hands is not None:
            raise SimulationError(
                "--hands is for a run of every bet; a betting system plays --sessions "
                "sessions of --session-hands hands"
            )
        if args.ray is not None:
            raise SimulationError(
                "--ray is for a run of every bet (--hands); betting systems run on this machine"
            )
        result = _evaluate(rules, args)
        if args.json:
            write_json(result.as_dict())
        else:
            for line in system_lines(result, digits=rules.currency_digits):
                print(line)
        return 0
    if args.hands is None:
        raise SimulationError("give the number of hands to deal with --hands N")
    if args.ray is not None:
        check_ray_address(args.ray)
    show = args.progress
    if show is None:
        show = sys.stderr.isatty() and args.hands >= PROGRESS_MIN_HANDS
    outcome = simulate(
        rules,
        hands=args.hands,
        seed=args.seed,
        workers=args.workers,
        progress=progress_bar() if show else None,
        ray_address=args.ray,
        compiling=say_compiling,
    )
    if args.json:
        write_json(outcome.as_dict())
    else:
        for line in simulation_lines(outcome):
            print(line)
    return 0


def _evaluate(rules: Rules, args: argparse.Namespace) -> SystemResult:
    digits = rules.currency_digits
    system = BettingSystem(
        progression=Progression(args.strategy),
        pattern=Pattern(args.pattern),
        unit=parse_amount(args.unit, digits=digits),
        bankroll=parse_amount(args.bankroll, digits=digits),
        session_hands=args.session_hands,
        max_bet=None if args.max_bet is None else parse_amount(args.max_bet, digits=digits),
        digits=digits,
    )
    return evaluate(
        rules,
        system,
        sessions=args.sessions,
        seed=args.seed,
        workers=args.workers,
        compiling=say_compiling,
    )


def _signed_mean(minor: float, digits: int) -> str:
    """A mean result in minor units, said in major units with the currency's decimals."""
    rounded = round(minor)
    return ("+" if rounded > 0 else "") + display_amount(rounded, digits=digits)


def _pct(value: float) -> str:
    return f"{100 * value:+.4f}%"


def simulation_lines(result: SimulationResult) -> list[str]:
    """The text rendering of a run."""
    o = result.outcomes
    lines = [
        f"{result.rules}: {result.hands:,} hands ({result.shoes:,} shoes) in "
        f"{result.seconds:.2f} s, {result.hands_per_second / 1e6:.2f} M hands/s "
        f"({result.workers} worker{'s' if result.workers > 1 else ''}, seed {result.seed})",
        f"outcomes: banker {100 * o['banker']:.4f}%  player {100 * o['player']:.4f}%  "
        f"tie {100 * o['tie']:.4f}%",
    ]
    if result.void_hands:
        lines.append(f"void hands [S5]: {result.void_hands:,} (bets refunded, not counted)")
    lines.append(f"{'bet':<14} {'observed':>10} {'95% CI':>25} {'exact':>10}")
    for bet, r in result.bets.items():
        interval = f"[{_pct(r.ci95[0])}, {_pct(r.ci95[1])}]"
        mark = "" if r.within_ci else "  (exact value outside the interval)"
        lines.append(
            f"{bet.value:<14} {_pct(r.observed_return):>10} {interval:>25} "
            f"{_pct(r.exact_return):>10}{mark}"
        )
    return lines


def system_lines(result: SystemResult, *, digits: int) -> list[str]:
    """The text rendering of a betting-system evaluation."""
    system = result.system
    banker, player = result.exact_returns
    return [
        f"{result.rules}: {system.name}, unit {show_amount(system.unit, digits=digits)}, "
        f"bankroll {show_amount(system.bankroll, digits=digits)}, "
        f"{result.sessions:,} sessions of up to {system.session_hands} hands (seed {result.seed})",
        f"bets placed: {result.bets:,}, "
        f"staked {display_amount(result.total_staked, digits=digits)}",
        f"return per unit staked: {_pct(result.return_per_staked)} "
        f"(exact: banker {_pct(banker)}, player {_pct(player)})",
        f"mean session result: {_signed_mean(result.mean_net, digits)}",
        f"risk of ruin: {100 * result.risk_of_ruin:.2f}%   "
        f"sessions ahead: {100 * result.chance_ahead:.2f}%",
    ]
