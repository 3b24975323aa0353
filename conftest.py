"""Pytest configuration shared by the doctests and the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

collect_ignore = ["src/punto/__main__.py", "src/punto/cli/__main__.py"]

# Property tests are deterministic and never timed: the same examples on every run (no
# example database, derandomized) and no per-example deadline, which a busy machine misses.
settings.register_profile("punto", derandomize=True, database=None, deadline=None)
settings.load_profile("punto")

_INTEGRATION_FILES = ("test_server_", "test_wallet_seamless")
"""Test files that start real servers: they run in the integration stage."""

_INTEGRATION_FOLDERS = ("web", "faults")
"""Folders of tests/ that drive a browser or inject faults: the integration stage too."""


def _is_integration(item: pytest.Item) -> bool:
    path = Path(str(item.path))
    return (
        any(folder in path.parts for folder in _INTEGRATION_FOLDERS)
        or path.name.startswith(_INTEGRATION_FILES)
        or item.get_closest_marker("slow") is not None
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests of the integration stage (``make integration``): real servers,
    Chromium, fault injection, fuzzing and everything marked ``slow``. ``make unit``
    runs the rest and stays well under five minutes."""
    for item in items:
        if _is_integration(item):
            item.add_marker(pytest.mark.integration)
