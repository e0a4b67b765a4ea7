// @ts-check
// Signing in on the tablet: the dealer's table PIN, a pairing code or the director's PIN on
// a keypad, with the name put on every entry.

import { login } from "./api.js";
import { fill, h } from "./dom.js";
import { start } from "./hooks.js";
import { $, S, STREAM } from "./store.js";

export function showSignIn(message) {
  const box = $("signin");
  box.hidden = false;
  const pin = { value: "", code: false, director: false, name: localStorage.getItem("handlog.name") || "" };
  box.oninput = (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    if (target.id === "signin-name") pin.name = target.value;
  };
  function draw(error) {
    const what = pin.director ? "Director PIN" : pin.code ? "Pairing code" : `Dealer PIN for table ${STREAM}`;
    const keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "⌫"];
    const key = (k, cls, label) => h("button", { type: "button", class: `btn ${cls}`, dataset: { pin: k } }, label);
    fill(box, h("div", { class: "signin" },
      h("h1", null, what),
      message ? h("p", null, message) : null,
      h("input", { class: "name-input", id: "signin-name", autocomplete: "name", placeholder: "Your name (on every entry)", value: pin.name }),
      h("output", { class: "pin", id: "pin-value" }, pin.value.replace(/./g, "•") || "\u00a0"),
      error ? h("p", { class: "error", id: "signin-error" }, error) : null,
      h("div", { class: "keypad" }, keys.map((k) => key(k, "key", k))),
      key("join", "primary wide", "Join"),
      h("div", { class: "row wrap" },
        key("mode-pin", "small", "Dealer PIN"), key("mode-code", "small", "Pairing code"), key("mode-director", "small", "Director"),
        h("a", { class: "btn small", href: `/view/${encodeURIComponent(STREAM)}` }, "Watch as viewer"))));
  }
  box.onclick = async (event) => {
    const el = /** @type {any} */ (event.target).closest("[data-pin]");
    if (!el) return;
    const key = el.dataset.pin;
    if (key === "C") pin.value = "";
    else if (key === "⌫") pin.value = pin.value.slice(0, -1);
    else if (/^\d$/.test(key)) pin.value = (pin.value + key).slice(0, 12);
    else if (key.startsWith("mode-")) {
      pin.code = key === "mode-code";
      pin.director = key === "mode-director";
      pin.value = "";
    } else if (key === "join") {
      const name = pin.name.trim();
      localStorage.setItem("handlog.name", name);
      const fields = pin.director ? { role: "director", pin: pin.value } : pin.code ? { role: "dealer", code: pin.value, table: STREAM } : { role: "dealer", pin: pin.value, table: STREAM };
      if (name) fields.name = name;
      const answer = await login(fields);
      if (answer.status === 200) {
        S.me = answer.body;
        box.hidden = true;
        box.replaceChildren();
        message = "";
        start();
        return;
      }
      pin.value = "";
      const wait = answer.headers.get("Retry-After");
      draw((answer.body && answer.body.message) || `refused (${answer.status})` + (wait ? ` — wait ${wait} s` : ""));
      return;
    }
    draw();
  };
  draw();
}
