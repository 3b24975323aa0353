"""The same run on a local Ray instance: independent streams, tallies merged exactly."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType

import pytest

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
