"""A database (or a Redis) that cannot be opened: ``punto serve`` and ``punto ledger
check|migrate`` say which and why in one line and exit 2 — never a driver's traceback,
never a server that starts and dies in its start-up (``punto.ledger.store.reach``,
``punto.server.fanout.bus.reach_redis``)."""

from __future__ import annotations

import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from ledger_support import BACKENDS, POSTGRES_ADMIN_URL, POSTGRESQL, ledger_database

import punto.cli
from punto.errors import UnavailableError
from punto.ledger.store import reach
from punto.server.fanout import bus
from punto.server.fanout.hub import Hub


def _closed_port() -> int:
    """A port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _unreachable(tmp_path: Path) -> list[tuple[str, str]]:
    """Database URLs that cannot be opened, each with what the message must say."""
    return [
        (f"sqlite:///{tmp_path / 'no' / 'such' / 'folder.sqlite3'}", "unable to open"),
        (f"postgresql://punto@127.0.0.1:{_closed_port()}/punto", "Connect call failed"),
    ]


@pytest.mark.parametrize(
    "command", [["serve", "--demo"], ["ledger", "check"], ["ledger", "migrate"]]
)
def test_a_database_that_cannot_be_opened_is_one_line_and_exit_2(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for url, why in _unreachable(tmp_path):
        assert punto.cli.main([*command, "--database-url", url]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err.count("\n") == 1, err
        assert err.startswith("punto: error: cannot open the database ")
        assert why in err
        assert "Traceback" not in err
    assert not (tmp_path / "no").exists()  # nothing was created on the way


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", POSTGRESQL)
async def test_reach_hides_the_password_and_names_the_missing_database(backend: str) -> None:
    parts = urlsplit(POSTGRES_ADMIN_URL)
    user = parts.username or "postgres"
    netloc = f"{user}:s3cret-word@{parts.hostname}:{parts.port or 5432}"
    url = parts._replace(netloc=netloc, path="/punto_no_such_database").geturl()
    with pytest.raises(UnavailableError) as refused:
        await reach(url)  # trust authentication: the password is not what fails
    assert 'database "punto_no_such_database" does not exist' in str(refused.value)
    assert "s3cret-word" not in str(refused.value)


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", BACKENDS)
async def test_reach_opens_a_database_that_answers(backend: str, tmp_path: Path) -> None:
    async with ledger_database(backend, tmp_path) as url:
        await reach(url)


def test_a_redis_that_does_not_answer_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = f"sqlite:///{tmp_path / 'punto.sqlite3'}"
    redis = f"redis://:hunter2-secret@127.0.0.1:{_closed_port()}/0"
    argv = ["serve", "--demo", "--database-url", database, "--redis-url", redis]
    assert punto.cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith("punto: error: cannot reach Redis at redis://:***@127.0.0.1:")
    assert "hunter2" not in err


@pytest.mark.asyncio
async def test_a_process_whose_redis_never_answers_stops_its_start_with_a_typed_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bus, "_START_PATIENCE", 0.5)
    redis = bus.RedisBus(f"redis://127.0.0.1:{_closed_port()}/0", Hub(queue_size=4), process_id="p")

    async def handler(request: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    with pytest.raises(UnavailableError, match=r"not subscribed within 0\.5 s"):
        await redis.start(handler)
    await redis.close()
