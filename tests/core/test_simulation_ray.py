"""The same run on a local Ray instance: independent streams, tallies merged exactly."""

from __future__ import annotations

import importlib
import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from types import ModuleType

import pytest

from punto.cli import main
from punto.rules import preset
from punto.simulation import simulate


@pytest.fixture(scope="module")
def ray() -> Iterator[ModuleType]:
    try:
        module = importlib.import_module("ray")
    except ImportError:  # pragma: no cover - the dev extra installs Ray
        pytest.skip("Ray is not installed (pip install 'punto[ray]')")
    module.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield module
    finally:
        module.shutdown()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_ray_run_equals_the_local_run(ray: ModuleType) -> None:
    rules = preset("live_tiger")
    local = simulate(rules, hands=250_000, seed=99, stream_hands=60_000)
    remote = simulate(rules, hands=250_000, seed=99, stream_hands=60_000, ray_address="auto")
    assert ray.is_initialized()
    assert remote.cell_counts == local.cell_counts
    assert (remote.hands, remote.shoes, remote.void_hands) == (
        local.hands,
        local.shoes,
        local.void_hands,
    )
    assert remote.bets == local.bets


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_cli_simulate_on_ray_equals_the_local_run(
    ray: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "--json", "--rules", "macau", "--hands", "120000", "--seed", "5"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*argv, "--ray", "auto"]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert ray.is_initialized()
    for key in ("hands", "shoes", "void_hands", "outcomes", "bets"):
        assert remote[key] == local[key], key


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_an_address_where_no_ray_cluster_answers_fails_at_once(scheme: str) -> None:
    # In a fresh process: this one may hold a Ray runtime already, which is then used.
    pytest.importorskip("ray")
    address = f"{scheme}127.0.0.1:{_closed_port()}"
    done = subprocess.run(
        [sys.executable, "-m", "punto", "simulate", "--rules", "macau", "--hands", "1000",
         "--ray", address],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    # It fails instead of waiting for a cluster: the subprocess's timeout bounds the wait.
    assert done.stderr.startswith(f"punto: error: no Ray cluster answers at '{address}'")
