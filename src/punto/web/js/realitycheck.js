// A launched player's jurisdiction switches on the page: the reality check (time played
// and net result in the player's currency; Continue or Leave) when it is due, and a notice
// when the session's time is up. The server decides (GET /api/session/reality-check); the
// page asks it now and then and shows what it says.
import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { signed } from "./format.js";
import { current, onSessionChange } from "./session.js";

const EVERY = 15000;
let timer = null;
let shown = null; // the latest status
const layer = h("div", { class: "rc-layer", "data-testid": "rc-layer", hidden: true });

/** "1 h 05 min" or "12 min" in the page's language. */
export function playedText(seconds) {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  const hours = Math.floor(minutes / 60);
  const m = minutes % 60;
  return hours ? t("rc.time_hm", { h: hours, m: String(m).padStart(2, "0") }) : t("rc.time_m", { m });
}

function close() {
  layer.hidden = true;
  fill(layer);
}

function dialog(testid, title, ...body) {
  const heading = h("h2", { id: `${testid}-title` }, title);
  fill(layer, h("div", { class: "rc-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": `${testid}-title`, "data-testid": testid }, heading, ...body));
  layer.hidden = false;
  const first = layer.querySelector("button, a");
  if (first) first.focus();
}

function exitLink() {
  const url = current()?.links?.lobby_url;
  return url ? h("a", { class: "btn", href: url, target: "_top", rel: "noopener", "data-testid": "rc-exit" }, t("nav.exit")) : null;
}

async function answer(choice) {
  try {
    const status = await api.answerRealityCheck(choice);
    if (choice === "leave") {
      shown = { ...status, left: true };
      render();
      return;
    }
    shown = status;
    render();
    check();
  } catch {
    check();
  }
}

function render() {
  const s = shown;
  if (!s || !s.jurisdiction) return close();
  if (s.left || s.ended) {
    return dialog("rc-ended", t("rc.ended_title"), h("p", {}, t("rc.ended")),
      h("p", {}, t("rc.played", { time: playedText(s.played_seconds) })),
      h("p", { "data-testid": "rc-net" }, t("rc.net", { amount: signed(s.net, s.digits) })), exitLink());
  }
  if (s.session_limit && s.session_limit.reached) {
    return dialog("rc-limit", t("rc.limit_title"), h("p", {}, t("rc.limit")),
      h("p", {}, t("rc.played", { time: playedText(s.played_seconds) })),
      h("p", { "data-testid": "rc-net" }, t("rc.net", { amount: signed(s.net, s.digits) })), exitLink());
  }
  if (s.reality_check && s.reality_check.due) {
    return dialog("rc-dialog", t("rc.title"),
      h("p", { "data-testid": "rc-played" }, t("rc.played", { time: playedText(s.played_seconds) })),
      h("p", { "data-testid": "rc-net" }, t("rc.net", { amount: signed(s.net, s.digits) })),
      h("p", {}, t("rc.ask")),
      h("div", { class: "row" },
        h("button", { type: "button", class: "btn btn-confirm", "data-testid": "rc-continue", onclick: () => answer("continue") }, t("rc.continue")),
        h("button", { type: "button", class: "btn", "data-testid": "rc-leave", onclick: () => answer("leave") }, t("rc.leave"))));
  }
  return close();
}

/** Ask the server now (a refused bet may have said a check is due). */
export async function check() {
  window.clearTimeout(timer);
  if (shown && shown.left) {
    render(); // the session ended here: its end stays on the page (its token is gone)
    return;
  }
  const who = current();
  if (!who || !who.jurisdiction) {
    shown = null;
    close();
    return;
  }
  try {
    shown = await api.realityCheck();
    render();
  } catch {
    /* the network is down: ask again soon */
  }
  timer = window.setTimeout(check, nextAsk(shown));
}

/** How long until the page asks again: at most EVERY, and just after the next check is
 * due or the session's time is up (the server's own times, not the browser's clock). */
function nextAsk(s) {
  if (!s || !s.jurisdiction) return EVERY;
  const waits = [s.reality_check && s.reality_check.due_at, s.session_limit && s.session_limit.ends_at]
    .filter((at) => typeof at === "number" && at > s.now)
    .map((at) => (at - s.now) * 1000 + 300);
  return Math.max(1000, Math.min(EVERY, ...waits));
}

/** Put the layer on the page and start asking (for a launched player under a profile). */
export function start() {
  document.body.append(layer);
  onSessionChange(() => check());
  onLangChange(() => render());
  check();
}
