"""Complaints [L] in the browser: a player recalls a hand and files a complaint (the
form shows date and time, table, dealer and game number); the supervisor opens it from
the queue with the hand and voids the hand with a reason; the player sees the outcome."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from web.pages import leave_seat, log_in, new_page, register_and_play, save
from web.web_support import Server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.slow


def test_a_complaint_is_filed_resolved_and_seen_by_the_player(
    server: Server, browser: Browser, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    shots = Path(os.environ.get("PUNTO_SCREENSHOTS", tmp_path))
    errors: list[str] = []
    player = new_page(browser, errors)
    game = register_and_play(player, server, "ivy", "macau-1", 6, "player")
    leave_seat(player)

    player.goto(server.url("/app/#/records"))
    player.locator(f'[data-recall="{game}"]').click()
    form = player.get_by_test_id("complaint-form")
    expect(form).to_contain_text(game)
    expect(form).to_contain_text("macau-1")
    form.get_by_test_id("complaint-text").fill("the banker's third card looked wrong")
    form.get_by_role("button", name="Send complaint").click()
    expect(form).to_contain_text("Complaint sent")
    mine = player.get_by_test_id("my-complaints")
    expect(mine).to_contain_text("open: being checked")
    form.scroll_into_view_if_needed()
    save(player, shots, "complaint-form-en-1280")

    supervisor = new_page(browser, errors)
    log_in(supervisor, server, "sam")
    supervisor.locator('[data-tab="s-complaints"]').click()
    item = supervisor.locator(f'article.complaint[data-game="{game}"]')
    expect(item).to_contain_text("the banker's third card looked wrong")
    item.get_by_role("button", name="Open the hand").click()
    expect(item.locator(f'article.hand-record[data-game="{game}"]')).to_contain_text("ivy")
    item.scroll_into_view_if_needed()
    save(supervisor, shots, "complaint-queue-en-1280")
    item.get_by_test_id("complaint-action").select_option("void")
    item.get_by_test_id("complaint-reason").fill("the video shows a misdeal")
    item.get_by_role("button", name="Resolve").click()
    expect(supervisor.get_by_test_id("complaint-queue")).not_to_contain_text(game)

    player.reload()
    row = player.get_by_test_id("my-complaints").locator("tr[data-state]")
    expect(row.first).to_have_attribute("data-state", "voided")
    expect(row.first).to_contain_text("the video shows a misdeal")
    expect(player.locator(f'[data-testid="bet-records"] tr[data-game="{game}"]')).to_contain_text(
        "void"
    )
    assert errors == []
