// @ts-check
// The outbox: each command gets its event id on the tablet and waits in a queue kept in
// localStorage until the server answers, so a lost answer is retried with the same id (recorded
// once) and a tablet that was offline shows what it still has to send, or the conflict with
// what the table recorded meanwhile.

import { sendCommand } from "./api.js";
import { fill, h } from "./dom.js";
import { apply, render, setConnection } from "./hooks.js";
import { decideOffline, decidesHere, engine, nextStepOffline, show } from "./engine.js";
import { showSignIn } from "./signin.js";
import { $, H, OUTBOX_KEY, S, blocked, canRecord, freshUi, levelText } from "./store.js";

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

// One tap = one command, never dropped: a tap while earlier entries are still on their way
// (in flight, offline) joins the queue behind them, in order. The version is the one on screen
// when the dealer tapped; a command queued behind another takes the version that one is
// recorded at. `forNext` marks a betting action tapped while others wait: it is the action of
// whoever is to act once they are recorded, so its player (and an all-in's amount) is filled
// in from the table the previous answer brought, just before it is sent.
/**
 * @param {any} command
 * @param {string} label
 * @param {{forNext?: boolean, auto?: boolean, seat?: number}} [options] auto: a step the page
 *   takes by itself; seat: the command's player is whoever sits there in the hand the table is
 *   at when it is sent (a show or a muck queued offline, after a start the tablet did not see)
 */
export function record(command, label, options) {
  if (!canRecord() || !S.state || blocked()) return;
  S.tapAt = S.lastTap !== null ? S.lastTap : performance.now();
  let forNext = !!(options && options.forNext);
  // Offline, the engine on this tablet decides the entry first (the server decides it again).
  const decided = decidesHere() ? decideOffline(command) : null;
  if (decided && !decided.ok) {
    S.alertBox = {
      kind: "refused",
      title: `Refused on this tablet: ${label}`,
      rule: decided.rule,
      rule_words: decided.rule_words || "",
      text: `${decided.message} (the rules engine on this tablet, offline: nothing was queued)`,
      legal: decided.legal_words || [],
    };
    render();
    return;
  }
  if (decided) {
    command = decided.command;
    if (forNext) label = `${decided.name}: ${label.replace(/^next to act: /, "")}`;
    forNext = false;
  }
  S.outbox.push({
    event_id: H.uuid4(),
    expected_version: S.outbox.length ? null : S.state.version,
    command,
    label,
    for_next: forNext,
    seat: options && options.seat !== undefined ? options.seat : null,
    checked: !!decided,
    // What the tablet's engine said the table would be after it: the server, deciding it
    // again, may differ (a level, a break or a move recorded meanwhile on the tournament).
    expect: decided ? facts(decided.view) : null,
    // Out of reach of the server, the level the tablet showed for the hand it starts (the
    // server's may be another by the time the entry reaches it).
    level: command.type === "start_hand" && S.connection !== "live" && S.state.level ? S.state.level : null,
    queued_at: new Date().toISOString(),
  });
  saveOutbox();
  S.alertBox = null;
  S.ui = freshUi();
  if (decided) show(decided.view);
  render();
  if (decided && H.testing && !(options && options.auto)) {
    // Offline, the updated screen is the engine's: tap to its paint (as in main.js's apply).
    const started = S.tapAt;
    S.tapAt = null;
    requestAnimationFrame(() => setTimeout(() => /** @type {any} */ (window).__latencies.push(performance.now() - started), 0));
  }
  // Offline, the step the page takes by itself (the push nobody contests, the next hand).
  const step = decided ? nextStepOffline(command) : null;
  if (step) record(step[0], step[1], { auto: true });
  flush();
}

/**
 * The table's facts an entry decided offline must lead to: the hand, the markers, who is to
 * act, the board, every stack and bet.
 * @param {any} view
 */
export function facts(view) {
  const hand = view.hand || {};
  return JSON.stringify([view.hand_in_progress, hand.number, hand.phase, hand.to_act, hand.board, hand.button_seat,
    hand.small_blind_seat, hand.big_blind_seat, hand.pot_total,
    (view.seats || []).map((s) => [s.seat, s.stack, s.bet, s.folded])]);
}

// The player to act now (after every answer so far) for an entry tapped as "next to act"; the
// player in the hand at the seat an entry queued offline names.
function resolve(item) {
  if (item.seat !== null && item.seat !== undefined) {
    const at = S.state && S.state.hand_in_progress ? S.state.seats.find((s) => s.seat === item.seat && s.in_hand) : null;
    if (!at) return false;
    item.command.player = at.position;
    item.seat = null;
    return true;
  }
  if (!item.for_next) return true;
  const legal = S.state && S.state.hand && S.state.hand_in_progress ? S.state.hand.legal : null;
  if (!legal) return false;
  item.command.player = legal.player;
  if (item.command.to === "max") item.command.to = legal.max_to;
  item.label = `${legal.name}: ${item.label.replace(/^next to act: /, "")}`;
  item.for_next = false;
  return true;
}

/** The last entries this tablet recorded (newest first), for the outbox box. */
function remember(item, version) {
  S.recorded = [{ label: item.label, version }].concat(S.recorded || []).slice(0, 3);
}

export async function flush() {
  // Signed out (the session ended): the queue waits for the dealer to sign in again, and no
  // send answered 401 redraws the sign-in keypad while he types.
  if (flushing || blocked() || !S.outbox.length || !canRecord()) return;
  if (S.busy && Date.now() < S.busy.until) return; // the retry is scheduled for then
  flushing = true;
  try {
    while (S.outbox.length && !blocked()) {
      const item = S.outbox[0];
      if (item.expected_version === null) {
        item.expected_version = S.state.version;
        saveOutbox();
      }
      if (!resolve(item)) {
        refuse(item, item.seat !== null && item.seat !== undefined
          ? { rule: "seat", message: `nobody at seat ${item.seat} is in the hand on the table as it is now`, legal: [] }
          : { rule: "turn", message: "nobody is to act on the table as it is now", legal: [] }, 0);
        render();
        continue;
      }
      saveOutbox();
      if (!navigator.onLine) {
        // The browser knows there is no network: no send (the "online" event flushes again).
        setConnection("offline");
        scheduleRetry();
        return;
      }
      let answer;
      try {
        answer = await sendCommand(item);
      } catch (_e) {
        S.failures += 1;
        setConnection("offline");
        scheduleRetry();
        return;
      }
      S.failures = 0;
      const body = answer.body || {};
      if (answer.status !== 503) S.busy = null;
      if (answer.status === 200) {
        S.outbox.shift();
        if (S.outbox.length && S.outbox[0].expected_version === null) S.outbox[0].expected_version = body.version;
        saveOutbox();
        remember(item, body.version);
        if (S.connection === "offline") setConnection("live");
        const level = levelChange(item, body.table);
        if (level || (item.expect && body.table && S.outbox.length && facts(body.table) !== item.expect)) differs(item, level);
        apply(body.table);
      } else if (answer.status === 409) {
        S.conflict = { item, body };
        apply(body.table);
      } else if (answer.status === 401) {
        S.me = { role: null };
        showSignIn("Your session ended: sign in again to send the waiting entries.");
        return;
      } else if (answer.status === 503) {
        // The store cannot take it just now (a full disk, the database restarting): nothing was
        // recorded; the same entry goes again by itself when the server says (Retry-After),
        // with the same event id, and the dealer sees why it waits.
        const wait = Math.min(30, Math.max(1, Number(answer.headers.get("Retry-After")) || 2));
        S.busy = { until: Date.now() + wait * 1000, message: body.message || "" };
        scheduleRetry(wait * 1000);
        return;
      } else if (answer.status >= 500 || answer.status === 0) {
        scheduleRetry();
        return;
      } else {
        // Refused (422 rule or request, 403 role, 400 malformed, 413 too large): nothing was recorded.
        refuse(item, body, answer.status);
        if (body.table) apply(body.table);
      }
      render();
    }
  } finally {
    flushing = false;
  }
  render();
}

// A refused entry leaves the queue and is shown with its rule. What was queued behind it was
// meant to follow it: it is held (not dropped) until the dealer sends it or discards it.
function refuse(item, body, status) {
  S.outbox.shift();
  saveOutbox();
  S.failed = [{ label: item.label, rule: body.rule_words || body.rule || `HTTP ${status}`, text: body.message || "" }].concat(S.failed || []).slice(0, 3);
  S.held = S.outbox.length ? { after: item.label } : null;
  S.alertBox = {
    kind: "refused",
    title: `Refused: ${item.label}`,
    rule: body.rule || `HTTP ${status}`,
    rule_words: body.rule_words || "",
    text: body.message || "",
    legal: body.legal || [],
    extra: S.outbox.length ? `${S.outbox.length} later entr${S.outbox.length > 1 ? "ies" : "y"} held: send or discard ${S.outbox.length > 1 ? "them" : "it"} below` : "",
  };
}

// The server recorded an entry decided offline but its table is not the one the tablet's
// engine showed (the tournament moved on meanwhile: a new level's blinds, a break, a move), or
// it started a hand at another level than the tablet showed: what was tapped after it was meant
// for the table shown then, so it is held for the dealer. `level`: the words of a new level.
function differs(item, level) {
  S.held = S.outbox.length ? { after: item.label, why: "differs" } : null;
  S.alertBox = {
    kind: "refused",
    title: `Decided differently by the server: ${item.label}`,
    text: level || "It is recorded, but the table is not the one this tablet showed offline: the director may have started a new level, a break or a move meanwhile. Check the table as it is now.",
    legal: [],
    extra: S.outbox.length ? `${S.outbox.length} later entr${S.outbox.length > 1 ? "ies" : "y"} held: send ${S.outbox.length > 1 ? "them" : "it"} on the table as it is now, or discard, below` : "",
  };
}

// A hand started offline is dealt at the level the server has when the entry reaches it (a new
// level applies from the next hand started): when that is not the level the tablet showed, the
// dealer is told which, at the hand it starts; "" when it is the same.
function levelChange(item, table) {
  const hand = table && table.hand;
  if (!item.level || item.command.type !== "start_hand" || !hand || !table.level || hand.level === item.level.number) return "";
  return `Hand #${hand.number} started at ${levelText(table.level)}, not ${levelText(item.level)} as this tablet showed: the director started the new level while this tablet was offline, and a new level applies from the next hand started. If the blinds were posted at the old level, call the director.`;
}

/** Send the entries held after a refusal, on the table as it is now. */
export function sendHeld() {
  S.held = null;
  // On the table as it is now: what the tablet's engine predicted offline no longer applies.
  for (const item of S.outbox) {
    item.expected_version = null;
    item.expect = null;
  }
  if (S.outbox.length) S.outbox[0].expected_version = S.state.version;
  saveOutbox();
  S.alertBox = null;
  render();
  flush();
}

export function discardHeld() {
  S.held = null;
  S.outbox = [];
  saveOutbox();
  S.alertBox = null;
  render();
}

/** @param {number} [ms] */
export function scheduleRetry(ms = 1500) {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(flush, ms);
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
  for (const item of S.outbox) item.expect = null;
  S.conflict = null;
  saveOutbox();
  S.tapAt = performance.now();
  flush();
}

function sending() {
  return isFlushing() && !blocked() && S.connection !== "offline";
}

// What the tablet says about the rules while offline.
function engineWords() {
  if (engine.state === "ready") return "Checked on this tablet by the rules engine (the same as the server's): betting, the board, the shows, the push and the next hand, which starts by itself after the push. A new level, a break or a move the director records meanwhile is not known here: the server decides every entry again when the network returns, and says so if the table changed.";
  if (engine.state === "loading") return "Starting the rules engine on this tablet…";
  return `Not checked on this tablet: ${engine.why || "no rules engine here"}. Every entry is queued as tapped and kept on this tablet (a reload keeps them); the server decides them, in order, when the network returns, and names here any it refuses.`;
}

// What this tablet has recorded, what is waiting (the first one on its way), what failed:
// the box above the action panel, while anything waits or needs the dealer.
export function renderOutbox() {
  const box = $("outbox");
  if (!S.outbox.length && !S.conflict && !S.held) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const waiting = S.outbox.length;
  const entries = `${waiting} entr${waiting === 1 ? "y" : "ies"}`;
  const parts = [];
  if (S.conflict) {
    const b = S.conflict.body || {};
    box.className = "outbox conflict";
    parts.push(h("div", { class: "alert-title" }, "Not recorded: the table changed"));
    parts.push(h("div", { class: "alert-text" }, b.rule === "stale-version"
      ? `This tablet saw version ${b.expected}; the table is at ${b.actual}. Meanwhile it recorded:`
      : b.message || ""));
    parts.push(h("ol", { class: "since" }, (b.since || []).map((e) =>
      h("li", null, `#${e.version} ${e.text} `, h("small", null, `(${e.actor}, ${e.device})`)))));
    parts.push(h("div", { class: "alert-text" }, "Still to send from this tablet:"));
  } else if (S.held) {
    box.className = "outbox held";
    parts.push(h("div", { class: "alert-title" }, `Held: ${entries} tapped after "${S.held.after}", which ${S.held.why === "differs" ? "the server decided differently" : "was refused"}`));
  } else if (S.busy) {
    box.className = "outbox busy";
    parts.push(h("div", { class: "alert-title" }, `The store is busy, retrying: ${entries} waiting`));
    parts.push(h("div", { class: "alert-text" }, "The server could not record just now (its database is busy or restarting); nothing was recorded. This tablet sends them again by itself, with the same ids, so each is recorded once: keep tapping, the taps wait in order."));
  } else {
    box.className = "outbox";
    const how = S.connection === "offline" ? "Offline: " : "Sending: ";
    parts.push(h("div", { class: "alert-title" }, `${how}${entries} waiting`));
    if (S.connection === "offline") parts.push(h("div", { class: "alert-text engine", tabindex: "0", dataset: { engine: engine.state } }, engineWords()));
  }
  if (S.recorded && S.recorded.length && !S.conflict) {
    parts.push(h("ol", { class: "recorded" }, S.recorded.slice().reverse().map((r) =>
      h("li", { dataset: { version: r.version } }, h("b", null, "recorded "), `#${r.version} ${r.label}`))));
  }
  parts.push(h("ol", { class: "pending", tabindex: "0", "aria-label": "Waiting to be sent" }, S.outbox.map((item, i) =>
    h("li", { class: i === 0 && sending() ? "sending" : "waiting" },
      h("b", null, i === 0 && sending() ? "sending " : "waiting "), item.label,
      item.checked ? h("small", null, " · checked here") : null))));
  if (S.failed && S.failed.length && S.held) {
    parts.push(h("ol", { class: "failed" }, S.failed.slice(0, 1).map((f) =>
      h("li", null, h("b", null, "refused "), `${f.label} (${f.rule}) ${f.text}`))));
  }
  if (S.conflict) {
    parts.push(h("div", { class: "alert-text what-to-do" }, "Discard mine: the table keeps what it recorded. Re-apply mine: my entries go again, on the table as it is now, and the server decides them again."));
    parts.push(h("div", { class: "row" },
      h("button", { type: "button", class: "btn", dataset: { action: "discard" } }, "Discard mine"),
      h("button", { type: "button", class: "btn primary", dataset: { action: "reapply" } }, "Re-apply mine")));
  } else if (S.held) {
    parts.push(h("div", { class: "row" },
      h("button", { type: "button", class: "btn", dataset: { action: "discard-held" } }, "Discard them"),
      h("button", { type: "button", class: "btn primary", dataset: { action: "send-held" } }, "Send them")));
  }
  fill(box, parts);
}

S.outbox = loadOutbox();
