// @ts-check
// Drawing the live floor: the tables' cards, the tournaments, the side column and the alert.
// lit-html updates the regions in place, so what the director is typing in a form stays.

import * as H from "../common.js";
import { html, nothing, render as paint } from "../lit.js";
import { sideView } from "./side.js";
import { $, F } from "./state.js";
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
  F.alertBox = { kind, title, rule: (body && body.rule) || "", text: (body && body.message) || "", legal: (body && body.legal) || [] };
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
  paint((F.floor.tournaments || []).map(tournamentBox), $("tournament"));
}

export function renderSide() {
  paint(sideView(), $("side"));
  followProposals($("side"));
}

// A field marked data-follow shows what the server proposes now (the tables the entries
// need) unless the director is typing in it.
function followProposals(box) {
  for (const input of box.querySelectorAll("input[data-follow]")) {
    if (input !== document.activeElement) input.value = input.getAttribute("value");
  }
}

export function tickClocks() {
  if (F.floor) drawTournaments();
}
