"""Per-operator wallet routing: a launched player's calls go to its operator's registered
wallet (its dialect and keys), every other call to the server's own; the outbox delivers and
reconciliation checks each call at its own operator."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from dialect_support import reference, serving, wallet_of
from ledger_support import ledger_database
from sqlalchemy import text

from punto.ledger import operator_hub88, operator_ref
from punto.ledger.signing import public_key_of
from punto.ledger.store import LedgerStore
from punto.server.money.outbox import Payment, WalletOutbox, reconcile
from punto.server.money.routing import RoutingWallet
from punto.server.operators.registry import register
from punto.server.store.migrate import upgrade_async
from punto.server.store.operators import OperatorPlayer, OperatorStore
from punto.server.store.storage import ServerStore

pytestmark = pytest.mark.asyncio


async def test_each_launched_player_is_paid_at_its_own_operator(tmp_path: Path) -> None:
    own, own_app, _ = reference("punto", {"ann": 5_000})
    acme = operator_ref.ReferenceOperator({"u-1": 10_000})
    async with ledger_database("sqlite", tmp_path) as url:
        await upgrade_async(url)
        async with LedgerStore.open(url) as ledger:
            operators = OperatorStore(ledger.engine)
            # acme speaks punto (signed with its secret); hubco hub88 (signed with its key)
            _, acme_secret = await register(
                operators, "acme", name="Acme", currencies=["EUR"], now=0.0,
                wallet_url="http://placeholder", dialect="punto",
            )  # fmt: skip
            await register(
                operators, "hubco", name="Hub Co", currencies=["JPY"], now=0.0,
                wallet_url="http://placeholder", dialect="hub88",
            )  # fmt: skip
            hub_key = await operators.wallet_key("hubco")
            assert hub_key is not None
            hubco = operator_hub88.Hub88Operator({"u-1": 700}, currency="JPY")
            for player, operator_id, currency in (("u-1", "acme", "EUR"), ("u-1", "hubco", "JPY")):
                await operators.launched(
                    OperatorPlayer(operator_id, player, f"{operator_id}.{player}", currency, "en"),
                    display_name="P",
                    now=0.0,
                )
            with (
                serving(operator_ref.create_app(acme, secret=acme_secret)) as acme_url,
                serving(
                    operator_hub88.create_app(hubco, public_key=public_key_of(hub_key))
                ) as hub_url,
            ):
                async with ledger.engine.begin() as conn:
                    await conn.execute(
                        text("UPDATE server_operators SET wallet_url = :u WHERE id = 'acme'"),
                        {"u": f"{acme_url}/wallet"},
                    )
                    await conn.execute(
                        text("UPDATE server_operators SET wallet_url = :u WHERE id = 'hubco'"),
                        {"u": hub_url},
                    )
                client = httpx.AsyncClient(transport=httpx.ASGITransport(app=own_app))
                default = wallet_of("punto", "http://own/wallet", client=client)
                routing = RoutingWallet(default, operators)
                try:
                    assert await routing.balance("ann") == 5_000
                    assert await routing.balance("acme.u-1") == 10_000
                    assert await routing.balance("hubco.u-1") == 700  # JPY, from its launch
                    store = ServerStore(ledger.engine)
                    outbox = WalletOutbox(store, routing, ledger, hold=0.0)
                    await outbox.pay(
                        [
                            Payment("ann", 100, "s-1", "r-1"),
                            Payment("acme.u-1", 250, "s-2", "r-1"),
                            Payment("hubco.u-1", 30, "s-3", "r-1"),
                        ]
                    )
                    assert own.balances["ann"] == 5_100
                    assert acme.balances["u-1"] == 10_250
                    assert hubco.balances["u-1"] == 730
                    found = await reconcile(store, routing)
                    assert found.ok, found.problems
                    assert (found.checked, found.unverified) == (3, 0)
                    hubco.wallets[("u-1", "JPY")] -= 30 * 100_000  # the operator lost it
                    hubco._records.clear()
                    found = await reconcile(store, routing)
                    assert [p.split(":")[0] for p in found.problems] == ["disagrees"]
                    assert "hubco.u-1" in found.problems[0]
                finally:
                    await routing.aclose()
                    await client.aclose()
