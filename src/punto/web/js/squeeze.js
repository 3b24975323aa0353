// The squeeze: the holder peels their face-down cards from the corner by dragging (or
// clicking, or Enter), then the client sends `squeeze` (or the [S] reader's `read` call);
// the faces arrive in `cards_revealed` and are drawn corner first.
import { cardElement } from "./cards.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { sideName } from "./format.js";
import { heldByMe, sideCards } from "./tablestate.js";

const DONE_AT = 0.55;

function setPeel(card, value) {
  card.style.setProperty("--peel", String(Math.max(0, Math.min(1, value))));
  card.setAttribute("aria-valuenow", String(Math.round(value * 100)));
}

function animatePeel(card, from, to, ms, then) {
  const start = performance.now();
  const step = (now) => {
    const k = Math.min(1, (now - start) / ms);
    const eased = 1 - (1 - k) ** 3;
    setPeel(card, from + (to - from) * eased);
    if (k < 1) window.requestAnimationFrame(step);
    else if (then) then();
  };
  window.requestAnimationFrame(step);
}

/**
 * One face-down card the holder can peel; `code` is the card under the peel (the holder
 * looks first [M16]; null if the server has not shown it); `onOpen` runs once peeled.
 */
function peelCard(position, code, vertical) {
  let start = null;
  let progress = 0;
  let done = false;
  const finish = (card) => {
    if (done) return;
    done = true;
    card.classList.add("peeled");
    animatePeel(card, progress, 1, 380, () => card.onOpen && card.onOpen());
  };
  const card = h(
    "button",
    {
      type: "button",
      class: ["squeeze-card", vertical ? "peel-vertical" : "peel-corner"],
      "data-position": position,
      "data-key": `squeeze-${position}`,
      role: "slider",
      "aria-valuemin": "0",
      "aria-valuemax": "100",
      "aria-valuenow": "0",
      "aria-label": t("squeeze.card", { position }),
      onpointerdown: (e) => {
        if (done) return;
        start = { x: e.clientX, y: e.clientY, h: e.currentTarget.getBoundingClientRect().height };
        e.currentTarget.setPointerCapture(e.pointerId);
      },
      onpointermove: (e) => {
        if (!start || done) return;
        const dx = start.x - e.clientX;
        const dy = start.y - e.clientY;
        progress = Math.max(0, (vertical ? dy : (dx + dy) / 1.4) / start.h);
        setPeel(e.currentTarget, progress);
      },
      onpointerup: (e) => {
        if (!start || done) return;
        const card = e.currentTarget;
        const dragged = progress > 0.05;
        start = null;
        if (!dragged) return; // a click: handled by onclick
        if (progress >= DONE_AT) finish(card);
        else animatePeel(card, progress, 0, 250, () => (progress = 0));
      },
      onclick: (e) => {
        if (done || progress > 0.05) return;
        finish(e.currentTarget);
      },
    },
    h(
      "span",
      { class: "squeeze-face", "aria-hidden": "true" },
      code ? cardElement(code) : h("span", { class: "squeeze-q" }, "?"),
    ),
    h("span", { class: "squeeze-back", "aria-hidden": "true" }),
    h("span", { class: "squeeze-flap", "aria-hidden": "true" }),
  );
  setPeel(card, 0);
  card.dataset.code = code || "";
  return card;
}

// The cards being peeled in this hand, kept across redraws: when the side's second card
// arrives, the first stays the same element at the same place, its peel where the finger
// left it (the panel is redrawn, the card is not).
const kept = { game: null, cards: new Map(), opened: new Set() };

function keptFor(game) {
  if (kept.game !== game) {
    kept.game = game;
    kept.cards.clear();
    kept.opened.clear();
  }
  return kept;
}

function keptCard(position, code, vertical) {
  const old = kept.cards.get(position);
  if (old && old.dataset.code === (code || "") && old.classList.contains("peel-vertical") === vertical) return old;
  const card = peelCard(position, code, vertical);
  kept.cards.set(position, card);
  return card;
}

/**
 * The places of one side's cards in the panel: its two first cards always (a card not yet
 * dealt, or already turned, keeps its place as an empty slot), the third when dealt.
 */
function slots(state, side) {
  const letter = side === "player" ? "P" : "B";
  return [`${letter}1`, `${letter}2`, `${letter}3`].filter((p, i) => i < 2 || p in state.cards);
}

/** Seconds left of the squeeze (whole, rounded up), or null when no squeeze is timed. */
export function squeezeLeft(state, now = Date.now()) {
  if (state.phase !== "squeeze" || !state.squeezeEndsAt) return null;
  return Math.max(0, Math.ceil((state.squeezeEndsAt - now) / 1000));
}

/** A key that changes only when what the squeeze panel shows changes. */
export function squeezeKey(state, sent) {
  return JSON.stringify([heldByMe(state), Object.keys(state.cards).filter((p) => !state.cards[p].face_up), [...sent], state.vip && state.vip.vertical_squeeze]);
}

/**
 * The squeeze panel for the player holding cards now (null if nobody's cards are
 * theirs). `sent` is the set of positions already squeezed in this hand.
 */
export function squeezePanel(state, ctx, sent) {
  const sides = heldByMe(state);
  if (!sides.length) return null;
  const reader = state.table.reading === "button";
  const vertical = Boolean(state.vip && state.vip.vertical_squeeze);
  return h(
    "section",
    { class: "squeeze", "aria-label": t("squeeze.title") },
    h("p", { class: "squeeze-timer", role: "timer", "data-testid": "squeeze-timer" }),
    sides.map((side) => {
      const down = sideCards(state, side).filter((c) => !c.face_up && !sent.has(c.position));
      const { opened } = keptFor(state.game);
      const calls = h("div", { class: "read-calls", role: "group", "aria-label": t("read.title"), hidden: true },
        ["natural", "carta", "no_carta"].map((call) =>
          h("button", { type: "button", class: "btn", "data-call": call, onclick: () => ctx.act("read", { call }) }, t(`read.${call}`)),
        ),
      );
      const whenOpen = (position) => {
        opened.add(position);
        if (!down.every((c) => opened.has(c.position))) return;
        if (reader) {
          calls.hidden = false;
          calls.querySelector("button").focus();
        } else {
          for (const c of down) sent.add(c.position);
          ctx.act("squeeze", { side });
        }
      };
      return h(
        "div",
        { class: ["squeeze-side", `squeeze-${side}`] },
        h("h3", {}, t(reader ? "squeeze.reader" : "squeeze.yours", { side: sideName(side) })),
        h("p", { class: "hint" }, t(vertical ? "squeeze.how_vertical" : "squeeze.how")),
        h("div", { class: "squeeze-cards" }, slots(state, side).map((position) => {
          const c = down.find((d) => d.position === position);
          if (!c) return h("span", { class: "squeeze-slot", "data-slot": position, "aria-hidden": "true" });
          const card = keptCard(position, c.card, vertical);
          card.onOpen = () => whenOpen(position);
          return card;
        })),
        down.length ? null : h("p", { class: "hint", role: "status" }, t("squeeze.turning")),
        reader ? calls : null,
      );
    }),
  );
}
