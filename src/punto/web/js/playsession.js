// A launched player's play session under a jurisdiction profile (docs/operators.md): the
// features it turns off (chat, side bets), and its reality check (UKGC RTS 13) — when one
// is due the game stops for a modal with the time played and the net result in the
// player's currency, until the player continues or leaves — and the notice that the
// session's time limit is reached. GET /api/session/reality-check says when the next is
// due by the server's clock; the client asks again then (and at least every minute, so a
// changed profile is followed), and at once when a bet is refused for either reason.
import { api } from "./api.js";
import { h, fill, announce } from "./dom.js";
import { onLangChange, t } from "./i18n.js";
import { duration, errorText, moneyIn } from "./format.js";
import { current, forget, onSessionChange, setJurisdiction } from "./session.js";

const POLL_MS = 60_000;
const RETRY_MS = 15_000;

let watched = null;
let timer = 0;
let dialog = null;
let shown = null;
let limitSeen = false;

/** The player's jurisdiction profile (its switches), or null. */
export function jurisdiction() {
  const who = current();
  return (who && who.role === "player" && who.jurisdiction) || null;
}

/** Whether the player's profile turns ``feature`` (``chat`` or ``side_bets``) off. */
export function featureOff(feature) {
  const profile = jurisdiction();
  return Boolean(profile && (profile.features_off || []).includes(feature));
}

function timed(profile) {
  return Boolean(profile && (profile.reality_check_interval || profile.session_limit));
}

function stop() {
  window.clearTimeout(timer);
  timer = 0;
}

function later(ms) {
  stop();
  timer = window.setTimeout(check, ms);
}

/** Follow the player's session: at start, and whenever the session changes hands. */
export function watchSession() {
  const who = current();
  const id = who && who.role === "player" ? who.user_id : null;
  if (id === watched) return;
  watched = id;
  stop();
  limitSeen = false;
  if (!id) {
    if (shown !== "ended") close();
    return;
  }
  api.me().then((me) => {
    if (watched !== id) return;
    setJurisdiction(me.jurisdiction);
    if (timed(me.jurisdiction)) check();
  }).catch(() => {});
}

/** Ask the server how the session stands, and show or schedule what it says. */
async function check() {
  stop();
  const id = watched;
  if (!id) return;
  let status;
  try {
    status = await api.realityCheck();
  } catch (err) {
    if (watched === id && err.code !== "unauthorized" && err.status !== 404) later(RETRY_MS);
    return;
  }
  if (watched !== id) return;
  follow(status);
}

function follow(status) {
  setJurisdiction(status.jurisdiction);
  if (!status.jurisdiction) return;
  if (status.ended) {
    showEnded(status);
    return;
  }
  if (status.reality_check && status.reality_check.due) {
    showCheck(status);
    return;
  }
  if (status.session_limit && status.session_limit.reached) {
    if (!limitSeen) showLimit(status);
    return;
  }
  // the next moment something is due, by the server's clock; at least once a minute
  const next = [status.reality_check && status.reality_check.due_at, status.session_limit && status.session_limit.ends_at]
    .filter((at) => typeof at === "number")
    .map((at) => (at - status.now) * 1000 + 250);
  later(Math.max(1000, Math.min(POLL_MS, ...next)));
}

/** A refusal the client was given (a bet, a chat line): the reality check or the
 * session's limit opens its modal; true when it did (the modal says it, no toast). */
export function refused(err) {
  const why = err && err.code === "jurisdiction" && err.params ? err.params.reason : null;
  if (why !== "reality_check_due" && why !== "session_limit") return false;
  if (why === "session_limit") limitSeen = false;
  if (!dialog) check();
  return true;
}

function close() {
  if (dialog) {
    if (dialog.open) dialog.close();
    dialog.remove();
  }
  dialog = null;
  shown = null;
}

/** The modal: built once, its content redrawn (a language switch redraws it too). */
function open(kind, draw) {
  if (!dialog) {
    dialog = h("dialog", { class: "session-dialog", "aria-labelledby": "session-dialog-title", "aria-describedby": "session-dialog-text", "data-testid": "session-dialog",
      // the player answers: Escape does not dismiss the check
      oncancel: (e) => e.preventDefault() });
    document.body.append(dialog);
  }
  shown = kind;
  dialog.dataset.kind = kind;
  dialog.redraw = draw;
  draw(dialog);
  if (!dialog.open) dialog.showModal();
  const first = dialog.querySelector("[data-autofocus]");
  if (first) first.focus();
}

function links() {
  const who = current();
  return (who && who.links) || {};
}

function helpLink() {
  const url = links().responsible_gaming_url;
  return url ? h("a", { class: "session-help", href: url, target: "_blank", rel: "noopener", "data-testid": "rc-help" }, t("rc.help")) : null;
}

function netSentence(net, amount) {
  if (net > 0) return t("rc.net_win", { amount });
  if (net < 0) return t("rc.net_loss", { amount });
  return t("rc.net_even");
}

/** Time played and the net result, in the player's currency (never minor units). */
function figures(status) {
  const net = status.net || 0;
  const amount = moneyIn(Math.abs(net), status.currency, status.digits);
  return h("dl", { class: "session-figures" },
    h("div", { class: "session-figure" }, h("dt", {}, t("rc.played")), h("dd", { "data-testid": "rc-played" }, duration(status.played_seconds, { played: true }))),
    h("div", { class: "session-figure" }, h("dt", {}, t("rc.net")),
      h("dd", { "data-testid": "rc-net", class: net > 0 ? "pos" : net < 0 ? "neg" : "" }, moneyIn(net, status.currency, status.digits, { sign: true })),
      h("span", { class: "sr-only" }, netSentence(net, amount))));
}

function showCheck(status) {
  const draw = (box) => {
    const problem = h("p", { class: "error", role: "alert", "data-testid": "rc-error" });
    const buttons = [];
    const answer = async (choice) => {
      for (const b of buttons) b.disabled = true;
      fill(problem);
      try {
        const after = await api.answerRealityCheck(choice);
        if (choice === "leave") {
          leave(after);
          return;
        }
        close();
        announce(t("rc.continue"));
        follow(after);
      } catch (err) {
        if (err.code === "conflict" && choice === "continue") {
          // answered already (another tab), or the session ended meanwhile: ask again
          close();
          check();
          return;
        }
        for (const b of buttons) b.disabled = false;
        fill(problem, t("rc.failed", { reason: errorText(err) }));
      }
    };
    buttons.push(
      h("button", { type: "button", class: "btn btn-ghost", "data-testid": "rc-leave", onclick: () => answer("leave") }, t("rc.leave")),
      h("button", { type: "button", class: "btn btn-confirm", "data-testid": "rc-continue", "data-autofocus": "", onclick: () => answer("continue") }, t("rc.continue")));
    fill(box,
      h("h2", { id: "session-dialog-title" }, t("rc.title")),
      h("p", { id: "session-dialog-text" }, t("rc.intro")),
      figures(status),
      h("p", {}, t("rc.question")),
      h("div", { class: "session-actions" }, buttons),
      problem,
      helpLink());
  };
  open("check", draw);
}

function showLimit(status) {
  limitSeen = true;
  const draw = (box) => fill(box,
    h("h2", { id: "session-dialog-title" }, t("rc.limit_title")),
    h("p", { id: "session-dialog-text", "data-testid": "rc-limit" }, t("rc.limit", { limit: duration(status.jurisdiction.session_limit) })),
    figures(status),
    h("div", { class: "session-actions" },
      h("button", { type: "button", class: "btn btn-ghost", "data-testid": "rc-close", onclick: () => close() }, t("rc.close")),
      h("button", { type: "button", class: "btn", "data-testid": "rc-leave", "data-autofocus": "", onclick: async () => {
        const after = await api.answerRealityCheck("leave").catch(() => null);
        leave(after);
      } }, t("rc.leave"))),
    helpLink());
  open("limit", draw);
}

/** The player left: the server ended the session and refuses its token now; back to the
 * operator's lobby when it gave one, else the notice that the session ended. */
function leave(status) {
  const lobby = links().lobby_url;
  watched = null;
  stop();
  forget();
  if (lobby) {
    try {
      window.top.location.href = lobby;
      return;
    } catch {
      window.location.href = lobby;
      return;
    }
  }
  // off the table (its socket's token is refused now): the lobby, as a visitor
  if (window.location.hash.startsWith("#/table") || window.location.hash.startsWith("#/multi")) window.location.hash = "#/";
  showEnded(status, lobby);
}

function showEnded(status, lobby = links().lobby_url) {
  const draw = (box) => fill(box,
    h("h2", { id: "session-dialog-title" }, t("rc.ended_title")),
    h("p", { id: "session-dialog-text", "data-testid": "rc-ended" }, t("rc.ended")),
    status && status.jurisdiction ? figures(status) : null,
    h("p", { class: "hint" }, t("rc.ended_again")),
    h("div", { class: "session-actions" },
      lobby ? h("a", { class: "btn", href: lobby, target: "_top", rel: "noopener", "data-autofocus": "" }, t("rc.back")) : null,
      h("button", { type: "button", class: "btn btn-ghost", "data-testid": "rc-close", "data-autofocus": lobby ? null : "", onclick: () => close() }, t("rc.close"))));
  open("ended", draw);
}

onLangChange(() => {
  if (dialog && dialog.redraw) dialog.redraw(dialog);
});
onSessionChange(() => watchSession());
