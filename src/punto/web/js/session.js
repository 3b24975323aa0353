// The logged-in user: token kept in sessionStorage-like localStorage, and /api/me.
import { setCurrency } from "./format.js";

const KEY = "punto.session";
const listeners = new Set();

let session = load();
setCurrency(session?.currency);
let renewTimer = null;
scheduleRenewal();

/** Renew the token half-way through its life (POST /api/auth/renew). */
function scheduleRenewal() {
  window.clearTimeout(renewTimer);
  if (!session) return;
  const left = session.expires_at * 1000 - Date.now();
  renewTimer = window.setTimeout(renew, Math.max(5000, left / 2));
}

async function renew() {
  if (!session) return;
  try {
    const response = await fetch("/api/auth/renew", {
      method: "POST",
      headers: { Accept: "application/json", Authorization: `Bearer ${session.token}` },
    });
    if (response.ok) {
      login(await response.json());
      return;
    }
    if (response.status === 401) {
      logout();
      return;
    }
  } catch {
    /* the network is down: try again soon */
  }
  window.clearTimeout(renewTimer);
  renewTimer = window.setTimeout(renew, 30000);
}

function load() {
  try {
    const data = JSON.parse(window.localStorage.getItem(KEY) || "null");
    if (data && data.token && data.expires_at * 1000 > Date.now()) return data;
  } catch {
    /* a damaged entry is dropped */
  }
  window.localStorage.removeItem(KEY);
  return null;
}

/** The session ({token, user_id, role, display_name, expires_at}; a launched player's
 * operator, currency, links and jurisdiction) or null. */
export function current() {
  if (session && session.expires_at * 1000 <= Date.now()) logout();
  return session;
}

export function token() {
  return current()?.token ?? null;
}

export function role() {
  return current()?.role ?? null;
}

export function login(data) {
  session = {
    token: data.token,
    user_id: data.user_id,
    role: data.role,
    display_name: data.display_name,
    expires_at: data.expires_at,
    // a player launched by an operator: its id, currency and the links it gave
    operator: data.operator ?? session?.operator ?? null,
    currency: data.currency ?? session?.currency ?? null,
    links: data.links ?? session?.links ?? {},
    // the jurisdiction profile the launch named (its switches), or null
    jurisdiction: "jurisdiction" in data ? data.jurisdiction : session?.jurisdiction ?? null,
  };
  window.localStorage.setItem(KEY, JSON.stringify(session));
  setCurrency(session.currency);
  scheduleRenewal();
  for (const fn of listeners) fn(session);
}

export function logout() {
  if (session && session.expires_at * 1000 > Date.now()) {
    // End the session on the server too (the token is refused from now on).
    fetch("/api/auth/logout", {
      method: "POST",
      headers: { Accept: "application/json", Authorization: `Bearer ${session.token}` },
    }).catch(() => {});
  }
  window.clearTimeout(renewTimer);
  session = null;
  setCurrency(null);
  window.localStorage.removeItem(KEY);
  for (const fn of listeners) fn(null);
}

/** The player's jurisdiction profile as ``/api/me`` says it now (an administrator may
 * have changed it since the launch). */
export function setJurisdiction(profile) {
  if (!session) return;
  session = { ...session, jurisdiction: profile ?? null };
  window.localStorage.setItem(KEY, JSON.stringify(session));
}

/** Drop the session here without telling the server: it ended it already (a player who
 * left at a reality check: their token is refused from then on). */
export function forget() {
  window.clearTimeout(renewTimer);
  session = null;
  setCurrency(null);
  window.localStorage.removeItem(KEY);
  for (const fn of listeners) fn(null);
}

export function onSessionChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
