// @ts-check
// Signed-in tablets (the director's): who is signed in where, and a sign-out for each.

import * as H from "../common.js";
import { html, render as paint } from "../lit.js";
import { $, F, director } from "./state.js";

/** @param {number} seconds */
function ago(seconds) {
  if (seconds < 60) return "in use now";
  const minutes = Math.floor(seconds / 60);
  return `unused for ${minutes} min`;
}

export async function loadTablets() {
  if (!director()) return;
  const answer = await H.api("GET", "/api/sessions").catch(() => null);
  if (answer && answer.status === 200) {
    F.tablets = answer.body;
    renderTablets();
  }
}

function row(s) {
  const what = s.role === "dealer" ? `dealer ${s.table}` : s.role;
  const end = s.current ? html`<small>this screen</small>` : html`<button type="button" class="btn small" data-action="revoke" data-session=${s.id}>Sign out</button>`;
  return html`<tr data-session=${s.id} data-device=${s.device}><td>${what}</td><td>${s.name} <small>${s.device} · ${s.client}</small></td><td><small>${ago(s.idle_seconds)}</small></td><td>${end}</td></tr>`;
}

export function renderTablets() {
  const box = $("tablets");
  box.hidden = !director() || !F.tablets;
  if (box.hidden) return;
  paint(html`<h2>Signed-in tablets <small>signed out after ${F.tablets.idle_minutes} minutes unused</small></h2><table class="players sessions"><tbody>${F.tablets.sessions.map(row)}</tbody></table>`, box);
}
