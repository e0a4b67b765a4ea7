// @ts-check
// The rules while offline: the same engine as the server's, the pure-Python `engine` package,
// run in the browser by Pyodide (served by handlog at /vendor/pyodide/, kept by the service
// worker). It is loaded when the tablet goes offline; each tap is then decided by the engine
// (recorder/offline_engine.py) against the table the server last sent (the view's
// `offline_table` and `offline_hand`) and the entries still waiting: betting, the board, the
// shows, the award and its pot push, and the start of the next hand. Its answer is the table
// view the server's own view code builds (recorder/offline_view.py), so the screen offline is
// what the server will show. The server decides every entry again when it arrives.
// Without Pyodide on the server (a machine that ran only the README's first command), or while
// it starts, the page says so and offers every entry, each queued as tapped (store.js's
// queuesAsTapped, actions.js's queuePanel); the server decides them when the network returns.

import { stepTo } from "./cards.js";
import { S } from "./store.js";

/** @type {{state: "off" | "loading" | "ready" | "missing", why: string, decide: any, kinds: Set<string>}} */
export const engine = { state: "off", why: "", decide: null, kinds: new Set() };
/** @type {Promise<void> | null} */
let loading = null;
/** @type {() => void} */
let onChange = () => {};

/** @param {() => void} callback called when the engine's state changes */
export function watchEngine(callback) {
  onChange = callback;
}

function changed() {
  S.engine = engine.state;
  onChange();
}

export function loadEngine() {
  if (loading) return loading;
  engine.state = "loading";
  changed();
  loading = (async () => {
    try {
      const url = "/vendor/pyodide/pyodide.mjs";
      const pyodide = await import(url);
      const py = await pyodide.loadPyodide({ indexURL: "/vendor/pyodide/" });
      const answer = await fetch("/vendor/engine.zip");
      if (!answer.ok) throw new Error(`engine.zip: HTTP ${answer.status}`);
      py.unpackArchive(await answer.arrayBuffer(), "zip", { extractDir: "/handlog" });
      py.runPython("import sys\nsys.path.insert(0, '/handlog')\nimport handlog_offline");
      const module = py.pyimport("handlog_offline");
      engine.decide = module.decide_entries;
      engine.kinds = new Set(module.DECIDED.toJs());
      module.warm();
      engine.state = "ready";
    } catch (e) {
      engine.state = "missing";
      engine.why = `the rules engine could not start on this tablet (${e instanceof Error ? e.message : e}): is Pyodide installed on the handlog server (npm ci --prefix web)?`;
      loading = null;
    }
    changed();
  })();
  return loading;
}

/** Whether taps are decided here now: offline, with the engine loaded. */
export function decidesHere() {
  return S.connection === "offline" && engine.state === "ready";
}

// What the server sent that the engine does not compute: the stream's facts.
const STREAM_KEYS = ["stream", "version", "role", "events", "offline_hand", "offline_table"];

/** The entries still waiting that the engine decides here, oldest first. */
function waiting() {
  return S.outbox.map((item) => item.command).filter((c) => engine.kinds.has(c.type));
}

/**
 * The engine's answer for `entries` on the table the server last sent (S.state keeps the
 * server's facts, even on a predicted screen): null when it cannot say (not loaded, no table).
 * @param {any[]} entries
 */
function ask(entries) {
  const view = S.state;
  if (engine.state !== "ready" || !view || !view.open || !view.offline_table) return null;
  // The table as the server sent it (the same on every tap until it sends another: the engine
  // goes on from its last answer), and the names of its players.
  const table = { offline_table: view.offline_table, offline_hand: view.offline_hand || [], level: view.level,
    seats: view.seats.map((s) => ({ id: s.id || null, player: s.player })) };
  return JSON.parse(engine.decide(JSON.stringify(table), JSON.stringify(entries)));
}

/**
 * Decide `command` (its player null: the player to act) after the entries still waiting:
 * {ok: true, command, name, view} (the command with its player, the table as it would then be,
 * at the same version) or {ok: false, rule, message, legal_words}; null when the engine cannot
 * say (not loaded, no table, a command it does not decide here: queued as tapped).
 * @param {any} command
 */
export function decideOffline(command) {
  if (!engine.kinds.has(command.type)) return null;
  // A table with no level in its view (no tournament's clock): the server picks the stakes.
  if (command.type === "start_hand" && !(S.state && S.state.level)) return null;
  const entries = waiting().concat([command]);
  const answer = ask(entries);
  if (!answer) return null;
  // An entry queued before the engine started that it refuses: the server will say; this
  // one cannot be decided on a table the tablet does not know, so it is queued as tapped.
  if (!answer.ok) return answer.index === entries.length - 1 ? answer : null;
  const last = answer.commands[answer.commands.length - 1];
  const seat = S.state.seats.find((s) => s.position === last.player && s.in_hand);
  return { ok: true, command: last, name: seat ? seat.player : "", view: predicted(S.state, answer) };
}

/**
 * After a reload offline, or once the engine has started: the screen shows the table as the
 * engine says it is after the entries still waiting.
 */
export function predictNow() {
  if (!S.state || S.state.predicted) return;
  const entries = waiting();
  if (!entries.length) return;
  const answer = ask(entries);
  if (answer && answer.ok) show(predicted(S.state, answer));
}

/** The table view as the engine says it is after the waiting entries (the same version). */
function predicted(view, answer) {
  /** @type {any} */
  const next = { predicted: true };
  for (const key of STREAM_KEYS) if (key in view) next[key] = view[key];
  return Object.assign(next, answer.view);
}

/**
 * Put a predicted view on screen as main.js's apply does a server's: a new step (another
 * player to act, a board card due, a hand to show) starts a fresh entry and opens its picker.
 * @param {any} view
 */
export function show(view) {
  S.state = view;
  stepTo(view.hand);
}

/**
 * The step the page takes by itself offline after `command`, as actions.js's autoAdvance does
 * online: the pot nobody contests is pushed after the last fold or muck, and the next hand
 * starts after the push when the engine says it starts by itself (engine.table.start_hold).
 * Offline the tablet cannot know of a level, a break or a move the director records meanwhile:
 * the server decides the start again when the entry arrives. Returns [command, label] or null.
 * @param {any} command
 * @returns {[any, string] | null}
 */
export function nextStepOffline(command) {
  const s = S.state;
  if (!s || !s.predicted) return null;
  const hand = s.hand;
  if (s.hand_in_progress && hand && hand.phase === "showdown" && hand.showdown && hand.showdown.awards_by_itself
      && (command.type === "fold" || command.type === "muck_cards")) {
    return [{ type: "award_pots" }, "push the pot (nobody left to contest it)"];
  }
  if (!s.hand_in_progress && hand && command.type === "award_pots" && s.next_hand && s.next_hand.ready
      && s.next_hand.starts_by_itself) {
    return [{ type: "start_hand" }, "start the next hand"];
  }
  return null;
}
