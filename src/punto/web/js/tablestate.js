// A table as one client sees it: built from the snapshot, then kept current by the
// pushed messages (event, balance, countdown, roads). No DOM here: screens draw it.

const POSITIONS = ["P1", "B1", "P2", "B2", "P3", "B3"];
const LOG_SIZE = 60;

export const EMPTY_ROADS = {
  bead_plate: [],
  big_road: [],
  big_eye_boy: { marks: "", cells: [] },
  small_road: { marks: "", cells: [] },
  cockroach_pig: { marks: "", cells: [] },
  ask: null,
  counts: { hands: 0, banker: 0, player: 0, tie: 0, banker_pair: 0, player_pair: 0, natural: 0 },
};

function cardMap(list) {
  const cards = {};
  for (const c of list || []) cards[c.position] = { card: c.card, face_up: c.face_up, revealed: false };
  return cards;
}

/** A fresh state from a `snapshot` message; `now` is the client's clock in ms. */
export function fromSnapshot(snap, now = Date.now()) {
  const s = snap.state;
  const purse = snap.you && snap.you.purse;
  return {
    // a player in another currency bets its chips and limits, and reads its amounts
    table: purse ? { ...snap.table, currency_digits: purse.digits, chips: purse.chips, limits: purse.limits, currency: purse.currency } : snap.table,
    seq: snap.seq,
    // [LB] the fee on the bets already confirmed this hand (the snapshot has their stakes)
    you: { ...snap.you, pending: { ...(snap.you.pending || {}) }, bets: { ...(snap.you.bets || {}) }, fee: feeOn(snap.table, Object.values(snap.you.bets || {}).reduce((a, b) => a + b, 0)) },
    phase: s.phase,
    game: s.game,
    closesAt: s.closes_in === null || s.closes_in === undefined ? null : now + s.closes_in * 1000,
    squeezeEndsAt: s.squeeze_closes_in === null || s.squeeze_closes_in === undefined ? null : now + s.squeeze_closes_in * 1000,
    dealer: s.dealer,
    shoe: { ...s.shoe },
    seats: (s.seats || []).map((x) => ({ ...x })),
    marked: (s.marked || []).map((x) => ({ ...x })),
    watchers: [...(s.watchers || [])],
    owner: s.owner,
    bets: JSON.parse(JSON.stringify(s.bets || {})),
    holders: { ...(s.holders || {}) },
    cards: cardMap(s.cards),
    outcome: s.outcome,
    pushes: [],
    // [EZ-C] the side bets this hand closed for the shoe's edge, {bet: edge}
    edgeClosed: { ...(s.edge_closed || {}) },
    // [LB] the hand's lightning cards, [[card, multiplier]] (none before the draw)
    lightning: [...(s.lightning || [])],
    vip: { ...s.vip },
    blankOwed: s.blank_owed,
    paused: s.paused,
    roads: snap.roads || EMPTY_ROADS,
    log: [...(snap.recent || [])].slice(-LOG_SIZE),
    result: null,
    voided: null,
    voidedParams: null,
    openRequests: [],
    standing: {},
    totals: s.totals ? { ...s.totals } : null,
    split: s.split ? { ...s.split } : null,
    legal: normalLegal(s.legal),
  };
}

/** The fee the table charges on bets staking `stake` minor units (its rate, to the minor
 * unit up, as the server charges it); 0 at a table without one. */
export function feeOn(table, stake) {
  const fee = table && table.lightning && table.lightning.fee;
  if (!fee || !stake) return 0;
  const [num, den] = fee;
  const q = Math.floor((stake * num) / den);
  return q * den < stake * num ? q + 1 : q;
}

/** What this viewer may do now, from the table (docs/protocol.md, `legal`): the command
 * names, for the dealer the guidance {next: "P1"…"B3" | null, reason} and, for a player,
 * each bet area's {room, limit, value, incomplete}. */
function normalLegal(legal) {
  return { actions: [...((legal && legal.actions) || [])], guidance: (legal && legal.guidance) || null, bets: (legal && legal.bets) || {} };
}

/** Why a chip of `amount` on `bet` would be refused now, or null: the area's room, as the
 * table gives it, is smaller (`params` as the server's refusal has them). */
export function chipRefusal(state, bet, amount) {
  const area = state.legal.bets[bet];
  if (!area || amount <= area.room) return null;
  return { limit: area.limit, bet, value: area.value };
}

/** The first area of the player's unconfirmed chips whose stake cannot be confirmed as it
 * stands (the table's `incomplete`), or null. */
export function firstIncomplete(state) {
  for (const bet of Object.keys(state.you.pending || {})) {
    const area = state.legal.bets[bet];
    if (area && area.incomplete) return { ...area.incomplete, bet };
  }
  return null;
}

/** Whether the table would accept command `type` from this viewer now. */
export function allowed(state, type) {
  return state.legal.actions.includes(type);
}

/**
 * The player's main bets a tie left standing [M12], {bet: amount}: after the tie's
 * settlement, and in the next betting round while they stand unchanged.
 */
export function standingBets(state) {
  const you = state.you;
  if (!you || you.viewer !== "player") return {};
  if (state.phase === "settled") return { ...(you.bets || {}) };
  if (state.phase === "betting_open") return { ...(state.standing || {}) };
  return {};
}

/** The cards in dealing order: [{position, card, face_up, revealed}]. */
export function orderedCards(state) {
  return POSITIONS.filter((p) => p in state.cards).map((p) => ({ position: p, ...state.cards[p] }));
}

/** Codes of one side's cards ("player" / "banker"); null for a face-down card. */
export function sideCards(state, side) {
  const prefix = side === "player" ? "P" : "B";
  return orderedCards(state).filter((c) => c.position.startsWith(prefix));
}

export function isMe(state, player) {
  return Boolean(state.you && state.you.user_id && player === state.you.user_id && state.you.viewer === "player");
}

function addTo(map, bet, amount) {
  const next = (map[bet] || 0) + amount;
  if (next > 0) map[bet] = next;
  else delete map[bet];
}

function unseat(state, player) {
  state.seats = state.seats.filter((x) => x.player !== player);
  state.watchers = state.watchers.filter((w) => w !== player);
}

function newHand(state, game) {
  state.game = game;
  state.cards = {};
  state.outcome = null;
  state.pushes = [];
  state.edgeClosed = {};
  state.lightning = [];
  state.result = null;
  state.voided = null;
  state.voidedParams = null;
  state.holders = {};
  state.openRequests = [];
  state.squeezeEndsAt = null;
  state.totals = {};
  state.split = { player: 0, banker: 0 };
}

/**
 * Apply one pushed message. Returns {resync: true} when the client should ask for a new
 * snapshot (its own seat changed, the table resumed), else {}.
 */
export function applyMessage(state, msg, now = Date.now()) {
  switch (msg.type) {
    case "balance":
      if (msg.table_balance !== undefined) state.you.table_balance = msg.table_balance;
      if (msg.wallet_balance !== undefined && msg.wallet_balance !== null) state.you.wallet_balance = msg.wallet_balance;
      return {};
    case "countdown":
      state.closesAt = now + msg.closes_in * 1000;
      if (msg.game) state.game = msg.game;
      return {};
    case "roads":
      state.roads = msg.roads;
      return {};
    case "bet_totals":
      // Every player's confirmed stakes per area, one message per batch of confirms
      // (other players' bets_confirmed events are not sent one by one).
      if (!msg.game || !state.game || msg.game === state.game) {
        state.totals = { ...(msg.totals || {}) };
        state.split = { ...(msg.split || { player: 0, banker: 0 }) };
      }
      return {};
    case "table_opened":
      // a process (re)opened the table and numbers its events from 0: a new snapshot
      return { resync: true };
    case "resync":
      // the server may have lost messages on their way to us (its Redis came back)
      return { resync: true };
    case "legal_actions":
      state.legal = normalLegal(msg.legal);
      return {};
    case "squeeze_countdown":
      state.squeezeEndsAt = now + msg.closes_in * 1000;
      return {};
    case "event":
      state.seq = msg.seq;
      state.log.push(msg.event);
      if (state.log.length > LOG_SIZE) state.log.splice(0, state.log.length - LOG_SIZE);
      return applyEvent(state, msg.event, now);
    default:
      return {};
  }
}

/** Apply one table event (docs/protocol.md §4); an event that moves the table's phase
 * says which phase it leaves the table in (`phase`). */
export function applyEvent(state, ev, now = Date.now()) {
  const me = isMe(state, ev.player);
  const you = state.you;
  if (ev.phase) state.phase = ev.phase;
  switch (ev.kind) {
    case "table_paused":
      state.paused = true;
      return {};
    case "table_resumed":
      state.paused = false;
      return { resync: true };
    case "table_closed":
      state.closesAt = null;
      return {};
    case "dealer_changed":
      state.dealer = ev.dealer;
      return {};
    case "limits_changed":
      state.table = { ...state.table, limits: ev.tiers };
      return {};
    case "betting_time_changed":
      state.table = { ...state.table, betting_seconds: ev.seconds };
      return {};
    case "vip_settings_changed":
      state.vip = { squeeze: ev.squeeze, vertical_squeeze: ev.vertical_squeeze, password_set: ev.password_set };
      return {};
    case "shoe_opened":
      state.shoe = { number: ev.shoe, commitment: ev.commitment, hands_dealt: 0, last_hand: false };
      state.roads = EMPTY_ROADS;
      newHand(state, null);
      return {};
    case "cut_card_out":
      state.shoe = { ...state.shoe, cut_card_out: true };
      return {};
    case "shoe_closed":
      return {};
    case "player_joined":
      if (me) {
        you.at_table = true;
        you.place = "lobby";
        if (ev.balance !== null) you.table_balance = ev.balance;
      }
      return {};
    case "player_sat":
      unseat(state, ev.player);
      state.marked = state.marked.filter((m) => m.seat !== ev.seat);
      state.seats.push({ seat: ev.seat, player: ev.player, tier: ev.tier, connected: true });
      state.seats.sort((a, b) => a.seat - b.seat);
      if (ev.owner) state.owner = ev.player;
      if (me) Object.assign(you, { place: "seated", seat: ev.seat, tier: ev.tier, owner: Boolean(ev.owner) || you.owner });
      return me ? { resync: true } : {};
    case "player_watching":
      unseat(state, ev.player);
      state.watchers.push(ev.player);
      state.watchers.sort();
      if (me) Object.assign(you, { place: "watching", seat: null, tier: ev.tier });
      return me ? { resync: true } : {};
    case "player_stood":
      unseat(state, ev.player);
      if (ev.marked) state.marked.push({ seat: ev.seat, player: ev.player });
      if (me) Object.assign(you, { place: "lobby", seat: null });
      return me ? { resync: true } : {};
    case "player_connection":
      for (const seat of state.seats) if (seat.player === ev.player) seat.connected = ev.connected;
      return {};
    case "player_left":
      unseat(state, ev.player);
      state.marked = state.marked.filter((m) => m.player !== ev.player);
      delete state.bets[ev.player];
      if (state.owner === ev.player) state.owner = null;
      if (me) Object.assign(you, { at_table: false, place: null, seat: null, tier: null, table_balance: null, pending: {}, bets: {}, owner: false });
      return {};
    case "betting_opened":
      newHand(state, ev.game);
      state.closesAt = ev.closes_at ? Math.max(now, now + 1000 * (ev.closes_at - ev.at)) : null;
      state.bets = {};
      for (const [player, bets] of ev.standing || []) state.bets[player] = { ...bets };
      you.pending = {};
      you.fee = 0;
      you.bets = you.user_id && state.bets[you.user_id] ? { ...state.bets[you.user_id] } : {};
      state.standing = you.viewer === "player" ? { ...you.bets } : {};
      state.shoe = { ...state.shoe, last_hand: Boolean(ev.last_hand) };
      return {};
    case "side_bets_closed": // [EZ-C] told right after the hand's betting opened
      state.edgeClosed = Object.fromEntries(ev.closed.map((bet, i) => [bet, ev.edges[i]]));
      return {};
    case "lightning_drawn": // [LB] drawn once betting closed, shown before the first card
      state.lightning = (ev.cards || []).map(([card, multiplier]) => [card, multiplier]);
      return {};
    case "betting_extended":
      if (ev.closes_at && state.closesAt) state.closesAt = now + 1000 * (ev.closes_at - ev.at);
      return {};
    case "open_cards_requested":
      state.openRequests.push(ev.player);
      return {};
    case "chip_chosen":
      if (me) you.chip = ev.chip;
      return {};
    case "chip_added":
      if (me) addTo(you.pending, ev.bet, ev.amount);
      return {};
    case "chips_undone":
      if (me) for (const [bet, amount] of ev.chips) addTo(you.pending, bet, -amount);
      return {};
    case "bets_cleared":
      if (me) you.pending = {};
      return {};
    case "bets_doubled":
      if (me) for (const bet of Object.keys(you.pending)) you.pending[bet] *= 2;
      return {};
    case "rebet_placed":
      if (me) you.pending = { ...ev.bets };
      return {};
    case "bets_confirmed":
    case "tie_bets_changed":
      state.bets[ev.player] = { ...ev.bets };
      if (me) {
        you.bets = { ...ev.bets };
        if (ev.kind === "bets_confirmed") {
          you.pending = {};
          you.fee = (you.fee || 0) + (ev.fee || 0); // [LB] charged with the stakes
        }
        else state.standing = { ...ev.bets };
      }
      return {};
    case "betting_closed":
      state.openRequests = []; // [O] a request to open counts for its stage only
      state.closesAt = null;
      you.pending = {};
      return {};
    case "blank_hand_started":
      newHand(state, ev.game);
      state.blankOwed = false;
      return {};
    case "cards_held":
      state.holders[ev.side] = ev.player;
      return {};
    case "card_placed":
      state.cards[ev.position] = { card: ev.card, face_up: ev.face_up, revealed: false };
      return {};
    case "cards_revealed":
      for (const [position, card] of ev.cards) state.cards[position] = { card, face_up: true, revealed: true };
      state.openRequests = [];
      state.squeezeEndsAt = null;
      return {};
    case "hand_restarted":
      state.cards = {};
      state.outcome = null;
      return {};
    case "hand_result":
      state.outcome = ev.outcome;
      state.pushes = [...(ev.pushes || [])]; // [EZ] a Banker three-card 7 returns Banker bets
      return {};
    case "hand_settled": {
      // A player and a spectator get the hand's summary (the areas a settlement paid)
      // and their own result only; the dealer and supervisors get every result.
      const mine = (ev.results || []).find((r) => r.player === you.user_id && you.viewer === "player");
      state.result = { game: ev.game, outcome: state.outcome, mine: mine || null, results: ev.results || [], summary: ev.summary || null, voidReason: ev.void_reason || null };
      state.shoe = { ...state.shoe, hands_dealt: (state.shoe.hands_dealt || 0) + 1 };
      // every bet is settled: what stays on the layout is what a tie left standing [M12]
      // (the others' come with the next betting_opened)
      state.bets = {};
      for (const r of ev.results || []) {
        if (r.standing && Object.keys(r.standing).length) state.bets[r.player] = { ...r.standing };
      }
      you.bets = you.user_id && state.bets[you.user_id] ? { ...state.bets[you.user_id] } : {};
      return {};
    }
    case "bets_refunded": {
      // A player and a spectator get the refund's summary and their own refund only; the
      // dealer and supervisors get every refund. What left the layout the event says
      // itself: `everyone`, every confirmed bet went back (a void or blank hand, the
      // table closing); otherwise the one refunded player is being removed, and their
      // player_left, which follows, takes their bets away.
      // Another player's removal is theirs alone: a player's or spectator's result panel
      // stays as it was (the dealer and supervisors see every refund).
      const mine = (ev.refunds || []).find((r) => r.player === you.user_id && you.viewer === "player");
      const staff = you.viewer !== "player" && you.viewer !== "watcher";
      if (ev.everyone || mine || staff) {
        state.result = { game: ev.game, outcome: null, mine: mine || null, refunded: true, reason: ev.reason, reasonParams: ev.reason_params, results: ev.refunds || [], summary: ev.summary || null };
      }
      if (ev.everyone) state.bets = {};
      for (const r of ev.refunds || []) delete state.bets[r.player];
      if (mine || ev.everyone) you.bets = {};
      return {};
    }
    case "hand_voided":
      state.voided = ev.reason;
      state.voidedParams = ev.reason_params;
      state.bets = {};
      you.bets = {};
      return {};
    default:
      return {};
  }
}

/** What `player` has on `bet`: confirmed and (own) unconfirmed chips. */
export function stakeOn(state, bet) {
  const you = state.you || {};
  return { confirmed: (you.bets || {})[bet] || 0, pending: (you.pending || {})[bet] || 0 };
}

/** Everyone's confirmed total on each bet (what a casino layout shows): from the
 * server's `bet_totals` when known, else added up from the bets seen. */
export function tableTotals(state) {
  const totals = {};
  if (state.totals) {
    for (const [bet, x] of Object.entries(state.totals)) totals[bet] = x.amount;
    return totals;
  }
  for (const bets of Object.values(state.bets)) for (const [bet, amount] of Object.entries(bets)) totals[bet] = (totals[bet] || 0) + amount;
  return totals;
}

/** How many players bet on `bet` (0 when not known). */
export function tableBettors(state, bet) {
  const x = state.totals && state.totals[bet];
  if (x) return x.bettors;
  return Object.values(state.bets || {}).filter((b) => b[bet]).length;
}

/** The Player and Banker totals of everyone, {player, banker} (minor units). */
export function tableSplit(state) {
  if (state.split) return { player: state.split.player || 0, banker: state.split.banker || 0 };
  const totals = tableTotals(state);
  return { player: totals.player || 0, banker: totals.banker || 0 };
}

/** The face-down sides `player` holds now (the squeeze is theirs). */
export function heldByMe(state) {
  const you = state.you || {};
  if (you.viewer !== "player") return [];
  return ["player", "banker"].filter(
    (side) => state.holders[side] === you.user_id && sideCards(state, side).some((c) => !c.face_up),
  );
}
