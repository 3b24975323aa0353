"""The hand: open and close betting, blank hands, dealing or scanning cards, the
squeeze and the reading, and settlement [M7], [M9], [M12], [M16], [S], [S5], [O].
"""

from __future__ import annotations

from punto.analysis.closing import SideBetPricer
from punto.bets import MAIN_BETS, Bet
from punto.cards import Card
from punto.coup import Position
from punto.errors import FaultError, PhaseError, SqueezeError, TableauError
from punto.outcome import Outcome, Side, Winner
from punto.settlement import Settler, refund
from punto.table.core import SHOE_IN_PLAY, OpenHand, SettledHand, TableCore
from punto.table.events import (
    BettingClosed,
    BettingOpened,
    BlankHandStarted,
    CardPlaced,
    CardsRevealed,
    HandSettled,
    SideBetsClosed,
)
from punto.table.phases import Phase, require_phase
from punto.table.reasons import Reason, Why
from punto.table.records import Bets, GameNumber, PlayerId, PlayerResult, freeze_bets
from punto.table.slip import BetSlip
from punto.table.squeeze import FIRST_TWO, ReadCall, Reading, verify_read

__all__ = ["HandDealing"]


class HandDealing(TableCore):
    """Dealer and holder actions of one hand."""

    def verify_open_betting(self) -> None:
        """Raise unless the next hand's betting round may open."""
        require_phase(self.phase, SHOE_IN_PLAY, "open betting")
        self._require_shoe()
        if self._blank_owed:
            raise PhaseError(f"the next hand is a blank hand ({self._blank_owed}) [S1]")

    def can_open_betting(self) -> bool:
        """Whether :meth:`open_betting` would succeed."""
        return self._can(self.verify_open_betting)

    def open_betting(self) -> BettingOpened:
        """Open the next hand's betting round and start its countdown [L]."""
        self.verify_open_betting()
        shoe = self._require_shoe()
        last, cuts = shoe.next_is_last()
        for notice in cuts:
            self._emit_cut(notice)
        now = self._now()
        game = OpenHand(
            number=GameNumber(self.settings.table_id, self.shoe_number, shoe.next_hand_number),
            opened_at=now,
            closes_at=now + self.settings.betting_seconds,
        )
        self._game = game
        standing = tuple((p, freeze_bets(s.standing)) for p, s in self._slips.items() if s.standing)
        if self.settings.standing_awaits_stake:  # staked again by the house, later [M12]
            for slip in self._slips.values():
                slip.awaiting = dict(slip.standing)
        event = BettingOpened(
            at=now, game=game.number, closes_at=game.closes_at, last_hand=last, standing=standing
        )
        self._emit(event)
        self._enter(Phase.BETTING_OPEN)
        self._close_side_bets(game)
        return event

    def _close_side_bets(self, game: OpenHand) -> SideBetsClosed | None:
        """[EZ-C] Close for ``game`` the side bets whose exact house edge on the cards not
        yet seen is below the rules' threshold, and say which the last hand closed that
        this one deals again (nothing to say: no event)."""
        rules = self.rules
        if rules.close_below_edge is None and not self._edge_closed_last:
            return None
        pricer = self._pricer
        if pricer is None or pricer.rules is not rules:
            pricer = self._pricer = SideBetPricer(rules)
        closed = pricer.closed(self._require_shoe().unseen)
        game.edge_closed = dict(closed)
        bets = tuple(bet for bet, _ in closed)
        reopened = tuple(bet for bet in self._edge_closed_last if bet not in game.edge_closed)
        self._edge_closed_last = bets
        if not bets and not reopened:
            return None
        event = SideBetsClosed(
            at=self._now(),
            game=game.number,
            threshold=rules.close_below_edge,
            closed=bets,
            edges=tuple(edge for _, edge in closed),
            reopened=reopened,
        )
        self._emit(event)
        return event

    def verify_close_betting(self) -> None:
        """Raise unless betting is open."""
        require_phase(self.phase, {Phase.BETTING_OPEN}, "close betting")

    def can_close_betting(self) -> bool:
        """Whether :meth:`close_betting` would succeed."""
        return self._can(self.verify_close_betting)

    def close_betting(self) -> BettingClosed:
        """No more bets: unconfirmed chips are not placed [L]. The dealer closes when the
        countdown ends, or earlier when asked to open the cards [O]."""
        self.verify_close_betting()
        return self._close_betting(by=None)

    def verify_start_blank_hand(self) -> None:
        """Raise unless a blank hand is owed [S1] and may start now."""
        require_phase(self.phase, SHOE_IN_PLAY, "start a blank hand")
        self._require_shoe()
        if not self._blank_owed:
            raise PhaseError("no blank hand is owed: open betting instead")

    def can_start_blank_hand(self) -> bool:
        """Whether :meth:`start_blank_hand` would succeed."""
        return self._can(self.verify_start_blank_hand)

    def start_blank_hand(self) -> BlankHandStarted:
        """Deal the owed blank hand (colpo in bianco): no bets [S1]."""
        self.verify_start_blank_hand()
        shoe = self._require_shoe()
        now = self._now()
        game = OpenHand(
            number=GameNumber(self.settings.table_id, self.shoe_number, shoe.next_hand_number),
            opened_at=now,
            closes_at=now,
            blank=True,
        )
        self._game = game
        assert self._blank_owed is not None  # verified above
        event = BlankHandStarted(at=now, game=game.number, reason=self._blank_owed)
        self._blank_owed = None  # owed no more: a fault during this hand may owe another
        self._emit(event)
        self._enter(Phase.BETTING_CLOSED)
        return event

    def _verify_next_card(self, game: OpenHand, position: Position | None) -> None:
        nxt = game.coup.next_position
        if nxt is None:
            raise TableauError(
                f"no card may be dealt: the coup is complete ({game.coup.guidance}) [S8]"
            )
        if position is not None and position is not nxt:
            raise TableauError(
                f"a card for the {position.label} is against the tableau: the next card is "
                f"the {nxt.label} ({game.coup.guidance}) [S8]"
            )

    def verify_deal_card(
        self, card: Card | None = None, *, position: Position | None = None
    ) -> None:
        """Raise unless the next card may be dealt: an RNG table draws it (no ``card``), a
        live dealer scans ``card``, which the shoe must be able to hold and the tableau
        must allow (to ``position``, if the scanner names one) [M7], [M9], [S8]; while
        someone holds face-down cards, the next card waits for the squeeze [M16]."""
        game = self._deal_turn()
        if not game.started and self._now() < game.lightning_until:
            # (the dealer's legal actions say a card may come: only its moment waits)
            raise PhaseError(
                "the lightning cards are being shown: the first card waits for them [LB]"
            )
        shoe = self._require_shoe()
        shoe.verify_card(card)
        if card is not None:
            game.coup.verify_deal(card, position)
        self._verify_next_card(game, position)

    def _deal_turn(self) -> OpenHand:
        """The hand whose next card may be dealt now, whatever the card (raises if none)."""
        if self.phase is Phase.SQUEEZE:
            raise SqueezeError(
                "the cards held face down are turned before the next card is dealt [M16]"
            )
        # After the result, a card is refused by the tableau (a third card too many [S8]).
        require_phase(
            self.phase, {Phase.BETTING_CLOSED, Phase.DEALING, Phase.RESULT}, "deal a card"
        )
        return self._require_game()

    def _verify_deal_next(self) -> None:
        self._verify_next_card(self._deal_turn(), None)
        self._require_shoe()

    def can_deal_next(self) -> bool:
        """Whether the tableau takes a next card now (a live dealer's scan of it may still
        be refused: a card the shoe cannot hold) [M7], [M9], [S8]."""
        return self._can(self._verify_deal_next)

    def can_rescan_next(self) -> bool:
        """Whether a failed scan was reported and the tableau takes the card again now,
        whatever the card [L]."""

        def verify() -> None:
            self._verify_rescan_owed()
            self._verify_deal_next()

        return self._can(verify)

    def _verify_rescan_owed(self) -> None:
        if not self._require_game().rescan:
            raise FaultError("no failed scan was reported: report l_card_not_scanned first [L]")

    def can_deal_card(self, card: Card | None = None, *, position: Position | None = None) -> bool:
        """Whether :meth:`deal_card` would succeed."""
        return self._can(lambda: self.verify_deal_card(card, position=position))

    def deal_card(
        self, card: Card | None = None, *, position: Position | None = None
    ) -> CardPlaced:
        """Deal (RNG) or scan (live) the next card; the coup machine places it [M7]. Cards
        of a side someone holds are dealt face down."""
        self.verify_deal_card(card, position=position)
        return self._deal(card, rescan=False)

    def _deal(self, card: Card | None, *, rescan: bool) -> CardPlaced:
        game = self._require_game()
        shoe = self._require_shoe()
        if not game.started:
            self._start_dealing(game)
        drawn = shoe.take(card)
        placed = game.coup.deal(drawn)
        face_up = not self._face_down(game, placed.position)
        if not face_up:
            game.face_down.add(placed.position)
        game.rescan = False
        event = CardPlaced(
            at=self._now(),
            game=game.number,
            position=placed.position,
            card=drawn,
            face_up=face_up,
            rescan=rescan,
        )
        self._emit(event)
        self._after_cards(game)
        return event

    def verify_rescan(self, card: Card, *, position: Position | None = None) -> None:
        """Raise unless a failed scan was reported and ``card`` may be dealt [L]."""
        self._verify_rescan_owed()
        self.verify_deal_card(card, position=position)

    def can_rescan(self, card: Card, *, position: Position | None = None) -> bool:
        """Whether :meth:`rescan` would succeed."""
        return self._can(lambda: self.verify_rescan(card, position=position))

    def rescan(self, card: Card, *, position: Position | None = None) -> CardPlaced:
        """Scan again a card the scanner missed [L]."""
        self.verify_rescan(card, position=position)
        return self._deal(card, rescan=True)

    def verify_squeeze(self, player: PlayerId, side: Side) -> None:
        """Raise unless ``player`` holds ``side``'s face-down cards now [M16], [O]."""
        require_phase(self.phase, {Phase.SQUEEZE}, "squeeze")
        game = self._require_game()
        if self.settings.table_reading is Reading.BUTTON:
            raise SqueezeError("at a Super Punto Banco table the reader reads the cards [S]")
        if game.holders.get(side) != player:
            holder = game.holders.get(side, "the dealer")
            raise SqueezeError(f"the {side.value} cards are {holder}'s to squeeze")
        if self.settings.table_reading is Reading.BID and not self.seats.get(player).present:
            raise SqueezeError(f"only a seated player squeezes: {player} is not at their seat [O]")
        if not self._face_down_of(game, side):
            raise SqueezeError(f"no {side.value} card is face down")

    def can_squeeze(self, player: PlayerId, side: Side) -> bool:
        """Whether :meth:`squeeze` would succeed."""
        return self._can(lambda: self.verify_squeeze(player, side))

    def squeeze(self, player: PlayerId, side: Side) -> CardsRevealed:
        """The holder turns their side's face-down cards (the third card always on its
        own [M16])."""
        self.verify_squeeze(player, side)
        game = self._require_game()
        return self._reveal(
            game, self._face_down_of(game, side), by=player, call=None, reason=Why(Reason.SQUEEZED)
        )

    def verify_read(self, player: PlayerId, call: ReadCall) -> None:
        """Raise unless ``player`` is the reader and ``call`` is what the tableau says [S]."""
        require_phase(self.phase, {Phase.SQUEEZE}, "read the cards")
        game = self._require_game()
        if self.settings.table_reading is not Reading.BUTTON:
            raise SqueezeError("only a Super Punto Banco table has a reader [S]")
        if game.holders.get(Side.PLAYER) != player:
            raise SqueezeError(f"{player} is not the reader of the Player hand [S]")
        values = [card.value for pos, card in game.cards if pos in FIRST_TWO]
        verify_read(call, values)

    def can_read(self, player: PlayerId, call: ReadCall) -> bool:
        """Whether :meth:`read` would succeed."""
        return self._can(lambda: self.verify_read(player, call))

    def read(self, player: PlayerId, call: ReadCall) -> CardsRevealed:
        """The reader calls natural / carta / no carta as the tableau says; the dealer then
        turns the cards [S]."""
        self.verify_read(player, call)
        game = self._require_game()
        return self._reveal(
            game,
            self._face_down_of(game, Side.PLAYER),
            by=player,
            call=call,
            reason=Why(Reason.READ),
        )

    def verify_reveal_cards(self, *, side: Side | None = None) -> None:
        """Raise unless face-down cards (of ``side``) are waiting."""
        require_phase(self.phase, {Phase.SQUEEZE, Phase.DEALING}, "reveal cards")
        game = self._require_game()
        if not self._face_down_of(game, side):
            raise SqueezeError("no card is face down")

    def can_reveal_cards(self, *, side: Side | None = None) -> bool:
        """Whether :meth:`reveal_cards` would succeed."""
        return self._can(lambda: self.verify_reveal_cards(side=side))

    def reveal_cards(self, *, side: Side | None = None) -> CardsRevealed:
        """The dealer turns face-down cards (a holder who does not squeeze in time)."""
        self.verify_reveal_cards(side=side)
        game = self._require_game()
        return self._reveal(
            game, self._face_down_of(game, side), by=None, call=None, reason=Why(Reason.DEALER)
        )

    def verify_settle(self, *, cards_left: int | None = None) -> None:
        """Raise unless the hand may be settled now; a live dealer gives ``cards_left``
        when [S5] needs it."""
        require_phase(self.phase, {Phase.RESULT}, "settle")
        self._require_game()
        shoe = self._shoe
        assert shoe is not None
        shoe.verify_end_hand(cards_left)

    def can_settle(self, *, cards_left: int | None = None) -> bool:
        """Whether :meth:`settle` would succeed."""
        return self._can(lambda: self.verify_settle(cards_left=cards_left))

    def settle(self, *, cards_left: int | None = None) -> HandSettled:
        """Settle every bet on the result (each paytable, exactly [M17]); main bets stand
        after a tie where the tie option says so [M12]; the [S5] void refunds instead."""
        self.verify_settle(cards_left=cards_left)
        game = self._require_game()
        shoe = self._shoe
        assert shoe is not None
        outcome = game.coup.outcome
        end = shoe.end_hand(outcome, cards_left)
        for notice in end.cuts:
            self._emit_cut(notice)
        results: list[PlayerResult] = []
        bets_of: dict[PlayerId, Bets] = {}
        if not game.blank:
            # one ratio per area, shared results; multiplied by the hand's draw [LB]
            settler = Settler(self.rules, outcome, lightning=game.lightning)
            for player, slip in self._slips.items():
                if not slip.confirmed:
                    continue
                bets = freeze_bets(slip.confirmed)
                bets_of[player] = bets
                results.append(
                    self._settle_slip(slip, outcome, settler, bets, void=bool(end.void_reason))
                )
        event = HandSettled(
            at=self._now(),
            game=game.number,
            results=tuple(results),
            void_reason=end.void_reason,
            last=end.last,
        )
        self._emit(event)
        if not end.void_reason and not game.blank:
            self._settled[game.number] = SettledHand(
                outcome, bets_of, {r.player: r for r in results}, game.lightning
            )
            self._last_bets.update(bets_of)
        self._end_game()
        if end.last or game.new_shoe_after:
            reason = Why(Reason.LAST_HAND if end.last else Reason.EXTRA_CARD)  # [M3] / [L]
            self._close_shoe(reason)
            self._enter(Phase.SHOE_END)
        self._apply_pending()  # changes asked for during the hand [S14]
        return event

    def _settle_slip(
        self, slip: BetSlip, outcome: Outcome, settler: Settler, bets: Bets, *, void: bool
    ) -> PlayerResult:
        if void:
            result = refund(bets)
            standing: dict[Bet, int] = {}
        else:
            result = settler.settle(bets)
            standing = {}
            if self.rules.tie_policy.stand and outcome.winner is Winner.TIE:
                standing = {b: a for b, a in bets.items() if b in MAIN_BETS}  # [M12]
        returned = result.total_returned - sum(standing.values())
        self.money.settle(
            slip.player,
            stake=result.total_stake,
            returned=result.total_returned,
            standing=sum(standing.values()),
        )
        slip.confirmed = dict(standing)
        slip.standing = dict(standing)
        slip.awaiting.clear()
        slip.first_confirmed = {b: s for b, s in slip.first_confirmed.items() if b in standing}
        return PlayerResult(
            player=slip.player, settlement=result, returned=returned, standing=freeze_bets(standing)
        )
