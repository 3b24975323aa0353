// The REST API (docs/protocol.md §2): JSON in, JSON out, typed errors.
import { token } from "./session.js";

/** A refusal from the server: `code` is the protocol's stable error code. */
export class ApiError extends Error {
  constructor(code, message, status = 0, params = null) {
    super(message || code);
    this.code = code;
    this.status = status;
    this.params = params;
  }
}

async function request(method, path, body, accept = "application/json") {
  const headers = { Accept: accept };
  const auth = token();
  if (auth) headers.Authorization = `Bearer ${auth}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError("network", String(err.message || err));
  }
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) {
    const code = data && data.error ? data.error : `http_${response.status}`;
    const error = new ApiError(code, data && data.message ? data.message : response.statusText, response.status, (data && data.params) || null);
    // A refused rules setting names its field; a negative edge names its bets.
    if (data && data.field) error.field = data.field;
    if (data && data.bets) error.bets = data.bets;
    throw error;
  }
  return data;
}

function query(params) {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== "");
  return entries.length ? `?${new URLSearchParams(entries)}` : "";
}

export const api = {
  login: (username, password) => request("POST", "/api/auth/login", { username, password }),
  register: (username, password, display_name) =>
    request("POST", "/api/auth/register", { username, password, display_name: display_name || undefined }),
  me: () => request("GET", "/api/me"),
  myBets: (limit = 50) => request("GET", `/api/me/bets${query({ limit })}`),
  myTransactions: (limit = 50) => request("GET", `/api/me/transactions${query({ limit })}`),
  lobby: () => request("GET", "/api/lobby"),
  lobbyPrefs: () => request("GET", "/api/me/lobby"),
  setLobbyPrefs: (prefs) => request("PUT", "/api/me/lobby", prefs),
  tableChat: (id, game) => request("GET", `/api/supervisor/tables/${encodeURIComponent(id)}/chat${query({ game })}`),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  roads: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/roads`),
  history: (id, limit = 20) => request("GET", `/api/tables/${encodeURIComponent(id)}/history${query({ limit })}`),
  shoes: (id, limit = 10) => request("GET", `/api/tables/${encodeURIComponent(id)}/shoes${query({ limit })}`),
  hand: (game) => request("GET", `/api/hands/${encodeURIComponent(game)}`),
  handVideo: (game) => request("GET", `/api/hands/${encodeURIComponent(game)}/video`),
  recall: (game) => request("GET", `/api/me/recall/${encodeURIComponent(game)}`),
  fileComplaint: (game, text) => request("POST", "/api/me/complaints", { game, text }),
  myComplaints: () => request("GET", "/api/me/complaints"),
  complaints: (state = "open") => request("GET", `/api/supervisor/complaints${query({ state })}`),
  resolveComplaint: (id, body) => request("POST", `/api/supervisor/complaints/${encodeURIComponent(id)}/resolve`, body),
  faults: () => request("GET", "/api/faults"),
  dailyReport: (date, table) => request("GET", `/api/reports/daily${query({ date, table })}`),
  operatorReport: (params) => request("GET", `/api/reports/operators${query(params)}`),
  presets: () => request("GET", "/api/admin/presets"),
  adminTables: () => request("GET", "/api/admin/tables"),
  createTable: (config) => request("POST", "/api/admin/tables", config),
  updateTable: (id, patch) => request("PATCH", `/api/admin/tables/${encodeURIComponent(id)}`, patch),
  previewRules: (rules) => request("POST", "/api/admin/rules/preview", rules),
  tableRules: (id) => request("GET", `/api/admin/tables/${encodeURIComponent(id)}/rules`),
  setTableRules: (id, rules) => request("PUT", `/api/admin/tables/${encodeURIComponent(id)}/rules`, rules),
  alarms: (table) => request("GET", `/api/supervisor/alarms${query({ table })}`),
  driftReport: (params) => request("GET", `/api/reports/drift${query(params)}`),
  csv: (path) => request("GET", path, undefined, "text/csv"),
  users: () => request("GET", "/api/admin/users"),
  createUser: (user) => request("POST", "/api/admin/users", user),
  deposit: (player, amount, transaction_id) =>
    request("POST", `/api/admin/players/${encodeURIComponent(player)}/deposit`, { amount, transaction_id }),
  withdraw: (player, amount, transaction_id) =>
    request("POST", `/api/admin/players/${encodeURIComponent(player)}/withdraw`, { amount, transaction_id }),
  reportFault: (table, body) => request("POST", `/api/supervisor/tables/${encodeURIComponent(table)}/faults`, body),
  pause: (table, reason) => request("POST", `/api/supervisor/tables/${encodeURIComponent(table)}/pause`, { reason }),
  resume: (table) => request("POST", `/api/supervisor/tables/${encodeURIComponent(table)}/resume`, {}),
  closeTable: (table, reason) => request("POST", `/api/supervisor/tables/${encodeURIComponent(table)}/close`, { reason }),
  correct: (game, body) => request("POST", `/api/supervisor/hands/${encodeURIComponent(game)}/correct`, body),
  voidHand: (game, reason) => request("POST", `/api/supervisor/hands/${encodeURIComponent(game)}/void`, { reason }),
  amendments: (table, limit = 100) => request("GET", `/api/supervisor/amendments${query({ table, limit })}`),
  operators: () => request("GET", "/api/admin/operators"),
  addOperator: (operator) => request("POST", "/api/admin/operators", operator),
  rotateSecret: (id) => request("POST", `/api/admin/operators/${encodeURIComponent(id)}/rotate-secret`, {}),
  disableOperator: (id) => request("POST", `/api/admin/operators/${encodeURIComponent(id)}/disable`, {}),
  enableOperator: (id) => request("POST", `/api/admin/operators/${encodeURIComponent(id)}/enable`, {}),
  jurisdictions: () => request("GET", "/api/admin/jurisdictions"),
  putJurisdiction: (id, profile) => request("PUT", `/api/admin/jurisdictions/${encodeURIComponent(id)}`, profile),
  removeJurisdiction: (id) => request("DELETE", `/api/admin/jurisdictions/${encodeURIComponent(id)}`),
  realityCheck: () => request("GET", "/api/session/reality-check"),
  answerRealityCheck: (choice) => request("POST", "/api/session/reality-check", { choice }),
};
