// @ts-check
// The room's clock screen (/clock, or /clock?t=TOURNAMENT for one event): the level, the blinds
// and the time left, what comes next, the field and the prize pool, read from across the room.
// No sign-in (it reads as a viewer: no PIN, no hole card) and no controls. It follows the live
// floor (GET /api/floor/events) and counts down by itself between updates, so a dropped
// connection stops the updates, not the clock.

import * as H from "./common.js";
import { html, nothing, render } from "./lit.js";

const wanted = new URLSearchParams(location.search).get("t");
/** @type {{floor: any, offset: number, status: string, updates: number}} */
const S = { floor: null, offset: 0, status: "connecting", updates: 0 };
const screen = /** @type {HTMLElement} */ (document.getElementById("screen"));
const statusBox = /** @type {HTMLElement} */ (document.getElementById("status"));
let stopFollowing = null;
let checked = 0;

/** @param {any} floor */
function pick(floor) {
  const list = (floor && floor.tournaments) || [];
  if (wanted) return list.find((t) => t.id === wanted) || null;
  return list.find((t) => !t.finished) || list[0] || null;
}

/** @param {number} ms */
function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/** @param {any} t */
function timeLeft(t) {
  const c = t.clock || {};
  if (c.kind !== "level" && c.kind !== "break") return "";
  return clockText(c.paused ? c.left_ms : c.ends - (Date.now() + S.offset));
}

/** @param {number} cents @param {string} currency */
function money(cents, currency) {
  const whole = cents % 100 === 0;
  try {
    return (cents / 100).toLocaleString("en-US", { style: "currency", currency: currency || "USD", minimumFractionDigits: whole ? 0 : 2 });
  } catch (_e) {
    return `${(cents / 100).toFixed(whole ? 0 : 2)} ${currency || ""}`;
  }
}

/** @param {any} s */
function blinds(s) {
  if (!s) return "";
  return `${H.chips(s.small_blind)} / ${H.chips(s.big_blind)}${s.ante ? ` · ante ${H.chips(s.ante)}` : ""}`;
}

/** @param {string} title @param {any} value */
function cell(title, value) {
  return html`<section class="clock-cell"><h2>${title}</h2><p>${value}</p></section>`;
}

/** @param {any} t */
function levelLabel(t) {
  if (t.finished) return "Finished";
  const c = t.clock || {};
  if (c.label) return c.label;
  return t.level ? `Level ${t.level}` : "Not started";
}

/** @param {any} t */
function highHand(t) {
  const hh = t.high_hand;
  if (!hh || !hh.cards) return "none yet";
  const names = (hh.players || []).map((p) => p.name).join(", ");
  return `${hh.cards}${names ? ` · ${names}` : ""}`;
}

function draw() {
  const t = pick(S.floor);
  document.body.dataset.state = S.status;
  statusBox.dataset.state = S.status;
  statusBox.textContent = S.status === "live" ? "live" : `${S.status}: the clock keeps counting`;
  if (!t) {
    const why = !S.floor ? "connecting..." : wanted ? `No tournament named ${wanted}` : "No tournament yet";
    render(html`<h1 class="clock-name">handlog</h1><p class="clock-wait">${why}</p>`, screen);
    return;
  }
  const paused = Boolean(t.clock && t.clock.paused);
  const up = t.upcoming || {};
  const next = up.level ? `${blinds(up.level)}` : "none";
  const payouts = (t.payouts || []).slice(0, 10);
  render(
    html`<h1 class="clock-name">${t.name}</h1>
      <div class="clock-level" data-level=${t.level}>${levelLabel(t)}${t.on_break || t.finished ? nothing : html` · <span class="clock-blinds-inline">${blinds(t.stakes)}</span>`}</div>
      <div>
        <div class="clock-time" data-paused=${paused ? "true" : "false"} data-clock>${t.finished ? `Winner: ${t.winner}` : timeLeft(t)}</div>
        ${paused ? html`<div class="clock-paused">Clock paused</div>` : nothing}
        ${t.on_break || t.finished ? nothing : html`<div class="clock-blinds">${blinds(t.stakes)}</div>`}
      </div>
      <div class="clock-grid">
        ${cell("Next level", next)}
        ${cell("Next break", up.break_after ? `after level ${up.break_after}` : "none")}
        ${cell("Players", `${H.chips(t.remaining)} of ${H.chips(t.entries)}`)}
        ${cell("Average stack", H.chips(t.average_stack))}
        ${cell("Prize pool", money(t.prize_pool || 0, t.currency))}
        <section class="clock-cell wide"><h2>Payouts</h2><ol class="clock-payouts">${payouts.length ? payouts.map((amount, i) => html`<li>${i + 1}. ${i < (t.payout_seats || 0) ? `seat in ${t.seat_target}` : money(amount, t.currency)}</li>`) : html`<li>none yet</li>`}</ol></section>
        ${cell("High hand", highHand(t))}
      </div>
      ${t.message ? html`<div class="clock-message" data-message>${t.message}</div>` : nothing}`,
    screen,
  );
}

/** @param {any} view */
function take(view) {
  if (!view || (S.floor && view.version < S.floor.version)) return;
  S.floor = view;
  S.updates += 1;
  const t = pick(view);
  if (t && t.now) S.offset = t.now - Date.now();
  draw();
}

async function refresh() {
  const answer = await H.api("GET", "/api/floor").catch(() => null);
  if (answer && answer.status === 200) take(answer.body);
}

async function signIn() {
  const me = await H.session();
  if (me.role) return true;
  if (me.offline) return false;
  const answer = await H.login({ role: "viewer", name: "clock screen", device: H.deviceId() }).catch(() => null);
  return Boolean(answer && answer.status === 200);
}

async function start() {
  if (!(await signIn())) {
    S.status = "reconnecting";
    draw();
    setTimeout(start, 2000);
    return;
  }
  if (stopFollowing) stopFollowing();
  // A `changes` frame (what a command changed) is merged by the floor page; this screen
  // reads the floor again instead: one small read per change, nothing to keep in step.
  stopFollowing = H.follow("/api/floor/events", take, async (status) => {
    S.status = status;
    draw();
    if (status === "live") {
      refresh();
    } else if (Date.now() - checked > 5000) {
      checked = Date.now();
      const me = await H.session();
      if (!me.offline && !me.role) start(); // the viewer's session ended: a new one
    }
  }, { changes: refresh });
}

if (H.testing) window.handlogClock = { state: () => S };
setInterval(draw, 250);
draw();
start();
