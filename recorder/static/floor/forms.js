// @ts-check
// What the floor's buttons and forms do: a click on [data-action] and a submit of
// [data-form] anywhere on the page (the regions are drawn again often: the listeners are on
// the document), and the new-tournament form outside the live view.

import * as H from "../common.js";
import { sendOnce, send, tournamentCommand } from "./commands.js";
import { apply, refresh } from "./merge.js";
import { render, renderAlert, renderSide, showAlert } from "./render.js";
import { $, F } from "./state.js";
import { loadTablets } from "./tablets.js";

/** @type {Record<string, (el: any) => any>} */
const actions = {
  async revoke(el) {
    const answer = await H.api("DELETE", `/api/sessions/${encodeURIComponent(el.dataset.session)}`).catch(() => null);
    if (!answer) showAlert("refused", "Sign out a tablet: not sent (offline)", null);
    else if (answer.status !== 200 && answer.status !== 404) showAlert("refused", "Refused: sign out a tablet", answer.body);
    await loadTablets();
  },
  dismiss() {
    F.alertBox = null;
    F.unsent = null;
    renderAlert();
  },
  async resend() {
    if (F.unsent) await send(F.unsent.path, F.unsent.body, F.unsent.label); // the same event id
  },
  async pair(el) {
    const body = await sendOnce(`/api/tables/${encodeURIComponent(el.dataset.stream)}/pairing`, {}, "pairing code");
    if (body) refresh();
  },
  async checkpoint() {
    const body = await sendOnce("/api/log/checkpoint", {}, "checkpoint");
    if (body && F.floor) {
      F.floor.checkpoint = body.checkpoint;
      renderSide();
    }
  },
  async "sign-off"(el) {
    const body = await sendOnce(`/api/tournaments/${encodeURIComponent(el.dataset.t)}/sign-off`, {}, "sign-off of the results");
    if (body && F.floor) {
      F.floor.sign_offs = [...(F.floor.sign_offs || []), body.sign_off];
      renderSide();
    }
  },
  async "t-cmd"(el) {
    const command = Object.assign({ type: el.dataset.type }, JSON.parse(el.dataset.args || "{}"));
    await tournamentCommand(el.dataset.t, command, el.textContent);
  },
  async signout() {
    await H.logout();
    location.reload();
  },
};

/**
 * Cents from an amount typed in the currency ("12.50" -> 1250; "" -> 0).
 * @param {string} typed
 */
export function dollarsToCents(typed) {
  const amount = parseFloat(String(typed || "0").replace(",", "."));
  return Number.isFinite(amount) && amount > 0 ? Math.round(amount * 100) : 0;
}

/**
 * The command a tournament form sends, or null when the form only changes the screen.
 * @param {string} t
 * @param {string} kind
 * @param {Record<string, any>} data
 * @param {any} form
 */
function formCommand(t, kind, data, form) {
  if (kind === "extra-break") {
    const minutes = parseInt(data.minutes, 10);
    return minutes > 0 ? tournamentCommand(t, { type: "start_break", minutes }, "extra break") : null;
  }
  if (kind === "register") return tournamentCommand(t, { type: "register", name: data.name, high_hand: "high_hand" in data }, `register ${data.name}`);
  if (kind === "bag") return tournamentCommand(t, { type: "bag_stack", player: data.player, chips: Number(data.chips), bag: data.bag }, `bag ${data.bag}`);
  if (kind === "next-day") return tournamentCommand(t, { type: "start_day", sources: data.sources.split(",").map((x) => x.trim()).filter((x) => x) }, "next day");
  if (kind === "re-enter") return tournamentCommand(t, { type: "re_enter", player: data.player }, "re-entry");
  if (kind === "rebuy") return tournamentCommand(t, { type: "rebuy", player: data.player }, "rebuy");
  if (kind === "add-on") return tournamentCommand(t, { type: "add_on", player: data.player }, "add-on");
  if (kind === "high-hand-fee") return tournamentCommand(t, { type: "high_hand_fee", player: data.player, paid: data.paid === "paid" }, "high-hand fee");
  if (kind === "award-high-hand") {
    const players = Object.keys(data).filter((key) => key.startsWith("holder:")).map((key) => key.slice(7));
    return tournamentCommand(t, { type: "award_high_hand", players }, "high-hand jackpot");
  }
  if (kind === "penalty") return tournamentCommand(t, { type: "penalty", player: data.player, penalty: data.penalty, count: parseInt(data.count || "0", 10), rule: data.rule || "tda-71", reason: data.reason || "" }, "penalty");
  if (kind === "deal") {
    const consents = {};
    for (const [key, value] of Object.entries(data)) if (key.startsWith("consent:")) consents[key.slice(8)] = value;
    return tournamentCommand(t, { type: "deal", method: data.method, kept: dollarsToCents(data.kept), consents }, "deal");
  }
  if (kind === "count") {
    const stacks = {};
    for (const [key, value] of Object.entries(data)) if (key.startsWith("stack:")) stacks[key.slice(6)] = parseInt(value, 10);
    return tournamentCommand(t, { type: "count_stacks", table: form.dataset.table, occasion: data.occasion, stacks }, `count of table ${form.dataset.table}`);
  }
  if (kind === "correct") {
    const player = form.dataset.player;
    const command = { type: "correct_stack", player, reason: data[`reason:${player}`] };
    if (data[`ruled:${player}`] !== "") command.stack = parseInt(data[`ruled:${player}`], 10);
    return tournamentCommand(t, command, "stack correction");
  }
  if (kind === "draw") return tournamentCommand(t, { type: "draw_seats", tables: parseInt(data.tables, 10) }, "seat draw");
  if (kind === "move") return tournamentCommand(t, { type: "move", player: data.player, to_table: data.to_table, reason: "floor move" }, "move");
  if (kind === "message") return tournamentCommand(t, { type: "message", text: data.text || "" }, "message");
  if (kind === "ruling") return tournamentCommand(t, { type: "ruling", rule: data.rule, text: data.text, stream: data.stream }, "ruling");
  return null;
}

async function submitted(form) {
  /** @type {Record<string, any>} */
  const data = Object.fromEntries(new FormData(form).entries());
  const t = form.dataset.t;
  const kind = form.dataset.form;
  if (kind === "count-table") {
    F.countTable[t] = data.table;
    render();
    return;
  }
  const done = await formCommand(t, kind, data, form);
  if (done && kind === "count") {
    delete F.countTable[t];
    render();
  }
  if (done && (kind === "register" || kind === "ruling")) {
    const fresh = document.querySelector(`[data-form="${kind}"][data-t="${CSS.escape(t)}"]`);
    // A checkbox is cleared by unticking it: its value is what a ticked box sends ("on"),
    // and clearing that made every later tick arrive as "" (the fee lost, issue 24).
    if (fresh) {
      for (const input of fresh.querySelectorAll("input")) {
        if (input.type === "checkbox") input.checked = false;
        else input.value = "";
      }
    }
  }
}

// A new tournament from a structure file (TOML): the server checks it and names every wrong
// field. The form is outside the live view, so a redraw never clears the chosen file.
let newTournamentId = H.uuid4(); // the same on a retry: created once

async function newTournament(form) {
  const data = new FormData(form);
  const file = /** @type {File | null} */ (data.get("structure"));
  if (!file || !file.name) return;
  F.alertBox = null; // the last refusal was about the last attempt
  renderAlert();
  const text = await file.text();
  const answer = await H.api("POST", "/api/tournaments", {
    id: data.get("id"), structure: text, file: file.name, event_id: newTournamentId,
  }).catch(() => null);
  if (!answer) {
    showAlert("refused", "New tournament: not sent (offline)", null);
  } else if (answer.status === 200) {
    F.alertBox = null;
    apply(answer.body);
    form.reset();
    newTournamentId = H.uuid4();
  } else {
    showAlert("refused", "Refused: new tournament", answer.body);
  }
}

export function listen() {
  document.addEventListener("click", (event) => {
    const el = /** @type {any} */ (event.target).closest("[data-action]");
    if (!el || el.disabled) return;
    const handler = actions[el.dataset.action];
    if (handler) handler(el);
  });
  document.addEventListener("submit", (event) => {
    const form = /** @type {any} */ (event.target).closest("[data-form]");
    if (!form) return;
    event.preventDefault();
    submitted(form);
  });
  // The deal's amounts follow the amount kept as it is typed.
  document.addEventListener("change", (event) => {
    const input = /** @type {any} */ (event.target);
    if (input && input.name === "kept" && input.closest("[data-form='deal']")) renderSide();
  });
  const form = $("new-tournament-form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    newTournament(form);
  });
}
