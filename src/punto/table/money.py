"""A table's money: every table balance, the stakes on the layout and the house's result.

:class:`TableMoney` is the one place a table's money moves. Each operation moves an
amount between two of its pots — a player's balance, the stakes on the layout, the
house's result — or across the table's edge (money brought in, money cashed out), so that
after every operation::

    brought_in - cashed_out == sum(balances) + staked + house_result

The table checks that an action is allowed (limits, phases, who may act) and words the
errors a player sees; :class:`TableMoney` only refuses what would break its books (a
negative amount, an overdrawn balance, an unknown player).

>>> money = TableMoney()
>>> money.bring_in("ann", 10_000)
>>> money.stake("ann", 1_000)
>>> money.settle("ann", stake=1_000, returned=2_000)  # a winning Player bet
>>> money.balance("ann"), money.staked, money.house_result
(11000, 0, -1000)
>>> money.cash_out_all("ann")
11000
>>> money.balanced
True
"""

from __future__ import annotations

from collections.abc import Mapping

from punto.errors import AmountError, TableBalanceError, TableError
from punto.table.records import PlayerId

__all__ = ["TableMoney"]


def _amount(amount: int, *, what: str) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise AmountError(f"{what} is a whole number of minor units ≥ 0: {amount!r}")
    return amount


class TableMoney:
    """Every table balance, the stakes on the layout, the house's result, and what was
    brought in and cashed out (minor units), kept so that :attr:`balanced` holds.

    ``staked`` is the money on the layout: confirmed bets of the hand in progress and
    main bets a tie left standing [M12]. The table's bet slips say whose it is;
    :meth:`~punto.table.core.TableCore.money_check` checks the two agree.
    """

    __slots__ = ("_balances", "brought_in", "cashed_out", "house_result", "staked")

    def __init__(self) -> None:
        self._balances: dict[PlayerId, int] = {}
        self.brought_in = 0
        """Money that came into the table: balances players joined with, deposits."""
        self.cashed_out = 0
        """Money that left the table: balances of players who left, withdrawals."""
        self.house_result = 0
        """The house's result over the settled hands (positive: the house won)."""
        self.staked = 0
        """Stakes on the layout (confirmed bets, standing bets [M12])."""

    def __contains__(self, player: object) -> bool:
        return player in self._balances

    def balance(self, player: PlayerId) -> int:
        """``player``'s table balance (raises :class:`~punto.errors.TableError` for a
        player without one)."""
        try:
            return self._balances[player]
        except KeyError:
            raise TableError(f"{player} has no table balance") from None

    @property
    def balances(self) -> Mapping[PlayerId, int]:
        """Every table balance (a copy)."""
        return dict(self._balances)

    @property
    def balanced(self) -> bool:
        """Whether no money was lost or created: balances + stakes + the house's result
        equal what was brought in less what was cashed out."""
        held = sum(self._balances.values()) + self.staked + self.house_result
        return held == self.brought_in - self.cashed_out

    def _debit(self, player: PlayerId, amount: int) -> None:
        if amount > self.balance(player):
            raise TableBalanceError(f"{player}'s table balance does not cover this")
        self._balances[player] -= amount

    def bring_in(self, player: PlayerId, amount: int) -> None:
        """Money comes to the table into ``player``'s balance (opened at 0 if they have
        none): a player joins with it, or a deposit moves it in."""
        _amount(amount, what="money brought in")
        self._balances[player] = self._balances.get(player, 0) + amount
        self.brought_in += amount

    def cash_out(self, player: PlayerId, amount: int) -> None:
        """``amount`` of ``player``'s balance leaves the table (a withdrawal); the
        balance stays open."""
        _amount(amount, what="money cashed out")
        self._debit(player, amount)
        self.cashed_out += amount

    def transfer(self, player: PlayerId, amount: int) -> None:
        """Money that moved in ``player``'s wallet outside the table moves into
        (positive) or out of (negative) their table balance [O]."""
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise AmountError(f"a transfer is a whole number of minor units: {amount!r}")
        if amount >= 0:
            self.balance(player)
            self.bring_in(player, amount)
        else:
            self.cash_out(player, -amount)

    def cash_out_all(self, player: PlayerId) -> int:
        """``player`` leaves: their whole balance is cashed out and the balance closed;
        returns the amount."""
        cash = self.balance(player)
        del self._balances[player]
        self.cashed_out += cash
        return cash

    def stake(self, player: PlayerId, amount: int) -> None:
        """``amount`` of ``player``'s balance goes onto the layout as bets (a confirm, a
        raised standing bet [M12])."""
        _amount(amount, what="a stake")
        self._debit(player, amount)
        self.staked += amount

    def charge_fee(self, player: PlayerId, amount: int) -> None:
        """A multiplier table's fee [LB]: ``amount`` of ``player``'s balance goes to the
        house at once, with the bets it is charged on (never onto the layout)."""
        _amount(amount, what="a fee")
        self._debit(player, amount)
        self.house_result += amount

    def refund(self, player: PlayerId, amount: int) -> None:
        """``amount`` of stakes on the layout goes back to ``player``'s balance untouched
        (a void hand, a player removed, a lowered or cancelled standing bet [M12])."""
        _amount(amount, what="a refund")
        self.balance(player)
        if amount > self.staked:
            raise TableBalanceError(f"a refund of more than the stakes on the layout to {player}")
        self.staked -= amount
        self._balances[player] += amount

    def settle(self, player: PlayerId, *, stake: int, returned: int, standing: int = 0) -> None:
        """Settle ``player``'s ``stake`` on the layout: ``returned`` (stakes plus
        winnings; 0 for lost bets) is paid, the house keeps or pays the difference, and
        ``standing`` (main bets a tie left standing [M12], part of both ``stake`` and
        ``returned``) stays on the layout."""
        _amount(stake, what="a settled stake")
        _amount(returned, what="a settled return")
        _amount(standing, what="a standing bet")
        self.balance(player)
        if standing > min(stake, returned) or stake > self.staked:
            raise TableBalanceError(f"{player}'s settlement does not match the stakes")
        self.staked -= stake - standing
        self._balances[player] += returned - standing
        self.house_result += stake - returned

    def correct(self, player: PlayerId, delta: int) -> None:
        """A re-settled hand [O] moves ``delta`` between the house and ``player``'s
        balance (positive: the house pays more; negative: the player gives back)."""
        if isinstance(delta, bool) or not isinstance(delta, int):
            raise AmountError(f"a correction is a whole number of minor units: {delta!r}")
        if delta < 0:
            self._debit(player, -delta)
        else:
            self._balances[player] = self.balance(player) + delta
        self.house_result -= delta
