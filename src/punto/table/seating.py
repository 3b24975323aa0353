"""Players at the table: join, sit, take a VIP table, watch, stand, leave, connection.

Seats and marks follow [S13]; tiers, VIP owners and bid-squeeze seating follow [O]; a
player holding the cards may not leave [M16].
"""

from __future__ import annotations

from punto.errors import AmountError, SeatError, SqueezeError, TableBalanceError, TableError
from punto.table.core import TableCore
from punto.table.events import (
    BalanceTransferred,
    PlayerConnection,
    PlayerJoined,
    PlayerLeft,
    PlayerSat,
    PlayerStood,
    PlayerWatching,
)
from punto.table.kinds import TableKind, VipSettings
from punto.table.phases import BETWEEN_HANDS, Phase
from punto.table.purses import Purse
from punto.table.reasons import NONE, Reason, Why
from punto.table.records import PlayerId
from punto.table.seat_plan import Place
from punto.table.slip import BetSlip
from punto.tie_options import TieAction

OWNER_MAY_LEAVE = BETWEEN_HANDS | {Phase.PAUSED, Phase.BETTING_OPEN}
"""Phases in which a VIP owner may leave: between hands or while betting is open (no card
is on the layout yet). Everyone leaves with them [O]; confirmed bets come back."""

__all__ = ["Seating"]


class Seating(TableCore):
    """Player actions on seats and presence, and the release of players who have gone."""

    def verify_join(self, player: PlayerId, *, balance: int, purse: Purse | None = None) -> None:
        """Raise unless ``player`` may bring ``balance`` to the table (in ``purse``'s
        currency when given, :mod:`punto.table.purses`)."""
        self._require_open()
        if not player or not isinstance(player, str):
            raise SeatError(f"bad player id {player!r}")
        if player in self.seats.participants:
            raise SeatError(f"{player} is already at this table")
        if isinstance(balance, bool) or not isinstance(balance, int) or balance < 0:
            raise AmountError(f"a table balance is a whole number of minor units ≥ 0: {balance!r}")
        if purse is not None and purse.book and self.rules.max_imbalance is not None:
            raise SeatError(
                "this table limits the difference between its Banker and Player bets in its "
                f"own currency [M14]: it takes no bets in {purse.currency}"
            )

    def can_join(self, player: PlayerId, *, balance: int, purse: Purse | None = None) -> bool:
        """Whether :meth:`join` would succeed."""
        return self._can(lambda: self.verify_join(player, balance=balance, purse=purse))

    def join(self, player: PlayerId, *, balance: int, purse: Purse | None = None) -> PlayerJoined:
        """``player`` comes to the table with ``balance`` (minor units of ``purse``'s
        currency, default the table's); they may then sit or watch."""
        self.verify_join(player, balance=balance, purse=purse)
        self.seats.join(player)
        self.money.bring_in(player, balance)
        if purse is not None:
            self.purses[player] = purse
        currency = None if purse is None else purse.currency
        event = PlayerJoined(at=self._now(), player=player, balance=balance, currency=currency)
        self._emit(event)
        return event

    def _priced(self, player: PlayerId, tier: str) -> str:
        """``tier``, once sure that a player of another currency has its amounts in it."""
        purse = self.purses.get(player)
        if purse is not None:
            purse.tier(tier)  # raises SeatError naming the tier and the currency
        return tier

    def _tier_for(self, *, vip: bool, tier: str | None) -> str:
        settings = self.settings
        if vip:
            if tier is not None and tier != settings.vip_tier:
                raise SeatError(f"this seat plays on the {settings.vip_tier} limits [O]")
            return settings.vip_tier
        if tier is None:
            return settings.normal_tiers[0]
        self.rules.tier(tier)  # raises RulesError naming the known tiers
        if tier not in settings.normal_tiers:
            raise SeatError(f"the {tier} limits are the VIP limits of this table [O]")
        return tier

    def verify_sit(
        self,
        player: PlayerId,
        seat: int,
        *,
        tier: str | None = None,
        password: str | None = None,
    ) -> str:
        """Raise unless ``player`` may sit at ``seat``; returns the tier they would play on."""
        self._require_open()
        who = self.seats.get(player)
        if who.place is Place.SEATED:
            raise SeatError(f"{player} is already seated at seat {who.seat}: stand up first")
        self.seats.verify_seat_free(seat, player)
        kind = self.settings.kind
        if kind is TableKind.VIP:
            if self.owner is None:
                raise SeatError("an empty VIP table can only be taken by an owner [O]")
            self._verify_password(player, password)
        if kind is TableKind.BID_SQUEEZE:
            need = self.settings.vip_min_balance
            if self.money.balance(player) < need:
                raise SeatError(
                    f"sitting at this bid-squeeze table needs a balance of {self._show(need)}; "
                    "watch and bet instead [O]"
                )
        return self._priced(player, self._tier_for(vip=kind is TableKind.BID_SQUEEZE, tier=tier))

    def can_sit(
        self, player: PlayerId, seat: int, *, tier: str | None = None, password: str | None = None
    ) -> bool:
        """Whether :meth:`sit` would succeed."""
        return self._can(lambda: self.verify_sit(player, seat, tier=tier, password=password))

    def sit(
        self,
        player: PlayerId,
        seat: int,
        *,
        tier: str | None = None,
        password: str | None = None,
    ) -> PlayerSat:
        """``player`` sits at ``seat`` on a limit tier (their own marked seat included)."""
        chosen = self.verify_sit(player, seat, tier=tier, password=password)
        self.seats.sit(player, seat, tier=chosen)
        event = PlayerSat(at=self._now(), player=player, seat=seat, tier=chosen, owner=False)
        self._emit(event)
        self._follow_squeezers()  # a squeezer back before the squeeze gets the cards [O]
        return event

    def verify_take_table(self, player: PlayerId, seat: int) -> None:
        """Raise unless ``player`` may take this empty VIP table as its owner [O]."""
        self._require_open()
        if self.settings.kind is not TableKind.VIP:
            raise SeatError("only a VIP table can be taken by an owner [O]")
        if self.owner is not None:
            raise SeatError(f"this VIP table already has an owner ({self.owner}) [O]")
        if self.seats.seated():
            raise SeatError("only an empty VIP table can be taken [O]")
        who = self.seats.get(player)
        if who.place is not Place.LOBBY:
            raise SeatError(f"{player} is {who.place.value}: take the table from the lobby")
        self.seats.verify_seat_free(seat, player)
        self._priced(player, self.settings.vip_tier)

    def can_take_table(self, player: PlayerId, seat: int) -> bool:
        """Whether :meth:`take_table` would succeed."""
        return self._can(lambda: self.verify_take_table(player, seat))

    def take_table(self, player: PlayerId, seat: int) -> PlayerSat:
        """``player`` takes the VIP table: sits as its owner on the VIP limits [O]."""
        self.verify_take_table(player, seat)
        tier = self.settings.vip_tier
        self.seats.sit(player, seat, tier=tier)
        self.owner = player
        self.vip = VipSettings()
        event = PlayerSat(at=self._now(), player=player, seat=seat, tier=tier, owner=True)
        self._emit(event)
        return event

    def verify_watch(
        self, player: PlayerId, *, tier: str | None = None, password: str | None = None
    ) -> str:
        """Raise unless ``player`` may watch (and bet) from the lobby; returns the tier."""
        self._require_open()
        who = self.seats.get(player)
        if who.place is not Place.LOBBY:
            raise SeatError(f"{player} is already {who.place.value}")
        kind = self.settings.kind
        if kind is TableKind.VIP:
            if self.owner is None:
                raise SeatError("an empty VIP table can only be taken by an owner [O]")
            self._verify_password(player, password)
        if kind is TableKind.BID_SQUEEZE and not self.seats.seated():
            raise SeatError("an empty bid-squeeze table can only be sat at [O]")
        return self._priced(player, self._tier_for(vip=False, tier=tier))

    def can_watch(
        self, player: PlayerId, *, tier: str | None = None, password: str | None = None
    ) -> bool:
        """Whether :meth:`watch` would succeed."""
        return self._can(lambda: self.verify_watch(player, tier=tier, password=password))

    def watch(
        self, player: PlayerId, *, tier: str | None = None, password: str | None = None
    ) -> PlayerWatching:
        """``player`` watches the table and may bet from the watchers' area or a free
        spot [M15], on a normal limit tier."""
        chosen = self.verify_watch(player, tier=tier, password=password)
        self.seats.watch(player, tier=chosen)
        event = PlayerWatching(at=self._now(), player=player, tier=chosen)
        self._emit(event)
        return event

    def verify_stand(self, player: PlayerId, *, mark: bool = False) -> None:
        """Raise unless ``player`` may leave their seat."""
        self._require_open()
        who = self.seats.get(player)
        if who.place is not Place.SEATED:
            raise SeatError(f"{player} is not seated")
        if player == self.owner:
            raise SeatError("the VIP owner keeps the seat: leave the table instead [O]")
        if self._holds_cards(player) and not self._may_hand_over(player):
            raise SqueezeError(f"{player} holds the cards and may not leave the table [M16]")

    def can_stand(self, player: PlayerId, *, mark: bool = False) -> bool:
        """Whether :meth:`stand` would succeed (someone not seated, as most players at a
        busy table are, is answered without building the error)."""
        who = self.seats.participants.get(player)
        return (
            who is not None
            and who.place is Place.SEATED
            and self._can(lambda: self.verify_stand(player, mark=mark))
        )

    def stand(self, player: PlayerId, *, mark: bool = False) -> PlayerStood:
        """``player`` stands up and watches; ``mark`` keeps the seat for their return
        [S13]. Their confirmed bets stay on the hand."""
        self.verify_stand(player, mark=mark)
        tier = self._tier_for(vip=False, tier=None)
        who = self.seats.get(player)
        seat = self.seats.stand(player, mark=mark)
        if self.settings.kind is TableKind.BID_SQUEEZE:
            who.tier = tier  # watchers play on the normal limits [O]
        event = PlayerStood(at=self._now(), player=player, seat=seat, marked=mark)
        self._emit(event)
        self._follow_squeezers()  # the next seated bettor takes the cards over [O]
        self._check_bid_watchers()
        return event

    def verify_leave(self, player: PlayerId) -> None:
        """Raise unless ``player`` may leave the table now."""
        self._require_open()
        self.seats.get(player)
        if self._holds_cards(player):
            raise SqueezeError(f"{player} holds the cards and may not leave the table [M16]")
        if self._bets_keep(player):
            raise TableError(
                f"{player} has bets on this hand: leave once it is settled (or, after a tie, "
                "take the standing bets back if the table allows) [M12]"
            )
        if player == self.owner and self.phase not in OWNER_MAY_LEAVE:
            raise TableError("the VIP owner may leave between hands or while betting is open [O]")

    def _bets_keep(self, player: PlayerId) -> bool:
        """Whether ``player``'s confirmed bets keep them at the table until the hand is
        settled [M12] (bets a tie left standing do not, where they may be taken back)."""
        slip = self._slips.get(player)
        return (
            slip is not None and bool(slip.confirmed_total) and not self._takes_standing_back(slip)
        )

    def _takes_standing_back(self, slip: BetSlip) -> bool:
        """[M12] Leaving takes back main bets a tie left standing: when they are all the
        player has on the layout, the table's tie policy lets them be cancelled, and no
        card of the next hand is out."""
        return (
            slip.confirmed == slip.standing
            and TieAction.CANCEL in self.rules.tie_policy.allowed
            and self.phase in BETWEEN_HANDS | {Phase.BETTING_OPEN, Phase.PAUSED}
        )

    def can_leave(self, player: PlayerId) -> bool:
        """Whether :meth:`leave` would succeed (a player whose bets keep them, as every
        bettor during a hand, is answered without building the error)."""
        return not self._bets_keep(player) and self._can(lambda: self.verify_leave(player))

    def leave(self, player: PlayerId) -> PlayerLeft:
        """``player`` leaves with their whole table balance (main bets a tie left standing
        come back first where the table lets them be cancelled [M12]). When the VIP owner
        leaves, everyone leaves [O]."""
        self.verify_leave(player)
        return self._leave_now(player, reason=Why(Reason.LEFT))

    def _leave_now(self, player: PlayerId, *, reason: Why) -> PlayerLeft:
        event = self._remove(player, reason=reason)
        if player == self.owner:
            self.owner = None
            self.vip = VipSettings()
            self._everyone_leaves(Why(Reason.OWNER_LEFT))
        else:
            self._check_bid_watchers()
        self._apply_pending()  # a limit change waiting for this player's tier [S14]
        return event

    def _check_bid_watchers(self) -> None:
        """[O] A bid-squeeze watcher is removed when no seated player is left: at once
        without a bet, after the settlement of the hand they bet on otherwise."""
        if self.settings.kind is not TableKind.BID_SQUEEZE or self.seats.seated():
            return
        for who in self.seats.watchers():
            slip = self._slips.get(who.player)
            if slip is not None and slip.confirmed_total:
                self._remove_after_hand.add(who.player)
            else:
                self._remove(who.player, reason=Why(Reason.NO_SEATED_PLAYER))

    def verify_transfer(self, player: PlayerId, amount: int, *, reason: Why = NONE) -> None:
        """Raise unless ``amount`` (minor units, not 0) may move into (positive) or out of
        (negative) ``player``'s table balance: money that moved in their wallet outside
        the table."""
        self._require_open()
        self.seats.get(player)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
            raise AmountError(f"a transfer is a non-zero whole number of minor units: {amount!r}")
        if -amount > self.money.balance(player):
            raise TableBalanceError(
                f"{self._show(-amount)} cannot leave a table balance of "
                f"{self._show(self.money.balance(player))}"
            )

    def can_transfer(self, player: PlayerId, amount: int, *, reason: Why = NONE) -> bool:
        """Whether :meth:`transfer` would succeed."""
        return self._can(lambda: self.verify_transfer(player, amount, reason=reason))

    def transfer(self, player: PlayerId, amount: int, *, reason: Why) -> BalanceTransferred:
        """Move ``amount`` into (positive) or out of (negative) ``player``'s table balance,
        as it moved in their wallet (a deposit; a supervisor's void or correction of a hand
        the table no longer holds), so the table balance keeps mirroring the wallet."""
        self.verify_transfer(player, amount, reason=reason)
        self.money.transfer(player, amount)
        event = BalanceTransferred(at=self._now(), player=player, amount=amount, reason=reason)
        self._emit(event)
        return event

    def verify_disconnect(self, player: PlayerId) -> None:
        """Raise unless ``player`` is connected."""
        if not self.seats.get(player).connected:
            raise SeatError(f"{player} is already disconnected")

    def can_disconnect(self, player: PlayerId) -> bool:
        """Whether :meth:`disconnect` would succeed."""
        return self._can(lambda: self.verify_disconnect(player))

    def disconnect(self, player: PlayerId) -> PlayerConnection:
        """``player`` lost their connection: their bets stand and no result changes [L];
        a squeeze right passes to the next seated bettor until the squeeze begins [O]."""
        self.verify_disconnect(player)
        who = self.seats.get(player)
        who.connected, who.gone_at = False, self._now()
        event = PlayerConnection(at=self._now(), player=player, connected=False)
        self._emit(event)
        self._follow_squeezers()
        return event

    def verify_reconnect(self, player: PlayerId) -> None:
        """Raise unless ``player`` is disconnected."""
        if self.seats.get(player).connected:
            raise SeatError(f"{player} is connected")

    def can_reconnect(self, player: PlayerId) -> bool:
        """Whether :meth:`reconnect` would succeed."""
        return self._can(lambda: self.verify_reconnect(player))

    def reconnect(self, player: PlayerId) -> PlayerConnection:
        """``player`` is back; a bid-squeeze squeezer back before the squeeze gets the
        cards back [O]."""
        self.verify_reconnect(player)
        who = self.seats.get(player)
        who.connected, who.gone_at = True, None  # back within the grace: nothing was lost
        event = PlayerConnection(at=self._now(), player=player, connected=True)
        self._emit(event)
        self._follow_squeezers()
        return event

    # -- players who have gone ------------------------------------------------------

    def verify_release(self, player: PlayerId, *, grace: float) -> None:
        """Raise unless ``player``, whose connection went ``grace`` seconds ago or more,
        may be taken off the table now: not while they hold the cards [M16], not while
        bets of theirs are in play (they settle first, then the player goes), and a VIP
        owner between hands or while betting is open [O]. A released player loses their
        seat and any mark, as one who leaves without marking it [S13]; the grace is their
        time to come back."""
        self._require_open()
        who = self.seats.get(player)
        if who.connected or who.gone_at is None:
            raise SeatError(f"{player} is connected: only a player who has gone is released")
        wait = who.gone_at + grace - self._now()
        if wait > 0:
            raise SeatError(f"{player} keeps their place {wait:.0f} s more to come back [S13]")
        if self._holds_cards(player):
            raise SqueezeError(f"{player} holds the cards and may not leave the table [M16]")
        slip = self._slips.get(player)
        if self._game is not None and slip is not None and slip.confirmed_total:
            raise TableError(f"{player} has bets in play: they leave once the hand is settled")
        if player == self.owner and self.phase not in OWNER_MAY_LEAVE:
            raise TableError("the VIP owner may leave between hands or while betting is open [O]")

    def can_release(self, player: PlayerId, *, grace: float) -> bool:
        """Whether :meth:`release` would succeed."""
        return self._can(lambda: self.verify_release(player, grace=grace))

    def release(self, player: PlayerId, *, grace: float) -> PlayerLeft:
        """``player`` has gone (no connection for ``grace`` seconds): they leave the table
        with their balance (main bets a tie left standing come back first [M12]); the
        reason is ``gone``. A VIP owner's going makes everyone leave [O]."""
        self.verify_release(player, grace=grace)
        return self._leave_now(player, reason=Why(Reason.GONE))

    def release_due(self, *, grace: float) -> tuple[PlayerLeft, ...]:
        """Release every player whose grace is over and who may go now (see
        :meth:`release`); the others are tried again later. Only players who have gone
        are tried (the server asks after every command: at a table of thousands, each
        connected player's refusal cost more than the rest of a confirm's checks)."""
        if self.phase is Phase.CLOSED:
            return ()
        released: list[PlayerLeft] = []
        for player in sorted(self._gone()):
            if player in self.seats.participants and self.can_release(player, grace=grace):
                released.append(self.release(player, grace=grace))
        return tuple(released)

    def next_release_at(self, *, grace: float) -> float | None:
        """When the first grace of a gone player ends (table clock; ``None``: nobody has
        gone). A player whose bets are still in play is due again after the hand."""
        return min((at + grace for at in self._gone().values()), default=None)

    def _gone(self) -> dict[PlayerId, float]:
        """The participants who have gone, with when their connection went (their grace
        runs, or has ended): the only players a release may take."""
        return {
            player: who.gone_at
            for player, who in self.seats.participants.items()
            if not who.connected and who.gone_at is not None
        }
