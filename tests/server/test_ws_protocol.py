"""The private uvicorn hook and its pin (``punto.server.fanout.direct``): the installed
uvicorn is one pyproject.toml allows and has everything the hook uses; a uvicorn without
the class, or with it changed, makes servers fall back to uvicorn's public protocol, and
a server on the public protocol still serves a table."""

from __future__ import annotations

import json
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from ledger_support import ledger_database
from packaging.requirements import Requirement
from packaging.version import Version
from server_support import TableClient, running_server, server_settings

from punto.server.fanout import wsprotocol
from punto.server.fanout.direct import DirectProtocol

_PYPROJECT = Path(__file__).parents[2] / "pyproject.toml"


def _uvicorn_pin() -> Requirement:
    project = tomllib.loads(_PYPROJECT.read_text(encoding="utf-8"))["project"]
    lists = [project["dependencies"], *project["optional-dependencies"].values()]
    pins = [Requirement(d) for deps in lists for d in deps if Requirement(d).name == "uvicorn"]
    assert len(pins) == 1
    return pins[0]


def test_the_installed_uvicorn_is_one_the_pin_allows_and_has_the_hooks_base() -> None:
    installed = Version(metadata.version("uvicorn"))
    assert installed in _uvicorn_pin().specifier
    assert wsprotocol.missing() is None
    assert wsprotocol.ws_protocol() is DirectProtocol


def test_the_pin_starts_where_uvicorn_added_the_class_and_has_an_upper_bound() -> None:
    specifier = _uvicorn_pin().specifier
    assert Version("0.34.3") not in specifier  # WebSocketsSansIOProtocol came in 0.35.0
    assert Version("0.35.0") in specifier
    assert any(s.operator == "<" for s in specifier)  # a new uvicorn is checked first


def test_a_uvicorn_without_the_module_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, wsprotocol.PRIVATE, None)
    reason = wsprotocol.missing()
    assert reason is not None
    assert wsprotocol.PRIVATE in reason


def test_a_changed_class_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    base = DirectProtocol.__mro__[1]
    monkeypatch.delattr(base, "handle_connect")
    monkeypatch.delattr(DirectProtocol, "handle_connect")
    assert wsprotocol.missing() == "uvicorn's WebSocketsSansIOProtocol has no handle_connect()"


def test_what_is_missing_makes_servers_run_the_public_protocol(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(wsprotocol, "_MISSING", "uvicorn has no such class")
    assert wsprotocol.ws_protocol() == wsprotocol.PUBLIC
    assert "uvicorn has no such class" in caplog.text


@pytest.mark.slow
@pytest.mark.asyncio
async def test_a_server_on_the_public_protocol_serves_a_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PUNTO_TEST_WS", "public")
    async with (
        ledger_database("sqlite", tmp_path) as url,
        running_server(server_settings(url)) as running,
        TableClient.connect(running, "macau-1") as client,
    ):
        conns = running.node.hub.connections("macau-1")
        assert [conn.direct for conn in conns] == [False]  # sent through ASGI
        assert client.snapshot["table"]["id"] == "macau-1"
        await client.ws.send(json.dumps({"type": "ping", "request_id": "p"}))
        assert (await client.next_of("pong"))["request_id"] == "p"
        settled = await client.next_of("hand_settled", timeout=60)
        assert settled["event"]["game"]
