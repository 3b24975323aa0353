"""Operators as tenants: signatures, the operator model and launches on a real database
(the signed calls end to end against a production server are in test_server_launch)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from ledger_support import BACKENDS, ledger_database

from punto.errors import AuthError, ConflictError, ForbiddenError, NotFoundError, ProtocolError
from punto.ledger.signing import signature, verify
from punto.ledger.store import create_engine
from punto.server.operators.framing import REFRESH, FrameAncestors
from punto.server.operators.launch import SKEW, TOKEN_TTL, Launcher
from punto.server.operators.model import (
    check_currencies,
    check_origin,
    check_player_id,
    minor_units,
    user_id_of,
)
from punto.server.operators.registry import register
from punto.server.store.migrate import upgrade_async
from punto.server.store.operators import OperatorStore


@asynccontextmanager
async def operator_store(backend: str, tmp_path: Path) -> AsyncIterator[OperatorStore]:
    """An :class:`OperatorStore` on a fresh, migrated database of ``backend``."""
    async with ledger_database(backend, tmp_path) as url:
        await upgrade_async(url)
        engine = create_engine(url)
        try:
            yield OperatorStore(engine)
        finally:
            await engine.dispose()


class Now:
    """A clock the test moves by hand."""

    def __init__(self, at: float = 1_800_000_000.0) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at


def _body(now: Now, **changes: object) -> bytes:
    fields: dict[str, object] = {
        "player_id": "p-1",
        "display_name": "Ann",
        "currency": "EUR",
        "language": "en",
        "timestamp": int(now()),
    }
    fields.update(changes)
    return json.dumps({k: v for k, v in fields.items() if v is not None}).encode()


def test_minor_units_come_from_iso_4217() -> None:
    assert (minor_units("EUR"), minor_units("JPY"), minor_units("KRW")) == (2, 0, 0)
    assert (minor_units("BHD"), minor_units("KWD"), minor_units("CLF")) == (3, 3, 4)
    with pytest.raises(ProtocolError, match="ISO 4217"):
        minor_units("XXY")
    assert check_currencies(["eur", " usd", "EUR"]) == ("EUR", "USD")
    with pytest.raises(ProtocolError):
        check_currencies([])


@pytest.mark.parametrize("bad", ["", "a" * 48, "has space", "nul\x00", "semi;colon", "slash/", "ü"])
def test_a_player_id_is_short_plain_text(bad: str) -> None:
    with pytest.raises(ProtocolError):
        check_player_id(bad)
    assert check_player_id("user:42@brand.example") == "user:42@brand.example"
    assert user_id_of("acme", "42") == "acme.42"


@pytest.mark.parametrize(
    "bad",
    [
        "casino.example",
        "ftp://x.example",
        "https://x.example/path",
        "https://",
        "javascript:alert(1)",
    ],
)
def test_an_origin_is_scheme_and_host(bad: str) -> None:
    with pytest.raises(ProtocolError):
        check_origin(bad)
    assert check_origin("https://Casino.Example:8443") == "https://casino.example:8443"


def test_a_signature_is_hmac_sha256_of_the_raw_body() -> None:
    body = b'{"a": 1}'
    header = signature("k", body)
    verify("k", body, header)
    for wrong in (None, "", "md5=00", signature("k2", body), signature("k", body + b" ")):
        with pytest.raises(AuthError):
            verify("k", body, wrong)


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_launch_is_granted_once_and_refused_when_bad(backend: str, tmp_path: Path) -> None:
    async with operator_store(backend, tmp_path) as store:
        now = Now()
        acme, secret = await register(
            store, "acme", name="Acme", currencies=["EUR", "JPY"], now=now()
        )
        with pytest.raises(ConflictError):
            await register(store, "acme", name="Again", currencies=["EUR"], now=now())
        launcher = Launcher(store, now=now)
        body = _body(now)
        sig = signature(secret, body)
        operator = await launcher.authenticate("acme", body, sig)
        assert operator == acme
        for who, wrong in (("acme", signature("nope", body)), ("other", sig), (None, sig)):
            with pytest.raises(AuthError):
                await launcher.authenticate(who, body, wrong)
        asked = launcher.parse(body)
        await launcher.fresh(operator, asked.timestamp, sig)
        with pytest.raises(ConflictError, match="sent before"):
            await launcher.fresh(operator, asked.timestamp, sig)  # a replay
        granted = await launcher.launch(operator, asked, root="https://punto.example/app/")
        assert granted.first
        assert granted.user_id == "acme.p-1"
        assert granted.url.startswith("https://punto.example/app/?launch=")
        assert granted.url.endswith("#/")
        token = granted.url.split("launch=")[1].split("#")[0]
        # two redeem it at once: exactly one session
        answers = await asyncio.gather(
            launcher.redeem(token), launcher.redeem(token), return_exceptions=True
        )
        assert sum(not isinstance(a, BaseException) for a in answers) == 1
        assert sum(isinstance(a, AuthError) for a in answers) == 1
        record = next(a for a in answers if not isinstance(a, BaseException))
        assert record.user_id == "acme.p-1"
        assert record.details["currency"] == "EUR"
        with pytest.raises(AuthError, match="used or has expired"):
            await launcher.redeem("f" * 32)  # forged
        # a token unused for longer than its life is refused
        late = await launcher.launch(operator, asked, root="https://p.example")
        assert not late.first
        now.at += TOKEN_TTL + 1
        with pytest.raises(AuthError):
            await launcher.redeem(late.url.split("launch=")[1].split("#")[0])
        # a stale call, then each refusal of a field
        with pytest.raises(AuthError, match="timestamp"):
            await launcher.fresh(operator, int(now() - SKEW - 1), signature(secret, b"x"))
        for changes, message in (
            ({"currency": "USD"}, "has not enabled USD"),
            ({"currency": "ZZZ"}, "ISO 4217"),
            ({"language": "fr"}, "language"),
            ({"limit_group": "vip"}, "limit group"),
            ({"jurisdiction": "uk"}, "jurisdiction"),
            ({"player_id": "bad id"}, "player_id"),
        ):
            with pytest.raises(ProtocolError, match=message):
                await launcher.launch(
                    operator, launcher.parse(_body(now, **changes)), root="https://p"
                )
        for bad in (
            b"{",
            b"[]",
            _body(now, extra=1),
            _body(now, timestamp="1"),
            _body(now, lobby_url="javascript:alert(1)"),
            _body(now, display_name="a\x00"),
        ):
            with pytest.raises(ProtocolError):
                launcher.parse(bad)
        assert await store.player("acme.p-1") is not None
        assert await store.player("acme.bad id") is None
        # rotate and disable
        rotated = await store.rotate("acme", "new-secret")
        assert rotated.secret_version == 2
        with pytest.raises(AuthError):
            await launcher.authenticate("acme", body, sig)
        await store.set_disabled("acme", True)
        with pytest.raises(ForbiddenError):
            await launcher.authenticate("acme", body, signature("new-secret", body))
        with pytest.raises(NotFoundError):
            await store.rotate("nobody", "x")


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", BACKENDS)
async def test_first_launches_at_once_make_one_player(backend: str, tmp_path: Path) -> None:
    async with operator_store(backend, tmp_path) as store:
        now = Now()
        operator, _ = await register(store, "acme", name="Acme", currencies=["EUR"], now=now())
        launcher = Launcher(store, now=now)
        asked = launcher.parse(_body(now))
        granted = await asyncio.gather(
            *(launcher.launch(operator, asked, root="https://p") for _ in range(4))
        )
        assert sum(g.first for g in granted) == 1
        assert len({g.url for g in granted}) == 4  # each its own token


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", BACKENDS)
async def test_framing_origins_are_the_enabled_operators(backend: str, tmp_path: Path) -> None:
    async with operator_store(backend, tmp_path) as store:
        clock = Now(0.0)
        framing = FrameAncestors(store, monotonic=clock)
        assert await framing.origins() == ()
        await register(
            store, "acme", name="A", currencies=["EUR"], origins=["https://a.example"], now=1
        )
        await register(
            store, "beta", name="B", currencies=["EUR"], origins=["https://b.example"], now=1
        )
        assert await framing.origins() == ()  # read again only after REFRESH
        clock.at += REFRESH
        assert await framing.origins() == ("https://a.example", "https://b.example")
        await store.set_disabled("beta", True)
        framing.forget()
        assert await framing.origins() == ("https://a.example",)
