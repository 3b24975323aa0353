// The table screen (#/table/{id}): the coup dealt card by card with totals, the result and
// the win display, the bet areas, chips and betting actions, the squeeze, seats and
// watchers, VIP and bid-squeeze controls, the five roads, the player's records and the
// event log; sound (off until turned on) and the connection's health in the header.
// ``compact`` (the multi-table page, multi.js): the countdown, the balance, the cards, the
// result, the main bet areas, chips and actions only, with "watch and bet" / "leave".
import { h, fill, announce, toast } from "./dom.js";
import { listOf, t } from "./i18n.js";
import { betName, errorText, handPhaseName, money, presetName, setCurrency, signed, tableName } from "./format.js";
import { has } from "./i18n.js";
import { limitsCard } from "./paytable.js";
import { cardElement, handTotal } from "./cards.js";
import { TableSocket } from "./socket.js";
import { applyMessage, chipRefusal, firstIncomplete, fromSnapshot, sideCards, standingBets } from "./tablestate.js";
import { betActions, betLayout, chipRack, joinsToBet, tieOption } from "./betting.js";
import { squeezeKey, squeezeLeft, squeezePanel } from "./squeeze.js";
import { seatControls, seatRing, vipPanel, watcherList } from "./seats.js";
import { bigRoadPreview, roadBoard } from "./roads.js";
import { videoPanel } from "./video.js";
import { call, effect, onSoundChange, setSound, soundOn } from "./sound.js";
import { WIN_DISPLAY_MS, winDisplay, winSentence, winSummary } from "./windisplay.js";
import { amendedBalanceText, describeEvent, outcomeText, reasonText } from "./eventtext.js";
import { betRecords, handLookup } from "./records.js";
import { current, role } from "./session.js";
import { chatPanel, chatStore } from "./chat.js";
import { api } from "./api.js";
import { featureOff, refused } from "./playsession.js";
import { feeLine, lightningStrip, litMultiplier, litProduct } from "./lightning.js";

const HOLD_MAX_MS = 3000; // a card or result never waits longer than this for the picture
const HELD_KINDS = new Set(["card_placed", "cards_revealed", "hand_result", "hand_settled", "bets_refunded", "hand_voided"]);
const AUTO_CONFIRM_S = 1.5; // auto-confirm sends the chips this long before betting closes
const SLOW_RTT_MS = 400; // a round trip this long, or …
const SLOW_VIDEO_S = HOLD_MAX_MS / 1000; // … a picture further behind: too slow to bet safely

/** What to do about a refused or incomplete chip, in the player's language and money. */
function advice(why, digits) {
  const key = `advice.${why.limit}`;
  if (!has(key)) return null;
  return t(key, {
    bet: why.bet ? betName(why.bet) : "",
    value: why.limit === "closed_from" ? String(why.value) : why.limit === "edge_closed" ? "" : money(why.value || 0, digits),
    short: money(why.short || 0, digits),
  });
}

/** Replace a section's content, keeping keyboard focus on the same control. */
export function swap(container, content) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.getAttribute("data-key") : null;
  fill(container, content);
  if (key) {
    const again = container.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus();
  }
}

export function mount(root, { id, compact = false }) {
  let state = null;
  let status = "connecting";
  let chipLocal = null;
  let tierLocal = null;
  let spotLocal = null;
  let betTab = "main";
  let refusal = null;
  let passwordLocal = "";
  let sentGame = null;
  let autoConfirm = false; // the player's chips confirmed by the page just before betting closes
  let autoSent = null; // the hand auto-confirmed last
  try { autoConfirm = localStorage.getItem("punto.auto_confirm") === "on"; } catch { /* private mode */ }
  const sent = new Set();
  const animated = new Set();
  const memo = new Map();
  let frame = 0;

  let el = null;
  let skeleton = null;
  let records = null;
  let lookup = null;
  let countdown = null;
  let video = null;
  let chat = null;
  const chatLines = chatStore();
  let soundButton = null;
  let net = null;
  let rtt = undefined;
  let win = null;
  let winTimer = 0;

  const digitsNow = () => (state ? state.table.currency_digits : 2);
  const explain = (why) => advice(why, digitsNow());
  const refuse = (why, fallback) => {
    refusal = { bet: (why && why.bet) || null, text: (why && explain(why)) || fallback };
    memo.delete("bets");
    memo.delete("message");
    schedule();
  };
  const SLIP = new Set(["confirm", "clear", "undo", "rebet", "double", "add_chip"]);
  const ctx = {
    compact,
    act: async (type, fields = {}) => {
      if (type === "confirm" && state) {
        const why = firstIncomplete(state);
        if (why) {
          refuse(why, errorText({ code: "bet_limit", params: why }, digitsNow()));
          toast(refusal.text, "error");
          return false;
        }
      }
      try {
        await socket.send(type, fields);
        if (refusal && SLIP.has(type)) {
          refusal = null;
          memo.delete("bets");
          memo.delete("message");
          schedule();
        }
        return true;
      } catch (err) {
        const text = errorText(err, digitsNow());
        // a reality check due or the session's limit: its modal says so, not a toast
        if (!refused(err)) toast(text, "error");
        if (SLIP.has(type)) refuse(err && err.params, text);
        return false;
      }
    },
    refused: () => refusal,
    winning: () => (win ? win.areas : []),
    chip: () => (state && state.you.chip) || chipLocal || defaultChip(),
    chooseChip: async (chip) => {
      chipLocal = chip;
      if (state && state.you.at_table) await ctx.act("choose_chip", { chip });
      schedule();
    },
    addChip: async (bet) => {
      const chip = ctx.chip();
      if (joinsToBet(state)) {
        // tap a chip, tap a spot: the player takes a watcher's place and the chip goes down
        await ctx.watch();
        if (!state.you.at_table) return;
        if (!(await ctx.act("choose_chip", { chip }))) return;
        state.you.chip = chip;
        await ctx.act("add_chip", { bet });
        return;
      }
      const why = chipRefusal(state, bet, chip);
      if (why) {
        const text = has(`error.limit.${why.limit}`) ? errorText({ code: "bet_limit", params: why }, digitsNow()) : explain(why);
        refuse(why, text);
        toast(text, "error");
        return;
      }
      if (state.you.chip !== chip && !(await ctx.act("choose_chip", { chip }))) return;
      state.you.chip = chip;
      const fields = { bet };
      if (state.you.place === "watching" && spotLocal) fields.spot = spotLocal;
      await ctx.act("add_chip", fields);
    },
    betTab: () => betTab,
    setBetTab: (name) => {
      betTab = name;
      memo.delete("bets");
      schedule();
    },
    tier: () => tierLocal || defaultTier(),
    setTier: (name) => (tierLocal = name),
    spot: () => spotLocal,
    setSpot: (seat) => (spotLocal = seat),
    password: () => passwordLocal,
    setPassword: (text) => (passwordLocal = text),
    sit: async (seat) => {
      if (!(await joined())) return;
      const fields = { seat };
      if (state.table.kind !== "bid_squeeze") fields.tier = ctx.tier();
      if (passwordLocal) fields.password = passwordLocal;
      if (await ctx.act("sit", fields)) announce(t("seat.sat", { seat }));
    },
    takeTable: async (seat) => {
      if (!(await joined())) return;
      await ctx.act("take_table", { seat });
    },
    watch: async () => {
      if (!(await joined())) return;
      const fields = { tier: ctx.tier() };
      if (passwordLocal) fields.password = passwordLocal;
      if (await ctx.act("watch", fields)) state.you.at_table = true;
    },
    autoConfirm: () => autoConfirm,
    setAutoConfirm: (on) => {
      autoConfirm = on;
      try { localStorage.setItem("punto.auto_confirm", on ? "on" : "off"); } catch { /* private mode */ }
    },
    leave: async () => {
      if (await ctx.act("leave")) toast(t("seat.left"), "ok");
    },
  };

  async function joined() {
    if (state.you.at_table) return true;
    return ctx.act("join");
  }

  function defaultChip() {
    const chips = (state && state.table.chips) || [];
    const tier = state && state.table.limits.find((l) => l.name === (state.you.tier || ctx.tier()));
    return chips.find((c) => tier && c >= tier.min_bet) || chips[0] || null;
  }

  function defaultTier() {
    if (!state) return null;
    const tiers = state.table.normal_tiers || [];
    return tiers[0] || (state.table.limits[0] && state.table.limits[0].name);
  }

  // After a reload the snapshot may carry no wallet figure (the wallet did not answer):
  // the account's balance stands in, so the balance never shows "—".
  function walletFromAccount() {
    api.me().then((me) => {
      if (!state || me.balance === null || me.balance === undefined) return;
      if (state.you.wallet_balance === null || state.you.wallet_balance === undefined) {
        state.you.wallet_balance = me.balance;
        schedule();
      }
    }).catch(() => {});
  }

  // Cards and results wait for the picture (docs/web.md "In step with the video"): a card, a result or a settlement is shown
  // once the video has reached it (its measured delay, at most HOLD_MAX_MS; no video or a
  // member of staff: at once), and what comes after it waits its turn behind it.
  const held = []; // { at, msg }, in arrival order
  let holdTimer = null;

  function holdMs() {
    const staff = role() && role() !== "player";
    const behind = video && !compact && !staff ? video.delay() : null;
    return behind === null ? 0 : Math.min(HOLD_MAX_MS, Math.round(behind * 1000));
  }

  function receive(msg) {
    if (msg.type === "snapshot" || msg.type === "error") {
      if (msg.type === "snapshot") held.length = 0; // the snapshot is the table as it is now
      handle(msg);
      showHold();
      return;
    }
    const gated = msg.type === "event" && HELD_KINDS.has(msg.event.kind);
    const last = held.length ? held[held.length - 1].at : 0;
    const wait = gated ? holdMs() : 0;
    if (!held.length && !wait) return handle(msg);
    held.push({ at: Math.max(last, Date.now() + wait), msg });
    release();
  }

  function release() {
    window.clearTimeout(holdTimer);
    while (held.length && held[0].at <= Date.now()) handle(held.shift().msg);
    if (held.length) holdTimer = window.setTimeout(release, held[0].at - Date.now());
    showHold();
  }

  function showHold() {
    if (!skeleton) return;
    // written only when changed: the clock's tick calls this four times a second
    const ms = String(holdMs());
    const waiting = String(held.length);
    if (skeleton.dataset.holdMs !== ms) skeleton.dataset.holdMs = ms;
    if (skeleton.dataset.held !== waiting) skeleton.dataset.held = waiting;
  }

  function handle(msg) {
    if (msg.type === "snapshot") {
      state = fromSnapshot(msg);
      setCurrency(state.table.currency || (current() && current().currency));
      memo.clear();
      if (state.you.viewer === "player" && (state.you.wallet_balance === null || state.you.wallet_balance === undefined)) walletFromAccount();
    } else if (msg.type === "error") {
      if (refused({ code: msg.error, params: msg.params })) return;
      toast(errorText({ code: msg.error, message: msg.message, params: msg.params }, state ? state.table.currency_digits : 2), "error");
      return;
    } else if (state) {
      const before = state.phase;
      const effect = applyMessage(state, msg);
      if (effect.resync) socket.send("resync").catch(() => {});
      if (msg.type === "event") onEvent(msg.event, before);
      if (msg.type === "records") onAmended(msg);
      const moved = amendedBalanceText(msg, digitsNow());
      if (moved) toast(moved, "ok"); // a supervisor's correction or void moved my money
    }
    schedule();
  }

  const socket = new TableSocket(id, {
    onMessage: (msg) => {
      if (chat && chat.receive(msg)) return;
      receive(msg);
    },
    onHealth: (ms) => {
      rtt = ms;
      showNet();
    },
    onStatus: (s) => {
      status = s;
      if (s !== "open") rtt = undefined;
      showNet();
      if (s === "expired") toast(t("error.unauthorized"), "error");
      if (s === "no_table") toast(t("conn.no_table"), "error");
      schedule();
    },
  });

  // a supervisor corrected or voided a hand: the roads came as a "roads" message; the
  // records and the hand shown are read again, and everyone is told
  function onAmended(msg) {
    records.reload();
    lookup.refresh(msg.game);
    announce(t(msg.kind === "void" ? "amend.notice_void" : "amend.notice_correction", { game: msg.game }));
  }

  function onEvent(ev) {
    if (state.game !== sentGame) {
      sent.clear();
      sentGame = state.game;
    }
    const mineEv = isMine(ev.player);
    if (ev.kind === "betting_opened") {
      if (win) endWin(); // a result never outlives its hand
      announce(t("table.betting_open"));
      call("call.place_bets");
    }
    if (ev.kind === "betting_closed") {
      const lost = (ev.discarded || []).filter(([player]) => isMine(player)).reduce((sum, [, amount]) => sum + amount, 0);
      if (lost) toast(t("bet.not_placed", { amount: money(lost, state.table.currency_digits) }), "error");
      announce(t("table.no_more_bets"));
      call("call.no_more_bets");
    }
    if (ev.kind === "chip_added" && mineEv) effect("chip");
    if (ev.kind === "bets_confirmed" && mineEv) effect("confirm");
    if (ev.kind === "card_placed" || ev.kind === "cards_revealed") effect("card");
    if (ev.kind === "hand_result") {
      announce(outcomeText(ev.outcome));
      call(`call.${ev.outcome.winner}`);
    }
    // the win display speaks for itself (its own live region): no second announcement
    if (ev.kind === "hand_settled" && !ev.void_reason && state.result) {
      showWin(winSummary({ game: ev.game, outcome: state.result.outcome, mine: state.result.mine, results: state.result.results, summary: state.result.summary, offered: state.table.bets, pushes: state.pushes, multiplier: winProduct(state.result.outcome) }));
      if (state.result.mine) records.reload();
    }
    if (ev.kind === "bets_refunded" && state.result && state.result.mine) {
      showWin(winSummary({ game: ev.game, outcome: null, mine: state.result.mine, results: [], offered: state.table.bets, refunded: true }));
      records.reload();
    }
    if (ev.kind === "hand_voided") announce(t("result.void", { reason: reasonText(ev.reason, ev.reason_params) }));
    if (ev.kind === "table_closed") toast(t("ev.table_closed", { reason: reasonText(ev.reason, ev.reason_params) }), "error");
  }

  function isMine(player) {
    const you = state.you || {};
    return Boolean(player && you.viewer === "player" && player === you.user_id);
  }

  // The win display [item 3 of the table's life]: over the bet spots (never the cards) for
  // WIN_DISPLAY_MS or until the next round opens; the winning areas glow meanwhile.
  function showWin(summary) {
    window.clearTimeout(winTimer);
    win = summary && summary.kind ? summary : null;
    if (win && win.kind === "win") effect("win");
    winTimer = window.setTimeout(endWin, WIN_DISPLAY_MS);
  }

  function endWin() {
    window.clearTimeout(winTimer);
    win = null;
    memo.delete("win");
    memo.delete("bets");
    schedule();
  }

  function renderWin() {
    if (!win) return null;
    const digits = state.table.currency_digits;
    return [winDisplay(win, digits), h("span", { class: "sr-only" }, winSentence(win, digits))];
  }

  // The latency meter: the ping's round trip (socket.js) or the socket's state, and the
  // picture's delay behind the table; "too slow to bet safely" when either is too high.
  function showNet() {
    if (!net) return;
    let level;
    if (status === "reconnecting" || status === "connecting") level = status;
    else if (status !== "open") level = "offline";
    else if (rtt === null) level = "poor";
    else if (rtt === undefined) level = "checking";
    else level = rtt < 150 ? "good" : rtt < SLOW_RTT_MS ? "fair" : "poor";
    const behind = video && !compact ? video.delay() : null;
    const slow = status === "open" && (rtt === null || rtt >= SLOW_RTT_MS || (behind !== null && behind > SLOW_VIDEO_S));
    const label = t(`net.${level}`);
    const ms = typeof rtt === "number" && status === "open" ? t("net.ms", { ms: rtt }) : "";
    const pictured = behind !== null ? t("net.video", { s: behind.toFixed(1) }) : "";
    const parts = [label, ms, pictured, slow ? t("net.slow") : ""].filter(Boolean);
    net.dataset.quality = level;
    net.dataset.slow = String(slow);
    net.title = parts.join(" · ");
    const said = net.querySelector(".net-level");
    const spoken = slow ? `${label} · ${t("net.slow")}` : label;
    if (said.textContent !== spoken) said.textContent = spoken;
    const shown = net.querySelector(".net-ms");
    const text = ms || (level === "reconnecting" || level === "offline" ? label : "");
    if (shown.textContent !== text) shown.textContent = text;
    const late = net.querySelector(".net-video");
    if (late.textContent !== pictured) late.textContent = pictured;
    const warn = net.querySelector(".net-warn");
    warn.hidden = !slow;
  }

  function showSound() {
    if (!soundButton) return;
    const on = soundOn();
    soundButton.setAttribute("aria-pressed", String(on));
    soundButton.title = t(on ? "sound.turn_off" : "sound.turn_on");
    soundButton.classList.toggle("sound-on", on);
  }

  function resultText(mine, digits) {
    const net = mine.settlement.total_net;
    if (mine.standing && Object.keys(mine.standing).length) return t("result.standing");
    if (net > 0) return t("result.you_win", { amount: signed(net, digits) });
    if (net < 0) return t("result.you_lose", { amount: signed(net, digits) });
    return t("result.push");
  }

  function schedule() {
    if (frame) return;
    frame = window.requestAnimationFrame(() => {
      frame = 0;
      render();
    });
  }

  function section(name, container, key, build) {
    if (!container || memo.get(name) === key) return;
    memo.set(name, key);
    swap(container, build());
  }

  function renderHead() {
    const s = state;
    const digits = s.table.currency_digits;
    const you = s.you;
    const info = [
      [t("table.game"), s.game || "—", "game"],
      [t("table.dealer"), s.dealer || "—", "dealer"],
      [t("table.shoe"), s.shoe.number ? `#${s.shoe.number} · ${t("table.hands", { n: s.shoe.hands_dealt || 0 })}` : "—", "shoe"],
      [t("table.phase"), handPhaseName(s) + (s.shoe.last_hand ? ` · ${t("table.last_hand")}` : ""), "phase"],
    ];
    // One figure [M12]: the money the player has to bet with; a bet a tie left standing
    // is shown as such, not folded into a second, differing "wallet" figure.
    const standing = standingBets(s);
    const bets = Object.keys(standing);
    const figure = you.at_table && you.table_balance !== null && you.table_balance !== undefined ? you.table_balance : you.wallet_balance;
    const balances = you.viewer === "player"
      ? h("div", { class: "balances" },
          h("div", { class: "balance" }, h("span", {}, t("table.balance")), h("b", { "data-testid": "table-balance" }, money(figure, digits)),
            bets.length
              ? h("small", { class: "balance-note", "data-testid": "standing-note" },
                  t("table.standing_on", { amount: money(bets.reduce((sum, b) => sum + standing[b], 0), digits), bets: bets.map(betName).join(t("common.list_sep")) }))
              : null))
      : null;
    return [
      h("div", { class: "table-title" },
        compact
          ? h("a", { href: `#/table/${encodeURIComponent(id)}`, class: "back", "aria-label": t("multi.open_full", { table: tableName(s.table) }) }, "↗")
          : h("a", { href: "#/", class: "back", "aria-label": t("nav.back_lobby") }, "←"),
        h("div", {},
          // the table's id is for staff (it names the table in their tools), not players
          h(compact ? "h2" : "h1", {}, tableName(s.table), role() && role() !== "player" ? [" ", h("small", {}, s.table.id)] : null),
          h("p", { class: "table-sub" }, [t(`kind.${s.table.kind}`), presetName(s.table.rules), t(`dealing.${s.table.dealing}`), t(`reading.${s.table.reading}`)].join(" · "))),
        current() && !compact ? chat.toggle : null),
      h("dl", { class: "table-info" }, info.map(([k, v, tid]) => h("div", { class: `info-${tid}` }, h("dt", {}, k), h("dd", { "data-testid": `info-${tid}` }, v)))),
      h("div", { class: "head-live" }, countdown, balances, h("div", { class: "head-tools" }, net, soundButton)),
      status !== "open" ? h("p", { class: "conn", role: "status" }, t(`conn.${status}`)) : null,
    ];
  }

  function renderHands() {
    const s = state;
    const side = (name) => {
      const cards = sideCards(s, name);
      const codes = cards.map((c) => (c.face_up ? c.card : null));
      const anyShown = codes.some(Boolean);
      const total = anyShown ? handTotal(codes, s.table.card_values) : null;
      const won = s.outcome && s.outcome.winner === name;
      return h(
        "div",
        { class: ["hand", `hand-${name}`, won ? "hand-won" : "", s.holders[name] ? "hand-held" : ""], "aria-label": t(`side.${name}`), role: "group", "data-testid": `hand-${name}` },
        h("div", { class: "hand-head" },
          h("span", { class: "hand-name" }, t(`side.${name}`)),
          h("span", { class: "hand-total", "data-testid": `total-${name}`, "aria-label": t("table.total", { n: total === null ? "—" : total }) }, total === null ? "" : String(total))),
        h("div", { class: "hand-cards" }, cards.map((c) => {
          const key = `${s.game}:${c.position}:${c.card || "x"}`;
          const fresh = !animated.has(key);
          animated.add(key);
          // A face-down card stays a back on the layout, even for its holder, who peels it
          // in the squeeze panel.
          const shown = c.face_up ? c.card : null;
          const el = cardElement(shown, { position: c.position, reveal: c.revealed && fresh && Boolean(shown) });
          if (fresh && !c.revealed) el.classList.add("card-deal");
          if (c.position.endsWith("3")) el.classList.add("card-third");
          const lit = shown ? litMultiplier(s.lightning, shown) : 1;
          if (lit > 1) { // [LB] a lightning card dealt: marked with its multiplier
            el.classList.add("card-lit");
            el.setAttribute("data-multiplier", String(lit));
            el.append(h("span", { class: "card-lit-x", "aria-hidden": "true" }, t("lightning.times", { n: lit })));
          }
          return el;
        })),
        // who holds the cards, until the result is out (then the banner would be stale)
        s.holders[name] && !s.outcome && !s.result ? h("p", { class: "holder" }, t("table.holder", { player: s.holders[name] })) : null,
      );
    };
    return [side("player"), side("banker")];
  }

  function renderResult() {
    const s = state;
    const digits = s.table.currency_digits;
    if (s.voided) return h("div", { class: "result result-void", "data-testid": "result" }, t("result.void", { reason: reasonText(s.voided, s.voidedParams) }), refundLine(s, digits));
    if (s.result && s.result.refunded) return h("div", { class: "result result-void", "data-testid": "result" }, t("result.refund_reason", { reason: reasonText(s.result.reason, s.result.reasonParams) }), refundLine(s, digits));
    if (!s.outcome) return null;
    const o = s.outcome;
    const flags = [o.natural ? t("result.natural") : null, o.player_pair ? t("bet.player_pair") : null, o.banker_pair ? t("bet.banker_pair") : null].filter(Boolean);
    const mine = s.result && s.result.mine;
    return h(
      "div",
      { class: ["result", `result-${o.winner}`], "data-testid": "result" },
      h("b", { class: "result-main" }, outcomeText(o)),
      flags.length ? h("span", { class: "result-flags" }, flags.join(" · ")) : null,
      (s.pushes || []).length ? h("span", { class: "result-pushes", "data-testid": "result-pushes" }, t("result.pushes", { bets: listOf(s.pushes.map(betName)) })) : null,
      mine ? h("span", { class: ["result-mine", mine.settlement.total_net > 0 ? "pos" : mine.settlement.total_net < 0 ? "neg" : ""], "data-testid": "my-result" }, resultText(mine, digits)) : null,
    );
  }

  function refundLine(s, digits) {
    const mine = s.result && s.result.mine;
    return mine ? h("span", { class: "result-mine", "data-testid": "my-result" }, t("result.refunded", { amount: money(mine.returned, digits) })) : null;
  }

  function renderMessage() {
    const fee = feeLine(state); // [LB] the fee on the player's bets
    if (refusal) return [h("p", { class: "bet-message bet-message-refused", role: "alert", "data-testid": "bet-message" }, refusal.text), fee];
    if (state.phase !== "betting_open") return fee;
    const why = firstIncomplete(state);
    const text = why && explain(why);
    return [text ? h("p", { class: "bet-message", "data-testid": "bet-message" }, text) : null, fee];
  }

  /** [LB] The product of the lightning cards' multipliers in the winning hand (both hands
   * on a tie): what a winning main bet was multiplied by. */
  function winProduct(outcome) {
    if (!outcome || !state.lightning.length) return 1;
    const sides = outcome.winner === "tie" ? ["player", "banker"] : [outcome.winner];
    return litProduct(state.lightning, sides.flatMap((side) => sideCards(state, side).map((c) => c.card)));
  }

  function renderLog() {
    const digits = state.table.currency_digits;
    return state.log.slice(-30).reverse().map((ev) => h("li", { "data-kind": ev.kind }, describeEvent(ev, digits)));
  }

  function render() {
    if (!state) {
      fill(root, h("div", { class: "page" }, h("p", { class: "hint", role: "status" }, t(`conn.${status}`))));
      return;
    }
    if (!root.contains(skeleton)) fill(root, skeleton);
    const s = state;
    const you = s.you;
    const lang = document.documentElement.lang;
    const base = [lang, s.phase, s.game, s.legal.actions];
    section("head", el.head, JSON.stringify([...base, s.dealer, s.shoe, you.table_balance, you.wallet_balance, you.at_table, standingBets(s), status, tableName(s.table)]), renderHead);
    section("lightning", el.lightning, JSON.stringify([lang, s.game, s.lightning]), () => lightningStrip(s.lightning));
    section("hands", el.hands, JSON.stringify([lang, s.game, s.cards, s.holders, s.outcome, Boolean(s.result), s.lightning]), renderHands);
    section("result", el.result, JSON.stringify([lang, s.outcome, s.pushes, s.result, s.voided]), renderResult);
    section("win", el.win, JSON.stringify([lang, win]), renderWin);
    section("squeeze", el.squeeze, squeezeKey(s, sent) + lang, () => squeezePanel(s, ctx, sent));
    const betKey = JSON.stringify([...base, you.pending, you.bets, s.bets, s.result, you.at_table, you.place, s.table.limits, win && win.areas]);
    section("bets", el.bets, betKey, () => betLayout(s, ctx));
    section("message", el.message, JSON.stringify([lang, refusal, you.pending, you.bets, you.tier, s.phase, you.fee]), renderMessage);
    section("limits", el.limits, JSON.stringify([lang, you.tier, s.table.limits, s.table.bets]), () => limitsCard(s));
    section("chips", el.chips, JSON.stringify([lang, you.chip, chipLocal, you.tier, tierLocal]), () => chipRack(s, ctx));
    section("actions", el.actions, JSON.stringify([...base, you.pending, you.bets, you.at_table, you.place, s.owner, s.openRequests, s.seats.length]), () => betActions(s, ctx));
    section("tie", el.tie, JSON.stringify([...base, s.standing, you.bets]), () => tieOption(s, ctx));
    section("seats", el.seats, JSON.stringify([lang, s.seats, s.marked, s.watchers, s.owner, you.at_table, you.place, s.vip]), () => [
      h("h2", {}, t("seat.title")), seatRing(s, ctx), watcherList(s), seatControls(s, ctx),
    ]);
    section("vip", el.vip, JSON.stringify([lang, s.owner, you.user_id, s.vip, s.shoe.hands_dealt]), () => vipPanel(s, ctx));
    section("join", el.join, JSON.stringify([lang, you.viewer, you.at_table, you.place]), () => compactJoin(s));
    if (el.road && memo.get("road") !== s.roads) {
      memo.set("road", s.roads);
      fill(el.road, bigRoadPreview(s.roads));
    }
    if (el.roads && (memo.get("roads") !== s.roads || memo.get("roadsLang") !== lang)) {
      memo.set("roads", s.roads);
      memo.set("roadsLang", lang);
      fill(el.roads, roadBoard(s.roads));
    }
    section("log", el.log, JSON.stringify([lang, s.seq, s.log.length]), renderLog);
    tick();
  }

  function tick() {
    showNet();
    showHold();
    if (!state) return;
    const squeezeTimer = el && el.squeeze.querySelector(".squeeze-timer");
    if (squeezeTimer) {
      const left = squeezeLeft(state);
      const text = left === null ? "" : t("squeeze.timer", { n: left });
      if (squeezeTimer.textContent !== text) squeezeTimer.textContent = text;
    }
    const num = countdown.querySelector(".countdown-num");
    if (state.phase === "betting_open" && state.closesAt) {
      const left = Math.max(0, (state.closesAt - Date.now()) / 1000);
      const pending = Object.keys(state.you.pending || {}).length > 0;
      if (autoConfirm && pending && left <= AUTO_CONFIRM_S && autoSent !== state.game && !firstIncomplete(state)) {
        autoSent = state.game;
        ctx.act("confirm");
      }
      const total = state.table.betting_seconds || 15;
      countdown.classList.remove("countdown-idle");
      countdown.style.setProperty("--left", String(Math.min(1, left / total)));
      countdown.classList.toggle("countdown-low", left <= 5);
      countdown.setAttribute("aria-label", t("table.countdown_left", { n: Math.ceil(left) }));
      num.textContent = String(Math.ceil(left));
    } else {
      countdown.classList.add("countdown-idle");
      countdown.classList.remove("countdown-low");
      countdown.removeAttribute("style");
      countdown.setAttribute("aria-label", t("table.countdown_idle"));
      num.textContent = "";
    }
  }

  // The multi-table page's own seat control: watch and bet on the first normal limits,
  // or leave (a seat, a tier or a spot are chosen on the full table page).
  function compactJoin(s) {
    const you = s.you;
    if (you.viewer !== "player") return h("p", { class: "hint" }, t("seat.login_to_play"));
    if (!you.at_table) return h("button", { type: "button", class: "btn btn-small", "data-action": "watch", "data-key": "watch", onclick: () => ctx.watch() }, t("seat.watch"));
    return h("button", { type: "button", class: "btn btn-small btn-ghost", "data-action": "leave", "data-key": "leave", onclick: () => ctx.leave() }, t("seat.leave"));
  }

  function buildCompact() {
    el = {
      head: h("header", { class: "table-head" }),
      lightning: h("div", { class: "lightning-area", "aria-live": "polite" }),
      hands: h("div", { class: "hands", "aria-live": "off" }),
      result: h("div", { class: "result-area", role: "status", "aria-live": "polite" }),
      squeeze: h("div", { class: "squeeze-area" }),
      bets: h("div", { class: "bets-area" }),
      chips: h("div", { class: "chips-area" }),
      message: h("div", { class: "bet-message-area", "aria-live": "polite" }),
      actions: h("div", { class: "actions-area" }),
      tie: h("div", { class: "tie-area" }),
      join: h("div", { class: "join-area" }),
      road: h("div", { class: "compact-road", role: "group", "aria-label": t("road.big_road") }),
    };
    countdown = h("div", { class: "countdown", role: "timer", "aria-label": t("table.countdown") }, h("span", { class: "countdown-num" }, ""));
    records = { element: null, reload() {} };
    lookup = { element: null, show() {}, refresh() {} };
    video = { element: null, stop() {} };
    skeleton = h(
      "div",
      { class: "table-screen table-compact", "data-table": id },
      el.head,
      h("section", { class: "felt", "aria-label": t("table.felt") },
        el.lightning,
        h("div", { class: "felt-top" }, el.hands, el.result),
        el.squeeze,
        el.bets,
        el.message,
        h("div", { class: "felt-bottom" }, el.chips, el.actions),
        el.tie,
        el.join,
        el.road),
    );
    memo.clear();
  }

  function build() {
    if (compact) {
      buildCompact();
      return;
    }
    el = {
      head: h("header", { class: "table-head" }),
      lightning: h("div", { class: "lightning-area", "aria-live": "polite" }),
      hands: h("div", { class: "hands", "aria-live": "off" }),
      result: h("div", { class: "result-area", role: "status", "aria-live": "polite" }),
      win: h("div", { class: "win-area", role: "status", "aria-live": "polite", "aria-atomic": "true" }),
      squeeze: h("div", { class: "squeeze-area" }),
      bets: h("div", { class: "bets-area" }),
      chips: h("div", { class: "chips-area" }),
      message: h("div", { class: "bet-message-area", "aria-live": "polite" }),
      limits: h("div", { class: "limits-area" }),
      actions: h("div", { class: "actions-area" }),
      tie: h("div", { class: "tie-area" }),
      seats: h("section", { class: "panel seats-panel", "aria-label": t("seat.title") }),
      vip: h("div", { class: "vip-area" }),
      roads: h("div", { class: "roads-area" }),
      log: h("ol", { class: "event-log", "aria-label": t("log.title") }),
    };
    countdown = h("div", { class: "countdown", role: "timer", "aria-label": t("table.countdown") }, h("span", { class: "countdown-num" }, ""));
    net = h("span", { class: "net", "data-testid": "net-indicator" },
      h("span", { class: "net-bars", "aria-hidden": "true" }, h("i", {}), h("i", {}), h("i", {})),
      h("span", { class: "net-level sr-only", role: "status" }, ""),
      h("span", { class: "net-ms", "aria-hidden": "true" }, ""),
      h("span", { class: "net-video", "data-testid": "net-video", "aria-hidden": "true" }, ""),
      h("span", { class: "net-warn", "data-testid": "net-warn", "aria-hidden": "true", hidden: true }, t("net.slow")));
    soundButton = h("button", { type: "button", class: "btn btn-small btn-ghost sound-toggle", "data-testid": "sound-toggle", onclick: () => setSound(!soundOn()) },
      h("svg:svg", { viewBox: "0 0 24 24", width: "18", height: "18", "aria-hidden": "true", class: "sound-icon" },
        h("svg:path", { d: "M4 9h4l5-4v14l-5-4H4z", fill: "currentColor" }),
        h("svg:path", { class: "sound-arcs", d: "M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" }),
        h("svg:path", { class: "sound-cross", d: "M16 9l6 6M22 9l-6 6", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round" })),
      h("span", { class: "sound-text" }, t("sound.label")));
    showNet();
    showSound();
    records = role() === "player" ? betRecords((game) => lookup.show(game)) : { element: null, reload() {} };
    lookup = handLookup();
    if (video) video.stop();
    video = videoPanel(id);
    const who = current();
    chat = chatPanel({ tableId: id, send: (type, fields) => socket.send(type, fields), me: who && who.user_id, store: chatLines });
    const staff = role() && role() !== "player";
    skeleton = h(
      "div",
      { class: "table-screen", "data-table": id },
      el.head,
      h("div", { class: "table-main" },
        video.element,
        h("section", { class: "felt", "aria-label": t("table.felt") },
          el.lightning,
          h("div", { class: "felt-top" }, el.hands, el.result),
          el.squeeze,
          h("div", { class: "bets-stage" }, el.bets, el.win),
          el.message,
          h("div", { class: "felt-bottom" }, el.chips, el.actions),
          el.tie,
          el.limits),
        h("aside", { class: "table-side" },
          h("section", { class: "panel roads-panel", "aria-label": t("road.board") },
            h("div", { class: "row row-between" }, h("h2", {}, t("road.board")),
              h("a", { href: `/api/tables/${encodeURIComponent(id)}/roads?format=svg`, target: "_blank", rel: "noopener", class: "link" }, t("road.svg"))),
            el.roads),
          current() && !featureOff("chat") ? chat.element : null,
          el.seats, el.vip)),
      h("div", { class: "table-lower" },
        role() === "player" ? h("section", { class: "panel panel-scroll my-bets" }, h("h2", {}, t("record.my_bets")), records.element) : null,
        staff || role() === "player" ? lookup.element : null,
        h("section", { class: "panel" }, h("h2", {}, t("log.title")), el.log)),
    );
    memo.clear();
  }

  build();
  const offSound = onSoundChange(showSound);
  const timer = window.setInterval(tick, 250);
  socket.connect();
  render();

  return {
    /** Leave the table (a slot taken off the multi-table page): the table decides when
     * the command arrives, not the last answer this page had of what it may do (a result
     * just shown comes before the message that says the player may leave); a player it
     * keeps (bets in play) loses the seat after the grace, once bets settle [S13]. */
    async leave() {
      if (!state || !state.you.at_table) return;
      await socket.send("leave", {}, 5000).catch(() => {}); // refused, or the slot goes within 5 s
    },
    unmount() {
      window.clearInterval(timer);
      window.clearTimeout(winTimer);
      window.clearTimeout(holdTimer);
      offSound();
      video.stop();
      if (frame) window.cancelAnimationFrame(frame);
      socket.close();
    },
    refresh() {
      build();
      render();
    },
  };
}
