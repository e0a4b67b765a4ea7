// @ts-check
// The deal at the final table: before anyone consents the floor shows what each method gives
// each player (read from the server for the stacks now and the amount kept), then a consent
// per player beside his amount; the amount kept to play for is typed in the currency.

import * as H from "../common.js";
import { html, nothing } from "../lit.js";
import { redraw } from "./state.js";

const money = (cents) => (cents / 100).toFixed(2);
const METHODS = [["icm", "ICM"], ["chip_chop", "chip chop"], ["chip_chop_last_guaranteed", "chip chop, last place guaranteed"]];

/** @type {Record<string, {key: string, body: any, refused: any}>} */
const previews = {};
/** @type {Record<string, string>} */
const asked = {};

/**
 * Read the amounts for tournament `t` at its version now with `kept` cents kept back (once
 * per version and amount; the side column is drawn again when they come).
 * @param {any} t
 * @param {number} kept
 */
export async function loadDealPreview(t, kept) {
  const key = `${t.version}:${kept}`;
  if (asked[t.id] === key) return;
  asked[t.id] = key;
  const answer = await H.api("GET", `/api/tournaments/${encodeURIComponent(t.id)}/deal?kept=${kept}`).catch(() => null);
  if (!answer || asked[t.id] !== key) return;
  previews[t.id] = answer.status === 200 ? { key, body: answer.body, refused: null } : { key, body: null, refused: answer.body };
  redraw.side();
}

/** @param {any} t */
function keptNow(t) {
  const input = /** @type {HTMLInputElement | null} */ (document.querySelector(`[data-form="deal"][data-t="${CSS.escape(t.id)}"] input[name="kept"]`));
  const amount = parseFloat(((input && input.value) || "0").replace(",", "."));
  return Number.isFinite(amount) && amount > 0 ? Math.round(amount * 100) : 0;
}

/** @param {any} t */
function amountsTable(t) {
  const p = previews[t.id];
  if (!p) return html`<div class="panel-note">Reading the amounts…</div>`;
  if (p.refused) return html`<div class="panel-note deal-refused">No deal now: ${p.refused.message} <span class="rule">${p.refused.rule_words || p.refused.rule}</span></div>`;
  const b = p.body;
  const offers = Object.fromEntries(b.offers.map((o) => [o.method, o]));
  return html`<table class="deal-amounts"><thead><tr><th>Player</th><th>Stack</th>${METHODS.map(([m, label]) => html`<th data-method=${m}>${label}</th>`)}<th>Consent</th></tr></thead><tbody>${b.players.map((pl, i) => html`<tr data-player=${pl.player}><td>${pl.name}</td><td>${H.chips(pl.stack)}</td>${METHODS.map(([m]) => html`<td data-method=${m} data-amount=${offers[m] && offers[m].amounts.length ? offers[m].amounts[i] : nothing}>${offers[m] && offers[m].amounts.length ? `${b.currency} ${money(offers[m].amounts[i])}` : "—"}</td>`)}<td><label class="check"><input type="checkbox" name=${`consent:${pl.player}`} value=${pl.name}> ${pl.name} agrees</label></td></tr>`)}</tbody></table>${b.offers.filter((o) => o.refused).map((o) => html`<div class="panel-note">${o.method.replace(/_/g, " ")}: ${o.refused}</div>`)}<div class="panel-note">Prize money still to be paid: ${b.currency} ${money(b.prizes.reduce((a, x) => a + x, 0))}${b.kept ? `, of which ${b.currency} ${money(b.kept)} is kept to play for` : ""}.</div>`;
}

/** @param {any} t */
export function dealBox(t) {
  if (!t.deals_allowed) return nothing;
  const kept = keptNow(t);
  const p = previews[t.id];
  if (!p || p.key !== `${t.version}:${kept}`) loadDealPreview(t, kept);
  return html`<section class="box"><h2>Deal</h2><form class="form" data-form="deal" data-t=${t.id}><label>Method <select name="method" aria-label="Deal method">${METHODS.map(([m, label]) => html`<option value=${m}>${label}</option>`)}</select></label><label>Kept to play for (${t.currency}) <input name="kept" type="number" min="0" step="0.01" value="0" inputmode="decimal" aria-label=${`kept to play for (${t.currency})`}></label>${amountsTable(t)}<button type="submit" class="btn primary">Record the deal</button></form></section>`;
}
