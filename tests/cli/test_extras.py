"""``punto`` alone needs only numpy and numba: the core imports and works with every
package of the ``server`` and ``ray`` extras refused, and the command line's core
commands run while a server command says which extra to install."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from punto.cli.extras import EXTRA_PACKAGES

BLOCKED = sorted(EXTRA_PACKAGES["server"] | EXTRA_PACKAGES["ray"])

_SCRIPT = textwrap.dedent(
    """
    import contextlib, io, json, sys

    BLOCKED = set(sys.argv[1].split(","))

    class Refuse:
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Refuse())

    import punto, punto.rules, punto.bets, punto.roads, punto.analysis, punto.simulation
    import punto.table, punto.codec, punto.limits, punto.settlement, punto.cli
    from punto.cards import parse_cards
    from punto.roads import RoadBoard, RoadResult

    rules = punto.rules.preset("macau")
    coup = punto.deal_coup(parse_cards("9S 8D KH 7C"))
    board = RoadBoard()
    board.add(RoadResult.from_outcome(coup))
    edge = punto.analysis.analyze(rules)
    run = punto.simulation.simulate(rules, hands=2000, seed=1, stream_hands=1000)
    answers = {}
    for argv in (["coup", "9S 8D KH 7C"], ["serve"], ["ledger", "check"]):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = punto.cli.main(argv)
        answers[argv[0]] = [status, out.getvalue(), err.getvalue()]
    loaded = sorted({name.partition(".")[0] for name in sys.modules} & BLOCKED)
    print(json.dumps({"winner": coup.winner.value, "hands": run.hands,
                      "answers": answers, "loaded": loaded}))
    """
)


@pytest.mark.slow
def test_the_core_and_its_commands_need_no_extra() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, ",".join(BLOCKED)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["loaded"] == []
    assert result["winner"] == "player"
    assert result["hands"] > 0
    status, out, _ = result["answers"]["coup"]
    assert status == 0
    assert "Player" in out
    for command in ("serve", "ledger"):
        status, _, err = result["answers"][command]
        assert status == 2
        assert f"punto {command} needs the 'server' extra" in err
        assert "install punto[server]" in err
