"""The run of ``punto operators check`` (see :mod:`punto.cli.operators`): the wallet
conformance kit (:mod:`punto.ledger.conformance`) against a registered operator's wallet
(``ID``) or any wallet (``--wallet-url URL --dialect punto|hub88``)."""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import dataclass

from punto.cli.database import server_database
from punto.cli.output import write_json
from punto.currencies import minor_units
from punto.errors import NotFoundError, ProtocolError
from punto.ledger.conformance import Kit, Report, run_kit
from punto.ledger.dialects import DialectWallet, wallet_for
from punto.ledger.signing import new_rsa_key, new_secret
from punto.ledger.store import database_url, reach
from punto.ledger.wallet import RetryPolicy
from punto.server.store.operators import OperatorStore

__all__ = ["run"]


@dataclass(frozen=True, slots=True)
class _Target:
    url: str
    dialect: str
    secret: str | None
    key: str | None
    currency: str


def run(args: argparse.Namespace) -> int:
    """Check the wallet; 0 when every case passed, 1 otherwise (2: bad arguments)."""
    target = _target(args)
    amount = args.amount if args.amount is not None else 10 ** minor_units(target.currency)
    if amount <= 0 or args.timeout <= 0:
        raise ProtocolError("--amount and --timeout are positive")
    report = asyncio.run(_check(args, target, amount))
    if args.json:
        write_json(
            {
                "ok": report.ok,
                "wallet_url": target.url,
                "dialect": target.dialect,
                "player": args.player,
                "currency": target.currency,
                "cases": [case.to_json() for case in report.cases],
            }
        )
    else:
        print(f"{target.dialect} wallet {target.url}, player {args.player} in {target.currency}")
        for case in report.cases:
            print(f"  {'PASS' if case.ok else 'FAIL'}  {case.name}: {case.detail}")
        passed = sum(case.ok for case in report.cases)
        print(f"{passed} of {len(report.cases)} cases pass")
    return 0 if report.ok else 1


def _target(args: argparse.Namespace) -> _Target:
    if args.operator_id is not None and args.wallet_url is not None:
        raise ProtocolError("name the operator (ID) or --wallet-url, not both")
    if args.operator_id is None:
        if args.wallet_url is None or args.dialect is None:
            raise ProtocolError("punto operators check needs ID, or --wallet-url and --dialect")
        if args.currency is None:
            raise ProtocolError("punto operators check --wallet-url needs --currency")
        key = None
        if args.dialect == "hub88":
            if args.key is None:
                raise ProtocolError("the hub88 dialect signs with --key FILE (a PEM private key)")
            try:
                with open(args.key, encoding="utf-8") as file:
                    key = file.read()
            except OSError as exc:
                raise ProtocolError(f"cannot read --key {args.key}: {exc}") from None
        elif args.secret is None:
            raise ProtocolError("the punto dialect signs with --secret S")
        minor_units(args.currency.upper())
        return _Target(args.wallet_url, args.dialect, args.secret, key, args.currency.upper())
    url = database_url(args.database_url)
    asyncio.run(reach(url))  # a database that cannot be opened: one line, exit 2
    return asyncio.run(_registered(url, args))


async def _registered(url: str, args: argparse.Namespace) -> _Target:
    async with server_database(url) as engine:
        store = OperatorStore(engine)
        operator = await store.get(args.operator_id)
        if operator is None:
            raise NotFoundError(f"no operator {args.operator_id!r}")
        if operator.wallet_url is None:
            raise ProtocolError(f"the operator {operator.id!r} has no wallet URL")
        currency = (args.currency or operator.currencies[0]).upper()
        minor_units(currency)
        return _Target(
            operator.wallet_url,
            operator.dialect,
            await store.secret(operator.id),
            await store.wallet_key(operator.id),
            currency,
        )


async def _check(args: argparse.Namespace, target: _Target, amount: int) -> Report:
    # one attempt each, whose own timeout comes after the kit's (the kit reports it)
    retry = RetryPolicy(attempts=1, timeout=args.timeout * 2)

    def wallet(secret: str | None, key: str | None) -> DialectWallet:
        return wallet_for(
            target.dialect,
            target.url,
            secret=secret,
            key=key,
            api_key=args.api_key,
            currency=target.currency,
            retry=retry,
        )

    made = [
        wallet(target.secret, target.key),
        wallet(new_secret(), new_rsa_key() if target.dialect == "hub88" else None),
        wallet(None, None),
    ]
    try:
        kit = Kit(
            wallet=made[0],
            forged=made[1],
            unsigned=made[2],
            player=args.player,
            currency=target.currency,
            amount=amount,
            timeout=args.timeout,
        )
        return await run_kit(kit)
    finally:
        for each in made:
            await each.aclose()
