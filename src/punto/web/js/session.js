// The logged-in user: token kept in sessionStorage-like localStorage, and /api/me.
const KEY = "punto.session";
const listeners = new Set();

let session = load();

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

/** The session ({token, user_id, role, display_name, expires_at}) or null. */
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
  };
  window.localStorage.setItem(KEY, JSON.stringify(session));
  for (const fn of listeners) fn(session);
}

export function logout() {
  session = null;
  window.localStorage.removeItem(KEY);
  for (const fn of listeners) fn(null);
}

export function onSessionChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
