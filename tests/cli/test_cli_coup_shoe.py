"""``punto coup`` and ``punto shoe``, run in-process through :func:`punto.cli.main`."""

from __future__ import annotations

import io
import json
from collections import Counter
from typing import Any

import pytest
from coup_support import COUP_KEYS

from punto.cards import deck, parse_cards
from punto.cli import main
from punto.rules import preset, preset_names
from punto.shoe import commitment_of


def run(
    capsys: pytest.CaptureFixture[str],
    *argv: str,
    stdin: str | None = None,
    monkeypatch: pytest.MonkeyPatch | None = None,
) -> tuple[int, str, str]:
    """Run ``punto ARGV``; return its exit status, stdout and stderr."""
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def json_lines(text: str) -> list[Any]:
    return [json.loads(line) for line in text.splitlines()]


# -- punto coup CARD... -------------------------------------------------------------------


def test_coup_text_answer(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "coup", "9S", "8D", "KH", "7C")
    assert (status, err) == (0, "")
    assert out == "Player 9S KH = 9 | Banker 8D 7C = 5 | player wins, natural\n"


def test_coup_text_answer_with_draws_and_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "coup", "JS", "QH", "JD", "QC", "2S", "3S")
    assert status == 0
    assert out == (
        "Player JS JD 2S = 2 | Banker QH QC 3S = 3 | banker wins, player pair, banker pair\n"
    )


def test_coup_json_has_exactly_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "coup", "--json", "4S", "7H", "KD", "8C", "5S", "2D")
    assert status == 0
    (answer,) = json_lines(out)
    assert list(answer) == COUP_KEYS
    assert answer == {
        "player": ["4S", "KD", "5S"],
        "banker": ["7H", "8C", "2D"],
        "player_total": 9,
        "banker_total": 7,
        "winner": "player",
        "natural": False,
        "player_pair": False,
        "banker_pair": False,
        "cards_used": 6,
    }


def test_coup_reads_lowercase_and_ten_as_10(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "coup", "--json", "10s", "9d", "kh", "9c")
    assert status == 0
    assert json_lines(out)[0]["player"] == ["TS", "KH"]


def test_coup_ignores_extra_cards(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "coup", "--json", "9S", "8D", "KH", "7C", "2C", "3C")
    assert status == 0
    answer = json_lines(out)[0]
    assert answer["cards_used"] == 4
    assert answer["banker"] == ["8D", "7C"]


@pytest.mark.parametrize(
    ("cards", "missing"),
    [
        (["4S"], "Banker's first card"),
        (["4S", "7H", "KD"], "Banker's second card"),
        (["4S", "7H", "KD", "8C"], "Player's third card"),
        (["4S", "7H", "KD", "8C", "5S"], "Banker's third card"),
    ],
)
def test_coup_too_few_cards_names_the_missing_position(
    capsys: pytest.CaptureFixture[str], cards: list[str], missing: str
) -> None:
    status, out, err = run(capsys, "coup", *cards)
    assert status == 2
    assert out == ""
    assert err == f"punto: error: the coup is not complete: the {missing} is missing\n"


@pytest.mark.parametrize(
    "cards", [["4S 7H KD 8C 5S 2D"], ["4S,7H,KD,8C,5S,2D"], ["4S 7H", "KD,8C", "5S", "2D"]]
)
def test_coup_reads_cards_in_one_argument_as_on_a_line(
    capsys: pytest.CaptureFixture[str], cards: list[str]
) -> None:
    status, out, _ = run(capsys, "coup", "--json", *cards)
    assert status == 0
    assert json_lines(out)[0]["player"] == ["4S", "KD", "5S"]
    assert json_lines(out)[0]["banker"] == ["7H", "8C", "2D"]


def test_coup_bad_card_names_the_code(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "coup", "9S", "XX", "KH", "7C")
    assert status == 2
    assert out == ""
    assert err.startswith("punto: error: bad card code 'XX'")


# -- punto coup, one coup per stdin line ---------------------------------------------------


def test_coup_line_mode_text(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "9S 8D KH 7C\n6S,7D,KH,KC\n"
    status, out, err = run(capsys, "coup", stdin=stdin, monkeypatch=monkeypatch)
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "Player 9S KH = 9 | Banker 8D 7C = 5 | player wins, natural",
        "Player 6S KH = 6 | Banker 7D KC = 7 | banker wins",
    ]


def test_coup_line_mode_json_one_answer_per_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "9S 8D KH 7C 2C\n4S 7H KD 8C 5S 2D\n"
    status, out, _ = run(capsys, "coup", "--json", stdin=stdin, monkeypatch=monkeypatch)
    assert status == 0
    answers = json_lines(out)
    assert [list(a) for a in answers] == [COUP_KEYS, COUP_KEYS]
    assert [a["cards_used"] for a in answers] == [4, 6]


def test_coup_line_mode_json_a_bad_line_answers_an_error_and_the_rest_go_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "9S 8D KH 7C\n4S 7H KD\nZZ KD\n4S 7H KD 8C 5S 2D\n"
    status, out, err = run(capsys, "coup", "--json", stdin=stdin, monkeypatch=monkeypatch)
    assert status == 1
    assert err == ""
    first, missing, bad, last = json_lines(out)
    assert first["winner"] == "player"
    assert missing == {
        "error": "the coup is not complete: the Banker's second card is missing",
        "type": "IncompleteCoupError",
    }
    assert list(bad) == ["error", "type"]
    assert bad["type"] == "CardError"
    assert "'ZZ'" in bad["error"]
    assert last["cards_used"] == 6


def test_coup_line_mode_text_a_bad_line_answers_an_error_and_the_rest_go_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "4S 7H KD 8C\n9S 8D KH 7C\n"
    status, out, _ = run(capsys, "coup", stdin=stdin, monkeypatch=monkeypatch)
    assert status == 1
    assert out.splitlines() == [
        "error: the coup is not complete: the Player's third card is missing",
        "Player 9S KH = 9 | Banker 8D 7C = 5 | player wins, natural",
    ]


def test_coup_line_mode_empty_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(capsys, "coup", "--json", stdin="", monkeypatch=monkeypatch) == (0, "", "")


# -- punto shoe ----------------------------------------------------------------------------


def shoe_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status, out, err = run(capsys, "shoe", "--json", *argv)
    assert (status, err) == (0, "")
    (doc,) = json_lines(out)
    assert isinstance(doc, dict)
    return doc


def hand_cards(hand: dict[str, Any]) -> list[str]:
    """A hand's cards in dealing order [M7]."""
    player, banker = hand["player"], hand["banker"]
    return [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]


@pytest.mark.parametrize("name", preset_names())
def test_shoe_json_for_every_preset(capsys: pytest.CaptureFixture[str], name: str) -> None:
    rules = preset(name)
    doc = shoe_json(capsys, "--rules", name, "--seed", "7")
    assert doc["rules"] == name
    assert (doc["cards"], doc["decks"]) == (rules.cards, rules.decks)
    assert doc["cut_from_end"] == doc["cards"] - doc["cut_index"]
    assert rules.cut_min_from_end <= doc["cut_from_end"] <= rules.cut_max_from_end
    hands = doc["hands"]
    assert [h["number"] for h in hands] == list(range(1, len(hands) + 1))
    assert [h["last"] for h in hands].count(True) == 1
    assert hands[-1]["last"]
    assert doc["cut_card"]["last_hand"] == len(hands)
    for hand in hands:
        assert set(COUP_KEYS) <= set(hand)
    # The reveal opens the commitment, and every card taken is the next one of it.
    reveal = doc["reveal"]
    order = parse_cards(reveal["order"])
    assert commitment_of(order, reveal["salt"]) == doc["commitment"]
    assert Counter(order) == Counter(dict.fromkeys(deck(), rules.decks))
    taken = [code for burn in doc["burned"] for code in burn["cards"]]
    taken += [code for hand in doc["demo_hands"] + hands for code in hand_cards(hand)]
    assert taken == [card.code for card in order[: len(taken)]]
    assert doc["cards_left"] == rules.cards - len(taken)


@pytest.mark.parametrize("name", preset_names())
def test_shoe_same_seed_same_output(capsys: pytest.CaptureFixture[str], name: str) -> None:
    first = run(capsys, "shoe", "--json", "--rules", name, "--seed", "42")
    second = run(capsys, "shoe", "--json", "--rules", name, "--seed", "42")
    other = run(capsys, "shoe", "--json", "--rules", name, "--seed", "43")
    assert first == second
    assert first[1] != other[1]


def test_shoe_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "shoe", "--rules", "macau", "--seed", "1")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("shoe: macau, 8 decks, 416 cards, cut card ")
    assert lines[1].startswith("commitment: sha256 ")
    assert lines[2].startswith("burned at start (")
    assert sum("(last hand)" in line for line in lines) == 1
    assert sum(line.startswith("cut card out ") for line in lines) == 1
    end = next(i for i, line in enumerate(lines) if line.startswith("shoe ended after "))
    assert lines[end + 1].startswith("reveal: salt ")
    assert lines[end + 2].startswith("reveal: order ")
    # The roads of the shoe follow [O].
    assert lines[end + 3] == ""
    assert lines[end + 4].startswith("Hand ")
    assert "Big Road" in lines[end + 4 :]
    assert lines[-1].startswith("Ask Player: ")
    commitment = lines[1].removeprefix("commitment: sha256 ")
    salt = lines[end + 1].removeprefix("reveal: salt ")
    order = parse_cards(lines[end + 2].removeprefix("reveal: order "))
    assert commitment_of(order, salt) == commitment


def test_shoe_hands_stops_early_and_still_reveals(capsys: pytest.CaptureFixture[str]) -> None:
    doc = shoe_json(capsys, "--rules", "macau", "--seed", "3", "--hands", "5")
    assert [h["number"] for h in doc["hands"]] == [1, 2, 3, 4, 5]
    order = parse_cards(doc["reveal"]["order"])
    assert commitment_of(order, doc["reveal"]["salt"]) == doc["commitment"]


def test_shoe_unknown_preset_exits_2_naming_the_known_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "shoe", "--json", "--rules", "nope", "--seed", "1")
    assert status == 2
    assert out == ""
    assert err.startswith("punto: error: unknown rules preset 'nope'; known presets: ")
    for name in preset_names():
        assert name in err


def test_shoe_needs_a_rules_preset(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["shoe", "--seed", "1"])
    assert info.value.code == 2
    assert "--rules" in capsys.readouterr().err


@pytest.mark.parametrize("hands", ["0", "-3"])
def test_shoe_hands_below_1_is_refused(capsys: pytest.CaptureFixture[str], hands: str) -> None:
    status, out, err = run(capsys, "shoe", "--rules", "macau", "--seed", "1", "--hands", hands)
    assert (status, out) == (2, "")
    assert err == f"punto: error: --hands must be 1 or more, not {hands}\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["shoe", "--rules", "macau", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
        (["shoe", "--seed", "1"], "the following arguments are required: --rules"),
        (["coup", "--nope"], "unrecognized arguments: --nope"),
        (["bogus"], "argument COMMAND: invalid choice: 'bogus'"),
    ],
)
def test_usage_errors_print_punto_error_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: punto")
    assert f"\npunto: error: {message}" in err
