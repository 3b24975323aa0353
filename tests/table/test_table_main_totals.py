"""The table's Banker and Player totals of everyone's confirmed bets, which the table
limits [M14], [M18] check each confirm against, stay exact while they are carried over
the events that move no confirmed bet (issue 11: counting every slip again after each
player's chip made a chip cost as much as the table has players)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from table_support import close, deal, make_table, seat

from punto.bets import Bet
from punto.rules import preset
from punto.table import Table

PLAYERS = ("ann", "bob", "carl", "dora")
B, P, T = Bet.BANKER, Bet.PLAYER, Bet.TIE
TIE_CARDS = "9S 9H KD KC"  # 9 against 9: main bets stand [M12]
WIN_CARDS = "9S 8H KD KC"

BET_STEP = st.one_of(
    st.tuples(st.just("chip"), st.sampled_from(PLAYERS), st.sampled_from((B, P, T))),
    st.tuples(
        st.sampled_from(("confirm", "confirm", "undo", "clear", "double", "rebet")),
        st.sampled_from(PLAYERS),
    ),
)
ROUNDS = st.lists(
    st.tuples(st.lists(BET_STEP, max_size=25), st.sampled_from((TIE_CARDS, WIN_CARDS))),
    min_size=1,
    max_size=4,
)
"""Hands: each some betting steps, then the cards (a tie leaves the main bets standing)."""


def _recount(table: Table, player: str) -> tuple[int, int]:
    others = [table.bets(p) for p in PLAYERS if p != player]
    return sum(b.get(B, 0) for b in others), sum(b.get(P, 0) for b in others)


@settings(max_examples=150, deadline=None)
@given(ROUNDS)
def test_m14_the_others_totals_stay_exact_over_any_steps(
    rounds: list[tuple[list[tuple[object, ...]], str]],
) -> None:
    table, clock = make_table(preset("macau").replace(max_imbalance=20_000))
    for n, player in enumerate(PLAYERS, start=1):
        seat(table, player, n)

    def check() -> None:
        for player in PLAYERS:  # what every confirm is checked against [M14]
            assert table._others_main(player) == _recount(table, player)

    for steps, cards in rounds:
        table.open_betting()
        check()
        for step in steps:
            what, who = str(step[0]), str(step[1])
            if what == "chip":
                table.choose_chip(who, 1_000)
                if table.can_bet(who):
                    table.add_chip(who, step[2])  # type: ignore[arg-type]
            elif getattr(table, f"can_{what}")(who):
                getattr(table, what)(who)
            check()
        close(table, clock)
        check()
        deal(table, cards)
        table.settle()
        check()
