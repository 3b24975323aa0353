"""The conformance kit: Punto's wallet contract run against a live operator wallet with a
test player, case by case (``punto operators check``; ``docs/operators.md``).

Each case makes real calls through the dialect's adapter and checks the answers *and* the
balance: a bet, a win, a replayed bet and win (nothing moves twice), a rollback of a bet the
operator has (refunded once) and of one it never saw (recorded, that bet refused later), a
bet the balance cannot cover, a call unsigned or signed with another key, a call in another
currency, and every call answered in time (one that is not is reported, never waited for).
The test player's balance ends where it began when every case passes.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from punto.currencies import minor_units
from punto.errors import InsufficientFundsError, PuntoError
from punto.ledger.wallet import Wallet

__all__ = ["CASES", "Case", "Kit", "Report", "run_kit"]

T = TypeVar("T")

CASES = (
    "balance",
    "bet",
    "replayed bet",
    "win",
    "replayed win",
    "rollback of a bet it has",
    "rollback of a bet it never saw",
    "insufficient funds",
    "bad signature refused",
    "currency mismatch refused",
    "timeouts",
)
"""The cases, in the order they run."""


@dataclass(frozen=True, slots=True)
class Case:
    """One case's outcome: ``ok``, and what was seen (``detail``)."""

    name: str
    ok: bool
    detail: str

    def to_json(self) -> dict[str, object]:
        """The case as ``--json`` prints it."""
        return {"name": self.name, "ok": self.ok, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Report:
    """Every case run."""

    cases: tuple[Case, ...]

    @property
    def ok(self) -> bool:
        """Every case passed."""
        return all(case.ok for case in self.cases)

    def failed(self) -> list[str]:
        """The names of the cases that failed."""
        return [case.name for case in self.cases if not case.ok]


class _FailedError(Exception):
    """A case's check did not hold."""


class _TimedOutError(Exception):
    """A call did not answer within the kit's timeout."""


@dataclass
class Kit:
    """What the cases need: the wallet (``wallet``), one signed wrongly and one unsigned
    (``forged``, ``unsigned``; ``None``: the dialect cannot leave it out), the test player,
    its currency and another one, the amount each call moves and the per-call timeout."""

    wallet: Wallet
    forged: Wallet
    unsigned: Wallet | None
    player: str
    currency: str
    amount: int
    timeout: float
    other_currency: str = ""
    run: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    slow: list[str] = field(default_factory=list)
    """The calls that did not answer in time."""
    _n: int = 0

    def tid(self, what: str) -> str:
        """A fresh transaction id of this run."""
        self._n += 1
        return f"kit-{self.run}-{self._n}-{what}"

    async def call(self, what: str, made: Awaitable[T]) -> T:
        """``made``, given at most :attr:`timeout` seconds."""
        started = time.monotonic()
        try:
            return await asyncio.wait_for(made, self.timeout)
        except TimeoutError:
            self.slow.append(f"{what} ({time.monotonic() - started:.1f} s)")
            raise _TimedOutError(f"{what}: no answer within {self.timeout:g} s") from None

    async def balance(self) -> int:
        """The test player's balance now."""
        return await self.call("balance", self.wallet.balance(self.player, currency=self.currency))

    async def unchanged(self, before: int, what: str) -> None:
        """Fail unless the balance is still ``before``."""
        now = await self.balance()
        if now != before:
            raise _FailedError(f"{what}: the balance moved from {before} to {now}")

    async def debit(self, tid: str, amount: int | None = None, wallet: Wallet | None = None,
                    currency: str | None = None) -> Any:  # fmt: skip
        """A debit of ``amount`` (default: the kit's) under ``tid``."""
        return await self.call(
            f"debit {tid}",
            (wallet or self.wallet).debit(
                self.player,
                amount or self.amount,
                transaction_id=tid,
                round_id=f"kit-{self.run}",
                currency=currency or self.currency,
            ),
        )

    async def credit(self, tid: str) -> Any:
        """A credit of the kit's amount under ``tid``."""
        return await self.call(
            f"credit {tid}",
            self.wallet.credit(
                self.player,
                self.amount,
                transaction_id=tid,
                round_id=f"kit-{self.run}",
                currency=self.currency,
            ),
        )

    async def rollback(self, tid: str) -> Any:
        """The rollback of the debit ``tid``."""
        return await self.call(
            f"rollback {tid}",
            self.wallet.rollback(
                tid,
                player_id=self.player,
                amount=self.amount,
                round_id=f"kit-{self.run}",
                currency=self.currency,
            ),
        )

    async def refused(self, what: str, made: Callable[[], Awaitable[object]]) -> str:
        """Fail unless the call is refused (a typed error; a timeout fails); what it said."""
        try:
            await made()
        except _TimedOutError:
            raise
        except PuntoError as exc:
            return f"{type(exc).__name__}: {exc}"
        raise _FailedError(f"{what} was accepted")


def _money(amount: int, currency: str) -> str:
    digits = minor_units(currency)
    if digits == 0:
        return f"{amount} {currency}"
    sign = "-" if amount < 0 else ""
    whole, part = divmod(abs(amount), 10**digits)
    return f"{sign}{whole}.{part:0{digits}d} {currency}"


async def _cases(kit: Kit) -> dict[str, Callable[[], Awaitable[str]]]:
    state: dict[str, Any] = {}

    async def balance() -> str:
        start = await kit.balance()
        state["start"] = start
        if start < 2 * kit.amount:
            raise _FailedError(
                f"the test player holds {_money(start, kit.currency)}: it needs at least "
                f"{_money(2 * kit.amount, kit.currency)}"
            )
        return _money(start, kit.currency)

    async def bet() -> str:
        before = await kit.balance()
        state["bet"] = tid = kit.tid("bet")
        receipt = await kit.debit(tid)
        now = await kit.balance()
        if now != before - kit.amount:
            raise _FailedError(f"a bet of {kit.amount} moved the balance {before} → {now}")
        if receipt.balance != now:
            raise _FailedError(
                f"the bet answered balance {receipt.balance}, the wallet holds {now}"
            )
        return f"{_money(before, kit.currency)} → {_money(now, kit.currency)}"

    async def replayed_bet() -> str:
        before = await kit.balance()
        await kit.debit(state["bet"])
        await kit.unchanged(before, "the same bet sent again")
        return "answered, nothing moved"

    async def win() -> str:
        before = await kit.balance()
        state["win"] = tid = kit.tid("win")
        await kit.credit(tid)
        now = await kit.balance()
        if now != before + kit.amount:
            raise _FailedError(f"a win of {kit.amount} moved the balance {before} → {now}")
        return f"{_money(before, kit.currency)} → {_money(now, kit.currency)}"

    async def replayed_win() -> str:
        before = await kit.balance()
        await kit.credit(state["win"])
        await kit.unchanged(before, "the same win sent again")
        return "answered, nothing moved"

    async def rollback_held() -> str:
        before = await kit.balance()
        tid = kit.tid("rolled")
        await kit.debit(tid)
        await kit.rollback(tid)
        await kit.unchanged(before, "a bet and its rollback")
        await kit.rollback(tid)
        await kit.unchanged(before, "the same rollback sent again")
        said = await kit.refused("the bet sent again after its rollback", lambda: kit.debit(tid))
        await kit.unchanged(before, "the bet sent again after its rollback")
        return f"refunded once; the bet again refused ({said})"

    async def rollback_unseen() -> str:
        before = await kit.balance()
        tid = kit.tid("never")
        await kit.rollback(tid)
        await kit.unchanged(before, "a rollback of a bet never sent")
        said = await kit.refused("a bet arriving after its rollback", lambda: kit.debit(tid))
        await kit.unchanged(before, "a bet arriving after its rollback")
        return f"recorded; the late bet refused ({said})"

    async def insufficient() -> str:
        before = await kit.balance()
        try:
            await kit.debit(kit.tid("short"), amount=before + kit.amount)
        except InsufficientFundsError as exc:
            await kit.unchanged(before, "a bet over the balance")
            return f"refused ({exc})"
        except PuntoError as exc:
            raise _FailedError(f"refused, but not as insufficient funds: {exc}") from None
        raise _FailedError(
            f"a bet of {before + kit.amount} over a balance of {before} was accepted"
        )

    async def signature() -> str:
        before = await kit.balance()
        forged = kit.forged
        said = [
            await kit.refused(
                "a call signed with another key",
                lambda: kit.debit(kit.tid("forged"), wallet=forged),
            )
        ]
        if kit.unsigned is not None:
            unsigned = kit.unsigned
            said.append(
                await kit.refused(
                    "an unsigned call", lambda: kit.debit(kit.tid("unsigned"), wallet=unsigned)
                )
            )
        await kit.unchanged(before, "calls badly signed")
        return "; ".join(said)

    async def currency() -> str:
        before = await kit.balance()
        said = await kit.refused(
            f"a bet in {kit.other_currency}",
            lambda: kit.debit(kit.tid("currency"), currency=kit.other_currency),
        )
        await kit.unchanged(before, f"a bet in {kit.other_currency}")
        return said

    async def timeouts() -> str:
        if kit.slow:
            raise _FailedError("no answer in time: " + ", ".join(kit.slow))
        return f"every call answered within {kit.timeout:g} s"

    return dict(
        zip(
            CASES,
            (
                balance,
                bet,
                replayed_bet,
                win,
                replayed_win,
                rollback_held,
                rollback_unseen,
                insufficient,
                signature,
                currency,
                timeouts,
            ),
            strict=True,
        )
    )


async def run_kit(kit: Kit) -> Report:
    """Run every case against ``kit``'s wallet; a case's failure does not stop the others
    (a case that needs an earlier one's bet fails with it)."""
    if not kit.other_currency:
        kit.other_currency = "USD" if kit.currency != "USD" else "EUR"
    done: list[Case] = []
    for name, case in (await _cases(kit)).items():
        try:
            detail = await case()
        except (_FailedError, _TimedOutError) as exc:
            done.append(Case(name, False, str(exc)))
        except KeyError:
            done.append(Case(name, False, "not run: an earlier case failed"))
        except PuntoError as exc:
            done.append(Case(name, False, f"{type(exc).__name__}: {exc}"))
        else:
            done.append(Case(name, True, detail))
    return Report(tuple(done))
