"""What a hand's record knows as its betting opens — the dealer, the time — is kept with its
round in the ledger from the round's first stake [L], so that a record rebuilt after a crash
before the coup was complete still names the dealer for a complaint; the full facts replace
them with the result, and when those cannot be read the opening's stay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ledger_support import BACKENDS, ledger_database
from server_support import lone_table

from punto.codec import hand_facts_json
from punto.server.tables import recorder as recorder_module
from punto.server.tables.runner import TableRunner
from punto.table import HandFacts
from punto.table.events import BettingOpened

pytestmark = pytest.mark.asyncio


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
    async with (
        ledger_database(backend, tmp_path) as url,
        lone_table(url) as (runner, _bank, ledger, deal),
    ):
        game = str(runner.table.game)
        opening = _opening(runner)
        assert opening["dealer"] == "Dana"
        assert (await ledger.round(game)).result == {"facts": opening}
        if not readable:  # the full facts cannot be read as the result is recorded

            def unreadable(*_args: object, **_kwargs: object) -> HandFacts:
                raise RuntimeError("facts not read")

            monkeypatch.setattr(recorder_module, "hand_facts", unreadable)
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
