// @ts-check
// The outbox: each command gets its event id on the tablet and waits in a queue kept in
// localStorage until the server answers, so a lost answer is retried with the same id (recorded
// once) and a tablet that was offline shows what it still has to send, or the conflict with
// what the table recorded meanwhile.

import { sendCommand } from "./api.js";
import { apply, setConnection } from "./main.js";
import { render } from "./render.js";
import { showSignIn } from "./signin.js";
import { H, OUTBOX_KEY, S, canRecord, freshUi } from "./store.js";

let flushing = false;
/** @type {any} */
let retryTimer = null;

export function isFlushing() {
  return flushing;
}

export function loadOutbox() {
  try {
    const items = JSON.parse(localStorage.getItem(OUTBOX_KEY) || "[]");
    return Array.isArray(items) ? items : [];
  } catch (_e) {
    return [];
  }
}

export function saveOutbox() {
  localStorage.setItem(OUTBOX_KEY, JSON.stringify(S.outbox));
}

// One tap = one command. The version is the one on screen when the dealer tapped; a command
// queued behind another takes the version that one is recorded at.
export function record(command, label) {
  if (!canRecord() || !S.state) return;
  S.tapAt = S.lastTap !== null ? S.lastTap : performance.now();
  S.outbox.push({
    event_id: H.uuid4(),
    expected_version: S.outbox.length ? null : S.state.version,
    command,
    label,
    queued_at: new Date().toISOString(),
  });
  saveOutbox();
  S.alertBox = null;
  S.ui = freshUi();
  render();
  flush();
}

export async function flush() {
  if (flushing || S.conflict || !S.outbox.length) return;
  flushing = true;
  try {
    while (S.outbox.length && !S.conflict) {
      const item = S.outbox[0];
      if (item.expected_version === null) {
        item.expected_version = S.state.version;
        saveOutbox();
      }
      let answer;
      try {
        answer = await sendCommand(item);
      } catch (_e) {
        setConnection("offline");
        scheduleRetry();
        return;
      }
      const body = answer.body || {};
      if (answer.status === 200) {
        S.outbox.shift();
        if (S.outbox.length && S.outbox[0].expected_version === null) S.outbox[0].expected_version = body.version;
        saveOutbox();
        if (S.connection === "offline") setConnection("live");
        apply(body.table);
      } else if (answer.status === 409) {
        S.conflict = { item, body };
        apply(body.table);
      } else if (answer.status === 401) {
        S.me = { role: null };
        showSignIn("Your session ended: sign in again to send the waiting entries.");
        return;
      } else if (answer.status >= 500 || answer.status === 0) {
        scheduleRetry();
        return;
      } else {
        // Refused (422 rule or request, 403 role, 400 malformed, 413 too large): nothing was recorded. What was queued
        // behind it was meant to follow it, so it goes too.
        const dropped = S.outbox.length;
        S.outbox = [];
        saveOutbox();
        S.alertBox = {
          kind: "refused",
          title: `Refused: ${item.label}`,
          rule: body.rule || `HTTP ${answer.status}`,
          rule_words: body.rule_words || "",
          text: body.message || "",
          legal: body.legal || [],
          extra: dropped > 1 ? `${dropped - 1} later entr${dropped > 2 ? "ies" : "y"} dropped too` : "",
        };
        if (body.table) apply(body.table);
      }
      render();
    }
  } finally {
    flushing = false;
  }
  render();
}

export function scheduleRetry() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(flush, 1500);
  render();
}

export function discardConflict() {
  S.outbox = [];
  S.conflict = null;
  saveOutbox();
  render();
}

export function reapplyConflict() {
  // The same entry again, as a new entry on the table as it is now.
  if (!S.outbox.length) return discardConflict();
  S.outbox[0].event_id = H.uuid4();
  S.outbox[0].expected_version = S.state.version;
  for (const item of S.outbox.slice(1)) item.expected_version = null;
  S.conflict = null;
  saveOutbox();
  S.tapAt = performance.now();
  flush();
}

S.outbox = loadOutbox();
