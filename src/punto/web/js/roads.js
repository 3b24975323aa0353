// The five roads drawn as on casino boards, from the roads JSON the server sends
// (punto.roads_render.roads_dict): bead plate, Big Road, Big Eye Boy, Small Road,
// Cockroach Pig, with Ask Banker / Ask Player and the counts. Red Banker, blue Player,
// green Tie.
import { h, announce } from "./dom.js";
import { t } from "./i18n.js";

const ROWS = 6;
const COLOURS = { B: "var(--banker)", P: "var(--player)", T: "var(--tie)", R: "var(--banker)" };
const DERIVED = ["big_eye_boy", "small_road", "cockroach_pig"];

function svg(tag, attrs = {}, ...children) {
  return h(`svg:${tag}`, attrs, ...children);
}

// A road's grid for its cells: at least minCols columns, two empty ones after the last
// mark; data-end is where its marks end (one empty column after the last), so the
// scroller shows the newest marks without scrolling the first ones of a young shoe away.
function grid(cells, minCols, size, label) {
  const last = cells.reduce((m, c) => Math.max(m, c.col), -1);
  const cols = Math.max(minCols, last + 3);
  const width = cols * size;
  const height = ROWS * size;
  const end = (last + 2) * size;
  const lines = [];
  for (let c = 0; c <= cols; c++) lines.push(svg("line", { x1: c * size, y1: 0, x2: c * size, y2: height, class: "road-grid" }));
  for (let r = 0; r <= ROWS; r++) lines.push(svg("line", { x1: 0, y1: r * size, x2: width, y2: r * size, class: "road-grid" }));
  return svg(
    "svg",
    { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": label, class: "road-svg", "data-end": end, "data-size": size },
    svg("title", {}, label),
    svg("rect", { x: 0, y: 0, width, height, class: "road-bg" }),
    ...lines,
  );
}

function resultLetter(result) {
  return t(`road.letter.${result}`);
}

/** Bead plate: one cell a hand, ties included, columns of six; pair dots. */
export function beadPlate(cells, { minCols = 8, size = 26 } = {}) {
  const label = t("road.bead_plate.label", { n: cells.length });
  const el = grid(cells, minCols, size, label);
  const r = size * 0.42;
  for (const c of cells) {
    const cx = c.col * size + size / 2;
    const cy = c.row * size + size / 2;
    el.append(
      svg("circle", { cx, cy, r, fill: COLOURS[c.result], class: "bead", "data-result": c.result }),
      svg("text", { x: cx, y: cy + size * 0.15, class: "bead-text", "text-anchor": "middle" }, resultLetter(c.result)),
    );
    if (c.banker_pair) el.append(svg("circle", { cx: cx - r * 0.72, cy: cy - r * 0.72, r: size * 0.1, fill: "var(--banker)", class: "pair-dot" }));
    if (c.player_pair) el.append(svg("circle", { cx: cx + r * 0.72, cy: cy + r * 0.72, r: size * 0.1, fill: "var(--player)", class: "pair-dot" }));
  }
  return el;
}

/** Big Road: hollow rings on a six-row grid with dragon tails; ties as green slashes. */
export function bigRoad(cells, { minCols = 16, size = 22 } = {}) {
  const label = t("road.big_road.label", { n: cells.length });
  const el = grid(cells, minCols, size, label);
  const r = size * 0.36;
  for (const c of cells) {
    const cx = c.col * size + size / 2;
    const cy = c.row * size + size / 2;
    el.append(svg("circle", { cx, cy, r, fill: "none", stroke: COLOURS[c.result], "stroke-width": size * 0.13, class: "big-road-ring", "data-result": c.result }));
    if (c.ties > 0) {
      el.append(svg("line", { x1: cx - r, y1: cy + r, x2: cx + r, y2: cy - r, stroke: "var(--tie)", "stroke-width": size * 0.1 }));
      if (c.ties > 1) el.append(svg("text", { x: cx, y: cy + size * 0.14, class: "tie-count", "text-anchor": "middle" }, String(c.ties)));
    }
  }
  return el;
}

/** A derived road: Big Eye Boy hollow circles, Small Road dots, Cockroach Pig slashes. */
export function derivedRoad(kind, road, { minCols = 16, size = 12 } = {}) {
  const cells = road ? road.cells : [];
  const label = t(`road.${kind}.label`, { n: cells.length });
  const el = grid(cells, minCols, size, label);
  for (const c of cells) el.append(derivedMark(kind, c.colour, c.col * size + size / 2, c.row * size + size / 2, size));
  return el;
}

function derivedMark(kind, colour, cx, cy, size) {
  const fill = colour === "R" ? "var(--banker)" : "var(--player)";
  const r = size * 0.34;
  if (kind === "big_eye_boy") return svg("circle", { cx, cy, r, fill: "none", stroke: fill, "stroke-width": size * 0.14, "data-colour": colour });
  if (kind === "small_road") return svg("circle", { cx, cy, r, fill, "data-colour": colour });
  return svg("line", { x1: cx - r, y1: cy + r, x2: cx + r, y2: cy - r, stroke: fill, "stroke-width": size * 0.16, "stroke-linecap": "round", "data-colour": colour });
}

function askIcons(ask) {
  return DERIVED.map((kind) => {
    const colour = ask ? ask[kind] : null;
    const icon = svg("svg", { viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true" });
    if (colour) icon.append(derivedMark(kind, colour, 8, 8, 16));
    else icon.append(svg("text", { x: 8, y: 12, "text-anchor": "middle", class: "ask-none" }, "–"));
    return icon;
  });
}

function askText(side, ask) {
  const parts = DERIVED.map((kind) => {
    const colour = ask ? ask[kind] : null;
    return `${t(`road.${kind}`)}: ${colour ? t(colour === "R" ? "road.red" : "road.blue") : t("road.none")}`;
  });
  return `${t(side === "banker" ? "road.ask_banker" : "road.ask_player")} — ${parts.join(", ")}`;
}

function askButton(side, roads) {
  const ask = roads.ask ? roads.ask[side] : null;
  const text = askText(side, ask);
  return h(
    "button",
    {
      type: "button",
      class: ["ask", `ask-${side}`],
      "aria-label": text,
      title: text,
      onclick: (e) => {
        const btn = e.currentTarget;
        btn.classList.remove("ask-flash");
        void btn.offsetWidth;
        btn.classList.add("ask-flash");
        announce(text);
      },
    },
    h("span", { class: "ask-label" }, t(side === "banker" ? "road.ask_banker_short" : "road.ask_player_short")),
    h("span", { class: "ask-icons" }, askIcons(ask)),
  );
}

/** A count as a whole percentage of the shoe's hands ("45%"); null before the first hand. */
export function share(value, hands) {
  return hands > 0 ? `${Math.round((100 * value) / hands)}%` : null;
}

function counts(c) {
  if (!c) return null;
  const item = (key, value, cls) => {
    const name = key.split(".").pop();
    const pct = name === "hands" ? null : share(value, c.hands);
    return h("span", { class: ["count", cls], "data-count": name },
      h("b", {}, t(key)), " ", String(value), pct ? h("small", { class: "count-pct" }, ` ${pct}`) : null);
  };
  return h(
    "div",
    { class: "road-counts", role: "group", "aria-label": t("road.counts") },
    item("road.count.banker", c.banker, "count-banker"),
    item("road.count.player", c.player, "count-player"),
    item("road.count.tie", c.tie, "count-tie"),
    item("road.count.banker_pair", c.banker_pair, "count-banker"),
    item("road.count.player_pair", c.player_pair, "count-player"),
    item("road.count.natural", c.natural, ""),
    item("road.count.hands", c.hands, ""),
  );
}

/**
 * Scroll ``box`` just far enough that its road's newest mark is in view, by whole columns:
 * the first column in view is never cut in half.
 */
export function showNewest(box, road) {
  window.requestAnimationFrame(() => {
    const end = Number(road.getAttribute("data-end")) || 0;
    const size = Number(road.getAttribute("data-size")) || 1;
    const most = Math.max(0, box.scrollWidth - box.clientWidth);
    box.scrollLeft = Math.min(Math.floor(most / size), Math.ceil(Math.max(0, end - box.clientWidth) / size)) * size;
  });
}

function scroller(title, child, cls = "") {
  const box = h("div", { class: ["road-scroll", cls] }, child);
  showNewest(box, child);
  return h("figure", { class: "road" }, h("figcaption", {}, title), box);
}

/** The whole board: bead plate beside the Big Road, the derived roads below, asks, counts. */
export function roadBoard(roads) {
  const data = roads || { bead_plate: [], big_road: [], ask: null, counts: null };
  return h(
    "section",
    { class: "road-board", "aria-label": t("road.board") },
    h(
      "div",
      { class: "road-top" },
      scroller(t("road.bead_plate"), beadPlate(data.bead_plate || []), "road-bead"),
      scroller(t("road.big_road"), bigRoad(data.big_road || []), "road-big"),
    ),
    h(
      "div",
      { class: "road-derived" },
      DERIVED.map((kind) => scroller(t(`road.${kind}`), derivedRoad(kind, data[kind]))),
    ),
    h("div", { class: "road-footer" }, askButton("banker", data), askButton("player", data), counts(data.counts)),
  );
}

/** The lobby's small Big Road preview. */
export function bigRoadPreview(roads) {
  const cells = roads ? roads.big_road || [] : [];
  const road = bigRoad(cells, { minCols: 18, size: 14 });
  const box = h("div", { class: "road-scroll road-preview" }, road);
  showNewest(box, road);
  return box;
}
