// Log in (any role) or register a new player (servers with demo accounts).
import { api } from "./api.js";
import { h, fill, field, formValues } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./format.js";
import { login } from "./session.js";

export const HOME = { player: "#/", dealer: "#/dealer", supervisor: "#/supervisor", admin: "#/admin" };

export function mount(root, _params, { navigate }) {
  const error = h("p", { class: "error", role: "alert", "data-testid": "login-error" });
  const done = (session) => {
    login(session);
    navigate(HOME[session.role] || "#/");
  };
  const loginForm = h("form", { class: "form-grid", "aria-labelledby": "login-title", onsubmit: async (e) => {
    e.preventDefault();
    const v = formValues(e.target);
    fill(error);
    try {
      done(await api.login(v.username.trim(), v.password));
    } catch (err) {
      // a refused password says so once, not "not logged in" with it
      fill(error, err && err.code === "unauthorized" ? t("login.wrong") : errorText(err));
    }
  } },
    field(t("login.username"), h("input", { name: "username", autocomplete: "username", required: true, autofocus: true, "data-testid": "username" })),
    field(t("login.password"), h("input", { name: "password", type: "password", autocomplete: "current-password", required: true, "data-testid": "password" })),
    h("button", { type: "submit", class: "btn btn-confirm", "data-testid": "login-submit" }, t("login.submit")));
  const regError = h("p", { class: "error", role: "alert" });
  const registerForm = h("form", { class: "form-grid", "aria-labelledby": "register-title", onsubmit: async (e) => {
    e.preventDefault();
    const v = formValues(e.target);
    fill(regError);
    try {
      done(await api.register(v.username.trim(), v.password, v.display_name.trim()));
    } catch (err) {
      fill(regError, errorText(err));
    }
  } },
    field(t("login.username"), h("input", { name: "username", autocomplete: "username", required: true, pattern: "[a-z0-9_\\-]{3,32}" }), t("login.username_hint")),
    field(t("login.password"), h("input", { name: "password", type: "password", autocomplete: "new-password", required: true, minlength: 6 })),
    field(t("login.display_name"), h("input", { name: "display_name", autocomplete: "nickname" })),
    h("button", { type: "submit", class: "btn" }, t("login.register")));
  fill(root, h("div", { class: "page page-narrow" },
    h("section", { class: "panel" }, h("h1", { id: "login-title" }, t("login.title")), loginForm, error,
      h("p", { class: "hint" }, t("login.demo"))),
    h("section", { class: "panel" }, h("h2", { id: "register-title" }, t("login.register_title")), registerForm, regError)));
  return { unmount() {} };
}
