"""``punto operators``: register an operator and see its secret once, list, show, rotate
its secret, disable and enable it; every bad argument is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import punto_output


def test_an_operator_is_registered_rotated_and_disabled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--database-url", f"sqlite:///{tmp_path / 'ops.sqlite3'}"]
    status, out, _ = punto_output(capsys, "operators", "list", *db)
    assert (status, out.startswith("no operators yet")) == (0, True)
    status, out, _ = punto_output(
        capsys,
        "operators",
        "add",
        "acme",
        "--name",
        "Acme",
        "--currencies",
        "eur,JPY,KWD",
        "--wallet-url",
        "https://wallet.acme.example/punto",
        "--origin",
        "https://acme.example",
        "--json",
        *db,
    )
    assert status == 0
    added = json.loads(out)
    assert added["currencies"] == ["EUR", "JPY", "KWD"]
    assert added["origins"] == ["https://acme.example"]
    assert added["secret"].startswith("pso_")
    status, out, _ = punto_output(capsys, "operators", "show", "acme", "--json", *db)
    shown = json.loads(out)
    assert "secret" not in shown  # shown once, at registration only
    assert shown["secret_version"] == 1
    status, out, _ = punto_output(capsys, "operators", "rotate-secret", "acme", *db)
    assert status == 0
    assert "secret: pso_" in out
    assert added["secret"] not in out
    status, out, _ = punto_output(capsys, "operators", "disable", "acme", "--json", *db)
    assert json.loads(out)["disabled"] is True
    status, out, _ = punto_output(capsys, "operators", "enable", "acme", *db)
    assert " enabled " in out
    assert "secret v2" in out
    status, out, _ = punto_output(capsys, "operators", "list", "--json", *db)
    assert [o["id"] for o in json.loads(out)["operators"]] == ["acme"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["add", "acme", "--name", "Again", "--currencies", "EUR"], "taken"),
        (["add", "Bad Id", "--name", "X", "--currencies", "EUR"], "operator id"),
        (["add", "beta", "--name", "X", "--currencies", "EURO"], "ISO 4217"),
        (["add", "beta", "--name", "X", "--currencies", ","], "at least one currency"),
        (
            ["add", "beta", "--name", "X", "--currencies", "EUR", "--origin", "acme.example"],
            "origin",
        ),
        (["add", "beta", "--name", "X", "--currencies", "EUR", "--languages", "fr"], "languages"),
        (
            ["add", "beta", "--name", "X", "--currencies", "EUR", "--wallet-url", "ftp://w"],
            "wallet URL",
        ),
        (["show", "nobody"], "no operator"),
        (["rotate-secret", "nobody"], "no operator"),
        (["disable", "nobody"], "no operator"),
    ],
)
def test_a_bad_operator_command_is_one_line_and_exit_2(
    args: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--database-url", f"sqlite:///{tmp_path / 'ops.sqlite3'}"]
    assert (
        punto_output(capsys, "operators", "add", "acme", "--name", "A", "--currencies", "EUR", *db)[
            0
        ]
        == 0
    )
    status, out, err = punto_output(capsys, "operators", *args, *db)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1, err
    assert says in err
    status, out, _ = punto_output(capsys, "operators", "list", "--json", *db)
    assert [o["id"] for o in json.loads(out)["operators"]] == ["acme"]  # nothing changed
