// @ts-check
// A table's card on the floor: its hand, its players and stacks, the links to its pages, and
// for the director its dealer PIN and pairing codes; a table that cannot be shown says why.

import * as H from "../common.js";
import { html, nothing } from "../lit.js";
import { F, director } from "./state.js";

function playerRow(p) {
  const cls = [p.to_act ? "to-act" : "", p.stack === 0 && !p.in_hand ? "out" : "", p.folded ? "folded" : ""].join(" ").trim();
  return html`<tr class=${cls} data-player=${p.player}><td>${p.seat}</td><td>${p.player}${p.absent ? html` <small>(absent)</small>` : nothing}</td><td class="num stack">${H.chips(p.stack)}</td></tr>`;
}

function handLine(t) {
  const hand = t.hand;
  const text = hand
    ? `Hand #${hand.number} · ${hand.phase === "betting" ? hand.street : hand.phase} · pot ${H.chips(hand.pot_total)}${hand.to_act ? ` · ${hand.to_act} to act` : ""}`
    : "between hands";
  return html`<div class="hand-line">${text}${t.carry ? html` · <span class="carry">${H.chips(t.carry)} carried into the next pot</span>` : nothing}</div>`;
}

function pinLine(t) {
  const floor = F.floor;
  const pin = floor.dealer_pins && floor.dealer_pins[t.stream];
  if (!pin) return nothing;
  const codes = (floor.pairing_codes || []).filter((c) => c.table === t.stream).map((c) => html`<b class="code">${c.code}</b>`);
  return html`<div class="pin-line">Dealer PIN <b class="dealer-pin">${pin}</b>${codes.length ? html` · pairing code ${H.joined(codes, ", ")}` : nothing}</div><button type="button" class="btn small wide" data-action="pair" data-stream=${t.stream}>New pairing code</button>`;
}

/** A table's card, or `nothing` for a closed table with no problem. */
export function tableCard(t) {
  if (!t.open) return t.problem ? problemCard(t) : nothing;
  const level = t.level ? ` · L${t.level.number} ${H.chips(t.level.small_blind)}/${H.chips(t.level.big_blind)}` : "";
  const owner = t.tournament ? (F.floor.tournaments || []).find((x) => x.id === t.tournament) : null;
  const ownerText = owner ? `${owner.name} (${owner.id}) · ` : (t.tournament ? `${t.tournament} · ` : "");
  const stream = encodeURIComponent(t.stream);
  return html`<article class=${`table-card${t.hand ? " in-hand" : ""}`} data-stream=${t.stream}><h3>Table ${t.table} <small>${ownerText}${t.profile}${level} · ${t.hands_played} hands</small></h3>${handLine(t)}<table class="players"><tbody>${t.players.map(playerRow)}</tbody></table><div class="links">${director() ? html`<a class="btn small" href=${`/dealer/${stream}`}>Dealer page</a>` : nothing}<a class="btn small" href=${`/view/${stream}`}>Watch</a><a class="btn small" href=${`/replayer?table=${stream}`}>Hands</a></div>${pinLine(t)}</article>`;
}

// A table that cannot be shown (an entry this release cannot apply) says why on its card;
// the other tables are shown as usual.
function problemCard(t) {
  const p = t.problem;
  return html`<article class="table-card broken" data-stream=${t.stream}><h3>${t.stream} <small>cannot be shown</small></h3><div class="problem">${p.message} <small>(${p.rule_words || p.rule}${p.version ? `, #${p.version}` : ""})</small></div>${director() && p.legal && p.legal.length ? html`<div class="hand-line">${p.legal.join(" · ")}</div>` : nothing}</article>`;
}
