// The single-page client: a hash router, the header (navigation, language, account) and
// one screen at a time.
import { h, fill } from "./dom.js";
import { LANGUAGE_INFO, applyDocumentLang, lang, onLangChange, setLang, t } from "./i18n.js";
import { current, logout, onSessionChange } from "./session.js";
import * as lobby from "./lobby.js";
import * as table from "./table.js";
import * as multi from "./multi.js";
import * as dealer from "./dealer.js";
import * as admin from "./admin.js";
import * as supervisor from "./supervisor.js";
import * as records from "./records.js";
import * as login from "./login.js";
import { redeemLaunch } from "./launch.js";
import { watchSession } from "./playsession.js";

const ROUTES = [
  { re: /^#?\/?$/, screen: lobby },
  { re: /^#\/login$/, screen: login },
  { re: /^#\/table\/([\w-]+)$/, screen: table, params: (m) => ({ id: m[1] }) },
  { re: /^#\/multi(?:\/([\w,-]+))?$/, screen: multi, params: (m) => ({ ids: m[1] ? m[1].split(",").filter(Boolean) : [] }) },
  { re: /^#\/records$/, screen: records, roles: ["player"] },
  { re: /^#\/dealer(?:\/([\w-]+))?$/, screen: dealer, params: (m) => ({ id: m[1] || null }), roles: ["dealer"] },
  { re: /^#\/supervisor$/, screen: supervisor, roles: ["supervisor"] },
  { re: /^#\/admin$/, screen: admin, roles: ["admin"] },
];

// A path the server does not serve answers this page with a mark (404): the client moves
// to its own address and says "page not found" in the reader's language.
const missing = document.querySelector('meta[name="punto-not-found"]');
if (missing) window.history.replaceState(null, "", `${missing.content}#/not-found`);

const main = document.getElementById("main");
const nav = document.getElementById("nav");
const account = document.getElementById("account");
const langBox = document.getElementById("lang");
let active = null;

function navigate(hash) {
  if (window.location.hash === hash) route();
  else window.location.hash = hash;
}

function route() {
  const hash = window.location.hash || "#/";
  const found = ROUTES.map((r) => ({ r, m: r.re.exec(hash) })).find((x) => x.m);
  if (active) active.unmount();
  active = null;
  renderHeader();
  if (!found) {
    fill(main, h("div", { class: "page", "data-testid": "not-found" }, h("h1", {}, t("nav.not_found")), h("a", { href: "#/" }, t("nav.lobby"))));
    return;
  }
  const { r, m } = found;
  const who = current();
  if (r.roles && (!who || !r.roles.includes(who.role))) {
    fill(main, h("div", { class: "page page-narrow" }, h("h1", {}, t("nav.forbidden")), h("p", {}, t("nav.need_role", { roles: r.roles.map((x) => t(`role.${x}`)).join(", ") })),
      h("a", { class: "btn", href: "#/login" }, t("nav.login"))));
    return;
  }
  active = r.screen.mount(main, r.params ? r.params(m) : {}, { navigate });
  main.focus({ preventScroll: true });
}

function renderHeader() {
  const who = current();
  const hash = window.location.hash || "#/";
  const link = (href, key) => h("a", { href, "aria-current": hash === href || (href !== "#/" && hash.startsWith(href)) ? "page" : false }, t(key));
  const links = [link("#/", "nav.lobby")];
  if (who && who.role === "player") links.push(link("#/multi", "nav.multi"), link("#/records", "nav.records"));
  if (who && who.role === "dealer") links.push(link("#/dealer", "nav.dealer"));
  if (who && who.role === "supervisor") links.push(link("#/supervisor", "nav.supervisor"));
  if (who && who.role === "admin") links.push(link("#/admin", "nav.admin"));
  fill(nav, links);
  fill(account, who
    ? [h("span", { class: "who", "data-testid": "who" }, `${who.display_name} · ${t(`role.${who.role}`)}`),
       ...(who.operator ? operatorLinks(who.links || {}) : [
         h("button", { type: "button", class: "btn btn-small btn-ghost", "data-testid": "logout", onclick: () => { logout(); navigate("#/"); } }, t("nav.logout"))])]
    : h("a", { class: "btn btn-small", href: "#/login", "data-testid": "login-link" }, t("nav.login")));
  fill(langBox, Object.entries(LANGUAGE_INFO).map(([code, info]) =>
    h("button", { type: "button", class: "lang-btn", lang: info.tag, "aria-pressed": String(lang() === code), "data-lang": code, onclick: () => setLang(code) }, info.label)));
  langBox.setAttribute("aria-label", t("nav.language"));
  nav.setAttribute("aria-label", t("nav.main"));
  document.getElementById("skip").textContent = t("nav.skip");
  document.getElementById("brand-sub").textContent = t("app.subtitle");
}

/** The operator's own pages, for a player it launched (it logs in there, not here). */
function operatorLinks(links) {
  const out = [];
  const add = (url, key, testid) => {
    if (url) out.push(h("a", { class: "btn btn-small btn-ghost", href: url, target: "_top", rel: "noopener", "data-testid": testid }, t(key)));
  };
  add(links.cashier_url, "nav.cashier", "cashier-link");
  add(links.responsible_gaming_url, "nav.responsible_gaming", "rg-link");
  add(links.lobby_url, "nav.exit", "exit-link");
  return out;
}

onLangChange(() => {
  renderHeader();
  if (active && active.refresh) active.refresh();
  else route();
});
onSessionChange(() => renderHeader());
window.addEventListener("hashchange", route);
applyDocumentLang();
redeemLaunch().then((launched) => {
  if (launched && launched !== "ok") {
    renderHeader();
    fill(main, h("div", { class: "page page-narrow", "data-testid": "launch-failed" }, h("h1", {}, t("launch.failed_title")), h("p", {}, t("launch.failed"))));
    return;
  }
  route();
  watchSession();
});
