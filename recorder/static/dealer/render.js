// @ts-check
// Rendering the table: the bar, the seats around the felt, the pots and the board, the alert,
// the outbox, the last entries. What the action panel and the sheets show is in actions.js,
// cards.js and sheets.js.

import { renderActions, renderTools } from "./actions.js";
import { renderClock } from "./clock.js";
import { renderOutbox } from "./outbox.js";
import { renderSheet } from "./sheets.js";
import { $, H, MODE, S, STREAM, canRecord, levelText, seatName } from "./store.js";

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
  let text = S.connection;
  if (waiting) text += ` · ${waiting} to send`;
  $("status-text").textContent = text;
  $("status").dataset.state = S.connection;
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

export function renderRing() {
  const ring = $("ring");
  const felt = $("felt");
  for (const node of Array.from(ring.querySelectorAll(".seat"))) node.remove();
  if (!S.state.open) return;
  const tag = canRecord() ? "button" : "div";
  for (const s of S.state.seats) {
    const el = document.createElement(tag);
    el.className = "seat";
    el.dataset.seat = s.seat;
    if (tag === "button") {
      el.type = "button";
      el.dataset.action = "seat";
    }
    const pos = seatPosition(s.seat, S.state.seat_count);
    el.style.left = `${pos.left}%`;
    el.style.top = `${pos.top}%`;
    if (!s.player) {
      el.classList.add("empty");
      el.innerHTML = `<div class="seat-head"><span class="seat-no">${s.seat}</span><span class="name">empty</span>${markers(s)}</div>`;
      if (tag === "button") el.disabled = true;
      ring.insertBefore(el, felt);
      continue;
    }
    for (const flag of ["to_act", "folded", "all_in", "absent"]) if (s[flag]) el.classList.add(flag.replace("_", "-"));
    if (s.in_hand === false && S.state.hand_in_progress) el.classList.add("out");
    const cards = s.shown || s.hole;
    const tags = [];
    if (s.folded) tags.push("folded");
    if (s.all_in) tags.push("all-in");
    if (s.absent) tags.push("absent");
    if (s.waits) tags.push("waits");
    el.innerHTML =
      `<div class="seat-head"><span class="seat-no">${s.seat}</span><span class="name">${H.esc(s.player)}</span>${markers(s)}</div>` +
      `<div class="stack" data-stack="${s.stack}">${H.chips(s.stack)}</div>` +
      (s.bet ? `<div class="bet">bet ${H.chips(s.bet)}</div>` : "") +
      (cards && cards.length ? `<div class="seat-cards${s.shown ? " shown" : ""}">${cards.map((c) => H.cardHtml(c, "small")).join("")}</div>` : "") +
      (tags.length ? `<div class="tags">${tags.map((t) => `<span class="tag">${t}</span>`).join("")}</div>` : "");
    ring.insertBefore(el, felt);
  }
}

export function markers(s) {
  let html = "";
  if (s.button) html += '<span class="marker button" title="button">D</span>';
  if (s.small_blind) html += '<span class="marker sb" title="small blind">SB</span>';
  if (s.big_blind) html += '<span class="marker bb" title="big blind">BB</span>';
  return `<span class="markers">${html}</span>`;
}

export function renderFelt() {
  const felt = $("felt");
  if (!S.state.open) {
    felt.innerHTML = `<div class="felt-note">table ${H.esc(STREAM)} is not open</div>`;
    return;
  }
  const hand = S.state.hand;
  let html = "";
  if (hand && S.state.hand_in_progress) {
    const pots = hand.pots.length > 1 || (hand.pots.length === 1 && hand.pots[0].amount !== hand.pot_total) ? hand.pots : [];
    html += `<div class="pots">${pots.map((p) => `<div class="pot" data-pot="${H.esc(p.name)}"><span>${H.esc(p.name)}</span> <b>${H.chips(p.amount)}</b></div>`).join("")}<div class="pot total"><span>${pots.length ? "Total" : "Pot"}</span> <b id="pot-total">${H.chips(hand.pot_total)}</b></div></div>`;
  } else if (hand && hand.awards.length) {
    html += `<div class="pots">${hand.awards.map((a) => `<div class="pot done">${a.pot ? "Side pot " + a.pot : "Main pot"} ${H.chips(a.amount)} → ${a.winner_seats.map((w, i) => `${H.esc(seatName(w))} ${H.chips(a.shares[i])}`).join(", ")}</div>`).join("")}</div>`;
  }
  const board = hand ? hand.board : [];
  html += `<div class="board">${[0, 1, 2, 3, 4].map((i) => H.cardHtml(board[i] || null)).join("")}</div>`;
  if (hand && S.state.hand_in_progress) {
    const who = hand.legal ? `${hand.legal.name} to act` : hand.next_steps.join(" · ");
    html += `<div class="felt-note">${H.esc(who)}</div>`;
  } else {
    html += `<div class="felt-note">${hand ? "hand complete" : "no hand yet"}</div>`;
  }
  felt.innerHTML = html;
}

export function renderAlert() {
  H.showAlert($("alert"), S.alertBox);
}

export function renderEvents() {
  $("events").innerHTML = S.state.events
    .map(
      (e) =>
        `<li class="${e.voided ? "voided" : ""}${e.correction ? " correction" : ""}" data-version="${e.version}"><a class="v" href="/replayer?table=${encodeURIComponent(STREAM)}&at=${e.version}" title="Replay the hand at this entry">#${e.version}</a> <span class="text">${H.esc(e.text)}</span>${e.rule ? ` <span class="rule">${H.esc(e.rule)}</span>` : ""} <small>${H.esc(e.actor)} · ${H.esc(e.device)}</small></li>`,
    )
    .join("");
}
