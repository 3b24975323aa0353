"""Helpers shared by the table tests: build tables, place bets with chips, deal hands."""

from __future__ import annotations

import random
from collections.abc import Mapping

from punto.bets import Bet
from punto.cards import Card, parse_cards
from punto.outcome import Side
from punto.rules import Rules, preset
from punto.table import (
    Dealing,
    ManualClock,
    Phase,
    Reading,
    Table,
    TableKind,
    TableSettings,
)
from punto.table.events import HandSettled

DEALING_PHASES = (Phase.BETTING_CLOSED, Phase.DEALING, Phase.SQUEEZE)


def make_table(
    rules: Rules | str = "macau",
    *,
    kind: TableKind = TableKind.NORMAL,
    dealing: Dealing = Dealing.LIVE,
    reading: Reading | None = None,
    seed: int = 1,
    start: bool = True,
    **settings: object,
) -> tuple[Table, ManualClock]:
    """A table (live by default, so tests choose the cards) with its clock; the shoe is
    started unless ``start`` is false."""
    chosen = preset(rules) if isinstance(rules, str) else rules
    table_settings = TableSettings(
        table_id="T1",
        rules=chosen,
        kind=kind,
        dealing=dealing,
        reading=reading,
        **settings,  # type: ignore[arg-type]
    )
    clock = ManualClock()
    table = Table(table_settings, clock=clock, rng=random.Random(seed), dealer="Dana")
    if start:
        table.start_shoe()
    return table, clock


def seat(table: Table, player: str, seat_no: int, *, balance: int = 1_000_000) -> None:
    """Join ``player`` with ``balance`` and sit at ``seat_no``."""
    table.join(player, balance=balance)
    table.sit(player, seat_no)


def watcher(table: Table, player: str, *, balance: int = 1_000_000) -> None:
    """Join ``player`` with ``balance`` to watch (and bet from the watchers' area)."""
    table.join(player, balance=balance)
    table.watch(player)


def chips_for(table: Table, amount: int) -> list[int]:
    """``amount`` as the table's chips, largest first."""
    out = []
    for chip in sorted(table.settings.chips, reverse=True):
        while amount >= chip:
            out.append(chip)
            amount -= chip
    assert amount == 0, f"{amount} cannot be made of chips"
    return out


def place(table: Table, player: str, bets: Mapping[Bet, int], *, confirm: bool = True) -> None:
    """Put ``bets`` down with chips and (by default) confirm them."""
    for bet, amount in bets.items():
        for chip in chips_for(table, amount):
            table.choose_chip(player, chip)
            table.add_chip(player, bet)
    if confirm:
        table.confirm(player)


def open_round(table: Table, bets: Mapping[str, Mapping[Bet, int]] | None = None) -> None:
    """Open betting and place every player's bets."""
    table.open_betting()
    for player, player_bets in (bets or {}).items():
        place(table, player, player_bets)


def close(table: Table, clock: ManualClock) -> None:
    """Let the countdown run out and close betting."""
    closes_at = table.closes_at
    assert closes_at is not None
    clock.advance(max(0.0, closes_at - clock.now()))
    table.close_betting()


def deal(table: Table, codes: str | list[Card] = "", *, reveal: bool = True) -> None:
    """Deal cards (scanned ``codes`` at a live table, drawn at an RNG one) until the coup
    is complete; the dealer turns any face-down cards when ``reveal``."""
    cards = parse_cards(codes) if isinstance(codes, str) else list(codes)
    live = table.settings.dealing is Dealing.LIVE
    while table.phase in DEALING_PHASES:
        if table.phase is Phase.SQUEEZE:
            if not reveal:
                return
            table.reveal_cards()
            continue
        table.deal_card(cards.pop(0) if live else None)
    assert not cards, f"cards left over: {cards}"


def play(
    table: Table,
    clock: ManualClock,
    codes: str = "",
    bets: Mapping[str, Mapping[Bet, int]] | None = None,
    **settle: int,
) -> HandSettled:
    """Open, bet, close, deal ``codes`` (or draw), reveal and settle one hand."""
    open_round(table, bets)
    close(table, clock)
    deal(table, codes)
    return table.settle(**settle)


def state_of(table: Table) -> tuple[object, ...]:
    """Everything an action could change, read through the public API: a failed action
    must leave it equal."""
    seats = table.seats
    shoe = table.shoe
    return (
        tuple(table.events),
        table.phase,
        tuple(table.phase_history),
        tuple(sorted(table.balances.items())),
        (table.brought_in, table.cashed_out, table.house_result, table.money_in_play()),
        tuple(
            (
                who.player,
                who.place,
                who.seat,
                who.tier,
                who.connected,
                tuple(table.pending(who.player).items()),
                tuple(table.bets(who.player).items()),
            )
            for who in sorted(seats.participants.values(), key=lambda w: w.player)
        ),
        tuple(seats.marked_by(n) for n in range(1, seats.count + 1)),
        tuple(sorted((side.value, p) for side, p in table.holders.items())),
        tuple(sorted((side.value, p or "") for side, p in table.awaiting_squeeze.items())),
        (table.game, table.closes_at, table.blank_owed, table.button, table.dealer),
        (table.owner, table.vip, table.settings, table.shoe_number),
        tuple(table.coup.events) if table.coup else (),
        None
        if shoe is None
        else (
            shoe.hands_dealt,
            shoe.next_hand_number,
            shoe.demo_hands_dealt,
            shoe.finished,
            getattr(shoe, "cards_left", None),
            getattr(shoe, "cards_seen", None),
        ),
    )


def sides(holders: Mapping[Side, str]) -> dict[str, str]:
    """Holders by side name, for short assertions."""
    return {side.value: player for side, player in holders.items()}


def phase(table: Table) -> Phase:
    """The table's phase, read afresh (mypy would keep an attribute narrowed by an earlier
    assertion across the action that changed it)."""
    return table.phase
