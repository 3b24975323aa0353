// The multi-table page (#/multi, or #/multi/a,b to open given tables): up to the server's
// max_tables tables on one page, each a compact table (table.js) with its own WebSocket,
// countdown, cards, result, main bet areas, chips and confirm. Desktop: a grid; phone: one
// table at a time with a switcher. The tables shown are kept in localStorage.
import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { t } from "./i18n.js";
import { errorText, tableName } from "./format.js";
import * as table from "./table.js";

const STORE = "punto.multi";
const DEFAULT_MAX = 4;

function stored() {
  try {
    const ids = JSON.parse(window.localStorage.getItem(STORE) || "[]");
    return Array.isArray(ids) ? ids.filter((id) => typeof id === "string" && /^[\w-]+$/.test(id)) : [];
  } catch {
    return [];
  }
}

export function mount(root, { ids: fromHash }) {
  let max = DEFAULT_MAX;
  let ids = (fromHash && fromHash.length ? fromHash : stored()).slice(0, max);
  let active = ids[0] || null;
  let tables = [];
  let stopped = false;
  const mounted = new Map();

  const tools = h("div", { class: "multi-tools" });
  const switcher = h("div", { class: "multi-switch", role: "tablist", "aria-label": t("multi.switch") });
  const grid = h("div", { class: "multi-grid" });

  const save = () => window.localStorage.setItem(STORE, JSON.stringify(ids));
  const nameOf = (id) => tableName(tables.find((tb) => tb.id === id) || { id });

  function slot(id) {
    let entry = mounted.get(id);
    if (!entry) {
      const body = h("div", { class: "multi-body" });
      const element = h("section", { class: "multi-slot", "data-slot": id, id: `multi-slot-${id}`, role: "tabpanel", "aria-label": nameOf(id) },
        h("button", { type: "button", class: "btn btn-small btn-ghost multi-remove", "data-action": "remove-table", "aria-label": t("multi.remove", { table: nameOf(id) }), onclick: () => remove(id) }, "×"),
        body);
      entry = { element, screen: table.mount(body, { id, compact: true }) };
      mounted.set(id, entry);
    }
    entry.element.classList.toggle("multi-active", id === active);
    // the name in the current language (a language switch re-renders the kept slots)
    entry.element.setAttribute("aria-label", nameOf(id));
    entry.element.querySelector(".multi-remove").setAttribute("aria-label", t("multi.remove", { table: nameOf(id) }));
    return entry.element;
  }

  async function remove(id) {
    const entry = mounted.get(id);
    if (entry) {
      await entry.screen.leave(); // off the page, off the table when the table lets go
      entry.screen.unmount();
    }
    mounted.delete(id);
    ids = ids.filter((x) => x !== id);
    if (active === id) active = ids[0] || null;
    save();
    render();
  }

  function add(id) {
    if (!id || ids.includes(id) || ids.length >= max) return;
    ids = [...ids, id];
    active = id;
    save();
    render();
  }

  function render() {
    if (stopped) return;
    // Tables a player watches and bets at from one page: the normal kind (a VIP or
    // bid-squeeze table is played from its own page, where seats are chosen).
    const offered = tables.filter((tb) => tb.kind === "normal" && !ids.includes(tb.id));
    const full = ids.length >= max;
    const select = h("select", { "aria-label": t("multi.choose"), "data-testid": "multi-choose", disabled: full || !offered.length },
      offered.map((tb) => h("option", { value: tb.id }, tableName(tb))));
    fill(tools,
      h("label", { class: "field field-inline" }, h("span", {}, t("multi.choose")), select),
      h("button", { type: "button", class: "btn btn-small", "data-action": "add-table", disabled: full || !offered.length, onclick: () => add(select.value) }, t("multi.add")),
      h("span", { class: "hint", "data-testid": "multi-count" }, t("multi.count", { n: ids.length, max })));
    fill(switcher, ids.map((id) =>
      h("button", {
        type: "button", role: "tab", class: "multi-tab", "data-tab": id, "aria-selected": String(id === active), "aria-controls": `multi-slot-${id}`,
        onclick: () => { active = id; render(); },
      }, nameOf(id))));
    fill(grid, ids.length
      ? ids.map(slot)
      : h("p", { class: "hint multi-empty" }, t("multi.empty", { max })));
    grid.dataset.count = String(ids.length);
  }

  async function load() {
    try {
      const [lobby, me] = await Promise.all([api.lobby(), api.me().catch(() => null)]);
      tables = lobby.tables;
      if (me && me.max_tables) max = me.max_tables;
      // The tables the player is at already come first, so none is forgotten.
      const at = (me && me.tables) || [];
      ids = [...new Set([...ids, ...at.filter((id) => !ids.includes(id))])].slice(0, max);
      if (!active) active = ids[0] || null;
      save();
    } catch (err) {
      fill(tools, h("p", { class: "error", role: "alert" }, errorText(err)));
      return;
    }
    render();
  }

  fill(root, h("div", { class: "page multi" }, h("h1", {}, t("multi.title")), tools, switcher, grid));
  render();
  load();
  return {
    unmount() {
      stopped = true;
      for (const entry of mounted.values()) entry.screen.unmount();
      mounted.clear();
    },
    refresh() {
      for (const entry of mounted.values()) entry.screen.refresh();
      render();
    },
  };
}
