// Seats and watchers: sit, take a VIP table, watch, stand (marking the seat), leave; the
// VIP owner's settings [O].
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { count, money } from "./format.js";

function tierOptions(state) {
  const table = state.table;
  const tiers = table.kind === "vip" ? table.normal_tiers.filter((n) => n !== table.vip_tier) : table.normal_tiers;
  return (tiers && tiers.length ? tiers : table.limits.map((l) => l.name));
}

function tierLabel(state, name) {
  const tier = state.table.limits.find((l) => l.name === name);
  const digits = state.table.currency_digits;
  return tier ? `${t(`tier.${name}`)} (${money(tier.min_bet, digits)}–${money(tier.max_bet, digits)})` : name;
}

/** The seats around the table; a free one is a button to sit (or take a VIP table). */
export function seatRing(state, ctx) {
  const you = state.you || {};
  const player = you.viewer === "player";
  const n = state.table.seats;
  const vipEmpty = state.table.kind === "vip" && !state.owner;
  const items = [];
  for (let seat = 1; seat <= n; seat++) {
    const who = state.seats.find((s) => s.seat === seat);
    const marked = state.marked.find((m) => m.seat === seat);
    const mine = who && who.player === you.user_id && player;
    let label;
    let action = null;
    if (who) {
      label = t(mine ? "seat.you" : "seat.taken", { seat, player: who.player });
      if (!who.connected) label += ` — ${t("seat.away")}`;
      if (state.owner === who.player) label += ` — ${t("seat.owner")}`;
    } else if (marked) {
      label = t("seat.marked", { seat, player: marked.player });
    } else {
      label = t(vipEmpty ? "seat.take" : "seat.free", { seat });
      if (player && you.place !== "seated") action = () => (vipEmpty ? ctx.takeTable(seat) : ctx.sit(seat));
    }
    items.push(
      h(
        "li",
        {},
        h(
          "button",
          {
            type: "button",
            class: ["seat", who ? "seat-taken" : "seat-free", mine ? "seat-mine" : "", marked ? "seat-marked" : "", who && state.owner === who.player ? "seat-owner" : ""],
            "data-seat": seat,
            "data-key": `seat-${seat}`,
            "aria-label": label,
            title: label,
            disabled: !action,
            onclick: action,
          },
          h("span", { class: "seat-no" }, String(seat)),
          h("span", { class: "seat-name" }, who ? who.player : marked ? `(${marked.player})` : t(vipEmpty ? "seat.take_short" : "seat.free_short")),
        ),
      ),
    );
  }
  return h("ol", { class: "seat-ring", "aria-label": t("seat.title") }, items);
}

/** Sit / watch / stand / leave, the tier, the table password and the watchers' spot. */
export function seatControls(state, ctx) {
  const you = state.you || {};
  if (you.viewer !== "player") {
    return h("p", { class: "hint" }, you.viewer === "watcher" ? t("seat.login_to_play") : t("seat.staff_view"));
  }
  const table = state.table;
  const parts = [];
  if (!(you.place === "seated" && table.kind !== "normal")) {
    const tiers = tierOptions(state);
    const tierSelect = h(
      "select",
      { "aria-label": t("seat.tier"), "data-key": "tier", onchange: (e) => ctx.setTier(e.target.value) },
      tiers.map((name) => h("option", { value: name, selected: name === ctx.tier() }, tierLabel(state, name))),
    );
    if (you.place !== "seated") parts.push(h("label", { class: "field field-inline" }, h("span", {}, t(table.kind === "bid_squeeze" ? "seat.tier_watch" : "seat.tier")), tierSelect));
    // [O] a bid-squeeze seat always plays on the table's VIP limits: say so next to the menu
    if (table.kind === "bid_squeeze" && you.place !== "seated" && table.vip_tier) {
      parts.push(h("p", { class: "hint", "data-testid": "bid-seat-tier" }, t("seat.bid_seat_tier", { tier: tierLabel(state, table.vip_tier) })));
    }
  }
  if (state.vip && state.vip.password_set && you.place !== "seated") {
    parts.push(
      h("label", { class: "field field-inline" }, h("span", {}, t("seat.password")),
        h("input", { type: "password", autocomplete: "off", "data-key": "table-password", value: ctx.password(), oninput: (e) => ctx.setPassword(e.target.value) })),
    );
  }
  if (you.place !== "seated" && you.place !== "watching") {
    parts.push(h("p", { class: "hint" }, t(table.kind === "vip" && !state.owner ? "seat.hint_vip" : "seat.hint")));
    parts.push(h("button", { type: "button", class: "btn", "data-action": "watch", onclick: () => ctx.watch() }, t("seat.watch")));
  }
  if (you.place === "watching") {
    const free = [];
    for (let seat = 1; seat <= table.seats; seat++) {
      if (!state.seats.some((s) => s.seat === seat) && !state.marked.some((m) => m.seat === seat)) free.push(seat);
    }
    parts.push(
      h("label", { class: "field field-inline" }, h("span", {}, t("seat.spot")),
        h("select", { "data-key": "spot", onchange: (e) => ctx.setSpot(e.target.value ? Number(e.target.value) : null) },
          h("option", { value: "" }, t("seat.spot_watchers")),
          free.map((seat) => h("option", { value: seat, selected: ctx.spot() === seat }, t("seat.spot_n", { seat }))),
        )),
    );
  }
  if (you.place === "seated") {
    const mark = h("input", { type: "checkbox", "data-key": "mark" });
    parts.push(h("label", { class: "field field-check" }, mark, h("span", {}, t("seat.mark"))));
    parts.push(h("button", { type: "button", class: "btn btn-ghost", "data-action": "stand", onclick: () => ctx.act("stand", { mark: mark.checked }) }, t("seat.stand")));
  }
  if (you.at_table) {
    parts.push(h("button", { type: "button", class: "btn btn-ghost", "data-action": "leave", onclick: () => ctx.leave() }, t("seat.leave")));
  }
  return h("div", { class: "seat-controls" }, parts);
}

/** Names shown of the players betting without a seat; a table of thousands shows these
 * and how many more (the whole list would fill a phone's screen). */
export const WATCHERS_SHOWN = 12;

export function watcherList(state) {
  const all = state.watchers;
  if (!all.length) return h("p", { class: "hint" }, t("seat.no_watchers"));
  const you = (state.you || {}).user_id;
  // yourself first, then the others in the server's order
  const names = all.includes(you) ? [you, ...all.filter((w) => w !== you)] : all;
  const more = names.length - WATCHERS_SHOWN;
  return h("p", { class: "watchers" },
    h("b", {}, `${t("seat.watchers_count", { n: count(all.length) })}: `),
    names.slice(0, WATCHERS_SHOWN).join(", "),
    more > 0 ? ` ${t("seat.watchers_more", { n: count(more) })}` : "");
}

/** The VIP owner's controls [O]: squeeze on/off, vertical squeeze, password, dealer, shoe. */
export function vipPanel(state, ctx) {
  const you = state.you || {};
  if (state.table.kind !== "vip" || !state.owner || state.owner !== you.user_id) return null;
  const vip = state.vip || {};
  const password = h("input", { type: "password", autocomplete: "new-password", "aria-label": t("vip.password"), "data-key": "vip-password" });
  const hands = state.shoe.hands_dealt || 0;
  return h(
    "section",
    { class: "panel vip-panel", "aria-label": t("vip.title") },
    h("h3", {}, t("vip.title")),
    h("label", { class: "field field-check" },
      h("input", { type: "checkbox", checked: vip.squeeze, "data-key": "vip-squeeze", onchange: (e) => ctx.act("vip_settings", { squeeze: e.target.checked }) }),
      h("span", {}, t("vip.squeeze"))),
    h("label", { class: "field field-check" },
      h("input", { type: "checkbox", checked: vip.vertical_squeeze, "data-key": "vip-vertical", onchange: (e) => ctx.act("vip_settings", { vertical_squeeze: e.target.checked }) }),
      h("span", {}, t("vip.vertical"))),
    h("div", { class: "row" },
      h("label", { class: "field field-inline" }, h("span", {}, t("vip.password")), password),
      h("button", { type: "button", class: "btn btn-ghost", onclick: () => password.value && ctx.act("vip_settings", { password: password.value }) }, t("vip.set_password")),
      vip.password_set ? h("button", { type: "button", class: "btn btn-ghost", onclick: () => ctx.act("vip_settings", { clear_password: true }) }, t("vip.clear_password")) : null),
    h("div", { class: "row" },
      h("button", { type: "button", class: "btn btn-ghost", "data-action": "change_dealer", onclick: () => ctx.act("change_dealer") }, t("vip.change_dealer")),
      h("button", { type: "button", class: "btn btn-ghost", "data-action": "change_shoe", disabled: hands < 30, title: t("vip.change_shoe_hint"), onclick: () => ctx.act("change_shoe") }, t("vip.change_shoe", { n: hands }))),
  );
}
