// @ts-check
// Find hands: by player, all-ins, showdowns, rulings, corrections (GET /api/hands), each
// found hand linked to the replayer and to its table as the hand started.

import * as H from "../common.js";
import { html, render as paint } from "../lit.js";
import { $ } from "./state.js";

const CHECKS = [["all_in", "all-ins"], ["showdown", "showdowns"], ["rulings", "rulings"], ["corrections", "corrections"]];

function found(h) {
  const stream = encodeURIComponent(h.stream);
  return html`<li data-stream=${h.stream} data-hand=${h.hand}><a href=${`/replayer?table=${stream}&hand=${encodeURIComponent(h.label || String(h.hand))}`}>${h.table} #${h.label || h.hand}</a> <small>level ${h.level} · ${h.outcome}${h.all_in.length ? ` · all-in: ${h.all_in.join(", ")}` : ""}${h.showdown ? " · showdown" : ""}</small> <a class="btn small" href=${`/view/${stream}?hand=${h.hand}`}>as it started</a></li>`;
}

/** @param {SubmitEvent} event */
async function find(event) {
  event.preventDefault();
  event.stopPropagation();
  const data = new FormData($("find-form"));
  const q = new URLSearchParams();
  for (const [key, value] of data.entries()) {
    if (value === "on") q.set(key, "true");
    else if (String(value).trim()) q.set(key, String(value).trim());
  }
  const answer = await H.api("GET", `/api/hands?${q}`).catch(() => null);
  const list = $("found-hands");
  list.hidden = false;
  if (!answer || answer.status !== 200) {
    paint(html`<li class="error">${(answer && answer.body && answer.body.message) || "not answered"}</li>`, list);
    return;
  }
  const hands = answer.body.hands;
  paint(hands.length ? hands.map(found) : html`<li>no hand found</li>`, list);
  list.dataset.count = answer.body.count;
}

export function addFindBox() {
  const box = document.createElement("section");
  box.className = "box find-hands";
  box.id = "find-hands";
  box.setAttribute("aria-label", "Find hands");
  paint(html`<h2>Find hands</h2><form class="form" id="find-form" @submit=${find}><input id="find-player" name="player" type="search" placeholder="Player name" aria-label="Player name" autocomplete="off"><input id="find-hand" name="hand" type="number" min="1" placeholder="Hand #" aria-label="Hand number" inputmode="numeric">${CHECKS.map(([name, label]) => html`<label class="check"><input type="checkbox" name=${name} id=${`find-${name}`}> ${label}</label>`)}<button type="submit" class="btn">Find</button></form><ol class="list" id="found-hands" aria-label="Hands found" hidden></ol>`, box);
  $("tournament").before(box);
}
