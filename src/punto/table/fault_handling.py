"""Faults as actions: :meth:`FaultHandling.report_fault` applies the documented
effect of every fault case, [M10] [S1]–[S9] [L] (:data:`punto.table.fault_catalogue.FAULTS`).
"""

from __future__ import annotations

from collections.abc import Sequence

from punto.cards import Card
from punto.coup import Coup, Position, coup_of_hands
from punto.errors import FaultError, PuntoError
from punto.outcome import Outcome, Winner
from punto.settlement import settle
from punto.table.core import SettledHand, TableCore
from punto.table.events import CardsBurned, FaultReported, HandResettled, HandRestarted
from punto.table.fault_catalogue import Effect, Fault
from punto.table.kinds import Dealing
from punto.table.phases import Phase
from punto.table.reasons import Reason, Why, fault_reason, rule_id
from punto.table.records import GameNumber, PlayerId, PlayerResult

__all__ = ["FaultHandling"]


class FaultHandling(TableCore):
    """The fault action."""

    def verify_report_fault(
        self,
        fault: Fault,
        *,
        player: PlayerId | None = None,
        detail: str = "",
        count: int = 1,
        cards: Sequence[Card] = (),
        position: Position | None = None,
        game: GameNumber | None = None,
        outcome: Outcome | None = None,
    ) -> None:
        """Raise unless ``fault`` can have happened now and its effect can apply."""
        spec = fault.spec
        if self.phase not in spec.phases:
            raise FaultError(
                f"{fault.value} cannot be reported while the table is {self.phase.value}"
            )
        if player is not None or fault is Fault.L_PLAYER_DEVICE_FAULT:
            if player is None:
                raise FaultError("name the player whose device failed [L]")
            self.seats.get(player)
        effect = spec.effect
        before_first = fault is Fault.S1_FIRST_CARD_SEEN or effect is Effect.RESHUFFLE
        if before_first and self._require_shoe().hands_dealt:
            raise FaultError(f"{fault.value} happens before the shoe's first hand")
        if fault is Fault.S3_DROPPED_FIRST_CARD and not self._require_game().cards:
            raise FaultError("no card was dealt yet [S3]")
        if effect is Effect.DISCARD:
            self._require_game()
            self._require_shoe().verify_discard(count, cards)
        if effect is Effect.REVEAL:
            face_down = self._face_down_of(self._require_game(), None)
            if not face_down or (position is not None and position not in face_down):
                raise FaultError("no such face-down card to reveal")
        if effect is Effect.RESCAN and self.settings.dealing is not Dealing.LIVE:
            raise FaultError("only a live table scans cards [L]")
        if effect is Effect.RESETTLE:
            self._corrections(game, outcome)

    def can_report_fault(
        self,
        fault: Fault,
        *,
        player: PlayerId | None = None,
        detail: str = "",
        count: int = 1,
        cards: Sequence[Card] = (),
        position: Position | None = None,
        game: GameNumber | None = None,
        outcome: Outcome | None = None,
    ) -> bool:
        """Whether :meth:`report_fault` would succeed."""
        return self._can(
            lambda: self.verify_report_fault(
                fault,
                player=player,
                detail=detail,
                count=count,
                cards=cards,
                position=position,
                game=game,
                outcome=outcome,
            )
        )

    def report_fault(
        self,
        fault: Fault,
        *,
        player: PlayerId | None = None,
        detail: str = "",
        count: int = 1,
        cards: Sequence[Card] = (),
        position: Position | None = None,
        game: GameNumber | None = None,
        outcome: Outcome | None = None,
    ) -> FaultReported:
        """Record a fault and apply its documented effect (:data:`punto.table.FAULTS`).

        ``count`` / ``cards``: the cards an [S2] discard takes out (a live dealer scans
        them); ``position``: the one card an [M4] exposure reveals; ``game`` /
        ``outcome``: the hand an [O] settlement error re-settles and, when the recorded
        result itself was wrong, the result the video shows.
        """
        self.verify_report_fault(
            fault,
            player=player,
            detail=detail,
            count=count,
            cards=cards,
            position=position,
            game=game,
            outcome=outcome,
        )
        spec = fault.spec
        event = FaultReported(
            at=self._now(),
            game=self.game if spec.effect is not Effect.RESETTLE else game,
            fault=fault,
            rule=spec.rule,
            effect=spec.effect,
            detail=detail,
            player=player,
        )
        self._emit(event)
        self._apply(fault, count=count, cards=cards, position=position, game=game, outcome=outcome)
        return event

    def _apply(
        self,
        fault: Fault,
        *,
        count: int,
        cards: Sequence[Card],
        position: Position | None,
        game: GameNumber | None,
        outcome: Outcome | None,
    ) -> None:
        spec = fault.spec
        effect = spec.effect
        why = fault_reason(fault)
        if effect is Effect.RECORD:
            return
        if effect is Effect.BLANK_NEXT_HAND:
            self._blank_owed = why
        elif effect is Effect.REFUND_BLANK_HAND:
            hand = self._require_game()
            self._refund_all(why)
            hand.blank = True
            hand.holders.clear()
            face_down = self._face_down_of(hand, None)
            if face_down:
                self._reveal(hand, face_down, by=None, call=None, reason=Why(Reason.BLANK_HAND))
        elif effect is Effect.RESTART_HAND:
            hand = self._require_game()
            self._require_shoe().return_cards([card for _, card in hand.cards])
            hand.coup = Coup()
            hand.face_down.clear()
            hand.turned.clear()  # the cards are dealt (and squeezed) again
            self._emit(HandRestarted(at=self._now(), game=hand.number, reason=why))
            self._enter(Phase.DEALING)
        elif effect is Effect.DISCARD:
            hand = self._require_game()
            if not hand.started:
                self._start_dealing(hand)
            taken = self._require_shoe().discard(count, cards)
            self._emit(
                CardsBurned(
                    at=self._now(),
                    shoe=self.shoe_number,
                    count=count,
                    cards=taken or None,
                    reason=Why(Reason.DISCARDED, {"rule": rule_id(spec.rule)}),
                )
            )
        elif effect in (Effect.VOID_REFUND, Effect.VOID_NEW_SHOE):
            hand = self._require_game()
            self._void_hand(why)
            new_shoe = effect is Effect.VOID_NEW_SHOE or hand.new_shoe_after
            self._end_game()
            if new_shoe:
                self._close_shoe(why)
                self._enter(Phase.SHOE_END)
            self._apply_pending()  # changes asked for during the hand [S14]
        elif effect is Effect.VOID_CLOSE_TABLE:
            self._close_table(why)
        elif effect is Effect.RESULT_STANDS_NEW_SHOE:
            if self.phase is Phase.RESULT:
                self._require_game().new_shoe_after = True
            else:
                self._close_shoe(why)
                self._enter(Phase.SHOE_END)
                self._apply_pending()  # rules waiting for the shoe to end [S14]
        elif effect is Effect.RESHUFFLE:
            self._close_shoe(why)
            self._open_shoe(())
        elif effect is Effect.REVEAL:
            hand = self._require_game()
            positions = [position] if position is not None else self._face_down_of(hand, None)
            self._reveal(hand, positions, by=None, call=None, reason=why)
        elif effect is Effect.RESCAN:
            self._require_game().rescan = True
        elif effect is Effect.RESETTLE:
            self._resettle(game, outcome)

    def _corrections(
        self, game: GameNumber | None, outcome: Outcome | None
    ) -> tuple[SettledHand, Outcome, list[PlayerResult], list[tuple[PlayerId, int]]]:
        """What an [O] re-settlement would move; raises where it cannot."""
        if game is None or game not in self._settled:
            raise FaultError(f"no settled hand {game} to settle again at this table [O]")
        hand = self._settled[game]
        result = hand.outcome if outcome is None else _checked_outcome(outcome)
        if self.rules.tie_policy.stand and Winner.TIE in (hand.outcome.winner, result.winner):
            raise FaultError(
                "bets stood after a tie on this hand [M12]: the supervisor re-settles it by hand"
            )
        results: list[PlayerResult] = []
        corrections: list[tuple[PlayerId, int]] = []
        for player, bets in hand.bets.items():
            new = settle(self.rules, result, bets, lightning=hand.lightning)
            delta = new.total_returned - hand.results[player].returned
            if delta and player not in self.money:
                raise FaultError(f"{player} has left the table: correct their account directly")
            if delta < 0 and self.money.balance(player) + delta < 0:
                raise FaultError(
                    f"{player}'s table balance cannot cover a correction of {self._show(delta)}"
                )
            results.append(PlayerResult(player=player, settlement=new, returned=new.total_returned))
            if delta:
                corrections.append((player, delta))
        return hand, result, results, corrections

    def _resettle(self, game: GameNumber | None, outcome: Outcome | None) -> None:
        hand, result, results, corrections = self._corrections(game, outcome)
        assert game is not None
        for player, delta in corrections:
            self.money.correct(player, delta)
        self._settled[game] = SettledHand(
            result, hand.bets, {r.player: r for r in results}, hand.lightning
        )
        self._emit(
            HandResettled(
                at=self._now(),
                game=game,
                outcome=result,
                results=tuple(results),
                corrections=tuple(corrections),
            )
        )


def _checked_outcome(outcome: Outcome) -> Outcome:
    """Deal a claimed result's cards through the coup machine: only a result the tableau
    can make is accepted [M9]."""
    try:
        return coup_of_hands(outcome.player, outcome.banker)
    except PuntoError as exc:
        raise FaultError(f"the corrected result is not a coup the tableau deals: {exc}") from None
