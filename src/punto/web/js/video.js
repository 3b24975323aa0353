// The table's live video (docs/web.md "Live video", docs/studio.md): WebRTC over WHEP when
// the table offers it (the browser's own RTCPeerConnection: POST an SDP offer, the answer,
// ICE), HLS (the <video> element's own player) when WebRTC fails, is blocked or is not
// offered; a dropped WebRTC connection is made again by itself. Muted by default with a
// clear unmute button, its delay measured (the studio's burnt-in clock where the picture
// carries one; else WebRTC: the receiver's jitter buffer, decoding and half the round trip;
// HLS: EXT-X-PROGRAM-DATE-TIME against the wall clock), a quality
// choice where the studio offers several, and "video unavailable" (with a retry) when it
// fails, stalls or stops.
import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { api } from "./api.js";

const STALL_MS = 8000; // the picture has not moved for this long: the stream stopped
const MEASURE_MS = 1000; // how often the delay is measured
const PLAYLIST_EVERY = 4; // … and the playlist read for it, every this many measures
const READINGS = 5; // the delay shown is the median of this many measures
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

const CLOCK_BLOCKS = 24; // the studio's clock: 24 blocks of 16×24 px (at 640 wide) …
const CLOCK_MOD = 2 ** 24; // … holding the capture time in ms modulo 2^24, least bit first
let clockCanvas = null;

/** The picture's delay (s) read from the studio's burnt-in clock (docs/studio.md "The
 * studio's clock"), or null when the picture carries none or cannot be read (another
 * origin's HLS). `now` is the wall clock in ms. */
export function clockDelay(video, now = Date.now()) {
  if (!video.videoWidth || video.readyState < 2) return null;
  if (!clockCanvas) {
    clockCanvas = document.createElement("canvas");
    clockCanvas.width = CLOCK_BLOCKS * 16;
    clockCanvas.height = 24;
  }
  const g = clockCanvas.getContext("2d", { willReadFrequently: true });
  const scale = video.videoWidth / 640;
  let px;
  try {
    g.drawImage(video, 0, 0, CLOCK_BLOCKS * 16 * scale, 24 * scale, 0, 0, CLOCK_BLOCKS * 16, 24);
    px = g.getImageData(0, 0, CLOCK_BLOCKS * 16, 24).data;
  } catch {
    return null; // a picture of another origin cannot be read
  }
  let value = 0;
  for (let i = 0; i < CLOCK_BLOCKS; i++) {
    const level = px[(12 * CLOCK_BLOCKS * 16 + i * 16 + 8) * 4];
    if (level > 70 && level < 180) return null; // not a block of the clock
    if (level >= 180) value += 2 ** i;
  }
  const ms = (((Math.floor(now) - value) % CLOCK_MOD) + CLOCK_MOD) % CLOCK_MOD;
  return ms < 30000 ? ms / 1000 : null; // else: no clock, or the studio's clock is off
}

/** The median of `values`. */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Whether this browser can play WebRTC (a page may also be denied it by its host). */
export function webrtcAvailable() {
  return typeof window.RTCPeerConnection === "function";
}

/** The sources to try, in order, for a quality choice ("" = the table's own). */
export function sources(video, choice = "") {
  const picked = (video.qualities || []).find((q) => q.name === choice) || video;
  const out = [];
  if (picked.whep_url && webrtcAvailable()) out.push({ kind: "webrtc", url: picked.whep_url });
  if (picked.hls_url) out.push({ kind: "hls", url: picked.hls_url });
  if (!out.length && picked !== video) return sources(video, "");
  return out;
}

const ICE_MS = 2000; // the offer goes with the candidates gathered by then
const CONNECT_MS = 10000; // a WebRTC connection not up by then has failed
const DROP_MS = 3000; // "disconnected" this long: the connection is made again

/** A WHEP viewer (RFC 9725) of `url` into `video`; `onDrop` when the connection is lost
 * after it played. Resolves once the connection is up; rejects when it cannot be made. */
async function whep(url, video, onDrop) {
  const pc = new RTCPeerConnection();
  pc.addTransceiver("video", { direction: "recvonly" });
  pc.addTransceiver("audio", { direction: "recvonly" });
  let stream = null;
  pc.ontrack = (e) => {
    // one stream of both tracks (the answer's); a track of its own joins ours
    const given = e.streams[0];
    if (!stream) stream = given || new MediaStream();
    if (!stream.getTracks().includes(e.track)) stream.addTrack(e.track);
    if (video.srcObject !== stream) video.srcObject = stream;
  };
  let location = null;
  let dropTimer = null;
  let up = false;
  const session = {
    pc,
    close() {
      window.clearTimeout(dropTimer);
      pc.onconnectionstatechange = null;
      pc.close();
      if (location) fetch(location, { method: "DELETE" }).catch(() => {});
    },
  };
  try {
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise((resolve) => {
      if (pc.iceGatheringState === "complete") resolve();
      pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === "complete") resolve(); };
      window.setTimeout(resolve, ICE_MS);
    });
    const answer = await fetch(url, { method: "POST", headers: { "Content-Type": "application/sdp" }, body: pc.localDescription.sdp });
    if (answer.status !== 201 && answer.status !== 200) throw new Error(`WHEP ${answer.status}`);
    const where = answer.headers.get("Location");
    if (where) location = new URL(where, url).href;
    await pc.setRemoteDescription({ type: "answer", sdp: await answer.text() });
    await new Promise((resolve, reject) => {
      const timer = window.setTimeout(() => reject(new Error("WHEP: no connection")), CONNECT_MS);
      pc.onconnectionstatechange = () => {
        const st = pc.connectionState;
        if (st === "connected") {
          up = true;
          window.clearTimeout(dropTimer);
          window.clearTimeout(timer);
          resolve();
        } else if (st === "failed" || st === "closed") {
          window.clearTimeout(timer);
          if (up) onDrop(); else reject(new Error(`WHEP: ${st}`));
        } else if (st === "disconnected" && up) {
          window.clearTimeout(dropTimer);
          dropTimer = window.setTimeout(onDrop, DROP_MS);
        }
      };
    });
    return session;
  } catch (err) {
    session.close();
    throw err;
  }
}

/** The picture's delay behind the studio over WebRTC (s): the jitter buffer, decoding and
 * half the round trip, from the connection's own statistics; null while unknown. */
async function webrtcDelay(pc) {
  const stats = await pc.getStats();
  let buffer = null;
  let decode = 0;
  let rtt = 0;
  stats.forEach((s) => {
    if (s.type === "inbound-rtp" && s.kind === "video" && s.jitterBufferEmittedCount) {
      buffer = s.jitterBufferDelay / s.jitterBufferEmittedCount;
      if (s.framesDecoded) decode = (s.totalDecodeTime || 0) / s.framesDecoded;
    }
    if (s.type === "candidate-pair" && s.nominated && s.currentRoundTripTime) rtt = s.currentRoundTripTime;
  });
  return buffer === null ? null : buffer + decode + rtt / 2;
}

/** The live-video panel of table `tableId`: `{ element, delay() }` (empty when the table
 * has no video; `delay()` is the picture's delay in seconds, null while unknown). */
export function videoPanel(tableId) {
  const element = h("section", { class: "panel video-panel", hidden: true, "aria-label": t("video.title") });
  let config = null;
  let choice = "";
  let tried = []; // the sources left to try this round
  let source = null; // the source playing or being tried
  let session = null; // the WebRTC session, if any
  let state = "loading"; // loading | playing | reconnecting | unavailable
  let lastTime = -1;
  let lastMove = Date.now();
  let delay = null;
  let readings = []; // the last measures of the delay (s)
  let measures = 0;
  let timers = [];
  let attempt = 0;
  let retryTimer = null;

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
  const retry = h("button", { type: "button", class: "btn btn-small", onclick: () => begin() }, t("video.retry"));
  const quality = h("select", { class: "video-quality", "data-testid": "video-quality", "aria-label": t("video.quality"), hidden: true, onchange: () => {
    choice = quality.value;
    try { localStorage.setItem("punto.video.quality", choice); } catch { /* private mode */ }
    begin();
  } });

  function paint() {
    element.dataset.state = state;
    element.dataset.transport = state === "playing" && source ? source.kind : "";
    sound.textContent = video.muted ? t("video.unmute") : t("video.mute");
    sound.setAttribute("aria-pressed", String(!video.muted));
    sound.hidden = state !== "playing";
    delayLine.textContent = state === "playing" && delay !== null ? t("video.delay", { s: delay.toFixed(1) }) : "";
    if (state === "unavailable") fill(veil, h("p", {}, t("video.unavailable")), retry);
    else if (state === "reconnecting") fill(veil, h("p", {}, t("video.reconnecting")));
    else if (state === "loading") fill(veil, h("p", {}, t("video.loading")));
    else fill(veil);
    veil.hidden = state === "playing";
  }

  function detach() {
    if (session) session.close();
    session = null;
    video.srcObject = null;
    video.removeAttribute("src");
    video.load();
  }

  // This source failed: the next one, else the whole list again later.
  function next() {
    detach();
    forget();
    if (tried.length) return play(tried.shift());
    state = "unavailable";
    paint();
  }

  async function play(src) {
    source = src;
    lastTime = -1;
    lastMove = Date.now();
    if (src.kind === "webrtc") {
      try {
        const mine = await whep(src.url, video, () => { if (session === mine) dropped(); });
        session = mine;
        attempt = 0;
        video.play().catch(() => {});
      } catch {
        next();
      }
    } else {
      video.src = src.url;
      video.play().catch(() => {});
    }
    paint();
  }

  // The WebRTC connection was lost after it played: made again, sooner the first times.
  function dropped() {
    detach();
    state = "reconnecting";
    forget();
    paint();
    window.clearTimeout(retryTimer);
    retryTimer = window.setTimeout(begin, Math.min(RETRY_MS, 500 * 2 ** attempt++));
  }

  function begin() {
    if (!config) return;
    window.clearTimeout(retryTimer);
    detach();
    forget();
    tried = sources(config, choice);
    if (state !== "reconnecting") state = "loading";
    paint();
    if (!tried.length) {
      state = "unavailable";
      paint();
      return;
    }
    play(tried.shift());
  }

  function forget() {
    delay = null;
    readings = [];
    measures = 0;
  }

  function reading(seconds) {
    if (seconds === null) return;
    readings = [...readings.slice(1 - READINGS), seconds];
    delay = median(readings);
    paint();
  }

  async function measure() {
    if (state !== "playing" || !source) return;
    const clock = clockDelay(video);
    if (clock !== null) return reading(clock);
    try {
      if (source.kind === "webrtc") {
        if (session) reading(await webrtcDelay(session.pc));
        return;
      }
      if (measures++ % PLAYLIST_EVERY) return;
      let target = source.url;
      let parsed = parsePlaylist(await (await fetch(target, { cache: "no-store" })).text());
      if (parsed.variant) {
        target = new URL(parsed.variant, target).href;
        parsed = parsePlaylist(await (await fetch(target, { cache: "no-store" })).text());
      }
      const edge = liveEdge(parsed.segments);
      if (edge === null) return;
      const seekable = video.seekable.length ? video.seekable.end(video.seekable.length - 1) : video.currentTime;
      const behindEdge = Math.max(0, seekable - video.currentTime);
      reading(Math.max(0, (Date.now() - edge) / 1000 + behindEdge));
    } catch {
      // The playlist cannot be read (no CORS, network): the delay stays unknown; the
      // stall watch decides whether the video is still there.
    }
  }

  function watch() {
    if (state === "unavailable" || !source) return;
    if (video.currentTime !== lastTime) {
      lastTime = video.currentTime;
      lastMove = Date.now();
      if ((state === "loading" || state === "reconnecting") && lastTime > 0) {
        state = "playing";
        paint();
        measure();
      }
    } else if (Date.now() - lastMove > STALL_MS && state !== "reconnecting") {
      if (source.kind === "webrtc" && state === "playing") dropped();
      else next();
    }
  }

  video.addEventListener("error", () => { if (source && source.kind === "hls") next(); });
  video.addEventListener("ended", () => { if (source && source.kind === "hls") next(); });

  element.append(
    h("div", { class: "row row-between" }, h("h2", {}, t("video.title")), h("span", { class: "video-tools" }, quality, delayLine)),
    h("div", { class: "video-frame" }, video, veil, sound),
  );
  paint();

  api.table(tableId).then((desc) => {
    const v = desc.video || {};
    if (!v.whep_url && !v.hls_url) return;
    config = v;
    const names = (v.qualities || []).map((q) => q.name);
    if (names.length) {
      try { choice = localStorage.getItem("punto.video.quality") || ""; } catch { choice = ""; }
      if (!names.includes(choice)) choice = "";
      fill(quality, h("option", { value: "" }, t("video.quality_auto")), ...names.map((n) => h("option", { value: n }, n)));
      quality.value = choice;
      quality.hidden = false;
    }
    element.hidden = false;
    begin();
    timers = [
      window.setInterval(watch, 500),
      window.setInterval(measure, MEASURE_MS),
      window.setInterval(() => { if (state === "unavailable") begin(); }, RETRY_MS),
    ];
  }).catch(() => {});

  return {
    element,
    delay: () => (state === "playing" ? delay : null),
    /** Whether the table has video at all (a table without shows its cards at once). */
    offered: () => config !== null,
    stop() {
      timers.forEach((id) => window.clearInterval(id));
      window.clearTimeout(retryTimer);
      config = null;
      detach();
    },
  };
}
