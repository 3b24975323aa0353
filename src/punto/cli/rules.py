"""``punto rules list`` and ``punto rules show NAME|FILE.json [--json]``: the presets,
and any rules as the document the back office saves (every field, paytables by name).
"""

from __future__ import annotations

import argparse

from punto.cli.output import write_json
from punto.rules import PRESETS, preset_names
from punto.rules_document import load_rules, rules_to_document

__all__ = ["RULES_HELP", "register"]

RULES_HELP = (
    f"a preset ({', '.join(preset_names())}) or a rules document FILE.json "
    "(see `punto rules show NAME --json`)"
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``rules`` subcommand."""
    parser = subparsers.add_parser(
        "rules",
        help="list the presets; show any rules as a rules document",
        description="The rules presets, and any rules as the JSON document the back office "
        "saves and --rules FILE.json reads.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the presets, one a line")
    listing.add_argument("--json", action="store_true", help="answer in JSON")
    listing.set_defaults(handler=run_list)
    show = actions.add_parser("show", help="a preset (or a document) as a rules document")
    show.add_argument("rules", metavar="NAME|FILE.json", help=RULES_HELP)
    show.add_argument("--json", action="store_true", help="the document as JSON")
    show.set_defaults(handler=run_show)


def run_list(args: argparse.Namespace) -> int:
    """Print the presets."""
    if args.json:
        presets = [{"name": r.name, "description": r.description} for r in PRESETS.values()]
        write_json({"presets": presets})
    else:
        for rules in PRESETS.values():
            print(f"{rules.name:<22} {rules.description}")
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Print one rules document."""
    doc = rules_to_document(load_rules(args.rules))
    if args.json:
        write_json(doc)
        return 0
    for key, value in doc.items():
        if key == "limit_tiers":
            value = ", ".join(tier["name"] for tier in value)
        elif key in ("lightning", "peek") and isinstance(value, dict):
            # [LB] [PK] one line per setting of the variant
            for sub, setting in value.items():
                print(f"{key + '.' + sub:<24} {_flat(setting)}")
            continue
        elif isinstance(value, dict):
            value = _flat(value) or "-"
        print(f"{key:<24} {value}")
    return 0


def _flat(value: object) -> str:
    """A setting on one line: ``k=v, …`` for a mapping, ``a, b`` for a list."""
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)
