// @ts-check
// /join: a dealer's tablet joins its table with the one-time pairing code from the floor page.

import * as H from "./common.js";
import { html, render } from "./lit.js";

const KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "⌫"];
let code = "";
/** @type {string | null} */
let error = null;

/** @param {string} id */
function $(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

function draw() {
  $("code").textContent = code || "\u00a0";
  $("error").hidden = error === null;
  $("error").textContent = error || "";
}

/** @param {string} key */
function press(key) {
  if (key === "C") code = "";
  else if (key === "⌫") code = code.slice(0, -1);
  else code = (code + key).slice(0, 12);
  draw();
}

async function join() {
  const answer = await H.login({ role: "dealer", code });
  if (answer.status === 200) {
    location.href = `/dealer/${encodeURIComponent(answer.body.table)}`;
    return;
  }
  error = (answer.body && answer.body.message) || `refused (${answer.status})`;
  code = "";
  draw();
}

render(KEYS.map((k) => html`<button type="button" class="btn key" data-key=${k} @click=${() => press(k)}>${k}</button>`), $("keys"));
$("join").addEventListener("click", join);
