"""Table limits: per-bet minimum and maximum per tier, [M14], [M18], [S11], [O], [L].

The Hypothesis test checks that :func:`check_bets` rejects exactly what an independent
oracle, written here from the rules ([M14], [M18], [L], [O]), says breaks a limit: what it must, and
nothing else.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from types import MappingProxyType

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from punto import limits
from punto.bets import SUPER_TIE_BETS, TIGER_BETS, Bet
from punto.errors import (
    AmountError,
    BetClosedError,
    BetCombinationError,
    BetError,
    BetLimitError,
    BetNotOfferedError,
    RulesError,
    UnknownBetError,
)
from punto.limits import LimitTier, area_rooms, check_bets, check_imbalance
from punto.money import display_amount
from punto.rules import DEFAULT_TIERS, PRESETS, Rules, preset

MACAU = preset("macau")
PLAIN = preset("online_8deck")
"""No [M14], [M18] or [S11]: per-bet limits alone (and [O] closing)."""
LIVE = preset("live_tiger")
SPB = preset("super_punto_banco")


def major(amount: int) -> int:
    return amount * 100


# -- per-bet minimum and maximum per tier ----------------------------------------------

_TIERS = {t.name: t for t in DEFAULT_TIERS}
_BETS_BY_KIND = [
    (Bet.PLAYER, "min_bet", "max_bet"),
    (Bet.BANKER, "min_bet", "max_bet"),
    (Bet.PLAYER_PAIR, "side_min", "side_max"),
    (Bet.DRAGON_BANKER, "side_min", "side_max"),
    (Bet.SUPER_TIE_0, "side_min", "side_max"),
]


def _check_low(
    rules: Rules, bets: Mapping[Bet, int], *, table_banker: int = 0, table_player: int = 0
) -> None:
    """:func:`check_bets` at the low tier on the shoe's first hand (``table_…``: the other
    players' totals)."""
    check_bets(
        rules,
        bets,
        tier="low",
        hand_number=1,
        table_banker=table_banker,
        table_player=table_player,
    )


@pytest.mark.parametrize("tier", sorted(_TIERS))
@pytest.mark.parametrize(("bet", "low_field", "high_field"), _BETS_BY_KIND)
def test_per_bet_minimum_and_maximum_of_each_tier(
    tier: str, bet: Bet, low_field: str, high_field: str
) -> None:
    chosen = _TIERS[tier]
    low, high = getattr(chosen, low_field), getattr(chosen, high_field)
    assert chosen.limits_for(bet) == (low, high)
    check_bets(PLAIN, {bet: low}, tier=tier, hand_number=1)
    check_bets(PLAIN, {bet: high}, tier=tier, hand_number=1)
    with pytest.raises(BetLimitError) as below:
        check_bets(PLAIN, {bet: low - 1}, tier=tier, hand_number=1)
    assert (below.value.limit, below.value.value) == (f"{bet.value}_min", low)
    assert f"below this table's minimum of {display_amount(low)}" in str(below.value)
    with pytest.raises(BetLimitError) as above:
        check_bets(PLAIN, {bet: high + 1}, tier=tier, hand_number=1)
    assert (above.value.limit, above.value.value) == (f"{bet.value}_max", high)
    assert f"above this table's maximum of {display_amount(high)}" in str(above.value)


@pytest.mark.parametrize("tier", sorted(_TIERS))
def test_tie_has_its_own_limits_on_every_tier(tier: str) -> None:
    low, high = _TIERS[tier].bet_limits[Bet.TIE]
    assert _TIERS[tier].limits_for(Bet.TIE) == (low, high)
    check_bets(PLAIN, {Bet.TIE: high}, tier=tier, hand_number=1)
    with pytest.raises(BetLimitError, match=r"Tie bet .* is above") as err:
        check_bets(PLAIN, {Bet.TIE: high + 1}, tier=tier, hand_number=1)
    assert (err.value.limit, err.value.value) == ("tie_max", high)


def test_limit_message_names_the_bet_the_amount_and_the_limit() -> None:
    with pytest.raises(BetLimitError) as err:
        _check_low(PLAIN, {Bet.BANKER: major(1_500)})
    assert str(err.value) == "Banker bet 1,500.00 is above this table's maximum of 1,000.00"
    assert isinstance(err.value, BetError)
    assert isinstance(err.value, ValueError)


def test_a_limit_tier_object_may_be_given_instead_of_a_name() -> None:
    tier = LimitTier(name="tiny", min_bet=100, max_bet=200, side_min=50, side_max=60)
    check_bets(PLAIN, {Bet.PLAYER: 200, Bet.TIE: 60}, tier=tier, hand_number=1)
    with pytest.raises(BetLimitError, match=r"above this table's maximum of 0\.60$"):
        check_bets(PLAIN, {Bet.TIE: 61}, tier=tier, hand_number=1)


def test_an_unknown_tier_is_a_rules_error_naming_the_tiers() -> None:
    with pytest.raises(RulesError, match="unknown limit tier 'gold'; this table has: low"):
        check_bets(PLAIN, {Bet.PLAYER: major(10)}, tier="gold", hand_number=1)


@pytest.mark.parametrize(("low", "high"), [(0, 10), (10, 5), (-1, 5)])
def test_limit_tier_refuses_a_bad_range(low: int, high: int) -> None:
    with pytest.raises(RulesError, match="bad range"):
        LimitTier(name="bad", min_bet=low, max_bet=high, side_min=1, side_max=2)
    with pytest.raises(RulesError, match="bad range"):
        LimitTier(
            name="bad",
            min_bet=1,
            max_bet=2,
            side_min=1,
            side_max=2,
            bet_limits=MappingProxyType({Bet.TIE: (low, high)}),
        )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"min_bet": 10.5}, "a pair of whole minor units, not (10.5, 1000)"),
        ({"side_max": True}, "a pair of whole minor units, not (5, True)"),
        ({"bet_limits": {Bet.TIE: (5, 500, 1)}}, "not (5, 500, 1)"),
        ({"bet_limits": {Bet.TIE: [5, 500]}}, "not [5, 500]"),
        ({"bet_limits": {"tie": (5, 500)}}, "keyed by Bet, not 'tie'"),
        ({"bet_limits": [(Bet.TIE, (5, 500))]}, "bet limits must map bets to ranges"),
        ({"name": ""}, "a limit tier needs a name"),
    ],
)
def test_limit_tier_refuses_a_setting_of_the_wrong_type(
    changes: dict[str, object], message: str
) -> None:
    settings: dict[str, object] = {
        "name": "t",
        "min_bet": 10,
        "max_bet": 1000,
        "side_min": 5,
        "side_max": 250,
        **changes,
    }
    with pytest.raises(RulesError, match=re.escape(message)):
        LimitTier(**settings)  # type: ignore[arg-type]


def test_limit_tier_keeps_a_frozen_copy_of_its_bet_limits() -> None:
    given = {Bet.TIE: (5, 500)}
    tier = LimitTier(name="t", min_bet=10, max_bet=100, side_min=5, side_max=50, bet_limits=given)
    given[Bet.TIE] = (1, 1_000_000)
    assert tier.limits_for(Bet.TIE) == (5, 500)


@pytest.mark.parametrize("hand", [0, -1, True, 1.0])
def test_o_check_bets_refuses_a_hand_number_below_1(hand: int) -> None:
    with pytest.raises(BetError, match="hand numbers count from 1 in a shoe"):
        check_bets(PLAIN, {Bet.PLAYER: major(10)}, tier="low", hand_number=hand)


def test_check_bets_refuses_a_key_that_is_not_a_bet() -> None:
    bets: dict[Bet, int] = {"player": major(10)}  # type: ignore[dict-item]
    with pytest.raises(UnknownBetError, match="not a bet: 'player'"):
        _check_low(PLAIN, bets)


@pytest.mark.parametrize("amount", [0, -100])
def test_a_non_positive_amount_is_an_amount_error(amount: int) -> None:
    with pytest.raises(AmountError, match="must be positive"):
        _check_low(PLAIN, {Bet.PLAYER: amount})


def test_a_bool_amount_is_an_amount_error() -> None:
    bets: dict[Bet, int] = {Bet.PLAYER: True}
    with pytest.raises(AmountError, match="not a whole number"):
        _check_low(PLAIN, bets)


# -- bets not offered ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "bet"),
    [
        ("macau", Bet.LUCKY6),
        ("macau", Bet.DRAGON_PLAYER),
        ("super_punto_banco", Bet.PLAYER_PAIR),
        ("live_tiger", Bet.SUPER_TIE_6),
        ("online_8deck", Bet.TIGER_TIE),
    ],
)
def test_a_bet_the_preset_does_not_offer_is_refused(name: str, bet: Bet) -> None:
    with pytest.raises(BetNotOfferedError, match=f"{bet.label} is not offered at a {name} table"):
        _check_low(preset(name), {bet: major(10)})


# -- [M14] imbalance -------------------------------------------------------------------


def test_m14_imbalance_up_to_the_limit_is_allowed() -> None:
    rules = MACAU.replace(max_imbalance=major(1_000))
    _check_low(rules, {Bet.BANKER: major(1_000)})
    _check_low(rules, {Bet.PLAYER: major(1_000)})


def test_m14_imbalance_counts_other_players_table_totals() -> None:
    rules = MACAU.replace(max_imbalance=major(1_000))
    with pytest.raises(BetLimitError) as err:
        _check_low(rules, {Bet.BANKER: major(200)}, table_banker=major(900))
    assert (err.value.limit, err.value.value) == ("max_imbalance", major(1_000))
    assert str(err.value).endswith("imbalance limit of 1,000.00")
    assert "Banker (1,100.00) and Player (0.00)" in str(err.value)
    # Other players' Player bets balance the table.
    _check_low(rules, {Bet.BANKER: major(200)}, table_banker=major(900), table_player=major(100))


def test_m14_imbalance_applies_to_the_player_side_too() -> None:
    rules = MACAU.replace(max_imbalance=major(1_000))
    with pytest.raises(BetLimitError, match="imbalance limit"):
        _check_low(rules, {Bet.PLAYER: major(100)}, table_player=major(950))


def test_m14_a_players_own_two_sides_count_against_each_other() -> None:
    rules = PLAIN.replace(max_imbalance=major(500))
    _check_low(rules, {Bet.BANKER: major(1_000), Bet.PLAYER: major(500)})
    with pytest.raises(BetLimitError, match="imbalance limit"):
        _check_low(rules, {Bet.BANKER: major(1_000), Bet.PLAYER: major(499)})


def test_m14_a_bet_that_narrows_the_gap_is_allowed_over_the_limit() -> None:
    rules = MACAU.replace(max_imbalance=major(1_000))
    # The table is already 5000 over on Banker (the limit was lowered [S14]).
    _check_low(
        rules, {Bet.PLAYER: major(500)}, table_banker=major(6_000), table_player=major(1_000)
    )
    with pytest.raises(BetLimitError, match="imbalance limit"):
        _check_low(
            rules, {Bet.BANKER: major(10)}, table_banker=major(6_000), table_player=major(1_000)
        )


def test_m14_check_imbalance_alone() -> None:
    rules = MACAU.replace(max_imbalance=100)
    check_imbalance(rules, banker=300, player=200)
    with pytest.raises(BetLimitError):
        check_imbalance(rules, banker=200, player=301)
    check_imbalance(PLAIN, banker=10**12, player=0)  # no [M14] limit at this table


def test_m14_macau_preset_limit_is_200000() -> None:
    assert MACAU.max_imbalance == major(200_000)
    with pytest.raises(BetLimitError, match=r"imbalance limit of 200,000\.00$"):
        check_bets(MACAU, {Bet.BANKER: major(201_000)}, tier="vip", hand_number=1)


# -- [M18] Banker in multiples of the minimum, Player at least the minimum -------------


@pytest.mark.parametrize(("tier", "minimum"), [("low", 10), ("standard", 50), ("vip", 1_000)])
def test_m18_banker_bets_in_multiples_of_the_table_minimum(tier: str, minimum: int) -> None:
    check_bets(MACAU, {Bet.BANKER: major(minimum)}, tier=tier, hand_number=1)
    check_bets(MACAU, {Bet.BANKER: major(3 * minimum)}, tier=tier, hand_number=1)
    with pytest.raises(BetLimitError) as err:
        check_bets(MACAU, {Bet.BANKER: major(minimum) * 3 // 2}, tier=tier, hand_number=1)
    assert (err.value.limit, err.value.value) == ("banker_multiple", major(minimum))
    assert str(err.value).endswith(f"multiple of the table minimum {minimum:,}.00")


def test_m18_player_bets_at_least_the_minimum_in_any_amount() -> None:
    _check_low(MACAU, {Bet.PLAYER: major(15)})
    _check_low(MACAU, {Bet.PLAYER: 1_001})
    with pytest.raises(BetLimitError) as err:
        _check_low(MACAU, {Bet.PLAYER: 999})
    assert (err.value.limit, err.value.value) == ("player_min", major(10))


def test_m18_is_a_table_setting() -> None:
    assert not preset("no_commission").banker_multiple_of_min
    _check_low(preset("no_commission"), {Bet.BANKER: major(25)})


# -- [S11] one side only ---------------------------------------------------------------


def test_s11_player_and_banker_together_are_refused() -> None:
    with pytest.raises(
        BetCombinationError, match=r"Player or on Banker, not both \(Tie is always allowed\)$"
    ):
        _check_low(SPB, {Bet.PLAYER: major(10), Bet.BANKER: major(10)})


@pytest.mark.parametrize("side", [Bet.PLAYER, Bet.BANKER])
def test_s11_tie_is_always_allowed_with_one_side(side: Bet) -> None:
    _check_low(SPB, {side: major(10), Bet.TIE: major(5)})
    _check_low(SPB, {Bet.TIE: major(5)})


def test_s11_is_a_table_setting() -> None:
    _check_low(PLAIN, {Bet.PLAYER: major(10), Bet.BANKER: major(10)})


# -- [O] Big/Small and Super Tie closed from the 31st hand ----------------------------

_CLOSING = [Bet.BIG, Bet.SMALL, *SUPER_TIE_BETS]


@pytest.mark.parametrize("name", ["online_8deck", "online_no_commission"])
@pytest.mark.parametrize("bet", _CLOSING)
def test_o_big_small_super_tie_open_at_hand_30_closed_from_31(name: str, bet: Bet) -> None:
    rules = preset(name)
    check_bets(rules, {bet: major(5)}, tier="low", hand_number=30)
    for hand in (31, 32, 60):
        with pytest.raises(BetClosedError, match=f"closed from hand 31 .* hand {hand}$"):
            check_bets(rules, {bet: major(5)}, tier="low", hand_number=hand)


@pytest.mark.parametrize("bet", [Bet.PLAYER, Bet.BANKER, Bet.TIE, Bet.DRAGON_PLAYER])
def test_o_other_bets_stay_open_after_hand_30(bet: Bet) -> None:
    check_bets(PLAIN, {bet: major(10)}, tier="low", hand_number=31)
    check_bets(PLAIN, {bet: major(10)}, tier="low", hand_number=80)


# -- [L] Tiger bets refused to a player who bets the main game -------------------------


@pytest.mark.parametrize("tiger", [b for b in Bet if b in TIGER_BETS])
@pytest.mark.parametrize("side", [Bet.PLAYER, Bet.BANKER])
def test_l_tiger_bets_with_a_main_bet_refused_when_tiger_with_main_is_false(
    tiger: Bet, side: Bet
) -> None:
    rules = LIVE.replace(tiger_with_main=False)
    with pytest.raises(BetCombinationError, match=r"Tiger side bets .*Player or Banker$"):
        _check_low(rules, {side: major(10), tiger: major(5)})
    _check_low(rules, {tiger: major(5)})
    _check_low(rules, {tiger: major(5), Bet.TIE: major(5)})
    _check_low(LIVE, {side: major(10), tiger: major(5)})


def test_l_dragon_and_pairs_are_not_tiger_bets() -> None:
    rules = LIVE.replace(tiger_with_main=False)
    bets = {Bet.BANKER: major(10), Bet.DRAGON_BANKER: major(5), Bet.BANKER_PAIR: major(5)}
    _check_low(rules, bets)


# -- Hypothesis: reject what they must and nothing else --------------------------------

Violation = tuple[type[BetError], str, int]


def oracle(
    rules: Rules,
    bets: Mapping[Bet, int],
    *,
    tier: LimitTier,
    hand_number: int,
    table_banker: int,
    table_player: int,
) -> set[Violation]:
    """Every limit the bets break, read straight from the rules ([M14], [M18], [L], [O])."""
    broken: set[Violation] = set()
    for bet, amount in bets.items():
        if bet not in rules.paytables:
            broken.add((BetNotOfferedError, bet.value, 0))
            continue
        if amount <= 0:
            broken.add((AmountError, bet.value, amount))
            continue
        if bet in tier.bet_limits:
            low, high = tier.bet_limits[bet]
        elif bet in (Bet.PLAYER, Bet.BANKER):
            low, high = tier.min_bet, tier.max_bet
        else:
            low, high = tier.side_min, tier.side_max
        if amount < low:
            broken.add((BetLimitError, f"{bet.value}_min", low))
        if amount > high:
            broken.add((BetLimitError, f"{bet.value}_max", high))
        if bet in rules.close_from_hand and hand_number > 30:
            broken.add((BetClosedError, bet.value, hand_number))
    banker, player = bets.get(Bet.BANKER, 0), bets.get(Bet.PLAYER, 0)
    if rules.banker_multiple_of_min and Bet.BANKER in bets and banker % tier.min_bet != 0:
        broken.add((BetLimitError, "banker_multiple", tier.min_bet))
    if rules.one_side_only and Bet.BANKER in bets and Bet.PLAYER in bets:
        broken.add((BetCombinationError, "one_side_only", 0))
    if (
        not rules.tiger_with_main
        and (Bet.BANKER in bets or Bet.PLAYER in bets)
        and any(b in TIGER_BETS for b in bets)
    ):
        broken.add((BetCombinationError, "tiger_with_main", 0))
    limit = rules.max_imbalance
    gap_after = abs((table_banker + banker) - (table_player + player))
    if limit is not None and gap_after > limit and gap_after > abs(table_banker - table_player):
        broken.add((BetLimitError, "max_imbalance", limit))
    return broken


@st.composite
def table_rules(draw: st.DrawFn) -> Rules:
    rules = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    return rules.replace(
        banker_multiple_of_min=draw(st.booleans()),
        one_side_only=draw(st.booleans()),
        tiger_with_main=draw(st.booleans()),
        max_imbalance=draw(st.sampled_from([None, major(300), major(2_000), major(200_000)])),
    )


@st.composite
def amount_for(draw: st.DrawFn, tier: LimitTier, bet: Bet) -> int:
    low, high = tier.limits_for(bet)
    edges = [low - 1, low, low + 1, high - 1, high, high + 1, 2 * tier.min_bet, 0, -low]
    return draw(
        st.one_of(
            st.sampled_from(edges),
            st.integers(min_value=low, max_value=high),
            st.integers(min_value=1, max_value=high // tier.min_bet).map(
                lambda k: k * tier.min_bet
            ),
            st.integers(min_value=1, max_value=2 * high),
        )
    )


@settings(max_examples=400)
@given(data=st.data(), rules=table_rules())
def test_check_bets_rejects_exactly_what_breaks_a_limit(data: st.DataObject, rules: Rules) -> None:
    tier = data.draw(st.sampled_from(rules.limit_tiers), label="tier")
    offered = st.sampled_from(rules.offered_bets)
    any_bet = st.sampled_from(list(Bet))
    chosen = data.draw(
        st.lists(st.one_of(offered, offered, offered, any_bet), max_size=5, unique=True),
        label="bets",
    )
    bets = {bet: data.draw(amount_for(tier, bet), label=bet.value) for bet in chosen}
    hand = data.draw(st.sampled_from([1, 29, 30, 31, 32, 70]), label="hand")
    scale = rules.max_imbalance or major(1_000)
    table_banker = data.draw(st.integers(min_value=0, max_value=2 * scale), label="table_banker")
    table_player = data.draw(st.integers(min_value=0, max_value=2 * scale), label="table_player")

    expected = oracle(
        rules,
        bets,
        tier=tier,
        hand_number=hand,
        table_banker=table_banker,
        table_player=table_player,
    )

    def check() -> None:
        check_bets(
            rules,
            bets,
            tier=tier,
            hand_number=hand,
            table_banker=table_banker,
            table_player=table_player,
        )

    event("accepted" if not expected else "refused")
    if not expected:
        check()
        return
    with pytest.raises(BetError) as err:
        check()
    assert type(err.value) in {v[0] for v in expected}
    # A player reads the refusal: it names no rule article ("[M14]") and no minor units.
    assert re.search(r"\[[A-Z]+\d*\]", str(err.value)) is None, str(err.value)
    if isinstance(err.value, BetLimitError):
        assert (BetLimitError, err.value.limit, err.value.value) in expected
        assert display_amount(err.value.value, digits=rules.currency_digits) in str(err.value)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_area_rooms_are_each_areas_own_room_worked_out_alone(preset: str) -> None:
    """The rooms of every area at once (kept for nothing staked, worked out again where the
    stakes can change them) equal each area's room worked out by itself."""
    rules = PRESETS[preset]
    offered = tuple(rules.offered_bets)
    rng = random.Random(preset)
    for hand in (1, 30, 60):
        for tier in rules.limit_tiers:
            for _ in range(40):
                staked = {
                    bet: rng.choice((0, tier.min_bet, tier.limits_for(bet)[1], 7))
                    for bet in rng.sample(offered, rng.randint(0, 3))
                }
                together = area_rooms(rules, offered, staked, tier=tier, hand_number=hand)
                on = {bet for bet, amount in staked.items() if amount}
                alone = tuple(
                    limits._room(rules, tier, bet, staked.get(bet, 0), on, hand) for bet in offered
                )
                assert together == alone, (staked, hand)
                again = area_rooms(rules, offered, dict(staked), tier=tier, hand_number=hand)
                assert again == together, (staked, hand)  # as kept, for the same stakes
