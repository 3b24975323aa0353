"""The run of ``punto operators …`` (see :mod:`punto.cli.operators`): the server's store,
which is the ``server`` extra."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from punto.cli.database import server_database
from punto.cli.output import write_json
from punto.errors import NotFoundError, ProtocolError
from punto.ledger.signing import new_secret, public_key_of
from punto.ledger.store import database_url, reach
from punto.server.operators.limits import LimitGroup, limit_groups_from_json
from punto.server.operators.model import Operator
from punto.server.operators.registry import check_limit_groups, register
from punto.server.store.operators import OperatorStore

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Run the chosen action; 0 when done."""
    if args.action == "check":
        from punto.cli.operators_check import run as check

        return check(args)
    url = database_url(args.database_url)
    asyncio.run(reach(url))  # a database that cannot be opened: one line, exit 2
    return asyncio.run(_run(url, args))


async def _run(url: str, args: argparse.Namespace) -> int:
    async with server_database(url) as engine:
        store = OperatorStore(engine)
        if args.action == "list":
            found = await store.all()
            if args.json:
                write_json({"operators": [operator.to_json() for operator in found]})
            else:
                for operator in found:
                    print(_line(operator))
                if not found:
                    print("no operators yet: punto operators add ID --name N --currencies EUR")
            return 0
        secret: str | None = None
        if args.action == "public-key":
            held = await store.wallet_key(args.operator_id)
            if held is None:
                raise NotFoundError(f"no hub88 wallet key for operator {args.operator_id!r}")
            if args.json:
                write_json({"id": args.operator_id, "wallet_public_key": public_key_of(held)})
            else:
                print(public_key_of(held), end="")
            return 0
        if args.action == "add":
            operator, secret = await register(
                store,
                args.operator_id,
                name=args.name,
                currencies=args.currencies.split(","),
                languages=[code for code in args.languages.split(",") if code],
                origins=args.origin,
                wallet_url=args.wallet_url,
                dialect=args.dialect,
                limit_groups=_limit_groups(args.limit_groups),
                now=time.time(),
            )
        elif args.action == "limits":
            groups = _limit_groups(args.file)
            assert groups is not None
            current = await store.get(args.operator_id)
            if current is None:
                raise NotFoundError(f"no operator {args.operator_id!r}")
            check_limit_groups(current.currencies, groups)
            operator = await store.set_limit_groups(args.operator_id, groups)
        elif args.action == "rotate-secret":
            secret = new_secret()
            operator = await store.rotate(args.operator_id, secret)
        elif args.action in ("disable", "enable"):
            operator = await store.set_disabled(args.operator_id, args.action == "disable")
        else:
            got = await store.get(args.operator_id)
            if got is None:
                raise NotFoundError(f"no operator {args.operator_id!r}")
            operator = got
        wallet_key = await store.wallet_key(operator.id) if args.action == "add" else None
        public = public_key_of(wallet_key) if wallet_key is not None else None
        if args.json:
            answer = operator.to_json()
            if secret is not None:
                answer["secret"] = secret
            if public is not None:
                answer["wallet_public_key"] = public
            write_json(answer)
        else:
            print(_line(operator))
            if secret is not None:
                print(f"secret: {secret}")
                print("(shown this once: keep it in the operator's secret store)")
            if public is not None:
                print("wallet public key (the operator checks X-Hub88-Signature with it):")
                print(public, end="")
        return 0


def _limit_groups(path: str | None) -> dict[str, LimitGroup] | None:
    """The limit groups of a JSON file (``-``: standard input); :class:`ProtocolError`
    (exit status 2) for one that cannot be read or is not limit groups."""
    if path is None:
        return None
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text("utf-8")
        data = json.loads(text)
    except (OSError, ValueError) as exc:
        raise ProtocolError(f"cannot read the limit groups {path}: {exc}") from None
    return limit_groups_from_json(data)


def _line(operator: Operator) -> str:
    state = "disabled" if operator.disabled else "enabled"
    wallet = operator.wallet_url or "no wallet URL"
    groups = ",".join(sorted(operator.limit_groups)) or "no limit groups"
    return (
        f"{operator.id}  {operator.name}  {state}  {','.join(operator.currencies)}  "
        f"{operator.dialect} {wallet}  {groups}  secret v{operator.secret_version}"
    )
