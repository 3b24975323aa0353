"""[M12] What may happen to Player/Banker bets standing in a tie."""

from __future__ import annotations

import pytest

from punto.bets import Bet
from punto.errors import TieOptionError
from punto.rules import preset
from punto.tie_options import TIE_POLICIES, TieAction, TiePolicy, tie_action, verify_tie_change

STANDING = {Bet.BANKER: 1_000}
CHANGES = {
    TieAction.CANCEL: {},
    TieAction.KEEP: {Bet.BANKER: 1_000},
    TieAction.RAISE: {Bet.BANKER: 2_000},
    TieAction.LOWER: {Bet.BANKER: 500},
    TieAction.SWITCH: {Bet.PLAYER: 1_000},
}


# -- tie_action classifies a change ----------------------------------------------------


@pytest.mark.parametrize(("action", "new"), list(CHANGES.items()))
def test_m12_tie_action_classifies_each_change(action: TieAction, new: dict[Bet, int]) -> None:
    assert tie_action(STANDING, new) is action


def test_m12_tie_action_looks_only_at_player_and_banker() -> None:
    standing = {Bet.BANKER: 1_000, Bet.TIE: 100}
    assert tie_action(standing, {Bet.BANKER: 1_000}) is TieAction.KEEP
    assert tie_action(STANDING, {Bet.BANKER: 1_000, Bet.PLAYER_PAIR: 100}) is TieAction.KEEP
    assert tie_action(STANDING, {Bet.TIE: 1_000}) is TieAction.CANCEL


def test_m12_tie_action_with_both_sides_standing() -> None:
    both = {Bet.BANKER: 1_000, Bet.PLAYER: 500}
    assert tie_action(both, {Bet.BANKER: 1_000, Bet.PLAYER: 500}) is TieAction.KEEP
    assert tie_action(both, {Bet.BANKER: 1_500, Bet.PLAYER: 500}) is TieAction.RAISE
    assert tie_action(both, {Bet.BANKER: 1_500, Bet.PLAYER: 400}) is TieAction.LOWER
    assert tie_action(both, {}) is TieAction.CANCEL


def test_m12_moving_the_stake_to_the_other_side_is_a_switch() -> None:
    assert tie_action(STANDING, {Bet.PLAYER: 3_000}) is TieAction.SWITCH
    assert tie_action({Bet.PLAYER: 100}, {Bet.BANKER: 100}) is TieAction.SWITCH


# -- the policies ----------------------------------------------------------------------


def test_m12_named_policies() -> None:
    assert sorted(TIE_POLICIES) == ["cancel_or_keep", "macau", "return", "sjm"]
    assert all(isinstance(p, TiePolicy) and p.name == n for n, p in TIE_POLICIES.items())
    assert not TIE_POLICIES["return"].stand
    assert all(TIE_POLICIES[n].stand for n in ("macau", "sjm", "cancel_or_keep"))


@pytest.mark.parametrize("action", list(TieAction))
def test_l_o_return_policy_returns_the_bets_and_allows_no_change(action: TieAction) -> None:
    with pytest.raises(TieOptionError, match="returned after a tie"):
        verify_tie_change(TIE_POLICIES["return"], STANDING, CHANGES[action])


@pytest.mark.parametrize("action", list(TieAction))
def test_m12_macau_policy_allows_cancel_keep_and_every_change(action: TieAction) -> None:
    verify_tie_change(TIE_POLICIES["macau"], STANDING, CHANGES[action])


@pytest.mark.parametrize("action", list(TieAction))
def test_m12_sjm_policy_allows_only_raising(action: TieAction) -> None:
    policy = TIE_POLICIES["sjm"]
    if action in (TieAction.KEEP, TieAction.RAISE):
        verify_tie_change(policy, STANDING, CHANGES[action])
        return
    with pytest.raises(TieOptionError, match=r"allows only: keep, raise \[M12\]"):
        verify_tie_change(policy, STANDING, CHANGES[action])


@pytest.mark.parametrize("action", list(TieAction))
def test_m12_cancel_or_keep_policy(action: TieAction) -> None:
    policy = TIE_POLICIES["cancel_or_keep"]
    if action in (TieAction.CANCEL, TieAction.KEEP):
        verify_tie_change(policy, STANDING, CHANGES[action])
        return
    with pytest.raises(TieOptionError, match=r"allows only: cancel, keep \[M12\]"):
        verify_tie_change(policy, STANDING, CHANGES[action])


def test_m12_presets_choose_their_tie_policy() -> None:
    assert preset("macau").tie_policy is TIE_POLICIES["macau"]
    for name in ("online_8deck", "online_no_commission", "live_tiger"):
        assert preset(name).tie_policy is TIE_POLICIES["return"]
