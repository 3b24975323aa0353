"""The pure ledger model's shortcuts agree with what they stand for.

``transaction_id`` computes RFC 4122 ``uuid5`` by hand and ``settlements`` builds a whole
round's transactions with the escrow and house accounts made once: both must give what
``uuid.uuid5`` and one :func:`settlement` per player give, for any key and any round.
"""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from punto.bets import Bet
from punto.cards import parse_cards
from punto.coup import deal_coup
from punto.errors import LedgerError
from punto.ledger import model
from punto.ledger.model import Account
from punto.rules import preset
from punto.settlement import Settler, settle


@given(st.text(max_size=200))
def test_transaction_id_is_uuid5_of_the_key(key: str) -> None:
    assert model.transaction_id(key) == str(uuid.uuid5(model.TRANSACTION_NAMESPACE, key))


def test_bets_hash_by_identity_and_stay_usable_as_keys() -> None:
    by_bet = {bet: bet.value for bet in Bet}
    assert all(by_bet[Bet(value)] == value for value in by_bet.values())
    assert len({hash(bet) for bet in Bet}) == len(Bet)


@given(
    st.lists(
        st.dictionaries(
            st.sampled_from([Bet.PLAYER, Bet.BANKER, Bet.TIE, Bet.PLAYER_PAIR]),
            st.integers(min_value=100, max_value=50_000),
            min_size=1,
        ),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from(["9S 5H KC 7D", "AS 2H 3C 4D 5S 6H", "KS KH 4C 4D 2S 3H"]),
)
def test_settlements_equal_one_settlement_per_player(
    stakes: list[dict[Bet, int]], cards: str
) -> None:
    rules = preset("macau")
    coup = deal_coup(parse_cards(cards))
    players = {f"p{i}": bets for i, bets in enumerate(stakes)}
    results = {p: settle(rules, coup, bets) for p, bets in players.items()}
    operator = Account.operator("op1")
    payees = {p: Account.player(p) if i % 2 else operator for i, p in enumerate(players)}
    bulk = model.settlements(
        "r9", "t1", ((p, players[p], payees[p]) for p in sorted(players)), results
    )
    one_by_one = [
        model.settlement("r9", p, players[p], results[p], table_id="t1", payee=payees[p])
        for p in sorted(players)
    ]
    assert bulk == one_by_one
    # players with the same bets share one result (as a table settles them): the bulk
    # transactions share its lines and are still one settlement's each
    settler = Settler(rules, coup)
    twice = {**players, **{f"q{i}": dict(bets) for i, bets in enumerate(stakes)}}
    shared = {p: settler.settle(bets) for p, bets in twice.items()}
    assert shared["p0"] is shared["q0"]
    bulk = model.settlements(
        "r9", "t1", ((p, twice[p], Account.player(p)) for p in sorted(twice)), shared
    )
    assert bulk == [
        model.settlement("r9", p, twice[p], shared[p], table_id="t1") for p in sorted(twice)
    ]
    # their fingerprints too, made with each shared result's lines written once
    assert model.fingerprints(bulk) == [t.fingerprint for t in bulk]


def test_a_shared_result_settles_only_the_bets_it_was_made_of() -> None:
    """``settlements`` checks a result shared by several players once, against the first
    player's bets; a later player whose confirmed bets differ is still refused, saying
    how."""
    rules = preset("macau")
    result = Settler(rules, deal_coup(parse_cards("9S 5H KC 7D"))).settle({Bet.PLAYER: 1000})
    players = [
        ("a", {Bet.PLAYER: 1000}, Account.player("a")),
        ("b", {Bet.PLAYER: 2000}, Account.player("b")),
    ]
    with pytest.raises(LedgerError, match="settlement of b covers player=1000, but the confirmed"):
        model.settlements("r1", "t1", players, {"a": result, "b": result})
    with pytest.raises(LedgerError, match="settlement of b covers"):
        model.settlements("r1", "t1", players[1:], {"b": result})


def test_fingerprints_stay_what_the_books_hold() -> None:
    """A transaction's fingerprint is stored with it and checked again by ``punto ledger
    check``: its text (the fields, then the entries, then the lines, joined by the unit
    separator, each separator inside a field read as a space) must never change."""
    line = model.Line("player", 1000, "win", 1000)
    settled = model.Transaction(
        model.TransactionKind.SETTLE,
        "settle:r1:bob",
        (
            model.Entry(Account.escrow("r1"), -1000),
            model.Entry(Account.player("bob"), 2000),
            model.Entry(Account.house("t1"), -1000),
        ),
        round_id="r1",
        player_id="bob",
        lines=(line,),
    )
    assert settled.fingerprint == (
        "db6dcea36dadc1bb25ff6df68b94e071b569490344c46332594c623f325c4e0b"
    )
    entries = (model.Entry(Account.player("bob"), 500), model.Entry(Account.house("t1"), -500))

    def corrected(reason: str) -> model.Transaction:
        return model.Transaction(
            model.TransactionKind.CORRECTION,
            "corr:r1:bob",
            entries,
            round_id="r1",
            player_id="bob",
            reference="abc",
            author="sam",
            reason=reason,
            lines=(line,),
        )

    with_separator = corrected("misdealt\x1fcard")
    assert with_separator.fingerprint == (
        "79f78c0263d71d6af90ee7a1a78c0e3dd6b71e57ceb179a8ae0bae3caaca3a36"
    )
    assert with_separator.fingerprint == corrected("misdealt card").fingerprint
