"""Video by game number in the browser [L]: the ffmpeg studio (examples/studio_stream.sh)
records a table while it deals; a supervisor opens a hand by its game number and its clip
plays from the hand's start, with the times of the start, each card and the end beside it
(pressing one seeks there); once the recording is pruned (``punto video prune``) the hand
says its video was deleted after 24 hours — on a laptop in English and a phone in Chinese."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from web.pages import log_in, new_page, save
from web.studio import needs_ffmpeg, stop, studio
from web.web_support import Server, run_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [pytest.mark.slow, needs_ffmpeg]

TABLE = "macau-1"


def _a_recorded_hand(server: Server, since: float) -> dict[str, Any]:
    """The first hand of the table dealt wholly after ``since`` whose clip is there."""
    token = server.token("sam")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        hands = httpx.get(server.url(f"/api/tables/{TABLE}/history?limit=5")).json()["hands"]
        for hand in sorted(hands, key=lambda h: h["opened_at"]):
            if hand["opened_at"] < since or not hand.get("closed_at") or not hand.get("cards"):
                continue
            answer = httpx.get(
                server.url(f"/api/hands/{hand['game']}/video"),
                headers={"Authorization": f"Bearer {token}"},
            )
            clip: dict[str, Any] = answer.json()
            if answer.status_code == 200 and clip["marks"][-1]["offset"] < clip["duration"]:
                return clip
        time.sleep(0.5)  # polls the table's history: the hand is dealt by the table's timers
    raise RuntimeError("no hand was recorded")


def _open_hand(page: Page, server: Server, game: str) -> None:
    page.goto(server.url("/app/#/supervisor"))
    page.locator('[data-tab="s-hands"]').click()
    page.get_by_test_id("game-input").fill(game)
    page.get_by_test_id("game-input").press("Enter")
    page.locator(f'article.hand-record[data-game="{game}"]').wait_for()


def _plays_from_the_hand(page: Page, clip: dict[str, Any]) -> None:
    """The clip starts at the hand's start and its time advances."""
    video = page.get_by_test_id("clip-video")
    video.wait_for()
    page.wait_for_function(
        "(t) => document.querySelector('[data-testid=clip-video]').currentTime > t + 0.5",
        arg=clip["offset"],
        timeout=30_000,
    )
    assert video.evaluate("(v) => v.currentTime") < clip["duration"] + 0.5


def _shoot(page: Page, folder: Path, name: str) -> None:
    """A screenshot with the hand's clip in view (its heading at the top)."""
    page.get_by_test_id("hand-clip").evaluate("(e) => e.scrollIntoView({block: 'start'})")
    page.evaluate(  # below the sticky header (two rows on a phone)
        "() => window.scrollBy(0, -(document.querySelector('header')"
        "?.getBoundingClientRect().height ?? 60) - 12)"
    )
    save(page, folder, name)


def _prune(folder: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "punto", "video", "prune", "--retention", "0"],
        env={**os.environ, "PUNTO_RECORDINGS_DIR": str(folder)},
        check=True,
        capture_output=True,
    )


def test_l_a_supervisor_watches_a_hand_by_its_game_number_until_it_is_pruned(
    browser: Browser, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    errors: list[str] = []
    recordings = Path(tempfile.mkdtemp(prefix="punto-recordings-"))
    try:
        with (
            run_server(PUNTO_RECORDINGS_DIR=str(recordings), PUNTO_BETTING_SECONDS="2") as server,
            studio(recordings / TABLE) as (_, recording),
        ):
            clip = _a_recorded_hand(server, since=time.time())
            game = clip["game"]
            laptop = new_page(browser, errors, width=1366, height=768)
            log_in(laptop, server, "sam")
            _open_hand(laptop, server, game)
            _plays_from_the_hand(laptop, clip)
            marks = laptop.locator(".clip-mark")
            expect(marks).to_have_count(len(clip["marks"]))
            expect(marks.first).to_contain_text("Start")
            expect(marks.nth(1)).to_contain_text("Player's first card")
            expect(marks.last).to_contain_text("End")
            # pressing a card's time seeks there
            card = clip["marks"][2]
            marks.nth(2).click()
            laptop.wait_for_function(
                "(t) => Math.abs(document.querySelector('[data-testid=clip-video]')"
                ".currentTime - t) < 1.5",
                arg=card["offset"],
            )
            expect(laptop.get_by_test_id("hand-clip")).to_contain_text("Video kept until")
            _shoot(laptop, shots, "clip-1366x768-en")

            phone = new_page(browser, errors, width=1366, height=768, locale="zh-CN")
            log_in(phone, server, "sam")
            _open_hand(phone, server, game)
            _plays_from_the_hand(phone, clip)
            expect(phone.locator(".clip-mark").first).to_contain_text("开始")
            _shoot(phone, shots, "clip-1366x768-zh")
            for page, name in ((phone, "clip-390x844-zh"), (laptop, "clip-390x844-en")):
                page.set_viewport_size({"width": 390, "height": 844})
                _shoot(page, shots, name)
                width = page.evaluate("() => document.documentElement.scrollWidth")
                assert width <= 390, f"the phone page scrolls sideways ({width}px)"
            laptop.set_viewport_size({"width": 1366, "height": 768})

            # the recording pruned: the hand says its video was deleted, no broken player
            stop(recording)
            _prune(recordings)
            for page, text in (
                (laptop, "Video deleted after 24 h"),
                (phone, "视频已在 24 小时后删除"),
            ):
                _open_hand(page, server, game)
                clip_box = page.get_by_test_id("hand-clip")
                expect(clip_box).to_have_attribute("data-state", "gone")
                expect(page.get_by_test_id("clip-gone")).to_contain_text(text)
                expect(page.get_by_test_id("clip-video")).to_have_count(0)
            _shoot(laptop, shots, "clip-gone-1366x768-en")
            _shoot(phone, shots, "clip-gone-390x844-zh")
            laptop.context.close()
            phone.context.close()
    finally:
        shutil.rmtree(recordings, ignore_errors=True)
    assert errors == []


def test_l_a_player_recalls_their_own_hand_with_its_clip(browser: Browser, tmp_path: Path) -> None:
    """GLI-19 recall of the player's own hand carries the hand's clip: it plays from the
    hand's start beside the cards as they were shown."""
    from playwright.sync_api import expect

    from web.pages import confirm_bet, new_player, sit

    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    errors: list[str] = []
    recordings = Path(tempfile.mkdtemp(prefix="punto-recordings-"))
    try:
        with (
            run_server(PUNTO_RECORDINGS_DIR=str(recordings)) as server,
            studio(recordings / TABLE),
        ):
            player = new_player(server, "rc")
            page = new_page(browser, errors, width=1366, height=768)
            log_in(page, server, player)
            sit(page, server, TABLE, 3)
            confirm_bet(page, 1000, "player", "10.00")
            game = page.get_by_test_id("info-game").inner_text()
            token = server.token(player)
            deadline = time.monotonic() + 120
            while True:  # the hand is dealt and recorded by the table's timers
                answer = httpx.get(
                    server.url(f"/api/hands/{game}/video"),
                    headers={"Authorization": f"Bearer {token}"},
                )
                if answer.status_code == 200:
                    clip = answer.json()
                    if clip["marks"][-1]["offset"] < clip["duration"]:
                        break
                assert time.monotonic() < deadline, answer.text
                time.sleep(0.5)
            page.goto(server.url("/app/#/records"))
            page.locator(f'[data-recall="{game}"]').click()
            recall = page.get_by_test_id("recall")
            expect(recall.locator(f'article.recall[data-game="{game}"]')).to_be_visible()
            expect(recall.get_by_test_id("hand-clip")).to_have_attribute("data-state", "available")
            _plays_from_the_hand(page, clip)
            _shoot(page, shots, "recall-clip-1366x768-en")
            page.context.close()
    finally:
        shutil.rmtree(recordings, ignore_errors=True)
    assert errors == []
