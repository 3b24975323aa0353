"""The house: shoes (start, demonstration hands, burns, the cut card, changes), the
dealer, limits [S14], VIP settings [O], pause and closing the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from punto.cards import Card
from punto.errors import AccessError, PhaseError, TableError
from punto.limits import LimitTier
from punto.rules import Rules
from punto.table.core import SHOE_IN_PLAY, TableCore
from punto.table.events import (
    CardsBurned,
    CutCardOut,
    DealerChanged,
    DemoHandDealt,
    LimitsChanged,
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
            reason="mid_shoe [M8]",
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
        reason = "changed by the house [M3]" if by is None else f"changed by the owner {by} [O]"
        event = self._close_shoe(reason)
        self._enter(Phase.SHOE_END)
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

    def verify_change_rules(self, rules: Rules, *, version: int) -> TableSettings:
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

    def can_change_rules(self, rules: Rules, *, version: int) -> bool:
        """Whether :meth:`change_rules` would succeed."""
        return self._can(lambda: self.verify_change_rules(rules, version=version))

    def change_rules(self, rules: Rules, *, version: int) -> RulesChanged:
        """New rules (version ``version``) for the next shoe and on."""
        self.settings = self.verify_change_rules(rules, version=version)
        event = RulesChanged(at=self._now(), rules=rules.name, version=version)
        self._emit(event)
        return event

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

    def verify_pause(self, reason: str = "") -> None:
        """Raise unless the table may pause (between hands)."""
        require_phase(self.phase, BETWEEN_HANDS, "pause")

    def can_pause(self, reason: str = "") -> bool:
        """Whether :meth:`pause` would succeed."""
        return self._can(lambda: self.verify_pause(reason))

    def pause(self, reason: str = "") -> TablePaused:
        """Pause the table between hands."""
        self.verify_pause(reason)
        self._paused_from = self.phase
        self._enter(Phase.PAUSED)
        event = TablePaused(at=self._now(), reason=reason)
        self._emit(event)
        return event

    def verify_resume(self) -> None:
        """Raise unless the table is paused."""
        require_phase(self.phase, {Phase.PAUSED}, "resume")

    def can_resume(self) -> bool:
        """Whether :meth:`resume` would succeed."""
        return self._can(self.verify_resume)

    def resume(self) -> TableResumed:
        """Resume in the phase the table paused in."""
        self.verify_resume()
        assert self._paused_from is not None
        self._enter(self._paused_from)
        self._paused_from = None
        event = TableResumed(at=self._now())
        self._emit(event)
        return event

    def verify_close_table(self, reason: str = "") -> None:
        """Raise if the table is already closed."""
        self._require_open()

    def can_close_table(self, reason: str = "") -> bool:
        """Whether :meth:`close_table` would succeed."""
        return self._can(lambda: self.verify_close_table(reason))

    def close_table(self, reason: str = "closed by the supervisor [S14]") -> TableClosed:
        """Close the table at any moment [S14]: a hand in progress is void and refunded,
        the shoe ends, and every player leaves with their balance."""
        self.verify_close_table(reason)
        return self._close_table(reason)
