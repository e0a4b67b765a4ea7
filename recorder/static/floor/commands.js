// @ts-check
// Sending the floor's commands. One click = one command with its own event id and the
// tournament's version on screen. A lost answer is sent again with the same id
// (automatically, then with "Send again"), so the server records it once; a stale version
// comes back as a conflict to check.

import * as H from "../common.js";
import { apply, applyChanges } from "./merge.js";
import { renderAlert, showAlert } from "./render.js";
import { F, hooks } from "./state.js";

// Commands from this screen go one after the other: one clicked while the last is still
// being recorded waits for its answer and is sent with the version that answer brings. (A
// command may take several appends, e.g. a late entry and his seat; the live view can show
// the first before the rest, and a version taken from it would be refused as stale.)
let queue = Promise.resolve();

/**
 * @param {string} t the tournament's id
 * @param {any} command
 * @param {string} label
 */
export function tournamentCommand(t, command, label) {
  const eventId = H.uuid4();
  const run = () => {
    const shown = ((F.floor && F.floor.tournaments) || []).find((x) => x.id === t);
    const body = { event_id: eventId, expected_version: shown ? shown.version : null, command };
    return send(`/api/tournaments/${encodeURIComponent(t)}/commands`, body, label);
  };
  hooks.__floorPending += 1;
  const result = queue.then(run, run).finally(() => { hooks.__floorPending -= 1; });
  queue = result.catch(() => null);
  return result;
}

/**
 * @param {string} path
 * @param {any} body
 * @param {string} label
 */
export async function send(path, body, label) {
  F.unsent = null;
  for (let attempt = 1; ; attempt += 1) {
    let answer;
    try {
      answer = await H.api("POST", path, body);
    } catch (_e) {
      answer = null; // offline, or the answer was lost
    }
    const resend = answer && answer.body && answer.body.resend;
    if (answer && answer.status === 200) {
      F.alertBox = null;
      if (answer.body.tournament) applyChanges(answer.body);
      else apply(answer.body);
      return answer.body;
    }
    if (answer && answer.status < 500 && !resend) {
      if (answer.body && answer.body.floor) apply(answer.body.floor);
      showAlert("refused", `Refused: ${label}`, answer.body);
      return null;
    }
    if (attempt >= 3) {
      F.unsent = { path, body, label };
      showAlert("refused", `${label}: not confirmed`, {
        rule: answer ? (answer.body && answer.body.rule) || `HTTP ${answer.status}` : "offline",
        message: "No answer from the server. Send it again: it is recorded once, however often it is sent.",
      });
      return null;
    }
    await new Promise((resolve) => setTimeout(resolve, 700 * attempt));
  }
}

/**
 * A command sent once (a pairing code, a checkpoint): its answer's body, or null after
 * saying why not.
 * @param {string} path
 * @param {any} body
 * @param {string} label
 */
export async function sendOnce(path, body, label) {
  let answer;
  try {
    answer = await H.api("POST", path, body);
  } catch (_e) {
    showAlert("refused", `${label}: not sent (offline)`, null);
    return null;
  }
  if (answer.status !== 200) {
    showAlert("refused", `Refused: ${label}`, answer.body);
    return null;
  }
  F.alertBox = null;
  renderAlert();
  return answer.body;
}
