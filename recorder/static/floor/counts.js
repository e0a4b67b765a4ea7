// @ts-check
// Chip counts: pick a table, type each counted stack (at a break or the end of the day); the
// differences from the log stay listed until the director corrects each stack.

import * as H from "../common.js";
import { html, nothing } from "../lit.js";
import { F } from "./state.js";

function countForm(t, table) {
  const seated = t.players.filter((p) => p.table === table);
  return html`<form class="form" data-form="count" data-t=${t.id} data-table=${table}><select name="occasion" aria-label="when"><option value="break" ?selected=${t.on_break}>at the break</option><option value="end_of_day" ?selected=${!t.on_break}>end of the day</option></select>${seated.map((p) => html`<label class="count">${p.name} (s${p.seat}) <input name=${`stack:${p.player}`} type="number" min="0" inputmode="numeric" required></label>`)}<button type="submit" class="btn primary">Record the count of table ${table}</button></form>`;
}

// Once the tournament is over no stack can change: the difference is settled by ruling the
// log's stack, which the hands were played on.
function difference(t, d) {
  return html`<li data-player=${d.player}>${d.name} (table ${d.table}): counted ${H.chips(d.counted)}, the log says ${H.chips(d.computed)}${t.finished ? html` <small>(the tournament is over: the log's stack stands)</small>` : nothing}<form class="form inline" data-form="correct" data-t=${t.id} data-player=${d.player}>${t.finished ? html`<input type="hidden" name=${`ruled:${d.player}`} value=${d.computed}>` : html`<input name=${`ruled:${d.player}`} type="number" min="0" value=${d.counted} inputmode="numeric" aria-label="stack ruled">`}<input name=${`reason:${d.player}`} placeholder="Reason" required><button type="submit" class="btn small">Correct the stack</button></form></li>`;
}

export function chipCountBox(t) {
  const c = t.chip_counts || { open: [], corrections: [], counted_tables: [] };
  const table = F.countTable[t.id];
  if (t.finished) return c.open.length || c.corrections.length ? html`<section class="box"><h2>Chip counts</h2><ol class="list count-differences">${c.open.length ? c.open.map((d) => difference(t, d)) : html`<li>no difference open</li>`}</ol>${corrections(c)}</section>` : nothing;
  return html`<section class="box"><h2>Chip counts</h2><form class="form inline" data-form="count-table" data-t=${t.id}><select name="table" aria-label="table to count">${t.tables.map((x) => html`<option ?selected=${table === x}>${x}</option>`)}</select><button type="submit" class="btn small">Count this table</button></form>${table && t.tables.includes(table) ? countForm(t, table) : nothing}${c.counted_tables.length ? html`<div class="panel-note">Counted this level: table ${c.counted_tables.join(", ")}</div>` : nothing}<ol class="list count-differences">${c.open.length ? c.open.map((d) => difference(t, d)) : html`<li>no difference open</li>`}</ol>${corrections(c)}</section>`;
}

function corrections(c) {
  return c.corrections.length ? html`<ol class="list count-corrections">${c.corrections.map((x) => html`<li>${x.name}: ${x.amount > 0 ? "+" : ""}${H.chips(x.amount)} (counted ${H.chips(x.counted)}, the log ${H.chips(x.computed)}) <small>${x.reason} · ${x.by}</small></li>`)}</ol>` : nothing;
}
