"""The betting round [L]: chips, undo, clear, double, rebet, confirm; tie options
[M12]; "wait for me", requests to open the cards and the VIP owner's "fly" [O].
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from punto.bets import MAIN_BETS, Bet
from punto.errors import (
    AccessError,
    AmountError,
    BettingError,
    SeatError,
    SqueezeError,
    TableBalanceError,
)
from punto.limits import (
    AreaLimit,
    AreaRoom,
    area_rooms,
    check_bet_maximum,
    check_bets,
    check_edge_open,
    check_stake,
)
from punto.table.core import OpenHand, TableCore
from punto.table.events import (
    BetsCleared,
    BetsConfirmed,
    BetsDoubled,
    BettingClosed,
    BettingExtended,
    ChipAdded,
    ChipChosen,
    ChipsUndone,
    OpenCardsRequested,
    RebetPlaced,
    TieBetsChanged,
)
from punto.table.kinds import TableKind
from punto.table.phases import Phase, require_phase
from punto.table.reasons import Reason, Why
from punto.table.records import Bets, PlayerId, freeze_bets
from punto.table.seat_plan import Place
from punto.table.slip import BetSlip
from punto.tie_options import TieAction, tie_action, verify_tie_change

__all__ = ["BettingRound"]

_OPEN_CARDS_PHASES = frozenset({Phase.BETTING_OPEN, Phase.SQUEEZE})
"""When seated bid-squeeze players may ask to open the cards [O]."""


class BettingRound(TableCore):
    """Player actions while betting is open."""

    def verify_choose_chip(self, player: PlayerId, chip: int) -> None:
        """Raise unless ``chip`` is one of the table's denominations."""
        self._require_open()
        self.seats.get(player)
        if chip not in self.chips_of(player):
            chips = ", ".join(self._show(c, player) for c in self.chips_of(player))
            whole = isinstance(chip, int) and not isinstance(chip, bool)
            shown = self._show(chip, player) if whole else repr(chip)
            raise BettingError(f"no chip of {shown} at this table; chips are {chips}")

    def can_choose_chip(self, player: PlayerId, chip: int) -> bool:
        """Whether :meth:`choose_chip` would succeed."""
        return self._can(lambda: self.verify_choose_chip(player, chip))

    def choose_chip(self, player: PlayerId, chip: int) -> ChipChosen:
        """``player`` picks the chip the next clicks put down [L]."""
        self.verify_choose_chip(player, chip)
        self._chips[player] = chip
        event = ChipChosen(at=self._now(), player=player, chip=chip)
        self._emit(event)
        return event

    def _verify_spot(self, player: PlayerId, spot: int | None) -> int | None:
        chosen = self.seats.verify_spot(player, spot)
        slip = self._slips.get(player)
        if slip is not None and (slip.confirmed or slip.steps) and slip.spot != chosen:
            where = "the watchers' area" if slip.spot is None else f"spot {slip.spot}"
            raise SeatError(f"{player}'s bets on this hand are on {where}")
        return chosen

    def verify_add_chip(self, player: PlayerId, bet: Bet, *, spot: int | None = None) -> None:
        """Raise unless ``player`` may put their chosen chip on ``bet`` now."""
        self._verify_betting(player, "add a chip")
        if player not in self._chips:
            raise BettingError("choose a chip first [L]")
        self.rules.paytable_for(bet)  # raises BetNotOfferedError
        self._verify_spot(player, spot)
        slip = self._slip_or_empty(player)
        game = self._require_game()
        check_edge_open(self.rules, bet, game.edge_closed)  # [EZ-C] at the chip already
        on_bet = slip.confirmed.get(bet, 0) + slip.pending.get(bet, 0) + self._chips[player]
        self._check_maximum(player, bet, on_bet)  # up to the table limit [L]

    def can_bet(self, player: PlayerId) -> bool:
        """Whether ``player`` may put chips down now, whichever chip and bet [L]."""
        return self._betting_open(player) and self._can(
            lambda: self._verify_betting(player, "add a chip")
        )

    def can_add_chip(self, player: PlayerId, bet: Bet, *, spot: int | None = None) -> bool:
        """Whether :meth:`add_chip` would succeed."""
        return self._betting_open(player) and self._can(
            lambda: self.verify_add_chip(player, bet, spot=spot)
        )

    def bet_rooms(self, player: PlayerId, *, can_bet: bool | None = None) -> tuple[AreaRoom, ...]:
        """How much more ``player`` may stake on each offered bet area now, and what bounds
        each: :func:`punto.limits.area_room`, from the limits :meth:`verify_add_chip` and
        :meth:`verify_confirm` apply [L], [M18]; while the player may not bet (``can_bet``:
        :meth:`can_bet`, if already asked), every area takes nothing."""
        offered = _offered(tuple(self.rules.paytables))
        if not (self.can_bet(player) if can_bet is None else can_bet):
            return _closed_rooms(offered)
        tier = self.tier_of(player)
        game = self._require_game()
        slip = self._slips.get(player)
        staked = {} if slip is None else slip.confirmed if not slip.steps else slip.combined()
        closed = frozenset(game.edge_closed)
        return area_rooms(
            self.rules, offered, staked, tier=tier, hand_number=game.number.hand, closed=closed
        )

    def add_chip(self, player: PlayerId, bet: Bet, *, spot: int | None = None) -> ChipAdded:
        """Put the chosen chip on ``bet``; it is a bet only once confirmed [L]. ``spot``: a
        watcher's free spot (default: the player's seat, or the watchers' area) [M15]."""
        self.verify_add_chip(player, bet, spot=spot)
        game = self._require_game()
        chosen = self._verify_spot(player, spot)
        slip = self._slip(player)
        slip.spot = chosen
        amount = self._chips[player]
        slip.add(bet, amount)
        event = ChipAdded(
            at=self._now(), game=game.number, player=player, bet=bet, amount=amount, spot=chosen
        )
        self._emit(event)
        return event

    def verify_undo(self, player: PlayerId) -> None:
        """Raise unless ``player`` has an unconfirmed step to take back."""
        self._verify_betting(player, "undo")
        self._slip_or_empty(player).verify_pending("undo")

    def can_undo(self, player: PlayerId) -> bool:
        """Whether :meth:`undo` would succeed."""
        return (
            self._betting_open(player)
            and self._has_chips(player)
            and self._can(lambda: self.verify_undo(player))
        )

    def undo(self, player: PlayerId) -> ChipsUndone:
        """Take back the last unconfirmed chip (or doubling, or rebet) [L]."""
        self.verify_undo(player)
        game = self._require_game()
        chips = self._slip(player).undo()
        event = ChipsUndone(at=self._now(), game=game.number, player=player, chips=chips)
        self._emit(event)
        return event

    def verify_clear(self, player: PlayerId) -> None:
        """Raise unless ``player`` has unconfirmed chips."""
        self._verify_betting(player, "clear bets")
        self._slip_or_empty(player).verify_pending("clear")

    def can_clear(self, player: PlayerId) -> bool:
        """Whether :meth:`clear` would succeed."""
        return (
            self._betting_open(player)
            and self._has_chips(player)
            and self._can(lambda: self.verify_clear(player))
        )

    def clear(self, player: PlayerId) -> BetsCleared:
        """Take back every unconfirmed chip [L]."""
        self.verify_clear(player)
        game = self._require_game()
        self._slip(player).clear()
        event = BetsCleared(at=self._now(), game=game.number, player=player)
        self._emit(event)
        return event

    def verify_double(self, player: PlayerId) -> None:
        """Raise unless ``player`` has unconfirmed chips to double."""
        self._verify_betting(player, "double")
        slip = self._slip_or_empty(player)
        slip.verify_pending("double")
        for bet, amount in slip.pending.items():
            self._check_maximum(player, bet, slip.confirmed.get(bet, 0) + 2 * amount)

    def can_double(self, player: PlayerId) -> bool:
        """Whether :meth:`double` would succeed."""
        return (
            self._betting_open(player)
            and self._has_chips(player)
            and self._can(lambda: self.verify_double(player))
        )

    def double(self, player: PlayerId) -> BetsDoubled:
        """Double the unconfirmed chips (confirmed bets cannot be doubled) [L]."""
        self.verify_double(player)
        game = self._require_game()
        self._slip(player).double()
        event = BetsDoubled(at=self._now(), game=game.number, player=player)
        self._emit(event)
        return event

    def verify_rebet(self, player: PlayerId) -> None:
        """Raise unless ``player`` has last hand's bets to put back."""
        self._verify_betting(player, "rebet")
        if not self._last_bets.get(player):
            raise BettingError(f"{player} has no confirmed bets from the last hand to repeat")
        game = self._require_game()
        for bet in self._last_bets[player]:
            check_edge_open(self.rules, bet, game.edge_closed)  # [EZ-C] not put back closed
        self._verify_spot(player, None)

    def can_rebet(self, player: PlayerId) -> bool:
        """Whether :meth:`rebet` would succeed."""
        return (
            self._betting_open(player)
            and bool(self._last_bets.get(player))
            and self._can(lambda: self.verify_rebet(player))
        )

    def rebet(self, player: PlayerId) -> RebetPlaced:
        """Put last hand's confirmed bets back as unconfirmed chips (confirm them)."""
        self.verify_rebet(player)
        game = self._require_game()
        slip = self._slip(player)
        slip.spot = self._verify_spot(player, None)
        bets = self._last_bets[player]
        slip.add_step(bets)
        event = RebetPlaced(at=self._now(), game=game.number, player=player, bets=bets)
        self._emit(event)
        return event

    def _others_main(self, player: PlayerId) -> tuple[int, int]:
        """The Banker and Player totals of everyone else's confirmed bets ([M18]'s table
        limits): the table's totals less the player's own, the totals counted again only
        when an event other than a confirm changed the bets."""
        at, banker, punto = self._main_totals
        if at != self.event_count:
            banker = punto = 0
            for s in self._slips.values():
                banker += s.confirmed.get(Bet.BANKER, 0)
                punto += s.confirmed.get(Bet.PLAYER, 0)
            self._main_totals = (self.event_count, banker, punto)
        own = self._slips.get(player)
        if own is None:
            return banker, punto
        return banker - own.confirmed.get(Bet.BANKER, 0), punto - own.confirmed.get(Bet.PLAYER, 0)

    def _check_maximum(self, player: PlayerId, bet: Bet, amount: int) -> None:
        purse = self.purses.get(player)
        digits = None if purse is None else purse.digits
        check_bet_maximum(self.rules, bet, amount, tier=self.tier_of(player), digits=digits)

    def _check_limits(self, player: PlayerId, bets: Mapping[Bet, int], game: OpenHand) -> None:
        banker, punto = self._others_main(player)
        purse = self.purses.get(player)
        check_bets(
            self.rules,
            bets,
            tier=self.tier_of(player),
            digits=None if purse is None else purse.digits,
            hand_number=game.number.hand,
            table_banker=banker,
            table_player=punto,
            edge_closed=game.edge_closed,
        )

    def _verify_placed(self, player: PlayerId, bets: Mapping[Bet, int]) -> Bets:
        """Raise unless ``bets`` may go down as chips now, to be confirmed with them:
        no unconfirmed chips are on the layout, the bets are offered and each amount is
        made of the table's chips [L]. Returns them, frozen."""
        slip = self._slip_or_empty(player)
        if slip.steps:
            raise BettingError(
                "unconfirmed chips are on the layout: confirm or clear them before "
                "confirming other bets [L]"
            )
        if not bets:
            raise BettingError("no bets to confirm: name at least one bet and its amount [L]")
        smallest = min(self.chips_of(player))
        for bet, amount in bets.items():
            check_stake(self.rules, bet, amount)
            if amount % smallest:
                raise AmountError(
                    f"{bet.label} amount {self._show(amount, player)} is not made of this "
                    f"table's chips (the smallest is {self._show(smallest, player)})"
                )
        self._verify_spot(player, None)
        return freeze_bets(bets)

    def fee_on(self, stake: int) -> int:
        """[LB] The fee a confirm staking ``stake`` pays on top of it (0 but at a
        multiplier table)."""
        table = self.rules.lightning
        return 0 if table is None or not stake else table.fee_on(stake)

    def verify_confirm(self, player: PlayerId, bets: Mapping[Bet, int] | None = None) -> None:
        """Raise unless ``player``'s unconfirmed chips may become bets: the balance covers
        them and every limit holds (tier, [M14], [M18], [S11], [O], [L]). With ``bets``:
        whether those may be put down and confirmed at once (see :meth:`confirm`)."""
        game = self._verify_betting(player, "confirm bets")
        slip = self._slip_or_empty(player)
        if bets is None:
            slip.verify_pending("confirm")
            total, combined = slip.pending_total, slip.combined()
        else:
            placed = self._verify_placed(player, bets)
            total = sum(placed.values())
            merged = dict(slip.confirmed)
            for bet, amount in placed.items():
                merged[bet] = merged.get(bet, 0) + amount
            combined = freeze_bets(merged)
        fee = self.fee_on(total)
        if total + fee > (balance := self.money.balance(player)):
            with_fee = f" and their fee of {self._show(fee, player)}" if fee else ""
            raise TableBalanceError(
                f"bets of {self._show(total, player)}{with_fee} are more than the balance of "
                f"{self._show(balance, player)}",
                needed=total + fee,
                balance=balance,
            )
        self._check_limits(player, combined, game)  # on the stakes alone [LB]

    def can_confirm(self, player: PlayerId, bets: Mapping[Bet, int] | None = None) -> bool:
        """Whether :meth:`confirm` would succeed."""
        return (
            self._betting_open(player)
            and (bets is not None or self._has_chips(player))
            and self._can(lambda: self.verify_confirm(player, bets))
        )

    def confirm(self, player: PlayerId, bets: Mapping[Bet, int] | None = None) -> BetsConfirmed:
        """Confirm the unconfirmed chips: the balance is debited and they are bets [L].

        With ``bets`` (bet → amount), those are put down as chips and confirmed in one step:
        what a player who clicks chips and then confirms does, as one action (a client
        that knows its bets, a "repeat and confirm" button). Nothing may be unconfirmed
        then, and each amount is made of the table's chips; the bets go on the player's
        own spot (their seat, or the watchers' area)."""
        self.verify_confirm(player, bets)
        game = self._require_game()
        slip = self._slip(player)
        if bets is not None:
            slip.spot = self._verify_spot(player, None)
            slip.add_step(bets)
        added = slip.confirm(seq=self.event_count)
        slip.from_seat = slip.from_seat or self.seats.get(player).place is Place.SEATED
        debited = sum(added.values())
        self.money.stake(player, debited)
        fee = self.fee_on(debited)
        if fee:
            self.money.charge_fee(player, fee)
        at, banker, punto = self._main_totals
        current = at == self.event_count
        event = BetsConfirmed(
            at=self._now(),
            game=game.number,
            player=player,
            added=added,
            bets=freeze_bets(slip.confirmed),
            debited=debited,
            fee=fee,
        )
        self._emit(event)
        if current:  # the totals follow the confirm without counting every slip again
            self._main_totals = (
                self.event_count,
                banker + added.get(Bet.BANKER, 0),
                punto + added.get(Bet.PLAYER, 0),
            )
        return event

    def verify_change_tie_bets(self, player: PlayerId, bets: Mapping[Bet, int]) -> None:
        """Raise unless the table's tie option [M12] lets ``player`` turn the main bets a
        tie left standing into ``bets`` (Player/Banker amounts; empty cancels)."""
        game, slip = self._verify_standing(player)
        if any(bet not in MAIN_BETS for bet in bets):
            raise BettingError("only the Player and Banker bets stand after a tie [M12]")
        new = freeze_bets(bets)
        if any(amount < 0 for amount in new.values()):
            raise AmountError("bet amounts cannot be negative")
        verify_tie_change(self.rules.tie_policy, slip.standing, new)
        old_main = sum(slip.main_confirmed.values())
        extra = sum(new.values()) - old_main
        if extra > (balance := self.money.balance(player)):
            raise TableBalanceError(
                f"raising the standing bets by {self._show(extra, player)} is more than the "
                f"balance of {self._show(balance, player)}",
                needed=extra,
                balance=balance,
            )
        full = {b: a for b, a in slip.confirmed.items() if b not in MAIN_BETS} | dict(new)
        if full:
            self._check_limits(player, full, game)

    def can_change_tie_bets(self, player: PlayerId, bets: Mapping[Bet, int]) -> bool:
        """Whether :meth:`change_tie_bets` would succeed."""
        return self._can(lambda: self.verify_change_tie_bets(player, bets))

    def can_change_standing(self, player: PlayerId) -> bool:
        """Whether ``player`` may now change the main bets a tie left standing into other
        bets of some kind the table's tie option allows [M12] — the legal action
        ``change_tie_bets`` (whether a given change may be made,
        :meth:`can_change_tie_bets` says). Once a hand: a change ends it."""
        slip = self._slips.get(player)
        if slip is None or not slip.standing:  # (most players: no exception raised)
            return False
        allowed = self.rules.tie_policy.allowed
        return any(a is not TieAction.KEEP for a in allowed) and self._can(
            lambda: self._verify_standing(player)
        )

    def _verify_standing(self, player: PlayerId) -> tuple[OpenHand, BetSlip]:
        game = self._verify_betting(player, "change standing bets")
        slip = self._slips.get(player)
        if slip is None or not slip.standing:
            raise BettingError(f"{player} has no bets standing after a tie [M12]")
        return game, slip

    def change_tie_bets(self, player: PlayerId, bets: Mapping[Bet, int]) -> TieBetsChanged:
        """Cancel, keep, raise, lower or switch the main bets standing after a tie, as the
        table's tie option allows [M12]."""
        self.verify_change_tie_bets(player, bets)
        game = self._require_game()
        slip = self._slip(player)
        new = freeze_bets(bets)
        action = tie_action(slip.standing, new)
        delta = sum(new.values()) - sum(slip.main_confirmed.values())
        slip.replace_main(new, seq=self.event_count)
        slip.standing.clear()
        # where the house stakes bets itself, the changed bets wait for its stake (every
        # bet of the player on the hand: the old stake is given back whole); else the
        # server stakes them with the change
        slip.awaiting = dict(slip.confirmed) if self.settings.standing_awaits_stake else {}
        if delta > 0:  # a raised standing bet [M12]
            self.money.stake(player, delta)
        elif delta < 0:  # a lowered or cancelled one comes back
            self.money.refund(player, -delta)
        event = TieBetsChanged(
            at=self._now(),
            game=game.number,
            player=player,
            action=action,
            bets=freeze_bets(slip.confirmed),
            debited=max(delta, 0),
            credited=max(-delta, 0),
        )
        self._emit(event)
        return event

    def verify_stake_standing(self, player: PlayerId) -> None:
        """Raise unless the main bets a tie left standing for ``player`` (or the bets they
        changed them into) wait for the house's stake on this hand
        (``TableSettings.standing_awaits_stake``) [M12]."""
        require_phase(self.phase, {Phase.BETTING_OPEN}, "stake standing bets")
        slip = self._slips.get(player)
        if slip is None or not slip.awaiting_stake:
            raise BettingError(f"{player} has no standing bets waiting for their stake [M12]")

    def can_stake_standing(self, player: PlayerId) -> bool:
        """Whether :meth:`stake_standing` would succeed."""
        return self._can(lambda: self.verify_stake_standing(player))

    def stake_standing(self, player: PlayerId) -> TieBetsChanged:
        """The house staked again the main bets a tie left standing for ``player``, or the
        bets they changed them into (the operator's debit made): they stay for this hand
        [M12]."""
        self.verify_stake_standing(player)
        game = self._require_game()
        slip = self._slip(player)
        slip.awaiting.clear()
        event = TieBetsChanged(
            at=self._now(),
            game=game.number,
            player=player,
            action=TieAction.KEEP,
            bets=freeze_bets(slip.confirmed),
            debited=0,
            credited=0,
            reason=Why(Reason.STANDING_STAKED),
        )
        self._emit(event)
        return event

    def verify_return_standing(self, player: PlayerId) -> None:
        """Raise unless the main bets a tie left standing for ``player`` may go back to
        them because the house could not stake them again: betting is open, they stand,
        or (where bets wait for the house's stake) bets of theirs still wait — the standing
        ones, or the ones they changed them into [M12]."""
        require_phase(self.phase, {Phase.BETTING_OPEN}, "return standing bets")
        slip = self._slips.get(player)
        if self.settings.standing_awaits_stake:
            if slip is None or not slip.awaiting_stake:
                raise BettingError(f"{player} has no bets waiting for the house's stake [M12]")
        elif slip is None or not slip.standing:
            raise BettingError(f"{player} has no bets standing after a tie [M12]")

    def can_return_standing(self, player: PlayerId) -> bool:
        """Whether :meth:`return_standing` would succeed."""
        return self._can(lambda: self.verify_return_standing(player))

    def return_standing(self, player: PlayerId, reason: Why) -> TieBetsChanged:
        """The main bets a tie left standing for ``player`` go back to them: the house
        could not stake them again (their wallet refused it), whatever the tie option
        lets a player do [M12]."""
        self.verify_return_standing(player)
        return self._return_standing(self._slip(player), reason)

    def verify_wait_for_me(self, player: PlayerId) -> None:
        """Raise unless ``player`` may ask for more betting time (bounded) [O]."""
        game = self._verify_betting(player, "ask to wait")
        if player in game.waited:
            raise BettingError(f"{player} already asked to wait in this round [O]")
        if len(game.waited) >= self.settings.max_waits:
            raise BettingError(
                f"the countdown was already extended {self.settings.max_waits} times [O]"
            )

    def can_wait_for_me(self, player: PlayerId) -> bool:
        """Whether :meth:`wait_for_me` would succeed."""
        return self._betting_open(player) and self._can(lambda: self.verify_wait_for_me(player))

    def wait_for_me(self, player: PlayerId) -> BettingExtended:
        """Extend the countdown by the table's wait time: "wait for me" [O]."""
        self.verify_wait_for_me(player)
        game = self._require_game()
        game.waited.add(player)
        game.closes_at += self.settings.wait_seconds
        event = BettingExtended(
            at=self._now(), game=game.number, player=player, closes_at=game.closes_at
        )
        self._emit(event)
        return event

    def verify_request_open_cards(self, player: PlayerId) -> None:
        """Raise unless ``player``, seated at a bid-squeeze table, may ask the dealer to open
        the cards now [O]: while betting is open (deal at once) or during the squeeze (turn
        the face-down cards), once at each stage."""
        if self.settings.kind is not TableKind.BID_SQUEEZE:
            raise AccessError("only a bid-squeeze table takes requests to open the cards [O]")
        require_phase(self.phase, _OPEN_CARDS_PHASES, "ask to open the cards")
        if self.phase is Phase.BETTING_OPEN:
            game = self._verify_betting(player, "ask to open the cards")
        else:
            game = self._require_game()
        if self.seats.get(player).place is not Place.SEATED:
            raise AccessError("only seated players may ask to open the cards [O]")
        if player in game.open_asked:
            error = BettingError if self.phase is Phase.BETTING_OPEN else SqueezeError
            raise error(f"{player} already asked to open the cards [O]")

    def can_request_open_cards(self, player: PlayerId) -> bool:
        """Whether :meth:`request_open_cards` would succeed (at any table but a bid-squeeze
        one, answered without building the error)."""
        return self.settings.kind is TableKind.BID_SQUEEZE and self._can(
            lambda: self.verify_request_open_cards(player)
        )

    def request_open_cards(self, player: PlayerId) -> OpenCardsRequested:
        """Ask the dealer to open the cards now [O]. The dealer opens them once every seated
        player asked: while betting, betting closes early; during the squeeze, the
        face-down cards are turned (a holder's own request counts, so a squeezer is never
        overruled by the others, who wait for the squeeze timer otherwise)."""
        self.verify_request_open_cards(player)
        game = self._require_game()
        squeeze = self.phase is Phase.SQUEEZE
        game.open_asked.add(player)
        event = OpenCardsRequested(at=self._now(), game=game.number, player=player)
        self._emit(event)
        if {p.player for p in self.seats.seated()} <= game.open_asked:
            if squeeze:
                self._reveal(
                    game,
                    self._face_down_of(game, None),
                    by=None,
                    call=None,
                    reason=Why(Reason.DEALER),
                )
            else:
                self._close_betting(by=None)
        return event

    def verify_fly(self, player: PlayerId) -> None:
        """Raise unless the VIP owner, with no bets, may fly the cards now [O]."""
        self._verify_owner(player, "fly the cards")
        self._verify_betting(player, "fly the cards")
        if self._slip_or_empty(player).confirmed_total:
            raise BettingError("the owner flies the cards only without bets [O]")

    def can_fly(self, player: PlayerId) -> bool:
        """Whether :meth:`fly` would succeed."""
        return self._betting_open(player) and self._can(lambda: self.verify_fly(player))

    def fly(self, player: PlayerId) -> BettingClosed:
        """The VIP owner has the cards dealt at once, without betting [O]."""
        self.verify_fly(player)
        return self._close_betting(by=player)


@functools.cache
@functools.cache
def _offered(paytables: tuple[Bet, ...]) -> tuple[Bet, ...]:
    """The bets of these paytables in the standard order (:attr:`Rules.offered_bets`)."""
    return tuple(bet for bet in Bet if bet in paytables)


@functools.cache
def _closed_rooms(offered: tuple[Bet, ...]) -> tuple[AreaRoom, ...]:
    """Every offered area taking nothing: betting is closed to the player."""
    return tuple(AreaRoom(bet, 0, AreaLimit.BETTING_CLOSED) for bet in offered)
