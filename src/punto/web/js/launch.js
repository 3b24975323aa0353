// A player launched by an operator arrives with ?launch=TOKEN: exchange it once for a
// session (POST /api/auth/launch), take the launch's language, and drop the token from the
// address so a reload or a shared link never carries it.
import { login } from "./session.js";
import { setLang } from "./i18n.js";

/** Redeem the page's launch token, if any: null (none), "ok", or the refusal's code. */
export async function redeemLaunch() {
  const params = new URLSearchParams(window.location.search);
  const launch = params.get("launch");
  if (!launch) return null;
  params.delete("launch");
  const rest = params.toString();
  window.history.replaceState(null, "", `${window.location.pathname}${rest ? `?${rest}` : ""}${window.location.hash}`);
  let response;
  try {
    response = await fetch("/api/auth/launch", {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify({ launch }),
    });
  } catch {
    return "network";
  }
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    return data.error || `http_${response.status}`;
  }
  const data = await response.json();
  login(data);
  if (data.language) setLang(data.language);
  return "ok";
}
