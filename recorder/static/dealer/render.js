// @ts-check
// Rendering the table: the bar, the seats around the felt, the pots and the board, the alert,
// the outbox, the last entries. What the action panel and the sheets show is in actions.js,
// cards.js and sheets.js.

import { html, nothing, render as paint } from "../lit.js";
import { renderActions, renderTools } from "./actions.js";
import { renderClock } from "./clock.js";
import { renderOutbox } from "./outbox.js";
import { renderSheet } from "./sheets.js";
import { $, H, MODE, S, STREAM, canRecord, levelText, queuesAsTapped, seatName } from "./store.js";

export function render() {
  const t0 = performance.now();
  renderAll();
  if (H.testing) {
    const w = /** @type {any} */ (window);
    w.__renderMs = (w.__renderMs || []).concat([performance.now() - t0]).slice(-200);
  }
}

export function renderAll() {
  document.body.dataset.mode = MODE;
  document.body.dataset.version = S.state ? S.state.version : "";
  // While a hand is played the phone layouts keep the last entries out of the way (app.css).
  document.body.dataset.inHand = S.state && S.state.hand_in_progress ? "1" : "";
  // Offline without the rules engine here: the panel that queues every tap (app.css).
  document.body.dataset.queue = queuesAsTapped() ? "1" : "";
  renderStatus();
  if (!S.state) return;
  renderBar();
  renderRing();
  renderFelt();
  renderAlert();
  renderOutbox();
  renderActions();
  renderTools();
  renderClock();
  renderEvents();
  renderSheet();
}

export function renderStatus() {
  const waiting = S.outbox.length;
  let text = S.busy ? "store busy, retrying" : S.connection;
  if (waiting) text += ` · ${waiting} to send`;
  $("status-text").textContent = text;
  $("status").dataset.state = S.busy ? "busy" : S.connection;
}

export function renderBar() {
  const s = S.state;
  $("title").textContent = s.open ? `Table ${s.table}` : `Table ${STREAM}`;
  document.title = `${s.open ? s.table : STREAM} · handlog ${MODE}`;
  const bits = [];
  if (s.hand && s.hand_in_progress) bits.push(`Hand #${s.hand.number} · ${phaseText(s.hand)}`);
  else if (s.hand) bits.push(`Hand #${s.hand.number} ${s.hand.phase}`);
  if (s.level) bits.push(levelText(s.level));
  bits.push(`v${s.version}`);
  if (S.me.role) bits.push(`${S.me.role}${S.me.name ? ": " + S.me.name : ""}`);
  $("info").textContent = bits.join(" · ");
}

export function phaseText(hand) {
  if (hand.phase === "betting") return `${hand.street} betting`;
  if (hand.phase === "board") return hand.board.length ? "deal the next card" : "deal the flop";
  return hand.phase;
}

export function seatPosition(seat, count) {
  const gap = 28;
  const step = count > 1 ? (360 - 2 * gap) / (count - 1) : 0;
  const angle = ((90 + gap + (seat - 1) * step) * Math.PI) / 180;
  return { left: 50 + 41 * Math.cos(angle), top: 50 + 40 * Math.sin(angle) };
}

// Where the seats end in the ring, before the felt (lit-html keeps a region's state on the
// node it renders before, so the felt, a region of its own, cannot be that node).
/** @type {Comment | null} */
let seatsEnd = null;

export function renderRing() {
  const ring = $("ring");
  if (!seatsEnd) seatsEnd = ring.insertBefore(document.createComment("seats"), $("felt"));
  const seats = S.state.open ? S.state.seats : [];
  const asButtons = canRecord();
  paint(html`${seats.map((s) => seatView(s, asButtons))}`, ring, { renderBefore: seatsEnd });
  // Placed through the CSSOM: the pages' Content-Security-Policy (style-src 'self') refuses
  // style attributes.
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (ring.querySelectorAll(".seat"))) {
    const pos = seatPosition(Number(el.dataset.seat), S.state.seat_count);
    el.style.left = `${pos.left}%`;
    el.style.top = `${pos.top}%`;
  }
}

/**
 * One seat around the felt: a button the dealer taps for the seat's sheet, or a plain box.
 * @param {any} s the seat of the table view
 * @param {boolean} asButton
 */
function seatView(s, asButton) {
  const classes = ["seat"];
  if (!s.player) classes.push("empty");
  else {
    for (const flag of ["to_act", "folded", "all_in", "absent"]) if (s[flag]) classes.push(flag.replace("_", "-"));
    if (s.in_hand === false && S.state.hand_in_progress) classes.push("out");
  }
  const body = s.player ? seatBody(s) : html`<div class="seat-head"><span class="seat-no">${s.seat}</span><span class="name">empty</span>${markers(s)}</div>`;
  return asButton
    ? html`<button type="button" class=${classes.join(" ")} data-seat=${s.seat} data-action="seat" ?disabled=${!s.player}>${body}</button>`
    : html`<div class=${classes.join(" ")} data-seat=${s.seat}>${body}</div>`;
}

/** @param {any} s */
function seatBody(s) {
  const cards = s.shown || s.hole;
  const tags = [];
  if (s.folded) tags.push("folded");
  if (s.all_in) tags.push("all-in");
  if (s.absent) tags.push("absent");
  if (s.waits) tags.push("waits");
  return html`<div class="seat-head"><span class="seat-no">${s.seat}</span><span class="name">${s.player}</span>${markers(s)}</div><div class="stack" data-stack=${s.stack}>${H.chips(s.stack)}</div>${s.bet ? html`<div class="bet">bet ${H.chips(s.bet)}</div>` : nothing}${cards && cards.length ? html`<div class=${s.shown ? "seat-cards shown" : "seat-cards"}>${cards.map((c) => H.cardView(c, "small"))}</div>` : nothing}${tags.length ? html`<div class="tags">${tags.map((t) => html`<span class="tag">${t}</span>`)}</div>` : nothing}`;
}

/** @param {any} s */
export function markers(s) {
  return html`<span class="markers">${s.button ? html`<span class="marker button" title="button">D</span>` : nothing}${s.small_blind ? html`<span class="marker sb" title="small blind">SB</span>` : nothing}${s.big_blind ? html`<span class="marker bb" title="big blind">BB</span>` : nothing}</span>`;
}

export function renderFelt() {
  const hand = S.state.hand;
  // With side pots the felt's note gives way (the seat to act is lit): the pots stay clear of
  // the seats around the felt (app.css).
  $("felt").classList.toggle("has-side", !!(hand && S.state.hand_in_progress && hand.pots.length > 1));
  paint(feltView(), $("felt"));
}

function feltView() {
  if (!S.state.open) return html`<div class="felt-note">table ${STREAM} is not open</div>`;
  const hand = S.state.hand;
  /** @type {unknown} */
  let pots = nothing;
  if (hand && S.state.hand_in_progress) {
    const side = hand.pots.length > 1 || (hand.pots.length === 1 && hand.pots[0].amount !== hand.pot_total) ? hand.pots : [];
    pots = html`<div class="pots">${side.map((p) => html`<div class="pot" data-pot=${p.name}><span>${p.name}</span> <b>${H.chips(p.amount)}</b></div>`)}<div class="pot total"><span>${side.length ? "Total" : "Pot"}</span> <b id="pot-total">${H.chips(hand.pot_total)}</b></div></div>`;
  } else if (hand && hand.awards.length) {
    pots = html`<div class="pots">${hand.awards.map((a) => html`<div class="pot done">${a.pot ? "Side pot " + a.pot : "Main pot"} ${H.chips(a.amount)} → ${a.winner_seats.map((w, i) => `${seatName(w)} ${H.chips(a.shares[i])}`).join(", ")}</div>`)}</div>`;
  }
  const board = hand ? hand.board : [];
  const note = hand && S.state.hand_in_progress
    ? (hand.legal ? `${hand.legal.name} to act` : hand.next_steps.join(" · "))
    : (hand ? "hand complete" : "no hand yet");
  return html`${pots}<div class="board">${[0, 1, 2, 3, 4].map((i) => H.cardView(board[i] || null))}</div><div class="felt-note">${note}</div>`;
}

export function renderAlert() {
  const box = $("alert");
  const alert = S.alertBox;
  box.hidden = !alert;
  if (alert) box.className = `alert ${alert.kind}`;
  paint(alert ? alertView(alert) : nothing, box);
}

/**
 * A refusal, a conflict or a lost connection: title, rule, text, what is allowed, then OK.
 * @param {{title: string, text: string, rule?: string, rule_words?: string, legal?: string[], extra?: string}} alert
 */
export function alertView(alert) {
  return html`<div class="alert-title">${alert.title}</div>${alert.rule ? html`<div class="alert-rule" data-rule=${alert.rule}>${alert.rule_words || alert.rule}</div>` : nothing}<div class="alert-text">${alert.text}</div>${alert.legal && alert.legal.length ? html`<div class="alert-legal">Allowed: ${alert.legal.join("; ")}</div>` : nothing}${alert.extra ? html`<div class="alert-legal">${alert.extra}</div>` : nothing}<button type="button" class="btn small" data-action="dismiss">OK</button>`;
}

export function renderEvents() {
  const table = encodeURIComponent(STREAM);
  paint(html`${S.state.events.map((e) => html`<li class=${`${e.voided ? "voided" : ""}${e.correction ? " correction" : ""}`} data-version=${e.version}><a class="v" href=${`/replayer?table=${table}&at=${e.version}`} title="Replay the hand at this entry">#${e.version}</a> <span class="text">${e.text}</span>${e.rule ? html` <span class="rule">${e.rule}</span>` : nothing} <small>${e.actor} · ${e.device}</small></li>`)}`, $("events"));
}
