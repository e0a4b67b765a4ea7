// @ts-check
// Signing in on the tablet: the dealer's table PIN, a pairing code or the director's PIN on
// a keypad, with the name put on every entry.

import { login } from "./api.js";
import { start } from "./main.js";
import { $, H, S, STREAM } from "./store.js";

export function showSignIn(message) {
  const box = $("signin");
  box.hidden = false;
  const pin = { value: "", code: false, director: false, name: localStorage.getItem("handlog.name") || "" };
  box.oninput = (event) => {
    if (event.target.id === "signin-name") pin.name = event.target.value;
  };
  function draw(error) {
    const what = pin.director ? "Director PIN" : pin.code ? "Pairing code" : `Dealer PIN for table ${STREAM}`;
    box.innerHTML =
      `<div class="signin"><h1>${H.esc(what)}</h1>` +
      (message ? `<p>${H.esc(message)}</p>` : "") +
      `<input class="name-input" id="signin-name" autocomplete="name" placeholder="Your name (on every entry)" value="${H.esc(pin.name)}">` +
      `<output class="pin" id="pin-value">${pin.value.replace(/./g, "•") || "&nbsp;"}</output>` +
      (error ? `<p class="error" id="signin-error">${H.esc(error)}</p>` : "") +
      `<div class="keypad">${["1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "⌫"].map((k) => `<button type="button" class="btn key" data-pin="${k}">${k}</button>`).join("")}</div>` +
      `<button type="button" class="btn primary wide" data-pin="join">Join</button>` +
      `<div class="row wrap"><button type="button" class="btn small" data-pin="mode-pin">Dealer PIN</button><button type="button" class="btn small" data-pin="mode-code">Pairing code</button><button type="button" class="btn small" data-pin="mode-director">Director</button><a class="btn small" href="/view/${encodeURIComponent(STREAM)}">Watch as viewer</a></div></div>`;
  }
  box.onclick = async (event) => {
    const el = event.target.closest("[data-pin]");
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
        box.innerHTML = "";
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
