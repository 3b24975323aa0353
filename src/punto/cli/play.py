"""``punto play``: a terminal game for one player.

Every bet of the chosen preset is offered, with the table's limits enforced; the coup
is shown card by card, then the settlement and the new balance. Type ``help`` at the
prompt for the commands.

At a multiplier table [LB] each hand's lightning cards are drawn and shown before the
deal and every bet pays the fee with its stake; at a Peek table [PK] the Player and
Banker bets pay the stake fee and, once the four first cards are shown, the player is
asked for a raise (the optimal one is suggested).
"""

from __future__ import annotations

import argparse
import math
import random
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from punto.analysis.peek import PeekBet, peek_analysis
from punto.bets import TIGER_BETS, Bet, parse_bet
from punto.cli.bets_arg import parse_stake
from punto.cli.output import describe_outcome, odds_text
from punto.cli.rules import RULES_HELP
from punto.cli.settle import settlement_lines
from punto.coup import Coup
from punto.dealing import ShoeDealer
from punto.errors import BetError, PuntoError, TableBalanceError
from punto.limits import check_bets
from punto.money import display_amount, parse_amount
from punto.multipliers import LightningDraw
from punto.peek import PEEK_BETS
from punto.roads import RoadBoard, RoadResult
from punto.roads_render import render_text
from punto.rules import Rules
from punto.rules_document import load_rules
from punto.settlement import refund, settle

__all__ = ["Game", "register", "run"]

HELP = """\
commands:
  BET AMOUNT [BET AMOUNT ...]   place bets and deal, e.g.  banker 100 tie 10
  r | rebet                     repeat the last hand's bets and deal
  d | deal                      deal a hand with no bets
  bets                          list this table's bets, paytables and your limits
  roads                         show every road of this shoe
  help                          this text
  q | quit                      leave the table"""

ROAD_SECTIONS = ("stats", "big_road", "big_eye_boy", "small_road", "cockroach_pig", "ask")
"""The roads shown after each hand (``roads`` shows the bead plate too)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play at a terminal table",
        description="Play baccarat at a terminal table: every bet of the preset, its limits, "
        "the coup dealt card by card.",
    )
    parser.add_argument("--rules", default="macau", metavar="NAME|FILE.json", help=RULES_HELP)
    parser.add_argument("--balance", default="10000", help="starting balance (default 10000)")
    parser.add_argument("--tier", default="low", help="limit tier (default low)")
    parser.add_argument("--seed", type=int, help="seed for reproducible shoes")
    parser.add_argument(
        "--delay", type=_delay, default=0.4, help="seconds between cards (default 0.4)"
    )
    parser.set_defaults(handler=run)


def _delay(text: str) -> float:
    """A ``--delay`` value: a finite number of seconds, 0 or more."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(seconds) or seconds < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be 0 or more seconds")
    return seconds


@dataclass
class Game:
    """One player's terminal session: balance, shoe and last bets. I/O is injected."""

    rules: Rules
    balance: int
    tier: str
    seed: int | None = None
    delay: float = 0.0
    write: Callable[[str], None] = print
    sleep: Callable[[float], None] = time.sleep
    last_bets: dict[Bet, int] = field(default_factory=dict)
    shoes: int = 0
    roads: RoadBoard = field(default_factory=RoadBoard)
    ask: Callable[[str], str] | None = None
    """[PK] Asks the player for a raise (``None``: never raise)."""

    def __post_init__(self) -> None:
        self.rules.tier(self.tier)
        self.dealer = self._new_shoe()
        # [LB] the lightning draw's own generator: seeded with the shoes, or the system's
        self._lightning_rng: random.Random = (
            random.Random(self.seed) if self.seed is not None else secrets.SystemRandom()
        )
        self._strategy: dict[Bet, PeekBet] | None = None

    def _fee(self, amount: int, fraction: Fraction) -> int:
        """A fee in minor units, by the table's rounding rule."""
        return self.rules.rounding.apply(amount * fraction)

    def _fees(self, bets: dict[Bet, int]) -> int:
        """[LB] [PK] What the bets' fees cost on top of their stakes."""
        if self.rules.lightning is not None:
            return sum(self._fee(a, self.rules.lightning.fee) for a in bets.values())
        if self.rules.peek is not None:
            fee = self.rules.peek.stake_fee
            return sum(self._fee(a, fee) for b, a in bets.items() if b in PEEK_BETS)
        return 0

    def _raise(self, bets: dict[Bet, int], coup: Coup, number: int) -> None:
        """[PK] Once the four first cards are up: ask for a raise of each raisable bet."""
        peek = self.rules.peek
        if peek is None or self.ask is None:
            return
        if self._strategy is None:
            self._strategy = dict(peek_analysis(self.rules).bets)
        ranks = [event.card.rank.value for event in coup.events[:4]]
        for bet in [b for b in bets if b in PEEK_BETS and b in self._strategy]:
            best = self._strategy[bet].decision(*ranks)
            choices = "/".join(str(r) for r in (0, *peek.raises))
            answer = self.ask(f"raise {bet.value} by {choices} stakes (best {best})? ").strip()
            raised = int(answer) if answer.isdigit() else 0
            if raised not in peek.raises:
                continue
            extra = bets[bet] * raised
            cost = extra + self._fee(extra, peek.raise_fee)
            if cost > self.balance:
                self.write(f"  cannot raise: {self.money(cost)} is more than your balance")
                continue
            try:
                check_bets(self.rules, {**bets, bet: bets[bet] + extra}, tier=self.tier,
                           hand_number=number)  # fmt: skip
            except PuntoError as exc:
                self.write(f"  cannot raise: {exc}")
                continue
            self.balance -= cost
            bets[bet] += extra
            self.write(f"  {bet.value} raised to {self.money(bets[bet])}")

    def _new_shoe(self) -> ShoeDealer:
        seed = None if self.seed is None else self.seed + self.shoes
        self.shoes += 1
        dealer = ShoeDealer(self.rules, seed=seed)
        dealer.start()
        self.roads = RoadBoard()
        self.write(f"-- new shoe ({self.rules.decks} decks), commitment {dealer.shoe.commitment}")
        return dealer

    def money(self, minor: int) -> str:
        """An amount for display: major units, all the currency's decimals, grouped."""
        return display_amount(minor, digits=self.rules.currency_digits)

    def parse_bets(self, words: list[str]) -> dict[Bet, int]:
        """``["banker", "100", "tie", "10"]`` -> bets in minor units."""
        if len(words) % 2:
            raise BetError("bets come in pairs: BET AMOUNT, e.g. banker 100")
        bets: dict[Bet, int] = {}
        for name, amount in zip(words[::2], words[1::2], strict=True):
            bet = parse_bet(name)
            stake = parse_stake(bet, amount, digits=self.rules.currency_digits)
            bets[bet] = bets.get(bet, 0) + stake
        return bets

    def place_and_deal(self, bets: dict[Bet, int]) -> None:
        """Check the bets against the limits and the balance, then deal and settle."""
        if self.dealer.finished:
            self.dealer = self._new_shoe()
        number = self.dealer.next_hand_number
        check_bets(self.rules, bets, tier=self.tier, hand_number=number)
        bets = dict(bets)
        stake = sum(bets.values()) + self._fees(bets)
        if stake > self.balance:
            raise TableBalanceError(
                f"bets of {self.money(stake)} exceed your balance of {self.money(self.balance)}"
            )
        self.balance -= stake
        self.dealer.announce_cut_card()
        last = " (last hand)" if self.dealer.next_is_last else ""
        fees = stake - sum(bets.values())
        paid = f" (fees {self.money(fees)})" if fees else ""
        self.write(f"hand {number}{last}: bets {self._show(bets)}{paid}")
        lightning: LightningDraw | None = None
        if self.rules.lightning is not None:
            lightning = self.rules.lightning.draw(self._lightning_rng)
            cards = ", ".join(f"{card.code} x{m}" for card, m in lightning.cards)
            self.write(f"  lightning cards: {cards}")
        self.dealer.begin_hand()
        coup = Coup()
        while not coup.is_complete:
            event = coup.deal(self.dealer.draw())
            self.write(f"  {event.position.label}: {event.card.code}")
            self.sleep(self.delay)
            if len(coup.events) == 4 and bets:
                self._raise(bets, coup, number)
        hand = self.dealer.end_hand(coup.outcome)
        self.write(describe_outcome(hand.outcome))
        result = (
            refund(bets)
            if hand.void
            else settle(self.rules, hand.outcome, bets, lightning=lightning)
        )
        if hand.void:
            self.write(f"VOID: {hand.void_reason}; bets returned")
        if bets:
            for line in settlement_lines(self.rules, result, full=True):
                self.write(line)
        self.balance += result.total_returned
        if not hand.void:
            self.roads.add(RoadResult.from_outcome(hand.outcome))
            self.write(render_text(self.roads, sections=ROAD_SECTIONS))
        self.write(f"balance {self.money(self.balance)}")
        if bets:
            self.last_bets = dict(bets)
        if self.dealer.finished:
            self.write("-- the shoe is finished; the next hand starts a new shoe")

    def _show(self, bets: dict[Bet, int]) -> str:
        if not bets:
            return "none"
        return ", ".join(f"{b.value} {self.money(a)}" for b, a in bets.items())

    def describe_table(self) -> list[str]:
        """The table's bets, paytables and this player's limits."""
        tier = self.rules.tier(self.tier)
        lines = [f"{self.rules.name}: {self.rules.description}"]
        for bet in self.rules.offered_bets:
            low, high = tier.limits_for(bet)
            table = self.rules.paytable_for(bet)
            pays = ", ".join(f"{k} {odds_text(v)}" for k, v in table.pays.items())
            lines.append(
                f"  {bet.value:<14} pays {pays:<40} limits {self.money(low)}-{self.money(high)}"
            )
        lines.extend(f"  rule: {text}" for text in self.table_rules())
        return lines

    def table_rules(self) -> list[str]:
        """The limits on bet combinations this table enforces, besides each bet's range."""
        rules = self.rules
        texts = []
        if rules.banker_multiple_of_min:  # [M18]
            minimum = self.money(rules.tier(self.tier).min_bet)
            texts.append(f"Banker bets in multiples of {minimum}")
        if rules.one_side_only:  # [S11]
            texts.append("Player or Banker, not both; Tie always allowed")
        if rules.max_imbalance is not None:  # [M14]
            limit = self.money(rules.max_imbalance)
            texts.append(f"Banker and Player bets may differ by at most {limit}")
        closing: dict[int, list[str]] = {}
        for bet, hand in rules.close_from_hand.items():
            closing.setdefault(hand, []).append(bet.value)
        for hand, names in sorted(closing.items()):
            texts.append(f"{', '.join(names)} closed from hand {hand} of a shoe")  # [O]
        if not rules.tiger_with_main and TIGER_BETS.intersection(rules.offered_bets):  # [L]
            texts.append("no Tiger bets together with Player or Banker")
        return texts

    def command(self, line: str) -> bool:
        """Run one command line; return ``False`` to quit."""
        words = line.replace(",", " ").replace("=", " ").split()
        if not words:
            return True
        head = words[0].lower()
        try:
            if head in ("q", "quit", "exit"):
                return False
            if head == "help":
                self.write(HELP)
            elif head == "roads":
                self.write(render_text(self.roads))
            elif head == "bets":
                for text in self.describe_table():
                    self.write(text)
            elif head in ("r", "rebet"):
                if not self.last_bets:
                    raise BetError("no earlier bets to repeat")
                self.place_and_deal(dict(self.last_bets))
            elif head in ("d", "deal"):
                self.place_and_deal({})
            else:
                self.place_and_deal(self.parse_bets(words))
        except PuntoError as exc:
            self.write(f"error: {exc}")
        return True


def _ask(prompt: str) -> str:
    sys.stdout.write(prompt)
    sys.stdout.flush()
    return sys.stdin.readline()


def run(args: argparse.Namespace) -> int:
    """The interactive loop on standard input/output."""
    rules = load_rules(args.rules)
    game = Game(
        rules=rules,
        balance=parse_amount(args.balance, digits=rules.currency_digits),
        tier=args.tier,
        seed=args.seed,
        delay=args.delay,
        ask=_ask,
    )
    game.write(f"Punto — {rules.name}. Balance {game.money(game.balance)}. Type help.")
    for text in game.describe_table():
        game.write(text)
    while True:
        try:
            sys.stdout.write(f"[{game.money(game.balance)}] bet> ")
            sys.stdout.flush()
            line = sys.stdin.readline()
        except KeyboardInterrupt:
            break
        if not line or not game.command(line):
            break
    game.write(f"final balance {game.money(game.balance)}")
    return 0
