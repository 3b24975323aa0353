"""Hypothesis: random sequences of player, dealer and supervisor actions — legal or not,
faults included — never break an invariant: money is conserved, no card comes out more
often than the shoe holds it, every phase change is a legal transition, ``can_X``
agrees with ``X``, and an action that fails changes nothing."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from table_support import make_table, play, seat, state_of

from punto.bets import Bet
from punto.cards import Card, deck
from punto.coup import Position
from punto.errors import PuntoError, TableError
from punto.outcome import Outcome, Side
from punto.rules import preset
from punto.table import (
    TRANSITIONS,
    Dealing,
    Fault,
    ManualClock,
    Phase,
    ReadCall,
    Reading,
    Table,
    TableKind,
    TableSettings,
    Viewer,
)
from punto.table.events import (
    CardPlaced,
    CardsBurned,
    CardsHeld,
    DemoHandDealt,
    Event,
    HandRestarted,
    ShoeOpened,
)
from punto.table.reasons import Reason, Why

PLAYERS = ("ann", "bob", "carl", "dave", "erin")
CARDS = tuple(deck())
BETS = (Bet.PLAYER, Bet.BANKER, Bet.TIE, Bet.PLAYER_PAIR)

Act = Callable[[Table], object]


@dataclass(frozen=True)
class Action:
    """One table action with its arguments: ``can`` answers, ``do`` applies."""

    name: str
    can: Callable[[Table], bool]
    do: Act


def _action(table: Table, name: str, *args: object, **kwargs: object) -> Action:
    can = getattr(table, f"can_{name}")
    do = getattr(table, name)
    return Action(name, lambda _: bool(can(*args, **kwargs)), lambda _: do(*args, **kwargs))


def _cards_out(events: Iterable[Event]) -> dict[int, Counter[Card]]:
    """Every card taken out of each shoe: burned, demonstration hands, dealt (a restarted
    hand's cards are dealt again, so they are counted once)."""
    shoe = 0
    out: dict[int, Counter[Card]] = {}
    hand: dict[object, list[Card]] = {}
    for event in events:
        if isinstance(event, ShoeOpened):
            shoe = event.shoe
            out[shoe] = Counter()
        elif isinstance(event, CardsBurned):
            out[shoe].update(event.cards or ())
        elif isinstance(event, DemoHandDealt):
            out[shoe].update(event.outcome.player + event.outcome.banker)
        elif isinstance(event, HandRestarted):
            out[shoe].subtract(hand.pop(event.game, []))
        elif isinstance(event, CardPlaced) and event.card is not None:
            out[shoe][event.card] += 1
            hand.setdefault(event.game, []).append(event.card)
    return out


class TableMachine(RuleBasedStateMachine):
    """Drives one table with random actions."""

    table: Table
    clock: ManualClock

    @initialize(
        shape=st.sampled_from(
            [
                ("macau", TableKind.NORMAL, Reading.LARGEST_BETTOR),
                ("super_punto_banco", TableKind.NORMAL, Reading.BUTTON),
                ("online_8deck", TableKind.VIP, None),
                ("online_8deck", TableKind.BID_SQUEEZE, None),
                # Main bets stand after a tie [M12] at VIP and bid-squeeze tables too.
                ("macau", TableKind.VIP, None),
                ("macau", TableKind.BID_SQUEEZE, None),
                ("live_tiger", TableKind.NORMAL, Reading.DEALER),
            ]
        ),
        dealing=st.sampled_from(Dealing),
        seed=st.integers(0, 2**32),
    )
    def setup(
        self, shape: tuple[str, TableKind, Reading | None], dealing: Dealing, seed: int
    ) -> None:
        name, kind, reading = shape
        settings_ = TableSettings(
            table_id="H1",
            rules=preset(name),
            kind=kind,
            dealing=dealing,
            reading=reading,
            vip_min_balance=200_000,
            owner_shoe_change_after=2,
            max_waits=1,
        )
        self.clock = ManualClock()
        self.table = table = Table(settings_, clock=self.clock, rng=random.Random(seed))
        table.start_shoe()
        for n, player in enumerate(PLAYERS[:4], start=1):
            table.join(player, balance=2_000_000)
            if kind is TableKind.VIP and n == 1:
                table.take_table(player, n)
            elif n < 4:
                table.sit(player, n)
            else:
                table.watch(player)

    def _auto(self, data: st.DataObject) -> Action:
        """The natural next step (bets while betting is open, the holder's squeeze, the
        dealer's next card…), so that random runs play whole hands."""
        t = self.table
        phase = t.phase
        if phase is Phase.BETTING_OPEN and data.draw(st.integers(0, 3)):
            player = data.draw(st.sampled_from(PLAYERS[:4]))
            bet = data.draw(st.sampled_from(BETS))
            who = t.seats.participants.get(player)
            if who is not None and who.tier is not None:
                tier = t.rules.tier(who.tier)
                low = tier.limits_for(bet)[0]
                fits = [c for c in t.settings.chips if c >= low and c % tier.min_bet == 0]
                if fits and t.can_choose_chip(player, fits[0]):
                    t.choose_chip(player, fits[0])

            def bet_and_confirm(table: Table) -> None:
                table.add_chip(player, bet)
                if table.can_confirm(player):
                    table.confirm(player)

            return Action("bet", lambda table: table.can_add_chip(player, bet), bet_and_confirm)
        if phase is Phase.SQUEEZE and t.holders and data.draw(st.booleans()):
            side, holder = next(iter(t.holders.items()))
            if t.settings.table_reading is Reading.BUTTON:
                return _action(t, "read", holder, data.draw(st.sampled_from(ReadCall)))
            return _action(t, "squeeze", holder, side)
        if phase in (Phase.WAITING, Phase.SHOE_END):
            return _action(t, "start_shoe")
        if phase in (Phase.SHOE_START, Phase.SETTLED):
            return _action(t, "start_blank_hand" if t.blank_owed else "open_betting")
        if phase is Phase.BETTING_OPEN:
            return _action(t, "close_betting")
        if phase is Phase.SQUEEZE:
            return _action(t, "reveal_cards")
        if phase is Phase.RESULT:
            needs = getattr(t.shoe, "needs_cards_left", False)
            return _action(t, "settle", cards_left=20 if needs else None)
        if phase is Phase.PAUSED:
            return _action(t, "resume")
        if t.settings.dealing is Dealing.RNG:
            return _action(t, "deal_card")
        live = [c for c in CARDS if t.can_deal_card(c)]
        return _action(t, "deal_card", live[len(t.events) % len(live)] if live else CARDS[0])

    # -- the random step ------------------------------------------------------------

    def _actions(self, data: st.DataObject) -> Action:
        t = self.table
        player = data.draw(st.sampled_from(PLAYERS))
        card = data.draw(st.sampled_from(CARDS)) if t.settings.dealing is Dealing.LIVE else None
        kind = data.draw(
            st.sampled_from(
                # Weighted by repetition: dealing and betting come often, closing rarely.
                ["auto"] * 16
                + ["join", "transfer"]
                + ["sit"] * 2
                + ["take_table", "watch", "stand", "leave", "disconnect", "reconnect"]
                + ["chip"] * 6
                + ["undo", "clear", "double", "rebet", "tie", "wait", "open_cards", "fly"]
                + ["confirm"] * 3
                + ["start_shoe", "demo", "burn", "cut", "change_shoe", "blank"]
                + ["open"] * 3
                + ["close"] * 2
                + ["deal"] * 4
                + ["rescan", "squeeze", "squeeze", "read", "read", "reveal"]
                + ["settle"]
                + ["dealer", "limits", "vip", "pause", "clock"]
                + ["fault"] * 4
                + ["close_table"]
            )
        )
        if kind == "auto":
            return self._auto(data)
        if kind == "close_table" and data.draw(st.integers(0, 9)):
            kind = "clock"  # closing ends the run: keep it rare
        if kind == "join":
            balance = data.draw(st.sampled_from([0, 50_000, 1_000_000, 10_000_000]))
            return _action(t, "join", player, balance=balance)
        if kind == "transfer":
            amount = data.draw(st.sampled_from([-2_000_000, -5_000, 0, 5_000, 100_000]))
            return _action(t, "transfer", player, amount, reason=Why(Reason.DEPOSIT))
        if kind == "sit":
            return _action(t, "sit", player, data.draw(st.integers(0, 8)))
        if kind == "take_table":
            return _action(t, "take_table", player, data.draw(st.integers(1, 7)))
        if kind == "watch":
            return _action(t, "watch", player, password=data.draw(st.sampled_from([None, "pw"])))
        if kind == "stand":
            return _action(t, "stand", player, mark=data.draw(st.booleans()))
        if kind in ("leave", "disconnect", "reconnect", "undo", "clear", "double", "rebet"):
            return _action(t, kind, player)
        if kind == "chip":
            chip = data.draw(st.sampled_from((*t.settings.chips[:4], 333)))
            if t.can_choose_chip(player, chip):
                t.choose_chip(player, chip)
            spot = data.draw(st.sampled_from([None, None, 1, 7]))
            return _action(t, "add_chip", player, data.draw(st.sampled_from(BETS)), spot=spot)
        if kind == "confirm":
            return _action(t, "confirm", player)
        if kind == "tie":
            amount = data.draw(st.sampled_from([0, 5_000, 10_000, 20_000]))
            side = data.draw(st.sampled_from([Bet.PLAYER, Bet.BANKER]))
            return _action(t, "change_tie_bets", player, {side: amount} if amount else {})
        if kind == "wait":
            return _action(t, "wait_for_me", player)
        if kind == "open_cards":
            return _action(t, "request_open_cards", player)
        if kind == "fly":
            return _action(t, "fly", player)
        if kind == "start_shoe":
            return _action(t, "start_shoe")
        if kind == "demo":
            cards = [] if card is None else data.draw(st.lists(st.sampled_from(CARDS), max_size=6))
            return _action(t, "deal_demo_hand", cards=cards)
        if kind == "burn":
            count = data.draw(st.integers(1, 2))
            cards = [] if card is None else [card] * count
            return _action(t, "burn", count, cards=cards)
        if kind == "cut":
            return _action(t, "cut_card_out")
        if kind == "change_shoe":
            return _action(t, "change_shoe", by=data.draw(st.sampled_from([None, player])))
        if kind == "blank":
            return _action(t, "start_blank_hand")
        if kind == "open":
            return _action(t, "open_betting")
        if kind == "close":
            return _action(t, "close_betting")
        if kind == "deal":
            position = data.draw(st.sampled_from([None, None, None, *Position]))
            return _action(t, "deal_card", card, position=position)
        if kind == "rescan":
            return _action(t, "rescan", card or CARDS[0])
        if kind == "squeeze":
            return _action(t, "squeeze", player, data.draw(st.sampled_from(Side)))
        if kind == "read":
            return _action(t, "read", player, data.draw(st.sampled_from(ReadCall)))
        if kind == "reveal":
            return _action(t, "reveal_cards", side=data.draw(st.sampled_from([None, *Side])))
        if kind == "settle":
            left = data.draw(st.sampled_from([None, None, 3, 30]))
            return _action(t, "settle", cards_left=left)
        if kind == "dealer":
            return _action(t, "change_dealer", "Max", by=data.draw(st.sampled_from([None, player])))
        if kind == "limits":
            tiers = t.rules.limit_tiers[: data.draw(st.integers(1, len(t.rules.limit_tiers)))]
            return _action(t, "set_limit_tiers", tiers)
        if kind == "vip":
            return _action(
                t,
                "set_vip_settings",
                player,
                squeeze=data.draw(st.sampled_from([None, True, False])),
                password=data.draw(st.sampled_from([None, "pw"])),
            )
        if kind in ("pause", "close_table"):
            return _action(t, kind)
        if kind == "fault":
            fault = data.draw(st.sampled_from(Fault))
            if fault is Fault.L_OPERATOR_SYSTEM_FAULT and data.draw(st.integers(0, 9)):
                fault = Fault.L_PLAYER_DEVICE_FAULT  # it closes the table: keep it rare
            records = t.records()
            game = records[-1].game if records else None
            outcome = data.draw(
                st.sampled_from(
                    [None, Outcome.from_hands(CARDS[8:9] + CARDS[0:1], CARDS[3:4] + CARDS[20:21])]
                )
            )
            cards = [] if card is None else [card]
            return _action(
                t,
                "report_fault",
                fault,
                player=data.draw(st.sampled_from([None, player])),
                count=1,
                cards=cards,
                game=game,
                outcome=outcome,
            )
        seconds = data.draw(st.sampled_from([1.0, 5.0, 20.0]))
        return Action("clock", lambda _: True, lambda _: self.clock.advance(seconds))

    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        action = self._actions(data)
        before = state_of(self.table)
        if action.can(self.table):
            action.do(self.table)
        else:
            with pytest.raises(PuntoError):
                action.do(self.table)
            assert state_of(self.table) == before, f"failed {action.name} changed the table"

    # -- invariants -------------------------------------------------------------------

    @invariant()
    def money_is_conserved(self) -> None:
        t = self.table
        assert t.money_check()
        assert all(balance >= 0 for balance in t.balances.values())

    @invariant()
    def no_card_comes_out_more_often_than_the_shoe_holds_it(self) -> None:
        decks = self.table.rules.decks
        for counts in _cards_out(self.table.events).values():
            assert not counts or max(counts.values()) <= decks

    @invariant()
    def no_stake_belongs_to_someone_gone(self) -> None:
        t = self.table
        at_table = sum(sum(t.bets(p).values()) for p in t.seats.participants)
        assert at_table == t.money_in_play()

    @invariant()
    def the_phase_agrees_with_the_state(self) -> None:
        t = self.table
        phase, coup, shoe = t.phase, t.coup, t.shoe
        in_hand = phase in (
            Phase.BETTING_OPEN,
            Phase.BETTING_CLOSED,
            Phase.DEALING,
            Phase.SQUEEZE,
            Phase.RESULT,
        )
        assert (t.game is not None) == in_hand
        assert (t.closes_at is not None) == (phase is Phase.BETTING_OPEN)
        if phase is Phase.CLOSED:
            assert not t.seats.participants
            assert t.money_in_play() == 0
        if phase is Phase.WAITING:
            assert shoe is None
        if in_hand or phase in (Phase.SHOE_START, Phase.SETTLED):
            assert shoe is not None
            assert not shoe.finished
        if phase is Phase.SHOE_END:
            assert shoe is not None
            assert shoe.finished
        if phase in (Phase.BETTING_OPEN, Phase.BETTING_CLOSED):
            assert coup is not None
            assert not coup.events
        if phase is Phase.DEALING:
            assert coup is not None
            assert not coup.is_complete
        assert bool(t.awaiting_squeeze) == (phase is Phase.SQUEEZE) or phase is Phase.DEALING
        if phase is Phase.RESULT:
            assert coup is not None
            assert coup.is_complete
            assert not t.awaiting_squeeze

    @invariant()
    def every_phase_change_is_legal(self) -> None:
        history = self.table.phase_history
        for old, new in itertools.pairwise(history):
            assert new in TRANSITIONS[old], f"{old.value} -> {new.value}"

    @invariant()
    def no_hidden_card_reaches_a_player_but_its_holder(self) -> None:
        for player in PLAYERS:
            held: dict[tuple[object, Side], str] = {}
            for event in self.table.view(Viewer.PLAYER, player):
                if isinstance(event, CardsHeld):
                    held[(event.game, event.side)] = event.player
                if isinstance(event, CardPlaced) and not event.face_up:
                    holder = held.get((event.game, event.position.side))
                    assert event.card is None or holder == player  # [M16]: they look first
                if isinstance(event, CardsBurned):
                    assert event.cards is None


TableMachine.TestCase.settings = settings(
    max_examples=150,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_random_actions_never_break_an_invariant = TableMachine.TestCase


def test_forgetting_events_keeps_their_numbers_and_the_state() -> None:
    table, clock = make_table()
    seat(table, "ann", 1)
    play(table, clock, "9S 8H KD KC", {"ann": {Bet.PLAYER: 5_000}})
    count, state = table.event_count, state_of(table)[1:]  # all but the event list
    table.forget_events(len(table.events) - 1)
    assert table.event_count == count
    assert len(table.events) == 1
    assert state_of(table)[1:] == state
    for bad in (-1, 2, True, 1.5):
        with pytest.raises(TableError, match="cannot forget"):
            table.forget_events(bad)  # type: ignore[arg-type]
    assert table.event_count == count
    table.open_betting()
    assert table.event_count == count + 1
