"""Glass to glass: how far the table page's picture is behind the studio, over WebRTC and
over HLS.

Starts the development studio (``examples/studio_stream.sh --webrtc``: ffmpeg renders a
test pattern whose top-left 24 blocks hold the capture time in milliseconds modulo 2^24;
``examples/whep_studio.py`` serves it over WHEP, ffmpeg's own HLS beside it) and ``punto
serve --demo``, gives a table the studio's video, and opens the table page in headless
Chromium. For every frame the page presents (``requestVideoFrameCallback``) the blocks are
read back from the video element and set against the wall clock of the same machine; the
same again with WebRTC taken away, so the page plays HLS. Prints the median and the worst
over each run, and the page's own figure of its delay (the latency meter's) beside them.

Run: ``python benchmarks/bench_video_latency.py [--seconds 20] [--json]`` (needs ffmpeg,
Chromium and aiortc: ``make test`` installs them).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
STUDIO = ROOT / "examples" / "studio_stream.sh"
CHROMIUM = os.environ.get("PUNTO_CHROMIUM", "/usr/bin/chromium")
TABLE = "nocomm-1"

# Reads the studio's clock from each frame the page presents; the delay of each, in ms.
READ_FRAMES = """
async (seconds) => {
  const video = document.querySelector("[data-testid=table-video]");
  const canvas = document.createElement("canvas");
  canvas.width = 384;
  canvas.height = 24;
  const g = canvas.getContext("2d", { willReadFrequently: true });
  const delays = [];
  const until = performance.now() + seconds * 1000;
  await new Promise((done) => {
    const frame = (now) => {
      const wall = Math.floor(performance.timeOrigin + now);
      const scale = video.videoWidth / 640;
      g.drawImage(video, 0, 0, 384 * scale, 24 * scale, 0, 0, 384, 24);
      const px = g.getImageData(0, 0, 384, 24).data;
      let value = 0;
      let clean = true;
      for (let i = 0; i < 24; i++) {
        const level = px[(12 * 384 + i * 16 + 8) * 4];
        if (level > 70 && level < 180) clean = false;
        if (level >= 180) value += 2 ** i;
      }
      if (clean) delays.push((((wall - value) % 16777216) + 16777216) % 16777216);
      if (now < until) video.requestVideoFrameCallback(frame); else done();
    };
    video.requestVideoFrameCallback(frame);
  });
  return delays;
}
"""


def _ports(span: int) -> int:
    """The first of ``span`` free consecutive ports."""
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            first = int(sock.getsockname()[1])
        if first + span >= 65535:
            continue
        try:
            with contextlib.ExitStack() as stack:
                for port in range(first, first + span):
                    sock = stack.enter_context(socket.socket())
                    sock.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue


def _wait(check: Any, what: str, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if check():
                return
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"bench_video_latency: {what} did not start")
        time.sleep(0.2)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


@contextlib.contextmanager
def _running(folder: Path) -> Iterator[tuple[str, str]]:
    """The studio and a demo server: the playlist's URL and the server's."""
    studio_port, server_port = _ports(3), _ports(1)
    env = {**os.environ, "PYTHON": sys.executable}
    studio = subprocess.Popen(
        ["bash", str(STUDIO), "--webrtc", str(studio_port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env=env,
    )
    server_env = {
        **env,
        "PUNTO_DEMO": "1",
        "PUNTO_LOG_LEVEL": "WARNING",
        "PUNTO_DATABASE_URL": f"sqlite:///{folder / 'punto.sqlite3'}",
    }
    command = [sys.executable, "-m", "punto", "serve", "--port", str(server_port)]
    with (folder / "server.log").open("wb") as log:
        server = subprocess.Popen(
            command, env=server_env, cwd=folder, stdout=log, stderr=log, start_new_session=True
        )
    hls = f"http://127.0.0.1:{studio_port}/live.m3u8"
    base = f"http://127.0.0.1:{server_port}"
    try:
        _wait(lambda: httpx.get(f"{base}/healthz").status_code == 200, "punto serve", server)
        _wait(lambda: httpx.get(hls).text.count("#EXTINF") >= 2, "the studio", studio)
        whep = f"http://127.0.0.1:{studio_port + 1}/whep"
        _wait(lambda: httpx.options(whep).status_code == 204, "the WHEP server", studio)
        yield hls, base
    finally:
        _stop(studio)
        _stop(server)


def _video(base: str, hls: str) -> None:
    token = httpx.post(
        f"{base}/api/auth/login", json={"username": "admin", "password": "admin-demo"}
    ).json()["token"]
    port = int(hls.split(":")[2].split("/")[0])
    video = {"whep_url": f"http://127.0.0.1:{port + 1}/whep", "hls_url": hls}
    answer = httpx.patch(
        f"{base}/api/admin/tables/{TABLE}",
        json={"video": video},
        headers={"Authorization": f"Bearer {token}"},
    )
    answer.raise_for_status()


def _measure(base: str, seconds: float, *, webrtc: bool) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    # another origin's HLS frames may be read back only with the same-origin rule off
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-web-security"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=args)
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            if not webrtc:
                page.add_init_script("delete window.RTCPeerConnection")
            page.goto(f"{base}/app/#/table/{TABLE}")
            transport = "webrtc" if webrtc else "hls"
            page.wait_for_selector(f".video-panel[data-transport={transport}]", timeout=60_000)
            page.wait_for_function(
                "() => document.querySelector('[data-testid=table-video]').currentTime > 2",
                timeout=60_000,
            )
            delays: list[int] = page.evaluate(READ_FRAMES, seconds)
            meter = page.get_by_test_id("net-video").text_content() or ""
        finally:
            browser.close()
    if not delays:
        raise SystemExit("bench_video_latency: no frame carried a readable clock")
    shown = "".join(c for c in meter if c.isdigit() or c == ".")
    return {
        "glass_to_glass_p50_ms": round(statistics.median(delays)),
        "glass_to_glass_max_ms": max(delays),
        "frames": len(delays),
        "page_delay_ms": round(float(shown) * 1000) if shown else None,
    }


def main() -> int:
    """Measure both ways and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each run reads")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory(prefix="punto-bench-video-") as folder,
        _running(Path(folder)) as (hls, base),
    ):
        _video(base, hls)
        webrtc = _measure(base, args.seconds, webrtc=True)
        over_hls = _measure(base, args.seconds, webrtc=False)
    result = {**webrtc, "webrtc": True, "hls": {**over_hls, "webrtc": False}}
    if args.json:
        print(json.dumps(result))
        return 0
    for name, run in (("WebRTC (WHEP)", webrtc), ("HLS", over_hls)):
        print(
            f"{name}: glass to glass median {run['glass_to_glass_p50_ms']} ms, "
            f"worst {run['glass_to_glass_max_ms']} ms over {run['frames']} frames; "
            f"the page's meter: {run['page_delay_ms']} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
