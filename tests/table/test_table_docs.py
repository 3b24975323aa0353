"""docs/table.md stays true: its fault table is the data of ``FAULTS`` and its example runs."""

from __future__ import annotations

import re
from pathlib import Path

from punto.table import FAULTS, Table

DOC = Path(__file__).resolve().parents[2] / "docs" / "table.md"


def test_the_documented_fault_table_is_the_fault_data() -> None:
    text = DOC.read_text(encoding="utf-8")
    for fault, spec in FAULTS.items():
        row = f"| `{fault.name}` | {spec.rule} | {spec.case} | `{spec.effect.value}` | "
        assert row + spec.effect_text + " |" in text, f"docs/table.md lacks {fault.name}"


def test_the_documented_example_runs() -> None:
    text = DOC.read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code is not None
    namespace: dict[str, object] = {}
    exec(compile(code.group(1), str(DOC), "exec"), namespace)
    table = namespace["table"]
    assert isinstance(table, Table)
    assert table.money_check()
    assert len(table.records()) == 1
