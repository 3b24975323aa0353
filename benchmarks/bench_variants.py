"""Multiplier [LB] and Peek [PK] tables: ``.venv/bin/python benchmarks/bench_variants.py
[--hands N] [--workers N] [--seed S] [--json]``.

Prints the seconds of each exact analysis (a fresh 8-deck shoe, warm) and a simulation
of ``--hands`` hands (default 10,000,000) of each preset: every bet's observed return
per unit paid, the exact one, and their distance in standard errors (the bar: within 5).
"""

from __future__ import annotations

import argparse
import json
import time

from punto.analysis.lightning import lightning_analysis
from punto.analysis.peek import peek_analysis
from punto.rules import preset
from punto.simulation import Z95, simulate


def _seconds(action: object) -> float:
    started = time.perf_counter()
    action()  # type: ignore[operator]
    return time.perf_counter() - started


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=10_000_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    lightning, peek = preset("lightning"), preset("peek")
    lightning_analysis(lightning)  # compile and warm the rank-level kernel
    report: dict[str, object] = {
        "lightning_analysis_seconds": _seconds(lambda: lightning_analysis(lightning)),
        "peek_analysis_seconds": _seconds(lambda: peek_analysis(peek)),
        "hands": args.hands,
        "seed": args.seed,
        "workers": args.workers,
        "simulations": {},
    }
    runs: dict[str, object] = {}
    for rules in (lightning, peek):
        simulate(rules, hands=1_000, seed=0, workers=1)  # compile outside the clock
        result = simulate(rules, hands=args.hands, seed=args.seed, workers=args.workers)
        bets = {}
        for bet, figures in result.bets.items():
            sigma = (figures.ci95[1] - figures.ci95[0]) / 2 / Z95
            z = (figures.observed_return - figures.exact_return) / sigma if sigma else 0.0
            bets[bet.value] = {
                "observed_return": figures.observed_return,
                "exact_return": figures.exact_return,
                "sigmas": z,
                "within_5_sigma": abs(z) <= 5,
            }
        runs[rules.name] = {
            "seconds": result.seconds,
            "hands_per_second": result.hands_per_second,
            "bets": bets,
        }
    report["simulations"] = runs
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(f"exact lightning analysis: {report['lightning_analysis_seconds']:.2f} s")
    print(f"exact peek analysis:      {report['peek_analysis_seconds']:.2f} s")
    for name, run in runs.items():
        assert isinstance(run, dict)
        print(f"{name}: {args.hands:,} hands in {run['seconds']:.2f} s (seed {args.seed})")
        for bet, row in run["bets"].items():
            print(
                f"  {bet:<8} observed {100 * row['observed_return']:+.4f}%  exact "
                f"{100 * row['exact_return']:+.4f}%  {row['sigmas']:+.2f} sigma"
            )


if __name__ == "__main__":
    main()
