// @ts-check
// Drawing the live floor: the tables' cards, the tournaments, the side column and the alert.
// lit-html updates the regions in place; what the director is typing in a form stays.

import * as H from "../common.js";
import { html, nothing, render as paint } from "../lit.js";
import { sideView } from "./side.js";
import { $, F, redraw } from "./state.js";
import { tableCard } from "./tables.js";
import { tournamentBox } from "./tournament.js";

export function render() {
  const floor = F.floor;
  if (!floor) return;
  document.body.dataset.version = floor.version;
  const players = floor.tables.reduce((n, t) => n + (t.players ? t.players.length : 0), 0);
  $("info").textContent = `${floor.tables.length} table${floor.tables.length === 1 ? "" : "s"} · ${players} players seated`;
  paint(F.me.role ? html`<button type="button" class="btn small" data-action="signout">${F.me.role}: sign out</button>` : nothing, $("who"));
  const cards = floor.tables.map(tableCard).filter((card) => card !== nothing);
  paint(cards.length ? cards : html`<div class="box">No table is open yet.</div>`, $("tables"));
  renderTournament();
  renderSide();
  renderAlert();
}

export function renderAlert() {
  H.showAlert($("alert"), F.alertBox,
    F.unsent ? html`<button type="button" class="btn small primary" data-action="resend">Send again</button>` : nothing);
}

/**
 * @param {string} kind
 * @param {string} title
 * @param {any} body a refusal's body: message, rule, legal
 */
export function showAlert(kind, title, body) {
  F.alertBox = { kind, title, rule: (body && body.rule) || "", rule_words: (body && body.rule_words) || "", text: (body && body.message) || "", legal: (body && body.legal) || [] };
  renderAlert();
}

function renderTournament() {
  const list = F.floor.tournaments || [];
  if (list.length) F.offset = list[0].now - Date.now();
  drawTournaments();
}

// lit-html owns the boxes' text (a clock written over by hand would break its next update):
// the clocks tick by drawing the boxes again, which changes only their clocks' text.
function drawTournaments() {
  keepingTyped($("tournament"), () => paint((F.floor.tournaments || []).map(tournamentBox), $("tournament")));
}

redraw.side = renderSide;

export function renderSide() {
  keepingTyped($("side"), () => paint(sideView(), $("side")));
}

// lit-html updates a list row by row in place: after a row is gone, the fields of the rows
// below it would keep what was typed in them while their rows now name other players. So
// what is typed, chosen and ticked is kept by form and field name across a redraw, as the
// director left it. A field still showing what the page proposed (its value attribute: a
// recounted stack's count to rule) shows the new proposal instead: kept, the old count's
// number would be sent under the new count's row.
/** @param {HTMLInputElement | HTMLSelectElement} input */
function fieldKey(input) {
  const form = input.form;
  return `${form ? `${form.dataset.form}:${form.dataset.t || ""}` : ""}:${input.name}`;
}

/**
 * @param {HTMLElement} box
 * @param {() => void} draw
 */
function keepingTyped(box, draw) {
  const values = new Map();
  const checked = new Map();
  let focused = null;
  for (const field of box.querySelectorAll("input, select")) {
    const input = /** @type {HTMLInputElement} */ (field);
    const key = fieldKey(input);
    const proposed = input.getAttribute("value");
    if (!(field instanceof HTMLInputElement) || proposed === null || input.value !== proposed) values.set(key, input.value);
    if (input.type === "checkbox") checked.set(key, input.checked);
    if (input === document.activeElement) focused = key;
  }
  draw();
  for (const field of box.querySelectorAll("input, select")) {
    const input = /** @type {HTMLInputElement} */ (field);
    const key = fieldKey(input);
    // A field marked data-follow shows what the server proposes now (the tables the
    // entries need) unless the director is typing in it.
    const follows = input.dataset.follow !== undefined && key !== focused;
    // A select keeps its choice only while that option is still offered (a player who
    // has since been eliminated is not): else it would send nothing at all.
    const gone = field instanceof HTMLSelectElement && ![...field.options].some((o) => o.value === values.get(key));
    if (follows) input.value = input.getAttribute("value") || "";
    else if (values.has(key) && input.type !== "hidden" && !gone) input.value = values.get(key);
    else if (field instanceof HTMLInputElement && input.type !== "checkbox" && input.type !== "radio") input.value = input.getAttribute("value") || "";
    if (checked.has(key)) input.checked = checked.get(key);
    if (key === focused && document.activeElement !== input) input.focus();
  }
}

export function tickClocks() {
  if (F.floor) drawTournaments();
}
