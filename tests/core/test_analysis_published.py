"""The exact analysis against the published combinatorial tables, every printed digit.

The figures live in ``src/punto/data/*.json``, each file named after its source; this
test reads them and recomputes each one from :mod:`punto.analysis`.

A table printed for one paytable may also decide another's classes: ``same_events`` on a
return table names bets whose payout classes are unions of the printed events (the
30/10/5/3/2/1 Dragon Bonus pays on the 30/10/6/4/2/1 table's events; Small and Big Tiger
win on the Lucky 6 table's 2-card and 3-card winning Banker 6), and ``bets`` on a
cards-dealt table names the bets that win on given numbers of cards (Small, Big).
"""

from __future__ import annotations

import functools
import json
from decimal import Decimal
from fractions import Fraction
from importlib import resources
from typing import Any

import pytest

from punto.analysis import BetAnalysis, Composition, Enumeration, analyze_bet, enumerate_coups
from punto.bets import SUPER_TIE_BETS, Bet
from punto.outcome import Winner
from punto.paytables import PAYTABLES, Paytable, paytable
from punto.rules import PRESETS

DATA_FILES = (
    "wizard_of_odds_baccarat.json",
    "advanced_advantage_play_baccarat.json",
    "multiplayerbaccarat_odds.json",
    "wizard_of_odds_ez_baccarat.json",
)
UNPUBLISHED = frozenset(
    {
        "tiger_tie_35",
        "tiger_pair_4_20_100",
        "tie_5",  # [LB] only with the multipliers: test_multiplier_peek checks those figures
        *(table.name for table in PAYTABLES.values() if table.bet in SUPER_TIE_BETS),
    }
)
"""Paytables of offered bets for which no published combinatorial figure was found: they
are checked against the plain enumeration and the coup engine only (docs/analysis.md)."""
EXCEL_DIGITS = 15
EXCEL_TOLERANCE = 2


def _load(name: str) -> dict[str, Any]:
    text = resources.files("punto").joinpath("data", name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _tables() -> list[tuple[str, dict[str, Any]]]:
    return [(name, table) for name in DATA_FILES for table in _load(name)["tables"]]


@functools.cache
def _enumeration(decks: int) -> Enumeration:
    return enumerate_coups(Composition.fresh(decks))


def _check_decimal(printed: str, exact: Fraction, what: str) -> None:
    """``exact`` rounded to the printed number of decimals reads exactly as printed."""
    text = printed.rstrip("%")
    scale = Fraction(100) if printed.endswith("%") else Fraction(1)
    decimals = len(text.partition(".")[2])
    value = round(exact * scale, decimals)
    assert Decimal(text) == Decimal(value.numerator) / Decimal(value.denominator), (
        f"{what}: printed {printed}, exact {float(exact * scale):.12f}"
    )


def _check_integer(printed: str, exact: int, what: str) -> None:
    """Integers up to 15 digits exactly; longer ones (the source's Excel keeps only 15
    significant digits) within two units of the 15th significant digit."""
    value = int(printed.replace(",", ""))
    if len(str(value)) <= EXCEL_DIGITS:
        assert value == exact, f"{what}: printed {printed}, exact {exact:,}"
        return
    unit = 10 ** (len(str(exact)) - EXCEL_DIGITS)
    assert abs(value - exact) <= EXCEL_TOLERANCE * unit, (
        f"{what}: printed {printed}, exact {exact:,}"
    )


def _winner_counts(enumeration: Enumeration) -> dict[str, int]:
    counts = {"player": 0, "banker": 0, "tie": 0}
    for facts, weight in enumeration.facts().items():
        counts[
            {Winner.PLAYER: "player", Winner.BANKER: "banker", Winner.TIE: "tie"}[facts.winner]
        ] += weight
    return counts


def _check_outcome_combinations(table: dict[str, Any]) -> None:
    for row in table["rows"]:
        enumeration = _enumeration(row["decks"])
        counts = _winner_counts(enumeration)
        for key in ("player", "banker", "tie"):
            _check_integer(row[key], counts[key], f"{row['decks']} decks {key}")
        _check_integer(row["total"], enumeration.total, f"{row['decks']} decks total")


def _check_outcome_probabilities(table: dict[str, Any]) -> None:
    for row in table["rows"]:
        enumeration = _enumeration(row["decks"])
        counts = _winner_counts(enumeration)
        for key in ("player", "banker", "tie"):
            exact = Fraction(counts[key], enumeration.total)
            _check_decimal(row[key], exact, f"{row['decks']} decks {key}")


def _check_bet_return_table(table: dict[str, Any]) -> None:
    result = analyze_bet(
        Bet(table["bet"]), paytable(table["paytable"]), _enumeration(table["decks"])
    )
    by_class = {c.name: c for c in result.classes}
    listed: set[str] = set()
    for row in table["rows"]:
        names = row["classes"]
        listed.update(names)
        combos = sum(by_class[name].combinations for name in names)
        probability = Fraction(combos, by_class[names[0]].total)
        odds = {by_class[name].odds for name in names}
        assert odds == {Fraction(row["pays"])}, row["event"]
        _check_integer(row["combinations"], combos, row["event"])
        _check_decimal(row["probability"], probability, row["event"])
        _check_decimal(row["return"], probability * odds.pop(), f"{row['event']} return")
    # the table covers every payout class of the bet
    assert listed == {c.name for c in result.classes if c.combinations}
    total = table["total"]
    _check_integer(total["combinations"], _enumeration(table["decks"]).total, "total")
    _check_decimal(total["probability"], Fraction(1), "total probability")
    _check_decimal(total["return"], -result.house_edge, "total return")
    for other in table.get("same_events", []):
        _check_same_events(table, other)


def _check_same_events(table: dict[str, Any], other: dict[str, Any]) -> None:
    """Each payout class of ``other``'s bet is the union of the printed events mapped to
    it: its combinations are their sum, and a class of one event has its probability."""
    result = analyze_bet(
        Bet(other["bet"]), paytable(other["paytable"]), _enumeration(table["decks"])
    )
    by_class = {c.name: c for c in result.classes}
    rename: dict[str, str] = other.get("classes", {})
    rows: dict[str, list[dict[str, Any]]] = {}
    for row in table["rows"]:
        names = {rename.get(name, name) for name in row["classes"]}
        assert len(names) == 1, f"{row['event']} falls in {names} of {other['bet']}"
        rows.setdefault(names.pop(), []).append(row)
    assert set(rows) == {c.name for c in result.classes if c.combinations}, other["paytable"]
    for name, events in rows.items():
        what = f"{other['paytable']} {name}"
        exact = by_class[name].combinations
        _check_integer_sum([row["combinations"] for row in events], exact, what)
        if len(events) == 1:
            _check_decimal(events[0]["probability"], by_class[name].probability, what)


def _check_integer_sum(printed: list[str], exact: int, what: str) -> None:
    """A sum of printed integers: exact if every term is (at most 15 digits), else within
    the terms' Excel tolerances added up."""
    values = [int(text.replace(",", "")) for text in printed]
    tolerance = sum(
        EXCEL_TOLERANCE * 10 ** (len(str(v)) - EXCEL_DIGITS)
        for v in values
        if len(str(v)) > EXCEL_DIGITS
    )
    assert abs(sum(values) - exact) <= tolerance, f"{what}: printed {printed}, exact {exact:,}"


def _row_paytable(row: dict[str, Any]) -> Paytable:
    """The row's named paytable, or the one its ``pays`` print (a published variant the
    presets do not use, e.g. a 4% commission)."""
    if "pays" not in row:
        return paytable(row["paytable"])
    pays = {name: Fraction(Decimal(odds)) for name, odds in row["pays"].items()}
    return Paytable(name=row["paytable"], bet=Bet(row["bet"]), pays=pays)


def _check_house_edge_percent(table: dict[str, Any]) -> None:
    for row in table["rows"]:
        result = analyze_bet(Bet(row["bet"]), _row_paytable(row), _enumeration(row["decks"]))
        what = f"{row['paytable']} {row['decks']} decks"
        _check_decimal(row["house_edge"], result.house_edge, what)


def _check_cards_dealt(table: dict[str, Any]) -> None:
    enumeration = _enumeration(table["decks"])
    by_cards: dict[int, int] = {}
    for facts, weight in enumeration.facts().items():
        by_cards[facts.cards] = by_cards.get(facts.cards, 0) + weight
    for row in table["rows"]:
        probability = Fraction(by_cards[row["cards"]], enumeration.total)
        _check_decimal(row["probability"], probability, f"{row['cards']} cards")
        pays = Fraction(row["pays"])
        exact_return = probability * (pays + 1) - 1
        if "returns_from_rounded_probabilities" not in table:
            _check_decimal(row["return"], exact_return, f"{row['cards']} return")
            continue
        # The page derived the return from its rounded probability: check that, and that
        # the exact return is within the error that rounding carries into it.
        printed_probability = Fraction(Decimal(row["probability"]))
        _check_decimal(row["return"], printed_probability * (pays + 1) - 1, "derived return")
        half_p = Fraction(1, 2 * 10 ** len(row["probability"].partition(".")[2]))
        half_r = Fraction(1, 2 * 10 ** len(row["return"].partition(".")[2]))
        bound = (pays + 1) * half_p + half_r
        assert abs(Fraction(Decimal(row["return"])) - exact_return) <= bound
    for entry in table.get("bets", []):
        result = analyze_bet(Bet(entry["bet"]), paytable(entry["paytable"]), enumeration)
        wins = sum(by_cards[cards] for cards in entry["win_cards"])
        assert _class_combinations(result, "win") == wins, entry["bet"]
        assert _class_combinations(result, "lose") == enumeration.total - wins, entry["bet"]


def _class_combinations(result: BetAnalysis, name: str) -> int:
    return next(c.combinations for c in result.classes if c.name == name)


def _check_final_totals(table: dict[str, Any]) -> None:
    enumeration = _enumeration(table["decks"])
    by_total: dict[int, int] = {}
    for facts, weight in enumeration.facts().items():
        total = facts.player_total if table["hand"] == "player" else facts.banker_total
        by_total[total] = by_total.get(total, 0) + weight
    for row in table["rows"]:
        combos = by_total[row["total"]]
        probability = Fraction(combos, enumeration.total)
        what = f"{table['hand']} total {row['total']}"
        _check_integer(row["combinations"], combos, what)
        _check_decimal(row["probability"], probability, what)
        pays = Fraction(row["pays"])
        _check_decimal(row["return"], probability * (pays + 1) - 1, f"{what} return")
    if "total" in table:
        _check_integer(table["total"]["combinations"], enumeration.total, "total")


def _check_bet_summary(table: dict[str, Any]) -> None:
    result = analyze_bet(
        Bet(table["bet"]), paytable(table["paytable"]), _enumeration(table["decks"])
    )
    _check_decimal(table["house_edge"], result.house_edge, "house edge")
    if "hit_frequency" in table:
        _check_decimal(table["hit_frequency"], result.hit_frequency, "hit frequency")
    if "variance" in table:
        _check_decimal(table["variance"], result.variance, "variance")
    if "std_dev" in table:
        decimals = len(table["std_dev"].partition(".")[2])
        assert f"{result.std_dev:.{decimals}f}" == table["std_dev"]


CHECKS = {
    "outcome_combinations": _check_outcome_combinations,
    "outcome_probabilities": _check_outcome_probabilities,
    "bet_return_table": _check_bet_return_table,
    "house_edge_percent": _check_house_edge_percent,
    "cards_dealt": _check_cards_dealt,
    "final_totals": _check_final_totals,
    "bet_summary": _check_bet_summary,
}


@pytest.mark.parametrize(
    ("source", "table"), _tables(), ids=lambda v: str(v.get("id", v)) if isinstance(v, dict) else v
)
def test_published_table(source: str, table: dict[str, Any]) -> None:
    assert table["url"].startswith(("http://", "https://"))
    CHECKS[table["kind"]](table)


def test_every_data_file_names_its_source() -> None:
    for name in DATA_FILES:
        data = _load(name)
        assert data["source"]
        assert data["tables"]


def _checked() -> set[tuple[int, str, str]]:
    """(decks, bet, paytable) of every bet a published table checks."""
    checked: set[tuple[int, str, str]] = set()
    for _, table in _tables():
        if "bet" in table:
            checked.add((table["decks"], table["bet"], table["paytable"]))
        for entry in [*table.get("same_events", []), *table.get("bets", [])]:
            checked.add((table["decks"], entry["bet"], entry["paytable"]))
        if table["kind"] == "house_edge_percent":
            checked.update((row["decks"], row["bet"], row["paytable"]) for row in table["rows"])
    return checked


def test_every_offered_bet_of_every_preset_is_checked_against_a_published_table() -> None:
    checked = _checked()
    missing = sorted(
        f"{rules.name}: {bet.value} ({rules.paytable_for(bet).name}, {rules.decks} decks)"
        for rules in PRESETS.values()
        for bet in rules.offered_bets
        if rules.paytable_for(bet).name not in UNPUBLISHED
        and (rules.decks, bet.value, rules.paytable_for(bet).name) not in checked
    )
    assert not missing, missing


def test_the_unpublished_list_holds_only_offered_bets_no_table_checks() -> None:
    offered = {r.paytable_for(bet).name for r in PRESETS.values() for bet in r.offered_bets}
    assert offered >= UNPUBLISHED
    assert not {paytable for _, _, paytable in _checked()} & UNPUBLISHED


def test_the_six_and_eight_deck_main_bets_are_covered() -> None:
    covered = {
        (row["decks"], table["kind"])
        for _, table in _tables()
        if "rows" in table
        for row in table["rows"]
        if isinstance(row, dict) and "decks" in row
    }
    assert (6, "outcome_combinations") in covered
    assert (8, "outcome_combinations") in covered
