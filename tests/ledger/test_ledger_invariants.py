"""Double-entry invariants under random play (Hypothesis).

Random tables, bets, coups and fates (settle, refund, correct, void after settling) keep
the sum of all accounts at zero, no player wallet below zero, every escrow empty once its
round closes, and each player's money equal to deposits plus the results in force. The
store must agree with the pure model to the minor unit, and its check must pass.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ledger_support import BACKENDS, ledger_store

from punto.bets import Bet
from punto.cards import parse_cards
from punto.coup import deal_coup
from punto.errors import InsufficientFundsError
from punto.ledger import model
from punto.ledger.model import Account, AccountKind, Line, Transaction, TransactionKind
from punto.ledger.store import LedgerStore
from punto.rules import preset, preset_names
from punto.settlement import Settlement

CARDS = [f"{rank}{suit}" for rank in "A23456789TJQK" for suit in "SHDC"]
FATES = ("settle", "refund", "correct", "void", "correct_void")


@dataclass(frozen=True)
class RoundPlan:
    rules: str
    bets: dict[str, dict[Bet, int]]
    cards: str
    corrected_cards: str
    fate: str


@dataclass(frozen=True)
class Scenario:
    deposits: dict[str, int]
    rounds: list[RoundPlan]


cards = st.lists(st.sampled_from(CARDS), min_size=6, max_size=6).map(" ".join)


@st.composite
def round_plans(draw: st.DrawFn, players: list[str]) -> RoundPlan:
    rules = draw(st.sampled_from(preset_names()))
    offered = sorted((b for b in Bet if b in preset(rules).paytables), key=lambda b: b.value)
    bets = {}
    for player in players:
        chosen = draw(st.lists(st.sampled_from(offered), max_size=3, unique=True))
        if chosen:
            bets[player] = {bet: draw(st.integers(1, 4_000)) for bet in chosen}
    return RoundPlan(rules, bets, draw(cards), draw(cards), draw(st.sampled_from(FATES)))


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    players = [f"p{n}" for n in range(draw(st.integers(1, 3)))]
    deposits = {p: draw(st.integers(0, 12_000)) for p in players}
    rounds = draw(st.lists(round_plans(players), min_size=1, max_size=4))
    return Scenario(deposits, rounds)


def settle_all(
    plan: RoundPlan, cards: str, bets: dict[str, dict[Bet, int]]
) -> dict[str, Settlement]:
    return model.settle_players(preset(plan.rules), deal_coup(parse_cards(cards)), bets)


def void_lines(bets: dict[Bet, int]) -> tuple[Line, ...]:
    return tuple(
        Line(b.value, s, "void") for b, s in sorted(bets.items(), key=lambda i: i[0].value)
    )


class Books:
    """The pure model played by hand: balances by account code."""

    def __init__(self, deposits: dict[str, int]) -> None:
        self.balances: dict[str, int] = {}
        for player, amount in deposits.items():
            if amount:
                self.post(
                    model.transfer(TransactionKind.DEPOSIT, player, amount, transaction_id=player)
                )

    def post(self, transaction: Transaction) -> None:
        self.balances = model.apply(self.balances, transaction)

    def play(self, n: int, plan: RoundPlan) -> dict[str, dict[Bet, int]]:
        round_id = f"r{n}"
        placed = {}
        for player, bets in plan.bets.items():
            try:
                self.post(
                    model.stake(round_id, player, bets, confirmation_id=f"{round_id}{player}")
                )
            except InsufficientFundsError:
                continue
            placed[player] = bets
        if plan.fate == "refund":
            for player, bets in placed.items():
                self.post(model.refund(round_id, player, bets))
            return placed
        first = settle_all(plan, plan.cards, placed)
        originals = {}
        for player, bets in placed.items():
            originals[player] = model.settlement(
                round_id, player, bets, first[player], table_id="t"
            )
            self.post(originals[player])
        current = {p: t.lines for p, t in originals.items()}
        if plan.fate in ("correct", "correct_void"):
            fixed = settle_all(plan, plan.corrected_cards, placed)
            for player in placed:
                fix = model.correction(
                    originals[player],
                    current[player],
                    fixed[player],
                    correction_id="c",
                    table_id="t",
                    author="sup",
                    reason="fix",
                    payee_balance=self.balance(player),
                )
                self.post(fix)
                current[player] = fix.lines
        if plan.fate in ("void", "correct_void"):
            for player, bets in placed.items():
                self.post(
                    model.correction(
                        originals[player],
                        current[player],
                        void_lines(bets),
                        correction_id="v",
                        table_id="t",
                        author="sup",
                        reason="void",
                        payee_balance=self.balance(player),
                        void=True,
                    )
                )
        return placed

    def balance(self, player: str) -> int:
        return self.balances.get(Account.player(player).code, 0)


def expected_results(scenario: Scenario) -> tuple[Books, dict[str, int]]:
    """Play the scenario in the pure model, checking the invariants after every round;
    return the books and each player's expected net result."""
    books = Books(scenario.deposits)
    net: dict[str, int] = defaultdict(int)
    for n, plan in enumerate(scenario.rounds):
        placed = books.play(n, plan)
        assert sum(books.balances.values()) == 0
        assert books.balances.get(Account.escrow(f"r{n}").code, 0) == 0
        for code, balance in books.balances.items():
            assert balance >= 0 or Account.parse(code).kind.may_go_negative
        if plan.fate in ("settle", "correct"):
            final = settle_all(
                plan, plan.cards if plan.fate == "settle" else plan.corrected_cards, placed
            )
            for player, result in final.items():
                net[player] += result.total_net
    return books, net


@settings(max_examples=300, deadline=None)
@given(scenarios())
def test_random_play_keeps_the_books_balanced(scenario: Scenario) -> None:
    books, net = expected_results(scenario)
    house = 0
    for player, deposit in scenario.deposits.items():
        owed = books.balances.get(Account.receivable(player).code, 0)
        assert books.balance(player) + owed == deposit + net[player]
        house -= net[player]
    assert books.balances.get(Account.house("t").code, 0) == house


async def play_in_store(store: LedgerStore, scenario: Scenario) -> None:
    for player, amount in scenario.deposits.items():
        if amount:
            await store.post(
                model.transfer(TransactionKind.DEPOSIT, player, amount, transaction_id=player)
            )
    for n, plan in enumerate(scenario.rounds):
        round_id = f"r{n}"
        await store.open_round(round_id, table_id="t")
        placed = {}
        for player, bets in plan.bets.items():
            try:
                await store.confirm_bets(
                    round_id, player, bets, confirmation_id=f"{round_id}{player}"
                )
            except InsufficientFundsError:
                continue
            placed[player] = bets
        if plan.fate == "refund":
            await store.void_round(round_id, author="dealer", reason="misdeal [M10]")
            continue
        result = settle_all(plan, plan.cards, placed)
        await store.settle_round(round_id, result)
        await store.settle_round(round_id, result)  # a replay pays nothing
        if plan.fate in ("correct", "correct_void"):
            fixed = settle_all(plan, plan.corrected_cards, placed)
            await store.correct_round(
                round_id, fixed, correction_id="c", author="sup", reason="fix"
            )
        if plan.fate in ("void", "correct_void"):
            await store.void_round(round_id, author="sup", reason="void")


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", BACKENDS)
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(scenario=scenarios())
async def test_the_store_agrees_with_the_model(
    backend: str, tmp_path: Path, scenario: Scenario
) -> None:
    books, _ = expected_results(scenario)
    async with ledger_store(backend, tmp_path / secrets.token_hex(4)) as store:
        await play_in_store(store, scenario)
        stored = await store.balances()
        report = await store.check()
    assert report.ok, report.problems
    assert {c: b for c, b in stored.items() if b} == {c: b for c, b in books.balances.items() if b}
    assert all(b >= 0 for c, b in stored.items() if Account.parse(c).kind is AccountKind.PLAYER)
