// Video by game number (docs/web.md "Video by game number"): a hand's clip from the
// table's recording, under its record. The server answers where the hand lies in the clip
// (GET /api/hands/{game}/video): the video starts at the hand's start, and the times of the
// start, each card and the end are listed beside it — pressing one seeks there. A hand
// whose video was pruned says so ("video deleted after 24 h" [L]), never a broken player.
import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { when } from "./format.js";
import { cardLabel } from "./cards.js";

function clock(epoch) {
  return new Date(epoch * 1000).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
}

function markLabel(mark) {
  if (mark.mark === "start") return t("clip.start");
  if (mark.mark === "end") return t("clip.end");
  return `${t(`pos.${mark.mark}`)}${mark.card ? ` ${cardLabel(mark.card)}` : ""}`;
}

function goneLine(video) {
  const hours = Math.round((video.retention / 3600) * 10) / 10;
  return h("p", { class: "hint clip-gone", "data-testid": "clip-gone" },
    t("clip.gone", { hours }), video.deleted_at ? ` (${when(video.deleted_at)})` : "");
}

/** The clip panel of hand record `rec` (null when this server keeps no recordings). */
export function clipPanel(rec) {
  const video = rec.video;
  if (!video || video.state === "off") return null;
  const box = h("div", { class: "clip-body" });
  const element = h("section", { class: "clip", "data-testid": "hand-clip", "data-state": video.state, "aria-label": t("clip.title") },
    h("h4", {}, t("clip.title")), box);
  const state = (name) => { element.dataset.state = name; };
  if (video.state === "gone") {
    fill(box, goneLine(video));
    return element;
  }
  if (video.state !== "available") {
    fill(box, h("p", { class: "hint", "data-testid": "clip-none" }, t("clip.none")));
    return element;
  }
  fill(box, h("p", { class: "hint" }, t("clip.loading")));
  api.handVideo(rec.game).then((clip) => {
    const player = h("video", { class: "clip-video", controls: true, muted: true, playsinline: true, preload: "auto", "data-testid": "clip-video" });
    player.muted = true;
    let started = false;
    player.addEventListener("loadedmetadata", () => {
      if (started) return;
      started = true;
      player.currentTime = clip.offset; // the hand's start
      player.play().catch(() => {});
    });
    player.addEventListener("error", () => {
      state("unavailable");
      fill(box, h("p", { class: "hint", role: "status", "data-testid": "clip-unavailable" }, t("clip.unavailable")));
    });
    const marks = h("ol", { class: "clip-marks", "aria-label": t("clip.marks") }, clip.marks.map((m) => h("li", {},
      h("button", { type: "button", class: "btn btn-ghost btn-small clip-mark", "data-mark": m.mark, "data-offset": String(m.offset), onclick: () => {
        player.currentTime = m.offset;
        player.play().catch(() => {});
      } }, h("span", { class: "clip-mark-time" }, clock(m.at)), " ", markLabel(m)))));
    fill(box,
      h("div", { class: "clip-layout" }, h("div", { class: "clip-frame" }, player), marks),
      h("p", { class: "hint" }, t("clip.kept_until", { when: when(clip.deleted_at) })));
    player.src = clip.playlist;
  }).catch((err) => {
    if (err && err.code === "video_gone") {
      state("gone");
      fill(box, goneLine({ ...video, deleted_at: null }));
    } else {
      state("none");
      fill(box, h("p", { class: "hint", "data-testid": "clip-none" }, t(err && err.code === "no_video" ? "clip.none" : "clip.unavailable")));
    }
  });
  return element;
}
