// @ts-check
// The dealer's tablet (/dealer/<table>) and the viewer's screen (/view/<table>): the wiring.
//
// The state lives on the server: this page renders the table view the API sends (the same
// after a reload) and records the dealer's taps as commands through the outbox (outbox.js).

import { actionTaps, autoAdvance } from "./actions.js";
import { fetchTable, followTable, login, session as getSession } from "./api.js";
import { cardTaps, stepTo } from "./cards.js";
import { checkClock, tickClock } from "./clock.js";
import { engine, loadEngine, predictNow, watchEngine } from "./engine.js";
import { wire } from "./hooks.js";
import { flush, isFlushing, record } from "./outbox.js";
import { render, renderAlert, renderStatus } from "./render.js";
import { directorTaps, outOfTurnTaps, renderSheet, watchDirectorInputs } from "./sheets.js";
import { showSignIn } from "./signin.js";
import { $, H, MODE, S, STREAM, canRecord } from "./store.js";

// The modules below this one reach these through hooks.js (no import circle).
wire({ render, renderSheet, renderAlert, record, apply, setConnection, start });

/** @type {Record<string, (el: any) => void>} */
const actions = Object.assign({}, actionTaps, cardTaps, directorTaps, outOfTurnTaps);

if (H.testing) /** @type {any} */ (window).__latencies = [];

// The last table view and session this tablet had, for a reload with no network.
const VIEW_KEY = `handlog.view.${STREAM}`;
const ME_KEY = `handlog.me.${STREAM}`;

function saved(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch (_e) {
    return null;
  }
}

function apply(view) {
  if (!view || (S.state && view.version < S.state.version)) return;
  const before = S.state;
  S.state = view;
  if (MODE === "dealer" && canRecord() && (!before || before.version !== view.version)) {
    try {
      localStorage.setItem(VIEW_KEY, JSON.stringify(view));
    } catch (_e) {
      // a full storage keeps the older view: the queue matters more
    }
  }
  if (!before || before.version !== view.version) {
    stepTo(view.hand);
    checkClock();
  }
  render();
  if (before) autoAdvance(); // its own guards: this tablet's entry, once per version
  if (S.tapAt !== null && before && before.version !== view.version) {
    // Tap to updated screen: from the tap's input event to the paint of the new state
    // (a task queued from the next animation frame runs once that frame is painted).
    const started = S.tapAt;
    S.tapAt = null;
    if (H.testing) requestAnimationFrame(() => setTimeout(() => /** @type {any} */ (window).__latencies.push(performance.now() - started), 0));
  }
}

function setConnection(value) {
  S.connection = value;
  renderStatus();
  // Offline (the browser says so, or the server has not answered three tries in a row; one
  // lost answer is not an outage): start the rules engine on this tablet (Pyodide, from the
  // service worker's cache).
  if (value === "offline" && MODE === "dealer" && canRecord() && (!navigator.onLine || S.failures >= 3)) loadEngine();
}

watchEngine(() => {
  if (S.connection === "offline") predictNow();
  if (S.state) render();
});

document.addEventListener("click", (event) => {
  const el = /** @type {any} */ (event.target).closest("[data-action]");
  if (!el || el.disabled) return;
  const handler = actions[el.dataset.action];
  S.lastTap = event.timeStamp;
  if (handler) handler(el);
  S.lastTap = null;
});

watchDirectorInputs();

let following = null;

async function start() {
  if (MODE === "dealer" && S.me.role) localStorage.setItem(ME_KEY, JSON.stringify(S.me));
  if (!following) {
    following = followTable(apply, (s) => {
      setConnection(s !== "live" && !navigator.onLine ? "offline" : s);
      if (s === "live") flush();
      else checkSession();
    });
  }
  const answer = await fetchTable().catch(() => null);
  if (answer && answer.status === 200) apply(answer.body);
  else if (answer && answer.status === 404) $("title").textContent = `No table ${STREAM}`;
  tickClock();
  flush();
}

// A session can end (signed out, expired, or a server with a new secret): the event
// stream then fails for good; say so.
let lastCheck = 0;
async function checkSession() {
  if (Date.now() - lastCheck < 5000 || !$("signin").hidden) return;
  lastCheck = Date.now();
  const session = await getSession();
  if (!session.offline && !session.role && $("signin").hidden) {
    S.me = { role: null };
    showSignIn("Your session ended: sign in again.");
  }
}

async function boot() {
  S.me = await getSession();
  if (S.me.offline && MODE === "dealer") {
    // No network (a reload during an outage): the tablet goes on as the dealer it was, from
    // the last table view it had; what is tapped waits in the outbox.
    const me = saved(ME_KEY);
    const view = saved(VIEW_KEY);
    if (me && me.role) {
      S.me = me;
      if (view) apply(view);
      setConnection("offline");
    }
  }
  if (MODE === "viewer") {
    if (!S.me.role) {
      const answer = await login({ role: "viewer" });
      S.me = answer.body || { role: null };
    }
    start();
    return;
  }
  if (S.me.role === "director" || (S.me.role === "dealer" && S.me.table === STREAM)) {
    start();
  } else {
    showSignIn(S.me.role === "dealer" ? `This tablet is the dealer of table ${S.me.table}.` : "");
  }
}

window.addEventListener("online", () => {
  setConnection("live");
  flush();
});
window.addEventListener("offline", () => setConnection("offline"));
setInterval(() => {
  if (S.outbox.length && !S.conflict && !isFlushing()) flush();
}, 3000);
// What the browser tests read (only behind the test flag, see common.js).
if (H.testing) /** @type {any} */ (window).handlogTable = { outbox: () => S.outbox.slice(), state: () => S.state, engine: () => engine.state };
boot();
