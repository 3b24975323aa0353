"""One truth per hand, live: a player's table page is open while a supervisor corrects
their hand, corrects a hand nobody bet on and voids their hand; the roads and the
player's records change on the open page without a reload [O], and a notice says what the
correction and the void moved on the player's balance."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, cast

import httpx
import pytest

from web.pages import new_page, register_and_play
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.slow

TABLE = "tiger-1"
PLAYER_NATURAL = {"player": ["9S", "KH"], "banker": ["7H", "8C"]}  # Player 9 beats 5
BANKER_NATURAL = {"player": ["7H", "8C"], "banker": ["9S", "KH"]}  # Banker 9 beats 5


def _post(server: Server, path: str, body: dict[str, Any]) -> dict[str, Any]:
    headers = server.headers("sam")
    answer = httpx.post(server.url(path), json=body, headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    return cast(dict[str, Any], answer.json())


def _beads(server: Server) -> str:
    roads = cast(dict[str, Any], server.get(f"/api/tables/{TABLE}/roads"))
    return "".join(b["result"] for b in roads["bead_plate"])


def _shows_beads(page: Page, beads: str) -> None:
    page.wait_for_function(
        """(want) => [...document.querySelectorAll('.roads-area circle.bead')]
                     .map((b) => b.dataset.result).join('') === want""",
        arg=beads,
    )


def _until(check: Any, what: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"no {what} within {timeout} s")


def _target(winner: str) -> tuple[dict[str, list[str]], str]:
    return (BANKER_NATURAL, "B") if winner == "player" else (PLAYER_NATURAL, "P")


def test_corrections_and_voids_change_an_open_players_roads_and_records(
    server: Server, browser: Browser
) -> None:
    from playwright.sync_api import expect

    errors: list[str] = []
    player = new_page(browser, errors)
    game = register_and_play(player, server, "gwen", TABLE, 3, "player")
    row = player.locator(f'[data-testid="bet-records"] tr[data-game="{game}"]')
    expect(row).to_be_visible()
    stake = 2500
    player.locator('[data-action="stand"]').click()

    def quiet_hand() -> str | None:
        hands = cast(dict[str, Any], server.get(f"/api/tables/{TABLE}/history?limit=5"))["hands"]
        later = [h for h in hands if h["game"] > game and h["outcome"] and not h["blank"]]
        return str(later[-1]["game"]) if later else None

    quiet = _until(quiet_hand, "hand after the player's")
    _post(server, f"/api/supervisor/tables/{TABLE}/pause", {"reason": "checking a hand"})
    try:
        _until(
            lambda: cast(dict[str, Any], server.get(f"/api/tables/{TABLE}"))["phase"] == "paused",
            "pause",
        )
        before = _beads(server)
        _shows_beads(player, before)
        hand = cast(dict[str, Any], server.get(f"/api/hands/{game}", "sam"))
        assert hand["bets"]["gwen"]
        target, letter = _target(hand["outcome"]["winner"])
        _post(
            server,
            f"/api/supervisor/hands/{game}/correct",
            {**target, "reason": "the video shows a natural"},
        )
        corrected = _beads(server)
        assert corrected != before or hand["outcome"]["winner"] == "tie"
        _shows_beads(player, corrected)
        net = stake if letter == "P" else -stake
        expect(row).to_have_attribute("data-net", str(net))
        # the money the correction moved is said at once, in a notice
        expect(player.locator(".toast", has_text=f"Hand {game} was corrected: ")).to_be_visible()
        expect(row).to_contain_text("corrected")

        quiet_hand_record = cast(dict[str, Any], server.get(f"/api/hands/{quiet}", "sam"))
        assert quiet_hand_record["bets"] == {}
        quiet_target, _ = _target(quiet_hand_record["outcome"]["winner"])
        _post(
            server,
            f"/api/supervisor/hands/{quiet}/correct",
            {**quiet_target, "reason": "misread card"},
        )
        fixed = _beads(server)
        assert fixed != corrected or quiet_hand_record["outcome"]["winner"] == "tie"
        _shows_beads(player, fixed)

        _post(server, f"/api/supervisor/hands/{game}/void", {"reason": "dealer error"})
        voided = _beads(server)
        assert len(voided) == len(fixed) - 1
        _shows_beads(player, voided)
        expect(row).to_have_attribute("data-net", "0")
        expect(row).to_contain_text("void")
        expect(player.locator(".toast", has_text=f"Hand {game} was voided: ")).to_be_visible()
    finally:
        _post(server, f"/api/supervisor/tables/{TABLE}/resume", {})
    assert errors == []
