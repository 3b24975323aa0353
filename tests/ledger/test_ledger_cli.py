"""``punto ledger migrate`` and ``punto ledger check``: exit 0 only on balanced books."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from cli_support import command_line
from ledger_support import BACKENDS, ledger_database
from sqlalchemy import text

from punto.bets import Bet
from punto.cli import ledger
from punto.ledger import model
from punto.ledger.migrate import head
from punto.ledger.model import TransactionKind
from punto.ledger.store import LedgerStore

punto = command_line(ledger)
"""``punto`` with only the ledger command, handling errors as ``punto.cli.main``."""


def test_migrate_then_check_a_new_sqlite_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'books.sqlite3'}"
    assert punto(["ledger", "check", "--database-url", url]) == 2
    assert "punto ledger migrate" in capsys.readouterr().err
    assert punto(["ledger", "migrate", "--database-url", url]) == 0
    assert punto(["ledger", "migrate", "--database-url", url]) == 0
    assert f"revision {head()}" in capsys.readouterr().out
    monkeypatch.setenv("PUNTO_DATABASE_URL", url)
    assert punto(["ledger", "check"]) == 0
    assert capsys.readouterr().out.startswith("books balance: 0 transactions")


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", BACKENDS)
async def test_check_fails_when_a_row_is_tampered_with(
    backend: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with ledger_database(backend, tmp_path) as url:
        async with LedgerStore.open(url) as store:
            deposit = model.transfer(TransactionKind.DEPOSIT, "alice", 5_000, transaction_id="in")
            await store.post(deposit)
            await store.open_round("r1", table_id="t1")
            await store.confirm_bets("r1", "alice", {Bet.TIE: 1_000}, confirmation_id="c1")
        check = ["ledger", "check", "--database-url", url]
        assert await asyncio.to_thread(punto, check) == 0
        assert "1 open rounds" in capsys.readouterr().out
        async with LedgerStore.open(url) as store, store.engine.begin() as conn:
            await conn.execute(
                text(
                    "UPDATE ledger_entries SET amount = 900000 WHERE account_code = 'player:alice'"
                    " AND amount > 0"
                )
            )
        assert await asyncio.to_thread(punto, check) == 1
        out = capsys.readouterr().out
        assert out.startswith("books do NOT balance")
        assert "the accounts sum to 895000, not 0" in out
        assert await asyncio.to_thread(punto, [*check, "--json"]) == 1
        answer = json.loads(capsys.readouterr().out)
        assert answer["ok"] is False
        assert answer["entries_total"] == 895_000
