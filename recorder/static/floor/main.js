// @ts-check
// The floor page (/floor, and /view for viewers): every table at a glance, the tournament's
// clock, registration, seat draw, moves, eliminations, color-ups, rulings and corrections;
// for the director the dealer PINs and one-time pairing codes. Live over server-sent events.
// This module signs in and follows the floor's stream; the others draw and send.

import * as H from "../common.js";
import { html, render as paint } from "../lit.js";
import { AS_OF, showAsOf } from "./asof.js";
import { addFindBox } from "./find.js";
import { listen } from "./forms.js";
import { apply, applyLive, loadWitnesses, refresh } from "./merge.js";
import { tickClocks } from "./render.js";
import { $, F, VIEW_ONLY, director } from "./state.js";
import { loadTablets, renderTablets } from "./tablets.js";

let tick = null;
let tabletsTick = null;
let witnessesTick = null;
let following = null;
let lastCheck = 0;
const WITNESSES_SECONDS = 3;

/** @param {string} message */
function signInError(message) {
  const error = $("signin-error");
  error.hidden = false;
  error.textContent = message;
}

/** @param {SubmitEvent} event */
async function signInAsDirector(event) {
  event.preventDefault();
  const answer = await H.login({ role: "director", pin: $("director-pin").value });
  if (answer.status === 200) {
    F.me = answer.body;
    $("signin").hidden = true;
    start();
  } else {
    signInError((answer.body && answer.body.message) || `refused (${answer.status})`);
  }
}

async function signInAsViewer() {
  const answer = await H.login({ role: "viewer" });
  F.me = answer.body;
  $("signin").hidden = true;
  start();
}

function signIn() {
  const box = $("signin");
  box.hidden = false;
  paint(html`<h2>Sign in</h2><form class="form" id="signin-form" @submit=${signInAsDirector}><input id="director-pin" type="password" inputmode="numeric" autocomplete="off" placeholder="Director PIN"><button type="submit" class="btn primary">Director</button><button type="button" class="btn" id="as-viewer" @click=${signInAsViewer}>Continue as viewer</button></form><p class="error" id="signin-error" hidden></p>`, box);
}

// The floor's event stream: `state` (the whole floor) on opening, `changes` after. A session
// that ended (signed out, expired) shows the sign-in again.
function start() {
  $("new-tournament").hidden = !director();
  if (following) following();
  following = H.follow("/api/floor/events", apply, async (s) => {
    $("status-text").textContent = s;
    $("status").dataset.state = s;
    if (s !== "live" && Date.now() - lastCheck > 5000) {
      lastCheck = Date.now();
      const session = await H.session();
      if (!session.offline && !session.role) {
        if (following) following();
        following = null;
        F.me = { role: null };
        if (VIEW_ONLY) boot();
        else signIn();
      }
    }
  }, { changes: applyLive });
  clearInterval(tick);
  tick = setInterval(tickClocks, 1000);
  clearInterval(witnessesTick);
  witnessesTick = setInterval(loadWitnesses, WITNESSES_SECONDS * 1000);
  clearInterval(tabletsTick);
  F.tablets = null;
  renderTablets();
  if (director()) {
    loadTablets();
    tabletsTick = setInterval(loadTablets, 15000);
  }
}

async function boot() {
  if (AS_OF) {
    $("new-tournament").hidden = true;
    return showAsOf();
  }
  F.me = await H.session();
  if (F.me.role) return start();
  if (VIEW_ONLY) {
    const answer = await H.login({ role: "viewer" });
    F.me = answer.body;
    return start();
  }
  signIn();
}

// What the browser tests read, only behind the test flag (common.js).
if (H.testing) window.handlogFloor = { refresh, state: () => F.floor, me: () => F.me, unsent: () => F.unsent, tablets: () => F.tablets, loadTablets };
listen();
if (!AS_OF) addFindBox();
boot();
