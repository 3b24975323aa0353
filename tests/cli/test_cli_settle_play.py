"""``punto settle`` and ``punto play``, driven in-process."""

from __future__ import annotations

import io
import json

import pytest
from coup_support import COUP_KEYS

from punto.bets import Bet
from punto.cli import main
from punto.cli.play import HELP, Game
from punto.dealing import HandDealt
from punto.errors import AmountError, BetError, TableBalanceError
from punto.money import parse_amount
from punto.rules import PRESETS, Rules, preset
from punto.settlement import refund, settle

BANKER_NATURAL_8_BEATS_5 = ["2S", "9H", "3D", "9C"]


def run(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    stdin: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def settle_json(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    rules: str,
    bets: str,
    cards: list[str],
) -> dict[str, object]:
    status, out, err = run(
        capsys, monkeypatch, ["settle", "--json", "--rules", rules, "--bets", bets, *cards]
    )
    assert (status, err) == (0, "")
    answer: dict[str, object] = json.loads(out)
    return answer


# -- punto settle: JSON ----------------------------------------------------------------


def test_settle_json_is_the_coup_plus_net_and_total_net(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = settle_json(
        capsys, monkeypatch, "macau", "banker=100,player=100,tie=10", BANKER_NATURAL_8_BEATS_5
    )
    assert list(answer) == [*COUP_KEYS, "net", "total_net"]
    status, coup_out, _ = run(capsys, monkeypatch, ["coup", "--json", *BANKER_NATURAL_8_BEATS_5])
    assert status == 0
    assert {k: answer[k] for k in COUP_KEYS} == json.loads(coup_out)
    assert answer["net"] == {"banker": 95, "player": -100, "tie": -10}
    assert answer["total_net"] == -15


def test_settle_json_worked_examples(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    player = settle_json(capsys, monkeypatch, "macau", "player=100", ["9S", "8D", "KH", "7C"])
    assert (player["net"], player["total_net"]) == ({"player": 100}, 100)
    half = settle_json(
        capsys, monkeypatch, "no_commission", "banker=100", ["KS", "3H", "4D", "3C", "KC"]
    )
    assert (half["winner"], half["banker_total"], half["net"]) == ("banker", 6, {"banker": 50})
    push = settle_json(
        capsys, monkeypatch, "online_8deck", "banker=100,player=100", ["5S", "4H", "2D", "3C"]
    )
    assert (push["net"], push["total_net"]) == ({"banker": 0, "player": 0}, 0)
    tie = settle_json(capsys, monkeypatch, "macau", "tie=10", ["5S", "4H", "2D", "3C"])
    assert tie["net"] == {"tie": 80}


def test_settle_json_fractional_net_is_exact(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = settle_json(capsys, monkeypatch, "macau", "banker=12.5", BANKER_NATURAL_8_BEATS_5)
    # 12.50 x 0.95 = 11.875 -> 11.87 under the macau table's FLOOR rule.
    assert answer["net"] == {"banker": 11.87}
    assert answer["total_net"] == 11.87


def test_settle_amounts_on_the_same_bet_add_up(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = settle_json(capsys, monkeypatch, "macau", "tie=5, tie=5", ["5S", "4H", "2D", "3C"])
    assert answer["net"] == {"tie": 80}


def test_settle_text_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(
        capsys,
        monkeypatch,
        [
            "settle",
            "--rules",
            "macau",
            "--bets",
            "banker=100,player=100",
            *BANKER_NATURAL_8_BEATS_5,
        ],
    )
    assert status == 0
    assert out.splitlines() == [
        "Player 2S 3D = 5 | Banker 9H 9C = 8 | banker wins, natural, banker pair",
        "  banker 100: win +95",
        "  player 100: lose -100",
        "  total -5",
    ]


# -- punto settle: line mode -----------------------------------------------------------


def test_settle_line_mode_answers_each_line_and_an_error_object_for_a_bad_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "2S 9H 3D 9C\nZZ 9H\n5S 4H 2D\n9S 8D KH 7C\n"
    status, out, err = run(
        capsys,
        monkeypatch,
        ["settle", "--json", "--rules", "macau", "--bets", "banker=100"],
        stdin,
    )
    assert (status, err) == (1, "")
    first, bad, short, last = (json.loads(line) for line in out.splitlines())
    assert first["net"] == {"banker": 95}
    assert bad["type"] == "CardError"
    assert "bad card code 'ZZ'" in bad["error"]
    assert short == {
        "error": "the coup is not complete: the Banker's second card is missing",
        "type": "IncompleteCoupError",
    }
    assert (last["winner"], last["net"], last["total_net"]) == ("player", {"banker": -100}, -100)


def test_settle_line_mode_all_good_exits_0(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(
        capsys,
        monkeypatch,
        ["settle", "--json", "--rules", "live_tiger", "--bets", "lucky6=10,small_tiger=10"],
        "KS 3H 4D 3C KC\nKS 2H 4D KC KD 4S\n",
    )
    assert status == 0
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["net"] for a in answers] == [
        {"lucky6": 120, "small_tiger": 220},
        {"lucky6": 200, "small_tiger": -10},
    ]


def test_settle_text_line_mode_prints_an_error_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = run(
        capsys,
        monkeypatch,
        ["settle", "--rules", "macau", "--bets", "tie=10"],
        "XX\n5S 4H 2D 3C\n",
    )
    assert status == 1
    lines = out.splitlines()
    assert len(lines) == 2  # one answer line per input line
    assert lines[0].startswith("error: bad card code 'XX'")
    assert lines[1] == "Player 5S 2D = 7 | Banker 4H 3C = 7 | tie | tie 10: win +80; total +80"


# -- punto settle: refused input -------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "macau", "--bets", "dragon=10"], "unknown bet 'dragon'; bets are player"),
        (["--rules", "macau", "--bets", "banker=abc"], "Banker bet: amount 'abc' is not a number"),
        (["--rules", "macau", "--bets", "banker=0"], "Banker bet: amount '0' must be positive"),
        (["--rules", "macau", "--bets", "banker=1.005"], "more than 2 decimal places"),
        (["--rules", "macau", "--bets", "banker=1e999999999"], "is too large"),
        (["--rules", "macau", "--bets", "banker=1e-999999999"], "more than 2 decimal places"),
        (["--rules", "macau", "--bets", "banker"], "bet 'banker' is not NAME=AMOUNT"),
        (["--rules", "macau", "--bets", ","], "no bets given"),
        (["--rules", "macau", "--bets", "lucky6=10"], "Lucky 6 is not offered at a macau table"),
        (["--rules", "nope", "--bets", "banker=10"], "unknown rules preset 'nope'"),
    ],
)
def test_settle_refuses_bad_bets_with_exit_2_and_a_clear_message(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    status, out, err = run(
        capsys, monkeypatch, ["settle", *argv, *BANKER_NATURAL_8_BEATS_5], "2S 9H 3D 9C\n"
    )
    assert (status, out) == (2, "")
    assert err.startswith("punto: error: ")
    assert message in err


def test_settle_bad_cards_given_as_arguments_exit_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, err = run(
        capsys, monkeypatch, ["settle", "--rules", "macau", "--bets", "tie=10", "2S", "9H"]
    )
    assert status == 2
    assert "the coup is not complete" in err


def test_settle_needs_rules_and_bets(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        run(capsys, monkeypatch, ["settle", "--rules", "macau", "2S"])
    assert exit_info.value.code == 2
    assert "--bets" in capsys.readouterr().err


# -- punto settle --tier ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rules", "macau", "--tier", "low", "--bets", "banker=25"], "multiple of the table"),
        (
            ["--rules", "macau", "--tier", "low", "--bets", "player=1500"],
            "Player bet 1,500.00 is above this table's maximum of 1,000.00",
        ),
        (
            ["--rules", "macau", "--tier", "standard", "--bets", "player=40"],
            "Player bet 40.00 is below this table's minimum of 50.00",
        ),
        (
            ["--rules", "super_punto_banco", "--tier", "low", "--bets", "banker=10,player=10"],
            "on Player or on Banker, not both (Tie is always allowed)\n",
        ),
        (
            ["--rules", "online_8deck", "--tier", "low", "--hand", "31", "--bets", "big=10"],
            "Big is closed from hand 31",
        ),
        (["--rules", "macau", "--tier", "gold", "--bets", "banker=10"], "unknown limit tier"),
    ],
)
def test_settle_tier_checks_the_limits(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    status, out, err = run(capsys, monkeypatch, ["settle", *argv, *BANKER_NATURAL_8_BEATS_5])
    assert (status, out) == (2, "")
    assert message in err


def test_settle_tier_accepts_bets_within_the_limits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for argv in (
        ["--rules", "macau", "--tier", "low", "--bets", "banker=30,player=15"],
        ["--rules", "online_8deck", "--tier", "low", "--hand", "30", "--bets", "big=10"],
        ["--rules", "macau", "--bets", "banker=25"],  # no --tier: no limits
    ):
        status, _, err = run(capsys, monkeypatch, ["settle", *argv, *BANKER_NATURAL_8_BEATS_5])
        assert (status, err) == (0, "")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--rules", "online_8deck", "--hand", "31", "--bets", "big=10"],
            "punto: error: --hand N is the hand number the limits are checked at: give --tier too",
        ),
        (
            ["--rules", "online_8deck", "--tier", "low", "--hand", "0", "--bets", "big=10"],
            "punto: error: hand numbers count from 1 in a shoe, not 0",
        ),
    ],
)
def test_o_settle_hand_needs_a_tier_and_counts_from_1(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    message: str,
) -> None:
    status, out, err = run(capsys, monkeypatch, ["settle", *argv, *BANKER_NATURAL_8_BEATS_5])
    assert (status, out, err) == (2, "", message + "\n")


def test_settle_reads_cards_in_one_argument_as_on_a_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    answer = settle_json(capsys, monkeypatch, "macau", "banker=100", ["2S 9H,3D", "9C"])
    assert answer["net"] == {"banker": 95}


# -- punto play ------------------------------------------------------------------------


PLAIN_PRESETS = sorted(n for n, r in PRESETS.items() if r.lightning is None and r.peek is None)
"""Presets whose hands settle by the paytables alone ([LB] and [PK] tables add fees and
multipliers: tests/cli/test_cli_variants.py)."""


def make_game(rules: Rules, balance: str = "1000", tier: str = "low") -> tuple[Game, list[str]]:
    lines: list[str] = []
    sleeps: list[float] = []
    game = Game(
        rules=rules,
        balance=parse_amount(balance),
        tier=tier,
        seed=11,
        delay=0.25,
        write=lines.append,
        sleep=sleeps.append,
    )
    return game, lines


def last_hand(game: Game) -> HandDealt:
    return [e for e in game.dealer.events if isinstance(e, HandDealt)][-1]


def expected_net(game: Game, bets: dict[Bet, int]) -> int:
    hand = last_hand(game)
    result = refund(bets) if hand.void else settle(game.rules, hand.outcome, bets)
    return result.total_net


def test_play_places_bets_deals_and_settles() -> None:
    game, lines = make_game(preset("macau"))
    sleeps: list[float] = []
    game.sleep = sleeps.append
    start = game.balance
    assert game.command("banker 100 tie 10")
    bets = {Bet.BANKER: 10_000, Bet.TIE: 1_000}
    assert "hand 1: bets banker 100.00, tie 10.00" in lines
    hand = last_hand(game)
    assert sleeps == [0.25] * hand.outcome.cards_used
    assert game.balance == start + expected_net(game, bets)
    assert lines[-1] == f"balance {game.money(game.balance)}"
    net = expected_net(game, bets)
    assert f"  total {'+' if net >= 0 else ''}{net / 100:,.2f}" in lines  # as the table says it
    assert any(line.startswith("  banker 100.00: ") for line in lines)
    assert game.last_bets == bets


def test_play_accepts_name_equals_amount_and_commas() -> None:
    game, lines = make_game(preset("macau"))
    game.command("player=20, tie=5")
    assert "hand 1: bets player 20.00, tie 5.00" in lines


def test_play_rebet_repeats_the_last_bets() -> None:
    game, lines = make_game(preset("no_commission"))
    game.command("player 50")
    after_first = game.balance
    game.command("rebet")
    assert "hand 2: bets player 50.00" in lines
    assert game.balance == after_first + expected_net(game, {Bet.PLAYER: 5_000})
    game.command("r")
    assert "hand 3: bets player 50.00" in lines


def test_play_rebet_with_no_earlier_bets_is_an_error() -> None:
    game, lines = make_game(preset("macau"))
    game.command("d")
    assert game.dealer.hands_dealt == 1
    game.command("r")
    assert lines[-1] == "error: no earlier bets to repeat"
    assert game.dealer.hands_dealt == 1


@pytest.mark.parametrize(
    ("name", "command", "message"),
    [
        (
            "macau",
            "banker 25",
            "error: Banker bet 25.00 must be a multiple of the table minimum 10.00",
        ),
        ("macau", "player 5", "error: Player bet 5.00 is below this table's minimum of 10.00"),
        ("macau", "tie 600", "error: Tie bet 600.00 is above this table's maximum of 500.00"),
        ("macau", "lucky6 10", "error: Lucky 6 is not offered at a macau table"),
        ("super_punto_banco", "player 10 banker 10", "error: this table takes bets on Player"),
        ("macau", "banker 1000 player 1000", "bets of 2,000.00 exceed your balance of 1,000.00"),
        ("macau", "dragon 10", "error: unknown bet 'dragon'"),
        ("macau", "banker 0", "error: Banker bet: amount '0' must be positive"),
        ("macau", "banker ten", "error: Banker bet: amount 'ten' is not a number"),
        ("macau", "banker", "error: bets come in pairs"),
    ],
)
def test_play_refuses_bets_with_an_error_line_and_the_balance_unchanged(
    name: str, command: str, message: str
) -> None:
    game, lines = make_game(preset(name))
    start = game.balance
    assert game.command(command)
    assert lines[-1].startswith("error: ")
    assert message in lines[-1]
    assert game.balance == start
    assert game.dealer.hands_dealt == 0


@pytest.mark.parametrize("name", PLAIN_PRESETS)
def test_play_offers_every_bet_of_the_preset(name: str) -> None:
    rules = preset(name)
    game, lines = make_game(rules, balance="100000")
    listing = game.describe_table()
    for bet in rules.offered_bets:
        assert any(line.split()[0] == bet.value for line in listing[1:])
        low, _ = rules.tier("low").limits_for(bet)
        before = game.balance
        lines.clear()
        game.command(f"{bet.value} {low // 100}")
        assert not any(line.startswith("error") for line in lines), lines
        assert game.balance == before + expected_net(game, {bet: low})
    game.command("bets")
    assert lines[-len(listing) :] == listing


@pytest.mark.parametrize("name", PLAIN_PRESETS)
def test_play_balance_after_settlement_is_start_plus_net(name: str) -> None:
    rules = preset(name)
    game, lines = make_game(rules, balance="100000")
    side = [b.value for b in rules.offered_bets if b not in (Bet.PLAYER, Bet.BANKER)]
    balance = game.balance
    for hand in range(40):
        words = ["banker", "20"] + (["player", "10"] if not rules.one_side_only else [])
        words += [side[hand % len(side)], "5"]
        closed = rules.close_from_hand.get(Bet(words[-2]))
        if closed is not None and game.dealer.next_hand_number >= closed:
            words = words[:-2]
        game.command(" ".join(words))
        assert not lines[-1].startswith("error"), lines[-1]
        bets = game.parse_bets(words)
        balance += expected_net(game, bets)
        assert game.balance == balance


def test_play_past_the_end_of_a_shoe_starts_a_new_shoe() -> None:
    rules = preset("macau").replace(decks=1)
    game, lines = make_game(rules)
    balance = game.balance
    hands = 0
    for _ in range(52):  # a one-deck shoe cannot hold more hands
        if game.shoes > 1:
            break
        game.command("player 10")
        assert not lines[-1].startswith("error"), lines[-1]
        hands += 1
        balance += expected_net(game, {Bet.PLAYER: 1_000})
        if game.dealer.finished:
            assert lines[-1] == "-- the shoe is finished; the next hand starts a new shoe"
    assert hands >= 3  # at least two hands in the first shoe, then one in the second
    assert game.shoes == 2
    assert game.dealer.hands_dealt == 1
    assert game.balance == balance
    end = lines.index("-- the shoe is finished; the next hand starts a new shoe")
    assert lines[end + 1].startswith("-- new shoe (1 decks), commitment ")
    assert lines[end + 2] == "hand 1: bets player 10.00"


def test_s5_play_returns_the_bets_of_a_void_hand() -> None:
    rules = preset("super_punto_banco").replace(decks=1, cut_min_from_end=6, cut_max_from_end=6)
    game, lines = make_game(rules)
    for _ in range(52):
        before = game.balance
        game.command("banker 10 tie 5")
        if last_hand(game).void:
            break
    assert last_hand(game).void
    assert any(line.startswith("VOID: [S5]") for line in lines)
    assert game.balance == before


def test_play_errors_are_typed_and_change_nothing() -> None:
    game, _ = make_game(preset("macau"))
    with pytest.raises(TableBalanceError, match=r"exceed your balance of 1,000\.00$"):
        game.place_and_deal({Bet.BANKER: 100_000, Bet.PLAYER: 10_000})
    with pytest.raises(BetError, match="bets come in pairs"):
        game.parse_bets(["banker"])
    with pytest.raises(AmountError, match=r"Tie bet: amount '0\.001' has more than 2 decimal"):
        game.parse_bets(["tie", "0.001"])
    assert (game.balance, game.dealer.hands_dealt) == (100_000, 0)


@pytest.mark.parametrize(
    ("name", "changes", "rule"),
    [
        ("macau", {}, "  rule: Banker bets in multiples of 10.00"),
        ("macau", {}, "  rule: Banker and Player bets may differ by at most 200,000.00"),
        ("super_punto_banco", {}, "  rule: Player or Banker, not both; Tie always allowed"),
        (
            "online_8deck",
            {},
            "  rule: big, small, super_tie_0, super_tie_1, super_tie_2, super_tie_3, "
            "super_tie_4, super_tie_5, super_tie_6, super_tie_7, super_tie_8, super_tie_9 "
            "closed from hand 31 of a shoe",
        ),
        (
            "live_tiger",
            {"tiger_with_main": False},
            "  rule: no Tiger bets together with Player or Banker",
        ),
    ],
)
def test_play_bets_lists_the_table_rules_it_enforces(
    name: str, changes: dict[str, object], rule: str
) -> None:
    game, _ = make_game(preset(name).replace(**changes))
    assert rule in game.describe_table()


def test_play_bets_lists_no_rule_the_table_does_not_have() -> None:
    game, _ = make_game(preset("live_tiger"))
    assert not [line for line in game.describe_table() if line.startswith("  rule:")]


@pytest.mark.parametrize(
    ("delay", "message"),
    [("-1", "'-1' must be 0 or more seconds"), ("nan", "'nan' must be 0 or more"), ("x", "'x'")],
)
def test_play_delay_must_be_0_or_more_seconds(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    delay: str,
    message: str,
) -> None:
    with pytest.raises(SystemExit) as info:
        run(capsys, monkeypatch, ["play", "--delay", delay], "banker 10\nq\n")
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"punto: error: argument --delay: {message}" in err


def test_play_help_empty_line_and_quit() -> None:
    game, lines = make_game(preset("macau"))
    assert game.command("")
    assert game.command("help")
    assert lines[-1] == HELP
    assert not game.command("q")
    assert not game.command("quit")


def test_play_command_line_session(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = run(
        capsys,
        monkeypatch,
        ["play", "--rules", "live_tiger", "--seed", "3", "--delay", "0", "--balance", "500"],
        "banker 10 small_tiger 5\nplayer 2000\nq\n",
    )
    assert (status, err) == (0, "")
    assert "hand 1: bets banker 10.00, small_tiger 5.00" in out
    assert "error: Player bet 2,000.00 is above this table's maximum of 1,000.00" in out
    assert "final balance" in out


def test_play_unknown_tier_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, err = run(capsys, monkeypatch, ["play", "--tier", "gold", "--delay", "0"])
    assert status == 2
    assert "unknown limit tier 'gold'" in err
