"""The house: shoes (start, demonstration hands, burns, the cut card, changes), the
dealer, limits, betting time and rules [S14], VIP settings [O], pause and closing the
table.

A change asked for during a hand (a pause, new limits, a new betting time) waits for the
hand to end, settled or void; new rules wait for the shoe to end. The table records what
waits (:class:`~punto.table.events.PauseRequested`,
:class:`~punto.table.events.ChangePending`) and makes the change itself then, with the
change's usual event [S14].
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from punto.cards import Card
from punto.errors import AccessError, PhaseError, TableError
from punto.limits import LimitTier
from punto.rules import Rules
from punto.table.core import SHOE_IN_PLAY, TableCore
from punto.table.events import (
    BettingTimeChanged,
    CardsBurned,
    ChangePending,
    CutCardOut,
    DealerChanged,
    DemoHandDealt,
    LimitsChanged,
    PauseCalledOff,
    PauseRequested,
    PendingChange,
    RulesChanged,
    ShoeClosed,
    ShoeOpened,
    TableClosed,
    TablePaused,
    TableResumed,
    VipSettingsChanged,
)
from punto.table.kinds import Dealing, TableSettings, VipSettings, password_digest
from punto.table.phases import BETWEEN_HANDS, IN_HAND, Phase, require_phase
from punto.table.reasons import CLOSED_BY_SUPERVISOR, Reason, Why, as_why
from punto.table.records import PlayerId
from punto.table.shoes import LiveShoe, RngShoe

__all__ = ["House"]


class House(TableCore):
    """Dealer, supervisor and VIP-owner actions between hands."""

    def verify_start_shoe(self, *, burned: Sequence[Card] = ()) -> None:
        """Raise unless a new shoe may be put in play."""
        require_phase(self.phase, {Phase.WAITING, Phase.SHOE_END}, "start a shoe")
        # Checked without building a shoe: an RNG shoe would draw on the random source.
        if self.settings.dealing is Dealing.RNG:
            RngShoe.verify_start(burned)
        else:
            LiveShoe(self.rules).verify_start(burned)

    def can_start_shoe(self, *, burned: Sequence[Card] = ()) -> bool:
        """Whether :meth:`start_shoe` would succeed."""
        return self._can(lambda: self.verify_start_shoe(burned=burned))

    def start_shoe(self, *, burned: Sequence[Card] = ()) -> ShoeOpened:
        """Shuffle, cut and burn a new shoe [M2] (a live dealer gives the scanned burn
        cards, if scanned)."""
        self.verify_start_shoe(burned=burned)
        event = self._open_shoe(burned)
        self._enter(Phase.SHOE_START)
        return event

    def verify_deal_demo_hand(self, *, cards: Sequence[Card] = ()) -> None:
        """Raise unless a demonstration hand may be dealt now [M2]."""
        require_phase(self.phase, {Phase.SHOE_START}, "deal a demonstration hand")
        self._require_shoe().verify_demo(cards)

    def can_deal_demo_hand(self, *, cards: Sequence[Card] = ()) -> bool:
        """Whether :meth:`deal_demo_hand` would succeed."""
        return self._can(lambda: self.verify_deal_demo_hand(cards=cards))

    def can_deal_demo_next(self) -> bool:
        """Whether a demonstration hand may be dealt now, whatever its cards (a live
        dealer scans them) [M2]."""

        def verify() -> None:
            require_phase(self.phase, {Phase.SHOE_START}, "deal a demonstration hand")
            self._require_shoe().verify_demo_turn()

        return self._can(verify)

    def deal_demo_hand(self, *, cards: Sequence[Card] = ()) -> DemoHandDealt:
        """Deal a demonstration hand, with no bets, before the first hand [M2]."""
        self.verify_deal_demo_hand(cards=cards)
        shoe = self._require_shoe()
        outcome = shoe.demo(cards)
        event = DemoHandDealt(
            at=self._now(), shoe=self.shoe_number, number=shoe.demo_hands_dealt, outcome=outcome
        )
        self._emit(event)
        return event

    def verify_burn(self, count: int = 1, *, cards: Sequence[Card] = ()) -> None:
        """Raise unless ``count`` cards may be burned before the next hand [M8], [L]."""
        require_phase(self.phase, SHOE_IN_PLAY, "burn cards")
        self._require_shoe().verify_burn(count, cards)

    def can_burn(self, count: int = 1, *, cards: Sequence[Card] = ()) -> bool:
        """Whether :meth:`burn` would succeed."""
        return self._can(lambda: self.verify_burn(count, cards=cards))

    def burn(self, count: int = 1, *, cards: Sequence[Card] = ()) -> CardsBurned:
        """Burn cards before a hand [M8] (refused where the rules burn nothing [L])."""
        self.verify_burn(count, cards=cards)
        burned = self._require_shoe().burn(count, cards)
        event = CardsBurned(
            at=self._now(),
            shoe=self.shoe_number,
            count=count,
            cards=burned or None,
            reason=Why(Reason.BURN_MID_SHOE),
        )
        self._emit(event)
        return event

    def verify_cut_card_out(self) -> None:
        """Raise unless a live dealer may report the cut card now."""
        if self.settings.dealing is not Dealing.LIVE:
            raise TableError("an RNG shoe sees its own cut card")
        require_phase(
            self.phase, SHOE_IN_PLAY | {Phase.BETTING_OPEN} | IN_HAND, "report the cut card"
        )
        shoe = self._require_shoe()
        assert isinstance(shoe, LiveShoe)
        shoe.verify_cut_card_out()

    def can_cut_card_out(self) -> bool:
        """Whether :meth:`cut_card_out` would succeed."""
        return self._can(self.verify_cut_card_out)

    def cut_card_out(self) -> CutCardOut:
        """A live dealer saw the cut card: the last hand is announced by the rules [M3],
        [S5] (during a hand when cards are being dealt, else between hands)."""
        self.verify_cut_card_out()
        shoe = self._require_shoe()
        assert isinstance(shoe, LiveShoe)
        in_hand = self.phase in (Phase.DEALING, Phase.SQUEEZE, Phase.RESULT)
        notice = shoe.cut_card_out(in_hand=in_hand)
        return self._emit_cut(notice)

    def _verify_shoe_change(self, by: PlayerId | None) -> None:
        require_phase(self.phase, SHOE_IN_PLAY, "change the shoe")
        shoe = self._require_shoe()
        if by is not None:
            self._verify_owner(by, "change the shoe")
            need = self.settings.owner_shoe_change_after
            if shoe.hands_dealt < need:
                raise AccessError(
                    f"the owner may change the shoe once it has dealt {need} hands; it has "
                    f"dealt {shoe.hands_dealt} [O]"
                )

    def verify_change_shoe(self, *, by: PlayerId | None = None) -> None:
        """Raise unless the house (``by=None``) or the VIP owner may change the shoe now."""
        self._verify_shoe_change(by)

    def can_change_shoe(self, *, by: PlayerId | None = None) -> bool:
        """Whether :meth:`change_shoe` would succeed."""
        return self._can(lambda: self.verify_change_shoe(by=by))

    def change_shoe(self, *, by: PlayerId | None = None) -> ShoeClosed:
        """End the shoe between hands: the house may after any hand [M3]; a VIP owner
        once the shoe has dealt 30 hands [O]. Start the next with :meth:`start_shoe`."""
        self.verify_change_shoe(by=by)
        reason = (  # [M3] by the house, [O] by a VIP owner
            Why(Reason.CHANGED_BY_HOUSE) if by is None else Why(Reason.CHANGED_BY_OWNER, {"by": by})
        )
        event = self._close_shoe(reason)
        self._enter(Phase.SHOE_END)
        self._apply_pending()  # rules waiting for the shoe to end [S14]
        return event

    def verify_change_dealer(self, dealer: str, *, by: PlayerId | None = None) -> None:
        """Raise unless the dealer may change now (between hands; the VIP owner may ask)."""
        require_phase(self.phase, BETWEEN_HANDS | {Phase.PAUSED}, "change the dealer")
        if not dealer.strip():
            raise TableError("a dealer needs a name (complaints quote it [L])")
        if by is not None:
            self._verify_owner(by, "change the dealer")

    def can_change_dealer(self, dealer: str, *, by: PlayerId | None = None) -> bool:
        """Whether :meth:`change_dealer` would succeed."""
        return self._can(lambda: self.verify_change_dealer(dealer, by=by))

    def change_dealer(self, dealer: str, *, by: PlayerId | None = None) -> DealerChanged:
        """A new dealer takes the table (the house, or the VIP owner [O])."""
        self.verify_change_dealer(dealer, by=by)
        self.dealer = dealer
        event = DealerChanged(at=self._now(), dealer=dealer, by=by)
        self._emit(event)
        return event

    def verify_set_limit_tiers(self, tiers: Sequence[LimitTier]) -> TableSettings:
        """Raise unless the supervisor may put these limit tiers in force now [S14]; every
        player's tier must still exist."""
        require_phase(self.phase, BETWEEN_HANDS | {Phase.PAUSED}, "change the limits")
        settings = self.settings.replace(rules=self.rules.replace(limit_tiers=tuple(tiers)))
        names = {t.name for t in tiers}
        for who in self.seats.participants.values():
            if who.tier is not None and who.tier not in names:
                raise TableError(f"{who.player} plays on the {who.tier} limits, which would go")
        return settings

    def can_set_limit_tiers(self, tiers: Sequence[LimitTier]) -> bool:
        """Whether :meth:`set_limit_tiers` would succeed."""
        return self._can(lambda: self.verify_set_limit_tiers(tiers))

    def set_limit_tiers(self, tiers: Sequence[LimitTier]) -> LimitsChanged:
        """The supervisor raises or lowers the table limits within the shoe [S14]."""
        self.settings = self.verify_set_limit_tiers(tiers)
        event = LimitsChanged(at=self._now(), tiers=tuple(tiers))
        self._emit(event)
        return event

    def _verify_rules_now(self, rules: Rules, *, version: int) -> TableSettings:
        """Raise unless new rules may take effect now: only with no shoe in play (before
        the first shoe or after the last one), and every seated player's limit tier must
        still exist."""
        require_phase(self.phase, {Phase.WAITING, Phase.SHOE_END}, "change the rules")
        settings = self.settings.replace(rules=rules, rules_version=version)
        names = {t.name for t in rules.limit_tiers}
        for who in self.seats.participants.values():
            if who.tier is not None and who.tier not in names:
                raise TableError(f"{who.player} plays on the {who.tier} limits, which would go")
        return settings

    def _put_rules(self, rules: Rules, version: int) -> RulesChanged:
        """Put new rules in force (checked); they replace any limit change waiting."""
        self.settings = self._verify_rules_now(rules, version=version)
        self._pending = dataclasses.replace(self._pending, rules=None, limits=None)
        event = RulesChanged(at=self._now(), rules=rules.name, version=version)
        self._emit(event)
        return event

    def verify_change_rules(self, rules: Rules, *, version: int) -> None:
        """Raise unless new rules may be asked for (the table is open)."""
        self._require_open()

    def can_change_rules(self, rules: Rules, *, version: int) -> bool:
        """Whether :meth:`change_rules` would succeed."""
        return self._can(lambda: self.verify_change_rules(rules, version=version))

    def change_rules(self, rules: Rules, *, version: int) -> RulesChanged | ChangePending:
        """New rules (version ``version``) for the next shoe and on: at once with no shoe
        in play, else when the shoe ends (:class:`ChangePending` now, :class:`RulesChanged`
        then). They replace any limit change waiting [S14]."""
        self.verify_change_rules(rules, version=version)
        if self._can(lambda: self._verify_rules_now(rules, version=version)):
            return self._put_rules(rules, version)
        self._pending = dataclasses.replace(self._pending, rules=(rules, version))
        event = ChangePending(
            at=self._now(), change=PendingChange.RULES, rules=rules.name, version=version
        )
        self._emit(event)
        return event

    def verify_change_limits(self, tiers: Sequence[LimitTier]) -> None:
        """Raise unless new limit tiers may be asked for (the table is open, with at least
        one tier)."""
        self._require_open()
        if not tiers:
            raise TableError("a table needs at least one limit tier")

    def can_change_limits(self, tiers: Sequence[LimitTier]) -> bool:
        """Whether :meth:`change_limits` would succeed."""
        return self._can(lambda: self.verify_change_limits(tiers))

    def change_limits(self, tiers: Sequence[LimitTier]) -> LimitsChanged | ChangePending:
        """The supervisor's new limit tiers [S14]: at once between hands (or paused),
        else when the hand ends (:class:`ChangePending` now, :class:`LimitsChanged` then);
        while a seated player's tier would go, they wait too."""
        self.verify_change_limits(tiers)
        if self.can_set_limit_tiers(tiers):
            self._pending = dataclasses.replace(self._pending, limits=None)
            return self.set_limit_tiers(tiers)
        self._pending = dataclasses.replace(self._pending, limits=tuple(tiers))
        event = ChangePending(at=self._now(), change=PendingChange.LIMITS, tiers=tuple(tiers))
        self._emit(event)
        return event

    def verify_change_betting_time(self, seconds: float) -> None:
        """Raise unless the betting countdown may be set to ``seconds`` (more than none)."""
        self._require_open()
        if not seconds > 0:
            raise TableError("the betting countdown needs some seconds")

    def can_change_betting_time(self, seconds: float) -> bool:
        """Whether :meth:`change_betting_time` would succeed."""
        return self._can(lambda: self.verify_change_betting_time(seconds))

    def change_betting_time(self, seconds: float) -> BettingTimeChanged | ChangePending:
        """A new betting countdown [S14]: at once between hands (or paused), else when
        the hand ends (:class:`ChangePending` now, :class:`BettingTimeChanged` then)."""
        self.verify_change_betting_time(seconds)
        if self.phase in BETWEEN_HANDS | {Phase.PAUSED}:
            return self._put_betting_time(seconds)
        self._pending = dataclasses.replace(self._pending, betting_seconds=seconds)
        event = ChangePending(at=self._now(), change=PendingChange.BETTING_TIME, seconds=seconds)
        self._emit(event)
        return event

    def _put_betting_time(self, seconds: float) -> BettingTimeChanged:
        self.settings = self.settings.replace(betting_seconds=seconds)
        self._pending = dataclasses.replace(self._pending, betting_seconds=None)
        event = BettingTimeChanged(at=self._now(), seconds=seconds)
        self._emit(event)
        return event

    def _apply_pending(self) -> None:
        """Make the changes that waited, as far as they can be made now [S14]: limits,
        betting time, rules (which replace a limit change), then the pause."""
        pending = self._pending
        if not pending.any or self.phase not in BETWEEN_HANDS | {Phase.PAUSED}:
            return
        if pending.limits is not None and self.can_set_limit_tiers(pending.limits):
            self._pending = dataclasses.replace(self._pending, limits=None)
            self.set_limit_tiers(pending.limits)
        if pending.betting_seconds is not None:
            self._put_betting_time(pending.betting_seconds)
        if pending.rules is not None:
            rules, version = pending.rules
            if self._can(lambda: self._verify_rules_now(rules, version=version)):
                self._put_rules(rules, version)
        if pending.pause is not None and self.can_pause(pending.pause):
            self.pause(pending.pause)

    def verify_set_vip_settings(
        self,
        player: PlayerId,
        *,
        squeeze: bool | None = None,
        vertical_squeeze: bool | None = None,
        password: str | None = None,
        clear_password: bool = False,
    ) -> None:
        """Raise unless the VIP owner may change the table settings now [O]."""
        self._verify_owner(player, "change the table settings")
        if self.phase in IN_HAND:
            raise PhaseError("table settings change between hands, not during one")
        if password is not None and (clear_password or not password):
            raise AccessError("give a non-empty password, or clear it, not both")

    def can_set_vip_settings(
        self,
        player: PlayerId,
        *,
        squeeze: bool | None = None,
        vertical_squeeze: bool | None = None,
        password: str | None = None,
        clear_password: bool = False,
    ) -> bool:
        """Whether :meth:`set_vip_settings` would succeed."""
        return self._can(
            lambda: self.verify_set_vip_settings(
                player,
                squeeze=squeeze,
                vertical_squeeze=vertical_squeeze,
                password=password,
                clear_password=clear_password,
            )
        )

    def set_vip_settings(
        self,
        player: PlayerId,
        *,
        squeeze: bool | None = None,
        vertical_squeeze: bool | None = None,
        password: str | None = None,
        clear_password: bool = False,
    ) -> VipSettingsChanged:
        """The VIP owner sets squeeze on/off, vertical squeeze and a password [O]."""
        self.verify_set_vip_settings(
            player,
            squeeze=squeeze,
            vertical_squeeze=vertical_squeeze,
            password=password,
            clear_password=clear_password,
        )
        digest = self.vip.password_digest
        if clear_password:
            digest = None
        elif password is not None:
            digest = password_digest(self.settings.table_id, password)
        self.vip = VipSettings(
            squeeze=self.vip.squeeze if squeeze is None else squeeze,
            vertical_squeeze=(
                self.vip.vertical_squeeze if vertical_squeeze is None else vertical_squeeze
            ),
            password_digest=digest,
        )
        event = VipSettingsChanged(
            at=self._now(),
            by=player,
            squeeze=self.vip.squeeze,
            vertical_squeeze=self.vip.vertical_squeeze,
            password_set=digest is not None,
            password_digest=digest,
        )
        self._emit(event)
        return event

    def verify_pause(self, reason: Why | str = "") -> None:
        """Raise unless the table may pause now (between hands)."""
        require_phase(self.phase, BETWEEN_HANDS, "pause")

    def can_pause(self, reason: Why | str = "") -> bool:
        """Whether :meth:`pause` would succeed."""
        return self._can(lambda: self.verify_pause(reason))

    def pause(self, reason: Why | str = "") -> TablePaused:
        """Pause the table between hands (a text ``reason`` is the words a person typed)."""
        self.verify_pause(reason)
        self._paused_from = self.phase
        self._pending = dataclasses.replace(self._pending, pause=None)
        self._enter(Phase.PAUSED)
        event = TablePaused(at=self._now(), reason=as_why(reason))
        self._emit(event)
        return event

    def verify_request_pause(self, reason: Why | str = "") -> None:
        """Raise unless a pause may be asked for: the table is open and not paused."""
        self._require_open()
        if self.phase is Phase.PAUSED:
            raise PhaseError("the table is paused already")

    def can_request_pause(self, reason: Why | str = "") -> bool:
        """Whether :meth:`request_pause` would succeed."""
        return self._can(lambda: self.verify_request_pause(reason))

    def request_pause(self, reason: Why | str = "") -> TablePaused | PauseRequested:
        """Pause at once between hands; during a hand, when it ends, settled or void
        [S14] (:class:`PauseRequested` now, :class:`TablePaused` then)."""
        self.verify_request_pause(reason)
        if self.can_pause(reason):
            return self.pause(reason)
        why = as_why(reason)
        self._pending = dataclasses.replace(self._pending, pause=why)
        event = PauseRequested(at=self._now(), reason=why)
        self._emit(event)
        return event

    def verify_resume(self) -> None:
        """Raise unless the table is paused, or a pause is asked for."""
        if self._pending.pause is None:
            require_phase(self.phase, {Phase.PAUSED}, "resume")

    def can_resume(self) -> bool:
        """Whether :meth:`resume` would succeed."""
        return self._can(self.verify_resume)

    def resume(self) -> TableResumed | PauseCalledOff:
        """Resume in the phase the table paused in (rules waiting for a shoe that ended
        take effect); a pause only asked for is called off [S14]."""
        self.verify_resume()
        if self._pending.pause is not None:
            self._pending = dataclasses.replace(self._pending, pause=None)
            called_off = PauseCalledOff(at=self._now())
            self._emit(called_off)
            return called_off
        assert self._paused_from is not None
        self._enter(self._paused_from)
        self._paused_from = None
        event = TableResumed(at=self._now())
        self._emit(event)
        self._apply_pending()
        return event

    def verify_close_table(self, reason: Why | str = "") -> None:
        """Raise if the table is already closed."""
        self._require_open()

    def can_close_table(self, reason: Why | str = "") -> bool:
        """Whether :meth:`close_table` would succeed."""
        return self._can(lambda: self.verify_close_table(reason))

    def close_table(self, reason: Why | str = CLOSED_BY_SUPERVISOR) -> TableClosed:
        """Close the table at any moment [S14]: a hand in progress is void and refunded,
        the shoe ends, and every player leaves with their balance (a text ``reason`` is
        the words a person typed)."""
        self.verify_close_table(reason)
        return self._close_table(as_why(reason))
