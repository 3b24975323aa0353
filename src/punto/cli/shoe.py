"""``punto shoe [--json] --rules NAME [--seed N] [--hands N]``: deal a whole shoe.

Prints every hand with its number, the burns, the cut card and the last hand,
then the shoe's commitment reveal.
"""

from __future__ import annotations

import argparse

from punto.cli.output import describe_outcome, write_json
from punto.cli.rules import RULES_HELP
from punto.dealing import (
    CardsBurned,
    CutCardOut,
    DemoHandDealt,
    HandDealt,
    ShoeDealer,
    ShoeEnded,
    ShoeEvent,
    ShoeStarted,
)
from punto.errors import ShoeError
from punto.roads import RoadBoard, RoadResult
from punto.roads_render import render_text, roads_dict
from punto.rules_document import load_rules

__all__ = ["register", "run"]

CSM_DEFAULT_HANDS = 60
"""Hands dealt from a continuous shuffler when ``--hands`` is not given."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``shoe`` subcommand."""
    parser = subparsers.add_parser(
        "shoe",
        help="deal a whole shoe under a rules preset",
        description="Deal a whole shoe under a rules preset: burns, demonstration hands, "
        "every hand, the cut card, the last hand and the commitment reveal.",
    )
    parser.add_argument("--json", action="store_true", help="answer in JSON")
    parser.add_argument("--rules", required=True, metavar="NAME|FILE.json", help=RULES_HELP)
    parser.add_argument("--seed", type=int, help="seed for a reproducible shoe")
    parser.add_argument(
        "--hands",
        type=int,
        metavar="N",
        help=f"stop after N hands (a continuous shuffler deals {CSM_DEFAULT_HANDS} by default)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Deal the shoe and print it."""
    rules = load_rules(args.rules)
    hands = args.hands
    if hands is not None and hands < 1:
        raise ShoeError(f"--hands must be 1 or more, not {hands}")
    dealer = ShoeDealer(rules, seed=args.seed)
    if hands is None and rules.continuous_shuffler:
        hands = CSM_DEFAULT_HANDS
    events = list(dealer.deal_all(max_hands=hands))
    if args.json:
        write_json(shoe_json(rules.name, events))
    else:
        for line in shoe_lines(rules.name, events):
            print(line)
    return 0


def shoe_json(rules_name: str, events: list[ShoeEvent]) -> dict[str, object]:
    """The ``--json`` document for a dealt shoe."""
    doc: dict[str, object] = {"rules": rules_name, "burned": [], "demo_hands": [], "hands": []}
    burned: list[object] = []
    demos: list[object] = []
    hands: list[object] = []
    for event in events:
        if isinstance(event, ShoeStarted):
            doc.update(
                cards=event.cards,
                decks=event.decks,
                cut_index=event.cut_index,
                cut_from_end=event.cards - event.cut_index,
                commitment=event.commitment,
            )
        elif isinstance(event, CardsBurned):
            burned.append({"reason": event.reason, "cards": [c.code for c in event.cards]})
        elif isinstance(event, DemoHandDealt):
            demos.append({"number": event.number, **event.outcome.as_dict()})
        elif isinstance(event, CutCardOut):
            doc["cut_card"] = {"during_hand": event.during_hand, "last_hand": event.last_hand}
        elif isinstance(event, HandDealt):
            hand: dict[str, object] = {"number": event.number, **event.outcome.as_dict()}
            hand.update(last=event.last, void=event.void)
            if event.void:
                hand["void_reason"] = event.void_reason
            hands.append(hand)
        elif isinstance(event, ShoeEnded):
            doc["cards_left"] = event.cards_left
            if event.reveal is not None:
                doc["reveal"] = {"salt": event.reveal.salt, "order": event.reveal.order_text}
    doc.update(burned=burned, demo_hands=demos, hands=hands, roads=roads_dict(shoe_roads(events)))
    return doc


def shoe_roads(events: list[ShoeEvent]) -> RoadBoard:
    """The roads of a shoe's hands (void hands have no result and are left out)."""
    return RoadBoard.replay(
        RoadResult.from_outcome(e.outcome)
        for e in events
        if isinstance(e, HandDealt) and not e.void
    )


def shoe_lines(rules_name: str, events: list[ShoeEvent]) -> list[str]:
    """The text rendering of a dealt shoe, one line per event."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, ShoeStarted):
            decks = f"{event.decks} decks, " if event.decks else ""
            lines.append(
                f"shoe: {rules_name}, {decks}{event.cards} cards, cut card "
                f"{event.cards - event.cut_index} from the end"
            )
            if event.commitment:
                lines.append(f"commitment: sha256 {event.commitment}")
        elif isinstance(event, CardsBurned):
            codes = " ".join(c.code for c in event.cards)
            label = "burned at start" if event.reason == "start" else "burned"
            lines.append(f"{label} ({len(event.cards)}): {codes}")
        elif isinstance(event, DemoHandDealt):
            lines.append(f"demo {event.number}: {describe_outcome(event.outcome)}")
        elif isinstance(event, CutCardOut):
            when = (
                f"during hand {event.during_hand}"
                if event.during_hand is not None
                else "between hands"
            )
            lines.append(f"cut card out {when}: hand {event.last_hand} is the last hand")
        elif isinstance(event, HandDealt):
            tag = " (last hand)" if event.last else ""
            line = f"hand {event.number}{tag}: {describe_outcome(event.outcome)}"
            if event.void:
                line += f" -- VOID: {event.void_reason}"
            lines.append(line)
        elif isinstance(event, ShoeEnded):
            lines.append(f"shoe ended after {event.hands} hands, {event.cards_left} cards left")
            if event.reveal is not None:
                lines.append(f"reveal: salt {event.reveal.salt}")
                lines.append(f"reveal: order {event.reveal.order_text}")
    lines.append("")
    lines.extend(render_text(shoe_roads(events)).splitlines())
    return lines
