"""The card-reading shoe over the real protocol (``punto studio reader``): a file of reads
deals a whole shoe at a live table, and every misread becomes the [L] fault "card not
scanned" and its re-scan; nothing is dealt wrong [L], [M3]."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from server_support import RunningServer, TableClient, add_macau_live, server_on

from punto.cards import Card
from punto.coup import deal_coup

pytestmark = pytest.mark.asyncio

DECKS = 8
CUT_IN_HAND = 40
"""The hand during which the cut card comes out (after its first card) [M3]."""


def _shoe_order(seed: int) -> list[Card]:
    """Eight decks in a shuffled order, the aces of spades among the first cards (so a
    late read of one is a card the shoe cannot hold), seven cards apart (never two in a
    hand)."""
    cards = [Card.parse(r + s) for r in "A23456789TJQK" for s in "SHDC"] * DECKS
    random.Random(seed).shuffle(cards)
    rest = [c for c in cards if c.code != "AS"]
    order: list[Card] = []
    for _ in range(DECKS):
        order += [Card.parse("AS"), *rest[:6]]
        del rest[:6]
    return order + rest


def _hands(order: list[Card], count: int) -> list[list[Card]]:
    """The first ``count`` coups dealt from ``order``, each as its cards."""
    hands, at = [], 0
    for _ in range(count):
        used = deal_coup(order[at:]).cards_used
        hands.append(order[at : at + used])
        at += used
    return hands


def _reads(hands: list[list[Card]]) -> tuple[list[str], list[tuple[str, bool]], list[str]]:
    """The reader's lines for ``hands`` (the cut card after the first card of hand
    :data:`CUT_IN_HAND`, misreads here and there), what must be dealt (each card, and
    whether as a re-scan) and the misreads reported, in order. A card the hand holds
    already is read, reported as a duplicate and scanned again, as a dealer does."""
    lines: list[str] = []
    dealt: list[tuple[str, bool]] = []
    faults: list[str] = []
    misreads = {3: ["BAD"], 7: ["ZZ"], 11: ["BAD", "no read"], 15: ["AS"]}
    why = {"BAD": "marked_bad", "ZZ": "unknown_code", "AS": "refused"}
    for number, hand in enumerate(hands, start=1):
        for k, card in enumerate(hand):
            rescan = False
            if k == 1 and number in misreads:  # before the hand's second card
                lines.extend(misreads[number])
                faults.append(why[misreads[number][0]])
                rescan = True
            elif k == 2 and number == 19:  # the scanner reads the card before twice
                lines.append(hand[1].code)
                faults.append("duplicate")
                rescan = True
            elif card in hand[:k]:  # the same card again: a duplicate until scanned again
                lines.append(card.code)
                faults.append("duplicate")
                rescan = True
            lines.append(card.code)
            dealt.append((card.code, rescan))
            if number == CUT_IN_HAND and k == 0:
                lines.append("CUT")
    return lines, dealt, faults


async def _console(dealer: TableClient, done: asyncio.Event) -> int:
    """The dealer's console: opens and closes each hand's betting, until the shoe closes;
    how many hands were dealt."""
    hands = 0
    while not done.is_set():
        answer = await dealer.request({"type": "open_betting"})
        if answer["type"] != "ok":
            return hands
        game = str((await dealer.next_of("betting_opened"))["event"]["game"])
        await dealer.ok({"type": "close_betting"})
        await dealer.next_of("hand_settled", _of(game), timeout=60)  # the house settles
        hands += 1
        if any(
            m.get("type") == "event" and m["event"]["kind"] == "shoe_closed"
            for m in dealer.received
        ):
            return hands
    return hands


def _of(game: str) -> Callable[[dict[str, Any]], bool]:
    return lambda message: bool(message["event"]["game"] == game)


def _placed(dealer: TableClient) -> list[tuple[str, bool]]:
    return [
        (m["event"]["card"], m["event"]["rescan"])
        for m in dealer.received
        if m.get("type") == "event" and m["event"]["kind"] == "card_placed"
    ]


def _faults(dealer: TableClient) -> list[str]:
    return [
        m["event"]["fault"]
        for m in dealer.received
        if m.get("type") == "event" and m["event"]["kind"] == "fault_reported"
    ]


@contextlib.asynccontextmanager
async def _live_table(tmp_path: Path) -> AsyncIterator[tuple[RunningServer, TableClient]]:
    async with server_on("sqlite", tmp_path) as server:
        await add_macau_live(server)
        async with TableClient.connect(server, "macau-live", await server.token("dana")) as dealer:
            await dealer.ok({"type": "start_shoe"})
            yield server, dealer


async def test_card_reader_cli_deals_a_whole_shoe_from_a_file(tmp_path: Path) -> None:
    hands = _hands(_shoe_order(7), CUT_IN_HAND + 1)  # [M3]: one more hand after the cut card's
    reads, dealt, misread = _reads(hands)
    source = tmp_path / "reads.txt"
    source.write_text("\n".join(reads) + "\n")
    async with _live_table(tmp_path) as (server, dealer):
        env = {**os.environ, "PUNTO_READER_PASSWORD": "dana-demo"}
        reader = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "punto",
            "studio",
            "reader",
            "--table",
            "macau-live",
            "--server",
            server.url,
            "--user",
            "dana",
            "--source",
            str(source),
            "--json",
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        done = asyncio.Event()
        console = asyncio.create_task(_console(dealer, done))
        talk = asyncio.create_task(reader.communicate())
        await asyncio.wait({talk, console}, timeout=60, return_when=asyncio.FIRST_EXCEPTION)
        if not talk.done():  # the console failed, or the reader hangs: say why
            reader.kill()
        out, err = await talk
        done.set()
        played = await asyncio.wait_for(console, 60)
    assert reader.returncode == 0, err.decode()[-3000:]
    steps = [json.loads(line) for line in out.decode().splitlines()]
    assert steps[-1]["summary"] == {
        "dealt": len(dealt),
        "rescans": sum(r for _, r in dealt),
        "faults": len(misread),
        "failed_rescans": 1,
        "cut_card": 1,
    }
    assert played == CUT_IN_HAND + 1  # the shoe closed after its last hand [M3]
    assert _placed(dealer) == dealt  # every card, in order, the re-scans as such
    assert _faults(dealer) == ["l_card_not_scanned"] * len(misread)
    misreads = [s["misread"] for s in steps if s.get("step") == "fault"]
    assert misreads == misread
    assert {"marked_bad", "unknown_code", "refused", "duplicate"} <= set(misreads)
