// The lobby (#/): every open table with its kind, rules preset, limits, hand number,
// players and a live Big Road preview, refreshed every few seconds; filters (type, rules,
// a bet the table takes), favourites shown first, and road alerts: the player picks a
// pattern and a length, and a table whose Big Road shows it is named with a link to join.
// Whether a road matches is read from the lobby's `streak`, which the server computes
// with its roads module (punto.roads): the browser keeps no copy of the road rules.
// Favourites and alerts are kept with the account (GET/PUT /api/me/lobby); without an
// account, in this browser (localStorage). The filters are kept in this browser.
import { api } from "./api.js";
import { h, fill, icon, toast } from "./dom.js";
import { has, t } from "./i18n.js";
import { errorText, money, parseMoney, phaseName, presetName, tableName } from "./format.js";
import { bigRoadPreview } from "./roads.js";
import { current, role } from "./session.js";

const REFRESH_MS = 3000;
const STILL_MS = 10000; // a table's still is fetched again this often
const FILTERS_KEY = "punto.lobby.filters";
const PREFS_KEY = "punto.lobby.prefs";
const KINDS = ["rng", "live", "vip", "bid_squeeze"];
const PATTERNS = ["banker", "player", "ping_pong"];

function stored(key, fallback) {
  try {
    const value = JSON.parse(window.localStorage.getItem(key) || "null");
    return value && typeof value === "object" ? { ...fallback, ...value } : fallback;
  } catch {
    return fallback;
  }
}

function keep(key, value) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* private mode: kept for this visit only */
  }
}

/** Whether a table is of the filter's type (RNG or live dealing; VIP or bid-squeeze kind). */
function ofKind(tb, kind) {
  if (kind === "rng" || kind === "live") return tb.dealing === kind;
  return tb.kind === kind;
}

/** Whether one of the table's tiers takes a bet of `amount` minor units. */
function takes(tb, amount) {
  const tiers = tb.tiers && tb.tiers.length ? tb.tiers : [{ min_bet: tb.min_bet, max_bet: tb.max_bet }];
  return tiers.some((tier) => tier.min_bet <= amount && amount <= tier.max_bet);
}

/** The Big Road's current streak in words ("Banker × 3 · ping-pong 4"), as the server gave it. */
function streakText(streak) {
  if (!streak || !streak.side) return "—";
  const parts = [t(`lobby.streak_${streak.side}`, { n: streak.length })];
  if (streak.ping_pong >= 2) parts.push(t("lobby.streak_ping_pong", { n: streak.ping_pong }));
  return parts.join(" · ");
}

/** How long the road pattern of an alert runs at a table now (from the server's streak). */
function run(tb, pattern) {
  const streak = tb.streak;
  if (!streak) return 0;
  if (pattern === "ping_pong") return streak.ping_pong || 0;
  return streak.side === pattern ? streak.length : 0;
}

export function mount(root) {
  const roads = new Map();
  let tables = null;
  let me = null;
  let error = null;
  let stopped = false;
  let timer = 0;
  const filters = stored(FILTERS_KEY, { kind: "", preset: "", amount: "" });
  let prefs = current() ? { favourites: [], alerts: [] } : stored(PREFS_KEY, { favourites: [], alerts: [] });
  let alertKey = null;

  const grid = h("div", { class: "lobby-grid", "aria-live": "off" });
  const banner = h("div", { class: "lobby-banner" });
  const filterBar = h("form", { class: "lobby-filters", role: "search", "aria-label": t("lobby.filters"), onsubmit: (e) => e.preventDefault() });
  const shown = h("p", { class: "hint lobby-shown", role: "status", "aria-live": "polite", "data-testid": "lobby-shown" });
  const alertSetup = h("details", { class: "panel lobby-alert-setup" });
  const alertsNow = h("div", { class: "lobby-alerts", role: "status", "aria-live": "polite", "data-testid": "lobby-alerts" });

  // Saves go one at a time, in the order the player made them: two quick changes never
  // reach the server out of order, and an older answer never undoes a newer change.
  let saving = Promise.resolve();
  let edits = 0;

  function savePrefs(next) {
    const before = prefs;
    prefs = next;
    render();
    if (!current()) {
      keep(PREFS_KEY, prefs);
      return saving;
    }
    const edit = ++edits;
    saving = saving.then(async () => {
      try {
        const saved = await api.setLobbyPrefs(next);
        if (edit === edits) prefs = saved;
      } catch (err) {
        if (edit === edits) prefs = before;
        toast(errorText(err), "error");
      }
      render();
    });
    return saving;
  }

  function toggleFavourite(id) {
    const favourites = prefs.favourites.includes(id) ? prefs.favourites.filter((f) => f !== id) : [...prefs.favourites, id];
    savePrefs({ ...prefs, favourites });
  }

  async function load() {
    try {
      const first = tables === null && current();
      const [lobby, who, saved] = await Promise.all([
        api.lobby(),
        current() ? api.me().catch(() => null) : null,
        first ? api.lobbyPrefs().catch(() => null) : null,
      ]);
      tables = lobby.tables;
      me = who;
      if (saved) prefs = saved;
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
  // the table's overall range of bets, in one line
  function rangeText(tb, digits) {
    return `${money(tb.min_bet, digits)} – ${money(tb.max_bet, digits)}`;
  }

  function limitsList(tb, digits) {
    if (!tb.tiers || !tb.tiers.length) return rangeText(tb, digits);
    return h("ul", { class: "lobby-tiers" }, tb.tiers.map((tier) =>
      h("li", { "data-tier": tier.name }, `${has(`tier.${tier.name}`) ? t(`tier.${tier.name}`) : tier.name} ${money(tier.min_bet, digits)}–${money(tier.max_bet, digits)}`)));
  }

  // A launched player in their own currency sees their limit group's amounts of each tier.
  function priced(tb) {
    const purse = me && me.limits;
    if (!purse) return tb;
    const mine = new Map(purse.limits.map((tier) => [tier.name, tier]));
    const tiers = (tb.tiers || []).filter((tier) => mine.has(tier.name)).map((tier) => mine.get(tier.name));
    if (!tiers.length) return tb;
    return { ...tb, tiers, currency_digits: purse.digits, min_bet: Math.min(...tiers.map((x) => x.min_bet)), max_bet: Math.max(...tiers.map((x) => x.max_bet)) };
  }

  // One image a table, kept across the lobby's refreshes (a new element each time would
  // flash while it loads); its address changes every STILL_MS, so the browser fetches it again.
  const stills = new Map();
  function stillImage(tb) {
    const src = `${tb.still_url}${tb.still_url.includes("?") ? "&" : "?"}t=${Math.floor(Date.now() / STILL_MS)}`;
    let img = stills.get(tb.id);
    if (!img) {
      img = h("img", { class: "lobby-still", alt: "", decoding: "async" });
      stills.set(tb.id, img);
    }
    if (img.getAttribute("src") !== src) img.setAttribute("src", src);
    return img;
  }

  // The tile's picture: the studio's still of the table (refreshed every STILL_MS), else
  // the felt with the table's last results; the dealer's photo (or initial) and name on it.
  function thumb(tb, left) {
    const still = tb.still_url
      ? stillImage(tb)
      : h("div", { class: "lobby-felt", "aria-hidden": "true" },
        [...String(tb.last_results || "").slice(-12)].map((r) => h("i", { class: `bead bead-${r}` })));
    const initial = () => h("span", { class: "lobby-dealer-photo lobby-dealer-initial", "aria-hidden": "true" }, [...tb.dealer][0].toUpperCase());
    const dealer = tb.dealer
      ? h("span", { class: "lobby-dealer", "data-testid": `dealer-${tb.id}` },
        tb.dealer_photo
          ? h("img", { class: "lobby-dealer-photo", src: tb.dealer_photo, alt: "", loading: "lazy", onerror: (e) => e.target.replaceWith(initial()) })
          : initial(),
        h("span", { class: "lobby-dealer-name" }, tb.dealer))
      : null;
    const status = h("span", { class: ["lobby-phase", tb.phase === "betting_open" ? "lobby-phase-open" : ""] },
      phaseName(tb.phase), left !== null ? ` · ${t("lobby.closes_in", { n: left })}` : "");
    return h("div", { class: ["lobby-thumb", tb.video ? "lobby-thumb-video" : ""], "data-testid": `thumb-${tb.id}` }, still, status, dealer);
  }

  function card(table) {
    const tb = priced(table);
    const digits = tb.currency_digits;
    const left = tb.phase === "betting_open" && tb.closes_at ? Math.max(0, Math.ceil(tb.closes_at - Date.now() / 1000)) : null;
    const dealerConsole = role() === "dealer" && tb.dealing === "live";
    const href = dealerConsole ? `#/dealer/${tb.id}` : `#/table/${tb.id}`;
    const mine = me && me.table === tb.id;
    const favourite = prefs.favourites.includes(tb.id);
    return h(
      "article",
      { class: ["table-card", `kind-${tb.kind}`, mine ? "table-card-mine" : "", favourite ? "table-card-fav" : ""], "data-table": tb.id, "aria-labelledby": `tc-${tb.id}` },
      h("header", {},
        h("h2", { id: `tc-${tb.id}` }, tableName(tb)),
        h("div", { class: "badges" },
          h("button", {
            type: "button", class: "fav", "aria-pressed": String(favourite), "data-key": `fav-${tb.id}`, "data-testid": `fav-${tb.id}`,
            "aria-label": t(favourite ? "lobby.fav_remove" : "lobby.fav_add", { table: tableName(tb) }), onclick: () => toggleFavourite(tb.id),
          }, favourite ? "★" : "☆"),
          h("span", { class: ["badge", `badge-${tb.kind}`] }, t(`kind.${tb.kind}`)),
          h("span", { class: ["badge", `badge-${tb.dealing}`] }, t(`dealing.${tb.dealing}`)),
          tb.password ? h("span", { class: "badge", title: t("lobby.password") }, "🔒") : null)),
      thumb(tb, left),
      h("dl", { class: "kv kv-compact" },
        h("dt", { class: "kv-more" }, t("lobby.rules")), h("dd", { class: "kv-more" }, presetName(tb.rules)),
        h("dt", { class: "kv-more" }, t("lobby.limits")), h("dd", { class: "kv-more", "data-testid": "lobby-limits" }, limitsList(tb, digits)),
        h("dd", { class: "kv-phone" }, rangeText(tb, digits)),
        h("dt", { class: "kv-more" }, t("lobby.game")), h("dd", { class: "kv-more", "data-testid": "lobby-game" }, tb.game || "—"),
        h("dt", { class: "kv-more" }, t("lobby.status")), h("dd", { class: "kv-more" }, phaseName(tb.phase), left !== null ? ` · ${t("lobby.closes_in", { n: left })}` : ""),
        h("dt", { class: "kv-more" }, t("lobby.dealer")), h("dd", { class: "kv-more" }, tb.dealer || "—"),
        h("dt", { class: "kv-more" }, t("lobby.streak")), h("dd", { class: "kv-more", "data-testid": "lobby-streak" }, streakText(tb.streak)),
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
    renderFilters();
    renderAlertSetup();
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
    const visible = tables.filter(matches);
    // favourites first, each group in the server's order
    visible.sort((a, b) => Number(prefs.favourites.includes(b.id)) - Number(prefs.favourites.includes(a.id)));
    fill(shown, t("lobby.showing", { n: visible.length, total: tables.length }));
    const active = document.activeElement;
    const focusKey = active && grid.contains(active) ? active.getAttribute("data-key") : null;
    fill(grid, visible.length ? visible.map(card) : h("p", { class: "hint", "data-testid": "lobby-none" }, t("lobby.none")));
    if (focusKey) {
      const again = grid.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again) again.focus();
    }
    renderAlerts();
  }

  function matches(tb) {
    if (filters.kind && !ofKind(tb, filters.kind)) return false;
    if (filters.preset && tb.rules !== filters.preset) return false;
    if (filters.amount) {
      const amount = parseMoney(filters.amount, tb.currency_digits);
      if (amount !== null && !takes(tb, amount)) return false;
    }
    return true;
  }

  function setFilter(name, value) {
    filters[name] = value;
    keep(FILTERS_KEY, filters);
    render();
  }

  // Built once per table list (the controls keep focus and what is being typed).
  let filterKey = null;
  function renderFilters() {
    const presets = [...new Set(tables.map((tb) => tb.rules))];
    const key = JSON.stringify([document.documentElement.lang, presets]);
    if (key === filterKey) return;
    filterKey = key;
    const select = (name, all, options, testid) =>
      h("select", { name, "data-testid": testid, onchange: (e) => setFilter(name, e.target.value) },
        h("option", { value: "", selected: !filters[name] }, all),
        options.map(([value, label]) => h("option", { value, selected: filters[name] === value }, label)));
    const amountInput = h("input", {
      type: "text", inputmode: "decimal", name: "amount", value: filters.amount, autocomplete: "off", placeholder: "100.00",
      "data-testid": "filter-amount", oninput: (e) => setFilter("amount", e.target.value.trim()),
    });
    fill(filterBar,
      h("label", { class: "field" }, h("span", { class: "field-label" }, t("lobby.filter_kind")),
        select("kind", t("lobby.kind_all"), KINDS.map((k) => [k, t(k === "rng" || k === "live" ? `dealing.${k}` : `kind.${k}`)]), "filter-kind")),
      h("label", { class: "field" }, h("span", { class: "field-label" }, t("lobby.filter_preset")),
        select("preset", t("lobby.preset_all"), presets.map((p) => [p, presetName(p)]), "filter-preset")),
      h("label", { class: "field" }, h("span", { class: "field-label" }, t("lobby.filter_amount")), amountInput),
      h("button", {
        type: "button", class: "btn btn-small", "data-testid": "filter-clear",
        onclick: () => {
          Object.assign(filters, { kind: "", preset: "", amount: "" });
          keep(FILTERS_KEY, filters);
          filterKey = null;
          render();
        },
      }, t("lobby.clear_filters")));
  }

  const ruleText = (alert) => t(`alert.rule.${alert.pattern}`, { n: alert.length });

  let setupKey = null;
  function renderAlertSetup() {
    const key = JSON.stringify([document.documentElement.lang, prefs.alerts, Boolean(current())]);
    if (key === setupKey) return;
    setupKey = key;
    const pattern = h("select", { "data-testid": "alert-pattern" }, PATTERNS.map((p) => h("option", { value: p }, t(`alert.pattern.${p}`))));
    const length = h("input", { type: "number", min: 2, max: 20, value: 4, inputmode: "numeric", "data-testid": "alert-length" });
    const add = (e) => {
      e.preventDefault();
      const n = Math.trunc(Number(length.value));
      if (!(n >= 2 && n <= 20)) {
        toast(t("lobby.alert_bad_length"), "error");
        return;
      }
      const alert = { pattern: pattern.value, length: n };
      if (prefs.alerts.some((a) => a.pattern === alert.pattern && a.length === alert.length)) return;
      alertSetup.open = true;
      savePrefs({ ...prefs, alerts: [...prefs.alerts, alert].slice(-10) });
    };
    const wasOpen = alertSetup.open;
    fill(alertSetup,
      h("summary", {}, t("lobby.alerts"), prefs.alerts.length ? ` (${prefs.alerts.length})` : ""),
      h("form", { class: "lobby-alert-form", onsubmit: add },
        h("label", { class: "field" }, h("span", { class: "field-label" }, t("lobby.alert_pattern")), pattern),
        h("label", { class: "field" }, h("span", { class: "field-label" }, t("lobby.alert_length")), length),
        h("button", { type: "submit", class: "btn btn-small", "data-testid": "alert-add" }, t("lobby.alert_add"))),
      prefs.alerts.length
        ? h("ul", { class: "lobby-alert-rules" }, prefs.alerts.map((a, i) =>
            h("li", {}, ruleText(a), " ",
              h("button", {
                type: "button", class: "btn btn-small", "aria-label": t("lobby.alert_remove", { alert: ruleText(a) }),
                onclick: () => savePrefs({ ...prefs, alerts: prefs.alerts.filter((_, j) => j !== i) }),
              }, "✕"))))
        : h("p", { class: "hint" }, t("lobby.alerts_none")),
      current() ? null : h("p", { class: "hint" }, t("lobby.alerts_local")));
    alertSetup.open = wasOpen;
  }

  function renderAlerts() {
    const hits = [];
    for (const tb of tables) {
      for (const alert of prefs.alerts) {
        const n = run(tb, alert.pattern);
        if (n >= alert.length) {
          hits.push({ tb, pattern: alert.pattern, n });
          break;
        }
      }
    }
    const key = JSON.stringify([document.documentElement.lang, hits.map((x) => [x.tb.id, x.pattern, x.n])]);
    if (key === alertKey) return;
    alertKey = key;
    fill(alertsNow, hits.length
      ? h("ul", { class: "lobby-alert-hits" }, hits.map(({ tb, pattern, n }) =>
          h("li", { "data-table": tb.id, "data-testid": `alert-${tb.id}` },
            icon("M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6zm-2.2 15a2.2 2.2 0 0 0 4.4 0z"),
            t(`alert.hit.${pattern}`, { table: tableName(tb), n }), " ",
            h("a", { href: `#/table/${tb.id}`, class: "btn btn-small" }, t("lobby.join")))))
      : null);
  }

  fill(root, h("div", { class: "page lobby" }, h("h1", {}, t("lobby.title")), banner, alertsNow, filterBar, shown, alertSetup, grid));
  grid.append(h("p", { class: "hint" }, t("common.loading")));
  load().then(() => !stopped && loop());
  return {
    unmount() {
      stopped = true;
      window.clearTimeout(timer);
    },
  };
}
