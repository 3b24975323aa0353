"""What a hand's record knows as its betting opens — the dealer, the time — is kept with its
round in the ledger from the round's first stake [L], so that a record rebuilt after a crash
before the coup was complete still names the dealer for a complaint; the full facts replace
them with the result, and when those cannot be read the opening's stay."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from ledger_support import BACKENDS, ledger_database
from punto.codec import hand_facts_json
from punto.ledger.store import LedgerStore, create_engine
from punto.ledger.wallet import InternalWallet
from punto.server import runner as runner_module
from punto.server.auth import Actor, Role
from punto.server.bank import Bank
from punto.server.bus import LocalBus
from punto.server.config import Settings
from punto.server.hub import Hub
from punto.server.metrics import Metrics
from punto.server.migrate import upgrade_async
from punto.server.protocol import parse_command
from punto.server.runner import TableRunner
from punto.server.services import Services
from punto.server.storage import ServerStore
from punto.server.tables import TableConfig
from punto.table import HandFacts
from punto.table.events import BettingOpened
from punto.table.kinds import Dealing

pytestmark = pytest.mark.asyncio


@contextlib.asynccontextmanager
async def _betting(
    backend: str, tmp_path: Path
) -> AsyncIterator[tuple[TableRunner, LedgerStore, Callable[..., Any]]]:
    """A live table whose dealer Dana opened betting; cleo confirmed 10.00 on Player. The
    runner, the ledger and the dealer's command."""
    async with ledger_database(backend, tmp_path) as url:
        await upgrade_async(url)
        engine = create_engine(url)
        try:
            ledger = LedgerStore(engine)
            store = ServerStore(engine)
            wallet = InternalWallet(ledger)
            services = Services(
                settings=Settings(database_url=url, password_cost=1024, betting_seconds=3600),
                store=store,
                bank=Bank(ledger, wallet, store, seamless=False, operator_id="default"),
                bus=LocalBus(Hub(queue_size=10)),
                metrics=Metrics(),
            )
            config = TableConfig(id="t", name="t", rules="online_8deck", dealing=Dealing.LIVE)
            await store.create_table(config)
            runner = TableRunner(config, services)
            dealer = Actor("dana", Role.DEALER, "Dana")
            cleo = Actor("cleo", Role.PLAYER, "Cleo")

            async def deal(message: dict[str, Any]) -> None:
                await runner.execute(dealer, parse_command(message))

            await wallet.credit("cleo", 100_000, transaction_id="cleo:1")
            await deal({"type": "start_shoe"})
            await deal({"type": "open_betting"})
            for step in ({"type": "join"}, {"type": "watch", "tier": "low"}):
                await runner.execute(cleo, parse_command(step))
            await runner.execute(cleo, parse_command({"type": "confirm", "bets": {"player": 1000}}))
            try:
                yield runner, ledger, deal
            finally:
                await runner.abandon()
        finally:
            await engine.dispose()


def _opening(runner: TableRunner) -> dict[str, Any]:
    """The facts of the hand in play as its betting opened, as the ledger keeps them."""
    game = runner.table.game
    opened = next(e for e in runner.table.events if isinstance(e, BettingOpened) and e.game == game)
    return hand_facts_json(HandFacts(dealer=runner.table.dealer, opened_at=opened.at))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("readable", [True, False], ids=["full-facts", "facts-not-read"])
async def test_the_opening_facts_stay_with_the_round_until_the_full_ones(
    backend: str, readable: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with _betting(backend, tmp_path) as (runner, ledger, deal):
        game = str(runner.table.game)
        opening = _opening(runner)
        assert opening["dealer"] == "Dana"
        assert (await ledger.round(game)).result == {"facts": opening}
        if not readable:  # the full facts cannot be read as the result is recorded

            def unreadable(*_args: object, **_kwargs: object) -> HandFacts:
                raise RuntimeError("facts not read")

            monkeypatch.setattr(runner_module, "hand_facts", unreadable)
        await deal({"type": "close_betting"})
        for card in ("9S", "8D", "KH", "7C"):  # a Player natural 9 against 5 [M9]
            await deal({"type": "deal_card", "card": card})
        kept = (await ledger.round(game)).result
        assert kept is not None
        assert "outcome" in kept
        facts = kept["facts"]
        assert (facts["dealer"], facts["opened_at"]) == (opening["dealer"], opening["opened_at"])
        # the full facts add each card's time; the opening's alone have none
        assert len(facts["card_times"]) == (4 if readable else 0)
