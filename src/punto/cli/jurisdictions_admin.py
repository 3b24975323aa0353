"""The run of ``punto jurisdictions …`` (see :mod:`punto.cli.jurisdictions`): the server's
store, which is the ``server`` extra."""

from __future__ import annotations

import argparse
import asyncio
import time

from punto.cli.database import server_database
from punto.cli.output import write_json
from punto.errors import NotFoundError
from punto.ledger.store import database_url, reach
from punto.server.operators.jurisdictions import Jurisdiction, format_duration, jurisdiction
from punto.server.store.jurisdictions import JurisdictionStore

__all__ = ["run"]


def run(args: argparse.Namespace) -> int:
    """Run the chosen action; 0 when done."""
    url = database_url(args.database_url)
    asyncio.run(reach(url))  # a database that cannot be opened: one line, exit 2
    return asyncio.run(_run(url, args))


async def _run(url: str, args: argparse.Namespace) -> int:
    profile: Jurisdiction | None = None
    if args.action == "add":  # checked before the database is touched
        profile = jurisdiction(
            args.jurisdiction_id,
            name=args.name,
            reality_check=args.reality_check,
            session_limit=args.session_limit,
            min_hand_interval=args.min_hand_interval,
            features_off=args.features_off.split(","),
        )
    async with server_database(url) as engine:
        store = JurisdictionStore(engine)
        if args.action == "list":
            found = await store.all()
            if args.json:
                write_json({"jurisdictions": [p.to_json() for p in found]})
            else:
                for each in found:
                    print(_line(each))
                if not found:
                    print("no jurisdictions yet: punto jurisdictions add ID --name N")
            return 0
        if args.action == "remove":
            if not await store.remove(args.jurisdiction_id):
                raise NotFoundError(f"no jurisdiction {args.jurisdiction_id!r}")
            if args.json:
                write_json({"id": args.jurisdiction_id, "removed": True})
            else:
                print(f"removed {args.jurisdiction_id}")
            return 0
        if profile is not None:
            await store.put(profile, now=time.time())
        else:
            profile = await store.get(args.jurisdiction_id)
            if profile is None:
                raise NotFoundError(f"no jurisdiction {args.jurisdiction_id!r}")
        if args.json:
            write_json(profile.to_json())
        else:
            print(_line(profile))
        return 0


def _line(profile: Jurisdiction) -> str:
    def every(seconds: float | None) -> str:
        return "none" if seconds is None else format_duration(seconds)

    off = ",".join(profile.features_off) or "none"
    return (
        f"{profile.id}  {profile.name}  reality check {every(profile.reality_check_interval)}"
        f"  session limit {every(profile.session_limit)}"
        f"  min hand interval {every(profile.min_hand_interval)}  features off {off}"
    )
