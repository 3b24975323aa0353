"""The run of ``punto ledger check|migrate`` (see :mod:`punto.cli.ledger`): the SQLAlchemy
store and the Alembic migrations, which are the ``server`` extra."""

from __future__ import annotations

import argparse
import asyncio
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from punto.cli.output import write_json
from punto.ledger import migrate
from punto.ledger.store import CheckReport, LedgerStore, database_url, reach

if TYPE_CHECKING:
    from punto.server.money.outbox import Reconciliation

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Run the chosen action."""
    url = database_url(args.database_url)
    asyncio.run(reach(url))  # a database that cannot be opened: one line, exit 2
    if args.action == "migrate":
        migrate.upgrade(url)
        print(f"ledger schema at revision {migrate.head()}")
        return 0
    wallet: _Wallet | None = None
    if args.operator:
        key_file = args.wallet_key or os.environ.get("PUNTO_WALLET_KEY") or None
        wallet = _Wallet(
            args.wallet_url or os.environ.get("PUNTO_WALLET_URL") or None,
            args.wallet_dialect or os.environ.get("PUNTO_WALLET_DIALECT") or "punto",
            args.wallet_api_key or os.environ.get("PUNTO_WALLET_API_KEY") or None,
            args.wallet_secret or os.environ.get("PUNTO_WALLET_SECRET") or None,
            _read(key_file) if key_file else None,
        )
        if wallet.url is None and not asyncio.run(_registered_wallets(url)):
            print(
                "punto ledger check --operator needs --wallet-url or $PUNTO_WALLET_URL "
                "(or operators registered with their wallet URL)"
            )
            return 2
    report, reconciliation = asyncio.run(_check(url, wallet))
    house = os.environ.get("PUNTO_CURRENCY") or "EUR"
    ok = report.ok and (reconciliation is None or reconciliation.ok)
    if args.json:
        write_json(
            {
                "ok": ok,
                "operator": None
                if reconciliation is None
                else {
                    "ok": reconciliation.ok,
                    "checked": reconciliation.checked,
                    "unverified": reconciliation.unverified,
                    "problems": list(reconciliation.problems),
                },
                "problems": list(report.problems),
                "accounts": report.accounts,
                "transactions": report.transactions,
                "entries_total": report.entries_total,
                "open_rounds": report.open_rounds,
                "books": [
                    {
                        "currency": book.currency or house,
                        "operator": book.operator,
                        "accounts": book.accounts,
                        "total": book.total,
                        "players": book.players,
                    }
                    for book in report.books()
                ],
            }
        )
    elif report.ok:
        print(
            f"books balance: {report.transactions} transactions, {report.accounts} accounts "
            f"summing to 0, {report.open_rounds} open rounds"
        )
        for book in report.books():
            who = f"operator {book.operator}" if book.operator else "book"
            print(
                f"  {book.currency or house} {who}: {book.accounts} accounts summing to "
                f"{book.total}, players' wallets {book.players}"
            )
    else:
        print(f"books do NOT balance: {len(report.problems)} problems")
        for problem in report.problems:
            print(f"  {problem}")
    if reconciliation is not None and not args.json:
        if reconciliation.ok:
            print(f"operator agrees: {reconciliation.checked} wallet calls, none pending")
            if reconciliation.unverified:
                print(
                    f"  {reconciliation.unverified} answered calls not asked: their wallet "
                    "has no look-up (Punto's side checked only)"
                )
        else:
            print(
                f"operator does NOT agree: {len(reconciliation.problems)} of "
                f"{reconciliation.checked} wallet calls"
            )
            for problem in reconciliation.problems:
                print(f"  {problem}")
    return 0 if ok else 1


@dataclass(frozen=True, slots=True)
class _Wallet:
    """The server's own seamless wallet, as the options or the environment name it."""

    url: str | None
    dialect: str
    api_key: str | None
    secret: str | None
    key: str | None


def _read(path: str) -> str:
    from punto.errors import ProtocolError

    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError as exc:
        raise ProtocolError(f"cannot read the wallet key {path}: {exc}") from None


async def _registered_wallets(url: str) -> bool:
    """Whether the database has an operator with its own wallet URL."""
    from sqlalchemy.exc import SQLAlchemyError

    from punto.server.store.operators import OperatorStore

    async with LedgerStore.open(url) as store:
        try:
            found = await OperatorStore(store.engine).all()
        except SQLAlchemyError:  # no server tables: no operators
            return False
    return any(operator.wallet_url for operator in found)


async def _check(url: str, wallet: _Wallet | None) -> tuple[CheckReport, Reconciliation | None]:
    from sqlalchemy.exc import SQLAlchemyError

    from punto.errors import PuntoError
    from punto.ledger.dialects import wallet_for
    from punto.server.money.outbox import Reconciliation, reconcile
    from punto.server.money.routing import RoutingWallet
    from punto.server.store.operators import OperatorStore
    from punto.server.store.storage import ServerStore

    async with LedgerStore.open(url) as store:
        report = await store.check()
        if wallet is None:
            return report, None
        default = (
            None
            if wallet.url is None
            else wallet_for(
                wallet.dialect,
                wallet.url,
                api_key=wallet.api_key,
                secret=wallet.secret,
                key=wallet.key,
            )
        )
        # each row is asked of its player's wallet: an operator's own, or the server's
        routing = RoutingWallet(default, OperatorStore(store.engine))
        try:
            return report, await reconcile(ServerStore(store.engine), routing)
        except (PuntoError, SQLAlchemyError) as exc:
            return report, Reconciliation(0, (f"cannot reconcile: {exc}",))
        finally:
            await routing.aclose()
            if default is not None:
                await default.aclose()
