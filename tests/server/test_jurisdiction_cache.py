"""The session rules read a launched player's profile once per join when they play
under none (their bets cost no read), and at every bet when they play under one."""

from __future__ import annotations

from pathlib import Path

import pytest

from punto.ledger.store import create_engine
from punto.server.auth import Actor, Role
from punto.server.clock import GivenClock
from punto.server.node.jurisdiction import SessionRules
from punto.server.operators.jurisdictions import Jurisdiction
from punto.server.operators.sessions import PlaySession
from punto.server.store.jurisdictions import JurisdictionStore
from punto.server.store.migrate import upgrade_async
from punto.table.clock import ManualClock

pytestmark = pytest.mark.asyncio


class _Counted(JurisdictionStore):
    """The real store (SQLite), counting its reads of a player's session."""

    reads = 0

    async def session(self, user_id: str) -> tuple[PlaySession, Jurisdiction] | None:
        self.reads += 1
        return await super().session(user_id)


async def test_a_player_under_no_profile_is_read_once_until_they_join_again(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'rules.sqlite3'}"
    await upgrade_async(url)
    engine = create_engine(url)
    try:
        store = _Counted(engine)
        rules = SessionRules(store, clock=GivenClock(ManualClock()))
        ann = Actor("acme.ann", Role.PLAYER, "Ann")
        assert await rules.of(ann) is None
        assert await rules.of(ann) is None  # remembered: no second read
        assert store.reads == 1
        assert await rules.of(Actor("bob", Role.PLAYER, "Bob")) is None  # not launched
        assert store.reads == 1

        await store.put(Jurisdiction("uk", "UK", reality_check_interval=60.0), now=0.0)
        await store.start("acme.ann", "uk", now=0.0)  # launched again, under a profile
        assert await rules.of(ann, fresh=True) is not None  # her page joins anew
        assert await rules.of(ann) is not None  # and from then on, read at every bet
        assert store.reads == 3

        await store.start("acme.ann", None, now=0.0)  # launched under none again
        assert await rules.of(ann) is None
        assert await rules.of(ann) is None
        assert store.reads == 4
    finally:
        await engine.dispose()
