// @ts-check
// The action clock on a player (TDA: clock called), kept in localStorage so a reload keeps
// it; when it runs out the tablet records the clock's expiry. It stops when the player acts:
// online when the server's table moves on, offline when his action is queued.

import { html, render as paint } from "../lit.js";
import { record } from "./outbox.js";
import { $, CLOCK_KEY, MODE, S, busy } from "./store.js";

/** @type {any} */
let clockTimer = null;

export function loadClock() {
  try {
    return JSON.parse(localStorage.getItem(CLOCK_KEY) || "null");
  } catch (_e) {
    return null;
  }
}

export function startClock() {
  const hand = S.state.hand;
  if (!hand || !hand.legal) return;
  const p = S.state.profile;
  const total = p.clock_seconds + p.clock_countdown_seconds;
  const clock = { player: hand.legal.player, name: hand.legal.name, hand: hand.number, version: S.state.version, started: Date.now(), ends: Date.now() + total * 1000, countdown: p.clock_countdown_seconds };
  localStorage.setItem(CLOCK_KEY, JSON.stringify(clock));
  tickClock();
}

export function stopClock() {
  localStorage.removeItem(CLOCK_KEY);
  clearTimeout(clockTimer);
  renderClock();
}

export function checkClock() {
  const clock = loadClock();
  if (!clock || !S.state) return;
  const hand = S.state.hand;
  if (!hand || !S.state.hand_in_progress || hand.number !== clock.hand || hand.to_act !== clock.player || (hand.legal && S.state.version !== clock.version && hand.legal.player !== clock.player)) {
    stopClock();
  }
}

export function tickClock() {
  clearTimeout(clockTimer);
  const clock = loadClock();
  renderClock();
  if (!clock) return;
  if (actedSince(clock)) {
    stopClock();
    return;
  }
  if (Date.now() >= clock.ends) {
    stopClock();
    if (S.state.hand && S.state.hand.to_act === clock.player && !busy()) {
      record({ type: "expire_clock", player: clock.player }, `${clock.name}: clock expired`);
    }
    return;
  }
  clockTimer = setTimeout(tickClock, 250);
}

/**
 * The player on the clock has acted in an entry still waiting (offline, the table the server
 * sent does not move on): his action, or one for whoever is to act, tapped after the clock.
 * @param {any} clock
 */
function actedSince(clock) {
  return S.outbox.some((item) => Date.parse(item.queued_at) >= clock.started &&
    (item.for_next || item.command.player === clock.player));
}

export function renderClock() {
  const box = $("clock");
  const clock = loadClock();
  if (!clock || MODE !== "dealer") {
    box.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((clock.ends - Date.now()) / 1000));
  box.hidden = false;
  box.className = `clock${left <= clock.countdown ? " countdown" : ""}`;
  paint(html`<span>Clock on ${clock.name}</span> <b id="clock-left">${left}</b><button type="button" class="btn small" data-action="clock-cancel">Cancel</button>`, box);
}
