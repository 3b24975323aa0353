"""``punto operators check``: the conformance kit passes against both reference operators
(on a real loopback port) and fails, naming the case, against broken ones."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from dialect_support import SECRET, key, reference, serving
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from punto.cli import main
from punto.ledger import operator_hub88, operator_ref


def _check(*args: str) -> tuple[int, dict[str, Any]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["operators", "check", *args, "--player", "ann", "--json"])
    return status, json.loads(out.getvalue()) if out.getvalue() else {}


def _signing(dialect: str, tmp_path: Path) -> list[str]:
    if dialect == "punto":
        return ["--secret", SECRET]
    pem = tmp_path / "punto.pem"
    pem.write_text(key())
    return ["--key", str(pem)]


@pytest.mark.parametrize("dialect", ["punto", "hub88"])
def test_the_kit_passes_against_each_reference_operator(dialect: str, tmp_path: Path) -> None:
    operator, app, root = reference(dialect, {"ann": 100_000})
    with serving(app) as base:
        status, report = _check(
            "--wallet-url", base + root, "--dialect", dialect, "--currency", "EUR",
            *_signing(dialect, tmp_path),
        )  # fmt: skip
    assert status == 0, report
    assert [case["ok"] for case in report["cases"]] == [True] * 11
    assert operator.balances["ann"] == 100_000  # the kit leaves the balance where it was


class _Forgetful(operator_ref.ReferenceOperator):
    """Ignores idempotency: every debit moves money, replayed or not."""

    def _seen(self, tid: str, wanted: Any) -> Any:
        return None


def test_the_kit_names_the_cases_a_broken_operator_fails(tmp_path: Path) -> None:
    with serving(operator_ref.create_app(_Forgetful({"ann": 100_000}), secret=SECRET)) as base:
        status, report = _check(
            "--wallet-url", base + "/wallet", "--dialect", "punto", "--currency", "EUR",
            "--secret", SECRET,
        )  # fmt: skip
    assert status == 1
    failed = {case["name"] for case in report["cases"] if not case["ok"]}
    assert "replayed bet" in failed
    assert "balance" not in failed


def test_the_kit_fails_an_operator_that_takes_bad_signatures(tmp_path: Path) -> None:
    _, app, _ = reference("hub88", {"ann": 100_000}, signed=False)
    with serving(app) as base:
        status, report = _check(
            "--wallet-url", base, "--dialect", "hub88", "--currency", "EUR",
            *_signing("hub88", tmp_path),
        )  # fmt: skip
    assert status == 1
    assert [c["name"] for c in report["cases"] if not c["ok"]] == ["bad signature refused"]


def test_the_kit_reports_a_wallet_that_does_not_answer_and_does_not_hang() -> None:
    async def hang(request: Request) -> JSONResponse:
        await asyncio.sleep(3)  # far past the kit's timeout
        return JSONResponse({})

    app = Starlette(routes=[Route("/wallet/{rest:path}", hang, methods=["GET", "POST"])])
    with serving(app) as base:
        status, report = _check(
            "--wallet-url", base + "/wallet", "--dialect", "punto", "--currency", "EUR",
            "--secret", SECRET, "--timeout", "0.3",
        )  # fmt: skip
    assert status == 1
    cases = {case["name"]: case for case in report["cases"]}
    assert "no answer within 0.3 s" in cases["balance"]["detail"]
    assert not cases["timeouts"]["ok"]


def test_bad_arguments_are_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["operators", "check", "--player", "ann"]) == 2
    assert main(["operators", "check", "--wallet-url", "http://x", "--dialect", "hub88",
                 "--currency", "EUR", "--player", "ann"]) == 2  # fmt: skip
    assert "--key" in capsys.readouterr().err


def test_the_kit_checks_a_registered_hub88_operator_with_its_own_key(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        added = main(["operators", "add", "hubco", "--name", "Hub Co", "--currencies", "JPY",
                      "--dialect", "hub88", "--wallet-url", "http://placeholder",
                      "--database-url", url, "--json"])  # fmt: skip
    assert added == 0
    public = json.loads(out.getvalue())["wallet_public_key"]
    assert public.startswith("-----BEGIN PUBLIC KEY-----")
    operator = operator_hub88.Hub88Operator({"ann": 5_000}, currency="JPY")
    with serving(operator_hub88.create_app(operator, public_key=public)) as base:
        import sqlite3

        with sqlite3.connect(tmp_path / "server.sqlite3") as db:
            db.execute("UPDATE server_operators SET wallet_url = ? WHERE id = 'hubco'", (base,))
        status, report = _check("hubco", "--database-url", url)
    assert status == 0, report
    assert report["currency"] == "JPY"
    assert operator.balances["ann"] == 5_000
