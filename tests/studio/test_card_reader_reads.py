"""The card reader's reads and the step each one is [L]: pure, no table needed; and the
sources its lines come from (a file, a TCP socket, a serial port)."""

from __future__ import annotations

import asyncio
import os
import tty
from pathlib import Path

import pytest

from punto.cards import Card
from punto.errors import ReaderError
from punto.studio.reads import Misread, Step, StepKind, next_step, read_line, refused
from punto.studio.sources import lines

DEALING = frozenset({"deal_card", "report_fault", "cut_card_out"})
OWED = DEALING | {"rescan"}
BETTING = frozenset({"close_betting", "cut_card_out"})


@pytest.mark.parametrize(
    ("line", "card", "cut", "misread"),
    [
        ("9S", "9S", False, None),
        (" kh\r\n", "KH", False, None),
        ("10d", "TD", False, None),
        ("CUT", None, True, None),
        ("cut card", None, True, None),
        ("BAD", None, False, Misread.MARKED_BAD),
        ("no  read", None, False, Misread.MARKED_BAD),
        ("?", None, False, Misread.MARKED_BAD),
        ("ZZ", None, False, Misread.UNKNOWN_CODE),
        ("9S9S", None, False, Misread.UNKNOWN_CODE),
        ("9\x00S", "9S", False, None),
        ("\x1b[A", None, False, Misread.UNKNOWN_CODE),
    ],
)
def test_card_reader_lines_are_cards_the_cut_card_or_misreads(
    line: str, card: str | None, cut: bool, misread: Misread | None
) -> None:
    read = read_line(line)
    assert read is not None
    assert (None if read.card is None else read.card.code, read.cut, read.misread) == (
        card,
        cut,
        misread,
    )


def test_card_reader_blank_lines_are_no_read() -> None:
    assert read_line("") is None
    assert read_line("  \r\n") is None


def _step(line: str, legal: frozenset[str], layout: tuple[str, ...] = ()) -> Step:
    read = read_line(line)
    assert read is not None
    return next_step(read, legal=legal, layout=[Card.parse(c) for c in layout])


def test_card_reader_deals_a_card_while_the_table_takes_one() -> None:
    assert _step("9S", DEALING) == Step(StepKind.DEAL, card=Card.parse("9S"))


def test_card_reader_holds_a_card_until_the_table_takes_cards() -> None:
    assert _step("9S", BETTING).kind is StepKind.WAIT
    assert _step("BAD", BETTING).kind is StepKind.WAIT  # misreads keep their order too


def test_card_reader_misreads_are_the_card_not_scanned_fault() -> None:
    assert _step("BAD", DEALING) == Step(StepKind.REPORT, misread=Misread.MARKED_BAD)
    assert _step("XX", DEALING) == Step(StepKind.REPORT, misread=Misread.UNKNOWN_CODE)


def test_card_reader_a_failed_rescan_reports_nothing_more() -> None:
    assert _step("BAD", OWED) == Step(StepKind.SKIP, misread=Misread.MARKED_BAD)


def test_card_reader_the_good_read_after_a_fault_is_its_rescan() -> None:
    assert _step("7H", OWED) == Step(StepKind.DEAL, card=Card.parse("7H"), rescan=True)


def test_card_reader_a_duplicate_asks_for_a_rescan_which_deals_it() -> None:
    assert _step("7H", DEALING, ("4S", "7H")) == Step(StepKind.REPORT, misread=Misread.DUPLICATE)
    # several decks hold the same card more than once: the re-scan of it is dealt
    assert _step("7H", OWED, ("4S", "7H")).rescan


def test_card_reader_a_card_the_shoe_cannot_hold_is_a_fault_once() -> None:
    assert refused(legal=DEALING) == Step(StepKind.REPORT, misread=Misread.REFUSED)
    assert refused(legal=OWED).kind is StepKind.SKIP


def test_card_reader_the_cut_card_when_the_table_may_take_it() -> None:
    assert _step("CUT", BETTING).kind is StepKind.CUT
    assert _step("CUT", frozenset({"open_betting"})).kind is StepKind.WAIT


async def _all(source: str) -> list[str]:
    return [line async for line in lines(source)]


@pytest.mark.asyncio
async def test_card_reader_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "reads.txt"
    path.write_bytes(b"9S\r\nBAD\n\xff\xfe\nKH")
    assert await _all(str(path)) == ["9S\r\n", "BAD\n", "\ufffd\ufffd\n", "KH"]


@pytest.mark.asyncio
async def test_card_reader_reads_a_tcp_reader() -> None:
    async def serve(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"9S\nTD\n" + b"X" * 5000 + b"\nKH\n")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        got = await _all(f"tcp:127.0.0.1:{port}")
    assert got[:2] == ["9S\n", "TD\n"]
    assert got[-1] == "KH\n"
    assert all(len(line) <= 256 for line in got)  # an overlong read is cut, not kept whole


@pytest.mark.asyncio
async def test_card_reader_reads_a_serial_port() -> None:
    main, port = os.openpty()  # a pseudo-terminal: the device a USB-serial reader is
    try:
        tty.setraw(port)  # as the reader sets it: what is written now waits to be read
        os.write(main, b"9S\nTD\n")
        got = await asyncio.wait_for(_first(os.ttyname(port), 2), 20)
    finally:
        os.close(main)
        os.close(port)
    assert got == ["9S\n", "TD\n"]


async def _first(source: str, count: int) -> list[str]:
    out: list[str] = []
    async for line in lines(source, baud=115200):
        out.append(line)
        if len(out) >= count:
            break
    return out


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("/nonexistent/ttyUSB9", "cannot read the card reader"),
        ("tcp:nowhere", "tcp:HOST:PORT"),
        ("tcp:127.0.0.1:1", "cannot connect to the card reader"),
    ],
)
async def test_card_reader_sources_that_are_not_there_are_typed_errors(
    source: str, message: str
) -> None:
    with pytest.raises(ReaderError, match=message):
        await _all(source)


@pytest.mark.asyncio
async def test_card_reader_serial_speeds_are_checked() -> None:
    main, port = os.openpty()
    try:
        with pytest.raises(ReaderError, match="baud"):
            async for _ in lines(os.ttyname(port), baud=12345):
                pass
    finally:
        os.close(main)
        os.close(port)


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        (["--source", "/nonexistent/ttyUSB9"], {"PUNTO_READER_TOKEN": "t"}, "cannot read"),
        (["--source", "tcp:reader:99999"], {"PUNTO_READER_TOKEN": "t"}, "tcp:HOST:PORT"),
        ([], {}, "name the dealer"),
        (["--user", "shoe"], {}, "no password"),
    ],
)
def test_card_reader_cli_refuses_what_it_cannot_use_before_signing_in(
    argv: list[str],
    env: dict[str, str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from punto.cli import main

    for name in ("PUNTO_READER_TOKEN", "PUNTO_READER_PASSWORD", "PUNTO_READER_USER"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("builtins.open", _no_terminal(open))
    status = main(["studio", "reader", "--table", "t1", "--server", "http://127.0.0.1:9", *argv])
    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert "Traceback" not in err


def _no_terminal(real: object) -> object:
    def fake(path: object, *args: object, **kwargs: object) -> object:
        if path == "/dev/tty":
            raise OSError("no terminal")
        return real(path, *args, **kwargs)  # type: ignore[operator]

    return fake
