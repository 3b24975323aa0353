"""``punto edge`` and ``punto simulate``, driven through their own ``register``."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from cli_support import command_line, json_output

from punto.cli import edge, simulate
from punto.cli.simulate import say_compiling

_main = command_line(edge, simulate)
"""What ``punto`` does with these two subcommands (see punto.cli.main)."""


def _json(capsys: pytest.CaptureFixture[str], argv: Sequence[str]) -> dict[str, object]:
    return json_output(capsys, _main, argv)


def test_edge_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys, ["edge", "--json", "--rules", "macau", "--decks", "8"])
    outcomes = doc["outcomes"]
    assert isinstance(outcomes, dict)
    assert set(outcomes) == {"banker", "player", "tie"}
    bets = doc["bets"]
    assert isinstance(bets, dict)
    assert set(bets) == {"player", "banker", "tie", "player_pair", "banker_pair"}
    banker = bets["banker"]
    assert {"house_edge", "rtp", "std_dev", "hit_frequency"} <= set(banker)
    assert round(banker["house_edge"], 6) == 0.010579
    assert banker["rtp"] == pytest.approx(1 - banker["house_edge"])
    assert doc["decks"] == 8


def test_edge_text_lists_every_bet(capsys: pytest.CaptureFixture[str]) -> None:
    assert _main(["edge", "--rules", "live_tiger", "--eor"]) == 0
    out = capsys.readouterr().out
    assert "big_tiger" in out
    assert "effect of removal" in out


def test_edge_json_effect_of_removal_for_every_bet_and_rank(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = _json(capsys, ["edge", "--json", "--rules", "live_tiger", "--decks", "6", "--eor"])
    effects = doc["effect_of_removal"]
    assert isinstance(effects, dict)
    bets = doc["bets"]
    assert isinstance(bets, dict)
    assert set(effects) == set(bets)
    for by_rank in effects.values():
        assert list(by_rank) == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
        # removing a card at random changes nothing on average (24 of each rank)
        assert sum(24 * value for value in by_rank.values()) == pytest.approx(0, abs=1e-12)


def test_edge_removed_and_remaining(capsys: pytest.CaptureFixture[str]) -> None:
    removed = _json(capsys, ["edge", "--json", "--decks", "1", "--removed", "AS", "KD,9H"])
    assert removed["cards"] == 49
    remaining = _json(capsys, ["edge", "--json", "--remaining", "A=4,5=10,T=12,9=3"])
    assert remaining["cards"] == 29
    assert "decks" not in remaining


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["edge", "--rules", "nope"], "unknown rules preset 'nope'"),
        (["edge", "--remaining", "A=x"], "expected RANK=COUNT"),
        (["edge", "--remaining", "A=3"], "cannot be analysed"),
        (["edge", "--decks", "1", "--removed", "AS", "AS"], "AS was removed 2 times"),
        (["edge", "--remaining", "A=10,K=10", "--removed", "2C"], "no 2 is left"),
        (["edge", "--decks", "13"], "decks must be 1-12"),
        (["edge", "--decks", "0"], "decks must be 1-12, not 0"),
        (["edge", "--removed", "ZZ"], "bad card code"),
        (["simulate", "--rules", "nope", "--hands", "10"], "unknown rules preset"),
        (["simulate", "--rules", "macau"], "--hands N"),
        (["simulate", "--rules", "macau", "--hands", "0"], "positive whole number"),
        (["simulate", "--rules", "macau", "--hands", "10", "--workers", "99"], "at most"),
        (
            ["simulate", "--rules", "macau", "--strategy", "flat", "--unit", "10.05"],
            "a unit of 10.05 does not pay a whole amount on Banker",
        ),
        (
            [
                "simulate",
                "--rules",
                "macau",
                "--strategy",
                "flat",
                "--unit",
                "10",
                "--bankroll",
                "5",
            ],
            "punto: error: a bankroll of 5.00 cannot cover one unit of 10.00\n",
        ),
        (
            ["simulate", "--rules", "macau", "--strategy", "flat", "--max-bet", "5"],
            "punto: error: the maximum bet 5.00 is below one unit of 10.00\n",
        ),
        (["simulate", "--rules", "macau", "--hands", "10", "--seed", "-1"], "seed must be"),
        (["simulate", "--rules", "macau", "--strategy", "flat", "--seed", "-1"], "seed must be"),
        (["simulate", "--rules", "macau", "--strategy", "flat", "--hands", "10"], "--hands is"),
        (["simulate", "--rules", "macau", "--strategy", "flat", "--ray", "auto"], "--ray is"),
    ],
)
def test_bad_input_is_a_typed_error_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert _main(argv) == 2
    assert message in capsys.readouterr().err


def test_decks_and_remaining_cannot_both_be_given() -> None:
    with pytest.raises(SystemExit) as exc:
        _main(["edge", "--decks", "8", "--remaining", "A=10"])
    assert exc.value.code == 2


def test_simulate_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--json", "--rules", "macau", "--hands", "200000", "--seed", "42"]
    doc = _json(capsys, argv)
    assert {"hands", "seconds", "hands_per_second", "compile_seconds", "outcomes", "bets"} <= set(
        doc
    )
    outcomes = doc["outcomes"]
    assert isinstance(outcomes, dict)
    assert set(outcomes) == {"banker", "player", "tie"}
    bets = doc["bets"]
    assert isinstance(bets, dict)
    banker = bets["banker"]
    assert set(banker) == {"observed_return", "ci95", "exact_return"}
    low, high = banker["ci95"]
    assert low <= banker["observed_return"] <= high
    assert banker["exact_return"] == pytest.approx(-0.010579, abs=1e-6)
    again = _json(capsys, argv)
    assert again["bets"] == doc["bets"]


def test_simulate_text_with_a_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--rules", "online_8deck", "--hands", "50000", "--seed", "1", "--progress"]
    assert _main(argv) == 0
    captured = capsys.readouterr()
    assert "super_tie_7" in captured.out
    assert "50,000/50,000 hands" in captured.err


def test_simulate_a_betting_system(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "simulate", "--json", "--rules", "macau", "--strategy", "martingale",
        "--pattern", "follow", "--unit", "10", "--bankroll", "500", "--sessions", "2000",
        "--session-hands", "80", "--seed", "3", "--max-bet", "1000",
    ]  # fmt: skip
    doc = _json(capsys, argv)
    assert doc["strategy"] == "martingale/follow"
    assert 0 < doc["risk_of_ruin"] < 1  # type: ignore[operator]
    assert doc["return"] < 0  # type: ignore[operator]
    assert _main([a for a in argv if a != "--json"]) == 0
    out = capsys.readouterr().out
    assert "risk of ruin" in out
    # Amounts in the table's major units, with its decimals and the thousands grouped.
    staked = f"staked {doc['total_staked'] / 100:,.2f}"  # type: ignore[operator]
    assert f"bets placed: {doc['bets']:,}, {staked}\n" in out
    mean = f"mean session result: {doc['mean_net'] / 100:,.2f}\n"  # type: ignore[operator]
    assert mean in out


def test_a_first_run_says_it_compiles_on_standard_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    say_compiling(None)
    say_compiling(4.23)
    captured = capsys.readouterr()
    assert captured.err == "compiling the shoe loop (first run only)… 4.2 s\n"
    assert captured.out == ""
