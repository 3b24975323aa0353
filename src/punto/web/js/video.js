// The table's live video (docs/web.md "Live video"): the stream URL the administrator set
// (an HLS playlist, played natively by the <video> element), muted by default with a clear
// unmute button, its delay measured from the playlist's EXT-X-PROGRAM-DATE-TIME against the
// wall clock, and a "video unavailable" state (with a retry) when it fails, stalls or stops.
import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";

const STALL_MS = 8000; // the picture has not moved for this long: the stream stopped
const MEASURE_MS = 4000; // how often the playlist is read for the delay
const RETRY_MS = 10000; // a failed stream is tried again this often

/** Parse a media playlist: its segments' wall-clock starts (ms) and durations (s), and the
 * first variant's URI when it is a master playlist. */
export function parsePlaylist(text) {
  const lines = String(text).split(/\r?\n/).map((l) => l.trim());
  const segments = [];
  let variant = null;
  let pdt = null;
  let duration = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("#EXT-X-STREAM-INF")) {
      const next = lines.slice(i + 1).find((l) => l && !l.startsWith("#"));
      if (next && variant === null) variant = next;
    } else if (line.startsWith("#EXT-X-PROGRAM-DATE-TIME:")) {
      const ms = Date.parse(line.slice(25).replace(/([+-]\d\d)(\d\d)$/, "$1:$2"));
      pdt = Number.isNaN(ms) ? null : ms;
    } else if (line.startsWith("#EXTINF:")) {
      duration = parseFloat(line.slice(8));
    } else if (line && !line.startsWith("#")) {
      if (duration !== null) segments.push({ start: pdt, duration });
      if (pdt !== null && duration !== null) pdt += duration * 1000;
      duration = null;
    }
  }
  return { segments, variant };
}

/** The wall-clock time (ms) of a playlist's live edge, or null without program date times. */
export function liveEdge(segments) {
  const last = segments[segments.length - 1];
  return last && last.start !== null ? last.start + last.duration * 1000 : null;
}

/** The live-video panel of table `tableId`: `{ element }` (empty when the table has no video). */
export function videoPanel(tableId) {
  const element = h("section", { class: "panel video-panel", hidden: true, "aria-label": t("video.title") });
  let url = null;
  let state = "loading"; // loading | playing | unavailable
  let lastTime = -1;
  let lastMove = Date.now();
  let delay = null;
  let timers = [];

  const video = h("video", { class: "video", muted: true, autoplay: true, playsinline: true, "data-testid": "table-video" });
  video.muted = true;
  video.defaultMuted = true;
  const sound = h("button", { type: "button", class: "btn btn-small video-sound", "data-testid": "video-sound", onclick: () => {
    video.muted = !video.muted;
    if (!video.muted) video.play().catch(() => {});
    paint();
  } });
  const delayLine = h("span", { class: "video-delay", "data-testid": "video-delay" });
  const veil = h("div", { class: "video-veil", role: "status", "aria-live": "polite", "data-testid": "video-state" });
  const retry = h("button", { type: "button", class: "btn btn-small", onclick: () => start() }, t("video.retry"));

  function paint() {
    element.dataset.state = state;
    sound.textContent = video.muted ? t("video.unmute") : t("video.mute");
    sound.setAttribute("aria-pressed", String(!video.muted));
    sound.hidden = state !== "playing";
    delayLine.textContent = state === "playing" && delay !== null ? t("video.delay", { s: delay.toFixed(1) }) : "";
    if (state === "unavailable") fill(veil, h("p", {}, t("video.unavailable")), retry);
    else if (state === "loading") fill(veil, h("p", {}, t("video.loading")));
    else fill(veil);
    veil.hidden = state === "playing";
  }

  function unavailable() {
    if (state === "unavailable") return;
    state = "unavailable";
    delay = null;
    video.removeAttribute("src");
    video.load();
    paint();
  }

  async function measure() {
    if (state !== "playing" || !url) return;
    try {
      let target = url;
      let parsed = parsePlaylist(await (await fetch(target, { cache: "no-store" })).text());
      if (parsed.variant) {
        target = new URL(parsed.variant, target).href;
        parsed = parsePlaylist(await (await fetch(target, { cache: "no-store" })).text());
      }
      const edge = liveEdge(parsed.segments);
      if (edge === null) return;
      const seekable = video.seekable.length ? video.seekable.end(video.seekable.length - 1) : video.currentTime;
      const behindEdge = Math.max(0, seekable - video.currentTime);
      delay = Math.max(0, (Date.now() - edge) / 1000 + behindEdge);
      paint();
    } catch {
      // The playlist cannot be read (no CORS, network): the delay stays unknown; the
      // stall watch decides whether the video is still there.
    }
  }

  function watch() {
    if (state === "unavailable") return;
    if (video.currentTime !== lastTime) {
      lastTime = video.currentTime;
      lastMove = Date.now();
      if (state === "loading" && lastTime > 0) {
        state = "playing";
        paint();
        measure();
      }
    } else if (Date.now() - lastMove > STALL_MS) {
      unavailable();
    }
  }

  function start() {
    if (!url) return;
    state = "loading";
    lastTime = -1;
    lastMove = Date.now();
    paint();
    video.src = url;
    video.play().catch(() => {});
  }

  video.addEventListener("error", unavailable);
  video.addEventListener("ended", unavailable);

  element.append(
    h("div", { class: "row row-between" }, h("h2", {}, t("video.title")), delayLine),
    h("div", { class: "video-frame" }, video, veil, sound),
  );
  paint();

  api.table(tableId).then((desc) => {
    url = desc.stream_url || null;
    if (!url) return;
    element.hidden = false;
    start();
    timers = [
      window.setInterval(watch, 500),
      window.setInterval(measure, MEASURE_MS),
      window.setInterval(() => { if (state === "unavailable") start(); }, RETRY_MS),
    ];
  }).catch(() => {});

  return {
    element,
    stop() {
      timers.forEach((id) => window.clearInterval(id));
      video.removeAttribute("src");
      video.load();
    },
  };
}
