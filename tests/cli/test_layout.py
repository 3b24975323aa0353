"""The package's layout: no module imports itself back through others (an import cycle
hides which concept depends on which), and the pure core knows no command line."""

from __future__ import annotations

import ast
import socket
from pathlib import Path

import pytest

from punto.cli.cluster import check_ray_address
from punto.errors import SimulationError

SRC = Path(__file__).resolve().parents[2] / "src"


def _modules() -> dict[str, Path]:
    found = {}
    for path in (SRC / "punto").rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """Every punto module ``path`` imports, anywhere (type-checking imports too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name in modules}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, modules) - {name} for name, path in modules.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph``, if it has any."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for other in sorted(graph[name]):
            if state.get(other) == 1:
                return [*path[path.index(other) :], other]
            if other not in state:
                found = visit(other)
                if found:
                    return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


def test_no_module_imports_itself_back() -> None:
    cycle = _cycle(_graph())
    assert cycle is None, " -> ".join(cycle or [])


def test_limits_and_rules_do_not_import_each_other() -> None:
    graph = _graph()
    assert "punto.limits" not in graph["punto.rules"]
    assert "punto.tiers" in graph["punto.rules"]


def test_the_simulator_has_no_terminal_or_socket_code() -> None:
    source = (SRC / "punto" / "simulation.py").read_text(encoding="utf-8")
    assert "import socket" not in source
    assert "stderr" not in source
    assert not {name for name in _graph()["punto.simulation"] if name.startswith("punto.cli")}


def test_the_command_line_fails_at_once_where_no_ray_cluster_answers() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(SimulationError, match="no Ray cluster answers"):
        check_ray_address(f"127.0.0.1:{port}")
    check_ray_address("auto")  # left to Ray
