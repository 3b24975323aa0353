// Table chat (docs/protocol.md §3, "Chat"): the lines of players, the dealer and
// supervisors, sent over the table's socket; a supervisor mutes and unmutes a player.
// Every text is put in the page as text (h() makes text nodes), never as markup.
// On a phone and a tablet the panel is a drawer opened from the table's header, so the
// one-screen table layout stays as it is; on a desktop it sits in the side column.
import { api } from "./api.js";
import { h, fill, icon, toast } from "./dom.js";
import { has, t } from "./i18n.js";
import { clockTime, errorText } from "./format.js";

const MAX_LENGTH = 300; // the server's CHAT_MAX_LENGTH
const KEEP = 200;
const NARROW = "(max-width: 900px)";

/** Why a line was refused, in the player's language. */
export function chatRefusal(err) {
  const params = (err && err.params) || {};
  if (err && err.code === "chat" && has(`chat.refused.${params.reason}`)) return t(`chat.refused.${params.reason}`);
  if (err && err.code === "rate_limited") return t("chat.refused.rate", { n: params.retry_after || 1 });
  if (err && err.code === "bad_message") return t("chat.refused.bad");
  return errorText(err);
}

/** What a table's chat has received, kept when the panel is built again (a new language). */
export function chatStore() {
  return { lines: [], seen: new Set(), muted: new Set(), youMuted: false };
}

/**
 * chatPanel({tableId, send, canMute, me, store}) → {element, toggle, receive(msg) → bool}.
 * `send(type, fields)` is the table socket's; `receive` takes the chat messages
 * (chat, chat_history, chat_muted) and says whether the message was one.
 */
export function chatPanel({ tableId, send, canMute = false, me = null, store = chatStore() }) {
  const { lines, seen, muted } = store;
  let open = false;
  let unread = 0;

  const log = h("ol", { class: "chat-log", role: "log", "aria-live": "polite", "aria-label": t("chat.title"), "data-testid": "chat-log" });
  const error = h("p", { class: "chat-error", role: "alert", "data-testid": "chat-error" });
  // No maxlength: a browser would cut a long paste silently; cut here, and say so.
  const input = h("input", {
    type: "text", autocomplete: "off", enterkeyhint: "send",
    "aria-label": t("chat.input"), placeholder: t("chat.placeholder"), "data-testid": "chat-input",
    oninput: () => {
      const chars = Array.from(input.value);
      if (chars.length > MAX_LENGTH) {
        input.value = chars.slice(0, MAX_LENGTH).join("");
        fill(error, t("chat.cut", { n: MAX_LENGTH }));
      }
    },
  });
  const note = h("p", { class: "hint chat-note", "data-testid": "chat-muted" });
  const count = h("span", { class: "chat-unread", "aria-hidden": "true" });
  const toggle = h("button", {
    type: "button", class: "btn btn-small chat-toggle", "aria-expanded": "false", "aria-controls": `chat-${tableId}`,
    "data-testid": "chat-toggle", onclick: () => setOpen(!open),
  }, icon("M4 4h16a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9l-5 4v-4H4a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1z"), h("span", { class: "chat-toggle-label" }, t("chat.title")), count);

  async function submit(e) {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) {
      fill(error, t("chat.refused.empty"));
      return;
    }
    fill(error);
    try {
      await send("chat", { text });
      input.value = "";
    } catch (err) {
      const why = chatRefusal(err);
      fill(error, why);
      toast(why, "error");
    }
  }

  const element = h("section", { class: "panel chat-panel", id: `chat-${tableId}`, "aria-label": t("chat.title"), "data-testid": "chat-panel" },
    h("div", { class: "row row-between chat-head" },
      h("h2", {}, t("chat.title")),
      h("button", { type: "button", class: "btn btn-small chat-close", "aria-label": t("chat.close"), onclick: () => setOpen(false) }, "✕")),
    log,
    note,
    h("form", { class: "chat-form", onsubmit: submit },
      input,
      h("button", { type: "submit", class: "btn btn-small", "data-testid": "chat-send" }, t("chat.send"))),
    error);

  function setOpen(value) {
    open = value;
    element.classList.toggle("chat-open", open);
    toggle.setAttribute("aria-expanded", String(open));
    if (open) {
      unread = 0;
      showUnread();
      input.focus();
    }
  }

  function showUnread() {
    count.textContent = unread ? String(unread) : "";
    toggle.setAttribute("aria-label", unread ? t("chat.unread", { n: unread }) : t("chat.title"));
  }

  function hidden() {
    return window.matchMedia(NARROW).matches && !open;
  }

  function lineElement(m) {
    const staff = m.role === "dealer" || m.role === "supervisor";
    const at = clockTime(m.at);
    const mute = canMute && m.role === "player"
      ? h("button", {
          type: "button", class: "btn btn-small chat-mute", "data-testid": `mute-${m.from}`,
          onclick: () => send("chat_mute", { player: m.from, muted: !muted.has(m.from) }).catch((err) => toast(errorText(err), "error")),
        }, muted.has(m.from) ? t("chat.unmute") : t("chat.mute"))
      : null;
    return h("li", { class: ["chat-line", staff ? "chat-staff" : "", me && m.from === me ? "chat-mine" : ""], "data-from": m.from, "data-id": m.id },
      h("span", { class: "chat-meta" },
        h("b", { class: "chat-name" }, m.name || m.from),
        staff ? h("span", { class: "badge chat-role" }, t(`role.${m.role}`)) : null,
        h("time", { class: "chat-time" }, at)),
      h("span", { class: "chat-text", "data-testid": "chat-text" }, m.text),
      mute);
  }

  function render() {
    fill(log, lines.length ? lines.map(lineElement) : h("li", { class: "hint" }, t("chat.empty")));
    log.scrollTop = log.scrollHeight;
    showMuted();
  }

  function showMuted() {
    fill(note, store.youMuted ? t("chat.you_muted") : "");
    input.disabled = store.youMuted;
    for (const button of log.querySelectorAll(".chat-mute")) {
      const from = button.closest(".chat-line").dataset.from;
      button.textContent = muted.has(from) ? t("chat.unmute") : t("chat.mute");
    }
  }

  // A new line is appended (the log region reads only it out), the oldest dropped.
  function append(m) {
    const stick = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    const hint = log.querySelector(".hint");
    if (hint) hint.remove();
    log.append(lineElement(m));
    while (log.children.length > KEEP) log.firstElementChild.remove();
    if (stick) log.scrollTop = log.scrollHeight;
  }

  function add(m) {
    if (seen.has(m.id)) return false;
    seen.add(m.id);
    lines.push(m);
    if (lines.length > KEEP) lines.shift();
    return true;
  }

  if (canMute) {
    api.tableChat(tableId).then((data) => {
      for (const m of data.muted) muted.add(m.player);
      render();
    }).catch(() => {});
  }
  render();
  showUnread();

  return {
    element,
    toggle,
    receive(msg) {
      if (msg.type === "chat_history") {
        for (const m of msg.messages) add(m);
        lines.sort((a, b) => a.id - b.id);
        store.youMuted = Boolean(msg.muted);
        render();
      } else if (msg.type === "chat") {
        if (!add(msg)) return true;
        append(msg);
        if (hidden() && msg.from !== me) {
          unread += 1;
          showUnread();
        }
      } else if (msg.type === "chat_muted") {
        if (msg.muted) muted.add(msg.player);
        else muted.delete(msg.player);
        if (msg.player === me) store.youMuted = msg.muted;
        showMuted();
      } else {
        return false;
      }
      return true;
    },
  };
}
