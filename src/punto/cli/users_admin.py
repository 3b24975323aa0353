"""The run of ``punto users …`` (see :mod:`punto.cli.users`): the server's store, which is
the ``server`` extra."""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys

from punto.cli.database import server_database
from punto.cli.output import write_json
from punto.errors import ProtocolError
from punto.ledger.store import database_url, reach
from punto.server.auth import Role, check_user_name, hash_password
from punto.server.config import Settings
from punto.server.store.storage import ServerStore

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Run the chosen action; 0 when done."""
    url = database_url(args.database_url)
    asyncio.run(reach(url))  # a database that cannot be opened: one line, exit 2
    password = None
    if args.action == "add":
        check_user_name(args.user_id)
        if args.password_stdin:
            password = sys.stdin.readline().rstrip("\n")
            if len(password) < 8:
                raise ProtocolError("a staff password is at least 8 characters")
    return asyncio.run(_run(url, args, password))


async def _run(url: str, args: argparse.Namespace, password: str | None) -> int:
    async with server_database(url) as engine:
        store = ServerStore(engine)
        if args.action == "list":
            users = await store.users()
            if args.json:
                write_json(
                    {
                        "users": [
                            {"user_id": u.id, "role": u.role.value, "display_name": u.display_name}
                            for u in users
                        ]
                    }
                )
            else:
                for user in users:
                    print(f"{user.id}  {user.role.value}  {user.display_name}")
            return 0
        made = password is None
        chosen = password if password is not None else secrets.token_urlsafe(12)
        cost = Settings.from_env().password_cost
        hashed = await asyncio.to_thread(hash_password, chosen, cost=cost)
        role = Role(args.role)
        await store.create_user(
            args.user_id, role=role, display_name=args.name or args.user_id, password_hash=hashed
        )
        if args.json:
            answer = {"user_id": args.user_id, "role": role.value}
            write_json({**answer, "password": chosen} if made else answer)
        else:
            print(f"{args.user_id}  {role.value}  made")
            if made:
                print(f"password: {chosen}")
                print("(shown this once)")
        return 0
