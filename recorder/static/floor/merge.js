// @ts-check
// Taking in what the server sends: a whole floor view, a tournament command's answer (what it
// changed), and the live stream's `changes` frames; each merged into the floor on screen,
// which is then drawn again. A change taken against a view this page does not hold makes the
// page read the floor whole.

import * as H from "../common.js";
import { render, renderSide } from "./render.js";
import { F, hooks } from "./state.js";

export async function refresh() {
  const answer = await H.api("GET", "/api/floor").catch(() => null);
  if (answer && answer.status === 200) apply(answer.body);
}

// The witnesses' state, read again while the floor shows any: a witness goes down or
// comes back without any event at a table.
export async function loadWitnesses() {
  if (!F.floor || !(F.floor.witnesses || []).length) return;
  const answer = await H.api("GET", "/api/log/witnesses").catch(() => null);
  if (answer && answer.status === 200 && F.floor) {
    F.floor.witnesses = answer.body.witnesses;
    renderSide();
  }
}

export function apply(view) {
  const floor = F.floor;
  if (!view || (floor && view.version < floor.version)) return; // an older view, late
  if (floor && view.tournaments) {
    // A tournament already shown newer (a command's answer applied) stays as it is.
    const mine = new Map((floor.tournaments || []).map((t) => [t.id, t]));
    view.tournaments = view.tournaments.map((t) => (mine.has(t.id) && mine.get(t.id).version > t.version ? mine.get(t.id) : t));
  }
  F.floor = view;
  hooks.__floorUpdates += 1;
  render();
}

// A tournament command's answer is what it changed: the tournament view's changed fields
// (against the view of version `base`) and the cards of the tables it recorded at. Applied
// to the floor on screen when that is the view they were taken against; else (another
// change came in between, not yet here) the floor is read whole.
export function applyChanges(changes) {
  if (!F.floor) return;
  if (changes.tables_changed) {
    refresh(); // a seat draw over many tables: the floor read once, not 1,000 cards here
    return;
  }
  if (!mergeTournament(changes.tournament)) {
    refresh();
    return;
  }
  mergeCards(changes);
  hooks.__floorUpdates += 1;
  render();
}

// One tournament's delta merged into the floor on screen; false when it was taken against
// a view this page does not hold (the floor is then read whole).
function mergeTournament(delta) {
  const floor = F.floor;
  const list = floor.tournaments || (floor.tournaments = []);
  const index = list.findIndex((x) => x.id === delta.id);
  const shown = index >= 0 ? list[index] : null;
  if (shown && shown.version >= delta.version) return true; // got here first
  if (!delta.base) { // the whole view
    if (index >= 0) list[index] = delta;
    else list.push(delta);
    return true;
  }
  if (!shown || shown.version !== delta.base) return false;
  const fields = Object.assign({}, delta);
  const lists = fields.lists;
  delete fields.base;
  delete fields.lists;
  const next = Object.assign({}, shown, fields);
  for (const [key, change] of Object.entries(lists || {})) next[key] = mergeRows(shown[key] || [], change, next.list_limit);
  list[index] = next;
  return true;
}

function mergeCards(changes) {
  const floor = F.floor;
  for (const card of changes.tables || []) {
    const at = floor.tables.findIndex((x) => x.stream === card.stream);
    if (at >= 0) floor.tables[at] = card;
    else floor.tables.push(card);
  }
  if (changes.dealer_pins) floor.dealer_pins = Object.assign({}, floor.dealer_pins, changes.dealer_pins);
}

// A live `changes` frame (GET /api/floor/events): the cards of the tables that changed,
// each tournament's delta, the corrections when they changed.
export function applyLive(changes) {
  const floor = F.floor;
  if (!floor) return refresh();
  if (!(changes.tournaments || []).every(mergeTournament)) return refresh();
  mergeCards(changes);
  if (changes.corrections) floor.corrections = changes.corrections;
  if (changes.checkpoint !== undefined) floor.checkpoint = changes.checkpoint;
  if (changes.witnesses !== undefined) floor.witnesses = changes.witnesses;
  floor.version = Math.max(floor.version, changes.version);
  hooks.__floorUpdates += 1;
  hooks.__floorLive = (hooks.__floorLive || 0) + 1;
  render();
}

// A list of players changed row by row (by player id): ordered as the server orders it,
// by table, seat and entry number, and held to the first `limit` rows as the server's.
function mergeRows(rows, change, limit) {
  const gone = new Set(change.removed);
  const changed = new Map(change.changed.map((r) => [r.player, r]));
  const merged = rows.filter((r) => !gone.has(r.player) && !changed.has(r.player)).concat(change.changed);
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  merged.sort((a, b) => cmp(a.table || "", b.table || "") || (a.seat || 0) - (b.seat || 0) || a.n - b.n);
  return limit ? merged.slice(0, limit) : merged;
}
