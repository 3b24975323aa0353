// The betting layout of a table: bet areas for the table's preset, the chip rack, and
// confirm / undo / clear / double / rebet, plus the tie option [M12] and "wait for me".
import { h } from "./dom.js";
import { listOf, t } from "./i18n.js";
import { betName, chipLabel, money } from "./format.js";
import { allowed, stakeOn, tableBettors, tableSplit, tableTotals } from "./tablestate.js";
import { featureOff } from "./playsession.js";

const MAIN = ["player", "tie", "banker"];

/** The bets the player is offered: the table's, less the side bets when their
 * jurisdiction turns side bets off (Player, Banker and Tie stay). */
export function offeredBets(state) {
  const offered = state.table.bets || [];
  return featureOff("side_bets") ? offered.filter((b) => MAIN.includes(b)) : offered;
}
const PAIRS = ["player_pair", "banker_pair"];

function betClass(bet) {
  if (bet === "player" || bet.includes("player")) return "bet-player";
  if (bet === "banker" || bet.includes("banker")) return "bet-banker";
  if (bet.includes("tie")) return "bet-tie";
  return "bet-side";
}

/** Whether the viewer may bet now: the table says so (`legal`, docs/protocol.md). */
export function canBet(state) {
  return allowed(state, "add_chip") || joinsToBet(state);
}

/** Whether a tap on a spot first takes a watcher's place (a player not at the table while
 * betting is open): tap a chip, tap a spot. */
export function joinsToBet(state) {
  const you = state.you || {};
  return state.phase === "betting_open" && you.viewer === "player" && !you.at_table;
}

function pendingTotal(state) {
  return Object.values(state.you.pending || {}).reduce((a, b) => a + b, 0);
}

function chipStack(amount, digits, cls) {
  if (!amount) return null;
  return h("span", { class: ["chip-stack", cls], "aria-hidden": "true" }, h("span", { class: "chip chip-mini" }, chipLabel(amount, digits)));
}

function betArea(state, bet, ctx, extraClass = "") {
  const digits = state.table.currency_digits;
  const { confirmed, pending } = stakeOn(state, bet);
  const everyone = tableTotals(state)[bet] || 0;
  const bettors = tableBettors(state, bet);
  const others = everyone && (everyone !== confirmed || bettors > 1);
  // [EZ-C] closed this hand because the shoe favours it: shown closed, with the reason
  const edgeClosed = Object.prototype.hasOwnProperty.call(state.edgeClosed || {}, bet);
  const open = canBet(state) && !edgeClosed;
  const refused = ctx.refused && ctx.refused();
  const marked = Boolean(refused && refused.bet === bet);
  const won = state.result && state.result.mine && state.result.mine.settlement
    ? state.result.mine.settlement.results.find((r) => r.bet === bet)
    : null;
  // the hand's winning areas glow while the win display is up (table.js)
  const areaWon = Boolean(ctx.winning && ctx.winning().includes(bet));
  const parts = [betName(bet)];
  if (edgeClosed) parts.push(t("bet.edge_closed"));
  if (areaWon) parts.push(t("win.area_won"));
  if (confirmed) parts.push(t("bet.your_bet", { amount: money(confirmed, digits) }));
  if (pending) parts.push(t("bet.unconfirmed", { amount: money(pending, digits) }));
  if (others) parts.push(t("bet.table_total_bettors", { amount: money(everyone, digits), n: bettors }));
  return h(
    "button",
    {
      type: "button",
      class: ["bet", betClass(bet), extraClass, edgeClosed ? "bet-edge-closed" : "", confirmed ? "has-confirmed" : "", pending ? "has-pending" : "", won && won.net > 0 ? "bet-won" : "", areaWon ? "bet-area-won" : "", marked ? "bet-refused" : ""],
      "aria-invalid": marked ? "true" : null,
      "data-bet": bet,
      "data-won": areaWon ? "true" : null,
      "data-closed": edgeClosed ? "edge_closed" : null,
      "data-key": `bet-${bet}`,
      disabled: !open,
      "aria-label": listOf(parts),
      onclick: () => ctx.addChip(bet),
    },
    h("span", { class: "bet-name" }, betName(bet)),
    edgeClosed ? h("span", { class: "bet-closed-reason", "data-testid": `closed-${bet}` }, t("bet.edge_closed")) : null,
    h(
      "span",
      { class: "bet-amounts" },
      chipStack(pending || confirmed, digits, pending ? "pending" : "confirmed"),
      confirmed ? h("span", { class: "bet-confirmed", "data-testid": `confirmed-${bet}` }, money(confirmed, digits)) : null,
      pending ? h("span", { class: "bet-pending", "data-testid": `pending-${bet}` }, `+${money(pending, digits)}`) : null,
    ),
    others
      ? h("span", { class: "bet-everyone", "data-testid": `everyone-${bet}` },
        `Σ ${money(everyone, digits)}`,
        h("span", { class: "bet-bettors", "data-testid": `bettors-${bet}` }, t("bet.bettors_short", { n: bettors })))
      : null,
  );
}

/** Everyone's Player and Banker totals side by side (a bar in the two colours), shown
 * once somebody bet on either. */
function splitBar(state) {
  const { player, banker } = tableSplit(state);
  const all = player + banker;
  if (!all) return null;
  const p = Math.round((player * 100) / all);
  const b = 100 - p;
  const label = t("bet.split", { player: betName("player"), p, banker: betName("banker"), b });
  return h(
    "div",
    { class: "bet-split", role: "img", "aria-label": label, title: label, "data-testid": "bet-split" },
    h("span", { class: "bet-split-label bet-split-player" }, `${betName("player")} ${p}%`),
    h("span", { class: "bet-split-bar", "aria-hidden": "true" },
      h("span", { class: "bet-split-p", style: { width: `${p}%` } }),
      h("span", { class: "bet-split-b", style: { width: `${b}%` } })),
    h("span", { class: "bet-split-label bet-split-banker" }, `${b}% ${betName("banker")}`),
  );
}

/** The bet areas of the table's preset: the main areas and the pairs on the layout, every
 * other side bet (Dragon Bonus, Tiger, Big/Small, the ten Super Ties) behind a "Side bets"
 * tab, so the main areas, the chips and the cards fit one phone screen. A compact table
 * (the multi-table page) shows the main areas and the pairs only. */
export function betLayout(state, ctx) {
  const offered = offeredBets(state);
  const main = MAIN.filter((b) => offered.includes(b));
  const pairs = PAIRS.filter((b) => offered.includes(b));
  const superTies = offered.filter((b) => b.startsWith("super_tie_"));
  const sides = offered.filter((b) => !main.includes(b) && !pairs.includes(b) && !superTies.includes(b));
  const mainPanel = [
    pairs.length ? h("div", { class: "bet-row bet-row-pairs" }, pairs.map((b) => betArea(state, b, ctx, "bet-small"))) : null,
    h("div", { class: "bet-row bet-row-main" }, main.map((b) => betArea(state, b, ctx, "bet-main"))),
    splitBar(state),
  ];
  if (ctx.compact || (!sides.length && !superTies.length)) return h("div", { class: "bet-layout", role: "group", "aria-label": t("bet.layout") }, mainPanel);
  const sidePanel = [
    sides.length ? h("div", { class: "bet-row bet-row-side" }, sides.map((b) => betArea(state, b, ctx, "bet-small"))) : null,
    superTies.length
      ? h("div", { class: "bet-row bet-row-super", role: "group", "aria-label": t("bet.super_ties") }, superTies.map((b) => betArea(state, b, ctx, "bet-tiny")))
      : null,
  ];
  const showSide = ctx.betTab() === "side";
  const sideBets = [...sides, ...superTies];
  const onSide = sideBets.reduce((sum, b) => { const s = stakeOn(state, b); return sum + s.confirmed + s.pending; }, 0);
  const tab = (name, label) =>
    h("button", {
      type: "button", role: "tab", id: `bet-tab-${name}`, class: "bet-tab", "data-key": `bet-tab-${name}`, "data-tab": name,
      "aria-selected": String((name === "side") === showSide), "aria-controls": `bet-panel-${name}`,
      // on press, not only on click: a table re-rendered between press and release (its
      // events keep coming) replaces the button, and a click needs both on the same one
      onpointerdown: () => ctx.setBetTab(name),
      onclick: () => ctx.setBetTab(name),
    }, label);
  return h(
    "div",
    { class: "bet-layout", role: "group", "aria-label": t("bet.layout") },
    h("div", { class: "bet-tabs", role: "tablist", "aria-label": t("bet.layout") },
      tab("main", t("bet.tab_main")),
      tab("side", onSide ? t("bet.tab_side_amount", { n: sideBets.length, amount: money(onSide, state.table.currency_digits) }) : t("bet.tab_side", { n: sideBets.length }))),
    h("div", { class: "bet-panel", role: "tabpanel", id: "bet-panel-main", "aria-labelledby": "bet-tab-main", hidden: showSide }, mainPanel),
    h("div", { class: "bet-panel", role: "tabpanel", id: "bet-panel-side", "aria-labelledby": "bet-tab-side", hidden: !showSide }, sidePanel),
  );
}

/** The chip rack: one radio button per chip of the table. */
export function chipRack(state, ctx) {
  const digits = state.table.currency_digits;
  const chosen = ctx.chip();
  return h(
    "div",
    { class: "chip-rack", role: "radiogroup", "aria-label": t("chips.label") },
    (state.table.chips || []).map((chip, i) =>
      h(
        "button",
        {
          type: "button",
          role: "radio",
          class: ["chip", `chip-${i % 7}`],
          "aria-checked": String(chip === chosen),
          "aria-label": t("chips.chip", { amount: money(chip, digits) }),
          "data-chip": chip,
          "data-key": `chip-${chip}`,
          onclick: () => ctx.chooseChip(chip),
        },
        chipLabel(chip, digits),
      ),
    ),
  );
}

/** Undo / clear / double / rebet / confirm, and the table kind's extra requests. */
export function betActions(state, ctx) {
  const you = state.you || {};
  const pending = pendingTotal(state);
  const digits = state.table.currency_digits;
  const button = (type, label, opts = {}) =>
    h(
      "button",
      { type: "button", class: ["btn", opts.cls || ""], "data-action": type, "data-key": `act-${type}`, disabled: !allowed(state, type) || opts.disabled, onclick: () => ctx.act(type) },
      label,
    );
  const extras = [];
  if (state.table.kind === "bid_squeeze" && you.at_table) {
    extras.push(button("wait_for_me", t("action.wait_for_me"), { cls: "btn-ghost" }));
    extras.push(openCards(state, ctx));
  }
  if (state.table.kind === "vip" && state.owner && state.owner === you.user_id) {
    extras.push(button("fly", t("action.fly"), { cls: "btn-ghost", disabled: Object.keys(you.bets || {}).length > 0 }));
  }
  return h(
    "div",
    { class: "bet-actions", role: "group", "aria-label": t("action.group") },
    button("undo", t("action.undo"), { disabled: !pending }),
    button("clear", t("action.clear"), { disabled: !pending }),
    button("double", t("action.double"), { disabled: !pending }),
    button("rebet", t("action.rebet")),
    h(
      "button",
      {
        type: "button",
        class: "btn btn-confirm",
        "data-action": "confirm",
        "data-key": "act-confirm",
        // Open while betting is: a confirm the limits refuse says why [L].
        disabled: !allowed(state, "add_chip") || !pending,
        onclick: () => ctx.act("confirm"),
      },
      pending ? t("action.confirm_amount", { amount: money(pending, digits) }) : t("action.confirm"),
    ),
    extras,
    h("label", { class: "auto-confirm" },
      h("input", { type: "checkbox", "data-testid": "auto-confirm", checked: ctx.autoConfirm(), onchange: (e) => ctx.setAutoConfirm(e.target.checked) }),
      t("action.auto_confirm")),
  );
}

/**
 * [O] "Seated players may ask the dealer to open the cards": while betting is open (deal
 * now) and during the squeeze (turn the face-down cards); the dealer opens them once every
 * seated player asked. When the button cannot be used, a line under it says why.
 */
function openCards(state, ctx) {
  const you = state.you || {};
  const seated = you.place === "seated";
  const stage = state.phase === "betting_open" || state.phase === "squeeze";
  const asked = (state.openRequests || []).includes(you.user_id);
  const players = state.seats.length;
  const askedCount = new Set((state.openRequests || []).filter((p) => state.seats.some((x) => x.player === p))).size;
  let why = null;
  if (!seated) why = t("open.only_seated");
  else if (!stage) why = t("open.when");
  else if (asked) why = t("open.waiting", { asked: askedCount, seated: players });
  else if (askedCount) why = t("open.others_asked", { asked: askedCount, seated: players });
  return [
    h("button", {
      type: "button", class: "btn btn-ghost", "data-action": "open_cards", "data-key": "act-open_cards",
      disabled: !allowed(state, "open_cards"), "aria-describedby": why ? "open-cards-why" : null,
      onclick: () => ctx.act("open_cards"),
    }, t(asked && stage ? "action.open_cards_asked" : "action.open_cards")),
    why ? h("p", { class: "hint open-cards-why", id: "open-cards-why", "data-testid": "open-cards-why" }, why) : null,
  ];
}

/** The tie option [M12]: main bets a tie left standing may be cancelled or changed. */
export function tieOption(state, ctx) {
  const you = state.you || {};
  if (!allowed(state, "change_tie_bets")) return null; // the table says when [M12]
  const digits = state.table.currency_digits;
  const inputs = {};
  const row = (side) => {
    const input = h("input", { type: "number", min: 0, step: "any", value: ((you.bets || {})[side] || 0) / 10 ** digits, "aria-label": t("tie.amount", { side: betName(side) }) });
    inputs[side] = input;
    return h("label", { class: "field field-inline" }, h("span", {}, betName(side)), input);
  };
  return h(
    "section",
    { class: "tie-option", "aria-label": t("tie.title") },
    h("p", {}, t("tie.text")),
    row("player"),
    row("banker"),
    h("button", {
      type: "button",
      class: "btn",
      onclick: () => {
        const bets = {};
        for (const [side, input] of Object.entries(inputs)) {
          const amount = Math.round(Number(input.value) * 10 ** digits);
          if (amount > 0) bets[side] = amount;
        }
        ctx.act("change_tie_bets", { bets });
      },
    }, t("tie.change")),
    h("button", { type: "button", class: "btn btn-ghost", "data-action": "cancel_tie_bets", onclick: () => ctx.act("change_tie_bets", { bets: {} }) }, t("tie.cancel")),
  );
}
