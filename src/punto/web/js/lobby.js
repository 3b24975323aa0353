// The lobby (#/): every open table with its kind, rules preset, limits, hand number,
// players and a live Big Road preview, refreshed every few seconds.
import { api } from "./api.js";
import { h, fill } from "./dom.js";
import { has, t } from "./i18n.js";
import { errorText, money, phaseName, presetName } from "./format.js";
import { bigRoadPreview } from "./roads.js";
import { current, role } from "./session.js";

const REFRESH_MS = 3000;

export function mount(root) {
  const roads = new Map();
  let tables = null;
  let me = null;
  let error = null;
  let stopped = false;
  let timer = 0;

  const grid = h("div", { class: "lobby-grid", "aria-live": "off" });
  const banner = h("div", { class: "lobby-banner" });

  async function load() {
    try {
      const [lobby, who] = await Promise.all([api.lobby(), current() ? api.me().catch(() => null) : null]);
      tables = lobby.tables;
      me = who;
      error = null;
      await Promise.all(
        tables.map(async (tb) => {
          const known = roads.get(tb.id);
          const key = `${tb.shoe}:${tb.last_results}`;
          if (known && known.key === key) return;
          try {
            roads.set(tb.id, { key, roads: await api.roads(tb.id) });
          } catch {
            /* a table being opened has no roads yet */
          }
        }),
      );
    } catch (err) {
      error = err;
    }
    if (!stopped) render();
  }

  function loop() {
    timer = window.setTimeout(async () => {
      await load();
      if (!stopped) loop();
    }, REFRESH_MS);
  }

  // The table's own tiers ("Low 10.00–1,000.00"), one a line; the overall range when
  // an older server sends no tiers.
  function limitsList(tb, digits) {
    if (!tb.tiers || !tb.tiers.length) return `${money(tb.min_bet, digits)} – ${money(tb.max_bet, digits)}`;
    return h("ul", { class: "lobby-tiers" }, tb.tiers.map((tier) =>
      h("li", { "data-tier": tier.name }, `${has(`tier.${tier.name}`) ? t(`tier.${tier.name}`) : tier.name} ${money(tier.min_bet, digits)}–${money(tier.max_bet, digits)}`)));
  }

  function card(tb) {
    const digits = tb.currency_digits;
    const left = tb.phase === "betting_open" && tb.closes_at ? Math.max(0, Math.ceil(tb.closes_at - Date.now() / 1000)) : null;
    const dealerConsole = role() === "dealer" && tb.dealing === "live";
    const href = dealerConsole ? `#/dealer/${tb.id}` : `#/table/${tb.id}`;
    const mine = me && me.table === tb.id;
    return h(
      "article",
      { class: ["table-card", `kind-${tb.kind}`, mine ? "table-card-mine" : ""], "data-table": tb.id, "aria-labelledby": `tc-${tb.id}` },
      h("header", {},
        h("h2", { id: `tc-${tb.id}` }, tb.name),
        h("div", { class: "badges" },
          h("span", { class: ["badge", `badge-${tb.kind}`] }, t(`kind.${tb.kind}`)),
          h("span", { class: ["badge", `badge-${tb.dealing}`] }, t(`dealing.${tb.dealing}`)),
          tb.password ? h("span", { class: "badge", title: t("lobby.password") }, "🔒") : null)),
      h("dl", { class: "kv kv-compact" },
        h("dt", {}, t("lobby.rules")), h("dd", {}, presetName(tb.rules)),
        h("dt", {}, t("lobby.limits")), h("dd", { "data-testid": "lobby-limits" }, limitsList(tb, digits)),
        h("dt", {}, t("lobby.game")), h("dd", { "data-testid": "lobby-game" }, tb.game || "—"),
        h("dt", {}, t("lobby.status")), h("dd", {}, phaseName(tb.phase), left !== null ? ` · ${t("lobby.closes_in", { n: left })}` : ""),
        h("dt", {}, t("lobby.dealer")), h("dd", {}, tb.dealer || "—"),
        h("dt", {}, t("lobby.players")), h("dd", {}, t("lobby.players_value", { seated: tb.seated, seats: tb.seats, watching: tb.watching })),
        tb.owner ? [h("dt", {}, t("lobby.owner")), h("dd", {}, tb.owner)] : null),
      h("div", { class: "lobby-road", role: "group", "aria-label": t("road.big_road") }, bigRoadPreview(roads.get(tb.id)?.roads)),
      h("a", { class: "btn btn-block", href, "data-testid": `open-${tb.id}` }, dealerConsole ? t("lobby.deal") : mine ? t("lobby.return") : t("lobby.open")),
    );
  }

  function render() {
    if (error && !tables) {
      fill(grid, h("p", { class: "error", role: "alert" }, errorText(error)));
      return;
    }
    if (!tables) return;
    const digits = 2;
    fill(
      banner,
      me && me.role === "player"
        ? h("p", { class: "banner" },
            t("lobby.balance", { amount: money(me.balance, digits) }),
            me.table ? [" · ", h("a", { href: `#/table/${me.table}` }, t("lobby.at_table", { table: me.table }))] : null)
        : !current()
          ? h("p", { class: "banner" }, h("a", { href: "#/login" }, t("lobby.login_hint")))
          : null,
    );
    fill(grid, tables.map(card));
  }

  fill(root, h("div", { class: "page lobby" }, h("h1", {}, t("lobby.title")), banner, grid));
  grid.append(h("p", { class: "hint" }, t("common.loading")));
  load().then(() => !stopped && loop());
  return {
    unmount() {
      stopped = true;
      window.clearTimeout(timer);
    },
  };
}
